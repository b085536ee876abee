"""Parameter counts equal the transformers meta-device oracle for every corpus config it knows.

Expected numbers: tests/data/meta_oracle.json, produced by the command recorded in that file
(scripts/meta_oracle.py instantiates each model on torch's meta device). Reads ../shared/corpus,
so it skips where the corpus is absent.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorer.architecture import normalize
from scorer.params import count_params

ORACLE = json.loads((Path(__file__).parent / "data" / "meta_oracle.json").read_text())


def test_oracle_file_records_its_command_and_versions():
    assert ORACLE["command"].startswith("python scripts/meta_oracle.py")
    assert ORACLE["versions"]["transformers"] and ORACLE["versions"]["torch"]
    assert len(ORACLE["models"]) >= 25


@pytest.mark.corpus
@pytest.mark.parametrize("name", sorted(ORACLE["models"]))
def test_language_model_params_match_meta_device(corpus, name):
    raw = json.loads((corpus / name / "config.json").read_text())
    arch = normalize(raw)
    counts = count_params(arch)
    expected = ORACLE["models"][name]
    assert counts.total == expected["language_model"]
    if arch.vision is not None:
        assert counts.vision == expected["vision"]
    # embedding / lm_head components agree with the oracle's input/output embedding modules
    assert counts.by_component["embedding"] >= expected["embedding"]
    lm_head_weight = counts.by_component["lm_head"] - (arch.vocab_size if arch.lm_head_bias else 0)
    assert lm_head_weight == expected["lm_head"]


@pytest.mark.corpus
def test_every_transformers_known_corpus_config_is_in_the_oracle(corpus):
    from transformers.models.auto.configuration_auto import CONFIG_MAPPING
    known = {p.parent.name for p in corpus.glob("*/config.json")
             if json.loads(p.read_text()).get("model_type") in CONFIG_MAPPING}
    assert known == set(ORACLE["models"])
