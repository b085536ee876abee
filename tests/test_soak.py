"""Soak test of the webhook server (issue 15, item 6).

The real server (``bot.server.serve``: check_start, uvicorn, the SQLite queue, the worker thread) runs in a child
process against the loopback fake Hub (tests/fakehub.py) with random faults (429s, 5xx, connection resets, short
stalls, 5xx after a write landed) and a Hub outage on two repos. It is fed a few hundred webhook deliveries over
15 repos: pushes of new commits, duplicates, late and out-of-order replays of older commits, unsigned and
wrong-secret deliveries, malformed bodies; half-way the server is killed (SIGKILL) and started again on the same
queue file. Then:

* the server never answered 5xx, and every unsigned or wrong-secret delivery was rejected (401/403, nothing queued);
* exactly one discussion per repo, no duplicate comment, no redundant edit;
* 0 backward edits: the fake Hub records every state of each discussion's first message, and the commit its marker
  names never goes back to an older one;
* 0 jobs lost: every repo ends showing its newest commit's sheet; jobs that failed for good during the outage were
  visible as ``failed`` in ``/healthz`` and a sweep then cleared them;
* the server's RSS (``/proc/PID/status``) stays within 25 MB of its warm-up value, in each of its two lives.

``DEPLOYSHEET_SOAK_DELIVERIES=N`` sets the number of deliveries (default 300, about a minute here).
``DEPLOYSHEET_SOAK_TRACEMALLOC=1`` runs the server under tracemalloc and prints what grew between warm-up and the end
(a diagnostic: several times slower, so the time-based pacing makes the run thinner; use a larger N).
"""

from __future__ import annotations

import concurrent.futures
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from bot.marker import find_marker

ROOT = Path(__file__).resolve().parent.parent
SECRET = "soak-secret"
N = int(os.environ.get("DEPLOYSHEET_SOAK_DELIVERIES", "300"))
REPOS = [f"org/m{i:02d}" for i in range(15)]
OUTAGE = REPOS[:2]  # the Hub fails these two repos for a while: their jobs end failed, then a sweep clears them
RSS_SLACK_MB = 25
WARM = 2 + N // 48  # RSS samples (one per batch of six deliveries) before the warm-up point: a quarter of a life
CFG = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 1024,
       "intermediate_size": 2816, "num_hidden_layers": 4, "num_attention_heads": 8, "num_key_value_heads": 2,
       "vocab_size": 32000, "max_position_embeddings": 4096}
# a misaligned variant: another grade, so a push that switches between the two adds a grade-change comment
ODD = dict(CFG, hidden_size=1000, num_attention_heads=8, head_dim=128, intermediate_size=2730, vocab_size=32001)

LAUNCHER = r"""
import json, os, signal, sys
if os.environ.get("SOAK_TRACEMALLOC"):
    import tracemalloc
    tracemalloc.start(1)  # one frame: deeper tracebacks slow the scorer down many times over
    snaps = [0]
    def dump(signum, frame):
        snaps[0] += 1
        name = os.path.join(os.environ["SOAK_SNAPDIR"], "snap-%s-%d" % (os.environ["SOAK_LIFE"], snaps[0]))
        tracemalloc.take_snapshot().dump(name + ".bin")
        try:  # the scorer's process-wide memos by their own accounting, where the scorer has them
            from scorer import memo
            with open(name + ".memo.json", "w") as fh:
                json.dump(memo.report(), fh)
        except ImportError:
            pass
    signal.signal(signal.SIGUSR1, dump)
from bot.server import Settings, serve
serve(Settings(**json.loads(os.environ["SOAK_SETTINGS"])), "127.0.0.1", int(os.environ["SOAK_PORT"]))
"""


def payload(repo: str, sha: str, old: str | None) -> dict:
    return {"event": {"action": "update", "scope": "repo.content"},
            "repo": {"type": "model", "name": repo, "id": "x", "private": False, "headSha": sha,
                     "url": {"web": f"https://huggingface.co/{repo}"}},
            "updatedRefs": [{"ref": "refs/heads/main", "oldSha": old, "newSha": sha}],
            "webhook": {"id": "w", "version": 3}}


MALFORMED = [b"{not json", b"", b"\xff\xfe\x00garbage", b"[1, 2, 3]", b'{"event": "weird"}', b"null",
             b"[" * 5000 + b"]" * 5000, json.dumps({"repo": {"type": "model", "name": "org/m00"}}).encode(),
             json.dumps(payload("org/../../etc", "a" * 40, None)).encode(),
             json.dumps(payload("org/m00", "Z" * 40, None)).encode()]


class ServerProcess:
    def __init__(self, tmp: Path, hub, settings: dict, life: int):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        env = dict(os.environ, HF_ENDPOINT=hub.endpoint, HF_TOKEN="hf_fake_token", HF_HOME=str(tmp / "hf_home"),
                   HF_HUB_DISABLE_TELEMETRY="1", SOAK_SETTINGS=json.dumps(settings), SOAK_PORT=str(self.port),
                   SOAK_SNAPDIR=str(tmp), SOAK_LIFE=str(life), PYTHONPATH=str(ROOT))
        if os.environ.get("DEPLOYSHEET_SOAK_TRACEMALLOC"):
            env["SOAK_TRACEMALLOC"] = "1"
        self.log = open(tmp / f"server-{life}.log", "w")
        self.proc = subprocess.Popen([sys.executable, "-c", LAUNCHER], env=env, stdout=self.log,
                                     stderr=subprocess.STDOUT, cwd=ROOT)
        end = time.time() + 60
        while time.time() < end:
            try:
                if requests.get(self.url + "/healthz", timeout=2).ok:
                    return
            except requests.ConnectionError:
                time.sleep(0.1)
            assert self.proc.poll() is None, (tmp / f"server-{life}.log").read_text()[-3000:]
        raise AssertionError("the server did not start")

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        raise AssertionError("no VmRSS")

    def health(self) -> dict:
        return requests.get(self.url + "/healthz", timeout=10).json()

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait(timeout=20)
        self.log.close()

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


@pytest.fixture
def hub(fakehub, monkeypatch):
    monkeypatch.setenv("HF_TOKEN", "hf_fake_token")
    return fakehub


def test_soak(hub, tmp_path):
    from fakehub import Chaos

    rng = random.Random(15)
    t0 = time.time()
    commits: dict[str, list[str]] = {}  # repo -> its commits, oldest first
    delivered: dict[str, list[tuple[str, str | None]]] = {r: [] for r in REPOS}  # (sha, old) of every push sent
    version = {r: 0 for r in REPOS}
    for r in REPOS:
        commits[r] = [hub.add(r, CFG).sha]
    hub.busy_headers = {"Retry-After": "0"}
    # one of each "5xx after the write landed" for sure, then random faults on every request
    hub.fail_after_create, hub.fail_after_edit, hub.fail_after_comment = [503], [502, "reset"], [500]
    hub.chaos = Chaos(seed=15, p429=0.03, p5xx=0.03, reset=0.015, stall=0.01, stall_s=0.25, after_write=0.1)

    settings = {"secret": SECRET, "db": str(tmp_path / "queue.sqlite"), "allow": ["org/*"], "poll_s": 0.05,
                "posts_per_hour": 1_000_000, "max_attempts": 3, "backoff_s": 0.1, "backoff_max_s": 1.0,
                "sweep_s": 2.0}
    codes: list[tuple[str, int]] = []  # (kind, status) of every delivery
    failed_seen: set[str] = set()  # repos /healthz listed as failed at some point
    rss: list[list[float]] = [[], []]  # per server life: RSS after each batch

    def push(repo: str) -> tuple[str, str]:
        version[repo] += 1
        cfg = dict(ODD if rng.random() < 0.3 else CFG, max_position_embeddings=4096 + 64 * version[repo])
        old = commits[repo][-1]
        sha = hub.push(repo, {"config.json": json.dumps(cfg).encode()}).sha
        commits[repo].append(sha)
        delivered[repo].append((sha, old))
        return sha, old

    def one_delivery() -> tuple[str, bytes, str | None]:
        """(kind, body, secret) of a random delivery."""
        roll, repo = rng.random(), rng.choice(REPOS)
        if roll < 0.40 or not delivered[repo]:
            sha, old = push(repo)
            return "push", json.dumps(payload(repo, sha, old)).encode(), SECRET
        if roll < 0.58:
            sha, old = delivered[repo][-1]
            return "duplicate", json.dumps(payload(repo, sha, old)).encode(), SECRET
        if roll < 0.76:
            sha, old = rng.choice(delivered[repo])
            return "replay", json.dumps(payload(repo, sha, old)).encode(), SECRET
        if roll < 0.82:  # a forged push of a commit that does not exist: must never be queued
            return "unsigned", json.dumps(payload(repo, "f" * 40, None)).encode(), None
        if roll < 0.88:
            return "wrong-secret", json.dumps(payload(repo, "e" * 40, None)).encode(), rng.choice(
                ["wrong", SECRET + "x", "", SECRET.upper()])
        return "malformed", rng.choice(MALFORMED), SECRET

    def send(server: ServerProcess, item: tuple[str, bytes, str | None]) -> tuple[str, int]:
        kind, body, secret = item
        headers = {"Content-Type": "application/json"}
        if secret is not None:
            headers["X-Webhook-Secret"] = secret
        return kind, requests.post(server.url + "/webhook", data=body, headers=headers, timeout=30).status_code

    def watch(server: ServerProcess, life: int, sample: bool = False) -> dict:
        h = server.health()
        failed_seen.update(f["repo"] for f in h["failed"])
        if sample:
            rss[life].append(server.rss_mb())
        return h

    def snapshot(server: ServerProcess) -> None:
        """With DEPLOYSHEET_SOAK_TRACEMALLOC=1: the server dumps a tracemalloc snapshot (after warm-up, at the end)."""
        if os.environ.get("DEPLOYSHEET_SOAK_TRACEMALLOC"):
            server.proc.send_signal(signal.SIGUSR1)
            time.sleep(5)

    server = ServerProcess(tmp_path, hub, settings, 0)
    life, sent, outage_done, mid, warm = 0, 0, False, None, [False, False]
    # the first delivery of each repo, so every repo has work from the start
    with concurrent.futures.ThreadPoolExecutor(8) as ex:
        codes += ex.map(lambda r: send(server, ("push", json.dumps(payload(r, *push(r))).encode(), SECRET)), REPOS)
    sent += len(REPOS)
    for r in OUTAGE:  # the Hub fails these repos until a quarter of the way
        hub.fail_paths[f"/api/models/{r}"] = 503
    try:
        with concurrent.futures.ThreadPoolExecutor(6) as ex:
            while sent < N:
                batch = [one_delivery() for _ in range(min(6, N - sent))]
                rng.shuffle(batch)  # out of order
                codes += ex.map(lambda item: send(server, item), batch)
                sent += len(batch)
                if life == 0 and sent >= N // 2:  # kill it mid-work (jobs just queued), restart on the same file
                    snapshot(server)
                    server.kill()
                    server = ServerProcess(tmp_path, hub, settings, 1)
                    life, mid = 1, sent
                # pace like a real Hub: the worker mostly keeps up (a backlog only makes older jobs skip), up to 3 s
                pace = time.time() + 3
                while True:
                    h = watch(server, life)
                    if h["due"] + h["jobs"].get("running", 0) <= 1 or time.time() > pace:
                        break
                    time.sleep(0.1)
                watch(server, life, sample=True)
                if not outage_done and sent >= N // 4 and OUTAGE[0] in failed_seen:
                    for r in OUTAGE:
                        del hub.fail_paths[f"/api/models/{r}"]
                    outage_done = True
                if not warm[life] and len(rss[life]) >= WARM:  # warm-up point of this life (the RSS baseline too)
                    warm[life] = True
                    snapshot(server)
        if not outage_done:
            for r in OUTAGE:
                hub.fail_paths.pop(f"/api/models/{r}", None)
        # drain: every repo ends on its newest commit's sheet, no job pending, running or failed
        end = time.time() + 120
        while time.time() < end:
            h = watch(server, life)
            shown = {r: _shown_sha(hub, r) for r in REPOS}
            if (all(shown[r] == commits[r][-1] for r in REPOS) and not h["failed"]
                    and not h["jobs"].get("pending") and not h["jobs"].get("running")):
                break
            time.sleep(0.5)
        snapshot(server)
        final = watch(server, life, sample=True)
        hub.chaos = None
    finally:
        server.stop()
    elapsed = time.time() - t0
    kinds: dict[str, list[int]] = {}
    for k, c in codes:
        kinds.setdefault(k, []).append(c)
    stats = {k: {c: v.count(c) for c in sorted(set(v))} for k, v in kinds.items()}
    print(f"\nsoak: {N} deliveries in {elapsed:.1f}s, kill at {mid}; answers {stats}; injected {hub.injected}; "
          f"hub requests {len(hub.requests)}; failed seen {sorted(failed_seen)}; final jobs {final['jobs']}")

    # the server never answered 5xx; every unsigned or wrong-secret delivery was rejected and nothing forged queued
    assert all(c < 500 for _, c in codes), stats
    assert set(kinds.get("unsigned", [401])) == {401} and set(kinds.get("wrong-secret", [403])) == {403}, stats
    assert set(kinds["push"]) <= {202} and set(kinds.get("malformed", [400])) <= {200, 400}, stats
    with sqlite3.connect(settings["db"]) as c:
        shas = {row[0] for row in c.execute("SELECT sha FROM jobs")}
    assert not shas & {"f" * 40, "e" * 40}

    backward = redundant = dup_comments = 0
    for r in REPOS:
        ds = hub.discussions.get(r, [])
        assert len(ds) == 1, (r, len(ds))  # exactly one discussion
        order = {sha: i for i, sha in enumerate(commits[r])}
        states = [h for h in hub.history if h["repo"] == r]
        marks = [order[find_marker(h["content"]).sha] for h in states]
        backward += sum(b < a for a, b in zip(marks, marks[1:]))
        redundant += sum(b["content"] == a["content"] for a, b in zip(states, states[1:]))
        notes = [e["data"]["latest"]["raw"] for e in ds[0]["events"][1:] if e["type"] == "comment"]
        dup_comments += len(notes) - len(set(notes))
        assert _shown_sha(hub, r) == commits[r][-1], (r, "not on its newest commit: a job was lost")
    assert (backward, redundant, dup_comments) == (0, 0, 0)
    assert set(OUTAGE) <= failed_seen, "the outage never showed as failed in /healthz"
    assert final["failed"] == [] and not final["jobs"].get("pending") and not final["jobs"].get("running")
    assert hub.injected.get("after-write", 0) > 0 and hub.injected.get("reset", 0) > 0

    # memory: flat within RSS_SLACK_MB after warm-up in each life of the server
    report = []
    for i, series in enumerate(rss):
        k = min(WARM, len(series)) - 1  # the warm-up point
        report.append((i, round(series[0], 1), round(series[k], 1), round(max(series[k:]), 1), round(series[-1], 1)))
    print("soak RSS MB (life, first, after warm-up, max after warm-up, last):", report)
    _tracemalloc_report(tmp_path)
    for i, first, base, peak, last in report:
        assert peak - base <= RSS_SLACK_MB, f"server RSS grew {peak - base:.1f} MB after warm-up (life {i}): {report}"


def _shown_sha(hub, repo: str) -> str | None:
    ds = hub.discussions.get(repo)
    if not ds:
        return None
    m = find_marker(ds[0]["events"][0]["data"]["latest"]["raw"])
    return m.sha if m else None


def _tracemalloc_report(tmp: Path) -> None:
    """With DEPLOYSHEET_SOAK_TRACEMALLOC=1: per server life, the allocation sites that grew most between the
    warm-up snapshot and the last one (tracemalloc ``compare_to``)."""
    import tracemalloc
    if not os.environ.get("DEPLOYSHEET_SOAK_TRACEMALLOC"):
        return
    for life in (0, 1):
        snaps = sorted(tmp.glob(f"snap-{life}-*.bin"))
        if len(snaps) < 2:
            print(f"tracemalloc life {life}: {len(snaps)} snapshot(s), nothing to compare")
            continue
        first, last = (tracemalloc.Snapshot.load(str(p)) for p in (snaps[0], snaps[-1]))
        memos = [p.with_suffix(".memo.json") for p in (snaps[0], snaps[-1])]
        if all(p.exists() for p in memos):
            (a, b) = (json.loads(p.read_text()) for p in memos)
            grew = {name: (held, dict((n, h) for n, h, _ in a).get(name, 0), budget) for name, held, budget in b}
            print(f"scorer memos life {life} (name: warm-up -> end / budget, bytes):",
                  {k: f"{was} -> {now} / {budget}" for k, (now, was, budget) in grew.items() if now or was})
        total = lambda s: sum(st.size for st in s.statistics("filename")) / 2**20
        print(f"tracemalloc life {life}: traced {total(first):.1f} MiB after warm-up -> {total(last):.1f} MiB "
              "at the end")
        for key in ("filename", "lineno"):
            for st in last.compare_to(first, key)[:12]:
                if st.size_diff > 0:
                    print(f"  {st.size_diff / 2**20:+8.3f} MiB {st.count_diff:+8d} blocks  {st.traceback}")
