"""Every key of ``config.json`` is consumed, known to be irrelevant to shapes, or unknown.

The readers record what they consume (:class:`~scorer.architecture.reader.Reader`). What is left
is checked against :data:`IRRELEVANT` (exact names) and :data:`IRRELEVANT_PATTERN` (generation
settings, token ids, dropout, initializers, norm epsilons, RoPE and scaling constants, runtime
switches: they change no parameter or cache shape). An unknown key that could change shapes — an
integer, a list or an object, or a name holding one of :data:`SHAPE_WORDS` — is *unmodelled*: the
sheet lists it and labels the counts estimated. Other unknown keys (strings, floats, booleans with
neutral names) are ignored.
"""

from __future__ import annotations

import re
from typing import Any

#: keys the normalizer reads outside the alias reader (structure, provenance, sub-configs)
STRUCTURAL = frozenset({
    "model_type", "architectures", "auto_map", "text_config", "llm_config", "language_config",
    "language_model_config", "quantization_config", "compression_config",
    "block_configs", "is_encoder_decoder", "id2label", "label2id", "num_labels", "mamba_ssm_cache_dtype",
    "torch_dtype", "dtype", "tie_word_embeddings",
})

#: names known to change no shape (exact matches)
IRRELEVANT = frozenset({
    "_name_or_path", "transformers_version", "use_cache", "initializer_range", "initializer_factor",
    "problem_type", "tokenizer_class", "prefix", "task_specific_params", "finetuning_task",
    "chunk_size_feed_forward", "is_decoder", "cross_attention_hidden_size",
    "tie_encoder_decoder", "torchscript", "pruned_heads", "use_bfloat16", "bad_words_ids",
    "begin_suppress_tokens", "suppress_tokens", "max_length", "min_length", "do_sample", "early_stopping",
    "num_beams", "num_beam_groups", "diversity_penalty", "temperature", "top_k", "top_p", "typical_p",
    "repetition_penalty", "length_penalty", "no_repeat_ngram_size", "encoder_no_repeat_ngram_size",
    "num_return_sequences", "forced_bos_token_id", "forced_eos_token_id", "remove_invalid_values",
    "exponential_decay_length_penalty", "hidden_act", "hidden_activation", "activation_function",
    "mlp_hidden_act", "mamba_hidden_act", "dense_act_fn", "tf_legacy_loss", "gradient_checkpointing",
    "num_logits_to_keep", "logits_to_keep", "pretraining_tp", "time_step_limit", "time_step_min",
    "time_step_max", "time_step_floor", "time_step_rank", "residual_in_fp32", "rescale_prenorm_residual",
    "norm_topk_prob", "topk_method", "scoring_func", "n_group", "topk_group", "ep_size", "aux_loss_alpha",
    "seq_aux", "moe_shared_expert_overlap", "use_mamba_kernels", "bidirectional",
    "classifier_dropout", "layer_norm_type", "normalization_type", "query_pre_attn_scalar",
    "swiglu_limit", "use_qk_norm_in_fp32", "attention_dropout", "routed_scaling_factor", "swa_layers_rotary",
    "use_sliding_window", "attn_logit_softcapping", "final_logit_softcapping", "pad_vocab_size_multiple",
    "router_dtype", "moe_router_dtype", "use_bidirectional_attention",
    "scale_attn_by_inverse_layer_idx", "reorder_and_upcast_attn", "scale_attn_weights", "summary_activation",
    "summary_first_dropout", "summary_proj_to_labels", "summary_type", "summary_use_proj", "initial_context_length",
    "apply_residual_connection_post_layernorm", "is_gated_act", "tokens_per_second", "max_window_layers_rotary",
    "layerdrop", "moe_router_activation_func", "use_grouped_topk",
    # RoPE's original context (YaRN / LongRoPE), the tokenizer's length limit, a scalar embedding scale
    "original_max_position_embeddings", "model_max_length", "embeddings_scale_by_sqrt_dim",
})

#: name fragments of shape-neutral settings
IRRELEVANT_PATTERN = re.compile(
    r"(dropout|_pdrop$|pdrop|token_id|token_ids$|_id$|_eps$|eps$|epsilon|^init_|_init$|initializer|_std$|rope|rotary|"
    r"theta|scaling|_scale$|multiplier|softcap|swiglu_limit|_coef$|_loss|jitter|"
    r"^use_(cache|flash|fused|kernel|triton|cuda|return)|implementation|"
    r"^output_(attentions|hidden_states|router_logits|past|scores|logits)$|"  # an output_* width is a shape key
    r"^return_|^_|temperature|penalty|^attn_temperature|^sample|"
    r"_token$|tokenizer|processor|^image_token|^video_token|^audio_token|^boi_|^eoi_|_index$|^layernorm_.*_(alpha|beta)$)")

#: name fragments of keys that can change shapes (a model's width, depth, heads, experts, layout, ...)
SHAPE_WORDS = ("size", "dim", "num", "rank", "latent", "expert", "layer", "head", "window", "group", "pattern",
               "bias", "norm", "gate", "proj", "share", "conv", "kernel", "state", "inner", "ffn", "mlp", "moe",
               "vocab", "hidden", "embed", "channel", "width", "depth", "block", "lora", "stride", "patch", "tie",
               "qk", "kv", "mtp", "nextn", "config")


#: keys that change no shape only at these values (BERT's relative_key positions add a distance table;
#: add_cross_attention adds cross-attention blocks)
IRRELEVANT_AT = {
    "position_embedding_type": ("absolute", "rope", "rotary", "rope_gptj", "nope", None),
    "add_cross_attention": (False, None),
}


#: an object under one of these names is a tower's own config, whatever else the name holds (Ovis's
#: visual_tokenizer_config, Phi-4-multimodal's audio_processor): never shape-neutral by name
TOWER_OBJECT = re.compile(r"(^|_)(visual|vision|audio|speech|image|img|video)(_|$)")


def is_irrelevant(name: str, value: Any = None) -> bool:
    if name in IRRELEVANT_AT:
        return value in IRRELEVANT_AT[name]
    if name in IRRELEVANT:
        return True
    if isinstance(value, dict) and value and TOWER_OBJECT.search(name.lower()):
        return False
    return bool(IRRELEVANT_PATTERN.search(name))


def may_change_shapes(name: str, value: Any) -> bool:
    """Heuristic of issue 12: an integer, a list, an object, or a name with a shape word."""
    if value is None:
        return False
    if isinstance(value, (list, tuple, dict)):
        return True
    if isinstance(value, int) and not isinstance(value, bool):
        return True
    lowered = name.lower()
    return any(w in lowered for w in SHAPE_WORDS)


def unmodelled(raw: dict[str, Any], consumed: set[str], prefix: str = "") -> list[str]:
    """Keys of ``raw`` that may change shapes and that nothing consumed, sorted, each with ``prefix``."""
    out = []
    for name, value in raw.items():
        if not isinstance(name, str) or name in consumed or name in STRUCTURAL or is_irrelevant(name, value):
            continue
        if may_change_shapes(name, value) or name in IRRELEVANT_AT:
            out.append(prefix + name)
    return sorted(out)
