"""Classic decoders (GPT-2 / GPT-J / BLOOM / OPT / MPT style): the structure flags of the ``classic decoders``
group in :mod:`scorer.architecture.families`, applied by the generic loop in :mod:`scorer.architecture.assemble`.

* ``intermediate_default``: the MLP width when the config gives none (GPT2MLP's ``n_inner or 4 * hidden``);
* ``multi_query``: one shared K/V head (GPTBigCode);
* ``norm_bias``: LayerNorms without a bias (MPT) count hidden parameters, not 2 * hidden;
* ``first_block_norms``, ``last_block_o_bias``, ``lm_head_transform``: small per-model modules outside the specs
  (ModernBERT decoder's missing first attn_norm and its prediction head; GPT-NeoX-Japanese's last dense_bias).
"""

from __future__ import annotations

from typing import Any

from ..reader import Reader, check_int
from ..specs import LayerSpec


def default_mlp_width(r: Reader, flags: dict[str, Any], hidden: int) -> int | None:
    """``intermediate_default`` x hidden, or None when the family has no default width."""
    spec = flags["intermediate_default"]
    if spec is None:
        return None
    mult = spec if isinstance(spec, int) else check_int(r.get(spec), spec, r.where) if r.get(spec) is not None \
        else None
    return None if mult is None else int(mult) * hidden


def kv_heads(r: Reader, flags: dict[str, Any], heads: int) -> int | None:
    """KV heads under ``multi_query`` (None: the family does not use the flag)."""
    key = flags["multi_query"]
    if key is None:
        return None
    r.mark("num_key_value_heads", "n_head_kv")  # the modeling code derives the KV heads from multi_query alone
    return 1 if r.flag(key, default=False) else heads


def norm_kind(r: Reader, flags: dict[str, Any]) -> str:
    """The arch's norm: a LayerNorm without bias counts like RMSNorm (weight only)."""
    if flags["norm"] == "layernorm" and not r.flag(flags["norm_bias"], default=True):
        return "rms"
    return flags["norm"]


def finish(r: Reader, flags: dict[str, Any], layers: list[LayerSpec], hidden: int,
           norm: str) -> tuple[list[LayerSpec], dict[str, int]]:
    """Per-block and model-level modules of the classic flags: (layers, model extra_params)."""
    extra: dict[str, int] = {}
    norm_w = hidden * (2 if norm == "layernorm" else 1)
    first = flags["first_block_norms"]
    if first is not None and layers:
        layers[0] = layers[0].model_copy(update={"num_norms": int(first)})
    if flags["last_block_o_bias"] and layers:
        last = layers[-1]
        layers[-1] = last.model_copy(update={"extra_params": {**last.extra_params,
                                                              "attention": last.extra_params.get("attention", 0)
                                                              + hidden}})
    for key, value in (flags["neutral_when"] or {}).items():
        got = r.raw_get(key) if key in r.raw else None  # recorded as consumed only when it has the neutral value
        if got is not None and got != (hidden if value == "hidden" else value):
            r.consumed.discard(key)
    head = flags["lm_head_transform"]
    if head is not None:
        extra["lm_head"] = hidden * hidden + (hidden if r.flag(head) else 0) + norm_w
    return layers, extra
