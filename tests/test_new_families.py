"""Model types transformers added after the sweep's version (tests/data/meta_oracle_sweep.json: 5.24.0).

Param2 (bharatgenai/Param2-17B-A2.4B): transformers 5.25.0 adds Param2MoeConfig, a subclass of Glm4MoeConfig, and
builds it with Glm4MoeForCausalLM (models/auto/modeling_auto.py ("param2moe", "Glm4MoeForCausalLM")), so the sheet
reads it with GLM-4-MoE's layout. Oracle (2026-12-03, transformers 5.25.0 and torch 2.13.0 on the meta device,
``AutoModelForCausalLM.from_config``): the SMALL config below builds 819,264 parameters, the class defaults
17,151,124,096; the hand count below agrees with the first.

MiniCPM-5-MoE (openbmb): transformers 5.25.0 adds MiniCPM5MoeConfig (a Glm4MoeConfig) with LlamaAttention whose
q_gate_proj emits the queries and a per-channel output gate, DeepSeek-V3 experts and Glm4MoeLiteDecoderLayer. Oracle
(same command): SMALL_M5 builds 996,224 parameters, the class defaults 15,002,552,320.
"""

from __future__ import annotations

import json

import pytest

from scorer.architecture import normalize
from scorer.params import count_params

#: Param2MoeConfig(hidden_size=128, intermediate_size=256, num_hidden_layers=3, num_attention_heads=4,
#: num_key_value_heads=2, head_dim=32, moe_intermediate_size=64, n_routed_experts=8, num_experts_per_tok=2,
#: n_shared_experts=1, first_k_dense_replace=1, vocab_size=1000, tie_word_embeddings=True), as save_pretrained writes it
SMALL = {"attention_bias": False, "eos_token_id": 3, "first_k_dense_replace": 1, "head_dim": 32, "hidden_act": "silu",
         "hidden_size": 128, "intermediate_size": 256, "max_position_embeddings": 32768, "model_type": "param2moe",
         "moe_intermediate_size": 64, "n_group": 1, "n_routed_experts": 8, "n_shared_experts": 1,
         "norm_topk_prob": True, "num_attention_heads": 4, "num_experts_per_tok": 2, "num_hidden_layers": 3,
         "num_key_value_heads": 2, "num_nextn_predict_layers": 0, "pad_token_id": 0, "rms_norm_eps": 1e-06,
         "rope_parameters": {"partial_rotary_factor": 1.0, "rope_theta": 500000.0, "rope_type": "default"},
         "routed_scaling_factor": 2.5, "tie_word_embeddings": True, "topk_group": 1, "use_qk_norm": True,
         "vocab_size": 1000}


def hand_count() -> int:
    attn = 128 * 4 * 32 + 2 * 128 * 2 * 32 + 4 * 32 * 128 + 2 * 32  # q, k, v, o (no biases); q/k RMSNorm(head_dim)
    norms = 2 * 128
    dense = 3 * 128 * 256  # layer 0 (first_k_dense_replace 1): gate, up, down
    moe = 8 * 3 * 128 * 64 + 3 * 128 * 64 + 8 * 128  # 8 experts, one shared expert, the router (its bias a buffer)
    return 3 * (attn + norms) + dense + 2 * moe + 1000 * 128 + 128  # tied embedding, final norm


def test_param2_counts_as_glm4_moe():
    """Exact with transformers' class (5.25.0+); read by its raw keys with the same layout, and labelled estimated,
    with an earlier transformers."""
    from transformers import CONFIG_MAPPING
    arch = normalize(SMALL)
    assert count_params(arch).total == hand_count() == 819_264
    assert arch.family == "param2moe" and arch.unmodelled_keys == []
    assert arch.exact == ("param2moe" in CONFIG_MAPPING)


def test_param2_class_defaults_with_transformers_5_25():
    transformers = pytest.importorskip("transformers")
    from transformers import CONFIG_MAPPING
    if "param2moe" not in CONFIG_MAPPING:
        pytest.skip(f"transformers {transformers.__version__} has no Param2MoeConfig (added in 5.25.0)")
    raw = json.loads(CONFIG_MAPPING["param2moe"]().to_json_string(use_diff=False))
    arch = normalize(raw)
    assert count_params(arch).total == 17_151_124_096 and arch.exact


SMALL_M5 = {"attention_bias": False, "first_k_dense_replace": 1, "head_dim": 32, "hidden_act": "silu",
            "hidden_size": 128, "intermediate_size": 256, "model_type": "minicpm5_moe", "moe_intermediate_size": 64,
            "n_group": 1, "n_routed_experts": 8, "n_shared_experts": 1, "norm_topk_prob": True,
            "num_attention_heads": 4, "num_experts_per_tok": 2, "num_hidden_layers": 3, "num_key_value_heads": 2,
            "num_nextn_predict_layers": 0, "rms_norm_eps": 1e-06, "routed_scaling_factor": 1.0,
            "tie_word_embeddings": False, "topk_group": 1, "use_qk_norm": False, "vocab_size": 1000}


def test_minicpm5_moe_counts_its_gated_queries():
    from transformers import CONFIG_MAPPING
    attn = 128 * 2 * 4 * 32 + 2 * 128 * 2 * 32 + 4 * 32 * 128  # q_gate_proj (queries + gate), k, v, o
    dense = 3 * 128 * 256
    moe = 8 * 3 * 128 * 64 + 3 * 128 * 64 + 8 * 128
    expected = 3 * (attn + 2 * 128) + dense + 2 * moe + 2 * 1000 * 128 + 128  # untied embedding and lm_head
    arch = normalize(SMALL_M5)
    assert count_params(arch).total == expected == 996_224
    assert arch.exact == ("minicpm5_moe" in CONFIG_MAPPING)
    if "minicpm5_moe" in CONFIG_MAPPING:
        raw = json.loads(CONFIG_MAPPING["minicpm5_moe"]().to_json_string(use_diff=False))
        assert count_params(normalize(raw)).total == 15_002_552_320
