"""Benchmarks for the cost model (issue 4). Prints each figure and the command that reproduces it.

    python bench/bench_costmodel.py [--corpus ../shared/corpus] [--measurements ../shared/measurements/measured.csv]

1. full grid: one model scored over every catalog GPU x weight precision x valid TP x regime, the Pareto
   sweep included (what a leaderboard row costs);
2. validate: measurement rows predicted per second;
3. cold CLI: wall time of `deploysheet score` on a local config in a fresh process, first with an empty
   cache (transformers imported to normalize), then with the cache filled;
4. predict in process: `deploysheet predict` answers through ``scorer.cli.main`` in one warm process (what the
   webhook server and a library caller see), per bundled example and layout; first answer per model and repeats.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def full_grid(source: str) -> tuple[float, int]:
    from scorer.architecture import normalize
    from scorer.costmodel import CostModel, load_calibration
    from scorer.gemms import inventory
    from scorer.hardware import catalog, get_precision, precisions
    from scorer.params import count_params
    from scorer.regimes import run_regimes, sweep
    from scorer.sources import load_source

    raw = load_source(source)
    arch = normalize(raw.config, raw.quant_config)
    params, gemms, cal = count_params(arch), inventory(arch), load_calibration()
    t0 = time.perf_counter()
    n = 0
    for gpu in catalog().values():
        for pid in precisions():
            prec = get_precision(pid)

            cms = {}

            def make(lay, gpu=gpu, prec=prec, cms=cms):
                key = (lay.tp, lay.pp, lay.ep, lay.dp)
                if key not in cms:
                    cms[key] = CostModel(arch, params, gpu, prec, lay, "bf16", "vllm", cal, set(), gemms)
                return cms[key]

            run_regimes(make, arch, gpu.id, pid, 3.0)
            n += len(sweep(make, arch, 1024, 1024, 3.0))
    return time.perf_counter() - t0, n


def validate_rate(csv_path: str, corpus: str) -> tuple[float, int]:
    from scorer.calibrate import _samples, evaluate
    from scorer.costmodel import load_calibration
    from scorer.measure import Predictor, read_rows

    rows, _ = read_rows(csv_path)
    t0 = time.perf_counter()
    pred = Predictor(corpus, load_calibration())
    samples, skipped = _samples(pred, rows)
    evaluate(samples, pred.calibration)
    return time.perf_counter() - t0, len(rows)


def cold_cli(config: str, runs: int = 5, python: str | None = None) -> tuple[list[float], list[float]]:
    """Wall seconds of ``runs`` fresh ``score`` processes with an empty cache each, and of as many with the
    cache those filled. The project's bytecode is compiled first, as ``pip install`` does for a user (where
    PYTHONDONTWRITEBYTECODE is set, a source checkout would otherwise recompile every module on each run).
    ``python``: another interpreter (a user's ``pip install .`` environment), run outside the source tree so that
    it imports its installed copy; the development environment also holds the test tools (selenium brings trio,
    which httpcore2 then imports), which a user's does not."""
    import compileall
    compileall.compile_dir(str(ROOT / "scorer"), quiet=1)
    exe, cwd = (python, tempfile.gettempdir()) if python else (sys.executable, ROOT)
    env = dict(os.environ)
    cold, warm = [], []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as cache:
            env["DEPLOYSHEET_CACHE_DIR"] = cache
            for out in (cold, warm):
                t0 = time.perf_counter()
                subprocess.run([exe, "-m", "scorer", "score", config], check=True, env=env, cwd=cwd,
                               stdout=subprocess.DEVNULL)
                out.append(time.perf_counter() - t0)
    return sorted(cold), sorted(warm)


def predict_in_process() -> tuple[list[float], list[float]]:
    """Seconds of in-process ``predict`` answers: the first per (model, GPU) and the repeats of each case."""
    import contextlib
    import io

    from scorer.cli import main as cli
    from scorer.sources import list_examples

    cases = []
    for name in list_examples():
        for gpu, prec, tp, conc in (("H100-SXM", "bf16", 1, "16"), ("H100-SXM", "fp8", 2, "64"),
                                    ("B200", "fp8", 8, "max"), ("L40S", "bf16", 4, "8")):
            cases.append(["predict", f"example:{name}", "--gpu", gpu, "--precision", prec, "--tp", str(tp),
                          "--isl", "2048", "--osl", "512", "--concurrency", conc])
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        cli(["predict", "example:llama-3.1-8b", "--gpu", "H100-SXM", "--isl", "8", "--osl", "8",
             "--concurrency", "1"])  # imports and the packaged data, once per process
        first, repeat = [], []
        for out in (first, repeat, repeat):
            for argv in cases:
                t0 = time.perf_counter()
                cli(argv)
                out.append(time.perf_counter() - t0)
    return sorted(first), sorted(repeat)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    ap.add_argument("--measurements", default=str(ROOT.parent / "shared" / "measurements" / "measured.csv"))
    ap.add_argument("--only", choices=("grid", "validate", "cold", "predict"),
                    help="run one of the four benchmarks")
    ap.add_argument("--python", help="time the cold CLI with this interpreter too (e.g. the .venv/bin/python of a "
                                     "fresh `pip install .`)")
    args = ap.parse_args()
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}")
    print(f"reproduce: python bench/bench_costmodel.py --corpus {args.corpus} --measurements {args.measurements}")
    if not Path(args.measurements).is_file():
        print(f"validate rows/s: skipped ({args.measurements} not found; pass --measurements CSV)")
    if args.only in (None, "grid"):
        runs = [full_grid("example:llama-3.1-8b") for _ in range(3)]
        secs = sorted(r[0] for r in runs)
        print(f"full grid, example:llama-3.1-8b: best {secs[0] * 1000:.0f} ms, median {secs[1] * 1000:.0f} ms of 3 "
              f"({runs[0][1]} sweep points; target 150 ms)")
    if args.only in (None, "validate") and Path(args.measurements).is_file() and Path(args.corpus).is_dir():
        secs, n = validate_rate(args.measurements, args.corpus)
        print(f"validate: {n} rows in {secs:.2f} s = {n / secs:,.0f} rows/s (target 2,000 rows/s)")
    if args.only in (None, "predict"):
        first, repeat = predict_in_process()
        print(f"predict in process, {len(first)} cases (bundled examples x 4 layouts): first answer per case median "
              f"{first[len(first) // 2] * 1e3:.1f} ms (max {first[-1] * 1e3:.1f} ms), repeats median "
              f"{repeat[len(repeat) // 2] * 1e3:.1f} ms (max {repeat[-1] * 1e3:.1f} ms); target 50 ms")
    if args.only in (None, "cold"):
        cfg = ROOT / "data" / "examples" / "qwen3-4b" / "config.json"
        with tempfile.TemporaryDirectory() as tmp:
            local = Path(tmp) / "config.json"
            local.write_text(cfg.read_text().replace('"max_position_embeddings": 40960',
                                                     '"max_position_embeddings": 40961'))
            cold, warm = cold_cli(str(local))
            runs = [("this environment", cold, warm)]
            if args.python:
                runs.append((args.python, *cold_cli(str(local), python=args.python)))
        for where, cold, warm in runs:
            print(f"cold CLI score of a local config ({where}), {len(cold)} fresh processes each: empty cache median "
                  f"{cold[len(cold) // 2]:.2f} s (best {cold[0]:.2f} s), filled cache median "
                  f"{warm[len(warm) // 2]:.2f} s (best {warm[0]:.2f} s); target 1.0 s on 2 cores")


if __name__ == "__main__":
    main()
