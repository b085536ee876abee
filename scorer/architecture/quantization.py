"""``quantization_config`` (config.json) and ``hf_quant_config.json`` (ModelOpt) normalized to a QuantSpec."""

from __future__ import annotations

import re
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


def _defers_to_sidecar(qc: dict[str, Any]) -> bool:
    """config.json's quantization_config names ModelOpt but leaves its details to hf_quant_config.json: no
    ``quant_algo``, or MIXED_PRECISION without ``quantized_layers``."""
    method = str(qc.get("quant_method") or "").strip().lower()
    if method not in ("modelopt", "modelopt_fp4", "modelopt_mixed", ""):
        return False
    algo = str(qc.get("quant_algo") or "").upper()
    return not algo or (algo == "MIXED_PRECISION" and "quantized_layers" not in qc)


def _block(val: Any, key: str = "weight_block_size") -> list[int] | None:
    """An FP8 ``weight_block_size``: None when absent, else [block_n, block_k] (vLLM 0.33.0 / SGLang 0.5.23
    Fp8Config raise "The quantization block size of weight must have 2 dimensions" otherwise).

    Raises:
        ConfigError: not a list of two positive integers."""
    if val is None:
        return None
    if not isinstance(val, list) or len(val) != 2:
        raise ConfigError(f"quantization_config.{key} must be a list of two integers (block_n, block_k), got "
                          f"{str(val)[:40]}")
    return [check_int(b, f"{key} entry", "quantization_config", limit=1 << 20) for b in val]


def _group(q: dict[str, Any], default: int) -> int:
    """A ModelOpt export's ``group_size`` (``default`` when absent or null), validated, not truncated.

    Raises:
        ConfigError: not a positive integer."""
    gs = q.get("group_size")
    return default if gs is None else check_int(gs, "quantization group_size", "quantization_config", limit=1 << 20)


def _str_list(val: Any, name: str) -> list[str]:
    if val is None:
        return []
    if not isinstance(val, list):
        raise ConfigError(f"quantization_config: {name} must be a list of module patterns")
    return [str(x) for x in val if isinstance(x, (str, int))]


def _parse_quantization(qc: dict[str, Any] | None, sidecar: dict[str, Any] | None) -> QuantSpec | None:
    # vLLM 0.33.0 model_loader/weight_utils.py get_quant_config: config.json's quantization_config wins; the
    # hf_quant_config.json sidecar is read where config.json has none, or names ModelOpt without the algorithm
    # (or, for MIXED_PRECISION, without quantized_layers)
    side = sidecar.get("quantization") if isinstance(sidecar, dict) else None
    if isinstance(side, dict) and (not isinstance(qc, dict) or _defers_to_sidecar(qc)):
        return _modelopt(side, "hf_quant_config.json")
    if not isinstance(qc, dict):
        return None
    inner = qc.get("quantization")
    producer = qc.get("producer")
    if isinstance(inner, dict) and not str(qc.get("quant_method") or "").strip() and (
            (isinstance(producer, dict) and producer.get("name") == "modelopt") or "modelopt_quant_config" in inner):
        # ModelOpt's own layout embedded in config.json: vLLM 0.33.0 transformers_utils/model_arch_config_convertor.py
        # _normalize_quantization_config sets quant_method from quantization.quant_algo (SGLang 0.5.23
        # model_loader/weight_utils.py reads the producer likewise)
        return _modelopt(inner, "config.json")
    if qc and not any(str(qc.get(k) or "").strip() for k in ("quant_method", "quant_algo")):
        # vLLM 0.33.0 config/model.py _verify_quantization reads quant_cfg["quant_method"]: without it no engine
        # loads the checkpoint (a typo such as quant_methd would otherwise size an "unknown" format)
        held = ", ".join(sorted(str(k) for k in qc)[:6])
        raise ConfigError(f"quantization_config names no quant_method (it holds: {held[:120]}): engines read the "
                          "method from it")
    method = str(qc.get("quant_method") or qc.get("quant_algo") or "unknown").strip().lower() or "unknown"
    # the first key that lists modules: an empty modules_to_not_convert (transformers writes []) beside vLLM's
    # ignored_layers does not hide them; an empty list stays the answer when no key lists any
    keys = [k for k in ("modules_to_not_convert", "ignore", "ignored_layers", "exclude_modules",
                        "llm_int8_skip_modules") if qc.get(k) is not None]  # the last: bitsandbytes' own
    excl_key = next((k for k in keys if qc.get(k)), keys[0] if keys else None)
    excluded = _str_list(qc.get(excl_key), excl_key) if excl_key else []
    if method in ("fp8", "fbgemm_fp8"):
        block = _block(qc.get("weight_block_size"))
        kv = _kv_scheme(qc.get("kv_cache_quant_algo"))  # SGLang's Fp8Config reads it (layers/quantization/fp8.py)
        if block is not None:
            return QuantSpec(method=method, format="fp8_block", weight_bits=8, block=block,
                             activations=f"fp8-{qc.get('activation_scheme', 'dynamic')}", excluded=excluded,
                             kv_cache_dtype=kv)
        fmt = "fp8_channel" if method == "fbgemm_fp8" else "fp8"
        return QuantSpec(method=method, format=fmt, weight_bits=8,
                         activations=f"fp8-{qc.get('activation_scheme', 'dynamic')}", excluded=excluded,
                         kv_cache_dtype=kv)
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
        excluded = excluded + _gptq_exclusions(qc)
        # weight-only: 8-bit is W8A16 (vLLM 0.33.0 Marlin uint8b128), not the W8A8 int8 kernels
        fmt = {4: "int4", 8: "w8a16"}.get(bits, f"int{bits}")
        sym = qc.get("sym") if method == "gptq" and isinstance(qc.get("sym"), bool) else None
        return QuantSpec(method=method, format=fmt, weight_bits=bits, symmetric=sym,
                         group_size=gs if gs and gs > 0 else None, excluded=excluded, zero_points=zeros,
                         component_unread=_gptq_overrides(qc, bits, gs))
    if method == "bitsandbytes":
        if qc.get("load_in_4bit"):
            fmt = "nf4" if qc.get("bnb_4bit_quant_type", "fp4") == "nf4" else "fp4_bnb"
            return QuantSpec(method=method, format=fmt, weight_bits=4, group_size=64, excluded=excluded)
        return QuantSpec(method=method, format="int8", weight_bits=8, excluded=excluded)
    if method == "compressed-tensors":
        return _compressed_tensors(qc, excluded)
    return QuantSpec(method=method, format="unknown", excluded=excluded)


def _gptq_exclusions(qc: dict[str, Any]) -> list[str]:
    """Modules a GPTQ config leaves unquantized besides its exclusion list (as regex patterns): ``dynamic`` rules
    "-:<regex>" skip the modules they match (GPTQModel's dynamic override; vLLM 0.33.0
    quantization/utils/gptq_utils.py get_dynamic_override); ``modules_in_block_to_quantize``
    (quantization/auto_gptq.py) lists the block's quantized modules, so attention or the MLP absent from it stays
    16-bit."""
    out = []
    dynamic = qc.get("dynamic")
    if isinstance(dynamic, dict):
        out += [f"re:{k[2:]}" for k in dynamic if isinstance(k, str) and k.startswith("-:")]
    blocks = qc.get("modules_in_block_to_quantize")
    if isinstance(blocks, list) and blocks:
        names = [str(n).lower() for b in blocks for n in (b if isinstance(b, list) else [b])]
        if not any("attn" in n or "attention" in n for n in names):
            out.append("re:.*self_attn.*")
        if not any("mlp" in n or "expert" in n or "ffn" in n for n in names):
            out.append("re:.*mlp.*")
    return out


def _gptq_overrides(qc: dict[str, Any], bits: int, group: Any) -> str | None:
    """What GPTQModel's ``dynamic`` positive rules (a regex, "+:" prefixed or bare) change of the bits or group
    size per module (vLLM 0.33.0 quantization/utils/gptq_utils.py get_dynamic_override), which deploysheet does
    not size per module; None when no rule changes them."""
    dynamic = qc.get("dynamic")
    if not isinstance(dynamic, dict):
        return None
    changed = []
    for key, val in dynamic.items():
        if not isinstance(key, str) or key.startswith("-:") or not isinstance(val, dict):
            continue
        diff = [f"{k} {val[k]!r}"[:20] for k, base in (("bits", bits), ("group_size", group))
                if k in val and val[k] != base]
        if diff:
            changed.append(f"{key.removeprefix('+:')[:40]}: {', '.join(diff)}")
    if not changed:
        return None
    more = f" and {len(changed) - 2} more" if len(changed) > 2 else ""
    return f"GPTQ dynamic overrides per module ({'; '.join(changed[:2])}{more})"


def _kv_scheme(kv: Any) -> str | None:
    """The KV-cache dtype a quantization config names: a ``kv_cache_quant_algo`` string (``FP8`` -> ``fp8``) or a
    ``kv_cache_scheme`` object (8-bit float -> ``fp8``, 4-bit float -> ``nvfp4``, as vLLM 0.33.0
    utils/torch_utils.py get_kv_cache_quant_algo_string reads them); None when it names none or another form."""
    if isinstance(kv, str) and kv.strip():
        return kv.strip().lower()
    if isinstance(kv, dict) and kv.get("type") == "float":
        return {8: "fp8", 4: "nvfp4"}.get(kv.get("num_bits"))
    return None


def _modelopt(q: dict[str, Any], source: str) -> QuantSpec:
    algo = str(q.get("quant_algo") or "").upper()
    if algo == "MIXED_PRECISION":
        return _modelopt_mixed(q, source)
    excluded = _str_list(q.get("exclude_modules") if q.get("exclude_modules") is not None else q.get("ignore"),
                         "exclude_modules")
    kv = _kv_scheme(q.get("kv_cache_scheme")) or _kv_scheme(q.get("kv_cache_quant_algo"))
    if "NVFP4" in algo or algo == "FP4":
        return QuantSpec(method="modelopt", format="nvfp4", weight_bits=4, group_size=_group(q, 16),
                         activations="nvfp4" if "AWQ" not in algo else None, excluded=excluded,
                         kv_cache_dtype=kv, source=source)
    if algo.startswith("FP8"):
        block = _block(q.get("weight_block_size") or None)
        return QuantSpec(method="modelopt", format="fp8_block" if block else "fp8", weight_bits=8, block=block,
                         activations="fp8", excluded=excluded, kv_cache_dtype=kv,
                         source=source)
    if "W4A16" in algo or "AWQ" in algo or "INT4" in algo:
        # ModelOpt's INT4 AWQ export is symmetric: packed int4 weights, a weight_scale per group (and the AWQ
        # pre_quant_scale per input channel), no zero points (TensorRT-LLM W4A16_AWQ has_zero_point False)
        return QuantSpec(method="modelopt", format="int4", weight_bits=4, group_size=_group(q, 128),
                         excluded=excluded, kv_cache_dtype=kv, source=source, zero_points=False)
    if "INT8" in algo or "W8A8" in algo:
        return QuantSpec(method="modelopt", format="int8", weight_bits=8, activations="int8", excluded=excluded,
                         source=source)
    return QuantSpec(method="modelopt", format="unknown", excluded=excluded, source=source)


#: the GEMM components a quantization recipe can target (routers, lm_head and embeddings are conventionally left
#: in 16 bits: rule Q7)
QUANT_COMPONENTS = ("attention", "mlp", "routed_experts", "shared_experts", "recurrent")
def _ct_weights_format(w: dict[str, Any], fmt_name: str) -> str:
    bits, typ, strategy, gs = w.get("num_bits"), w.get("type", "int"), w.get("strategy"), w.get("group_size")
    if typ == "float" and bits == 4:
        return "mxfp4" if gs == 32 and "nvfp4" not in fmt_name else "nvfp4"
    if typ == "float" and bits == 8:
        return "fp8_block" if strategy == "block" else ("fp8_channel" if strategy == "channel" else "fp8")
    if typ == "float" and bits == 16:
        return "bf16"
    if typ == "int" and bits == 4:
        return "int4"
    if typ == "int" and bits == 8:
        return "int8"
    return "unknown"


#: representative module names (transformers naming, with and without a VLM's language_model prefix) of each
#: component, and of the parts recipes leave in 16 bits, that compressed-tensors targets are matched against
_NAMES = {
    "attention": ("self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj", "self_attn.o_proj",
                  "self_attn.q_a_proj", "self_attn.q_b_proj", "self_attn.kv_a_proj_with_mqa", "self_attn.kv_b_proj"),
    "mlp": ("mlp.gate_proj", "mlp.up_proj", "mlp.down_proj", "feed_forward.gate_proj", "feed_forward.up_proj",
            "feed_forward.down_proj"),
    "routed_experts": ("mlp.experts.0.gate_proj", "mlp.experts.0.up_proj", "mlp.experts.0.down_proj",
                       "block_sparse_moe.experts.0.w1", "block_sparse_moe.experts.0.w2", "block_sparse_moe.experts.0.w3",
                       "feed_forward.experts.0.gate_proj", "feed_forward.experts.0.down_proj"),
    "shared_experts": ("mlp.shared_expert.gate_proj", "mlp.shared_expert.up_proj", "mlp.shared_expert.down_proj",
                       "mlp.shared_experts.gate_proj", "mlp.shared_experts.up_proj", "mlp.shared_experts.down_proj",
                       "feed_forward.shared_expert.gate_proj", "feed_forward.shared_expert.down_proj"),
    "recurrent": ("linear_attn.in_proj_qkvz", "linear_attn.in_proj_ba", "linear_attn.out_proj", "mixer.in_proj",
                  "mixer.out_proj", "mamba.in_proj", "mamba.out_proj"),
    "": ("mlp.gate", "mlp.router", "block_sparse_moe.gate", "feed_forward.router", "mlp.shared_expert_gate"),
}
_PREFIXES = ("model.layers.0.", "model.language_model.layers.0.", "backbone.layers.0.")
_TOP = ("lm_head", "model.embed_tokens", "model.visual.blocks.0.attn.qkv", "model.vision_tower.blocks.0.attn.qkv")


def _ct_scheme_of(name: str, targets: dict[str, int]) -> int | None:
    """The config group that quantizes module ``name`` (a Linear) under compressed-tensors 0.20.1's rules
    (compressed_tensors/utils/match.py match_targets and quantization/lifecycle/apply.py _scheme_from_targets): the
    matching targets ordered exact names, then ``re:`` patterns (re.match on the name), each alphabetically, then the
    class name ``Linear``; the first one's group (a target listed by two groups: the later group). None: unmatched."""
    hits = [t for t in sorted(targets, key=lambda x: ("re:" in x, x))
            if (t.startswith("re:") and _re_match(t[3:], name)) or t == name]
    hits += [t for t in targets if t == "Linear" and t not in hits]
    return targets[hits[0]] if hits else None


def _re_match(pattern: str, name: str) -> bool:
    import re
    try:
        return re.match(pattern, name) is not None
    except (re.error, RecursionError, OverflowError):
        return False


def _ct_component_formats(groups: list[dict[str, Any]], fmt_name: str, ignore: list[str]
                          ) -> tuple[dict[str, str], int, str | None]:
    """compressed-tensors config groups of more than one format: component -> format, the index of the group whose
    format is the checkpoint's main one, and why the breakdown was not made (None when it was).

    Each component takes the group that quantizes its first representative module (:data:`_NAMES`) under
    compressed-tensors' precedence (:func:`_ct_scheme_of`); bf16 where no group's targets match it or ``ignore``
    does (compressed-tensors leaves those modules unquantized). The main format is the routed experts', else the
    dense MLP's, else the first group's. No breakdown (empty; every quantized GEMM at the first group's format) when
    the groups share one format, when a target is neither ``Linear``, nor a pattern or name that matches one of the
    representative modules, nor a module name, or a group's format is not one deploysheet sizes."""
    fmts = [_ct_weights_format(g.get("weights") or {}, fmt_name) for g in groups]
    if len(set(fmts)) < 2:
        return {}, 0, None
    if "unknown" in fmts:
        return {}, 0, "a config group's weight format is not one deploysheet sizes"
    targets: dict[str, int] = {}
    for i, g in enumerate(groups):
        ts = g.get("targets")
        if not isinstance(ts, list) or not ts or not all(isinstance(t, str) for t in ts):
            return {}, 0, f"config group {i + 1}'s targets are not a list of names"
        for t in ts:
            targets[t] = i
    names = {c: [p + n for p in _PREFIXES for n in ns] for c, ns in _NAMES.items()}
    every = [n for ns in names.values() for n in ns] + list(_TOP)
    # not broken down: the main format is still the group's that quantizes the experts (else the MLP), if one does
    fallback = next((g for c in ("routed_experts", "mlp") for n in names[c]
                     if (g := _ct_scheme_of(n, targets)) is not None), 0)
    for t in targets:
        if t == "Linear" or (t.startswith("re:") and any(_ct_scheme_of(n, {t: 0}) is not None for n in every)):
            continue
        if t.startswith("re:") or "." not in t:
            return {}, fallback, f"target {t[:60]!r} matches none of the modules deploysheet maps to components"
        return {}, fallback, f"target {t[:60]!r} names one module: its component is only partly in that format"
    out: dict[str, str] = {}
    for comp in QUANT_COMPONENTS:
        hit = next((g for n in names[comp] if not any(_ct_scheme_of(n, {x: 0}) is not None for x in ignore)
                    and (g := _ct_scheme_of(n, targets)) is not None), None)
        out[comp] = fmts[hit] if hit is not None else "bf16"
    main = next((i for c in ("routed_experts", "mlp") for i, f in enumerate(fmts) if out.get(c) == f), 0)
    return out, main, None


#: module names compressed-tensors targets are matched against (Llama / Qwen-MoE layouts): an attention projection,
#: and the dense MLP's and an expert's
_CT_ATTENTION = "model.layers.0.self_attn.q_proj"
_CT_FFN = ("model.layers.0.mlp.down_proj", "model.layers.0.mlp.experts.0.down_proj")


def _ct_untargeted(groups: list[dict[str, Any]]) -> list[str]:
    """Exclusion patterns for what no config group targets, when every target names modules (``re:`` regexes,
    matched from the start as compressed-tensors does, or dotted module names): an MLP-only recipe
    (``targets: ["re:.*mlp.*"]``) leaves attention 16-bit. A class target ("Linear") covers every linear: none."""
    targets = [t for g in groups for t in (g.get("targets") or []) if isinstance(t, str)]
    if not targets or not all(t.startswith("re:") or "." in t for t in targets):
        return []

    def hit(module: str) -> bool:
        for t in targets:
            try:
                if t.startswith("re:") and re.match(t[3:], module):
                    return True
            except re.error:
                return True  # an unreadable target: assume it covers the module
            if not t.startswith("re:") and (module == t or module.endswith("." + t)):
                return True
        return False
    return ["re:.*self_attn.*"] if any(map(hit, _CT_FFN)) and not hit(_CT_ATTENTION) else []


def _compressed_tensors(qc: dict[str, Any], excluded: list[str]) -> QuantSpec:
    groups = qc.get("config_groups") or {}
    listed = [g for g in groups.values() if isinstance(g, dict)] if isinstance(groups, dict) else []
    for name, g in (groups.items() if isinstance(groups, dict) else []):
        for key in ("weights", "input_activations"):
            if isinstance(g, dict) and g.get(key) is not None and not isinstance(g[key], dict):
                raise ConfigError(f"quantization_config.config_groups.{str(name)[:40]}.{key} is "
                                  f"{type(g[key]).__name__}, not an object of quantization arguments")
    fmt_name = str(qc.get("format") or "")
    excluded = excluded + _ct_untargeted(listed)
    comp_formats, main, unread = _ct_component_formats(listed, fmt_name, excluded)
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
    if fmt == "int8" and act is None and not comp_formats:
        fmt = "w8a16"  # int8 weights, 16-bit activations: the WNA16 (Marlin) kernels, not W8A8 scaled_mm
    return QuantSpec(method="compressed-tensors", format=fmt, weight_bits=bits if isinstance(bits, int) else None,
                     group_size=gs if isinstance(gs, int) else None, block=block, activations=act, excluded=excluded,
                     kv_cache_dtype=_kv_scheme(qc.get("kv_cache_scheme")), component_formats=comp_formats,
                     component_unread=unread,
                     zero_points=not w["symmetric"] if isinstance(w.get("symmetric"), bool) else None,
                     weight_strategy=_strategy(w), input_strategy=_strategy(a))


def _strategy(args: Any) -> str | None:
    """A compressed-tensors quantization arguments object's ``strategy``, lower-cased (None when not a string)."""
    st = args.get("strategy") if isinstance(args, dict) else None
    return st.strip().lower()[:20] if isinstance(st, str) and st.strip() else None


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
    # per component, the algorithm most of its listed modules use; a component no module of is listed stays
    # unquantized (ModelOpt quantizes the modules quantized_layers names); a name not recognized: no breakdown
    per: dict[str, dict[str, int]] = {}
    unread = None
    for name, entry in layers.items():
        comp = module_component(str(name))
        if comp is None:
            unread = f"quantized_layers names a module deploysheet does not map to a component: {str(name)[:60]!r}"
            per = {}
            break
        if comp:
            algo = entry["quant_algo"].upper()
            per.setdefault(comp, {})[algo] = per.get(comp, {}).get(algo, 0) + 1

    def top(c: dict[str, int]) -> str:
        return sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
    # the main format: the routed experts', else the dense MLP's (as for compressed-tensors), else the most common
    main = next((top(per[c]) for c in ("routed_experts", "mlp") if c in per), None) or top(counts)
    first = next(e for e in layers.values() if str(e.get("quant_algo")).upper() == main)
    base = _modelopt({**q, "quant_algo": main, "group_size": first.get("group_size", q.get("group_size")),
                      "weight_block_size": first.get("weight_block_size")}, source)
    comp_formats: dict[str, str] = {}
    if per and len(counts) > 1:
        for c in QUANT_COMPONENTS:
            comp_formats[c] = _modelopt({**q, "quant_algo": top(per[c]), "weight_block_size": None}, source).format \
                if c in per else "bf16"
    if len(counts) > 1 and not comp_formats and unread is None:
        unread = "no listed module maps to a component"
    return base.model_copy(update={"mixed": dict(sorted(counts.items())), "component_formats": comp_formats,
                                   "component_unread": unread if len(counts) > 1 else None})


def module_component(name: str) -> str | None:
    """The component of one module name (``model.layers.3.mlp.experts.7.up_proj`` -> routed_experts): its part
    after the layer index, expert indices as 0, looked up in :data:`_NAMES`; "" for the parts recipes leave in
    16 bits (routers, lm_head, embeddings, vision); None when not recognized."""
    import re
    if name in _TOP or name.endswith(("lm_head", "embed_tokens")) or "visual" in name or "vision" in name:
        return ""
    m = re.search(r"layers\.\d+\.(.+)$", name)
    if not m:
        return None
    tail = re.sub(r"experts\.\d+\.", "experts.0.", m.group(1))
    return next((c for c, ns in _NAMES.items() if tail in ns), None)
