"""Reading config keys: aliases, bounds and the record of which keys were consumed."""

from __future__ import annotations

import functools
import inspect
import math
import re
from typing import Any

from ..errors import ConfigError
from .families import ALIASES

# Upper bounds beyond which a dimension is treated as absurd (a typo or a hostile file).
LIMITS = {
    "hidden_size": 1 << 18, "num_layers": 4096, "num_heads": 1 << 14, "num_kv_heads": 1 << 14,
    "head_dim": 1 << 14, "intermediate_size": 1 << 22, "vocab_size": 1 << 24, "num_experts": 1 << 16,
    "top_k": 1 << 10, "expert_intermediate": 1 << 22, "max_positions": 1 << 34, "sliding_window": 1 << 34,
    "chunk_size": 1 << 34, "num_decoder_layers": 4096, "encoder_layers": 4096, "num_encoder_layers": 4096,
    "decoder_layers": 4096, "depth": 1024, "mtp_layers": 64,
}
#: cap for any other dimension (widths, ranks, state sizes, kernel sizes)
DEFAULT_LIMIT = 1 << 22


class Reader:
    """Looks a canonical key up in the transformers config object, then in the raw dict.

    Every key whose value a lookup returns is added to ``consumed`` (the raw key name, and for a
    value read from the config object also the raw key its ``attribute_map`` aliases), so that
    :mod:`scorer.architecture.keys` can list the keys of ``raw`` that no reader looked at.
    """

    def __init__(self, raw: dict[str, Any], cfg: Any | None, where: str, consumed: set[str] | None = None):
        self.raw = raw
        self.cfg = cfg
        self.where = where
        self.consumed: set[str] = consumed if consumed is not None else set()
        #: sub-config keys searched after the top level (family flag ``nested_configs``, DBRX's attn_config /
        #: ffn_config); a key found there is recorded as ``"<sub>.<name>"``
        self.nested: tuple[str, ...] = ()
        #: canonical name -> this family's own keys, searched instead of ALIASES (family flag ``key_aliases``: a
        #: seq2seq decoder's decoder_layers / decoder_attention_heads / decoder_ffn_dim; an empty list: the family's
        #: classes read no key for it)
        self.key_aliases: dict[str, list[str]] = {}
        #: ``raw`` is a composite config's sub-config (``text_config``) that transformers built into ``cfg``: its
        #: file omits every value equal to the sub-config class's default (``PreTrainedConfig.to_diff_dict``
        #: serializes sub-configs through ``recursive_diff_dict``), so an absent key is that default, not a gap
        self.sub_config_defaults = False
        #: read only the keys the family's transformers class declares or its modeling files read
        #: (:func:`family_reads`): set on the language model's reader; a tower's sub-config may be read by its
        #: parent's modeling code (NemotronH Omni reads audio_config.projection_hidden_size), so tower readers
        #: keep every alias
        self.family_keys_only = False
        amap = getattr(type(cfg), "attribute_map", None) if cfg is not None else None
        amap = amap if isinstance(amap, dict) else {}
        # attribute_map maps a key name to the attribute holding it; either name may be the raw key
        self._same: dict[str, set[str]] = {}
        for alias, attr in amap.items():
            if isinstance(alias, str) and isinstance(attr, str):
                self._same.setdefault(alias, set()).add(attr)
                self._same.setdefault(attr, set()).add(alias)

    def mark(self, *names: str) -> None:
        """Record keys as consumed by a reader that looked at ``raw`` directly."""
        self.consumed.update(names)

    def raw_get(self, name: str, default: Any = None) -> Any:
        """``raw[name]`` (no aliases, no config object), recorded as consumed when present."""
        if name in self.raw:
            self.consumed.add(name)
            val = self.raw[name]
            return default if val is None else val
        return default

    def has(self, key: str) -> bool:
        return self.get(key) is not None

    def _names(self, key: str) -> list[str]:
        """The raw keys ``key`` is read from: the family's own (an empty list: the family reads none), else ALIASES."""
        return list(self.key_aliases[key]) if key in self.key_aliases else ALIASES.get(key, [key])

    def get_any(self, key: str, default: Any = None) -> Any:
        """:meth:`get` without the test that the family reads the key: for keys a family flag names deliberately
        (an off switch such as Hunyuan's use_cla, which transformers ignores and the remote code reads)."""
        return self.get(key, default, any_family=True)

    def get(self, key: str, default: Any = None, any_family: bool = False) -> Any:
        names = self._names(key)
        if self.family_keys_only and self.cfg is not None and key not in self.key_aliases and not any_family:
            # an alias the family's transformers class neither declares nor reads is not this family's key (a
            # Megatron kv_channels on Qwen2, first_k_dense_replace on Mixtral): left unread, so the key filter lists
            # it as unmodelled instead of the generic alias table applying it
            names = [n for n in names if family_reads(type(self.cfg), n)]
        per_layer_global = None  # a per-layer attribute's global value, which the file leaves to the class default
        if self.cfg is not None:
            for name in names:
                try:
                    val = getattr(self.cfg, name)
                except RuntimeError:  # a per-layer attribute (Gemma 4, dots3): the file's own value comes first
                    if per_layer_global is None and self.sub_config_defaults:
                        per_layer_global = vars(self.cfg).get(name)
                    continue
                except (AttributeError, KeyError, TypeError):
                    continue
                if val is not None:
                    self.consumed.add(name)
                    self.consumed.update(self._same.get(name, ()))
                    # a config class may store a raw key under another alias (NemotronH: attention_head_dim
                    # -> head_dim): a raw alias holding the same value is the same key
                    self.consumed.update(n for n in names if n in self.raw and self.raw[n] == val)
                    return val
        for name in names:
            if name in self.raw and self.raw[name] is not None:
                self.consumed.add(name)
                return self.raw[name]
        if per_layer_global is not None:
            return per_layer_global
        for sub in self.nested:
            obj = getattr(self.cfg, sub, None) if self.cfg is not None else None
            raw_sub = self.raw.get(sub) if isinstance(self.raw.get(sub), dict) else {}
            for name in names:
                val = getattr(obj, name, None) if obj is not None and not isinstance(obj, dict) else None
                val = raw_sub.get(name) if val is None else val
                if val is not None:
                    self.consumed.add(f"{sub}.{name}")
                    return val
        return default

    def key_name(self, key: str) -> str:
        names = self._names(key)
        for name in names:
            if name in self.raw:
                return name
        return names[0] if names else key

    def int(self, key: str, default: int | None = None, required: bool = True, minimum: int = 1) -> int | None:
        val = self.get(key)
        if val is None:
            if default is not None or not required:
                return default
            raise ConfigError(f"{self.where}: missing {self.key_name(key)} (needed for the {key.replace('_', ' ')})")
        try:
            return check_int(val, self.key_name(key), self.where, minimum=minimum,
                             limit=LIMITS.get(key, DEFAULT_LIMIT))
        except ConfigError as exc:
            name = self.key_name(key)
            file_val = self.raw.get(name)
            if self.cfg is not None and name in self.raw and file_val != val:  # the class derived it from the file's
                raise ConfigError(f"{exc} ({type(self.cfg).__name__} derives it from the file's "
                                  f"{name} = {_short(file_val)})") from None
            raise

    def flag(self, spec: Any, default: bool = False) -> bool:
        """Resolve a family flag: a bool constant, or a config key whose value is read ("!key": its negation,
        e.g. MPT's ``!no_bias``; an absent key still gives ``default``)."""
        if isinstance(spec, bool):
            return spec
        if isinstance(spec, str) and spec.startswith("!"):
            val = self.get_any(spec[1:])
            return (not val) if val is not None else default
        if isinstance(spec, str):
            val = self.get_any(spec)
            return bool(val) if val is not None else default
        return default


@functools.lru_cache(maxsize=8192)
def family_reads(cls: type, name: str) -> bool:
    """Whether transformers' config class ``cls`` declares key ``name`` (an annotation, attribute, property or
    ``__init__`` parameter of it or a base, or an ``attribute_map`` entry) or a modeling file beside it reads it
    (``config.<name>`` or a quoted ``"<name>"``: ``getattr(config, "head_dim", ...)`` in modeling_qwen2.py, read as
    text; StableLM's ``self.head_dim = hidden // heads`` is not a read). True when the source cannot be read
    (no modeling files found): the key is then given the benefit of the doubt, as before."""
    amap = getattr(cls, "attribute_map", None)
    if isinstance(amap, dict) and (name in amap or name in amap.values()):
        return True
    for k in cls.__mro__:
        if name in getattr(k, "__annotations__", {}) or name in vars(k):
            return True
    try:
        if name in inspect.signature(cls.__init__).parameters:
            return True
    except (TypeError, ValueError):  # pragma: no cover - a builtin signature
        return True
    from .kinds.heads import modeling_files_near, source_near
    if not modeling_files_near(cls.__module__):
        return True
    return source_near(cls.__module__, rf"(config\.{re.escape(name)}\b|[\"']{re.escape(name)}[\"'])")


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
