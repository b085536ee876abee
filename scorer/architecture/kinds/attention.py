"""Attention mixers: softmax attention (full, sliding, chunked; MHA/GQA/MQA), MLA, DeepSeek sparse attention.

Per-layer-kind overrides: a config may give a layer kind its own head size, KV heads or window
(``per_layer_config`` entries, or ``<kind>_head_dim`` style keys read by a family's config class
into per-layer attributes); :func:`_overrides` applies what ``ctx.extra["per_layer"]`` holds for
the layer (``head_dim``, ``num_kv_heads``, ``window``, ``kv_shared``, ``k_eq_v``; filled by a
family hook, e.g. :mod:`.gemma`).
"""

from __future__ import annotations

from typing import Any

from ...errors import ConfigError
from ..reader import check_int
from ..specs import AttentionSpec, IndexerSpec, MLASpec
from . import LayerContext, mixer

SPANS = {"full_attention": "full", "attention": "full", "global_attention": "full", "global": "full",
         "full": "full", "sliding_attention": "sliding", "local_attention": "sliding", "local": "sliding",
         "sliding": "sliding", "chunked_attention": "chunked", "indexed_attention": "full"}


def _span(ctx: LayerContext, kind: str) -> tuple[str, int | None]:
    span = SPANS.get(kind, "full")
    window = ctx.sliding if span == "sliding" else (ctx.chunk if span == "chunked" else None)
    if span != "full" and window is None:
        span = "full"
    return span, window


def _overrides(ctx: LayerContext, index: int) -> dict[str, Any]:
    per_layer = ctx.extra.get("per_layer") or {}
    got = per_layer.get(index) or {}
    return got if isinstance(got, dict) else {}


def mla(ctx: LayerContext, span: str = "full", window: int | None = None,
        indexer: IndexerSpec | None = None) -> MLASpec:
    """DeepSeek multi-head latent attention (q_lora_rank may be absent: a plain q projection)."""
    r, flags = ctx.r, ctx.flags
    q_lora = r.get("q_lora_rank")
    return MLASpec(
        span=span, window=window, num_heads=ctx.heads,
        q_lora_rank=check_int(q_lora, "q_lora_rank", r.where) if q_lora else None,
        kv_lora_rank=r.int("kv_lora_rank"), qk_nope_head_dim=r.int("qk_nope_head_dim"),
        qk_rope_head_dim=r.int("qk_rope_head_dim", minimum=0),  # 0: NoPE (GLM-5-Next)
        v_head_dim=r.int("v_head_dim"),
        qkv_bias=r.flag(flags["qkv_bias"]), o_bias=r.flag(flags["o_bias"]), indexer=indexer)


def is_mla(r) -> bool:
    """Whether the config describes multi-head latent attention: a non-zero ``kv_lora_rank``.

    Raises:
        ConfigError: ``kv_lora_rank`` is 0 beside the other MLA dimensions (``qk_nope_head_dim`` /
            ``qk_rope_head_dim``): a latent of width 0 is not a model, and reading it as standard attention
            would size the KV cache tens of times too large.
    """
    v = r.get("kv_lora_rank")
    if v == 0 and not isinstance(v, bool) and (r.get("qk_nope_head_dim") or r.get("qk_rope_head_dim")):
        raise ConfigError(f"{r.where}: kv_lora_rank must be at least 1 for multi-head latent attention, got 0")
    return bool(v)


@mixer("full_attention", "attention", "global_attention", "global", "full", "sliding_attention",
       "local_attention", "local", "sliding", "chunked_attention")
def softmax_attention(ctx: LayerContext, index: int, kind: str) -> AttentionSpec | MLASpec:
    """Softmax attention of one layer; MLA when the config has ``kv_lora_rank``."""
    r, flags = ctx.r, ctx.flags
    span, window = _span(ctx, kind)
    if is_mla(r):
        return mla(ctx, span, window)
    qk_norm = flags["qk_norm"]
    qk_norm_bias = False
    if qk_norm == "qk_layernorm":  # phi: optional LayerNorm(head_dim) on q and k
        qk_norm, qk_norm_bias = ("head", True) if r.get("qk_layernorm") else ("none", False)
    if flags.get("qk_norm_switch") and not r.flag(flags["qk_norm_switch"]):
        qk_norm = "none"  # the family's q/k norms exist only when the config key says so (Cohere use_qk_norm)
    over = _overrides(ctx, index)
    head_dim = int(over.get("head_dim") or ctx.head_dim)
    if flags.get("o_proj_hidden") and ctx.heads * head_dim != ctx.hidden:
        # HeliumAttention: o_proj = nn.Linear(hidden_size, hidden_size) after heads x head_dim outputs: any other
        # product is a model that cannot run its first forward
        raise ConfigError(f"{r.where}: num_attention_heads x head_dim = {ctx.heads} x {head_dim} must equal "
                          f"hidden_size = {ctx.hidden} ({flags['o_proj_hidden']}'s o_proj is hidden x hidden)")
    kv = int(over.get("num_kv_heads") or ctx.kv)
    sliding_kind = SPANS.get(kind) == "sliding"
    if sliding_kind and flags.get("sliding_kv_mult"):
        kv *= int(flags["sliding_kv_mult"])  # MiMo-V2-Flash: sliding layers have twice the KV heads
    v_head_dim = head_dim
    if flags.get("v_head_dim_key") and not over.get("head_dim"):
        v_head_dim = r.int(flags["v_head_dim_key"], default=head_dim)
    sinks = flags["sinks"] is True or (flags["sinks"] == "sliding" and sliding_kind)
    if over.get("window") and span != "full":
        window = int(over["window"])
    return AttentionSpec(
        span=span, window=window, num_heads=ctx.heads, num_kv_heads=kv, head_dim=head_dim, v_head_dim=v_head_dim,
        qkv_bias=r.flag(flags["qkv_bias"]), o_bias=r.flag(flags["o_bias"]), qk_norm=qk_norm,
        qk_norm_bias=qk_norm_bias, output_gate=r.flag(flags["attn_output_gate"]), sinks=sinks,
        gate_bias=None if flags["attn_output_gate_bias"] is None else r.flag(flags["attn_output_gate_bias"]),
        kv_shared=bool(over.get("kv_shared", False)), k_eq_v=bool(over.get("k_eq_v", False)))


@mixer("indexed_attention")
def sparse_attention(ctx: LayerContext, index: int, kind: str) -> MLASpec:
    """DeepSeek sparse attention (DeepSeek-V3.2, GLM-5): MLA plus a lightning indexer.

    The indexer (transformers ``DeepseekV32Indexer``) holds ``wq_b`` (q_lora_rank -> heads*head_dim),
    ``wk`` (hidden -> head_dim), a LayerNorm over head_dim and ``weights_proj`` (hidden -> heads); it
    caches one key of ``index_head_dim`` values per token and layer beside the MLA latent.

    GLM-5 (``glm_moe_dsa``) adds ``indexer_types``: a ``"shared"`` layer has no indexer (transformers
    ``GlmMoeDsaAttention.indexer = None``) and reuses the previous ``"full"`` layer's top-k selection, so it
    holds no indexer weights and caches no indexer key. The config class derives the list from
    ``index_topk_pattern`` or ``index_topk_freq`` / ``index_skip_topk_offset`` (consumed through it).
    """
    r = ctx.r
    types = _per_layer_list(ctx, "indexer_types")
    if types is not None:
        r.mark("index_topk_pattern", "index_topk_freq", "index_skip_topk_offset")
    shared = types is not None and types[index] == "shared"
    mistral = ctx.flags.get("dsa_variant") == "mistral_large4"
    indexer = IndexerSpec(num_heads=r.int("index_n_heads"), head_dim=r.int("index_head_dim"),
                          top_k=r.int("index_topk"), q_lora_rank=ctx.hidden if mistral else r.int("q_lora_rank"),
                          shared=shared, input_norm=mistral)
    spec = mla(ctx, "full", None, indexer)
    if mistral:
        spec = _mistral_large4(ctx, index, spec)
    return spec


def _per_layer_list(ctx: LayerContext, key: str) -> list | None:
    val = ctx.r.get(key)
    if not isinstance(val, (list, tuple)):
        return None
    if len(val) != ctx.n_layers:
        raise ConfigError(f"{ctx.where}: {key} lists {len(val)} layers, the model has {ctx.n_layers}")
    return list(val)


def _mistral_large4(ctx: LayerContext, index: int, spec: MLASpec) -> MLASpec:
    """Mistral Large 4 (transformers ``MistralLarge4TextAttention``): no Q-LoRA (a plain ``q_proj``), a per-head
    ``softmax_scaling``; the indexer's queries come from the hidden state (``q_input_norm``, ``wq_b`` h ->
    heads·dim, its own softmax scaling); ``kv_source_layers[i] != i`` makes the layer attend an earlier layer's
    latent (no ``kv_a_proj_with_mqa`` / ``kv_a_layernorm``, no latent cache; its own indexer key cache unless its
    indexer is ``shared``); ``no_rope_layers[i] == 0`` (NoPE) drops the rope slice of the latent
    (``kv_a_proj_with_mqa`` outputs kv_lora_rank) and widens ``kv_b_proj``'s nope part by it."""
    r = ctx.r
    r.mark("no_rope_layer_interval")  # folded into no_rope_layers by the config class
    sources = _per_layer_list(ctx, "kv_source_layers")
    rope = _per_layer_list(ctx, "no_rope_layers")
    update: dict[str, Any] = {"softmax_scaling": True, "kv_shared": sources is not None and sources[index] != index}
    if rope is not None and not rope[index]:
        update |= {"qk_rope_head_dim": 0, "qk_nope_head_dim": spec.qk_nope_head_dim + spec.qk_rope_head_dim}
    return spec.model_copy(update=update)
