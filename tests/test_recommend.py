"""What-if recommendations: nearest aligned sizes, their parameter delta, what they unlock."""

from __future__ import annotations

import json

from transformers import LlamaConfig, Qwen2Config

from scorer.sheet import Options, build_sheet
from scorer.sources import Provenance, RawModel


def raw(cfg) -> RawModel:
    return RawModel(config=json.loads(cfg.to_json_string()), provenance=Provenance(kind="local", source="t"))


def test_swiglu_8_3_h_is_flagged_with_aligned_alternatives():
    cfg = LlamaConfig(hidden_size=4096, intermediate_size=10922, num_hidden_layers=4, num_attention_heads=32,
                      num_key_value_heads=8, vocab_size=32000)
    cfg.architectures = ["LlamaForCausalLM"]
    sheet = build_sheet(raw(cfg))
    assert any(f.rule == "G6" and "10,922" in f.message for f in sheet.findings)
    assert any(f.rule == "G1" for f in sheet.findings)  # 10922 % 8 = 2: not 16-byte aligned at BF16
    recs = {r.new: r for r in sheet.recommendations if r.key == "intermediate_size"}
    assert 10944 in recs and 11008 in recs  # next multiples of 64 and of 128
    # each step adds 3 x hidden x delta_I per layer (gate, up, down) over 4 layers
    assert recs[10944].param_delta == 4 * 3 * 4096 * (10944 - 10922)
    assert recs[11008].param_delta == 4 * 3 * 4096 * (11008 - 10922)


def test_llama2_7b_intermediate_unlocks_block_quantization_at_tp8():
    cfg = LlamaConfig(hidden_size=4096, intermediate_size=11008, num_hidden_layers=32, num_attention_heads=32,
                      num_key_value_heads=32, vocab_size=32000, max_position_embeddings=4096)
    cfg.architectures = ["LlamaForCausalLM"]
    sheet = build_sheet(raw(cfg))
    first = sheet.recommendations[0]
    assert (first.key, first.old, first.new) == ("intermediate_size", 11008, 11264)
    assert "fp8_block TP4" in first.unlocks and "fp8_block TP8" in first.unlocks
    assert first.param_delta == 32 * 3 * 4096 * 256


def test_no_recommendation_that_only_helps_an_invalid_tp():
    # Qwen2.5-7B shape: 28 heads make TP 8 invalid; 18944 = 37 x 512 is already aligned
    cfg = Qwen2Config(hidden_size=3584, intermediate_size=18944, num_hidden_layers=4, num_attention_heads=28,
                      num_key_value_heads=4, vocab_size=152064)
    cfg.architectures = ["Qwen2ForCausalLM"]
    sheet = build_sheet(raw(cfg), Options())
    assert not [r for r in sheet.recommendations if r.key == "intermediate_size"]
