"""The readers' switch-dependent branches against the meta device, beyond the corpus and the sweep's shapes.

tests/data/meta_oracle_branches.json (``scripts/branch_oracle.py``, its command and versions inside): the sweep's
default and resized variants of PaddleOCR-VL (use_bias), DeepSeek-OCR-2 (mlp_bias), Qwen3.5-MoE (an extra
mlp_only_layers), Nemotron-H (a dense pattern), Falcon's original layout (multi_query on and off), Qwen2/3-MoE,
DeepSeek-V3 and GLM-4-MoE configured dense, and the transformers 5.25.0 types Param2, MiniCPM-5-MoE, Ergo and
Kolibri 1.1 (with Ergo's dense-block / global-layer / window keys and Kolibri's KV sharing, dense layers and indexers
set, and with keys their classes never read: biases, Ergo's head_dim and num_local_experts, Kolibri's
decoder_sparse_step and first_k_dense_replace, which the meta device shows change nothing), each as its config class saves it, with the meta device's total; Ergo's and Kolibri's also as written before
the class derived its per-layer lists (``input_config``: the raw-key rules a config without them takes).

A type the installed transformers lacks is still counted (deploysheet's reader reads the raw keys) and must equal
the meta device, labelled estimated; with the class it must be exact.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorer.architecture import normalize
from scorer.architecture.families import FAMILIES
from scorer.params import count_params

DATA = json.loads((Path(__file__).parent / "data" / "meta_oracle_branches.json").read_text())


def _known(model_type: str) -> bool:
    try:
        from transformers import CONFIG_MAPPING
    except ImportError:
        return False
    return model_type in CONFIG_MAPPING


@pytest.mark.parametrize("case", DATA["variants"], ids=[v["name"] for v in DATA["variants"]])
def test_branch_variant_counts_as_the_meta_device(case):
    mt = case["config"]["model_type"]
    if not _known(mt) and mt not in FAMILIES:
        pytest.skip(f"transformers here has no {mt} class")
    for raw in (case["config"], case.get("input_config")):
        if raw is None:
            continue
        arch = normalize(raw)
        p = count_params(arch)
        assert p.total + (p.vision or 0) == case["total"]
        if mt in ("ergo", "kolibri1_1"):
            assert arch.exact == _known(mt)
