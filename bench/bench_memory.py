"""Memory benchmark (issue 15): does a long-running process that builds sheets for many models keep growing?

    python bench/bench_memory.py [--builds 400] [--corpus ../shared/corpus] [--no-trace]

Builds sheets (``scorer.sheet.build_sheet`` + ``render``, the path ``deploysheet score`` takes) for every
bundled example and every ``<corpus>/*/config.json``, each config in a few variants (vocab size and context
length nudged, GPU / precision / workload varied) so that every cache key differs, in one process, like the
webhook server. After one warm-up pass over the configs it prints

1. RSS (``VmRSS`` of /proc/self/status) every ``--every`` builds and the growth per build after warm-up;
2. the bytes each process-wide memo holds, by its own accounting (:mod:`scorer.memo`), against its budget;
3. (in a fresh process, unless ``--no-trace``) the tracemalloc growth over ``--trace-builds`` builds after
   warm-up, by file, top 12 (tracemalloc makes a build about 5x slower, hence the shorter run).

The on-disk caches go to a temporary ``DEPLOYSHEET_CACHE_DIR`` so the run leaves ``~/.cache`` alone.
"""

from __future__ import annotations

import argparse
import copy
import gc
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GPUS = ("H100-SXM", "A100-SXM-80GB", "H200-SXM", "B200", "L40S", "MI300X")
PRECISIONS = (None, "fp8", "int4", "bf16")


def rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def sources(corpus: str | None) -> list[Path]:
    out = sorted((ROOT / "data" / "examples").glob("*/config.json"))
    if corpus and os.path.isdir(corpus):
        out += sorted(Path(corpus).glob("*/config.json"))
    return out


def _nudge(cfg: dict, i: int) -> dict:
    """A copy of ``cfg`` whose vocab size and context differ with ``i`` (so architectures, GEMM shapes and
    every memo key built from them differ), in the top-level and any nested text config."""
    cfg = copy.deepcopy(cfg)
    for sub in (cfg, cfg.get("text_config"), cfg.get("llm_config")):
        if not isinstance(sub, dict):
            continue
        if isinstance(sub.get("vocab_size"), int):
            sub["vocab_size"] += 64 * i
        if isinstance(sub.get("max_position_embeddings"), int):
            sub["max_position_embeddings"] += 1024 * i
    return cfg


def jobs(paths: list[Path], variants: int):
    """(label, RawModel, Options) for every config x variant; variant 0 is the config as it is."""
    from scorer.sheet import Options
    from scorer.sources import load_source
    raws = []
    for p in paths:
        try:
            raws.append((p.parent.name, load_source(str(p.parent))))
        except Exception as e:  # noqa: BLE001 - a config the loader refuses is skipped, and said
            print(f"  skip {p.parent.name}: {type(e).__name__}: {e}"[:160])
    k = 0
    for v in range(variants):
        for name, raw in raws:
            cfg = _nudge(raw.config, v) if v else raw.config
            opts = Options(gpus=[GPUS[k % len(GPUS)]], precision=PRECISIONS[(k // len(GPUS)) % len(PRECISIONS)],
                           isl=512 * (1 + k % 4), osl=256 * (1 + k % 3))
            k += 1
            yield f"{name}#{v}", raw.model_copy(update={"config": cfg}), opts


def build(raw, opts) -> bool:
    from scorer.render import render
    from scorer.sheet import build_sheet
    try:
        render(build_sheet(raw, opts), "md")
        return True
    except Exception:  # noqa: BLE001 - a refused option for a model (e.g. int4 of an FP8 checkpoint)
        try:
            render(build_sheet(raw, opts.model_copy(update={"precision": None})), "md")
            return True
        except Exception:  # noqa: BLE001
            return False


def run(args, trace: bool) -> None:
    paths = sources(args.corpus)
    all_jobs = list(jobs(paths, args.variants))
    n_cfg = len(all_jobs) // max(args.variants, 1)
    work = (all_jobs * (1 + args.builds // max(len(all_jobs), 1)))[:args.builds + n_cfg]
    # warm-up: one pass over the configs as they are (imports, transformers, templates, static catalogs)
    t0 = time.perf_counter()
    fails = sum(not build(raw, opts) for _, raw, opts in all_jobs[:n_cfg])
    gc.collect()
    if trace:
        import tracemalloc
        tracemalloc.start(1)
        snap0 = tracemalloc.take_snapshot()
    base = rss_mb()
    print(f"warm-up: {n_cfg} configs in {time.perf_counter() - t0:.1f} s ({fails} failed), RSS {base:.1f} MB")
    t0 = time.perf_counter()
    points = []
    for i, (label, raw, opts) in enumerate(work[n_cfg:], 1):
        fails += not build(raw, opts)
        if i % args.every == 0 or i == args.builds:
            gc.collect()
            points.append((i, rss_mb()))
            if not trace:
                print(f"  after {i:4d} builds: RSS {points[-1][1]:7.1f} MB")
    dt = time.perf_counter() - t0
    end = points[-1][1] if points else base
    n = points[-1][0] if points else 0
    # growth per build: the slope over the second half of the run (the memos have filled by then or never)
    half = [p for p in points if p[0] >= n // 2]
    slope = (half[-1][1] - half[0][1]) / max(half[-1][0] - half[0][0], 1) * 1024 if len(half) > 1 else float("nan")
    if trace:
        import tracemalloc
        gc.collect()
        snap1 = tracemalloc.take_snapshot()
        stats = snap1.compare_to(snap0, "filename")
        print(f"tracemalloc growth after warm-up, {n} builds, by file (top 12):")
        total = sum(s.size_diff for s in stats)
        for s in stats[:12]:
            name = os.path.relpath(s.traceback[0].filename, ROOT) if s.traceback[0].filename.startswith(str(ROOT)) \
                else s.traceback[0].filename.split("site-packages/")[-1]
            print(f"  {s.size_diff / 1024:+10.1f} KiB  {s.count_diff:+7d} blocks  {name}")
        print(f"  total {total / 2**20:+.2f} MiB")
        return
    print(f"{n} builds after warm-up in {dt:.1f} s ({dt / max(n, 1) * 1e3:.0f} ms each, {fails} failed)")
    print(f"RSS: {base:.1f} MB after warm-up -> {end:.1f} MB after {n} builds: {(end - base) / max(n, 1) * 1024:+.1f} "
          f"KB/build overall, {slope:+.1f} KB/build over the second half")
    try:
        from scorer import memo
        held = memo.report()
    except ImportError:  # before issue 15: no byte accounting
        held = None
    if held is not None:
        total = sum(b for _, b, _ in held)
        print(f"process-wide memos (own accounting): {total / 2**20:.2f} MiB held, budget "
              f"{memo.total_budget() / 2**20:.0f} MiB")
        for name, b, budget in held:
            print(f"  {name:32s} {b / 2**20:8.2f} MiB of {budget / 2**20:6.1f} MiB")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--builds", type=int, default=400, help="builds after the warm-up pass")
    ap.add_argument("--variants", type=int, default=8, help="variants of each config (distinct cache keys)")
    ap.add_argument("--every", type=int, default=50, help="print RSS every N builds")
    ap.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    ap.add_argument("--trace-builds", type=int, default=120, help="builds of the tracemalloc pass")
    ap.add_argument("--no-trace", action="store_true", help="skip the tracemalloc pass (a second process)")
    ap.add_argument("--trace-only", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    tmp = tempfile.TemporaryDirectory(prefix="deploysheet-bench-mem-")
    os.environ["DEPLOYSHEET_CACHE_DIR"] = tmp.name
    if args.trace_only:
        run(args, trace=True)
        return 0
    print(f"reproduce: python bench/bench_memory.py --builds {args.builds} --variants {args.variants} "
          f"--trace-builds {args.trace_builds} --corpus {args.corpus}")
    print(f"python {sys.version.split()[0]}, {len(sources(args.corpus))} configs x {args.variants} variants")
    run(args, trace=False)
    if not args.no_trace:
        sys.stdout.flush()
        subprocess.run([sys.executable, __file__, "--trace-only", "--builds", str(args.trace_builds), "--variants",
                        str(args.variants), "--corpus", args.corpus], check=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
