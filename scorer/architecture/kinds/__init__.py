"""Layer-kind readers, registered by the layer-type names configs use.

A config names each layer's kind (transformers' ``layer_types`` vocabulary: ``full_attention``,
``sliding_attention``, ``linear_attention``, ``conv``, ``indexed_attention``, ...; or a pattern
string, or nothing, which means every layer is the same). Each kind is one small reader function
in a module of this package, registered with :func:`mixer` under every name it answers to. A
reader takes the :class:`LayerContext` (the model-wide dimensions already read, and the key
reader) and the layer's index, reads the keys it needs through ``ctx.r`` (which records them as
consumed), and returns the layer's spec from :mod:`scorer.architecture.specs`.

Adding a family whose layers are of a new kind means adding a reader here and a spec whose
parameters, GEMMs and state bytes the analyses know; a family whose layers are of known kinds
needs only its structure flags in :mod:`scorer.architecture.families` and a row in the oracle.

Modules: :mod:`.attention` (softmax attention with its per-layer-kind overrides, MLA, DeepSeek
sparse attention), :mod:`.recurrent` (Mamba2, gated delta-net, short convolution), :mod:`.ffn`
(dense MLP, MoE, latent MoE), :mod:`.nas` (DeciLM/Nemotron-NAS block lists), :mod:`.vision`
(vision towers), :mod:`.mtp` (multi-token-prediction modules).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ...errors import ConfigError
from ..reader import Reader


@dataclass
class LayerContext:
    """What a layer reader may use: model-wide dimensions (elements) and the key reader."""

    r: Reader
    flags: dict[str, Any]
    hidden: int
    heads: int
    kv: int
    head_dim: int
    sliding: int | None
    chunk: int | None
    n_layers: int
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def where(self) -> str:
        return self.r.where


MixerReader = Callable[[LayerContext, int, str], Any]

#: layer-type name -> reader of that mixer kind
MIXERS: dict[str, MixerReader] = {}
#: layer-type names that carry no mixer of their own (the block is an FFN: ``mlp``/``moe`` of block-per-layer hybrids)
FFN_ONLY_KINDS = ("mlp", "moe")


def mixer(*names: str) -> Callable[[MixerReader], MixerReader]:
    """Register a mixer reader under each layer-type name it answers to."""
    def deco(fn: MixerReader) -> MixerReader:
        for name in names:
            if name in MIXERS:  # pragma: no cover - a programming error caught at import
                raise RuntimeError(f"layer kind {name!r} registered twice")
            MIXERS[name] = fn
        return fn
    return deco


def read_mixer(ctx: LayerContext, index: int, kind: str) -> Any:
    """The spec of layer ``index`` whose type is ``kind``.

    Raises:
        ConfigError: no reader knows ``kind`` (the message names the kind and the layer).
    """
    reader = MIXERS.get(kind)
    if reader is None:
        known = ", ".join(sorted(MIXERS))
        raise ConfigError(f"{ctx.where}: unsupported layer type {kind!r} at layer {index} (known: {known})"[:300])
    return reader(ctx, index, kind)


from . import attention, recurrent  # noqa: E402,F401  (registration)
