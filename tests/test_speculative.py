"""Issue 13: speculative decoding as an option (--speculative mtp|eagle3|none).

A draft-and-verify step drafts k tokens and verifies them in one target pass of k + 1 query tokens per sequence;
with per-token acceptance a it emits tau = 1 + a + ... + a^k tokens. TPOT = step / tau.
"""

from __future__ import annotations

import json

import pytest

from scorer.architecture import normalize
from scorer.cli import main
from scorer.costmodel import CostModel, Layout, speculative_setting
from scorer.errors import BadInputError
from scorer.hardware import get_gpu, get_precision
from scorer.params import count_params
from scorer.sources import load_source


def _arch(name: str):
    raw = load_source(f"example:{name}")
    return normalize(raw.config, raw.quant_config)


def test_acceptance_length_is_the_geometric_sum():
    arch = _arch("llama-3.1-8b")
    s = speculative_setting("eagle3", arch)
    assert (s.tokens, s.acceptance) == (3, 0.7)
    assert s.acceptance_length == pytest.approx(1 + 0.7 + 0.49 + 0.343)
    s2 = speculative_setting("eagle3", arch, tokens=5, acceptance=0.5)
    assert s2.acceptance_length == pytest.approx(1 + 0.5 + 0.25 + 0.125 + 0.0625 + 0.03125)
    assert speculative_setting("none", arch) is None


def test_mtp_needs_mtp_layers(capsys):
    with pytest.raises(BadInputError, match="no MTP"):
        speculative_setting("mtp", _arch("llama-3.1-8b"))
    rc = main(["predict", "example:llama-3.1-8b", "--isl", "128", "--osl", "64", "--concurrency", "1",
               "--speculative", "mtp"])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "MTP" in err
    for bad in (["--acceptance-rate", "1.5"], ["--acceptance-rate", "0"], ["--spec-tokens", "40"]):
        assert main(["predict", "example:llama-3.1-8b", "--isl", "128", "--osl", "64", "--concurrency", "1",
                     "--speculative", "eagle3", *bad]) == 2
        assert capsys.readouterr().err.count("\n") == 1


def test_verify_step_is_the_target_pass_over_k_plus_1_tokens():
    """The step splits exactly: tau x TPOT = one target pass at M = B(k + 1) + k draft tokens; a batch-1 decode of
    an 8B model is memory-bound, so the k + 1 query tokens cost little more than one and speculation pays."""
    arch = _arch("llama-3.1-8b")
    spec = speculative_setting("eagle3", arch)
    base = CostModel(arch, count_params(arch), get_gpu("H100-SXM"), get_precision("bf16"), Layout(tp=1))
    cm = CostModel(arch, count_params(arch), get_gpu("H100-SXM"), get_precision("bf16"), Layout(tp=1),
                   speculative=spec)
    one = base.decode_step(1, 1024)["total"]
    step = cm.speculative_step(1, 1024)
    verify = cm.decode_features(1, 1024, q=4)
    assert sum(verify.gemm_memory) == pytest.approx(sum(base.decode_features(1, 1024).gemm_memory), rel=0.01)
    assert step["total"] * spec.acceptance_length > one  # verifying and drafting cost more than one plain step
    assert step["total"] < one / 1.5  # but the 2.53 tokens it emits make each cheaper
    # at a large batch the GEMMs are compute-bound: the 4x tokens of the verify pass erase the gain
    big_plain = base.decode_step(512, 1024)["total"]
    big_spec = cm.speculative_step(512, 1024)["total"]
    assert big_spec > 0.8 * big_plain


def test_predict_and_score_with_mtp(capsys):
    """DeepSeek-V3's MTP (one next-n layer): TPOT falls, by less than the 1.875 tokens per step."""
    cfg = load_source("example:gpt-oss-20b").config  # no MTP: used only for the refusal above; build a small MTP model
    mtp_cfg = {"model_type": "deepseek_v3", "architectures": ["DeepseekV3ForCausalLM"], "hidden_size": 2048,
               "intermediate_size": 5632, "moe_intermediate_size": 512, "num_hidden_layers": 8,
               "num_attention_heads": 16, "num_key_value_heads": 16, "n_routed_experts": 64, "n_shared_experts": 1,
               "num_experts_per_tok": 6, "first_k_dense_replace": 1, "kv_lora_rank": 512, "q_lora_rank": 1536,
               "qk_rope_head_dim": 64, "qk_nope_head_dim": 128, "v_head_dim": 128, "num_nextn_predict_layers": 1,
               "vocab_size": 102400, "max_position_embeddings": 16384}
    assert cfg  # the example loads
    import tempfile, pathlib
    with tempfile.TemporaryDirectory() as d:
        p = pathlib.Path(d) / "config.json"
        p.write_text(json.dumps(mtp_cfg))
        args = ["predict", str(p), "--gpu", "H100-SXM", "--isl", "1024", "--osl", "256", "--concurrency", "1"]
        assert main(args) == 0
        plain = json.loads(capsys.readouterr().out)
        assert main(args + ["--speculative", "mtp"]) == 0
        spec = json.loads(capsys.readouterr().out)
        assert spec["speculative"]["tokens"] == 1 and spec["speculative"]["acceptance_length"] == 1.875
        assert "DeepSeek-V3 technical report" in spec["speculative"]["source"]
        ratio = plain["tpot_ms"] / spec["tpot_ms"]
        assert 1.2 < ratio < 1.875
        assert spec["breakdown"]["decode"]["draft"] > 0
        assert main(["score", str(p), "--speculative", "mtp", "--format", "json", "--no-recommendations"]) == 0
        doc = json.loads(capsys.readouterr().out)
        assert any("Speculative decoding (mtp)" in a for a in doc["assumptions"])


def test_speculative_knobs_need_a_method(capsys):
    for cmd in (["predict", "example:llama-3.1-8b", "--isl", "128", "--osl", "64", "--concurrency", "1"],
                ["score", "example:llama-3.1-8b", "--no-recommendations"]):
        assert main(cmd + ["--spec-tokens", "3"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "--speculative" in err
    s = speculative_setting("eagle3", _arch("llama-3.1-8b"), tokens=1)
    assert s.source.startswith("--spec-tokens 1 (given)")


def test_the_draft_is_in_weight_memory():
    """EAGLE-3's head (one dense decoder layer of the target's shapes + an lm_head, bf16) and the checkpoint's MTP
    layers take GPU memory too. Llama-3.1-8B's layer: QKV 4096 x 6144, O 4096 x 4096, MLP 3 x 4096 x 14336."""
    arch = _arch("llama-3.1-8b")
    p = count_params(arch)
    args = (arch, p, get_gpu("H100-SXM"), get_precision("bf16"), Layout(tp=2))
    plain = CostModel(*args).weights_per_gpu()
    eagle = CostModel(*args, speculative=speculative_setting("eagle3", arch)).weights_per_gpu()
    v, h, n = 128256, 4096, 32  # Llama-3.1-8B: untied embedding and lm_head of vocab x hidden each
    layer = 4096 * 6144 + 4096 * 4096 + 3 * 4096 * 14336
    assert layer == pytest.approx((p.total - 2 * v * h) / n, abs=8_400)  # an average layer, its norms aside
    assert eagle - plain == pytest.approx((layer + v * h) * 2 / 2, rel=1e-9)


MTP_CFG = {"model_type": "deepseek_v3", "architectures": ["DeepseekV3ForCausalLM"], "hidden_size": 2048,
           "intermediate_size": 5632, "moe_intermediate_size": 512, "num_hidden_layers": 8,
           "num_attention_heads": 16, "num_key_value_heads": 16, "n_routed_experts": 64, "n_shared_experts": 1,
           "num_experts_per_tok": 6, "first_k_dense_replace": 1, "kv_lora_rank": 512, "q_lora_rank": 1536,
           "qk_rope_head_dim": 64, "qk_nope_head_dim": 128, "v_head_dim": 128, "num_nextn_predict_layers": 1,
           "vocab_size": 102400, "max_position_embeddings": 16384}


def test_measured_rows_that_ran_mtp_are_predicted_with_it_and_never_fitted(tmp_path):
    """Issue 13: validate skipped the rows whose notes say "MTP speculative decoding (3 next-n layers) ON". They are
    predicted with MTP drafting the stated 3 tokens at the documented acceptance; calibrate never fits them (a
    draft-and-verify step has no features), and validate reports them in-sample only."""
    from scorer.calibrate import _samples
    from scorer.measure import Predictor, Row, speculative_of

    assert speculative_of("batch 1, MTP speculative decoding (3 next-n layers) ON - per-user speed") == ("mtp", 3)
    assert speculative_of("MTP speculative decoding (1 next-n layer)") == ("mtp", 1)
    assert speculative_of("no drafts here") is None
    (tmp_path / "tiny").mkdir()
    (tmp_path / "tiny" / "config.json").write_text(json.dumps(MTP_CFG))
    base = dict(model_id="x/tiny", config="tiny", gpu="H100-SXM", num_gpus=1, tp=1, weight_precision="bf16",
                kv_precision="bf16", framework="trtllm", isl=1024, osl=256, concurrency="1",
                metric="tokens_per_s_per_user", value=100.0)
    plain = Row(id="a", **base)
    mtp = Row(id="b", notes="min-latency, MTP speculative decoding (3 next-n layers) ON", **base)
    other = Row(id="c", notes="speculative decoding with a draft model", **base)
    pred = Predictor(tmp_path)
    r_plain, r_mtp, r_other = (pred.predict_row(r) for r in (plain, mtp, other))
    assert r_plain.skipped is None and r_plain.cost_model.speculative is None
    assert r_mtp.skipped is None
    sp = r_mtp.cost_model.speculative
    assert (sp.method, sp.tokens, sp.acceptance) == ("mtp", 3, 0.875)
    assert r_mtp.predicted > r_plain.predicted  # more tokens per user per second with drafts accepted
    assert r_other.skipped and "not modelled" in r_other.skipped
    held: list = []
    samples, skipped = _samples(pred, [plain, mtp], held)
    assert [s.row.id for s in samples] == ["a"] and [r.row.id for r in held] == ["b"] and skipped == []
    samples, skipped = _samples(pred, [plain, mtp])
    assert [s.row.id for s in samples] == ["a"] and [s["id"] for s in skipped] == ["b"]
