"""Normalize a raw ``config.json`` into a :class:`ModelArch`: a list of per-layer specs.

Known ``model_type`` values are read through transformers' own config classes (their defaults,
attribute aliases and derived fields such as ``layer_types``), instantiated from the JSON as
data — never ``trust_remote_code``. Unknown types fall back to the raw keys read through the
alias table in :mod:`.families`; the family is then guessed from ``architectures`` and every guess
is recorded in ``ModelArch.guesses`` for the sheet to show.

Layout of the package (one stage, several modules):

* :mod:`.specs` — the normalized objects every analysis reads;
* :mod:`.reader` — key lookup through aliases, bounds, the record of consumed keys;
* :mod:`.families` — per-family structure flags, aliases, verified and refused types;
* :mod:`.loader` — transformers' config classes, imported light;
* :mod:`.layout` — depth, per-layer kinds, MoE placement;
* :mod:`.kinds` — one reader per mixer / FFN / tower kind, in a registry;
* :mod:`.keys` — consumed, irrelevant and unmodelled keys;
* :mod:`.quantization` — ``quantization_config`` and ModelOpt's ``hf_quant_config.json``;
* :mod:`.assemble` — the short loop that applies them.

Units: every size is a count of elements (features, heads, tokens), never bytes.

Raises :class:`~scorer.errors.ConfigError` (exit code 2) for missing, non-integer, zero,
negative, absurd or inconsistent dimensions, naming the key.
"""

from __future__ import annotations

from .loader import _drop_stubs, _stub_packages  # noqa: F401  (tests of the light import)
from .assemble import _normalize, normalize
from .quantization import parse_quantization
from .reader import DEFAULT_LIMIT, LIMITS, Reader, check_int
from .specs import (FFN, AttentionSpec, CompressedAttentionSpec, DenseMLP, GatedDeltaNetSpec, IndexerSpec,
                    LayerSpec, LinearMixerSpec, Mamba1Spec, Mamba2Spec, Mixer, MLASpec, ModelArch, MoEMLP, MTPSpec,
                    QuantSpec, ShortConvSpec, SparseSelection, TaskHead, VisionTower)

__all__ = [
    "normalize", "_normalize", "parse_quantization", "check_int", "LIMITS", "DEFAULT_LIMIT", "Reader",
    "AttentionSpec", "MLASpec", "CompressedAttentionSpec", "IndexerSpec", "SparseSelection", "Mamba2Spec",
    "GatedDeltaNetSpec", "ShortConvSpec", "LinearMixerSpec", "Mamba1Spec",
    "Mixer", "DenseMLP", "MoEMLP", "FFN", "LayerSpec", "VisionTower", "MTPSpec", "QuantSpec", "TaskHead", "ModelArch",
]
