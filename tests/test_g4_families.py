"""Qwen4-Exp PLE layers, Dots3-Note per-layer MLA shapes, GLM-5-Next NoPE MLA (kinds/g4.py).

The oracle sweep's variants have no PLE layer (``ple_layer_ids`` empty), so the PLE count is checked here
against a number taken from transformers 5.24 ``Qwen4ExpForCausalLM`` built on torch's meta device from the
sweep's resize_a config with the changes below (131,208,192 parameters).
"""

from __future__ import annotations

import json
from pathlib import Path

from scorer.architecture import normalize
from scorer.architecture.kinds.g4 import ngram_table_rows
from scorer.params import count_params

SWEEP = Path(__file__).parent / "data" / "meta_oracle_sweep.json"


def _variant(model_type: str, variant: str) -> dict:
    data = json.loads(SWEEP.read_text())
    return next(v for v in data["variants"] if v["model_type"] == model_type and v["variant"] == variant)


def test_ngram_table_rows_follow_consecutive_primes() -> None:
    # primes >= 20000: 20011, 20021, 20023, 20029 -> one layer of 2 heads, the next of the following 2
    assert ngram_table_rows(20000, 2, 0, 1) == 20011 + 20021
    assert ngram_table_rows(20000, 2, 1, 1) == 20023 + 20029
    assert ngram_table_rows(20000, 2, 0, 128) == 40064  # padded up to a multiple of 128


def test_qwen4_exp_ple_layers_count_exactly() -> None:
    cfg = dict(_variant("qwen4_exp_text", "resize_a")["config"])
    cfg.update(eos_token_id=2, ple_embed_dim=256, ple_layer_ids=[1, 3, 6], ngram_vocab_size_base=20000,
               layer_types=["linear_attention", "indexed_attention", "linear_attention", "linear_attention",
                            "indexed_attention", "linear_attention"])
    arch = normalize(cfg)
    assert count_params(arch).total == 131_208_192
    assert arch.unmodelled_keys == []


def test_dots3_note_sliding_layers_use_their_own_mla_shapes() -> None:
    arch = normalize(_variant("dots3_note_text", "resize_a")["config"])
    sliding = [lay.mixer for lay in arch.layers if lay.mixer.span == "sliding"]
    full = [lay.mixer for lay in arch.layers if lay.mixer.span == "full"]
    assert sliding and all(m.num_heads == 64 and m.kv_lora_rank == 1024 and m.indexer is None for m in sliding)
    assert full and all(m.num_heads == 8 and m.indexer is not None for m in full)


def test_glm5_next_reads_nope_mla() -> None:
    arch = normalize(_variant("glm5_next", "default")["config"])
    mla = [lay.mixer for lay in arch.layers if lay.mixer.kind == "mla"]
    assert mla and all(m.qk_rope_head_dim == 0 for m in mla)
