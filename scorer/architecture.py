"""Normalize a raw ``config.json`` into a :class:`ModelArch`: a list of per-layer specs.

Known ``model_type`` values are read through transformers' own config classes (their defaults,
attribute aliases and derived fields such as ``layer_types``), instantiated from the JSON as
data — never ``trust_remote_code``. Unknown types fall back to the raw keys read through the
alias table in :mod:`scorer.families`; the family is then guessed from ``architectures`` and
every guess is recorded in ``ModelArch.guesses`` for the sheet to show.

Units: every size is a count of elements (features, heads, tokens), never bytes.

Raises :class:`~scorer.errors.ConfigError` (exit code 2) for missing, non-integer, zero,
negative, absurd or inconsistent dimensions, naming the key.
"""

from __future__ import annotations

import logging
import math
import sys
import threading
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, Field

from .errors import ConfigError
from .families import ALIASES, ARCHITECTURE_HINTS, family_flags

# Upper bounds beyond which a dimension is treated as absurd (a typo or a hostile file).
LIMITS = {
    "hidden_size": 1 << 18, "num_layers": 4096, "num_heads": 1 << 14, "num_kv_heads": 1 << 14,
    "head_dim": 1 << 14, "intermediate_size": 1 << 22, "vocab_size": 1 << 24, "num_experts": 1 << 16,
    "top_k": 1 << 10, "expert_intermediate": 1 << 22, "max_positions": 1 << 34, "sliding_window": 1 << 34,
    "chunk_size": 1 << 34, "num_decoder_layers": 4096, "depth": 1024, "mtp_layers": 64,
}
#: cap for any other dimension (widths, ranks, state sizes, kernel sizes)
DEFAULT_LIMIT = 1 << 22


# --------------------------------------------------------------------------- specs

class AttentionSpec(BaseModel):
    """Softmax attention (MHA, GQA or MQA). Widths: q = num_heads*head_dim, k = num_kv_heads*head_dim,
    v = num_kv_heads*v_head_dim, o input = num_heads*v_head_dim."""

    kind: Literal["attention"] = "attention"
    span: Literal["full", "sliding", "chunked"] = "full"
    window: int | None = Field(None, description="sliding window or chunk size, tokens")
    num_heads: int
    num_kv_heads: int
    head_dim: int
    v_head_dim: int
    qkv_bias: bool = False
    o_bias: bool = False
    qk_norm: Literal["none", "head", "full"] = "none"
    qk_norm_bias: bool = False
    output_gate: bool = False
    sinks: bool = False
    relative_bias_buckets: int = Field(0, description="T5 relative-position bias table rows (first layer only)")


class MLASpec(BaseModel):
    """DeepSeek multi-head latent attention. The KV cache holds kv_lora_rank + qk_rope_head_dim values."""

    kind: Literal["mla"] = "mla"
    span: Literal["full", "sliding", "chunked"] = "full"
    window: int | None = None
    num_heads: int
    q_lora_rank: int | None
    kv_lora_rank: int
    qk_nope_head_dim: int
    qk_rope_head_dim: int
    v_head_dim: int
    qkv_bias: bool = False
    o_bias: bool = False

    @property
    def head_dim(self) -> int:
        return self.qk_nope_head_dim + self.qk_rope_head_dim

    @property
    def num_kv_heads(self) -> int:  # the latent is one shared "head"
        return 1


class Mamba2Spec(BaseModel):
    """Mamba2 mixer: fixed per-sequence state of n_heads*head_dim*d_state (SSM) plus the conv window."""

    kind: Literal["mamba2"] = "mamba2"
    d_inner: int
    n_heads: int
    head_dim: int
    n_groups: int
    d_state: int
    conv_kernel: int
    conv_bias: bool = True
    proj_bias: bool = False

    @property
    def conv_dim(self) -> int:
        return self.d_inner + 2 * self.n_groups * self.d_state

    @property
    def in_proj_width(self) -> int:
        return 2 * self.d_inner + 2 * self.n_groups * self.d_state + self.n_heads


class GatedDeltaNetSpec(BaseModel):
    """Gated delta-net linear attention (Qwen3-Next): state num_v_heads*head_k_dim*head_v_dim per sequence."""

    kind: Literal["gated_deltanet"] = "gated_deltanet"
    num_k_heads: int
    num_v_heads: int
    head_k_dim: int
    head_v_dim: int
    conv_kernel: int

    @property
    def key_dim(self) -> int:
        return self.num_k_heads * self.head_k_dim

    @property
    def value_dim(self) -> int:
        return self.num_v_heads * self.head_v_dim

    @property
    def conv_dim(self) -> int:
        return 2 * self.key_dim + self.value_dim


class LinearMixerSpec(BaseModel):
    """A NAS block whose attention was replaced by one hidden x hidden linear layer."""

    kind: Literal["linear"] = "linear"


Mixer = Annotated[Union[AttentionSpec, MLASpec, Mamba2Spec, GatedDeltaNetSpec, LinearMixerSpec],
                  Field(discriminator="kind")]


class DenseMLP(BaseModel):
    kind: Literal["dense"] = "dense"
    intermediate: int = Field(description="width of the hidden layer (per gate/up branch)")
    gated: bool = True
    bias: bool = False
    activation: str = "silu"
    replace_with_linear: bool = Field(False, description="NAS: one hidden x hidden linear instead of an MLP")


class MoEMLP(BaseModel):
    kind: Literal["moe"] = "moe"
    num_experts: int
    top_k: int
    expert_intermediate: int
    gated: bool = True
    expert_bias: bool = False
    router_bias: bool = False
    shared: DenseMLP | None = Field(None, description="always-active shared expert(s), as one MLP")
    shared_gate: bool = False
    activation: str = "silu"


FFN = Annotated[Union[DenseMLP, MoEMLP], Field(discriminator="kind")]


class LayerSpec(BaseModel):
    index: int
    mixer: Mixer | None = None
    cross_attention: AttentionSpec | None = None
    ffn: FFN | None = None
    num_norms: int = Field(2, description="hidden-size norms in the block (pre-attention, pre-MLP, ...)")

    @property
    def kind_label(self) -> str:
        """Short label: full, sliding, chunked, mla, mamba2, gated_deltanet, linear, mlp."""
        if self.mixer is None:
            return "mlp" if self.ffn is not None else "noop"
        if isinstance(self.mixer, AttentionSpec):
            return self.mixer.span
        return self.mixer.kind


class VisionTower(BaseModel):
    """A vision encoder reported apart from the language model."""

    family: str
    hidden_size: int
    num_layers: int
    layers: list[LayerSpec]
    norm: Literal["rms", "layernorm"]
    extra_params: dict[str, int] = Field(default_factory=dict, description="patch embedding, merger/projector, ...")


class MTPSpec(BaseModel):
    """Multi-token-prediction (next-n) layers, reported apart from the main model."""

    num_layers: int
    layer: LayerSpec
    extra_params_per_layer: dict[str, int] = Field(default_factory=dict)
    shares_embedding: bool = True


class QuantSpec(BaseModel):
    """The checkpoint's quantization as declared by its config."""

    method: str = Field(description="quant_method as written (fp8, mxfp4, modelopt, compressed-tensors, awq, ...)")
    format: str = Field(description="normalized: fp8, fp8_block, fp8_channel, nvfp4, mxfp4, int4, int8, nf4, fp4_bnb, "
                                    "unknown")
    weight_bits: int | None = None
    group_size: int | None = None
    block: list[int] | None = None
    activations: str | None = Field(None, description="activation quantization, e.g. fp8-dynamic; None = weight-only")
    excluded: list[str] = Field(default_factory=list, description="module patterns left unquantized")
    kv_cache_dtype: str | None = None
    source: str = "config.json quantization_config"


class TaskHead(BaseModel):
    pooler: bool = False
    num_labels: int = 0
    mlm_head: bool = False


class ModelArch(BaseModel):
    """Normalized architecture every analysis reads (sizes in elements)."""

    model_type: str
    family: str
    architectures: list[str] = Field(default_factory=list)
    config_class: str | None = Field(None, description="transformers config class used, None for raw keys")
    guesses: list[str] = Field(default_factory=list, description="what was inferred rather than read")
    kind: Literal["decoder", "encoder", "encoder-decoder"] = "decoder"
    hidden_size: int
    vocab_size: int
    max_positions: int | None = None
    tie_word_embeddings: bool = False
    norm: Literal["rms", "layernorm"] = "rms"
    final_norm: bool = True
    embedding_norm: bool = False
    learned_positions: int = 0
    token_types: int = 0
    lm_head_bias: bool = False
    layers: list[LayerSpec]
    encoder_layers: list[LayerSpec] = Field(default_factory=list)
    task_head: TaskHead | None = None
    mtp: MTPSpec | None = None
    vision: VisionTower | None = None
    vision_note: str | None = None
    quantization: QuantSpec | None = None
    custom_code: bool = False
    auto_map: dict[str, Any] = Field(default_factory=dict)
    dtype: str | None = None
    ssm_state_fp32: bool = Field(False, description="the config keeps the recurrent state in float32 "
                                                    "(mamba_ssm_cache_dtype)")
    rope: str | None = Field(None, description="rope scaling type, if any")

    @property
    def num_layers(self) -> int:
        return len(self.layers)

    def attention_layers(self) -> list[LayerSpec]:
        return [lay for lay in self.layers if isinstance(lay.mixer, (AttentionSpec, MLASpec))]

    @property
    def is_moe(self) -> bool:
        return any(isinstance(lay.ffn, MoEMLP) for lay in self.layers)

    def first_attention(self) -> AttentionSpec | MLASpec | None:
        att = self.attention_layers()
        return att[0].mixer if att else None  # type: ignore[return-value]


# --------------------------------------------------------------------------- reading keys

class _Reader:
    """Looks a canonical key up in the transformers config object, then in the raw dict."""

    def __init__(self, raw: dict[str, Any], cfg: Any | None, where: str):
        self.raw = raw
        self.cfg = cfg
        self.where = where

    def has(self, key: str) -> bool:
        return self.get(key) is not None

    def get(self, key: str, default: Any = None) -> Any:
        names = ALIASES.get(key, [key])
        if self.cfg is not None:
            for name in names:
                try:
                    val = getattr(self.cfg, name)
                except (AttributeError, KeyError, TypeError, RuntimeError):  # Runtime: a per-layer attribute (Gemma 4)
                    continue
                if val is not None:
                    return val
        for name in names:
            if name in self.raw and self.raw[name] is not None:
                return self.raw[name]
        return default

    def key_name(self, key: str) -> str:
        for name in ALIASES.get(key, [key]):
            if name in self.raw:
                return name
        return ALIASES.get(key, [key])[0]

    def int(self, key: str, default: int | None = None, required: bool = True, minimum: int = 1) -> int | None:
        val = self.get(key)
        if val is None:
            if default is not None or not required:
                return default
            raise ConfigError(f"{self.where}: missing {self.key_name(key)} (needed for the {key.replace('_', ' ')})")
        return check_int(val, self.key_name(key), self.where, minimum=minimum, limit=LIMITS.get(key, DEFAULT_LIMIT))

    def flag(self, spec: Any, default: bool = False) -> bool:
        """Resolve a family flag: a bool constant, or a config key whose value is read."""
        if isinstance(spec, bool):
            return spec
        if isinstance(spec, str):
            val = self.get(spec)
            return bool(val) if val is not None else default
        return default


def _short(val: Any) -> str:
    text = repr(val)
    return text if len(text) <= 40 else text[:37] + "..."


def check_int(val: Any, name: str, where: str, minimum: int = 1, limit: int | None = DEFAULT_LIMIT) -> int:
    """Validate one dimension: an integer (integral floats such as 4096.0 accepted) within bounds."""
    if isinstance(val, bool) or not isinstance(val, (int, float)):
        raise ConfigError(f"{where}: {name} must be an integer, got {_short(val)}")
    if isinstance(val, float):
        if not math.isfinite(val) or val != int(val):
            raise ConfigError(f"{where}: {name} must be an integer, got {_short(val)}")
        val = int(val)
    if val < minimum:
        raise ConfigError(f"{where}: {name} must be at least {minimum}, got {_short(val)}")
    if limit is not None and val > limit:
        raise ConfigError(f"{where}: {name} = {_short(val)} is absurdly large (limit {limit:,})")
    return val


# --------------------------------------------------------------------------- transformers

_TRANSFORMERS_LOCK = threading.RLock()
_STUBBED = ("transformers", "transformers.models")


def _quiet_transformers() -> None:
    """Before transformers is first imported: no advisories (e.g. "PyTorch was not found") on stderr."""
    logging.getLogger("transformers").setLevel(logging.ERROR)
    import os
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    os.environ.setdefault("TRANSFORMERS_NO_ADVISORY_WARNINGS", "1")


def _stub_packages() -> list[Any]:
    """Register ``transformers`` and ``transformers.models`` in ``sys.modules`` without running them.

    Both package ``__init__`` files scan the source of every model folder (about 450) to build
    transformers' lazy import table: 0.7-0.8 s of a 2-core machine's cold start, when deploysheet
    needs one config class. With each package's own spec registered but not executed, ``import
    transformers.models.llama.configuration_llama`` loads the same files through the ordinary import
    system, and only those it names. Packages already imported are left alone; returns the stubs
    put in place (removed again by :func:`_drop_stubs`).
    """
    import importlib.metadata
    import importlib.util

    stubs: list[Any] = []
    try:
        for name in _STUBBED:
            if name in sys.modules:
                continue
            spec = importlib.util.find_spec(name)
            if spec is None or spec.submodule_search_locations is None:  # pragma: no cover - packaging drift
                break
            module = importlib.util.module_from_spec(spec)
            if name == "transformers":
                module.__version__ = importlib.metadata.version("transformers")  # read by configuration_utils
            sys.modules[name] = module
            stubs.append(module)
    except Exception:  # pragma: no cover - any surprise: fall back to the ordinary import
        _drop_stubs(stubs)
        return []
    return stubs


def _drop_stubs(stubs: list[Any]) -> None:
    """Take the stubs out again: a later ``import transformers`` runs the real packages, which find
    the config modules loaded meanwhile in ``sys.modules`` and reuse them."""
    for module in stubs:
        if sys.modules.get(module.__name__) is module:
            del sys.modules[module.__name__]
    top = sys.modules.get("transformers")
    if top is not None and any(top.__dict__.get("models") is m for m in stubs):
        delattr(top, "models")


def _config_mapping():
    """transformers' ``CONFIG_MAPPING`` (call after :func:`_quiet_transformers`, as ``_with_transformers`` does)."""
    from transformers.models.auto.configuration_auto import CONFIG_MAPPING
    try:
        from transformers.utils import logging as tlog
        tlog.set_verbosity_error()
    except Exception:  # pragma: no cover - logging API drift only
        pass
    return CONFIG_MAPPING


def _instantiate(mapping: Any, model_type: str, raw: dict[str, Any]) -> Any:
    """Instantiate transformers' config class for model_type from the JSON dict (data only).

    Raises:
        ConfigError: the class rejects the values.
        ImportError: the class could not be imported (the caller retries with a plain import).
    """
    cls = mapping[model_type]
    kwargs = {k: v for k, v in raw.items() if k not in ("auto_map", "model_type", "transformers_version")}
    try:
        return cls(**kwargs)
    except ImportError:
        raise
    except Exception as exc:  # transformers' strict dataclass validators and __post_init__ checks
        cause = exc.__cause__ or exc
        msg = str(cause).strip().splitlines()
        text = msg[-1] if msg else type(cause).__name__
        raise ConfigError(f"config rejected by transformers {cls.__name__}: {text}") from None


def _with_transformers(model_type: str | None, raw: dict[str, Any], before: Any) -> tuple[Any, Any] | None:
    """transformers' config object for ``model_type`` built from ``raw`` and its decoder text config,
    or None when transformers has no class for it. ``before()`` runs first for a known type.

    Tries the light import of :func:`_stub_packages` first and, should that fail to import anything,
    the plain ``import transformers`` (same classes, same result). The light import swaps
    ``sys.modules`` entries, so it runs only while the process has a single thread (the one-shot CLI):
    another thread's ``import transformers`` during the swap would bind the stub. Multi-threaded
    callers (the crawl's pool, the bot server) pay the plain import once. Serialized by a lock; set
    ``DEPLOYSHEET_PLAIN_TRANSFORMERS=1`` to skip the light import.

    Raises:
        ConfigError: the config class rejects the values (or ``before()`` does).
    """
    import os

    if not model_type:
        return None
    with _TRANSFORMERS_LOCK:
        _quiet_transformers()
        light_ok = os.environ.get("DEPLOYSHEET_PLAIN_TRANSFORMERS") != "1" and threading.active_count() == 1
        for light in (light_ok, False):
            stubs = _stub_packages() if light else []
            try:
                mapping = _config_mapping()
                if model_type not in mapping:
                    return None
                before()
                top = _instantiate(mapping, model_type, raw)
                cfg = top.get_text_config(decoder=True) if hasattr(top, "get_text_config") else top
                return top, cfg
            except (ImportError, AttributeError):
                if not stubs:
                    raise
            finally:
                _drop_stubs(stubs)
    return None  # pragma: no cover - the plain pass returns or raises


# --------------------------------------------------------------------------- quantization

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
    method = str(qc.get("quant_method") or qc.get("quant_algo") or "unknown").lower()
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
        bits = int(qc.get("bits") or qc.get("w_bit") or 4)
        gs = qc.get("group_size", qc.get("q_group_size"))
        return QuantSpec(method=method, format="int4" if bits == 4 else f"int{bits}", weight_bits=bits,
                         group_size=int(gs) if isinstance(gs, int) and gs > 0 else None, excluded=excluded)
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


def _compressed_tensors(qc: dict[str, Any], excluded: list[str]) -> QuantSpec:
    groups = qc.get("config_groups") or {}
    first = next((g for g in groups.values() if isinstance(g, dict)), {}) if isinstance(groups, dict) else {}
    w = first.get("weights") or {}
    a = first.get("input_activations")
    bits = w.get("num_bits")
    typ = w.get("type", "int")
    strategy = w.get("strategy")
    gs = w.get("group_size")
    fmt_name = str(qc.get("format") or "")
    if typ == "float" and bits == 4:
        fmt = "mxfp4" if gs == 32 and "nvfp4" not in fmt_name else "nvfp4"
    elif typ == "float" and bits == 8:
        fmt = "fp8_block" if strategy == "block" else ("fp8_channel" if strategy == "channel" else "fp8")
    elif typ == "int" and bits == 4:
        fmt = "int4"
    elif typ == "int" and bits == 8:
        fmt = "int8"
    else:
        fmt = "unknown"
    block = w.get("block_structure") if isinstance(w.get("block_structure"), list) else None
    act = None
    if isinstance(a, dict) and a.get("num_bits"):
        act = f"{a.get('type', 'int')}{a.get('num_bits')}-{'dynamic' if a.get('dynamic') else 'static'}"
    return QuantSpec(method="compressed-tensors", format=fmt, weight_bits=bits if isinstance(bits, int) else None,
                     group_size=gs if isinstance(gs, int) else None, block=block, activations=act, excluded=excluded,
                     kv_cache_dtype=None)


# --------------------------------------------------------------------------- builders

def _layer_kind_names(r: _Reader, n: int, flags: dict[str, Any], sliding: int | None, chunk: int | None) -> list[str]:
    """Per-layer kind strings following transformers' ``layer_types`` vocabulary."""
    types = r.get("layer_types")
    if types is None and r.cfg is not None:
        types = getattr(r.cfg, "layers_block_type", None)
    if types is not None:
        if not isinstance(types, (list, tuple)) or len(types) != n or not all(isinstance(t, str) for t in types):
            raise ConfigError(f"{r.where}: layer_types must be a list of {n} strings (one per layer)")
        return list(types)
    pattern = r.get("hybrid_override_pattern")
    if pattern is not None and (not isinstance(pattern, str) or len(pattern) != n):
        raise ConfigError(f"{r.where}: hybrid_override_pattern must be a string of {n} characters (one per layer)")
    if isinstance(pattern, str):
        table = {"M": "linear_attention", "*": "full_attention", "-": "mlp", "E": "moe"}
        return [table.get(ch, "full_attention") for ch in pattern[:n]]
    every = r.get("sliding_window_pattern")
    if sliding and isinstance(every, int) and not isinstance(every, bool) and every > 1:
        # Gemma-3 style alternation: every Nth layer is global, the others slide
        return ["full_attention" if (i + 1) % every == 0 else "sliding_attention" for i in range(n)]
    if chunk:
        return ["chunked_attention"] * n
    if sliding and flags["all_sliding_if_window"] and r.get("use_sliding_window") is not False:
        return ["sliding_attention"] * n
    return ["full_attention"] * n


def _moe_layers(r: _Reader, n: int, num_experts: int | None, kinds: list[str]) -> set[int]:
    if not num_experts:
        return set()
    if "moe" in kinds or "mlp" in kinds:  # block-per-layer hybrids say it per layer
        return {i for i, k in enumerate(kinds) if k == "moe"}
    listed = r.get("moe_layers")
    if isinstance(listed, (list, tuple)):
        return {int(i) for i in listed if isinstance(i, int) and 0 <= i < n}
    first_dense = r.get("first_k_dense_replace")
    if first_dense is not None:
        freq = r.get("moe_layer_freq") or 1
        return {i for i in range(n) if i >= int(first_dense) and i % int(freq) == 0}
    step = r.get("decoder_sparse_step")
    mlp_only = set(r.get("mlp_only_layers") or [])
    if step:
        return {i for i in range(n) if i not in mlp_only and (i + 1) % int(step) == 0}
    step = r.get("interleave_moe_layer_step")
    if step:
        return {i for i in range(n) if (i + 1) % int(step) == 0}
    return {i for i in range(n) if i not in mlp_only}


def _activation(r: _Reader) -> str:
    for key in ("hidden_act", "activation_function", "hidden_activation", "mlp_hidden_act", "activation",
                "dense_act_fn"):
        val = r.get(key)
        if isinstance(val, str):
            return val
    return "silu"


def _attention(r: _Reader, flags: dict[str, Any], hidden: int, heads: int, kv: int, head_dim: int, span: str,
               window: int | None) -> AttentionSpec | MLASpec:
    if r.get("kv_lora_rank"):
        q_lora = r.get("q_lora_rank")
        return MLASpec(
            span=span, window=window, num_heads=heads,
            q_lora_rank=check_int(q_lora, "q_lora_rank", r.where) if q_lora else None,
            kv_lora_rank=r.int("kv_lora_rank"), qk_nope_head_dim=r.int("qk_nope_head_dim"),
            qk_rope_head_dim=r.int("qk_rope_head_dim"), v_head_dim=r.int("v_head_dim"),
            qkv_bias=r.flag(flags["qkv_bias"]), o_bias=r.flag(flags["o_bias"]))
    qk_norm = flags["qk_norm"]
    qk_norm_bias = False
    if qk_norm == "qk_layernorm":  # phi: optional LayerNorm(head_dim) on q and k
        qk_norm, qk_norm_bias = ("head", True) if r.get("qk_layernorm") else ("none", False)
    return AttentionSpec(
        span=span, window=window, num_heads=heads, num_kv_heads=kv, head_dim=head_dim, v_head_dim=head_dim,
        qkv_bias=r.flag(flags["qkv_bias"]), o_bias=r.flag(flags["o_bias"]), qk_norm=qk_norm,
        qk_norm_bias=qk_norm_bias, output_gate=bool(flags["attn_output_gate"]), sinks=bool(flags["sinks"]))


def _mamba2(r: _Reader, hidden: int) -> Mamba2Spec:
    n_heads = r.int("mamba_num_heads", required=False)
    head_dim = r.int("mamba_head_dim", required=False)
    if n_heads and head_dim:
        d_inner = n_heads * head_dim
    else:
        expand = r.int("mamba_expand", default=2)
        d_inner = expand * hidden
        head_dim = head_dim or 64
        n_heads = d_inner // head_dim
    return Mamba2Spec(
        d_inner=d_inner, n_heads=n_heads, head_dim=head_dim, n_groups=r.int("mamba_n_groups", default=1),
        d_state=r.int("mamba_d_state", default=128), conv_kernel=r.int("mamba_conv_kernel", default=4),
        conv_bias=bool(r.get("use_conv_bias", True)),
        proj_bias=bool(r.get("mamba_proj_bias", r.get("use_bias", False))))


def _gdn(r: _Reader) -> GatedDeltaNetSpec:
    return GatedDeltaNetSpec(num_k_heads=r.int("gdn_num_k_heads"), num_v_heads=r.int("gdn_num_v_heads"),
                             head_k_dim=r.int("gdn_head_k_dim"), head_v_dim=r.int("gdn_head_v_dim"),
                             conv_kernel=r.int("gdn_conv_kernel", default=4))


def _dense_mlp(r: _Reader, flags: dict[str, Any], intermediate: int) -> DenseMLP:
    gated = flags["mlp_gated"]
    if gated == "t5":
        proj = str(r.get("feed_forward_proj") or "relu")
        gated = proj.startswith("gated")
    return DenseMLP(intermediate=intermediate, gated=bool(gated), bias=r.flag(flags["mlp_bias"]),
                    activation=_activation(r))


def _moe_mlp(r: _Reader, flags: dict[str, Any], hidden: int, num_experts: int, dense_intermediate: int) -> MoEMLP:
    top_k = r.int("top_k", default=1)
    if top_k > num_experts:
        raise ConfigError(f"{r.where}: {r.key_name('top_k')} = {top_k} exceeds the {num_experts} experts")
    expert_i = r.int("expert_intermediate", required=False) or r.int("intermediate_size")
    shared = None
    shared_i = r.int("shared_intermediate", required=False, minimum=0)
    n_shared = r.int("num_shared_experts", required=False, minimum=0)
    gated = flags["mlp_gated"] is True
    if shared_i:
        shared = DenseMLP(intermediate=shared_i, gated=gated, activation=_activation(r))
    elif n_shared:
        shared = DenseMLP(intermediate=n_shared * expert_i, gated=gated, activation=_activation(r))
    elif flags.get("shared_experts_as_intermediate"):
        shared = DenseMLP(intermediate=r.int("intermediate_size"), gated=gated, activation=_activation(r))
    return MoEMLP(num_experts=num_experts, top_k=top_k, expert_intermediate=expert_i, gated=gated,
                  expert_bias=bool(flags["expert_bias"]), router_bias=bool(flags["router_bias"]), shared=shared,
                  shared_gate=bool(flags["shared_expert_gate"]) and shared is not None, activation=_activation(r))


def _norms_per_layer(r: _Reader, flags: dict[str, Any]) -> int:
    spec = flags["norms_per_layer"]
    if spec == "falcon":  # transformers FalconDecoderLayer
        if r.get("new_decoder_architecture"):
            return 2 if r.get("num_ln_in_parallel_attn") in (None, 2) else 1
        return 1 if r.get("parallel_attn", True) else 2
    return int(spec)


def _falcon_kv(r: _Reader, heads: int) -> int:
    if r.get("new_decoder_architecture"):
        return r.int("num_kv_heads", default=heads)
    return 1 if r.get("multi_query", True) else heads


def _nas_layers(r: _Reader, flags: dict[str, Any], hidden: int, heads: int, head_dim: int) -> list[LayerSpec]:
    """Heterogeneous NAS blocks (DeciLM / Llama-Nemotron): per-block attention and FFN widths."""
    layers = []
    blocks = r.raw["block_configs"]
    if not blocks or len(blocks) > LIMITS["num_layers"]:
        raise ConfigError(f"{r.where}: block_configs must hold 1 to {LIMITS['num_layers']} blocks, has {len(blocks)}")
    for i, block in enumerate(blocks):
        if not isinstance(block, dict):
            raise ConfigError(f"{r.where}: block_configs[{i}] must be an object")
        att = block.get("attention") or {}
        ffn = block.get("ffn") or {}
        if not isinstance(att, dict) or not isinstance(ffn, dict):
            raise ConfigError(f"{r.where}: block_configs[{i}].attention and .ffn must be objects")
        norms = 0
        mixer: Any = None
        if not att.get("no_op"):
            norms += 1
            if att.get("replace_with_linear"):
                mixer = LinearMixerSpec()
            else:
                group = check_int(att.get("n_heads_in_group"), f"block_configs[{i}].attention.n_heads_in_group",
                                  r.where)
                if heads % group:
                    raise ConfigError(f"{r.where}: block_configs[{i}]: {heads} heads not divisible by group {group}")
                mixer = AttentionSpec(num_heads=heads, num_kv_heads=heads // group, head_dim=head_dim,
                                      v_head_dim=head_dim, qkv_bias=r.flag(flags["qkv_bias"]),
                                      o_bias=r.flag(flags["o_bias"]))
        mlp = None
        if not ffn.get("no_op"):
            norms += 1
            if ffn.get("replace_with_linear"):
                mlp = DenseMLP(intermediate=hidden, gated=False, replace_with_linear=True)
            else:
                mult = ffn.get("ffn_mult")
                if not isinstance(mult, (int, float)) or isinstance(mult, bool) or not 0 < mult <= 1000:
                    raise ConfigError(f"{r.where}: block_configs[{i}].ffn.ffn_mult must be a number in (0, 1000]")
                # DeciLM's _ffn_mult_to_intermediate_size: int(2*mult*hidden/3) rounded up to a multiple of 256
                width = int(2 * mult * hidden / 3)
                width = check_int(-(-width // 256) * 256, f"block_configs[{i}] FFN width", r.where,
                                  limit=LIMITS["intermediate_size"])
                mlp = DenseMLP(intermediate=width, gated=True, bias=r.flag(flags["mlp_bias"]),
                               activation=_activation(r))
        layers.append(LayerSpec(index=i, mixer=mixer, ffn=mlp, num_norms=norms))
    if all(lay.mixer is None and lay.ffn is None for lay in layers):
        raise ConfigError(f"{r.where}: every block in block_configs is a no-op")
    return layers


def _qwen_vl_vision(vc: dict[str, Any], text_hidden: int, where: str) -> VisionTower:
    """Qwen2-VL / Qwen2.5-VL vision tower (parameter layout of transformers' Qwen2_5_VisionTransformer)."""
    vr = _Reader(vc, None, f"{where}.vision_config")
    h = vr.int("hidden_size")
    depth = vr.int("depth")
    heads = vr.int("num_heads")
    inter = vr.int("intermediate_size")
    patch = vr.int("patch_size", default=14)
    tps = vr.int("temporal_patch_size", default=2)
    in_ch = vr.int("in_chans", default=vr.get("in_channels", 3))
    merge = vr.int("spatial_merge_size", default=2)
    out_h = vr.int("out_hidden_size", default=text_hidden)
    if h % heads:
        raise ConfigError(f"{where}.vision_config: hidden_size {h} is not divisible by num_heads {heads}")
    att = AttentionSpec(num_heads=heads, num_kv_heads=heads, head_dim=h // heads, v_head_dim=h // heads,
                        qkv_bias=True, o_bias=True)
    layers = [LayerSpec(index=i, mixer=att, ffn=DenseMLP(intermediate=inter, gated=True, bias=True), num_norms=2)
              for i in range(depth)]
    merged = h * merge * merge
    extra = {
        "patch_embed": h * in_ch * tps * patch * patch,
        "merger": h + (merged * merged + merged) + (merged * out_h + out_h),
    }
    return VisionTower(family="qwen2_5_vl_vision", hidden_size=h, num_layers=depth, layers=layers, norm="rms",
                       extra_params=extra)


def _task_head(r: _Reader) -> TaskHead:
    arch = (r.raw.get("architectures") or [""])[0] or ""
    if arch.endswith("ForSequenceClassification") or arch.endswith("ForTokenClassification"):
        labels = r.raw.get("id2label")
        n = len(labels) if isinstance(labels, dict) and labels else int(r.raw.get("num_labels") or 2)
        return TaskHead(pooler=arch.endswith("ForSequenceClassification"), num_labels=n)
    if arch.endswith("ForMaskedLM") or arch.endswith("ForPreTraining"):
        return TaskHead(mlm_head=True)
    return TaskHead(pooler=True)


def normalize(raw: dict[str, Any], quant_sidecar: dict[str, Any] | None = None) -> ModelArch:
    """Build the :class:`ModelArch` of a parsed ``config.json``.

    Raises:
        ConfigError: missing, non-integer, non-positive, absurd, inconsistent or malformed values.
    """
    from . import cache
    key = None
    try:
        key = cache.arch_key(raw, quant_sidecar)
    except (TypeError, ValueError, RecursionError):
        key = None
    if key is not None:
        hit = cache.load_arch(key)
        if hit is not None:
            try:
                return ModelArch.model_validate_json(hit)
            except ValueError:
                pass  # a corrupt entry: recompute
    try:
        arch = _normalize(raw, quant_sidecar)
        if key is not None:
            cache.store_arch(key, arch.model_dump_json())
        return arch
    except ConfigError:
        raise
    except (TypeError, ValueError, AttributeError, KeyError, IndexError, OverflowError, RecursionError) as exc:
        # a value of the wrong shape somewhere in the config: the config is bad input, not a bug of ours
        detail = " ".join(str(exc).split())[:120]
        raise ConfigError(f"config has a malformed value ({type(exc).__name__}: {detail})") from None


def _normalize(raw: dict[str, Any], quant_sidecar: dict[str, Any] | None) -> ModelArch:
    where = "config"
    model_type = raw.get("model_type")
    if model_type is not None and not isinstance(model_type, str):
        raise ConfigError(f"{where}: model_type must be a string, got {model_type!r}"[:200])
    archs = [a for a in (raw.get("architectures") or []) if isinstance(a, str)]
    guesses: list[str] = []
    custom = isinstance(raw.get("auto_map"), dict)

    # Multimodal wrappers: score the language model found in text_config (or top-level keys).
    text_raw = raw
    vision_cfg = raw.get("vision_config") if isinstance(raw.get("vision_config"), dict) else None
    if isinstance(raw.get("text_config"), dict):
        text_raw = dict(raw["text_config"])
        for key in ("tie_word_embeddings", "torch_dtype", "quantization_config"):
            if key in raw and key not in text_raw:
                text_raw[key] = raw[key]
        where = "config.text_config"

    cfg = None
    config_class = None
    loaded = _with_transformers(model_type, raw, lambda: _prevalidate(raw, text_raw, where))
    if loaded is not None:
        top, cfg = loaded
        config_class = type(top).__name__
        family = getattr(cfg, "model_type", model_type) or model_type
        if cfg is not top and text_raw is raw:
            where = "config"
    else:
        family = (text_raw.get("model_type") if isinstance(text_raw.get("model_type"), str) else None) or model_type
        hinted = next((ARCHITECTURE_HINTS[a] for a in archs if a in ARCHITECTURE_HINTS), None)
        from .families import FAMILIES
        if family not in FAMILIES:
            if hinted:
                guesses.append(f"model_type {model_type!r} is unknown to transformers; read as the {hinted} family "
                               f"because architectures names {archs[0]}")
                family = hinted
            else:
                guesses.append(f"model_type {model_type!r} is unknown to transformers and to deploysheet; read the raw "
                               "keys as a llama-like decoder (pre-norm RMSNorm, SwiGLU MLP, no biases)")
                family = family or "unknown"
        else:
            guesses.append(f"model_type {model_type!r} is unknown to this transformers version; read the raw keys "
                           f"with deploysheet's {family} layout")
    r = _Reader(text_raw, cfg, where)
    flags = family_flags(family)

    hidden = r.int("hidden_size")
    vocab = r.int("vocab_size")
    kind = flags["kind"]
    if kind == "encoder-decoder" or raw.get("is_encoder_decoder") is True and kind == "decoder":
        kind = "encoder-decoder"
    n_layers = r.int("num_layers") if not isinstance(text_raw.get("block_configs"), list) else len(
        text_raw["block_configs"])
    heads = r.int("num_heads")
    head_dim_raw = r.get("head_dim") if not r.get("kv_lora_rank") else None
    if head_dim_raw is not None:
        head_dim = check_int(head_dim_raw, r.key_name("head_dim"), where, limit=LIMITS["head_dim"])
    else:
        if hidden % heads:
            raise ConfigError(f"{where}: hidden size {hidden} is not divisible by {heads} attention heads and "
                              "no head_dim is given")
        head_dim = hidden // heads
    if family == "falcon":
        kv = _falcon_kv(r, heads)
    else:
        kv = r.int("num_kv_heads", default=heads, minimum=1)
    if kv > heads or heads % kv:
        raise ConfigError(f"{where}: {heads} attention heads are not a multiple of {kv} key/value heads")
    if r.get("head_dim") is None and r.get("kv_lora_rank") is None and cfg is None:
        guesses.append(f"head_dim not given: hidden/heads = {hidden}/{heads} = {head_dim}")

    sliding = r.get("sliding_window")
    if sliding == 0 and r.get("use_sliding_window") is False:
        sliding = None  # transformers' Qwen2MoeConfig serializes a disabled window as 0
    sliding = None if sliding is None or sliding is False else check_int(
        sliding, r.key_name("sliding_window"), where, limit=LIMITS["sliding_window"])
    chunk = r.get("chunk_size")
    chunk = None if chunk is None else check_int(chunk, "attention_chunk_size", where, limit=LIMITS["chunk_size"])

    num_experts = r.int("num_experts", required=False)
    if family == "nemotron_h" and "moe" not in [str(t) for t in (getattr(cfg, "layers_block_type", None) or [])]:
        num_experts = None  # NemotronHConfig carries MoE defaults even for dense hybrids
    dense_key = flags["dense_intermediate_key"]
    dense_i = (r.int(dense_key, required=False) if dense_key else None) or r.int("intermediate_size",
                                                                               required=False)
    raw_r = _Reader(text_raw, None, where)
    if family not in ("gpt2", "falcon") and not isinstance(text_raw.get("block_configs"), list) \
            and raw_r.get("intermediate_size") is None and raw_r.get("expert_intermediate") is None \
            and (dense_key is None or text_raw.get(dense_key) is None) and kind != "encoder-decoder" \
            and not any(t in ("linear_attention",) for t in (text_raw.get("layer_types") or [])):
        raise ConfigError(f"{where}: missing intermediate_size (the MLP width); transformers' library default "
                          "would be a guess")
    if dense_i is None and family in ("gpt2", "falcon"):
        dense_i = 4 * hidden  # GPT2MLP (n_inner=None) and FalconMLP (ffn_hidden_size=None) use 4*hidden

    norms = _norms_per_layer(r, flags)
    layers: list[LayerSpec] = []
    encoder_layers: list[LayerSpec] = []
    if isinstance(text_raw.get("block_configs"), list):
        layers = _nas_layers(r, flags, hidden, heads, head_dim)
    elif kind == "encoder-decoder":
        n_dec = r.int("num_decoder_layers", default=n_layers)
        buckets = r.int("relative_attention_num_buckets", default=32)
        mlp = _dense_mlp(r, flags, dense_i or 4 * hidden)
        for i in range(n_layers):
            att = AttentionSpec(num_heads=heads, num_kv_heads=heads, head_dim=head_dim, v_head_dim=head_dim,
                                relative_bias_buckets=buckets if i == 0 else 0)
            encoder_layers.append(LayerSpec(index=i, mixer=att, ffn=mlp, num_norms=2))
        for i in range(n_dec):
            att = AttentionSpec(num_heads=heads, num_kv_heads=heads, head_dim=head_dim, v_head_dim=head_dim,
                                relative_bias_buckets=buckets if i == 0 else 0)
            cross = AttentionSpec(num_heads=heads, num_kv_heads=heads, head_dim=head_dim, v_head_dim=head_dim)
            layers.append(LayerSpec(index=i, mixer=att, cross_attention=cross, ffn=mlp, num_norms=3))
    else:
        kinds = _layer_kind_names(r, n_layers, flags, sliding, chunk)
        moe_set = _moe_layers(r, n_layers, num_experts, kinds)
        block_per_layer = "mlp" in kinds or "moe" in kinds
        for i, t in enumerate(kinds):
            mixer: Any = None
            if t in ("full_attention", "attention", "global_attention", "sliding_attention", "chunked_attention",
                     "local_attention"):
                span = {"sliding_attention": "sliding", "local_attention": "sliding",
                        "chunked_attention": "chunked"}.get(t, "full")
                window = sliding if span == "sliding" else (chunk if span == "chunked" else None)
                if span != "full" and window is None:
                    span = "full"
                mixer = _attention(r, flags, hidden, heads, kv, head_dim, span, window)
            elif t in ("linear_attention", "mamba", "mamba2", "hybrid"):
                which = flags["linear_attention"] or ("mamba2" if r.has("mamba_d_state") else "gated_deltanet")
                mixer = _mamba2(r, hidden) if which == "mamba2" else _gdn(r)
            elif t not in ("mlp", "moe"):
                raise ConfigError(f"{where}: unsupported layer type {t!r} at layer {i}")
            ffn: Any = None
            if not block_per_layer or t in ("mlp", "moe"):
                if i in moe_set and num_experts:
                    ffn = _moe_mlp(r, flags, hidden, num_experts, dense_i or 0)
                else:
                    if dense_i is None:
                        raise ConfigError(f"{where}: missing intermediate_size (dense MLP width)")
                    ffn = _dense_mlp(r, flags, dense_i)
            layers.append(LayerSpec(index=i, mixer=mixer, ffn=ffn, num_norms=norms))

    tie = r.get("tie_word_embeddings")
    if cfg is not None and isinstance(raw.get("tie_word_embeddings"), bool):
        tie = raw["tie_word_embeddings"]
    if tie is None:
        tie = bool(flags["tied_default"])
        guesses.append(f"tie_word_embeddings absent: assumed {tie}")

    mtp = None
    n_mtp = r.get("mtp_layers")
    if isinstance(n_mtp, int) and not isinstance(n_mtp, bool) and n_mtp > 0 and layers:
        last = layers[-1].model_copy(update={"index": len(layers)})
        mtp = MTPSpec(num_layers=n_mtp, layer=last, extra_params_per_layer={
            "eh_proj": 2 * hidden * hidden, "enorm": hidden, "hnorm": hidden, "shared_head_norm": hidden})

    vision = None
    vision_note = None
    if family in ("qwen2_5_vl_text", "qwen2_vl_text", "qwen2_5_vl", "qwen2_vl") and vision_cfg:
        vision = _qwen_vl_vision(vision_cfg, hidden, where)
    elif vision_cfg:
        vision_note = "vision_config present; its parameter count is not derived for this family"
    elif any("ConditionalGeneration" in a or "VL" in a for a in archs) and isinstance(raw.get("text_config"), dict):
        vision_note = "multimodal model whose vision_config is absent from config.json: tower not counted"

    learned_pos = 0
    if flags["learned_positions"]:
        learned_pos = r.int("max_positions")
    token_types = r.int("type_vocab_size", default=2) if flags["token_types"] else 0

    dtype = r.get("dtype")
    rope = r.get("rope_scaling") or r.get("rope_parameters")
    rope_type = None
    if isinstance(rope, dict):
        rope_type = rope.get("rope_type") or rope.get("type")

    return ModelArch(
        model_type=model_type or "unknown", family=family, architectures=archs, config_class=config_class,
        guesses=guesses, kind=kind, hidden_size=hidden, vocab_size=vocab,
        max_positions=r.int("max_positions", required=False) if kind != "encoder-decoder" else None,
        tie_word_embeddings=bool(tie), norm=flags["norm"], final_norm=bool(flags["final_norm"]),
        embedding_norm=bool(flags["embedding_norm"]), learned_positions=learned_pos, token_types=token_types,
        lm_head_bias=bool(flags["lm_head_bias"]), layers=layers, encoder_layers=encoder_layers,
        task_head=_task_head(r) if kind == "encoder" else None, mtp=mtp, vision=vision, vision_note=vision_note,
        quantization=parse_quantization(raw.get("quantization_config"), quant_sidecar), custom_code=custom,
        auto_map=raw.get("auto_map") if custom else {}, dtype=str(dtype).replace("torch.", "") if dtype else None,
        ssm_state_fp32=text_raw.get("mamba_ssm_cache_dtype") in ("float32", "fp32")
        or raw.get("mamba_ssm_cache_dtype") in ("float32", "fp32"), rope=rope_type)


def _prevalidate(raw: dict[str, Any], text_raw: dict[str, Any], where: str) -> None:
    """Check the obvious dimensions on the raw keys first, so errors name the file's own key."""
    r = _Reader(text_raw, None, where)
    for key in ("hidden_size", "num_layers", "num_heads", "vocab_size"):
        # transformers would silently fill library defaults (e.g. hidden_size 4096): a config without
        # its core dimensions is broken, not a default model
        if r.get(key) is None and not (key == "num_layers" and isinstance(text_raw.get("block_configs"), list)):
            raise ConfigError(f"{where}: missing {ALIASES[key][0]} (the {key.replace('_', ' ')}; also read as "
                              f"{', '.join(ALIASES[key][1:4])})")
    for key in ("hidden_size", "num_layers", "num_heads", "vocab_size", "num_kv_heads", "head_dim",
                "intermediate_size", "num_experts", "top_k", "expert_intermediate"):
        for name in ALIASES.get(key, [key]):
            if name in text_raw and text_raw[name] is not None:
                check_int(text_raw[name], name, where, limit=LIMITS.get(key))
                break
    hidden, heads = r.get("hidden_size"), r.get("num_heads")
    if isinstance(hidden, int) and isinstance(heads, int) and r.get("head_dim") is None and heads and hidden % heads \
            and not r.get("kv_lora_rank"):
        raise ConfigError(f"{where}: hidden size {hidden} is not divisible by {heads} attention heads and no head_dim "
                          "is given")
