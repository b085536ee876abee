"""The webhook server end to end: real HTTP to a uvicorn server on loopback, which posts to a fake Hub."""

from __future__ import annotations

import concurrent.futures
import json
import socket
import threading
import time

import pytest
import requests

from bot.hub import HubClient
from bot.marker import find_marker
from bot.queue import Queue
from bot.server import Settings, classify, create_app

CFG = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 1024,
       "intermediate_size": 2816, "num_hidden_layers": 4, "num_attention_heads": 8, "num_key_value_heads": 2,
       "vocab_size": 32000, "max_position_embeddings": 4096}
SECRET = "s3cret-value"


def payload(repo: str, sha: str, old: str | None = None, scope: str = "repo.content", typ: str = "model") -> dict:
    """A Hub webhook (version 3) for a push to main, as documented in hub-docs/webhooks.md."""
    return {"event": {"action": "update", "scope": scope},
            "repo": {"type": typ, "name": repo, "id": "x", "private": False, "headSha": sha,
                     "url": {"web": f"https://huggingface.co/{repo}"}},
            "updatedRefs": [{"ref": "refs/heads/main", "oldSha": old, "newSha": sha}],
            "webhook": {"id": "w", "version": 3}}


class Server:
    def __init__(self, settings: Settings):
        import uvicorn
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.app = create_app(settings, client_factory=lambda: HubClient(sleep=lambda s: None))
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self):
        self.thread.start()
        for _ in range(200):
            if self.server.started:
                break
            time.sleep(0.05)
        return self

    def __exit__(self, *exc):
        self.server.should_exit = True
        self.thread.join(timeout=15)

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def post(self, body, secret=SECRET, raw: bytes | None = None):
        headers = {} if secret is None else {"X-Webhook-Secret": secret}
        return requests.post(self.url + "/webhook", data=raw if raw is not None else json.dumps(body),
                             headers=headers, timeout=10)

    def wait_idle(self, timeout=30):
        queue = self.app.state.queue
        end = time.time() + timeout
        while time.time() < end:
            if all(j["status"] not in ("pending", "running") for j in queue.jobs()):
                return queue.jobs()
            time.sleep(0.1)
        raise AssertionError(f"queue not drained: {queue.jobs()}")


@pytest.fixture
def hub(fakehub, monkeypatch):
    monkeypatch.setenv("HF_TOKEN", "hf_fake_token")
    return fakehub


def settings(tmp_path, **kw):
    kw = {"db": str(tmp_path / "q.sqlite"), "allow": ["org/*"], **kw}
    return Settings(secret=SECRET, poll_s=0.05, **kw)


def test_classify_filters_events():
    assert classify(payload("org/m", "a" * 40))[0] == "queue"
    assert classify(payload("org/m", "a" * 40, typ="dataset"))[0] == "ignore"
    assert classify(payload("org/m", "a" * 40, scope="discussion"))[0] == "ignore"
    p = payload("org/m", "a" * 40)
    p["updatedRefs"] = [{"ref": "refs/pr/3", "oldSha": None, "newSha": "b" * 40}]
    assert classify(p)[0] == "ignore"
    p = payload("org/m", "a" * 40)
    p["repo"]["private"] = True
    assert classify(p) == ("ignore", "private repo", None, None)
    assert classify([1, 2])[0] == "ignore"


def test_secret_and_malformed_payloads(hub, tmp_path):
    with Server(settings(tmp_path)) as srv:
        assert srv.post(payload("org/m", "a" * 40), secret=None).status_code == 401
        assert srv.post(payload("org/m", "a" * 40), secret="wrong").status_code == 403
        assert srv.post(None, raw=b"{not json").status_code == 400
        r = srv.post({"event": "weird"})
        assert r.status_code == 200 and "ignored" in r.json()
        assert srv.post(None, raw=b"[" * 200000 + b"]" * 200000).status_code == 400  # too deep to parse
        assert srv.post(None, raw=b" " * 1_000_001).status_code == 413
        for bad in (payload("org/../../etc/passwd", "a" * 40), payload("org/mo del", "a" * 40),
                    payload("org/m", "g" * 40), payload("org/m", "A" * 40)):
            assert srv.post(bad).status_code == 200  # ignored, not queued
        assert srv.app.state.queue.jobs() == []
        assert requests.get(srv.url + "/healthz", timeout=5).json()["ok"] is True


def test_push_posts_one_discussion_and_replays_do_not_duplicate(hub, tmp_path):
    repo = hub.add("org/model", CFG)
    with Server(settings(tmp_path)) as srv:
        body = payload("org/model", repo.sha)
        with concurrent.futures.ThreadPoolExecutor(16) as ex:
            codes = list(ex.map(lambda _: srv.post(body).status_code, range(100)))
        assert set(codes) == {202}
        jobs = srv.wait_idle()
        assert [j["status"] for j in jobs] == ["done"]
        assert len(hub.discussions["org/model"]) == 1
        # a new commit that changes config.json: exactly one edit
        new = hub.add("org/model", dict(CFG, max_position_embeddings=8192))
        with concurrent.futures.ThreadPoolExecutor(16) as ex:
            list(ex.map(lambda _: srv.post(payload("org/model", new.sha, repo.sha)), range(100)))
        srv.wait_idle()
        edits = [p for m, p in hub.requests if m == "POST" and p.endswith("/edit")]
        assert len(edits) == 1 and len(hub.discussions["org/model"]) == 1


def test_not_allowed_and_unreadable_repos_are_skipped(hub, tmp_path):
    hub.add("other/model", CFG)
    hub.add("org/gated", CFG, gated=True)
    with Server(settings(tmp_path)) as srv:
        srv.post(payload("other/model", hub.repos["other/model"].sha))
        srv.post(payload("org/gated", hub.repos["org/gated"].sha))
        jobs = {j["repo"]: j for j in srv.wait_idle()}
    assert jobs["other/model"]["status"] == "skipped" and "allow" in jobs["other/model"]["result"]
    assert jobs["org/gated"]["status"] == "skipped" and "gated" in jobs["org/gated"]["result"]
    assert hub.writes() == []


def test_posting_budget_holds_work(hub, tmp_path):
    repo = hub.add("org/model", CFG)
    st = settings(tmp_path, posts_per_hour=1)
    Queue(st.db).record_post("org/earlier", "created")
    with Server(st) as srv:
        srv.post(payload("org/model", repo.sha))
        time.sleep(1.0)
        jobs = srv.app.state.queue.jobs()
    assert jobs[0]["status"] == "pending" and "budget" in jobs[0]["result"]
    assert "org/model" not in hub.discussions


def test_restart_with_queued_work_does_it_once(hub, tmp_path):
    repo = hub.add("org/model", CFG)
    st = settings(tmp_path)
    q = Queue(st.db)
    q.enqueue("org/model", repo.sha)
    job = q.claim()  # a previous process claimed it and died
    assert job is not None
    with Server(st) as srv:
        jobs = srv.wait_idle()
    assert [j["status"] for j in jobs] == ["done"] and len(hub.discussions["org/model"]) == 1
    with Server(st) as srv:  # a second restart finds nothing left to do
        time.sleep(0.5)
        assert [j["status"] for j in srv.app.state.queue.jobs()] == ["done"]
    assert len(hub.discussions["org/model"]) == 1


def test_recorded_payload_end_to_end(hub, tmp_path):
    """A payload shaped as the Hub sends it (hub-docs/webhooks.md, version 3) drives a post end to end."""
    from pathlib import Path
    repo = hub.add("org/model", CFG)
    raw = (Path(__file__).parent / "data" / "webhook_push.json").read_text().replace("__SHA__", repo.sha)
    with Server(settings(tmp_path)) as srv:
        r = srv.post(None, raw=raw.encode())
        assert r.status_code == 202 and r.json()["sha"] == repo.sha
        assert [j["status"] for j in srv.wait_idle()] == ["done"]
    body = hub.discussions["org/model"][0]["events"][0]["data"]["latest"]["raw"]
    assert "# Deployment sheet — org/model" in body


def test_server_started_as_the_readme_says(hub, tmp_path):
    """`WEBHOOK_SECRET=... HF_TOKEN=... deploysheet hub serve --allow 'org/*'` in a child process handles a
    recorded Hub payload end to end against the fake Hub, then stops cleanly on SIGTERM."""
    import os
    import shutil
    import signal
    import subprocess
    import sys
    from pathlib import Path

    repo = hub.add("org/model", CFG)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    exe = shutil.which("deploysheet", path=str(Path(sys.executable).parent))
    cmd = [exe] if exe else [sys.executable, "-m", "scorer"]
    env = dict(os.environ, WEBHOOK_SECRET=SECRET, HF_TOKEN="hf_fake_token")
    proc = subprocess.Popen([*cmd, "hub", "serve", "--allow", "org/*", "--host", "127.0.0.1", "--port", str(port),
                             "--db", str(tmp_path / "q.sqlite")], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        url = f"http://127.0.0.1:{port}"
        for _ in range(300):
            try:
                requests.get(url + "/healthz", timeout=1)
                break
            except requests.ConnectionError:
                time.sleep(0.1)
        raw = (Path(__file__).parent / "data" / "webhook_push.json").read_text().replace("__SHA__", repo.sha)
        r = requests.post(url + "/webhook", data=raw.encode(), headers={"X-Webhook-Secret": SECRET}, timeout=10)
        assert r.status_code == 202
        assert requests.post(url + "/webhook", data=raw.encode(), timeout=10).status_code == 401
        end = time.time() + 60
        while time.time() < end and not hub.discussions.get("org/model"):
            time.sleep(0.2)
        assert len(hub.discussions["org/model"]) == 1
        body = hub.discussions["org/model"][0]["events"][0]["data"]["latest"]["raw"]
        assert "# Deployment sheet — org/model" in body
        # a sender that hangs up mid-body (breaker trial: a traceback in the log) gets one log line
        with socket.create_connection(("127.0.0.1", port)) as s:
            s.sendall(b"POST /webhook HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Webhook-Secret: " + SECRET.encode()
                      + b"\r\nContent-Length: 1000\r\n\r\n{\"")
        time.sleep(1.0)
        assert requests.get(url + "/healthz", timeout=5).status_code == 200
    finally:
        proc.send_signal(signal.SIGTERM)
        out = proc.communicate(timeout=20)[0]
    assert "Traceback" not in out and "client disconnected after 2 of 1000 bytes" in out, out[-2000:]
    # uvicorn shuts down gracefully, then re-raises the captured SIGTERM (exit status -15)
    assert proc.returncode in (0, -signal.SIGTERM) and "Finished server process" in out, out
    assert "hf_fake_token" not in out and SECRET not in out  # secrets never logged


def test_pr_mode_server_opens_one_card_pr(hub, tmp_path):
    repo = hub.add("org/model", CFG, more_files={"README.md": b"# Card\n"})
    with Server(settings(tmp_path, mode="pr")) as srv:
        for _ in range(3):
            assert srv.post(payload("org/model", repo.sha)).status_code == 202
        srv.wait_idle()
    prs = hub.discussions["org/model"]
    assert len(prs) == 1 and prs[0]["isPullRequest"]
    assert hub.pr_files[("org/model", 1)]["README.md"].startswith(b"# Card\n\n<!-- deploysheet:start -->")


def test_skipped_commit_is_queued_again_by_a_new_delivery(hub, tmp_path):
    repo = hub.add("org/model", CFG)
    db = str(tmp_path / "q.sqlite")
    with Server(settings(tmp_path, allow=[], db=db)) as srv:  # nothing allowed yet
        assert srv.post(payload("org/model", repo.sha)).status_code == 202
        assert [j["status"] for j in srv.wait_idle()] == ["skipped"]
    with Server(settings(tmp_path, allow=["org/*"], db=db)) as srv:  # the operator fixes the allow-list
        assert srv.post(payload("org/model", repo.sha)).json()["queued"] is True
        assert [j["status"] for j in srv.wait_idle()] == ["done"]
        assert srv.post(payload("org/model", repo.sha)).json()["queued"] is False  # done stays done
    assert len(hub.discussions["org/model"]) == 1


def test_serve_refuses_to_start_broken(hub, tmp_path, monkeypatch, capsys):
    from scorer.cli import main
    monkeypatch.setenv("WEBHOOK_SECRET", SECRET)
    monkeypatch.delenv("HF_TOKEN")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    assert main(["hub", "serve", "--db", str(tmp_path / "q.sqlite")]) == 2
    assert "no Hugging Face token" in capsys.readouterr().err
    monkeypatch.setenv("HF_TOKEN", "hf_fake_token")
    (tmp_path / "file").write_text("")
    assert main(["hub", "serve", "--db", str(tmp_path / "file" / "q.sqlite")]) == 2
    assert "cannot open the queue database" in capsys.readouterr().err
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        assert main(["hub", "serve", "--host", "127.0.0.1", "--port", str(port), "--db",
                     str(tmp_path / "q.sqlite")]) == 2
    err = capsys.readouterr().err
    assert f"cannot listen on 127.0.0.1:{port}" in err and "Traceback" not in err
    assert main(["hub", "serve", "--port", "70000"]) == 2
    assert "not a TCP port" in capsys.readouterr().err


def test_the_readme_webhook_payload_is_queued():
    """Issue 14: the README shows the payload `hub serve` expects; this is that block, classified by the server."""
    import json as _json
    import re as _re
    from pathlib import Path as _Path

    from bot.server import classify
    readme = (_Path(__file__).resolve().parent.parent / "README.md").read_text()
    block = _re.search(r"The payload `hub serve` acts on.*?```json\n(.*?)```", readme, _re.S).group(1)
    payload = _json.loads(block)
    verdict, repo, sha, old = classify(payload)
    assert (verdict, repo) == ("queue", "my-org/my-model")
    assert sha == payload["updatedRefs"][0]["newSha"] and old == payload["updatedRefs"][0]["oldSha"]


def test_the_readme_lists_every_action_input_as_action_yml_declares_it():
    import re as _re
    from pathlib import Path as _Path

    import yaml
    root = _Path(__file__).resolve().parent.parent
    doc = yaml.safe_load((root / "action.yml").read_text())
    readme = (root / "README.md").read_text()
    rows = dict(_re.findall(r"^\| `([a-z-]+)` \| ([^|]+) \|", readme, _re.M))
    assert set(rows) >= set(doc["inputs"])
    for name, spec in doc["inputs"].items():
        default = spec.get("default", "")
        assert rows[name].strip() == (f"`{default}`" if default != "" else "(empty)"), name


def test_a_late_webhook_never_rolls_the_sheet_back(hub, tmp_path):
    """Issue 15: a job posted its own commit's sheet without checking it was still main's head; a late delivery of
    an older push edited the discussion backwards."""
    old = hub.add("org/model", CFG)
    new = hub.add("org/model", dict(CFG, max_position_embeddings=8192))  # main moves on
    with Server(settings(tmp_path)) as srv:
        srv.post(payload("org/model", new.sha, old.sha))
        srv.wait_idle()
        assert len(hub.discussions["org/model"]) == 1
        before = json.dumps(hub.discussions["org/model"])
        assert new.sha[:7] in before
        srv.post(payload("org/model", old.sha))  # the older push, delivered late
        jobs = srv.wait_idle()
        late = next(j for j in jobs if j["sha"] == old.sha)
        assert late["status"] == "skipped" and "superseded" in late["result"]
        assert json.dumps(hub.discussions["org/model"]) == before  # no backward edit


def test_an_old_job_queues_the_head_instead(hub, tmp_path):
    old = hub.add("org/model", CFG)
    with Server(settings(tmp_path, allow=[])) as srv:  # not allowed yet: nothing runs
        srv.post(payload("org/model", old.sha))
        srv.wait_idle()
    new = hub.add("org/model", dict(CFG, max_position_embeddings=8192))
    with Server(settings(tmp_path)) as srv:
        srv.post(payload("org/model", old.sha))  # a redelivery of the old push after main moved
        jobs = srv.wait_idle()
        assert any(j["sha"] == new.sha and j["status"] == "done" for j in jobs)
        assert new.sha[:7] in json.dumps(hub.discussions["org/model"])


def test_a_transient_hub_failure_goes_back_on_the_queue(hub, tmp_path):
    """Issue 15: after the client's retries a 5xx marked the job skipped for good."""
    repo = hub.add("org/model", CFG)
    hub.fail_next = [503] * 12  # more than one job attempt's retries
    with Server(settings(tmp_path)) as srv:
        srv.post(payload("org/model", repo.sha))
        jobs = srv.wait_idle(timeout=60)
    assert [j["status"] for j in jobs] == ["done"] and jobs[0]["attempts"] >= 2
    assert len(hub.discussions["org/model"]) == 1


def _wait_for(pred, timeout=30):
    end = time.time() + timeout
    while time.time() < end:
        got = pred()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError("condition not met in time")


def test_a_job_failing_for_good_is_visible_then_a_delivery_for_the_repo_retries_it(hub, tmp_path):
    """Issue 15: bounded attempts with backoff, then a visible failed state (SQLite and /healthz); the next delivery
    for that repo — here a late replay of an older commit — queues the failed job again."""
    old = hub.add("org/model", CFG).sha
    repo = hub.push("org/model", {"config.json": json.dumps(dict(CFG, max_position_embeddings=8192)).encode()})
    hub.fail_paths["/api/models/org/model"] = 503  # the Hub fails this repo for a while
    with Server(settings(tmp_path, max_attempts=3, backoff_s=0.05, sweep_s=3600)) as srv:
        srv.post(payload("org/model", repo.sha, old))
        jobs = srv.wait_idle(timeout=60)
        assert [(j["status"], j["attempts"]) for j in jobs] == [("failed", 3)]
        health = requests.get(srv.url + "/healthz", timeout=5).json()
        assert health["jobs"] == {"failed": 1} and health["worker_alive"] is True
        assert [(f["repo"], f["sha"], f["attempts"]) for f in health["failed"]] == [("org/model", repo.sha, 3)]
        assert "503" in health["failed"][0]["result"] and "after 3 attempts" in health["failed"][0]["result"]
        del hub.fail_paths["/api/models/org/model"]  # the Hub is back
        srv.post(payload("org/model", old))  # any delivery for the repo, even a stale one
        jobs = {j["sha"]: j for j in srv.wait_idle(timeout=60)}
        assert jobs[repo.sha]["status"] == "done" and jobs[repo.sha]["revived"] == 1, jobs
        assert jobs[old]["status"] == "skipped" and "superseded" in jobs[old]["result"]
        assert requests.get(srv.url + "/healthz", timeout=5).json()["failed"] == []
    assert len(hub.discussions["org/model"]) == 1
    assert find_marker(hub.discussions["org/model"][0]["events"][0]["data"]["latest"]["raw"]).sha == repo.sha


def test_the_periodic_sweep_retries_failed_jobs(hub, tmp_path):
    repo = hub.add("org/model", CFG)
    hub.fail_paths["/api/models/org/model"] = 502
    with Server(settings(tmp_path, max_attempts=2, backoff_s=0.05, sweep_s=1.0)) as srv:
        srv.post(payload("org/model", repo.sha))
        _wait_for(lambda: srv.app.state.queue.failed())
        del hub.fail_paths["/api/models/org/model"]
        jobs = _wait_for(lambda: [j for j in srv.app.state.queue.jobs() if j["status"] == "done"], timeout=30)
        assert jobs[0]["revived"] >= 1
    assert len(hub.discussions["org/model"]) == 1


def test_a_queue_file_from_before_the_revived_column_still_opens(tmp_path):
    import sqlite3
    db = tmp_path / "old.sqlite"
    with sqlite3.connect(db) as c:
        c.executescript("CREATE TABLE jobs (id INTEGER PRIMARY KEY AUTOINCREMENT, repo TEXT NOT NULL, "
                        "sha TEXT NOT NULL, old_sha TEXT, status TEXT NOT NULL DEFAULT 'pending', "
                        "attempts INTEGER NOT NULL DEFAULT 0, not_before REAL NOT NULL DEFAULT 0, result TEXT, "
                        "created REAL NOT NULL, updated REAL NOT NULL, UNIQUE (repo, sha));"
                        "INSERT INTO jobs (repo, sha, status, created, updated) VALUES ('org/m', 'a', 'failed', 0, 0);")
    q = Queue(db)
    assert q.failed()[0]["revived"] == 0
    assert q.sweep(0) == 1 and q.counts() == {"pending": 1}
