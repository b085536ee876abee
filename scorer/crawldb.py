"""The crawl database: one SQLite file (WAL mode) of scored Hub models, keyed by repo and commit.

Tables (``SCHEMA``):

* ``results`` — one row per (repo_id, sha) crawled: status, one-line error, headline numbers and the
  zlib-compressed sheet JSON (``ok`` rows only). A repo crawled at a new commit gets a new row; the old
  one stays as history.
* ``costs`` — per (repo_id, sha, gpu, regime): the best layout's predicted $/1M output tokens,
  tokens/s/GPU, tokens/s/user, TTFT and TPOT (ms) from the sheet's serving regimes.
* ``repos`` — the current commit of every repo seen by a listing (or by a per-repo lookup), with Hub
  metadata (downloads, likes, gated, license). The leaderboard joins ``repos`` to ``results`` on the
  current sha.
* ``meta`` — schema version.

Every result is written in its own transaction as soon as it arrives, so a crash or a kill loses no
finished work, and the (repo_id, sha) key makes a rerun idempotent.
"""

from __future__ import annotations

import datetime
import json
import os
import sqlite3
import zlib
from pathlib import Path
from typing import Any, Iterable

from pydantic import BaseModel, Field

from .errors import BadInputError

SCHEMA_VERSION = "1"
#: the largest decompressed sheet read back (real sheets are 60-120 KB)
MAX_SHEET_BYTES = 16 * 1024 * 1024

#: statuses a result can have; ``error`` (network, 5xx after retries) is transient: a rerun retries it
STATUSES = ("ok", "gated", "not_found", "missing_config", "invalid_json", "invalid_config", "custom_code",
            "unsupported", "error")
PERMANENT = {s for s in STATUSES if s != "error"}

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS repos (
    repo_id TEXT PRIMARY KEY,
    sha TEXT,                      -- current commit (40 hex) as last listed; NULL if unknown
    downloads INTEGER, likes INTEGER, gated TEXT, license TEXT,
    seen_at TEXT NOT NULL          -- ISO 8601 UTC of the listing that saw it
);
CREATE TABLE IF NOT EXISTS results (
    repo_id TEXT NOT NULL,
    sha TEXT NOT NULL,
    status TEXT NOT NULL,          -- see STATUSES
    error TEXT,                    -- one line, for every status but ok
    model_type TEXT, family TEXT, kind TEXT,
    params_total INTEGER, params_active INTEGER,
    precision TEXT,                -- weight precision scored
    score REAL, grade TEXT,
    kv_bytes_per_token INTEGER,    -- KV cache bytes per token of context, all layers (bf16 KV)
    custom_code INTEGER, gated TEXT, license TEXT, safetensors INTEGER,
    options TEXT NOT NULL,         -- digest of the scoring options and the deploysheet version
    sheet BLOB,                    -- zlib(sheet JSON), ok rows only
    crawled_at TEXT NOT NULL,
    PRIMARY KEY (repo_id, sha)
);
CREATE TABLE IF NOT EXISTS costs (
    repo_id TEXT NOT NULL, sha TEXT NOT NULL, gpu TEXT NOT NULL, regime TEXT NOT NULL,
    layout TEXT, num_gpus INTEGER, concurrency INTEGER,
    usd_per_1m_output_tokens REAL, output_tokens_per_s_per_gpu REAL, tokens_per_s_per_user REAL,
    ttft_ms REAL, tpot_ms REAL,
    PRIMARY KEY (repo_id, sha, gpu, regime)
);
CREATE INDEX IF NOT EXISTS costs_gpu_regime ON costs (gpu, regime);
"""


class Cost(BaseModel):
    gpu: str
    regime: str
    layout: str | None = None
    num_gpus: int | None = None
    concurrency: int | None = None
    usd_per_1m_output_tokens: float | None = None
    output_tokens_per_s_per_gpu: float | None = None
    tokens_per_s_per_user: float | None = None
    ttft_ms: float | None = None
    tpot_ms: float | None = None


def costs_of(sheet) -> list[Cost]:
    """One :class:`Cost` per (GPU, regime) of a :class:`scorer.sheet.Sheet` (the regime's chosen prediction; a regime
    with none, e.g. a context longer than the model's, gets an empty row)."""
    out = []
    for gpu, regimes in sheet.regimes.items():
        for r in regimes:
            p = r.prediction
            out.append(Cost(gpu=gpu, regime=r.id) if p is None else Cost(
                gpu=gpu, regime=r.id, layout=p.layout, num_gpus=p.num_gpus, concurrency=p.concurrency,
                usd_per_1m_output_tokens=p.usd_per_1m_output_tokens,
                output_tokens_per_s_per_gpu=p.output_tokens_per_s_per_gpu,
                tokens_per_s_per_user=p.tokens_per_s_per_user, ttft_ms=p.ttft_ms, tpot_ms=p.tpot_ms))
    return out


class Result(BaseModel):
    """What crawling one repo at one commit produced (the value the per-repo pure function returns)."""

    repo_id: str
    sha: str = Field(description="the commit crawled (40 hex); '' when the repo could not be resolved")
    status: str
    error: str | None = None
    model_type: str | None = None
    family: str | None = None
    kind: str | None = None
    params_total: int | None = None
    params_active: int | None = None
    precision: str | None = None
    score: float | None = None
    grade: str | None = None
    kv_bytes_per_token: int | None = None
    custom_code: bool | None = None
    gated: str | None = None
    license: str | None = None
    safetensors: bool | None = None
    options: str = ""
    sheet_json: bytes | None = Field(None, description="zlib-compressed sheet JSON")
    costs: list[Cost] = Field(default_factory=list)
    downloads: int | None = None
    likes: int | None = None
    fetched: bool = Field(False, description="config.json was downloaded (for the crawl's counters)")
    unchanged: bool = Field(False, description="the repo's commit is already in the database: nothing fetched")


class Listed(BaseModel):
    """A repo as a listing (or a per-repo lookup) saw it."""

    repo_id: str
    sha: str | None = None
    downloads: int | None = None
    likes: int | None = None
    gated: str | None = None
    license: str | None = None


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


class CrawlDB:
    """The crawl database (see the module docstring). One writer: the process that runs the crawl.

    Raises:
        BadInputError: the path is not a usable SQLite file, or holds another schema version (exit 2).
    """

    def __init__(self, path: str | Path, *, write: bool = True):
        self.path = str(path)
        p = Path(self.path)
        if self.path in ("", ":memory:") or self.path.startswith("file:"):
            raise BadInputError(f"--db {self.path!r}: give a file path (the crawl must outlive the process)")
        try:
            if p.is_dir():
                raise BadInputError(f"{self.path}: is a folder, not a database file")
            if p.exists() and not p.is_file():
                raise BadInputError(f"{self.path}: not a regular file (a device or pipe)")
            if not p.exists() and not write:
                raise BadInputError(f"{self.path}: no such database file")
            if not p.parent.is_dir():
                raise BadInputError(f"{self.path}: the folder {p.parent} does not exist")
        except OSError as exc:
            raise BadInputError(f"{self.path}: {exc.strerror or exc}") from None
        try:
            if write:
                self.conn = sqlite3.connect(self.path, timeout=10, isolation_level=None, check_same_thread=False)
            else:
                self.conn = self._connect_read_only()
            self._check_schema()
            if write:
                self.conn.execute("PRAGMA journal_mode=WAL")
                self.conn.execute("PRAGMA synchronous=NORMAL")
                self.conn.executescript(SCHEMA)
                row = self.conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
                if row is None:
                    self.conn.execute("INSERT INTO meta VALUES ('schema_version', ?)", (SCHEMA_VERSION,))
                self.conn.execute("BEGIN IMMEDIATE")  # writable and not locked: found out before any Hub request
                self.conn.execute("ROLLBACK")
        except sqlite3.OperationalError as exc:
            msg = str(exc)
            if "unable to open" in msg and write and p.exists() and not os.access(p.parent, os.W_OK):
                raise BadInputError(f"{self.path}: its folder is read-only (SQLite needs to write its journal "
                                    "beside the database)") from None
            if "readonly" in msg or "read-only" in msg:
                raise BadInputError(f"{self.path}: the database is read-only") from None
            if "locked" in msg or "busy" in msg:
                raise BadInputError(f"{self.path}: the database is locked by another process") from None
            raise BadInputError(f"{self.path}: not a usable SQLite database ({msg})") from None
        except sqlite3.DatabaseError as exc:
            raise BadInputError(f"{self.path}: not a usable SQLite database ({exc})") from None

    def _connect_read_only(self) -> sqlite3.Connection:
        """Open for reading only; a WAL database on a read-only medium (no -shm can be made) is opened immutable."""
        uri = Path(self.path).resolve().as_uri()
        conn = sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=10, isolation_level=None,
                               check_same_thread=False)
        try:
            conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
            return conn
        except sqlite3.OperationalError:
            conn.close()
            return sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True, isolation_level=None,
                                   check_same_thread=False)

    def _check_schema(self) -> None:
        """Refuse another application's SQLite file or another schema version before writing anything."""
        tables = {r[0] for r in self.conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        ours = {"meta", "repos", "results", "costs"}
        if not tables:
            return
        try:
            row = self.conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone() \
                if "meta" in tables else None
        except sqlite3.OperationalError:  # another application's meta table, of another shape
            row = None
        if row is None:
            raise BadInputError(f"{self.path}: not a deploysheet crawl database (tables: "
                                f"{', '.join(sorted(tables))[:120]})")
        if str(row[0]) != SCHEMA_VERSION:
            raise BadInputError(f"{self.path}: crawl database schema {row[0]}, this deploysheet reads {SCHEMA_VERSION}")
        probe = sqlite3.connect(":memory:")
        probe.executescript(SCHEMA)
        for t in ours & tables:
            want = {r[1] for r in probe.execute(f"PRAGMA table_info({t})")}
            have = {r[1] for r in self.conn.execute(f"PRAGMA table_info({t})")}
            if not want <= have:
                raise BadInputError(f"{self.path}: not a deploysheet crawl database (table {t} lacks "
                                    f"{', '.join(sorted(want - have))[:120]})")
        probe.close()

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> CrawlDB:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ------------------------------------------------------------------ writes
    def note_listed(self, items: Iterable[Listed]) -> None:
        """Record the current commit and metadata of listed repos (one transaction)."""
        now = _now()
        with self.conn:
            self.conn.execute("BEGIN")
            self.conn.executemany(
                "INSERT INTO repos (repo_id, sha, downloads, likes, gated, license, seen_at) VALUES (?,?,?,?,?,?,?) "
                "ON CONFLICT(repo_id) DO UPDATE SET sha=COALESCE(excluded.sha, repos.sha), "
                "downloads=COALESCE(excluded.downloads, repos.downloads), likes=COALESCE(excluded.likes, repos.likes), "
                "gated=COALESCE(excluded.gated, repos.gated), license=COALESCE(excluded.license, repos.license), "
                "seen_at=excluded.seen_at",
                [(i.repo_id, i.sha, i.downloads, i.likes, i.gated, i.license, now) for i in items])

    def put(self, r: Result) -> None:
        """Store one result, its costs and the repo's current commit, in one transaction."""
        if r.unchanged:
            return
        now = _now()
        with self.conn:
            self.conn.execute("BEGIN")
            # the repo's current commit is the one just crawled ('' when the repo could not be resolved); a transient
            # failure to resolve it keeps the commit known before
            keep = r.status == "error" and not r.sha
            self.conn.execute(
                ("INSERT OR IGNORE INTO repos (repo_id, sha, downloads, likes, gated, license, seen_at) "
                 "VALUES (?,?,?,?,?,?,?)") if keep else
                "INSERT INTO repos (repo_id, sha, downloads, likes, gated, license, seen_at) VALUES (?,?,?,?,?,?,?) "
                "ON CONFLICT(repo_id) DO UPDATE SET sha=excluded.sha, "
                "downloads=COALESCE(excluded.downloads, repos.downloads), likes=COALESCE(excluded.likes, repos.likes), "
                "gated=COALESCE(excluded.gated, repos.gated), license=COALESCE(excluded.license, repos.license)",
                (r.repo_id, r.sha, r.downloads, r.likes, r.gated, r.license, now))
            self.conn.execute(
                "INSERT OR REPLACE INTO results (repo_id, sha, status, error, model_type, family, kind, params_total, "
                "params_active, precision, score, grade, kv_bytes_per_token, custom_code, gated, license, "
                "safetensors, options, sheet, crawled_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (r.repo_id, r.sha, r.status, r.error, r.model_type, r.family, r.kind, r.params_total,
                 r.params_active, r.precision, r.score, r.grade, r.kv_bytes_per_token,
                 None if r.custom_code is None else int(r.custom_code), r.gated, r.license,
                 None if r.safetensors is None else int(r.safetensors), r.options, r.sheet_json, now))
            self.conn.execute("DELETE FROM costs WHERE repo_id=? AND sha=?", (r.repo_id, r.sha))
            self.conn.executemany(
                "INSERT INTO costs VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                [(r.repo_id, r.sha, c.gpu, c.regime, c.layout, c.num_gpus, c.concurrency,
                  c.usd_per_1m_output_tokens, c.output_tokens_per_s_per_gpu, c.tokens_per_s_per_user, c.ttft_ms,
                  c.tpot_ms) for c in r.costs])

    # ------------------------------------------------------------------ reads
    def done_map(self, options: str, ok_only: bool = False) -> dict[str, set[str]]:
        """repo_id -> the commits with a final result for these options (one query, for large listings): ``ok``
        rows scored with ``options`` and permanent failures (a transient error is not final); ``ok_only``: the
        ``ok`` rows alone."""
        out: dict[str, set[str]] = {}
        for repo, sha, status, opts in self.conn.execute("SELECT repo_id, sha, status, options FROM results"):
            if (status == "ok" and opts == options) or (not ok_only and status in PERMANENT and status != "ok"):
                out.setdefault(repo, set()).add(sha)
        return out

    def current(self) -> list[dict[str, Any]]:
        """One dict per repo at its current commit: the results row (sheet excluded) + the repos metadata."""
        cur = self.conn.execute(
            "SELECT r.repo_id, r.sha, r.status, r.error, r.model_type, r.family, r.kind, r.params_total, "
            "r.params_active, r.precision, r.score, r.grade, r.kv_bytes_per_token, r.custom_code, "
            "COALESCE(r.gated, p.gated), COALESCE(r.license, p.license), r.safetensors, r.crawled_at, "
            "p.downloads, p.likes FROM results r JOIN repos p ON p.repo_id = r.repo_id AND p.sha = r.sha "
            "ORDER BY r.repo_id")
        cols = ["repo_id", "sha", "status", "error", "model_type", "family", "kind", "params_total", "params_active",
                "precision", "score", "grade", "kv_bytes_per_token", "custom_code", "gated", "license", "safetensors",
                "crawled_at", "downloads", "likes"]
        return [dict(zip(cols, row)) for row in cur]

    def labels(self) -> dict[tuple[str, str], tuple[bool, bool, bool]]:
        """(repo_id, sha) -> (parameter counts exact, score provisional, generates) of every ok row at its repo's
        current commit (those :meth:`current` lists), read from its stored sheet (``params.exact``,
        ``score.provisional``, ``model.generates``; a sheet that cannot be read counts as exact, final and
        generating)."""
        import json
        import zlib
        out = {}
        for repo, sha, blob in self.conn.execute(
                "SELECT r.repo_id, r.sha, r.sheet FROM results r JOIN repos p ON p.repo_id = r.repo_id "
                "AND p.sha = r.sha WHERE r.status = 'ok'"):
            try:
                doc = json.loads(zlib.decompress(blob))
                out[(repo, sha)] = (doc["params"].get("exact", True) is not False,
                                    doc["score"].get("provisional", False) is True,
                                    doc.get("model", {}).get("generates", True) is not False)
            except (TypeError, ValueError, KeyError, AttributeError, zlib.error):
                continue
        return out

    def costs_for(self, gpu: str, regime: str) -> dict[tuple[str, str], dict[str, Any]]:
        """(repo_id, sha) -> the costs row of this GPU and regime."""
        cols = ["layout", "num_gpus", "concurrency", "usd_per_1m_output_tokens", "output_tokens_per_s_per_gpu",
                "tokens_per_s_per_user", "ttft_ms", "tpot_ms"]
        cur = self.conn.execute(f"SELECT repo_id, sha, {', '.join(cols)} FROM costs WHERE gpu=? AND regime=?",
                                (gpu, regime))
        return {(row[0], row[1]): dict(zip(cols, row[2:])) for row in cur}

    def gpus_and_regimes(self) -> tuple[list[str], list[str]]:
        gpus = [r[0] for r in self.conn.execute("SELECT DISTINCT gpu FROM costs ORDER BY gpu")]
        regimes = [r[0] for r in self.conn.execute("SELECT DISTINCT regime FROM costs ORDER BY regime")]
        return gpus, regimes

    def sheet(self, repo_id: str, sha: str) -> dict[str, Any] | None:
        """The stored sheet JSON of (repo, sha), or None."""
        row = self.conn.execute("SELECT sheet FROM results WHERE repo_id=? AND sha=?", (repo_id, sha)).fetchone()
        if row is None or row[0] is None:
            return None
        d = zlib.decompressobj()
        raw = d.decompress(row[0], MAX_SHEET_BYTES + 1)
        if len(raw) > MAX_SHEET_BYTES or d.unconsumed_tail:
            raise ValueError(f"stored sheet over {MAX_SHEET_BYTES:,} bytes")
        return json.loads(raw)
