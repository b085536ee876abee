"""`deploysheet crawl` against a fake Hub on loopback holding 320 generated repos (tests/hubcorpus.py).

The real huggingface_hub client talks to the fake through HF_ENDPOINT. "Fetched" means a successful
GET of a repo's ``config.json`` (the fake logs every request); statuses are known by construction.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter

import pytest
from pytest_httpserver import HTTPServer

from conftest import ROOT

N_REPOS = 320


@pytest.fixture
def hub(monkeypatch, tmp_path):
    from fakehub import FakeHub
    from hubcorpus import populate

    import logging
    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # the server thread logs every request otherwise
    server = HTTPServer(threaded=True)  # concurrent requests really overlap
    server.start()
    fake = FakeHub(server)
    fake.expected = populate(fake, N_REPOS)
    monkeypatch.setenv("HF_ENDPOINT", fake.endpoint)
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf_home"))
    monkeypatch.setenv("HF_HUB_DISABLE_TELEMETRY", "1")
    monkeypatch.delenv("HF_TOKEN", raising=False)
    yield fake
    server.clear()
    if server.is_running():
        server.stop()


def crawl(db, *extra: str) -> int:
    from scorer.cli import main
    return main(["crawl", "--db", str(db), "--task", "text-generation", "--no-progress", *extra])


def config_gets(hub, since: int = 0) -> Counter:
    """repo_id -> GETs of its config.json (HEADs not counted; throttled answers are counted too)."""
    out: Counter = Counter()
    for method, path in hub.requests[since:]:
        if method == "GET" and path.endswith("/config.json") and "/resolve/" in path:
            out[path.split("/resolve/")[0].lstrip("/")] += 1
    return out


def per_repo_requests(hub, since: int = 0) -> list[tuple[str, str]]:
    return [(m, p) for m, p in hub.requests[since:] if not p.startswith(("/api/models?", "/api/agent-harnesses"))
            and p != "/api/models"]


def rows(db) -> list[tuple]:
    with sqlite3.connect(db) as c:
        return c.execute("SELECT repo_id, sha, status FROM results ORDER BY repo_id, sha").fetchall()


def current_status(db) -> dict[str, str]:
    with sqlite3.connect(db) as c:
        return dict(c.execute("SELECT r.repo_id, r.status FROM results r JOIN repos p ON p.repo_id = r.repo_id "
                              "AND p.sha = r.sha").fetchall())


def test_first_crawl_then_idempotent_rerun(hub, tmp_path, capsys):
    db = tmp_path / "crawl.db"
    assert len(hub.repos) >= 300
    assert crawl(db, "--concurrency", "8") == 0
    # every repo exactly once, with the status its construction implies
    got = rows(db)
    assert len(got) == N_REPOS == len({r[0] for r in got})
    assert current_status(db) == hub.expected
    assert {r[1] for r in got if r[0] in hub.repos} <= {repo.sha for repo in hub.repos.values()}
    # each config.json fetched once; a gated repo's HEAD is refused (403) and a missing config is never asked for
    gets = config_gets(hub)
    assert all(gets[r] == 1 for r, s in hub.expected.items() if s not in ("missing_config", "gated")), gets
    assert not any(gets[r] for r, s in hub.expected.items() if s in ("missing_config", "gated"))
    err = capsys.readouterr().err
    assert f"crawled {N_REPOS} of {N_REPOS}" in err and "0 unchanged" in err
    # errors are recorded one line each, never fatal
    with sqlite3.connect(db) as c:
        errs = c.execute("SELECT status, error FROM results WHERE status != 'ok'").fetchall()
        ok = c.execute("SELECT COUNT(*), COUNT(sheet), MIN(score) FROM results WHERE status = 'ok'").fetchone()
        wal = c.execute("PRAGMA journal_mode").fetchone()[0]
    assert wal == "wal"
    assert errs and all(e and "\n" not in e for _, e in errs)
    assert ok[0] == ok[1] == sum(1 for s in hub.expected.values() if s == "ok") and ok[2] > 0

    # rerun: the listing gives every commit, all are done -> not one per-repo request
    mark = len(hub.requests)
    assert crawl(db, "--concurrency", "8") == 0
    assert per_repo_requests(hub, mark) == []
    assert f"{N_REPOS} unchanged, 0 configs fetched" in capsys.readouterr().err
    assert len(rows(db)) == N_REPOS

    # new commits on some repos: only those are fetched; history is kept, the current commit wins
    changed = [r for r, s in hub.expected.items() if s == "ok"][:9]
    import json
    for r in changed:
        cfg = json.loads(hub.repos[r].files["config.json"])
        cfg["max_position_embeddings"] = 65536
        hub.push(r, {"config.json": json.dumps(cfg).encode()})
    mark = len(hub.requests)
    assert crawl(db, "--concurrency", "4") == 0
    assert set(config_gets(hub, mark)) == set(changed)
    assert all(n == 1 for n in config_gets(hub, mark).values())
    assert len(rows(db)) == N_REPOS + len(changed)
    with sqlite3.connect(db) as c:
        for r in changed:
            cur = c.execute("SELECT p.sha FROM repos p WHERE repo_id=?", (r,)).fetchone()[0]
            assert cur == hub.repos[r].sha
    assert current_status(db) == hub.expected


def test_kill_then_resume_does_each_repo_once(hub, tmp_path):
    db = tmp_path / "crawl.db"
    env = dict(os.environ, PYTHONPATH=str(ROOT), DEPLOYSHEET_DEBUG="")
    proc = subprocess.Popen([sys.executable, "-m", "scorer", "crawl", "--db", str(db), "--task", "text-generation",
                             "--concurrency", "2", "--no-progress"], env=env, cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    done = 0
    while time.monotonic() < deadline and proc.poll() is None:
        if db.exists():
            try:
                with sqlite3.connect(db, timeout=1) as c:
                    done = c.execute("SELECT COUNT(*) FROM results").fetchone()[0]
            except sqlite3.OperationalError:
                done = 0
            if done >= 60:
                break
        time.sleep(0.02)
    assert proc.poll() is None, "the crawl finished before it could be killed: " + proc.stderr.read().decode()[-300:]
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)
    before = {r[0] for r in rows(db)}
    assert 60 <= len(before) < N_REPOS
    mark = len(hub.requests)
    assert crawl(db, "--concurrency", "8") == 0
    after = rows(db)
    assert len(after) == N_REPOS == len({r[0] for r in after})  # every repo exactly once
    assert current_status(db) == hub.expected
    refetched = set(config_gets(hub, mark))
    assert not (refetched & before)  # nothing finished before the kill was fetched again


def test_concurrent_429s_are_retried(hub, tmp_path, capsys):
    db = tmp_path / "crawl.db"
    hub.throttle_every = 3  # a third of all requests are answered 429 with Retry-After: 0
    assert crawl(db, "--concurrency", "16") == 0
    assert hub.throttled > 100
    assert current_status(db) == hub.expected
    assert len(rows(db)) == N_REPOS
    assert f"crawled {N_REPOS} of {N_REPOS}" in capsys.readouterr().err


def test_persistent_5xx_is_a_transient_error_retried_next_run(hub, tmp_path, capsys):
    db = tmp_path / "crawl.db"
    victim = next(r for r, s in hub.expected.items() if s == "ok")
    hub.fail_paths[f"/{victim}/resolve/"] = 503  # every read of its files fails, retries included
    assert crawl(db, "--concurrency", "8") == 0
    st = current_status(db)
    assert st[victim] == "error"
    assert {r: s for r, s in st.items() if r != victim} == {r: s for r, s in hub.expected.items() if r != victim}
    capsys.readouterr()
    # the Hub recovers: the next run retries only the failed repo
    hub.fail_paths.clear()
    mark = len(hub.requests)
    assert crawl(db, "--concurrency", "8") == 0
    assert set(config_gets(hub, mark)) == {victim}
    assert current_status(db) == hub.expected


def test_ids_file_resolves_commits_and_skips_unchanged(hub, tmp_path, capsys):
    db = tmp_path / "crawl.db"
    good = [r for r, s in hub.expected.items() if s == "ok"][:4]
    ids = tmp_path / "ids.txt"
    ids.write_text("# models to compare\n" + "\n".join(good) + f"\n{good[0]}\n\nnobody/nothing-here  # deleted\n")
    from scorer.cli import main
    assert main(["crawl", "--db", str(db), "--ids", str(ids), "--progress"]) == 0
    assert "repo/s" in capsys.readouterr().err  # tqdm's bar: count, rate and ETA
    st = current_status(db)
    assert {r: st[r] for r in good} == dict.fromkeys(good, "ok")
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT status FROM results WHERE repo_id='nobody/nothing-here'").fetchone()[0] == "not_found"
        # the missing repo is current (so the leaderboard lists it as not scored); listed metadata came with the ids
        assert c.execute("SELECT sha FROM repos WHERE repo_id='nobody/nothing-here'").fetchone()[0] == ""
        got = dict(c.execute("SELECT repo_id, downloads FROM repos").fetchall())
        assert all(got[r] == hub.repos[r].downloads for r in good)
        lic = dict(c.execute("SELECT repo_id, license FROM results").fetchall())
        assert all(lic[r] and f"license:{lic[r]}" in hub.repos[r].tags for r in good)
    capsys.readouterr()
    mark = len(hub.requests)
    assert main(["crawl", "--db", str(db), "--ids", str(ids), "--no-progress"]) == 0
    # one model_info per repo to learn its commit; no config fetched again (not_found is final too)
    assert config_gets(hub, mark) == Counter()
    assert "5 unchanged" in capsys.readouterr().err  # a repo still not found is not new either
    assert sum(1 for m, p in per_repo_requests(hub, mark) if p.startswith("/api/models/")) == len(good) + 1


@pytest.mark.parametrize("args, needle", [
    ([], "say which models"),
    (["--ids", "x.txt", "--task", "text-generation"], "not both"),
    (["--ids", "BADIDS"], "line 2 is not a Hub repo id"),
    (["--task", "t", "--gpu", "NOPE-9000"], "NOPE-9000"),
    (["--task", "t", "--concurrency", "0"], "--concurrency"),
])
def test_bad_input_is_one_line_exit_2(tmp_path, capsys, args, needle, monkeypatch):
    from scorer.cli import main
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")  # nothing may be contacted
    bad = tmp_path / "ids.txt"
    bad.write_text("org/fine\nnot a repo id!\n")
    args = [str(bad) if a == "BADIDS" else a for a in args]
    assert main(["crawl", "--db", str(tmp_path / "x.db"), *args]) == 2
    err = capsys.readouterr().err.strip()
    assert needle in err and "\n" not in err and "Traceback" not in err


def test_db_that_is_not_a_database(tmp_path, capsys):
    from scorer.cli import main
    bad = tmp_path / "notes.db"
    bad.write_text("this is not sqlite, but a long enough text file to have a header " * 10)
    assert main(["crawl", "--db", str(bad), "--ids", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "not a usable SQLite database" in err or "not a Hub repo id" in err
    assert main(["crawl", "--db", str(tmp_path), "--task", "x"]) == 2
    assert "is a folder" in capsys.readouterr().err


def test_listing_failure_is_exit_3(hub, tmp_path, capsys):
    hub.fail_paths["/api/models"] = 401  # a refused token (5xx are retried with backoff for ~half a minute)
    assert crawl(tmp_path / "x.db") == 3
    err = capsys.readouterr().err.strip()
    assert err.startswith("deploysheet: error:") and "\n" not in err


@pytest.mark.parametrize("body", [b"<html>busy</html>", b'{"not": "a list"}', b'[{"sha": "x"}]', b"[{"])
def test_malformed_listing_is_exit_3(hub, tmp_path, capsys, body):
    hub.list_override = body
    assert crawl(tmp_path / "x.db") == 3
    err = capsys.readouterr().err.strip()
    assert "malformed" in err and "\n" not in err and "Traceback" not in err


def test_listing_that_loops_is_exit_3(hub, tmp_path, capsys):
    hub.list_loop = True  # page 1 links to itself: huggingface_hub would follow it for ever
    assert crawl(tmp_path / "x.db") == 3
    assert "repeating itself" in capsys.readouterr().err


def test_ids_file_with_one_repo_at_two_revisions(tmp_path, capsys):
    from scorer.cli import main
    ids = tmp_path / "ids.txt"
    ids.write_text("org/a\norg/a@main\n")
    assert main(["crawl", "--db", str(tmp_path / "x.db"), "--ids", str(ids)]) == 2
    assert "line 2 lists org/a again" in capsys.readouterr().err


@pytest.mark.parametrize("db", [":memory:", "OTHER", "DIR"])
def test_databases_that_cannot_hold_a_crawl(tmp_path, capsys, db):
    from scorer.cli import main
    if db == "OTHER":  # another application's SQLite file: refused before anything is written to it
        other = tmp_path / "app.db"
        with sqlite3.connect(other) as c:
            c.execute("CREATE TABLE results (repo_id, sha, status, options)")
        before = other.read_bytes()
        db = str(other)
    elif db == "DIR":
        db = str(tmp_path)
    ids = tmp_path / "ids.txt"
    ids.write_text("org/a\n")
    assert main(["crawl", "--db", db, "--ids", str(ids)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("deploysheet: error:") and "\n" not in err
    if db.endswith("app.db"):
        assert "not a deploysheet crawl database" in err and other.read_bytes() == before


def test_dask_local_cluster_gives_the_same_results(hub, tmp_path, capsys):
    distributed = pytest.importorskip("distributed")
    db_threads, db_dask = tmp_path / "t.db", tmp_path / "d.db"
    assert crawl(db_threads, "--author", "org3") == 0
    with distributed.LocalCluster(n_workers=2, threads_per_worker=2, processes=True, dashboard_address=None) as lc:
        assert crawl(db_dask, "--author", "org3", "--dask", lc.scheduler_address, "--concurrency", "8") == 0
        # the workers are other processes: their Hub requests reached the fake through the task's endpoint
    a, b = current_status(db_threads), current_status(db_dask)
    assert a == b and len(a) == sum(1 for r in hub.expected if r.startswith("org3/"))
    with sqlite3.connect(db_threads) as c1, sqlite3.connect(db_dask) as c2:
        q = "SELECT repo_id, sha, score, grade, params_total, kv_bytes_per_token FROM results ORDER BY repo_id"
        assert c1.execute(q).fetchall() == c2.execute(q).fetchall()


def test_ctrl_c_stops_promptly_without_a_traceback(hub, tmp_path):
    """SIGINT while every request is in flight on a slow Hub: the crawl stops at once (it does not wait for the
    requests), says how to resume, exits 130."""
    hub.latency_s = 8.0
    ids = tmp_path / "ids.txt"
    ids.write_text("\n".join(list(hub.expected)[:4]) + "\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    # a terminal's Ctrl-C: SIGINT at its default disposition in the child. An earlier test of the session can leave
    # SIGINT ignored in this process (a child inherits SIG_IGN, and Python then installs no KeyboardInterrupt
    # handler: the crawl ran on, as under nohup); found by a faulthandler dump of the hung child
    proc = subprocess.Popen([sys.executable, "-m", "scorer", "crawl", "--db", str(tmp_path / "c.db"), "--ids",
                             str(ids), "--no-progress"], env=env, cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not any(p.startswith("/api/models/") for _, p in hub.requests):
        time.sleep(0.05)  # the first model_info is in flight
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert time.monotonic() - t0 < 5.0
    assert proc.returncode == 130
    assert "Traceback" not in err and "run the same command again to resume" in err
    hub.latency_s = 0.0


def test_another_applications_meta_table_is_not_ours(tmp_path, capsys):
    from scorer.cli import main
    other = tmp_path / "history.db"
    with sqlite3.connect(other) as c:
        c.execute("CREATE TABLE meta (key TEXT, value TEXT)")
        c.execute("INSERT INTO meta VALUES ('version', '7')")
        c.execute("CREATE TABLE urls (x)")
    before = other.read_bytes()
    ids = tmp_path / "ids.txt"
    ids.write_text("org/a\n")
    assert main(["crawl", "--db", str(other), "--ids", str(ids)]) == 2
    assert "not a deploysheet crawl database" in capsys.readouterr().err
    assert other.read_bytes() == before


def test_ids_file_with_a_bom_and_comments(tmp_path):
    from scorer.crawl import read_ids_file
    f = tmp_path / "ids.txt"
    f.write_bytes("\ufefforg/a  # first\r\n\r\n# a comment\r\norg/b@v1.0\r\norg/a\r\n".encode("utf-8"))
    assert read_ids_file(str(f)) == [("org/a", None), ("org/b", "v1.0")]


def test_a_crawl_that_fails_before_its_first_result_leaves_no_database(tmp_path, monkeypatch, capsys):
    """Issue 14: an unreachable Hub made `crawl` exit 3 and leave an empty out.db behind; an existing database
    is kept. (The listing fails at once here: a real unreachable endpoint spends ~24 s in retries.)"""
    import scorer.crawl
    from scorer.cli import main
    from scorer.errors import HubError

    def unreachable(*a, **k):
        raise HubError("cannot reach the Hub at http://127.0.0.1:9 for the model listing: ConnectError")

    monkeypatch.setattr(scorer.crawl, "list_hub", unreachable)
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")  # nothing beyond loopback
    db = tmp_path / "out.db"
    assert main(["crawl", "--db", str(db), "--task", "text-generation", "--limit", "3", "--no-progress"]) == 3
    assert "cannot reach the Hub" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())
    ids = tmp_path / "ids.txt"
    ids.write_text("org/model\n")
    assert main(["crawl", "--db", str(db), "--ids", str(ids), "--no-progress"]) in (0, 3)  # creates the database
    capsys.readouterr()
    assert db.exists()
    assert main(["crawl", "--db", str(db), "--task", "text-generation", "--limit", "3", "--no-progress"]) == 3
    capsys.readouterr()
    assert db.exists()  # the user's database stays
