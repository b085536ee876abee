"""Bundled examples: their precomputed architectures (data/arch_cache) match a live normalization."""

from __future__ import annotations

import json

from scorer import cache
from scorer.architecture import _normalize
from scorer.resources import data_dir


def test_packaged_arch_cache_is_current():
    examples = sorted((data_dir() / "examples").iterdir())
    assert examples
    for folder in examples:
        cfg = json.loads((folder / "config.json").read_text())
        key = cache.arch_key(cfg, None)
        path = data_dir() / "arch_cache" / f"{key}.json"
        assert path.is_file(), f"{folder.name}: run python scripts/make_examples.py to refresh data/arch_cache"
        assert json.loads(path.read_text()) == json.loads(_normalize(cfg, None).model_dump_json())


def test_cache_hit_skips_normalization(tmp_path, monkeypatch):
    from scorer.architecture import normalize
    monkeypatch.setenv("DEPLOYSHEET_CACHE_DIR", str(tmp_path))
    cfg = {"model_type": "zzz", "architectures": ["X"], "hidden_size": 512, "intermediate_size": 1024,
           "num_hidden_layers": 2, "num_attention_heads": 8, "vocab_size": 1000}
    first = normalize(cfg)
    assert list((tmp_path / "arch").glob("*.json"))
    import scorer.architecture.assemble as a
    monkeypatch.setattr(a, "_normalize", lambda *x: (_ for _ in ()).throw(AssertionError("not cached")))
    assert normalize(cfg) == first
    monkeypatch.setenv("DEPLOYSHEET_NO_CACHE", "1")
    try:
        normalize(cfg)
        raise RuntimeError("expected a recomputation")
    except AssertionError as exc:
        assert "not cached" in str(exc)


def test_cache_misses_under_another_transformers_version(tmp_path, monkeypatch):
    """An architecture cached under one transformers version is not served under another: the config classes
    decide it (a model type a newer transformers adds is read through its class, exactly; an older one reads the
    raw keys and labels the counts estimated). Before, an upgrade kept serving the older version's entry."""
    from scorer.architecture import normalize
    import scorer.architecture.assemble as a
    monkeypatch.setenv("DEPLOYSHEET_CACHE_DIR", str(tmp_path))
    cfg = {"model_type": "zzz", "architectures": ["X"], "hidden_size": 512, "intermediate_size": 1024,
           "num_hidden_layers": 2, "num_attention_heads": 8, "vocab_size": 1000}
    first = normalize(cfg)
    calls = []
    real = a._normalize
    monkeypatch.setattr(a, "_normalize", lambda *x: calls.append(1) or real(*x))
    assert normalize(cfg) == first and calls == []  # same version: a hit
    monkeypatch.setattr(cache, "transformers_version", lambda: "99.0.0")
    assert normalize(cfg) == first and calls == [1]  # another version: recomputed
    assert normalize(cfg) == first and calls == [1]  # and cached under that version
    assert len(list((tmp_path / "arch").glob("*.json"))) == 2
