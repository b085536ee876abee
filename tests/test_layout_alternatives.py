"""A layout refused for its shape (TP not dividing the heads, PP beyond the layers, EP on a dense model or not
dividing the TP x DP GPUs) names the nearest ones that pass, one degree changed at a time, in one line and exit 2."""

from __future__ import annotations

import pytest

from scorer.cli import main

ARGS = ["--isl", "1024", "--osl", "256", "--concurrency", "8"]


@pytest.mark.parametrize("model,flags,want", [
    # 32 heads / 32 KV heads: TP must divide 32; the closest degrees to 3 on a log scale are 4 (0.42), 2 (0.58), 8 (1.42)
    ("llama-2-7b", ["--tp", "3"], "nearest that pass: TP 4, 2, 8"),
    ("llama-2-7b", ["--pp", "64"], "nearest that pass: PP up to 32"),  # 32 layers
    ("llama-2-7b", ["--ep", "2"], "no --ep"),
    # Mixtral: 8 experts over TP4: EP must divide 4 and be at most 8; the closest to 3 are 4 (0.42) and 2 (0.58)
    ("mixtral-8x7b", ["--tp", "4", "--ep", "3"], "nearest that pass: EP 1 (experts split by TP), EP 4, 2"),
])
def test_refusals_name_what_passes(capsys, model, flags, want):
    assert main(["predict", f"example:{model}", *flags, *ARGS]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and want in err


def test_score_names_them_too(capsys):
    assert main(["score", "example:llama-2-7b", "--tp", "3"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "nearest that pass: TP 4, 2, 8" in err
