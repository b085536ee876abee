"""Every config in ../shared/corpus gets a complete sheet in both formats (skips without the corpus)."""

from __future__ import annotations

import json

import pytest

from scorer.render import render
from scorer.sheet import build_sheet
from scorer.sources import load_source

from conftest import CORPUS

NAMES = sorted(p.parent.name for p in CORPUS.glob("*/config.json")) if CORPUS.is_dir() else []


@pytest.mark.corpus
@pytest.mark.skipif(not NAMES, reason="../shared/corpus not available")
@pytest.mark.parametrize("name", NAMES or ["(none)"])
def test_corpus_sheet(corpus, name):
    sheet = build_sheet(load_source(str(corpus / name)))
    md = render(sheet, "md")
    assert "## Findings" in md and "## Assumptions and sources" in md
    data = json.loads(render(sheet, "json"))
    assert data["params"]["total"] > 0
    assert data["hardware_fit"]["gemms"] and data["quantization"]["matrix"]
    if data["model"]["kind"] == "decoder":
        assert data["kv_cache"]["bytes_per_token"] > 0 or data["model"]["layer_kinds"]
        assert data["regimes"]
