"""Kolibri 1.1 (Aleph Alpha; transformers 5.25.0 ``modeling_kolibri1_1.py``): indexed attention and KV sharing.

* ``indexed_attention`` layers (the family's ``layer_kind_aliases`` name them ``kolibri_indexed_attention``) are
  full-context softmax attention without RoPE behind ``Kolibri1_1Indexer``, a selection without weights: each query
  attends to the ``index_topk`` best-scoring keys of a pool plus ``index_num_sink_tokens`` first and
  ``index_num_local_tokens`` last tokens (:class:`~scorer.architecture.specs.SparseSelection`). The layers of
  ``index_layers`` pick the pool (``index_pool_size`` keys in blocks of ``index_compression``), the others rescore
  the pool of the nearest preceding one. The cache holds every token.
* ``kv_source_layers[i] != i`` (``Kolibri1_1Config.kv_sharing_modes`` "reuse") makes layer ``i`` attend an earlier
  layer's keys and values: no ``k_proj`` / ``v_proj`` / ``k_norm`` and no cache of its own (``kv_shared``).
"""

from __future__ import annotations

from typing import Any

from ...errors import ConfigError
from ..reader import Reader, check_int
from ..specs import AttentionSpec, SparseSelection
from . import LayerContext, mixer
from .attention import _overrides, softmax_attention


def _layer_list(r: Reader, key: str) -> list[int] | None:
    """The config's list of layer indices under ``key`` (None when absent).

    Raises:
        ConfigError: not a list of integers."""
    val = r.get(key)
    if val is None:
        return None
    if not isinstance(val, (list, tuple)) or not all(isinstance(x, int) and not isinstance(x, bool) for x in val):
        raise ConfigError(f"{r.where}: {key} must be a list of layer indices")
    return list(val)


def kolibri_per_layer(r: Reader, n: int, kinds: list[str]) -> dict[int, dict[str, Any]]:
    """``{layer: {"kv_shared": True}}`` for the layers whose ``kv_source_layers`` entry names an earlier layer, and
    ``{"pool_source": True}`` for the indexers (``index_layers``; by default, as ``Kolibri1_1Config``, the 1st, 3rd,
    4th and 6th indexed-attention layer).

    Raises:
        ConfigError: a list of another length than the depth, or a source that is not the layer itself or, for an
            indexed-attention layer, an earlier one producing its own keys and values (what
            ``Kolibri1_1Config.validate_architecture`` refuses).
    """
    out: dict[int, dict[str, Any]] = {}
    index_layers = _layer_list(r, "index_layers")
    if index_layers is None:
        indexed = [i for i, k in enumerate(kinds) if k == "indexed_attention"]
        index_layers = [indexed[i] for i in (0, 2, 3, 5) if i < len(indexed)]
    for i in index_layers:
        if not 0 <= i < n or kinds[i] != "indexed_attention":
            raise ConfigError(f"{r.where}: index_layers names layer {i}, which is not an indexed-attention layer")
        out[i] = {"pool_source": True}
    sources = _layer_list(r, "kv_source_layers")
    if sources is None:
        return out
    if len(sources) != n:
        raise ConfigError(f"{r.where}: kv_source_layers lists {len(sources)} layers, the model has {n}")
    for i, src in enumerate(sources):
        if not 0 <= src <= i or sources[src] != src or kinds[src] != kinds[i] or (
                src != i and kinds[i] == "sliding_attention"):  # sliding layers keep their own (validate_architecture)
            raise ConfigError(f"{r.where}: kv_source_layers[{i}] = {src} must be {i} or an earlier indexed-attention "
                              "layer that keeps its own keys and values")
        if src != i:
            out.setdefault(i, {})["kv_shared"] = True
    return out


@mixer("kolibri_indexed_attention")
def kolibri_indexed(ctx: LayerContext, index: int, kind: str) -> AttentionSpec:
    """An indexed-attention layer: the family's full attention with its :class:`SparseSelection`.

    Raises:
        ConfigError: a non-positive budget, a pool that is not a multiple of the compression, or more scoring heads
            than the query heads of KV head 0."""
    r = ctx.r
    spec = softmax_attention(ctx, index, "full_attention")
    where = r.where
    pool = check_int(r.get("index_pool_size", 16384), "index_pool_size", where, limit=None)
    comp = check_int(r.get("index_compression", 16), "index_compression", where, limit=None)
    if pool % comp:
        raise ConfigError(f"{where}: index_pool_size {pool} is not a multiple of index_compression {comp}")
    heads = check_int(r.get("index_num_heads", 12), "index_num_heads", where, limit=None)
    if heads > spec.num_heads // spec.num_kv_heads:
        raise ConfigError(f"{where}: index_num_heads {heads} exceeds the {spec.num_heads // spec.num_kv_heads} query "
                          "heads of key head 0")
    sel = SparseSelection(top_k=check_int(r.get("index_topk", 2048), "index_topk", where, limit=None),
                          sink=check_int(r.get("index_num_sink_tokens", 8), "index_num_sink_tokens", where, minimum=0,
                                         limit=None),
                          local=check_int(r.get("index_num_local_tokens", 128), "index_num_local_tokens", where,
                                          minimum=0, limit=None),
                          pool_size=pool, compression=comp, scoring_heads=heads,
                          pool_source=bool(_overrides(ctx, index).get("pool_source")))
    return spec.model_copy(update={"selection": sel})
