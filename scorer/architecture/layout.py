"""The layer stack's layout: depth, each layer's kind, which layers are MoE, norms per block.

Reads transformers' vocabulary: ``layer_types`` (or NemotronH's ``layers_block_type``), a hybrid
pattern string (``hybrid_override_pattern``: ``M`` Mamba, ``*`` attention, ``-`` MLP, ``E`` MoE),
Gemma-style ``sliding_window_pattern``, MoE placement keys (``moe_layers``, ``mlp_layer_types``,
``first_k_dense_replace`` + ``moe_layer_freq`` as a step or as a per-layer 0/1 list,
``decoder_sparse_step`` + ``mlp_only_layers``, ``interleave_moe_layer_step``).
"""

from __future__ import annotations

from typing import Any

from ..errors import ConfigError
from .reader import LIMITS, Reader, check_int

PATTERN_KINDS = {"M": "linear_attention", "*": "full_attention", "-": "mlp", "E": "moe"}


def depth(r: Reader) -> int:
    """Number of decoder layers: ``num_hidden_layers`` (and aliases), else the length of the layer
    pattern (``layer_types``, ``layers_block_type``, ``hybrid_override_pattern``).

    Raises:
        ConfigError: none of them is present, or the value is out of bounds.
    """
    if r.get("num_layers") is not None:
        return r.int("num_layers")
    for key in ("layer_types", "layers_block_type", "hybrid_override_pattern"):
        val = r.get(key)
        if isinstance(val, (list, tuple, str)) and val:
            return check_int(len(val), f"len({key})", r.where, limit=LIMITS["num_layers"])
    return r.int("num_layers")  # raises: missing


def layer_kinds(r: Reader, n: int, flags: dict[str, Any], sliding: int | None, chunk: int | None) -> list[str]:
    """Per-layer kind strings following transformers' ``layer_types`` vocabulary."""
    types = r.get("layer_types")
    if types is None and flags.get("layer_types_key"):
        types = r.get(flags["layer_types_key"])  # the family's own per-layer list (GPT-Neo attention_layers)
    if types is None and r.cfg is not None:
        types = getattr(r.cfg, "layers_block_type", None)
        if types is not None:
            r.mark("layers_block_type", "hybrid_override_pattern")
    if types is None:
        types = r.raw_get("layers_block_type")
    if types is not None:
        if not isinstance(types, (list, tuple)) or len(types) != n or not all(isinstance(t, str) for t in types):
            raise ConfigError(f"{r.where}: layer_types must be a list of {n} strings (one per layer)")
        allowed = flags.get("layer_types_allowed")
        bad = next(((i, t) for i, t in enumerate(types) if allowed and t not in allowed), None)
        if bad is not None:
            raise ConfigError(f"{r.where}: layer_types[{bad[0]}] is {bad[1]!r}, not a layer this family builds "
                              f"({', '.join(allowed)})"[:200])
        return list(types)
    pattern = r.get("hybrid_override_pattern")
    if pattern is not None and (not isinstance(pattern, str) or len(pattern) != n):
        raise ConfigError(f"{r.where}: hybrid_override_pattern must be a string of {n} characters (one per layer)")
    if isinstance(pattern, str):
        # an unknown character becomes an unknown layer type: read_mixer reads it as attention, with a guess
        return [PATTERN_KINDS.get(ch, f"pattern character {ch!r}") for ch in pattern[:n]]
    period = flags.get("default_layer_period")
    if period is not None:  # the family's config class rule: every period-th layer is of its own kind (Kolibri 1.1)
        every_n, kind, other = period
        return [kind if (i + 1) % every_n == 0 else other for i in range(n)]
    every = r.get("sliding_window_pattern")
    if sliding and isinstance(every, int) and not isinstance(every, bool) and every > 1:
        # Gemma-3 style alternation: every Nth layer is global, the others slide
        return ["full_attention" if (i + 1) % every == 0 else "sliding_attention" for i in range(n)]
    if chunk:
        return ["chunked_attention"] * n
    if sliding and flags["all_sliding_if_window"] and r.get("use_sliding_window") is not False:
        return ["sliding_attention"] * n
    return [flags.get("layer_kind") or "full_attention"] * n  # the family's one kind (mamba2: "mamba")


def _int_list(val: Any, name: str, r: Reader) -> list[int]:
    if not isinstance(val, (list, tuple)) or not all(isinstance(x, int) and not isinstance(x, bool) for x in val):
        raise ConfigError(f"{r.where}: {name} must be an integer or a list of integers")
    return list(val)


def moe_layers(r: Reader, n: int, num_experts: int | None, kinds: list[str]) -> set[int]:
    """Indices of the layers whose FFN is the MoE block."""
    if not num_experts:
        return set()
    if "moe" in kinds or "mlp" in kinds:  # block-per-layer hybrids say it per layer
        return {i for i, k in enumerate(kinds) if k == "moe"}
    counts = r.get("layers_num_experts")  # JambaConfig: num_experts on MoE layers, 1 elsewhere
    if isinstance(counts, (list, tuple)) and len(counts) != n:
        raise ConfigError(f"{r.where}: layers_num_experts lists {len(counts)} layers, the model has {n}")
    if isinstance(counts, (list, tuple)):
        r.mark("expert_layer_period", "expert_layer_offset")  # the config class wrote the per-layer list from them
        return {i for i, c in enumerate(_int_list(counts, "layers_num_experts", r)) if c > 1}
    per_layer = r.get("mlp_layer_types")
    if per_layer is not None and (not isinstance(per_layer, (list, tuple)) or len(per_layer) != n
                                  or not all(isinstance(t, str) for t in per_layer)):
        raise ConfigError(f"{r.where}: mlp_layer_types must be a list of {n} strings (one per layer)")
    if per_layer is not None:
        r.mark("first_k_dense_replace", "moe_layer_freq")  # the config class wrote the per-layer list from them
        return {i for i, t in enumerate(per_layer) if str(t) in ("sparse", "moe", "hash_moe")}
    listed = r.get("moe_layers")
    if isinstance(listed, (list, tuple)):
        return {int(i) for i in listed if isinstance(i, int) and 0 <= i < n}
    freq = r.get("moe_layer_freq")
    if isinstance(freq, (list, tuple)):  # a per-layer 0/1 list
        flags01 = _int_list(freq, "moe_layer_freq", r)
        if len(flags01) != n:
            raise ConfigError(f"{r.where}: moe_layer_freq lists {len(flags01)} layers, the model has {n}")
        first_dense = check_int(r.get("first_k_dense_replace") or 0, "first_k_dense_replace", r.where, minimum=0,
                                limit=None)
        return {i for i, f in enumerate(flags01) if f and i >= first_dense}
    start = r.get("moe_layer_start_index")
    if start is not None:  # Ernie 4.5: (i + 1) % moe_layer_interval == 0 and start <= i <= end
        step = check_int(r.get("moe_layer_interval") or 1, "moe_layer_interval", r.where)
        start = check_int(start, "moe_layer_start_index", r.where, minimum=0, limit=None)
        end = r.get("moe_layer_end_index")
        end = n - 1 if end is None else check_int(end, "moe_layer_end_index", r.where, minimum=-1, limit=None)
        end = n - 1 if end < 0 else end
        return {i for i in range(n) if (i + 1) % step == 0 and start <= i <= end}
    first_dense = r.get("first_k_dense_replace")
    if first_dense is not None:
        step = check_int(freq or 1, "moe_layer_freq", r.where)
        first_dense = check_int(first_dense, "first_k_dense_replace", r.where, minimum=0, limit=None)
        return {i for i in range(n) if i >= first_dense and i % step == 0}
    step = r.get("decoder_sparse_step")
    mlp_only = set(_int_list(r.get("mlp_only_layers") or [], "mlp_only_layers", r))
    if step:
        step = check_int(step, "decoder_sparse_step", r.where)
        return {i for i in range(n) if i not in mlp_only and (i + 1) % step == 0}
    step = r.get("interleave_moe_layer_step")
    if step:
        step = check_int(step, "interleave_moe_layer_step", r.where)
        return {i for i in range(n) if (i + 1) % step == 0}
    return {i for i in range(n) if i not in mlp_only}


def _falcon_new(r: Reader) -> bool:
    """FalconConfig.new_decoder_architecture; for a RefinedWeb config read by its raw keys (no transformers class:
    the original falcon-40b code), ``n_head_kv`` is that layout: grouped KV heads and two input norms."""
    if r.get("new_decoder_architecture"):
        return True
    return r.cfg is None and r.raw.get("new_decoder_architecture") is None and r.raw.get("n_head_kv") is not None


def norms_per_layer(r: Reader, flags: dict[str, Any]) -> int:
    spec = flags["norms_per_layer"]
    if spec == "falcon":  # transformers FalconDecoderLayer
        if _falcon_new(r):
            return 2 if r.get("num_ln_in_parallel_attn") in (None, 2) else 1
        return 1 if r.get("parallel_attn", True) else 2
    extra = 2 if flags.get("post_norm_switch") and r.flag(flags["post_norm_switch"]) else 0  # post-attn / post-MLP
    if flags.get("single_norm_switch") and r.flag(flags["single_norm_switch"]):
        return 1  # parallel attention and MLP on one input norm (StableLM use_parallel_residual)
    return int(spec) + extra


def falcon_kv(r: Reader, heads: int) -> int:
    if _falcon_new(r):
        # FalconConfig (transformers 5.25.0) derives num_key_value_heads = num_kv_heads here and writes it
        r.mark("num_key_value_heads")
        if r.cfg is None and r.raw.get("n_head_kv") is not None and r.get("num_kv_heads") is None:
            r.mark("n_head_kv")
            return check_int(r.raw["n_head_kv"], "n_head_kv", r.where, limit=LIMITS.get("num_kv_heads"))
        return r.int("num_kv_heads", default=heads)
    # the original layout's fused query_key_value is hidden + 2 x head_dim (multi_query) or 3 x hidden wide: its KV
    # heads are 1 or all heads, whatever num_kv_heads says (FalconConfig writes it on save_pretrained; transformers
    # 5.24.0 modeling_falcon.py FalconAttention reads it only for new_decoder_architecture or not multi_query)
    r.mark("num_kv_heads", "n_head_kv", "num_key_value_heads")  # transformers 5.25 derives and writes the last
    return 1 if r.get("multi_query", True) else heads


def per_layer_values(r: Reader, key: str, n: int) -> list[int] | None:
    """A per-layer list where a scalar is usual (gemma-3n's ``intermediate_size``): None for a scalar.

    Raises:
        ConfigError: a list of the wrong length or with non-integer entries.
    """
    val = r.get(key)
    if not isinstance(val, (list, tuple)):
        return None
    name = r.key_name(key)
    if len(val) != n:
        raise ConfigError(f"{r.where}: {name} lists {len(val)} values, the model has {n} layers")
    return [check_int(v, f"{name}[{i}]", r.where, limit=LIMITS.get(key)) for i, v in enumerate(val)]
