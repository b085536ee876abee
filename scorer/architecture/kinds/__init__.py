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
(vision towers), :mod:`.mtp` (multi-token-prediction modules), :mod:`.deepseek` (DeepSeek-V4's sliding,
compressed sparse and heavily compressed attention, hyper-connections).
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


def registrar(table: dict[str, Any], what: str) -> Callable[..., Callable[[Any], Any]]:
    """A decorator factory: ``@register("a", "b")`` puts the reader in ``table`` under each name it answers to.

    Raises:
        RuntimeError: a name registered twice (a programming error, caught at import).
    """
    def register(*names: str) -> Callable[[Any], Any]:
        def deco(fn: Any) -> Any:
            for name in names:
                if name in table:  # pragma: no cover - a programming error caught at import
                    raise RuntimeError(f"{what} {name!r} registered twice")
                table[name] = fn
            return fn
        return deco
    return register


#: register a mixer reader under each layer-type name it answers to
mixer = registrar(MIXERS, "layer kind")


#: name fragments that say which known kind an unknown layer type most resembles (first match wins)
RESEMBLES = (("sliding", "sliding_attention"), ("local", "sliding_attention"), ("swa", "sliding_attention"),
             ("chunk", "chunked_attention"), ("mamba", "mamba"), ("ssm", "mamba"), ("linear", "linear_attention"),
             ("delta", "linear_attention"), ("recurrent", "linear_attention"), ("conv", "conv"),
             ("attention", "full_attention"), ("attn", "full_attention"))


def read_mixer(ctx: LayerContext, index: int, kind: str) -> Any:
    """The spec of layer ``index`` whose type is ``kind``.

    A layer type no reader knows (a model newer than deploysheet) is read as the known kind its name
    resembles (:data:`RESEMBLES`; plain softmax attention otherwise), and the guess is recorded in
    ``ctx.extra["guesses"]`` once per kind, so the sheet labels its counts estimated.

    Raises:
        ConfigError: ``kind`` is not a string, or not one of the family's ``layer_kinds``.
    """
    if not isinstance(kind, str):
        raise ConfigError(f"{ctx.where}: layer type at layer {index} must be a string")
    allowed = ctx.flags.get("layer_kinds")
    if allowed and kind not in allowed:  # the family's classes build no other layer (Ergo: attention on every layer)
        raise ConfigError(f"{ctx.where}: layer type {kind[:80]!r} at layer {index}: this model type builds only "
                          + ", ".join(allowed) + " layers")
    kind = (ctx.flags.get("layer_kind_aliases") or {}).get(kind, kind)  # a family's own meaning of a shared name
    reader = MIXERS.get(kind)
    if reader is None:
        lowered = kind.lower()
        stand_in = next((known for frag, known in RESEMBLES if frag in lowered), "full_attention")
        guessed = ctx.extra.setdefault("guessed_kinds", {})
        if kind not in guessed:
            guessed[kind] = stand_in
            ctx.extra.setdefault("guesses", []).append(
                f"layer type {kind!r} is unknown to deploysheet; read as {stand_in} (its parameters and cache are "
                "estimated)")
        reader = MIXERS[stand_in]
        kind = stand_in
    return reader(ctx, index, kind)


from . import attention, deepseek, recurrent  # noqa: E402,F401  (registration)
