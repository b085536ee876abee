"""BERT-like encoders' modules outside the common encoder layout (``families._BERT_LIKE``).

Each function is a :class:`~scorer.architecture.assemble.FamilyHook` ``finish`` step: it reads its keys
through the reader (consumed) and returns the layers (with ``extra_params``) and the model-level
``extra_params``. A setting whose layout is not modelled is left unconsumed, so the sheet lists it in
``unmodelled_keys`` and labels the counts estimated.
"""

from __future__ import annotations

from typing import Any

from ..reader import Reader
from ..specs import LayerSpec


def roformer_finish(r: Reader, layers: list[LayerSpec], d: dict[str, Any]) -> tuple[list[LayerSpec], dict[str, int]]:
    """RoFormerEncoder.embed_positions: a sinusoidal table (max_positions x hidden // heads), an nn.Embedding."""
    return layers, {"embedding": r.int("max_positions") * (d["hidden"] // d["heads"])}


def ernie_finish(r: Reader, layers: list[LayerSpec], d: dict[str, Any]) -> tuple[list[LayerSpec], dict[str, int]]:
    """ErnieEmbeddings: task_type_embeddings (task_type_vocab_size x hidden) when use_task_id."""
    if r.get("use_task_id"):
        return layers, {"embedding": r.int("task_type_vocab_size", default=3) * d["hidden"]}
    r.mark("task_type_vocab_size")  # no task embeddings: its size shapes nothing
    return layers, {}


def roc_bert_finish(r: Reader, layers: list[LayerSpec], d: dict[str, Any]) -> tuple[list[LayerSpec], dict[str, int]]:
    """RoCBertEmbeddings: pronunciation and shape tables (always built), and map_inputs_layer (with bias) from
    the concatenated word / pronunciation / shape embeddings to hidden when concat_input."""
    h = d["hidden"]
    pron, shape = r.int("pronunciation_embed_dim"), r.int("shape_embed_dim")
    n = r.int("pronunciation_vocab_size") * pron + r.int("shape_vocab_size") * shape
    if r.get("concat_input", True):
        width = h + (pron if r.get("enable_pronunciation", True) else 0) + (shape if r.get("enable_shape", True) else 0)
        n += width * h + h
    else:
        r.mark("enable_pronunciation", "enable_shape")
    return layers, {"embedding": n}


def xmod_finish(r: Reader, layers: list[LayerSpec], d: dict[str, Any]) -> tuple[list[LayerSpec], dict[str, int]]:
    """XmodOutput: one adapter (dense1 h -> h // adapter_reduction_factor, dense2 back, both with bias) per
    language of ``languages`` in every layer, plus adapter_layer_norm when set. Pre-norm X-MOD (pre_norm) is
    not modelled: the key is then left unconsumed."""
    h = d["hidden"]
    langs = r.get("languages")
    n_lang = len(langs) if isinstance(langs, (list, tuple)) else 1
    b = h // r.int("adapter_reduction_factor", default=2)
    per_layer = n_lang * (2 * h * b + b + h)
    norm = 2 * h if r.get("adapter_layer_norm") else 0
    r.mark("adapter_reuse_layer_norm", "ln_before_adapter", "default_language")  # routing only
    if not r.get("pre_norm"):
        r.mark("pre_norm")
    out = []
    for lay in layers:
        extra = dict(lay.extra_params)
        extra["mlp"] = extra.get("mlp", 0) + per_layer
        if norm:
            extra["norms"] = extra.get("norms", 0) + norm
        out.append(lay.model_copy(update={"extra_params": extra}))
    return out, {}
