"""Breaker round 12 ("next month" configs: real families with keys another family reads).

A key the family's transformers class neither declares nor reads (``config.<key>`` or a quoted ``"<key>"`` in its
modeling files) changes nothing transformers builds: the count must stay the meta device's for the unmutated
variant (tests/data/meta_oracle_sweep.json, built with ``python scripts/meta_oracle.py --sweep``), and the key is
listed as unmodelled (the counts say estimated), instead of the generic alias table applying it:

* Mixtral builds MixtralSparseMoeBlock in every layer (modeling_mixtral.py ``self.mlp = MixtralSparseMoeBlock``)
  at ``config.intermediate_size`` per expert, no shared expert: first_k_dense_replace, decoder_sparse_step,
  moe_intermediate_size and n_shared_experts are not its keys;
* Qwen2 reads ``getattr(config, "head_dim", hidden // heads)``: a Megatron ``kv_channels`` is not read;
* DeepseekV3 picks MoE by ``layer_idx >= config.first_k_dense_replace`` only: moe_layer_freq is not read (vLLM's
  deepseek_v2.py does read it: the count follows transformers and says estimated);
* GPTNeoX's attention is ``Linear(hidden, 3 * hidden)`` with hidden // heads head size: no num_key_value_heads.

And (F7) an FP8 exclusion of one part of a fused GEMM (``mlp.gate_proj`` of vLLM's gate_up_proj) leaves that part
16-bit, as transformers' should_convert_module keeps the module unconverted; vLLM refuses such a checkpoint
(quantization/utils/quant_utils.py is_layer_skipped: "Detected some but not all shards ... are quantized").
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from scorer.architecture import normalize
from scorer.cli import main
from scorer.params import count_params

SWEEP = json.loads((Path(__file__).parent / "data" / "meta_oracle_sweep.json").read_text())


def _default(model_type: str) -> dict:
    v = next(v for v in SWEEP["variants"] if v["model_type"] == model_type and v["variant"] == "default")
    return v


@pytest.mark.parametrize("model_type, key, value", [
    ("mixtral", "first_k_dense_replace", 1),
    ("mixtral", "decoder_sparse_step", 2),
    ("mixtral", "moe_intermediate_size", 4096),
    ("mixtral", "n_shared_experts", 1),
    ("qwen2", "kv_channels", 256),
    ("deepseek_v3", "moe_layer_freq", 2),
    ("gpt_neox", "num_key_value_heads", 8),
])
def test_a_key_the_family_does_not_read_is_listed_not_applied(model_type, key, value):
    v = _default(model_type)
    cfg = copy.deepcopy(v["config"])
    cfg[key] = value
    arch = normalize(cfg)
    c = v["counts"]
    assert count_params(arch).total == c["language_model"] - c.get("mtp", 0)
    assert key in arch.unmodelled_keys and not arch.exact


def test_the_same_keys_in_a_family_that_reads_them_still_apply():
    """DeepseekV3Config declares moe_intermediate_size and first_k_dense_replace: unchanged behaviour (the resized
    sweep variants carry other values and match the meta device in tests/test_oracle_sweep.py)."""
    v = _default("deepseek_v3")
    arch = normalize(copy.deepcopy(v["config"]))
    assert arch.exact and not arch.unmodelled_keys


def _qwen3_fp8(tmp_path: Path, excluded: list[str]) -> str:
    cfg = copy.deepcopy(_default("qwen3")["config"])
    cfg.update(hidden_size=1024, intermediate_size=4096, num_hidden_layers=16, num_attention_heads=16,
               num_key_value_heads=8, head_dim=128, vocab_size=32000, tie_word_embeddings=False)
    cfg["architectures"] = ["Qwen3ForCausalLM"]
    cfg.pop("layer_types", None)  # the default's 32-entry list: Qwen3Config rebuilds it for 16 layers
    cfg["quantization_config"] = {"quant_method": "fp8", "weight_block_size": [128, 128],
                                  "activation_scheme": "dynamic", "modules_to_not_convert": excluded}
    p = tmp_path / f"q{len(excluded)}-{'-'.join(e.replace('.', '_') for e in excluded)}.json"
    p.write_text(json.dumps(cfg))
    return str(p)


@pytest.mark.parametrize("excluded, bf16_elements", [
    # gate_proj: hidden x intermediate per layer, 16 layers
    (["mlp.gate_proj"], 16 * 1024 * 4096),
    # q_proj: hidden x heads x head_dim per layer
    (["self_attn.q_proj"], 16 * 1024 * 16 * 128),
])
def test_excluding_one_part_of_a_fused_gemm_keeps_that_part_16_bit(tmp_path, capsys, excluded, bf16_elements):
    base = _qwen3_fp8(tmp_path, [])
    part = _qwen3_fp8(tmp_path, excluded)
    got = {}
    for src in (base, part):
        assert main(["predict", src, "--gpu", "H100-SXM", "--isl", "512", "--osl", "64", "--concurrency", "1",
                     "--format", "json"]) == 0
        got[src] = json.loads(capsys.readouterr().out)
    # each such weight moves from FP8 block (1 B + one fp32 scale per 128 x 128 block) to 2 B
    delta = bf16_elements * (2.0 - (1.0 + 4 / (128 * 128)))
    assert abs((got[part]["weights_per_gpu_gib"] - got[base]["weights_per_gpu_gib"]) * 2 ** 30 - delta) < 0.011 * 2 ** 30
    notes = got[part]["notes"]
    assert any("Detected some but not all shards" in n and "vllm 0.33.0" in n for n in notes), notes
