"""Verdicts of the sheet comparison (scorer.compare), from hand-made metrics."""

import pytest

from scorer.compare import Metric, _verdict


def m(better):
    return Metric(id="x", label="x", unit="ms", value=None, better=better)


@pytest.mark.parametrize("better,base,head,verdict,pct", [
    ("lower", 10.0, 8.0, "better", -20.0),     # TPOT down 20 %
    ("lower", 10.0, 12.5, "worse", 25.0),
    ("higher", 1000.0, 1500.0, "better", 50.0),  # tokens/s up 50 %
    ("higher", 1000.0, 995.0, "same", -0.5),    # inside the 1 % tolerance
    ("none", 8.0e9, 7.0e9, "n/a", -12.5),       # parameter count: no direction
    ("lower", None, 3.0, "new", None),
    ("lower", 3.0, None, "gone", None),
    ("lower", None, None, "n/a", None),
])
def test_verdicts(better, base, head, verdict, pct):
    v, p = _verdict(m(better), base, head)
    assert v == verdict
    assert (p is None and pct is None) or p == pytest.approx(pct)


def test_compare_labels_and_csv(tmp_path, capsys):
    """Issue 14: --label NAME=SOURCE; the default name is the folder, never a path to config.json; CSV has one row
    per model per GPU, its latencies labelled as means."""
    import csv as _csv
    import io as _io
    import json as _json
    import shutil

    from scorer.cli import main
    from scorer.resources import data_dir
    folder = tmp_path / "my-qwen"
    shutil.copytree(data_dir() / "examples" / "qwen3-4b", folder)
    args = ["compare", str(folder / "config.json"), "example:llama-3.1-8b", "--label", "L8=example:llama-3.1-8b",
            "--isl", "512", "--osl", "128", "--qps", "2", "--gpu", "H100-SXM", "--gpu", "B200"]
    assert main(args + ["--format", "json"]) == 0
    names = [m["name"] for m in _json.loads(capsys.readouterr().out)["models"]]
    assert names == ["my-qwen", "L8"]
    assert main(args + ["--format", "csv"]) == 0
    rows = list(_csv.DictReader(_io.StringIO(capsys.readouterr().out)))
    assert [(r["model"], r["gpu"]) for r in rows] == [("my-qwen", "H100-SXM"), ("my-qwen", "B200"),
                                                      ("L8", "H100-SXM"), ("L8", "B200")]
    assert "ttft_ms_mean" in rows[0] and float(rows[0]["tpot_ms_mean"]) > 0
    for bad in (["--label", "x"], ["--label", "=example:llama-3.1-8b"], ["--label", "Z=example:nope"]):
        assert main(args[:-4] + bad) == 2
        assert capsys.readouterr().err.count("\n") == 1
    twin = tmp_path / "b" / "my-qwen"
    shutil.copytree(folder, twin)
    (twin / "config.json").write_text((folder / "config.json").read_text().replace('"max_position_embeddings": 40960',
                                                                                   '"max_position_embeddings": 40000'))
    assert main(["compare", str(folder), str(twin), "--isl", "512", "--osl", "128", "--qps", "2"]) == 2
    assert "--label" in capsys.readouterr().err


def test_score_csv_has_one_row_per_regime_per_gpu(capsys):
    import csv as _csv
    import io as _io

    from scorer.cli import main
    from scorer.regimes import regime_defs
    assert main(["score", "example:qwen3-4b", "--gpu", "H100-SXM", "--gpu", "L4", "--format", "csv",
                 "--no-recommendations"]) == 0
    rows = list(_csv.DictReader(_io.StringIO(capsys.readouterr().out)))
    ids = [r["id"] for r in regime_defs()]
    assert [(r["gpu"], r["regime"]) for r in rows] == [(g, i) for g in ("H100-SXM", "L4") for i in ids]
    assert all(r["ttft_ms_mean"] for r in rows if r["fits"] == "yes")


def test_compare_flags_a_precision_the_checkpoint_is_not_stored_at(tmp_path):
    # an FP8 checkpoint compared at bf16: engines read its own quant_method (and refuse --quantization on it), so
    # the bf16 deployment is of another export: a medium risk, not a silent re-quantization
    import json

    from conftest import run_cli
    from scorer.resources import data_dir
    raw = json.loads((data_dir() / "examples" / "llama-2-7b" / "config.json").read_text())
    raw["quantization_config"] = {"quant_method": "fp8", "activation_scheme": "dynamic"}
    (tmp_path / "fp8").mkdir()
    (tmp_path / "fp8" / "config.json").write_text(json.dumps(raw))
    run = run_cli("compare", str(tmp_path / "fp8"), "example:llama-2-7b", "--isl", "512", "--osl", "64",
                  "--qps", "1", "--precision", "bf16", "--format", "json")
    assert run.returncode == 0, run.stderr
    risks = {m["name"]: [r["kind"] for r in m["risks"]] for m in json.loads(run.stdout)["models"]}
    assert "checkpoint_reexport" in risks["fp8"] and "checkpoint_reexport" not in risks["example:llama-2-7b"]
