"""``quantization_config`` (config.json) and ``hf_quant_config.json`` (ModelOpt) normalized to a QuantSpec."""

from __future__ import annotations

from typing import Any

from ..errors import ConfigError
from .reader import check_int
from .specs import QuantSpec

def parse_quantization(qc: dict[str, Any] | None, sidecar: dict[str, Any] | None) -> QuantSpec | None:
    """Normalize ``quantization_config`` (config.json) or ``hf_quant_config.json`` (ModelOpt).

    Raises:
        ConfigError: malformed values (non-numeric bits or block sizes, non-list exclusions, ...).
    """
    try:
        q = _parse_quantization(qc, sidecar)
    except ConfigError:
        raise
    except (TypeError, ValueError, AttributeError, KeyError, OverflowError) as exc:
        raise ConfigError(f"quantization_config is malformed ({type(exc).__name__})") from None
    if q is not None:
        if q.weight_bits is not None:
            check_int(q.weight_bits, "quantization bits", "quantization_config", limit=32)
        if q.group_size is not None:
            check_int(q.group_size, "quantization group_size", "quantization_config", limit=1 << 20)
        for b in q.block or []:
            check_int(b, "quantization block size", "quantization_config", limit=1 << 20)
    return q


def _str_list(val: Any, name: str) -> list[str]:
    if val is None:
        return []
    if not isinstance(val, list):
        raise ConfigError(f"quantization_config: {name} must be a list of module patterns")
    return [str(x) for x in val if isinstance(x, (str, int))]


def _parse_quantization(qc: dict[str, Any] | None, sidecar: dict[str, Any] | None) -> QuantSpec | None:
    if sidecar and isinstance(sidecar.get("quantization"), dict):
        q = sidecar["quantization"]
        return _modelopt(q, "hf_quant_config.json")
    if not isinstance(qc, dict):
        return None
    method = str(qc.get("quant_method") or qc.get("quant_algo") or "unknown").strip().lower() or "unknown"
    excl_key = next((k for k in ("modules_to_not_convert", "ignore", "ignored_layers", "exclude_modules")
                     if qc.get(k) is not None), None)
    excluded = _str_list(qc.get(excl_key), excl_key) if excl_key else []
    if method in ("fp8", "fbgemm_fp8"):
        block = qc.get("weight_block_size")
        if isinstance(block, list) and len(block) == 2:
            return QuantSpec(method=method, format="fp8_block", weight_bits=8, block=[int(b) for b in block],
                             activations=f"fp8-{qc.get('activation_scheme', 'dynamic')}", excluded=excluded)
        fmt = "fp8_channel" if method == "fbgemm_fp8" else "fp8"
        return QuantSpec(method=method, format=fmt, weight_bits=8,
                         activations=f"fp8-{qc.get('activation_scheme', 'dynamic')}", excluded=excluded)
    if method == "mxfp4":
        return QuantSpec(method=method, format="mxfp4", weight_bits=4, group_size=32, excluded=excluded)
    if method == "modelopt":
        return _modelopt(qc, "config.json quantization_config")
    if method in ("awq", "gptq", "autoround", "auto-round"):
        key = next((k for k in ("bits", "w_bit") if qc.get(k) is not None), None)
        bits = qc[key] if key else 4  # AWQ/GPTQ's default
        bits = int(bits) if isinstance(bits, str) and bits.strip().isdigit() else bits  # "4" in some exports
        if isinstance(bits, bool) or not isinstance(bits, int) or not 1 <= bits <= 16:
            raise ConfigError(f"quantization_config.{key}: weight bits must be an integer from 1 to 16, got "
                              f"{bits!r}"[:200])
        gkey = "group_size" if "group_size" in qc else "q_group_size"
        gs = qc.get(gkey)
        gs = int(gs) if isinstance(gs, str) and gs.strip().lstrip("-").isdigit() else gs
        if gs is not None and (isinstance(gs, bool) or not isinstance(gs, int) or (gs <= 0 and gs != -1)):
            raise ConfigError(f"quantization_config.{gkey} must be a positive integer or -1 (per channel), got "
                              f"{gs!r}"[:200])
        # stored zero points: GPTQ's qzeros tensor whatever sym says (a symmetric checkpoint stores the midpoint),
        # AWQ's zero_point (default True)
        zeros = True if method == "gptq" else (bool(qc.get("zero_point", True)) if method == "awq" else None)
        return QuantSpec(method=method, format="int4" if bits == 4 else f"int{bits}", weight_bits=bits,
                         group_size=gs if gs and gs > 0 else None, excluded=excluded, zero_points=zeros)
    if method == "bitsandbytes":
        if qc.get("load_in_4bit"):
            fmt = "nf4" if qc.get("bnb_4bit_quant_type", "fp4") == "nf4" else "fp4_bnb"
            return QuantSpec(method=method, format=fmt, weight_bits=4, group_size=64, excluded=excluded)
        return QuantSpec(method=method, format="int8", weight_bits=8, excluded=excluded)
    if method == "compressed-tensors":
        return _compressed_tensors(qc, excluded)
    return QuantSpec(method=method, format="unknown", excluded=excluded)


def _modelopt(q: dict[str, Any], source: str) -> QuantSpec:
    algo = str(q.get("quant_algo") or "").upper()
    if algo == "MIXED_PRECISION":
        return _modelopt_mixed(q, source)
    excluded = _str_list(q.get("exclude_modules") if q.get("exclude_modules") is not None else q.get("ignore"),
                         "exclude_modules")
    kv = q.get("kv_cache_quant_algo")
    if "NVFP4" in algo or algo == "FP4":
        return QuantSpec(method="modelopt", format="nvfp4", weight_bits=4, group_size=int(q.get("group_size") or 16),
                         activations="nvfp4" if "AWQ" not in algo else None, excluded=excluded,
                         kv_cache_dtype=str(kv).lower() if kv else None, source=source)
    if algo.startswith("FP8"):
        block = q.get("weight_block_size") or None
        return QuantSpec(method="modelopt", format="fp8_block" if block else "fp8", weight_bits=8, block=block,
                         activations="fp8", excluded=excluded, kv_cache_dtype=str(kv).lower() if kv else None,
                         source=source)
    if "W4A16" in algo or "AWQ" in algo or "INT4" in algo:
        return QuantSpec(method="modelopt", format="int4", weight_bits=4, group_size=int(q.get("group_size") or 128),
                         excluded=excluded, kv_cache_dtype=str(kv).lower() if kv else None, source=source)
    if "INT8" in algo or "W8A8" in algo:
        return QuantSpec(method="modelopt", format="int8", weight_bits=8, activations="int8", excluded=excluded,
                         source=source)
    return QuantSpec(method="modelopt", format="unknown", excluded=excluded, source=source)


#: the GEMM components a quantization recipe can target (routers, lm_head and embeddings are conventionally left
#: in 16 bits: rule Q7)
QUANT_COMPONENTS = ("attention", "mlp", "routed_experts", "shared_experts", "recurrent")
#: (substring of a module name or target pattern, the components it selects), first match wins: a module under
#: ``mlp.experts`` is a routed expert, one under ``mlp`` (dense MLP, or a MoE block as a whole) any feed-forward part
_TARGET_MAP = (("shared_expert", ("shared_experts",)), ("experts", ("routed_experts",)),
               ("linear_attn", ("recurrent",)), ("mamba", ("recurrent",)), ("mixer", ("recurrent",)),
               ("self_attn", ("attention",)), ("attn", ("attention",)), ("attention", ("attention",)),
               ("mlp", ("mlp", "routed_experts", "shared_experts")),
               ("feed_forward", ("mlp", "routed_experts", "shared_experts")),
               ("ffn", ("mlp", "routed_experts", "shared_experts")))


def target_components(target: str) -> tuple[str, ...] | None:
    """The components a module name or compressed-tensors target selects: ``Linear`` (every linear layer) all of
    :data:`QUANT_COMPONENTS`; ``re:.*self_attn.*``, ``model.layers.3.mlp.experts.7.up_proj`` by the first
    :data:`_TARGET_MAP` substring; None when nothing is recognized."""
    t = str(target).strip()
    if t in ("Linear", "nn.Linear", "torch.nn.Linear"):
        return QUANT_COMPONENTS
    low = t.lower()
    for needle, comps in _TARGET_MAP:
        if needle in low:
            return comps
    return None


def _ct_weights_format(w: dict[str, Any], fmt_name: str) -> str:
    bits, typ, strategy, gs = w.get("num_bits"), w.get("type", "int"), w.get("strategy"), w.get("group_size")
    if typ == "float" and bits == 4:
        return "mxfp4" if gs == 32 and "nvfp4" not in fmt_name else "nvfp4"
    if typ == "float" and bits == 8:
        return "fp8_block" if strategy == "block" else ("fp8_channel" if strategy == "channel" else "fp8")
    if typ == "int" and bits == 4:
        return "int4"
    if typ == "int" and bits == 8:
        return "int8"
    return "unknown"


def _ct_component_formats(groups: list[dict[str, Any]], fmt_name: str) -> tuple[dict[str, str], int]:
    """compressed-tensors config groups of more than one format: component -> format (bf16 where no group targets
    it, as compressed-tensors leaves unmatched modules unquantized), and the index of the group whose format is the
    checkpoint's main one (the routed experts', else the dense MLP's, else the first group's). Empty when the groups
    share one format or a target is not recognized (then every quantized GEMM keeps the first group's format)."""
    fmts = [_ct_weights_format(g.get("weights") or {}, fmt_name) for g in groups]
    if len(set(fmts)) < 2:
        return {}, 0
    out: dict[str, str] = {}
    for g, fmt in zip(groups, fmts):
        targets = g.get("targets")
        if not isinstance(targets, list) or not targets:
            return {}, 0
        for t in targets:
            comps = target_components(t)
            if comps is None:
                return {}, 0
            for c in comps:
                out.setdefault(c, fmt)  # compressed-tensors: the first group that matches a module quantizes it
    main = next((i for c in ("routed_experts", "mlp") for i, f in enumerate(fmts) if out.get(c) == f), 0)
    return {c: out.get(c, "bf16") for c in QUANT_COMPONENTS}, main


def _compressed_tensors(qc: dict[str, Any], excluded: list[str]) -> QuantSpec:
    groups = qc.get("config_groups") or {}
    listed = [g for g in groups.values() if isinstance(g, dict)] if isinstance(groups, dict) else []
    fmt_name = str(qc.get("format") or "")
    comp_formats, main = _ct_component_formats(listed, fmt_name)
    first = listed[main] if listed else {}
    w = first.get("weights") or {}
    a = first.get("input_activations")
    bits = w.get("num_bits")
    gs = w.get("group_size")
    fmt = _ct_weights_format(w, fmt_name)
    block = w.get("block_structure") if isinstance(w.get("block_structure"), list) else None
    act = None
    if isinstance(a, dict) and a.get("num_bits"):
        act = f"{a.get('type', 'int')}{a.get('num_bits')}-{'dynamic' if a.get('dynamic') else 'static'}"
    return QuantSpec(method="compressed-tensors", format=fmt, weight_bits=bits if isinstance(bits, int) else None,
                     group_size=gs if isinstance(gs, int) else None, block=block, activations=act, excluded=excluded,
                     kv_cache_dtype=None, component_formats=comp_formats,
                     zero_points=not w["symmetric"] if isinstance(w.get("symmetric"), bool) else None)


def _modelopt_mixed(q: dict[str, Any], source: str) -> QuantSpec:
    """ModelOpt ``MIXED_PRECISION``: ``quantized_layers`` maps each module name to its own
    ``quant_algo`` (FP8, NVFP4, NVFP4_AWQ, W4A16_AWQ, ...). The spec takes the most common algorithm
    as its format (ties broken by name) and records the count of layers per algorithm.

    Raises:
        ConfigError: ``quantized_layers`` is not an object of objects with a string ``quant_algo``.
    """
    layers = q.get("quantized_layers")
    if not isinstance(layers, dict) or not layers:
        raise ConfigError("quantization_config: MIXED_PRECISION needs a non-empty quantized_layers object")
    counts: dict[str, int] = {}
    for name, entry in layers.items():
        algo = entry.get("quant_algo") if isinstance(entry, dict) else None
        if not isinstance(algo, str) or not algo:
            raise ConfigError(f"quantization_config: quantized_layers[{str(name)[:60]!r}] has no quant_algo")
        counts[algo.upper()] = counts.get(algo.upper(), 0) + 1
    main = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
    first = next(e for e in layers.values() if str(e.get("quant_algo")).upper() == main)
    base = _modelopt({**q, "quant_algo": main, "group_size": first.get("group_size", q.get("group_size")),
                      "weight_block_size": first.get("weight_block_size")}, source)
    # per component, the algorithm most of its listed modules use; a component no module of is listed stays
    # unquantized (ModelOpt quantizes the modules quantized_layers names); a name not recognized: no breakdown
    per: dict[str, dict[str, int]] = {}
    comp_formats: dict[str, str] = {}
    for name, entry in layers.items():
        comps = target_components(name)
        if comps is None:
            per = {}
            break
        for c in comps[:1] if len(comps) > 1 else comps:  # a module name is one module: its first component
            per.setdefault(c, {})
            per[c][entry["quant_algo"].upper()] = per[c].get(entry["quant_algo"].upper(), 0) + 1
    if per and len(counts) > 1:
        for c in QUANT_COMPONENTS:
            if c in per:
                algo = sorted(per[c].items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
                fmt = _modelopt({**q, "quant_algo": algo, "weight_block_size": None}, source).format
                comp_formats[c] = fmt
            else:
                comp_formats[c] = "bf16"
    return base.model_copy(update={"mixed": dict(sorted(counts.items())), "component_formats": comp_formats})
