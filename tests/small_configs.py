"""Small config.json dicts built from transformers' config classes, shared by tests that need one of a family."""

from __future__ import annotations


def small_deepseek_v3(**extra) -> dict:
    """A DeepSeek-V3 of 8 layers (the first dense), hidden 1024, MLA (q_lora 256, kv_lora 128, rope 32, nope 64,
    v 64), 16 routed experts of 256 (top 2) and one shared; ``extra`` overrides keys (e.g.
    num_nextn_predict_layers)."""
    from transformers import DeepseekV3Config
    cfg = DeepseekV3Config(hidden_size=1024, intermediate_size=2048, moe_intermediate_size=256, num_hidden_layers=8,
                           num_attention_heads=16, num_key_value_heads=16, n_routed_experts=16, num_experts_per_tok=2,
                           n_shared_experts=1, first_k_dense_replace=1, q_lora_rank=256, kv_lora_rank=128,
                           qk_rope_head_dim=32, qk_nope_head_dim=64, v_head_dim=64, vocab_size=32000,
                           max_position_embeddings=8192).to_dict()
    cfg.update(architectures=["DeepseekV3ForCausalLM"], torch_dtype="bfloat16")
    cfg.update(extra)
    return cfg
