"""How much of the cost model's error on a measurements CSV no shared parameter can remove.

For each metric it prints the in-sample MdAPE of the packaged calibration, then the MdAPE left when every group
of rows may have its own free factor (the median log-ratio of the group removed): per (model, framework), per
(model, framework, GPU, precision) and per (that, ISL/OSL). What a free factor per group leaves is error within
the group — the model's shape across layouts, lengths and concurrency, or spread between runs the CSV describes
alike — that no refit of shared efficiencies removes (a refit moves every row of a group the same way at most);
a leave-one-model-out fit, which sees no row of the held-out model, does not get below the first figure without a
change to the model's structure.

    python scripts/error_floor.py [--measurements ../shared/measurements/measured.csv] [--corpus ../shared/corpus]
"""

from __future__ import annotations

import argparse
import collections
import math
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GROUPS = {
    "model x framework": lambda r: (r.config, r.framework),
    "model x framework x GPU x precision": lambda r: (r.config, r.framework, r.gpu, r.weight_precision),
    "... x ISL/OSL": lambda r: (r.config, r.framework, r.gpu, r.weight_precision, r.isl, r.osl),
}


def main() -> None:
    from scorer.measure import Predictor, read_rows

    ap = argparse.ArgumentParser()
    ap.add_argument("--measurements", default=str(ROOT.parent / "shared" / "measurements" / "measured.csv"))
    ap.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    args = ap.parse_args()
    rows, _ = read_rows(args.measurements)
    pred = Predictor(args.corpus)
    by_metric: dict[str, list] = collections.defaultdict(list)
    seen = set()
    for r in rows:
        if r.id in seen:
            continue
        seen.add(r.id)
        res = pred.predict_row(r)
        if res.predicted and r.value:
            by_metric[r.metric].append((math.log(res.predicted / r.value), r))
    print(f"reproduce: python scripts/error_floor.py --measurements {args.measurements} --corpus {args.corpus}")
    for metric in ("ttft_ms", "tpot_ms", "output_tokens_per_s_per_gpu"):
        res = by_metric.get(metric) or []
        if not res:
            continue
        now = statistics.median(abs(math.exp(e) - 1) * 100 for e, _ in res)
        parts = [f"{metric} ({len(res)} rows): in-sample MdAPE {now:.1f}%"]
        for name, key in GROUPS.items():
            groups = collections.defaultdict(list)
            for e, r in res:
                groups[key(r)].append(e)
            apes = [abs(math.exp(e - statistics.median(v)) - 1) * 100 for v in groups.values() for e in v]
            parts.append(f"a free factor per {name}: {statistics.median(apes):.1f}% ({len(groups)} groups)")
        print("; ".join(parts))


if __name__ == "__main__":
    main()
