"""Declarative knowledge about model families: key aliases and per-family structure flags.

Principle (DESIGN.md): knowledge of a model family lives here and in transformers' config
classes, never in the analyses. The normalizer (:mod:`scorer.architecture.normalize`) reads these tables; the
analyses only see the normalized :class:`~scorer.architecture.ModelArch`.

Each structure flag states a fact of the family's modeling code in transformers (the parameter
layout it instantiates); ``scripts/meta_oracle.py`` checks the resulting parameter counts against
the transformers models instantiated on torch's meta device.
"""

from __future__ import annotations

from typing import Any

#: canonical name -> config keys, first present wins (raw keys and config attributes alike)
ALIASES: dict[str, list[str]] = {
    "hidden_size": ["hidden_size", "n_embd", "d_model", "dim", "model_dim", "emb_size"],
    "num_layers": ["num_hidden_layers", "n_layer", "num_layers", "n_layers"],
    "num_heads": ["num_attention_heads", "n_head", "num_heads", "n_heads"],
    "num_kv_heads": ["num_key_value_heads", "num_kv_heads", "n_kv_heads", "multi_query_group_num", "kv_n_heads"],
    "head_dim": ["head_dim", "attention_head_dim", "d_kv", "kv_channels", "head_size"],
    "intermediate_size": ["intermediate_size", "ffn_hidden_size", "n_inner", "d_ff", "ffn_dim", "inner_dim"],
    "vocab_size": ["vocab_size", "padded_vocab_size", "n_vocab"],
    "max_positions": ["max_position_embeddings", "n_positions", "max_seq_len", "max_sequence_length", "seq_length",
                      "n_ctx"],
    "num_experts": ["num_local_experts", "num_experts", "n_routed_experts", "moe_num_experts"],
    "top_k": ["num_experts_per_tok", "experts_per_token", "num_experts_per_token", "moe_top_k"],
    "expert_intermediate": ["moe_intermediate_size", "expert_intermediate_size", "moe_ffn_hidden_size"],
    "shared_intermediate": ["shared_expert_intermediate_size", "moe_shared_expert_intermediate_size"],
    "num_shared_experts": ["n_shared_experts", "num_shared_experts", "moe_num_shared_experts"],
    "sliding_window": ["sliding_window", "window_size", "attention_window"],
    "chunk_size": ["attention_chunk_size"],
    "tie_word_embeddings": ["tie_word_embeddings", "tie_embeddings"],
    "dtype": ["torch_dtype", "dtype"],
    # Mamba2 (nemotron_h, mamba2, bamba, zamba2, falcon_h1, granitemoehybrid)
    "mamba_num_heads": ["mamba_num_heads", "mamba_n_heads", "num_heads_mamba"],
    "mamba_head_dim": ["mamba_head_dim", "mamba_d_head"],
    "mamba_n_groups": ["n_groups", "mamba_n_groups"],
    "mamba_d_state": ["ssm_state_size", "mamba_d_state", "state_size"],
    "mamba_conv_kernel": ["conv_kernel", "mamba_d_conv", "conv_kernel_size"],
    "mamba_expand": ["expand", "mamba_expand"],
    # gated delta-net (qwen3_next)
    "gdn_num_k_heads": ["linear_num_key_heads"],
    "gdn_num_v_heads": ["linear_num_value_heads"],
    "gdn_head_k_dim": ["linear_key_head_dim"],
    "gdn_head_v_dim": ["linear_value_head_dim"],
    "gdn_conv_kernel": ["linear_conv_kernel_dim"],
    # MLA
    "q_lora_rank": ["q_lora_rank"],
    "kv_lora_rank": ["kv_lora_rank"],
    "qk_rope_head_dim": ["qk_rope_head_dim"],
    "qk_nope_head_dim": ["qk_nope_head_dim"],
    "v_head_dim": ["v_head_dim"],
    "mtp_layers": ["num_nextn_predict_layers", "mtp_num_hidden_layers", "num_mtp_layers"],
    # DeepSeek sparse attention indexer
    "index_n_heads": ["index_n_heads"],
    "index_head_dim": ["index_head_dim"],
    "index_topk": ["index_topk"],
    # latent MoE (NemotronH)
    "moe_latent_size": ["moe_latent_size"],
    # short convolution (LFM2)
    "conv_kernel_cache": ["conv_L_cache"],
}

#: Structure flags. A ``str`` value names a config key whose value is used; a bool is a constant.
DEFAULT_FAMILY: dict[str, Any] = {
    "norm": "rms",                 # "rms" (weight only) or "layernorm" (weight + bias)
    "norms_per_layer": 2,          # pre-attention and pre-MLP
    "qkv_bias": "attention_bias",
    "o_bias": "attention_bias",
    "mlp_gated": True,             # gate/up/down (SwiGLU-style) vs up/down
    "mlp_bias": "mlp_bias",
    "qk_norm": "none",             # "none", "head" (weight of head_dim), "full" (weight of heads*head_dim)
    "attn_output_gate": False,     # q_proj also emits a per-channel output gate (doubles q width)
    "sinks": False,                # learned attention-sink logit per head
    "router_bias": False,
    "expert_bias": False,
    "shared_expert_gate": False,   # scalar sigmoid gate on the shared expert (1 x hidden)
    "lm_head_bias": False,
    "learned_positions": False,    # absolute position embedding table of max_positions rows
    "token_types": False,          # BERT token-type embeddings
    "embedding_norm": False,       # a norm right after the embeddings
    "final_norm": True,
    "dense_intermediate_key": None,  # config key of the dense-layer width in MoE models, if not intermediate_size
    "linear_attention": None,      # what layer_types "linear_attention" means: "mamba2" or "gated_deltanet"
    "kind": "decoder",             # "decoder", "encoder", "encoder-decoder"
    "all_sliding_if_window": True,  # no layer_types but sliding_window set -> every layer slides
    "tied_default": False,         # tie_word_embeddings when the key is absent (raw-key fallback only)
    "mlp_width_rule": None,        # how the MLP width follows from intermediate_size ("lfm2": Lfm2MLP's adjustment)
    "neutral_keys": (),            # keys this family's modeling code reads that change no parameter or cache shape
    "base_pooler": True,           # encoders: the bare model class has a pooler (BertModel does, DistilBertModel not)
}

FAMILIES: dict[str, dict[str, Any]] = {
    "llama": {},
    "mistral": {},
    "mixtral": {},
    "qwen2": {"qkv_bias": True, "o_bias": False},
    "qwen2_moe": {"qkv_bias": True, "o_bias": False, "shared_expert_gate": True},
    "qwen2_5_vl_text": {"qkv_bias": True, "o_bias": False},
    "qwen2_vl_text": {"qkv_bias": True, "o_bias": False},
    "qwen3": {"qk_norm": "head"},
    "qwen3_moe": {"qk_norm": "head"},
    "qwen3_next": {"qk_norm": "head", "attn_output_gate": True, "shared_expert_gate": True,
                   "linear_attention": "gated_deltanet"},
    "gemma": {},
    "gemma2": {"norms_per_layer": 4},
    "gemma3_text": {"norms_per_layer": 4, "qk_norm": "head"},
    "phi3": {},
    "phi": {"norm": "layernorm", "norms_per_layer": 1, "qkv_bias": True, "o_bias": True, "mlp_gated": False,
            "mlp_bias": True, "lm_head_bias": True, "qk_norm": "qk_layernorm"},
    "gpt2": {"norm": "layernorm", "qkv_bias": True, "o_bias": True, "mlp_gated": False, "mlp_bias": True,
             "learned_positions": True, "tied_default": True},
    "falcon": {"norm": "layernorm", "qkv_bias": "bias", "o_bias": "bias", "mlp_gated": False, "mlp_bias": "bias",
               "norms_per_layer": "falcon", "tied_default": True},
    "deepseek_v3": {},
    "deepseek_v2": {},
    "kimi_k2": {},
    "gpt_oss": {"sinks": True, "router_bias": True, "expert_bias": True},
    # use_qk_norm: Llama4TextL2Norm has no weight
    "llama4_text": {"dense_intermediate_key": "intermediate_size_mlp", "shared_experts_as_intermediate": True,
                    "neutral_keys": ("use_qk_norm",)},
    # chunk_size: the SSD scan's chunk; expand: unused when mamba_num_heads * mamba_head_dim is given
    "nemotron_h": {"norms_per_layer": 1, "mlp_gated": False, "linear_attention": "mamba2",
                   "neutral_keys": ("chunk_size", "expand")},
    "nemotron-nas": {},
    "olmo2": {"qk_norm": "full"},
    "granite": {},
    "bert": {"norm": "layernorm", "qkv_bias": True, "o_bias": True, "mlp_gated": False, "mlp_bias": True,
             "learned_positions": True, "token_types": True, "embedding_norm": True, "final_norm": False,
             "kind": "encoder", "tied_default": True},
    "lfm2": {"mlp_width_rule": "lfm2", "qk_norm": "head", "norms_per_layer": 2},
    # DistilBertModel: no token types, no pooler; sinusoidal_pos_embds fills the same position table
    "distilbert": {"norm": "layernorm", "qkv_bias": True, "o_bias": True, "mlp_gated": False, "mlp_bias": True,
                   "learned_positions": True, "embedding_norm": True, "final_norm": False, "kind": "encoder",
                   "tied_default": True, "dense_intermediate_key": "hidden_dim", "base_pooler": False,
                   "neutral_keys": ("sinusoidal_pos_embds",)},
    "t5": {"qkv_bias": False, "o_bias": False, "mlp_bias": False, "mlp_gated": "t5", "kind": "encoder-decoder",
           "tied_default": True},
}

#: ``architectures[0]`` class names that identify a family when ``model_type`` is unknown to
#: transformers (e.g. Kimi-K2 ships ``model_type: kimi_k2`` with DeepseekV3ForCausalLM code).
ARCHITECTURE_HINTS: dict[str, str] = {
    "DeepseekV3ForCausalLM": "deepseek_v3",
    "DeepseekV2ForCausalLM": "deepseek_v2",
    "LlamaForCausalLM": "llama",
    "MistralForCausalLM": "mistral",
    "MixtralForCausalLM": "mixtral",
    "Qwen2ForCausalLM": "qwen2",
    "Qwen3ForCausalLM": "qwen3",
    "Qwen3MoeForCausalLM": "qwen3_moe",
    "DeciLMForCausalLM": "nemotron-nas",
    "NemotronHForCausalLM": "nemotron_h",
    "GptOssForCausalLM": "gpt_oss",
}


#: top-level ``model_type`` values whose parameter layout is checked against transformers' modeling
#: code on torch's meta device: the oracle (``scripts/meta_oracle.py``; numbers in
#: ``tests/data/meta_oracle.json`` and ``tests/data/meta_oracle_sweep.json``) agrees exactly for
#: each, and ``tests/test_oracle_sweep.py`` keeps this set equal to what agrees. A type outside it
#: is read with the same readers, but its counts are labelled estimated (``params.exact: false``).
VERIFIED: frozenset[str] = frozenset({
    "bert", "deepseek_v3", "falcon", "gpt2", "gpt_oss", "llama", "llama4", "mixtral", "nemotron_h", "phi", "qwen2",
    "qwen2_5_vl", "qwen3", "qwen3_moe", "qwen3_next", "t5",
})

#: ``model_type`` values ``score`` refuses, with the reason (one place; the oracle sweep skips them too)
REFUSED: dict[str, str] = {}


def family_flags(family: str) -> dict[str, Any]:
    """Merged structure flags of a family (unknown families get the llama-like defaults)."""
    merged = dict(DEFAULT_FAMILY)
    merged.update(FAMILIES.get(family, {}))
    return merged
