"""The readers' switch-dependent branches against the meta device, beyond the corpus and the sweep's shapes.

tests/data/meta_oracle_branches.json (``scripts/branch_oracle.py``, its command and versions inside): the sweep's
default and resized variants of PaddleOCR-VL (use_bias), DeepSeek-OCR-2 (mlp_bias), Qwen3.5-MoE (an extra
mlp_only_layers), Nemotron-H (a dense pattern), Falcon's original layout (multi_query on and off), Qwen2/3-MoE,
DeepSeek-V3 and GLM-4-MoE configured dense, and the transformers 5.25.0 types Param2 and MiniCPM-5-MoE, each as
its config class saves it, with the meta device's total. A type the installed transformers lacks is skipped.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorer.architecture import normalize
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
    if not _known(case["config"]["model_type"]):
        pytest.skip(f"transformers here has no {case['config']['model_type']} class")
    p = count_params(normalize(case["config"]))
    assert p.total + (p.vision or 0) == case["total"]
