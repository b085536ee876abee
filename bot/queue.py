"""A durable work queue in one SQLite file (WAL mode): webhook deliveries survive restarts.

Jobs are keyed by (repo, sha): a replayed or duplicated delivery of the same commit is one job (a
new delivery re-queues a job that was skipped or failed).
Work is serialized per repo — a job is claimed only when no other job of its repo is running —
and a job left ``running`` by a process that died is made ``pending`` again at start-up. Posting
budget: every Hub write is recorded, and :meth:`Queue.posts_in_last_hour` counts them.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  repo TEXT NOT NULL,
  sha TEXT NOT NULL,
  old_sha TEXT,
  status TEXT NOT NULL DEFAULT 'pending',   -- pending, running, done, skipped, failed
  attempts INTEGER NOT NULL DEFAULT 0,
  not_before REAL NOT NULL DEFAULT 0,
  result TEXT,
  created REAL NOT NULL,
  updated REAL NOT NULL,
  UNIQUE (repo, sha)
);
CREATE INDEX IF NOT EXISTS jobs_status ON jobs (status, repo);
CREATE TABLE IF NOT EXISTS posts (ts REAL NOT NULL, repo TEXT NOT NULL, action TEXT NOT NULL);
"""


@dataclass
class Job:
    id: int
    repo: str
    sha: str
    old_sha: str | None
    attempts: int


class Queue:
    def __init__(self, path: str | Path):
        self.path = str(path)
        Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        with self._conn() as c:
            c.execute("PRAGMA journal_mode=WAL")
            c.executescript(SCHEMA)
            if "revived" not in {r[1] for r in c.execute("PRAGMA table_info(jobs)")}:  # a queue file from before
                c.execute("ALTER TABLE jobs ADD COLUMN revived INTEGER NOT NULL DEFAULT 0")
            # a process that died mid-job leaves it 'running': nothing runs yet, so make it pending again
            c.execute("UPDATE jobs SET status='pending' WHERE status='running'")

    def _conn(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        conn.execute("PRAGMA busy_timeout=30000")
        return conn

    def enqueue(self, repo: str, sha: str, old_sha: str | None = None) -> bool:
        """Add a job; False when (repo, sha) is already pending, running or done (a replayed delivery).

        A new delivery of a commit whose job was skipped or failed (say, the repo was added to the
        allow-list since, or the Hub was down) queues it again; posting is idempotent, so this is safe.
        Any delivery for a repo also makes that repo's failed jobs pending again (the Hub may be back).
        """
        now = time.time()
        with self._lock, self._conn() as c:
            c.execute("BEGIN IMMEDIATE")
            c.execute("UPDATE jobs SET status='pending', attempts=0, not_before=0, revived=revived+1, updated=? "
                      "WHERE repo=? AND sha<>? AND status='failed'", (now, repo, sha))
            cur = c.execute("INSERT OR IGNORE INTO jobs (repo, sha, old_sha, created, updated) VALUES (?,?,?,?,?)",
                            (repo, sha, old_sha, now, now))
            if cur.rowcount == 1:
                c.execute("COMMIT")
                return True
            cur = c.execute("UPDATE jobs SET status='pending', attempts=0, not_before=0, "
                            "revived=revived+(status='failed'), updated=? "
                            "WHERE repo=? AND sha=? AND status IN ('skipped', 'failed')", (now, repo, sha))
            c.execute("COMMIT")
            return cur.rowcount == 1

    def claim(self) -> Job | None:
        """The oldest pending job whose repo has nothing running, marked running (atomic)."""
        now = time.time()
        with self._lock, self._conn() as c:
            c.execute("BEGIN IMMEDIATE")
            row = c.execute(
                "SELECT id, repo, sha, old_sha, attempts FROM jobs j WHERE status='pending' AND not_before<=? AND "
                "NOT EXISTS (SELECT 1 FROM jobs r WHERE r.repo=j.repo AND r.status='running') ORDER BY id LIMIT 1",
                (now,)).fetchone()
            if row is None:
                c.execute("COMMIT")
                return None
            c.execute("UPDATE jobs SET status='running', attempts=attempts+1, updated=? WHERE id=?", (now, row[0]))
            c.execute("COMMIT")
            return Job(id=row[0], repo=row[1], sha=row[2], old_sha=row[3], attempts=row[4] + 1)

    def finish(self, job: Job, status: str, result: str = "") -> None:
        with self._lock, self._conn() as c:
            c.execute("UPDATE jobs SET status=?, result=?, updated=? WHERE id=?", (status, result[:2000], time.time(),
                                                                                  job.id))

    def retry_later(self, job: Job, delay_s: float, result: str = "") -> None:
        with self._lock, self._conn() as c:
            c.execute("UPDATE jobs SET status='pending', not_before=?, result=?, updated=? WHERE id=?",
                      (time.time() + delay_s, result[:2000], time.time(), job.id))

    def sweep(self, older_than_s: float = 0.0) -> int:
        """Make failed jobs that have stayed failed for ``older_than_s`` seconds pending again; how many."""
        now = time.time()
        with self._lock, self._conn() as c:
            return c.execute("UPDATE jobs SET status='pending', attempts=0, not_before=0, revived=revived+1, "
                             "updated=? WHERE status='failed' AND updated<=?", (now, now - older_than_s)).rowcount

    def counts(self) -> dict[str, int]:
        """Jobs per status."""
        with self._conn() as c:
            return dict(c.execute("SELECT status, COUNT(*) FROM jobs GROUP BY status").fetchall())

    def due(self) -> int:
        """Pending jobs that may run now (not waiting out a backoff)."""
        with self._conn() as c:
            return c.execute("SELECT COUNT(*) FROM jobs WHERE status='pending' AND not_before<=?",
                             (time.time(),)).fetchone()[0]

    def failed(self, limit: int = 50) -> list[dict]:
        """The failed jobs, most recent first (at most ``limit``): what an operator needs to see."""
        keys = ("id", "repo", "sha", "attempts", "revived", "result", "updated")
        with self._conn() as c:
            cur = c.execute("SELECT id, repo, sha, attempts, revived, result, updated FROM jobs WHERE status='failed' "
                            "ORDER BY updated DESC LIMIT ?", (limit,))
            return [dict(zip(keys, r)) for r in cur.fetchall()]

    def record_post(self, repo: str, action: str) -> None:
        with self._lock, self._conn() as c:
            c.execute("INSERT INTO posts (ts, repo, action) VALUES (?,?,?)", (time.time(), repo, action))

    def posts_in_last_hour(self) -> int:
        with self._conn() as c:
            return c.execute("SELECT COUNT(*) FROM posts WHERE ts > ?", (time.time() - 3600,)).fetchone()[0]

    def jobs(self) -> list[dict]:
        with self._conn() as c:
            cur = c.execute("SELECT id, repo, sha, status, attempts, result, revived FROM jobs ORDER BY id")
            return [dict(zip(("id", "repo", "sha", "status", "attempts", "result", "revived"), r))
                    for r in cur.fetchall()]
