"""Breaker round 21: configs no engine loads are refused in one line (exit 2, nothing written)."""

from __future__ import annotations

import json

from scorer.cli import main
from scorer.resources import data_dir


def _llama() -> dict:
    return json.loads((data_dir() / "examples" / "llama-2-7b" / "config.json").read_text())


def _refused(tmp_path, capsys, body: bytes, want: str) -> None:
    d = tmp_path / "m"
    d.mkdir(exist_ok=True)
    (d / "config.json").write_bytes(body)
    out = tmp_path / "s.md"
    assert main(["score", str(d), "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and want in err and not out.exists()


def test_a_utf8_bom_is_refused(tmp_path, capsys):
    """transformers 5.25 configuration_utils.py _dict_from_json_file: open(..., encoding="utf-8") then json.loads,
    which raises "Unexpected UTF-8 BOM"; vLLM and SGLang load configs through it."""
    body = json.dumps(_llama()).encode()
    try:
        json.loads((b"\xef\xbb\xbf" + body).decode("utf-8"))
        raise AssertionError("json.loads took the BOM")
    except json.JSONDecodeError as exc:
        assert "BOM" in str(exc)  # what transformers meets
    _refused(tmp_path, capsys, b"\xef\xbb\xbf" + body, "byte-order mark")


def test_a_finite_rope_factor_that_overflows_is_refused(tmp_path, capsys):
    """4,096 positions x a linear factor of 1e300: vLLM's int(max_model_len) of it is past any context the reader
    accepts (max_position_embeddings at most 2**34): bad input, not an internal error."""
    cfg = _llama()
    cfg["rope_scaling"] = {"rope_type": "linear", "factor": 1e300}
    _refused(tmp_path, capsys, json.dumps(cfg).encode(), "absurd context")
    cfg["rope_scaling"] = {"rope_type": "linear", "factor": 4.0}  # the same config at a sane factor runs
    d = tmp_path / "ok"
    d.mkdir()
    (d / "config.json").write_text(json.dumps(cfg))
    assert main(["score", str(d), "-o", str(tmp_path / "ok.md")]) == 0
    capsys.readouterr()
