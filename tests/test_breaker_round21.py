"""Breaker round 21: configs no engine loads are refused in one line (exit 2, nothing written)."""

from __future__ import annotations

import json

from scorer.cli import main
from scorer.resources import data_dir
from small_configs import small_deepseek_v3


def _llama() -> dict:
    return json.loads((data_dir() / "examples" / "llama-2-7b" / "config.json").read_text())


def _refused(tmp_path, capsys, body: bytes, want: str) -> None:
    d = tmp_path / "m"
    d.mkdir(exist_ok=True)
    (d / "config.json").write_bytes(body)
    out = tmp_path / "s.md"
    assert main(["score", str(d), "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and want in err and not out.exists()


def test_a_utf8_bom_is_refused(tmp_path, capsys):
    """transformers 5.25 configuration_utils.py _dict_from_json_file: open(..., encoding="utf-8") then json.loads,
    which raises "Unexpected UTF-8 BOM"; vLLM and SGLang load configs through it."""
    body = json.dumps(_llama()).encode()
    try:
        json.loads((b"\xef\xbb\xbf" + body).decode("utf-8"))
        raise AssertionError("json.loads took the BOM")
    except json.JSONDecodeError as exc:
        assert "BOM" in str(exc)  # what transformers meets
    _refused(tmp_path, capsys, b"\xef\xbb\xbf" + body, "byte-order mark")


def test_a_finite_rope_factor_that_overflows_is_refused(tmp_path, capsys):
    """4,096 positions x a linear factor of 1e300: vLLM's int(max_model_len) of it is past any context the reader
    accepts (max_position_embeddings at most 2**34): bad input, not an internal error."""
    cfg = _llama()
    cfg["rope_scaling"] = {"rope_type": "linear", "factor": 1e300}
    _refused(tmp_path, capsys, json.dumps(cfg).encode(), "absurd context")
    cfg["rope_scaling"] = {"rope_type": "linear", "factor": 4.0}  # the same config at a sane factor runs
    d = tmp_path / "ok"
    d.mkdir()
    (d / "config.json").write_text(json.dumps(cfg))
    assert main(["score", str(d), "-o", str(tmp_path / "ok.md")]) == 0
    capsys.readouterr()


# ------------------------------------------------------------------------------------------- the speculative draft
def _cm(cfg: dict, method: str, **layout):
    from scorer.architecture import normalize
    from scorer.costmodel import CostModel, Layout, speculative_setting
    from scorer.gemms import inventory
    from scorer.hardware import get_gpu, get_precision
    from scorer.params import count_params
    arch = normalize(cfg)
    spec = speculative_setting(method, arch) if method != "none" else None
    return CostModel(arch, count_params(arch), get_gpu("H200-SXM"), get_precision("bf16"), Layout(**layout),
                     framework="vllm", gemms=inventory(arch), speculative=spec)


def _small_deepseek() -> dict:
    return small_deepseek_v3(num_nextn_predict_layers=1)


def test_mtp_layer_is_sharded_like_the_target_under_ep():
    """vLLM's DeepSeek MTP layer (deepseek_mtp.py: eh_proj 2h x h and a DeepseekV2DecoderLayer with FusedMoE) at
    TP1 x DP8 with --enable-expert-parallel: its 16 experts over 8 GPUs, the rest whole on each. Per GPU, by hand:
    eh_proj 2,097,152 + attention 2,129,920 (q_a 1024x256, q_b 256x1536, kv_a 1024x160, kv_b 128x2048, o 1024x1024) +
    shared expert 786,432 + router 16,384 + experts 16 x 3 x 1024 x 256 / 8 = 1,572,864 -> 6,602,752 parameters.
    deploysheet shards the layer as the target's layers are (within 15%); split over TP alone (TP = 1) it would
    count all 17.6 M on every GPU."""
    engine = 2_097_152 + 2_129_920 + 786_432 + 16_384 + 16 * 3 * 1024 * 256 // 8
    cm = _cm(_small_deepseek(), "mtp", tp=1, dp=8, ep=8)
    got = cm.draft_weight_bytes() / 2  # bf16
    assert abs(got - engine) / engine < 0.15, (got, engine)
    whole = _cm(_small_deepseek(), "mtp", tp=1).draft_weight_bytes() / 2
    assert whole > 2.5 * engine  # one GPU holds the whole layer


def test_eagle3_head_of_a_moe_target_is_one_dense_layer():
    """EAGLE-3 heads are dense (LlamaForCausalLMEagle3): for Mixtral-8x7B one layer of its attention (4096 x 6144
    QKV + 4096 x 4096 O) and the MLP of its two active experts (2 x 3 x 4096 x 14336), plus an lm_head of 32,000 x
    4096, in bf16 at TP1 — not an average Mixtral layer with all eight experts (~1.4 B)."""
    cfg = json.loads((data_dir() / "examples" / "mixtral-8x7b" / "config.json").read_text())
    layer = 4096 * 6144 + 4096 * 4096 + 2 * 3 * 4096 * 14336
    head = 32000 * 4096
    assert _cm(cfg, "eagle3", tp=1).draft_weight_bytes() == (layer + head) * 2


def test_the_draft_layer_caches_kv_too():
    """SGLang 0.5.23 pool_configurator.py adds cell_size x draft layers / layers per token; vLLM allocates KV for
    the drafter's attention layers. Llama-3.1-8B (32 layers, 8 KV heads x 128, bf16): an EAGLE-3 head adds one
    layer, 2 x 8 x 128 x 2 B = 4,096 B a token at TP1, to the 131,072 of the target."""
    cfg = json.loads((data_dir() / "examples" / "llama-3.1-8b" / "config.json").read_text())
    base, spec = _cm(cfg, "none", tp=1), _cm(cfg, "eagle3", tp=1)
    assert spec.kv_bytes_per_sequence(1000, "window") - base.kv_bytes_per_sequence(1000, "window") == 4096 * 1000


def test_qwen3_next_has_the_mtp_layer_the_engines_build(tmp_path, capsys):
    """vLLM 0.33.0 config/speculative.py maps qwen3_next to qwen3_next_mtp, whose Qwen3NextMTP builds
    getattr(config, "num_nextn_predict_layers", 1) layers; SGLang 0.5.23 models/qwen3_next_mtp.py builds one. The
    config states no count: one layer (fc 2h x h, two pre-fc norms, a final norm and a decoder layer like the last),
    said so in the assumptions; --speculative mtp runs."""
    from transformers import Qwen3NextConfig

    from scorer.architecture import normalize
    from scorer.params import count_params
    cfg = Qwen3NextConfig(hidden_size=256, num_hidden_layers=4, num_attention_heads=4, num_key_value_heads=2,
                          head_dim=64, linear_num_key_heads=4, linear_num_value_heads=8, linear_key_head_dim=32,
                          linear_value_head_dim=32, linear_conv_kernel_dim=4, intermediate_size=512,
                          moe_intermediate_size=128, shared_expert_intermediate_size=128, num_experts=4,
                          num_experts_per_tok=2, vocab_size=1000, max_position_embeddings=8192).to_dict()
    cfg.update(architectures=["Qwen3NextForCausalLM"], torch_dtype="bfloat16")
    cfg.pop("num_nextn_predict_layers", None)
    arch = normalize(cfg)
    assert arch.mtp is not None and arch.mtp.num_layers == 1 and "states no MTP depth" in arch.mtp_note
    # by hand, the last layer (full attention): q 256 x (4 x 64 x 2, gated) 131,072, k and v 256 x 128 each 32,768,
    # o 256 x 256 65,536, q/k norms 128; MoE: 4 experts x 3 x 256 x 128 393,216, shared 98,304, its gate 256,
    # router 1,024; two norms 512 -> 755,584; plus fc 2 x 256 x 256 131,072 and three norms 768
    layer = 131_072 + 2 * 32_768 + 65_536 + 128 + 393_216 + 98_304 + 256 + 1_024 + 512
    assert count_params(arch).mtp == layer + 131_072 + 768 == 887_424
    d = tmp_path / "q3n"
    d.mkdir()
    (d / "config.json").write_text(json.dumps(cfg))
    assert main(["predict", str(d), "--isl", "500", "--osl", "100", "--concurrency", "4", "--speculative", "mtp",
                 "--format", "json", "-o", str(tmp_path / "p.json")]) == 0
    capsys.readouterr()


#: meta-device numbers of scripts/mtp_oracle.py (transformers 5.25.0, torch 2.13.0 on the meta device;
#: `python scripts/mtp_oracle.py`): Qwen3NextForCausalLM's parameters and its last decoder layer's, per variant
MTP_ORACLE = {"small": (3_552_784, 755_584, 256), "wide": (75_712_064, 8_922_880, 512),
              "dense_tail": (10_088_232, 1_475_456, 384)}


def test_qwen3_next_mtp_oracle():
    """Resized Qwen3-Next variants (scripts/mtp_oracle.py VARIANTS, one ending on a dense layer): the main count is
    transformers' on the meta device, and the assumed MTP layer is its last decoder layer plus fc 2h x h and three
    norms of h (vLLM 0.33.0 qwen3_next_mtp.py)."""
    import importlib.util
    from pathlib import Path

    from transformers import Qwen3NextConfig

    from scorer.architecture import normalize
    from scorer.params import count_params
    spec = importlib.util.spec_from_file_location("mtp_oracle", Path(__file__).parents[1] / "scripts" /
                                                  "mtp_oracle.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert set(mod.VARIANTS) == set(MTP_ORACLE)
    for name, kw in mod.VARIANTS.items():
        total, last, h = MTP_ORACLE[name]
        cfg = Qwen3NextConfig(**kw).to_dict()
        cfg.update(architectures=["Qwen3NextForCausalLM"], torch_dtype="bfloat16")
        cfg.pop("num_nextn_predict_layers", None)
        p = count_params(normalize(cfg))
        assert (p.total, p.mtp) == (total, last + 2 * h * h + 3 * h), name
