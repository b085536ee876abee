"""Attention mixers: softmax attention (full, sliding, chunked; MHA/GQA/MQA), MLA, DeepSeek sparse attention.

Per-layer-kind overrides: a config may give a layer kind its own head size, KV heads or window
(``per_layer_config`` entries, or ``<kind>_head_dim`` style keys read by a family's config class
into per-layer attributes); :func:`_overrides` applies what ``ctx.extra["per_layer"]`` holds for
the layer.
"""

from __future__ import annotations

from typing import Any

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
        qk_rope_head_dim=r.int("qk_rope_head_dim"), v_head_dim=r.int("v_head_dim"),
        qkv_bias=r.flag(flags["qkv_bias"]), o_bias=r.flag(flags["o_bias"]), indexer=indexer)


@mixer("full_attention", "attention", "global_attention", "global", "full", "sliding_attention",
       "local_attention", "local", "sliding", "chunked_attention")
def softmax_attention(ctx: LayerContext, index: int, kind: str) -> AttentionSpec | MLASpec:
    """Softmax attention of one layer; MLA when the config has ``kv_lora_rank``."""
    r, flags = ctx.r, ctx.flags
    span, window = _span(ctx, kind)
    if r.get("kv_lora_rank"):
        return mla(ctx, span, window)
    qk_norm = flags["qk_norm"]
    qk_norm_bias = False
    if qk_norm == "qk_layernorm":  # phi: optional LayerNorm(head_dim) on q and k
        qk_norm, qk_norm_bias = ("head", True) if r.get("qk_layernorm") else ("none", False)
    over = _overrides(ctx, index)
    head_dim = int(over.get("head_dim") or ctx.head_dim)
    kv = int(over.get("num_kv_heads") or ctx.kv)
    if over.get("window") and span != "full":
        window = int(over["window"])
    return AttentionSpec(
        span=span, window=window, num_heads=ctx.heads, num_kv_heads=kv, head_dim=head_dim, v_head_dim=head_dim,
        qkv_bias=r.flag(flags["qkv_bias"]), o_bias=r.flag(flags["o_bias"]), qk_norm=qk_norm,
        qk_norm_bias=qk_norm_bias, output_gate=r.flag(flags["attn_output_gate"]), sinks=bool(flags["sinks"]),
        kv_shared=bool(over.get("kv_shared", False)))


@mixer("indexed_attention")
def sparse_attention(ctx: LayerContext, index: int, kind: str) -> MLASpec:
    """DeepSeek sparse attention (DeepSeek-V3.2, GLM-5): MLA plus a lightning indexer.

    The indexer (transformers ``DeepseekV32Indexer``) holds ``wq_b`` (q_lora_rank -> heads*head_dim),
    ``wk`` (hidden -> head_dim), a LayerNorm over head_dim and ``weights_proj`` (hidden -> heads); it
    caches one key of ``index_head_dim`` values per token and layer beside the MLA latent.
    """
    r = ctx.r
    indexer = IndexerSpec(num_heads=r.int("index_n_heads"), head_dim=r.int("index_head_dim"),
                          top_k=r.int("index_topk"), q_lora_rank=r.int("q_lora_rank"))
    return mla(ctx, "full", None, indexer)
