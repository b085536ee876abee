"""Benchmark: leaderboard build time for 10,000 stored rows. Prints each figure and the command to reproduce it.

    python bench/bench_leaderboard.py [--rows 10000] [--sheet-rows 200] [--browser]

Builds a crawl database of ROWS rows (80% ok rows reusing the real sheets and costs of the bundled examples
under varied names, scores and prices, 20% error rows of every status; each with an older commit as history),
then times:

1. read + rank (``build_leaderboard``) and each renderer (Markdown, CSV, HTML), in process;
2. ``deploysheet leaderboard DB --out DIR`` in a fresh process (all three files, written all-or-nothing);
3. ``--sheets`` on a database of SHEET_ROWS rows (one HTML sheet rendered per ok row);
4. with ``--browser`` (chromium + chromedriver + selenium): loading index.html of the 10,000 rows in headless
   chromium, one header-click sort and one filter keystroke.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

EXAMPLES = ["llama-3.1-8b", "mixtral-8x7b", "qwen3-4b", "gemma-7b", "mistral-nemo-12b", "gpt-oss-20b", "llama-2-7b"]
STATUSES = ["gated", "missing_config", "invalid_json", "custom_code", "not_found", "error"]
LICENSES = ["apache-2.0", "mit", "llama3.1", "gemma", "other", "cc-by-nc-4.0"]


def make_big_db(path: Path, rows: int, gpus: tuple[str, ...] = ("H100-SXM", "L40S")) -> float:
    """A database of ``rows`` current rows (+ as many history rows); returns the seconds it took."""
    import sqlite3

    from lbdb import real_ok, sha_of

    from scorer.crawldb import CrawlDB

    templates = [real_ok(ex, gpus) for ex in EXAMPLES]
    rng = random.Random(0)
    t0 = time.perf_counter()
    db = CrawlDB(path)
    db.close()
    conn = sqlite3.connect(path)  # one transaction for the bulk load (CrawlDB.put commits per row, as a crawl does)
    res_rows, cost_rows, repo_rows = [], [], []
    for i in range(rows):
        repo = f"org{i % 97}/model-{i:05d}"
        sha = sha_of(repo)
        repo_rows.append((repo, sha, rng.randint(0, 5_000_000), rng.randint(0, 5000), "False",
                          rng.choice(LICENSES), "2026-01-01T00:00:00+00:00"))
        if i % 5 == 4:
            status = STATUSES[i % len(STATUSES)]
            res_rows.append((repo, sha, status, f"{repo}: {status.replace('_', ' ')} (synthetic)", *[None] * 13,
                             "bench", None, "2026-01-01T00:00:00+00:00"))
            continue
        t = templates[i % len(templates)]
        score = round(rng.uniform(20, 95), 1)
        grade = "A" if score >= 85 else "B" if score >= 70 else "C" if score >= 55 else "D" if score >= 40 else "F"
        scale = rng.uniform(0.5, 2.0)
        for s, sc in ((sha, score), (sha_of(repo, "old"), 50.0)):  # current commit + one older commit
            res_rows.append((repo, s, "ok", None, t.model_type, t.family, t.kind, t.params_total, t.params_active,
                             t.precision, sc, grade, t.kv_bytes_per_token, 0, "False", rng.choice(LICENSES), 1,
                             "bench", t.sheet_json, "2026-01-01T00:00:00+00:00"))
            for c in t.costs:
                usd = None if c.usd_per_1m_output_tokens is None else c.usd_per_1m_output_tokens * scale
                cost_rows.append((repo, s, c.gpu, c.regime, c.layout, c.num_gpus, c.concurrency, usd,
                                  c.output_tokens_per_s_per_gpu, c.tokens_per_s_per_user, c.ttft_ms, c.tpot_ms))
    with conn:
        conn.executemany("INSERT INTO repos VALUES (?,?,?,?,?,?,?)", repo_rows)
        conn.executemany("INSERT INTO results VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", res_rows)
        conn.executemany("INSERT INTO costs VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", cost_rows)
    conn.close()
    return time.perf_counter() - t0


def best_of(fn, n: int = 3) -> tuple[float, object]:
    times, out = [], None
    for _ in range(n):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), out


def cli(*args: str) -> float:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    t0 = time.perf_counter()
    res = subprocess.run([sys.executable, "-m", "scorer.cli", "leaderboard", *args], capture_output=True, text=True,
                         check=False, env=env, cwd=ROOT)
    secs = time.perf_counter() - t0
    if res.returncode:
        sys.exit(f"leaderboard failed: {res.stderr.strip()}")
    return secs


def browser(index: Path) -> dict[str, float] | None:
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        return None
    if not (os.path.exists("/usr/bin/chromium") and os.path.exists("/usr/bin/chromedriver")):
        return None
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    with tempfile.TemporaryDirectory() as prof:
        for f in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
                  "--no-first-run", "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", f"--user-data-dir={prof}"):
            opts.add_argument(f)
        drv = webdriver.Chrome(service=Service("/usr/bin/chromedriver", log_output=os.devnull), options=opts)
        try:
            t0 = time.perf_counter()
            drv.get(index.as_uri())
            load = time.perf_counter() - t0
            sort = drv.execute_script("""
                const b = Array.from(document.querySelectorAll('#lb th button')).find(x => x.textContent === '$/1M tokens');
                const t0 = performance.now(); b.click(); return performance.now() - t0;""")
            filt = drv.execute_script("""
                const q = document.getElementById('q'); q.value = 'org1';
                const t0 = performance.now(); q.dispatchEvent(new Event('input')); return performance.now() - t0;""")
        finally:
            drv.quit()
    return {"load_s": load, "sort_ms": sort, "filter_ms": filt}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=10_000)
    ap.add_argument("--sheet-rows", type=int, default=200)
    ap.add_argument("--browser", action="store_true", help="also time the page in headless chromium")
    args = ap.parse_args()

    from scorer.leaderboard import build_leaderboard
    from scorer.leaderboard_output import render_csv, render_html, render_markdown

    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}")
    print(f"reproduce: python bench/bench_leaderboard.py --rows {args.rows} --sheet-rows {args.sheet_rows}"
          f"{' --browser' if args.browser else ''}")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        db = tmp / "crawl.sqlite"
        secs = make_big_db(db, args.rows)
        print(f"database: {args.rows:,} current rows (+{args.rows * 4 // 5:,} history rows), "
              f"{db.stat().st_size / 2**20:,.1f} MiB, made in {secs:.2f} s")
        t_read, lb = best_of(lambda: build_leaderboard(db))
        t_md, md = best_of(lambda: render_markdown(lb))
        t_csv, csv_text = best_of(lambda: render_csv(lb))
        t_html, html = best_of(lambda: render_html(lb))
        print(f"in process (best of 3): read + rank {t_read:.2f} s ({len(lb.entries):,} scored, "
              f"{len(lb.not_scored):,} not scored); Markdown {t_md:.2f} s ({len(md) / 2**20:.1f} MiB); "
              f"CSV {t_csv:.2f} s ({len(csv_text) / 2**20:.1f} MiB); HTML {t_html:.2f} s ({len(html) / 2**20:.1f} MiB);"
              f" total {t_read + t_md + t_csv + t_html:.2f} s")
        wall = min(cli(str(db), "--out", str(tmp / f"site{i}")) for i in range(2))
        print(f"CLI: deploysheet leaderboard DB --out DIR, {args.rows:,} rows: {wall:.2f} s wall (fresh process, best "
              "of 2; md + csv + html, no sheets)")
        small = tmp / "small.sqlite"
        make_big_db(small, args.sheet_rows)
        wall_s = cli(str(small), "--out", str(tmp / "sheets-site"), "--sheets")
        n_sheets = len(list((tmp / "sheets-site" / "sheets").iterdir()))
        wall_0 = cli(str(small), "--out", str(tmp / "nosheets-site"))
        per = (wall_s - wall_0) / max(n_sheets, 1)
        print(f"CLI: --sheets on {args.sheet_rows:,} rows: {wall_s:.2f} s wall, {n_sheets} sheets rendered "
              f"(~{per * 1000:.0f} ms per sheet; {args.rows * 4 // 5:,} sheets would take ~{per * args.rows * 0.8:.0f} s)")
        from lbdb import real_ok
        blob = real_ok("llama-3.1-8b", ("H100-SXM", "L40S")).sheet_json
        print(f"stored sheet: {len(zlib.decompress(blob)) / 1024:.0f} KiB JSON, {len(blob) / 1024:.0f} KiB zlib per "
              "ok row")
        if args.browser:
            b = browser(tmp / "site0" / "index.html")
            if b is None:
                print("browser: chromium, chromedriver or selenium not installed; skipped")
            else:
                print(f"browser (headless chromium, {len(lb.entries):,} rows): load {b['load_s']:.2f} s, sort by "
                      f"$/1M {b['sort_ms']:.0f} ms, filter {b['filter_ms']:.0f} ms")


if __name__ == "__main__":
    main()
