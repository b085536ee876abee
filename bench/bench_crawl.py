"""Crawl benchmarks (issue 7). Prints each figure and the command that reproduces it.

    python bench/bench_crawl.py [--repos 320] [--latency-ms 0 25] [--concurrency 1 4 16]

1. crawl throughput (repos/s) against the fake Hub of tests/hubcorpus.py, run in its own process so
   that the server does not share this interpreter's GIL, at 1, 4 and 16 repos in flight; once with
   no added latency (loopback: the crawl's own CPU cost) and once with an emulated round trip per
   request (``--latency-ms``, a real Hub is tens of ms away). Each crawl starts from an empty database;
   4 Hub requests per repo (listing pages aside): model_info, HEAD and GET of config.json.
2. scoring throughput (models/s): :func:`scorer.crawl._score` alone on the same generated configs,
   one thread (what one core does; the Dask backend multiplies it by worker processes).
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
sys.path.insert(0, str(ROOT / "tests"))


def start_hub(repos: int, latency_ms: float) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, str(ROOT / "tests" / "hubcorpus.py"), "--repos", str(repos),
                             "--latency-ms", str(latency_ms)], stdout=subprocess.PIPE, text=True)
    endpoint = proc.stdout.readline().strip()
    if not endpoint.startswith("http"):
        proc.kill()
        raise SystemExit("the fake Hub did not start")
    return proc, endpoint


def crawl_rate(endpoint: str, concurrency: int) -> tuple[float, int, dict]:
    from scorer.crawl import CrawlOptions, CrawlStats, ThreadBackend, list_hub, plan, run_crawl, selected_from
    from scorer.crawldb import CrawlDB

    os.environ["HF_ENDPOINT"] = endpoint
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["HF_HOME"] = os.path.join(tmp, "hf")
        opts = CrawlOptions()
        with CrawlDB(os.path.join(tmp, "c.db")) as db:
            t0 = time.perf_counter()
            listed = list_hub(endpoint, None, task="text-generation")
            db.note_listed(listed)
            tasks, _ = plan(db, selected_from(listed, None), opts, opts.digest(), endpoint, None)
            stats = run_crawl(db, tasks, ThreadBackend(), concurrency, progress=False,
                              stats=CrawlStats(selected=len(tasks)))
            dt = time.perf_counter() - t0
    return stats.crawled / dt, stats.crawled, stats.statuses


def scoring_rate(n: int) -> tuple[float, int]:
    from fakehub import FakeRepo  # noqa: F401 - hubcorpus needs tests/ on the path
    from hubcorpus import _make

    from scorer.crawl import CrawlOptions, Task, _score
    from scorer.errors import DeploysheetError
    from scorer.sources import Provenance, RawModel

    opts = CrawlOptions()
    raws = []
    for repo, cfg, _kw, status in _make(n, 7):
        if status == "ok":
            raws.append(RawModel(config=cfg, provenance=Provenance(kind="hub", source=repo, repo_id=repo)))
    task = Task(repo_id="x/y", endpoint="http://127.0.0.1:9", options=opts, options_digest=opts.digest())
    _score(task, raws[0], "0" * 40, {"repo_id": "x/y", "options": ""}, {})  # imports, calibration
    t0 = time.perf_counter()
    for raw in raws:
        try:
            _score(task, raw, "0" * 40, {"repo_id": raw.provenance.repo_id, "options": ""}, {})
        except DeploysheetError:
            pass
    dt = time.perf_counter() - t0
    return len(raws) / dt, len(raws)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repos", type=int, default=320)
    ap.add_argument("--latency-ms", type=float, nargs="+", default=[0.0, 25.0])
    ap.add_argument("--concurrency", type=int, nargs="+", default=[1, 4, 16])
    a = ap.parse_args()
    os.environ.setdefault("DEPLOYSHEET_CACHE_DIR", tempfile.mkdtemp(prefix="ds-bench-cache-"))
    os.environ["HF_HUB_VERBOSITY"] = "error"
    print(f"# machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    cmd = f"python bench/bench_crawl.py --repos {a.repos} --latency-ms {' '.join(map(str, a.latency_ms))} " \
          f"--concurrency {' '.join(map(str, a.concurrency))}"
    print(f"# rerun: {cmd}")
    rate, n = scoring_rate(a.repos)
    print(f"scoring: {rate:.1f} models/s ({n} generated configs, one thread, sheets without recommendations)")
    for lat in a.latency_ms:
        proc, endpoint = start_hub(a.repos, lat)
        try:
            for c in a.concurrency:
                r, n, st = crawl_rate(endpoint, c)
                print(f"crawl: {r:6.1f} repos/s  concurrency {c:>2}  latency {lat:g} ms/request  "
                      f"({n} repos, {dict(sorted(st.items()))})")
        finally:
            proc.kill()


if __name__ == "__main__":
    main()
