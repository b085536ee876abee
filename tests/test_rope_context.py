"""The longest request engines serve: max_position_embeddings times the RoPE factor, as vLLM derives max_model_len.

vllm 0.33.0 vllm/config/model.py _get_and_verify_max_len: ``derived_max_model_len *= scaling_factor``, the factor of
each rope parameter set whose rope_type is not su / longrope / llama3 / yarn / deepseek_yarn /
deepseek_llama_scaling (those leave max_position_embeddings already scaled or name the original length), and no
factor at all for Gemma 3 ("Gemma3's max_model_len (128K) is already scaled by RoPE scaling"). A model like
lmsys/vicuna-7b-v1.5-16k (max_position_embeddings 4096, linear factor 4) serves 16,384 tokens, not 4,096.
"""

from __future__ import annotations

import json

import pytest
from transformers import LlamaConfig

from scorer.architecture import normalize
from scorer.cli import main


def _llama(mpe: int, rope: dict | None) -> dict:
    cfg = LlamaConfig(hidden_size=512, intermediate_size=1024, num_hidden_layers=2, num_attention_heads=8,
                      num_key_value_heads=8, vocab_size=1000, max_position_embeddings=mpe,
                      rope_scaling=rope).to_dict()
    cfg.update(architectures=["LlamaForCausalLM"], torch_dtype="bfloat16")
    return cfg


@pytest.mark.parametrize("rope,limit", [
    ({"rope_type": "linear", "factor": 4.0}, 16_384),      # applied
    ({"rope_type": "dynamic", "factor": 2.0}, 8_192),      # applied
    ({"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 1024}, 4_096),  # already scaled
    ({"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
      "original_max_position_embeddings": 1024}, 4_096),
    (None, 4_096),
])
def test_context_limit_follows_vllms_rule(rope, limit):
    arch = normalize(_llama(4096, rope))
    assert arch.max_positions == 4096  # the parameter count's own figure is untouched
    assert arch.context_limit == limit


def test_gemma3_factor_is_not_applied_again():
    from transformers import Gemma3TextConfig
    cfg = Gemma3TextConfig(hidden_size=256, intermediate_size=512, num_hidden_layers=2, num_attention_heads=4,
                           num_key_value_heads=1, head_dim=64, vocab_size=1000, max_position_embeddings=8192,
                           rope_scaling={"rope_type": "linear", "factor": 8.0}).to_dict()
    cfg.update(architectures=["Gemma3ForCausalLM"], torch_dtype="bfloat16")
    assert normalize(cfg).context_limit == 8192


def _predict(tmp_path, capsys, cfg, isl, osl) -> dict:
    d = tmp_path / "m"
    d.mkdir(exist_ok=True)
    (d / "config.json").write_text(json.dumps(cfg))
    out = tmp_path / "p.json"
    assert main(["predict", str(d), "--isl", str(isl), "--osl", str(osl), "--concurrency", "4", "--format", "json",
                 "-o", str(out)]) == 0
    capsys.readouterr()
    return json.loads(out.read_text())


def test_predict_serves_a_linear_rope_models_long_context(tmp_path, capsys):
    """12,000 + 2,000 tokens fit under 4,096 x 4; before, "no engine serves this request" and no latency."""
    cfg = _llama(4096, {"rope_type": "linear", "factor": 4.0})
    p = _predict(tmp_path, capsys, cfg, 12_000, 2_000)
    assert p["tpot_ms"] is not None and not any("exceeds" in n for n in p.get("notes", []))
    p = _predict(tmp_path, capsys, cfg, 16_000, 1_000)
    assert p["tpot_ms"] is None
    assert any("max_position_embeddings 4,096 x RoPE factor 4 = 16,384" in n for n in p["notes"])


def test_an_infinite_factor_is_bad_input(tmp_path, capsys):
    """vLLM's int(max_position_embeddings x factor) overflows on an infinite factor: no engine serves it. A one-line
    error and exit 2, nothing written."""
    cfg = _llama(4096, {"rope_type": "linear", "factor": 4.0})
    text = json.dumps(cfg).replace('"factor": 4.0', '"factor": Infinity')
    d = tmp_path / "inf"
    d.mkdir()
    (d / "config.json").write_text(text)
    out = tmp_path / "p.json"
    assert main(["predict", str(d), "--isl", "10", "--osl", "10", "--concurrency", "1", "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "not finite" in err and not out.exists()


def test_an_unknown_rope_type_is_a_guess_not_a_silent_default():
    """vllm 0.33.0 model_executor/layers/rotary_embedding/__init__.py get_rope: an unknown type raises 'Unknown RoPE
    scaling type'. A typo (lama3) is flagged, and the factor is not applied to the context limit."""
    arch = normalize(_llama(4096, {"rope_type": "lama3", "factor": 8.0}))
    assert any("'lama3'" in g and "get_rope" in g for g in arch.guesses)
    assert arch.context_limit == 4096
    assert not any("rope_type" in g for g in normalize(_llama(4096, {"rope_type": "yarn", "factor": 4.0,
                                                                    "original_max_position_embeddings": 1024})).guesses)


def test_a_dtype_naming_nothing_is_a_guess():
    cfg = _llama(4096, None)
    cfg.pop("torch_dtype", None)
    cfg["dtype"] = "bfloat61"
    arch = normalize(cfg)
    assert arch.dtype is None and any("'bfloat61'" in g and "names no dtype" in g for g in arch.guesses)
    cfg["dtype"] = "float16"
    assert normalize(cfg).dtype == "float16" and not any("dtype" in g for g in normalize(cfg).guesses)
