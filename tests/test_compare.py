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
