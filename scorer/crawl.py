"""Batch crawl of Hub models into the crawl database (:mod:`scorer.crawldb`).

Flow: select repos (a Hub listing with ``list_models`` filters, or a file of repo ids) → drop the
repos whose current commit already has a final result → run :func:`crawl_one` on each of the rest
with bounded concurrency (threads here, or a Dask cluster) → store each result as it arrives, in its
own transaction.

:func:`crawl_one` is a pure function of its :class:`Task` (Hub reads and scoring, no shared state,
no database): it never raises; every failure becomes a :class:`~scorer.crawldb.Result` whose status
says what went wrong (gated, missing config, invalid JSON, custom code, ...). That is what lets the
same crawl run on a Dask cluster: only tasks and results cross the wire, and the process that
drives the crawl stays the database's single writer.

Retries: each Hub read retries 429 and 5xx answers with exponential backoff and jitter, honouring
``Retry-After`` (:func:`scorer.sources.with_backoff`); a repo whose reads still fail is tried again
later in the same crawl (``repo_retries``) and, if it still fails, recorded as a transient ``error``
that the next run retries.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import sqlite3
import sys
import time
import zlib
from collections import Counter
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from collections.abc import Iterable, Iterator

from pydantic import BaseModel, Field

from . import __version__
from .crawldb import CrawlDB, Listed, Result, costs_of
from .errors import HUB_READ_FAILURES, BadInputError, DeploysheetError, HubError
from .sources import _SHA, license_from_tags

#: the most repos one listing may return (beyond: narrow the listing)
MAX_LISTED = 5_000_000
#: sort keys of ``--sort`` -> the Hub API's sort field
SORTS = {"downloads": "downloads", "likes": "likes", "trending": "trending_score", "created": "created_at",
         "modified": "last_modified"}


class CrawlOptions(BaseModel):
    """How each model is scored (part of the result key: changing it rescores)."""

    gpus: list[str] = Field(default_factory=lambda: ["H100-SXM"])
    precision: str | None = None
    framework: str = "vllm"
    kv_dtype: str = "bf16"
    calibration: str | None = None
    recommendations: bool = Field(False, description="include the what-if recommendations in stored sheets (about "
                                                      "20x slower to score)")

    def digest(self) -> str:
        """sha256 of the options, the calibration's content and the deploysheet version (16 hex); the same from
        any working folder."""
        from .costmodel import load_calibration
        cal = load_calibration(self.calibration)
        doc = {"options": self.model_dump(), "version": __version__,
               "calibration": {"params": cal.params, "frameworks": cal.frameworks, "fit_date": cal.fit_date}}
        return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:16]


class Task(BaseModel):
    """One repo to crawl. ``sha`` None: resolve the current commit first (a file of ids)."""

    repo_id: str
    revision: str | None = None
    sha: str | None = None
    skip_shas: list[str] = Field(default_factory=list, description="commits already done: resolve, then skip")
    endpoint: str
    token: str | None = None
    options: CrawlOptions
    options_digest: str
    attempts: int = 5


class CrawlStats(BaseModel):
    selected: int = 0
    unchanged: int = 0
    crawled: int = 0
    fetched: int = 0
    statuses: dict[str, int] = Field(default_factory=dict)
    seconds: float = 0.0
    interrupted: bool = False
    unreachable: int = Field(0, description="repos whose last try could not reach the Hub at all (network)")

    @property
    def rate(self) -> float:
        return self.crawled / self.seconds if self.seconds > 0 else 0.0


# --------------------------------------------------------------------------- selection

def read_ids_file(path: str) -> list[tuple[str, str | None]]:
    """Repo ids from a text file: one ``org/name`` or ``org/name@revision`` per line; blank lines and
    ``#`` comments are ignored; duplicates are dropped (first kept).

    Raises:
        BadInputError: the file is missing or unreadable, or a line is not a repo id (its number is named).
    """
    from .sources import parse_hub_source, read_text_file
    try:  # a regular file of at most 64 MiB (about a million ids); a BOM from Windows editors is dropped
        text = read_text_file(path, "--ids", 64 << 20)
    except FileNotFoundError:
        raise BadInputError(f"--ids {path}: no such file") from None
    out: list[tuple[str, str | None]] = []
    seen: dict[str, tuple[int, str | None]] = {}
    for n, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        hub = parse_hub_source(line)
        if hub is None:
            raise BadInputError(f"--ids {path}: line {n} is not a Hub repo id (org/name[@revision]): {line[:80]!r}")
        if hub[0] in seen:
            if (hub[0], seen[hub[0]][1]) != hub:
                raise BadInputError(f"--ids {path}: line {n} lists {hub[0]} again (first on line {seen[hub[0]][0]}) "
                                    "with another revision; a crawl keeps one current commit per repo")
            continue
        seen[hub[0]] = (n, hub[1])
        out.append(hub)
    return out


def list_hub(endpoint: str, token: str | None, *, task: str | None = None, author: str | None = None,
             library: str | None = None, tags: list[str] | None = None, search: str | None = None,
             sort: str | None = None, limit: int | None = None) -> list[Listed]:
    """Repos from the Hub's model listing (``HfApi.list_models``; pages followed by the library).

    ``library`` and ``tags`` are tag filters; ``task`` is the pipeline tag; ``sort`` a key of :data:`SORTS`
    (descending). Each repo comes with its current commit, so unchanged repos cost no request at all.

    Raises:
        HubError: the listing failed (exit 3).
    """
    from huggingface_hub import HfApi

    from .sources import _hub_error, _network_errors, install_hub_timeouts, parse_hub_source, redact, with_backoff
    install_hub_timeouts()
    api = HfApi(endpoint=endpoint, token=token, library_name="deploysheet", library_version=__version__)
    filters = [*(tags or []), *([library] if library else [])]

    def read() -> list[Listed]:
        out: dict[str, Listed] = {}
        repeats = 0
        for m in api.list_models(filter=filters or None, author=author, pipeline_tag=task, search=search,
                                 sort=SORTS[sort] if sort else None, limit=limit,
                                 expand=["sha", "downloads", "likes", "gated", "tags"]):
            if m.id in out or parse_hub_source(m.id) is None:
                repeats += 1  # a page served twice, or an id that is not org/name
                if repeats > max(1000, len(out)):
                    raise HubError("the model listing keeps repeating itself (pagination loop?)")
                continue
            out[m.id] = _listed(m)
            if len(out) > MAX_LISTED:
                raise HubError(f"the model listing passed {MAX_LISTED:,} repos: narrow it with filters or --limit")
        return list(out.values())

    try:
        return with_backoff(attempts=5, call=read)
    except HubError:
        raise
    except _network_errors() as exc:
        err = _hub_error(exc, "the model listing", None, endpoint)
        raise HubError(str(err)) from None
    except (ValueError, TypeError, KeyError, AttributeError) as exc:  # JSON errors, wrong shapes
        raise HubError(f"the model listing at {redact(endpoint)} answered with malformed data "
                       f"({type(exc).__name__})") from None


def _int_or_none(v) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 2**62 else None


def _listed(m) -> Listed:
    tags = m.tags if isinstance(m.tags, list) else []
    lic = license_from_tags(tags)
    gated = m.gated if isinstance(m.gated, str) else {True: "yes", False: "no"}.get(m.gated)
    sha = m.sha if isinstance(m.sha, str) and _SHA.fullmatch(m.sha) else None
    return Listed(repo_id=m.id, sha=sha, downloads=_int_or_none(m.downloads), likes=_int_or_none(m.likes),
                  gated=gated, license=lic[:200] if lic else None)


# --------------------------------------------------------------------------- the per-repo pure function

def _status_of(exc: DeploysheetError) -> str:
    """The status of a failure before scoring: the Hub read's reason, or ``error`` (transient: the next run
    retries it) for network failures and anything unclassified from the Hub."""
    if exc.reason in HUB_READ_FAILURES:
        return exc.reason
    if exc.reason in ("network", "rate_limited") or isinstance(exc, HubError):
        return "error"
    return "invalid_config"


def crawl_one(task: Task) -> Result:
    """Crawl one repo: resolve its commit, fetch ``config.json`` at that commit, score it.

    Pure (depends only on ``task`` and the Hub's answers) and never raises: failures are results with a
    status and a one-line error. The stored sheet is the full sheet ``deploysheet score`` prints with these
    options (without the what-if recommendations unless ``options.recommendations``). Network: ``model_info``
    (and a first one to resolve the commit when ``task.sha`` is None), a HEAD and a GET of ``config.json``
    (+ ``hf_quant_config.json`` when present), each retried on 429/5xx. The safetensors headers are not read
    (``load_hub(checkpoint=False)``): one range read per shard would multiply a crawl's requests.
    """
    from huggingface_hub.utils import disable_progress_bars

    from .sources import load_hub

    disable_progress_bars()  # one bar per config.json would bury the crawl's own
    base = dict(repo_id=task.repo_id, options=task.options_digest)
    config: dict | None = None
    try:
        sha = task.sha
        listed: dict = {}
        if sha is None:  # a file of ids: one model_info call to learn the commit (and the listing's metadata)
            try:
                sha, listed = _resolve(task)
            except DeploysheetError as exc:
                if exc.reason == "not_found" and "" in task.skip_shas:
                    return Result(**base, sha="", status="not_found", unchanged=True)  # still gone: nothing new
                raise
            if sha in task.skip_shas:
                return Result(**base, sha=sha, status="ok", unchanged=True)
        raw = load_hub(task.repo_id, task.repo_id, revision=sha, token=task.token, attempts=task.attempts,
                       derivatives=False, endpoint=task.endpoint, checkpoint=False)
        sha = raw.provenance.commit_sha or sha or ""
        config = raw.config
        prov = raw.provenance
        meta = dict(gated=prov.gated or "no", license=prov.license,
                    safetensors="safetensors" in (prov.weight_formats or []), **listed)
        return _score(task, raw, sha, base, meta)
    except DeploysheetError as exc:
        return Result(**base, sha=sha or "", status=_status_of(exc), error=str(exc)[:500], fetched=config is not None)
    except Exception as exc:  # noqa: BLE001 - a bug on one repo must not end the batch
        return Result(**base, sha=task.sha or "", status="error", error=f"internal error: {type(exc).__name__}: "
                                                                         f"{' '.join(str(exc).split())[:300]}",
                      fetched=config is not None)


def _resolve(task: Task) -> tuple[str, dict[str, int]]:
    from huggingface_hub import HfApi

    from .sources import _hub_error, _network_errors, install_hub_timeouts, with_backoff
    install_hub_timeouts()
    api = HfApi(endpoint=task.endpoint, token=task.token, library_name="deploysheet", library_version=__version__)
    try:
        info = with_backoff(attempts=task.attempts, call=lambda: api.model_info(
            task.repo_id, revision=task.revision, expand=["sha", "downloads", "likes"]))
    except _network_errors() as exc:
        raise _hub_error(exc, task.repo_id, task.revision, task.endpoint) from None
    if not isinstance(info.sha, str) or not _SHA.fullmatch(info.sha):
        raise HubError(f"{task.repo_id}: the Hub gave no valid commit sha", "network")
    counts = {k: v for k, v in (("downloads", info.downloads), ("likes", info.likes)) if isinstance(v, int)}
    return info.sha, counts


def _score(task: Task, raw, sha: str, base: dict, meta: dict) -> Result:
    from .sheet import Options, build_sheet

    opts = task.options
    try:
        sheet = build_sheet(raw, Options(gpus=opts.gpus, precision=opts.precision, framework=opts.framework,
                                         kv_dtype=opts.kv_dtype, calibration=opts.calibration,
                                         recommendations=opts.recommendations))
    except BadInputError as exc:  # the config (the options were checked before the crawl started)
        if isinstance(raw.config.get("auto_map"), dict):
            return Result(**base, sha=sha, status="custom_code", fetched=True, **meta,
                          error=f"custom code (auto_map) whose config deploysheet cannot read: {exc}"[:500])
        return Result(**base, sha=sha, status="invalid_config", error=str(exc)[:500], fetched=True, **meta)
    m = sheet.model
    common = dict(model_type=m.model_type, family=m.family, kind=m.kind, custom_code=m.custom_code, fetched=True,
                  **meta)
    if m.kind != "decoder":
        return Result(**base, sha=sha, status="unsupported", error=f"{m.kind} model: deploysheet scores decoder "
                                                                    "LLMs", **common)
    return Result(**base, sha=sha, status="ok", params_total=sheet.params.total, params_active=sheet.params.active,
                  precision=sheet.options.precision, score=sheet.score.total, grade=sheet.score.grade,
                  kv_bytes_per_token=sheet.kv_cache.bytes_per_token_all_layers,
                  sheet_json=zlib.compress(sheet.model_dump_json().encode("utf-8"), 6), costs=costs_of(sheet),
                  **common)


# --------------------------------------------------------------------------- the driver

class Backend:
    """Runs :func:`crawl_one` on tasks with at most ``concurrency`` in flight; yields results as they finish."""

    def run(self, tasks: Iterable[Task], concurrency: int) -> Iterator[Result]:  # pragma: no cover - interface
        raise NotImplementedError

    def close(self) -> None:
        pass


class ThreadBackend(Backend):
    """A thread pool in this process (the Hub reads are I/O; scoring is short)."""

    def run(self, tasks: Iterable[Task], concurrency: int) -> Iterator[Result]:
        it = iter(tasks)
        pool = ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="crawl")
        pending: set = set()
        try:
            for t in it:
                pending.add(pool.submit(crawl_one, t))
                if len(pending) >= concurrency:
                    done, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for f in done:
                        yield f.result()
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for f in done:
                    yield f.result()
        finally:  # on Ctrl-C or an error: do not wait for the requests in flight
            pool.shutdown(wait=False, cancel_futures=True)


class DaskBackend(Backend):
    """A Dask cluster: ``address`` of a running scheduler (``tcp://host:8786``), or ``local`` for a
    :class:`distributed.LocalCluster` on this machine (worker processes, one per core)."""

    def __init__(self, address: str):
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise BadInputError("--dask needs the 'distributed' package: pip install distributed (or, in a checkout, "
                                "pip install '.[cluster]')") from None
        import logging
        logging.getLogger("distributed").setLevel(logging.ERROR)  # worker shutdown chatter is not the user's news
        self.cluster = None
        try:
            if address == "local":
                self.cluster = LocalCluster(n_workers=os.cpu_count() or 1, threads_per_worker=4, processes=True,
                                            dashboard_address=None)
                self.client = Client(self.cluster)
            else:
                self.client = Client(address, timeout="20s")
        except ValueError as exc:
            raise BadInputError(f"--dask {address[:100]!r}: not a scheduler address such as tcp://host:8786, or "
                                f"'local' ({' '.join(str(exc).split())[:120]})") from None
        except (OSError, TimeoutError) as exc:
            raise HubError(f"--dask {address}: cannot connect to the Dask scheduler ({type(exc).__name__})",
                           "network") from None

    def run(self, tasks: Iterable[Task], concurrency: int) -> Iterator[Result]:
        from distributed import as_completed

        it = iter(tasks)
        ac = as_completed([self.client.submit(crawl_one, t, pure=False) for t in itertools.islice(it, concurrency)])
        for fut in ac:
            try:
                yield fut.result()
            finally:
                fut.release()
            nxt = next(it, None)
            if nxt is not None:
                ac.add(self.client.submit(crawl_one, nxt, pure=False))

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def plan(db: CrawlDB, selected: list[tuple[str, str | None, str | None]], options: CrawlOptions, digest: str,
         endpoint: str, token: str | None, retry_errors: bool = False) -> tuple[list[Task], int]:
    """Tasks for the repos whose commit has no final result yet, and the count of unchanged repos skipped.

    ``selected``: (repo_id, revision, sha-if-listed). A listed sha already done costs nothing; an unlisted
    repo is resolved by its task (one ``model_info``), then skipped if its commit is done.
    """
    done = db.done_map(digest, ok_only=retry_errors)  # retry_errors: permanent failures are tried again too
    tasks, unchanged = [], 0
    for repo_id, revision, sha in selected:
        have = done.get(repo_id, set())
        if sha is not None and sha in have:
            unchanged += 1
            continue
        tasks.append(Task(repo_id=repo_id, revision=revision, sha=sha, skip_shas=sorted(have), endpoint=endpoint,
                          token=token, options=options, options_digest=digest))
    return tasks, unchanged


def run_crawl(db: CrawlDB, tasks: list[Task], backend: Backend, concurrency: int, *, repo_retries: int = 2,
              progress: bool | None = None, stats: CrawlStats | None = None) -> CrawlStats:
    """Run ``tasks`` on ``backend`` and store every result as it arrives (see the module docstring).

    A transient failure (network, 429 or 5xx after the per-read retries) is re-queued up to ``repo_retries``
    times after the other repos; what still fails is stored as ``error`` (retried by the next run).
    Ctrl-C stops the crawl: finished results are already stored; ``stats.interrupted`` is set.
    """
    from tqdm import tqdm

    stats = stats or CrawlStats()
    counts: Counter[str] = Counter()
    t0 = time.monotonic()
    try:
        cols = os.get_terminal_size(sys.stderr.fileno()).columns
    except (OSError, ValueError, AttributeError):
        cols = 0
    bar = tqdm(total=len(tasks), unit="repo", ncols=cols if cols >= 40 else 100, file=sys.stderr,
               disable=(not sys.stderr.isatty()) if progress is None else not progress,
               desc="crawl", smoothing=0.1)
    tries: Counter[str] = Counter()
    by_repo = {t.repo_id: t for t in tasks}
    queue = list(tasks)
    try:
        while queue:
            again: list[Task] = []
            for res in backend.run(queue, concurrency):
                if res.unchanged:
                    stats.unchanged += 1
                    bar.update(1)
                    continue
                if _transient(res) and tries[res.repo_id] < repo_retries:
                    tries[res.repo_id] += 1
                    again.append(by_repo[res.repo_id])
                    continue
                try:
                    db.put(res)
                except sqlite3.Error as exc:
                    raise BadInputError(f"cannot write the crawl database {db.path}: {exc}") from None
                stats.crawled += 1
                stats.unreachable += int(res.status == "error" and (res.error or "").startswith("cannot reach the Hub"))
                stats.fetched += int(res.fetched)
                counts[res.status] += 1
                bar.update(1)
                bar.set_postfix({k: v for k, v in counts.most_common(3)}, refresh=False)
            if again:
                time.sleep(min(5.0, 0.5 * 2 ** (max(tries.values()) - 1)))
            queue = again
    except KeyboardInterrupt:
        stats.interrupted = True
    finally:
        bar.close()
        stats.seconds += time.monotonic() - t0
        for k, v in counts.items():
            stats.statuses[k] = stats.statuses.get(k, 0) + v
    return stats


def _transient(res: Result) -> bool:
    return res.status == "error" and not (res.error or "").startswith("internal error")


def summary_line(stats: CrawlStats, db_path: str) -> str:
    if stats.selected == 0:
        return f"the selection matched no repos: nothing to crawl; db: {db_path}"
    parts = ", ".join(f"{n} {s}" for s, n in sorted(stats.statuses.items(), key=lambda kv: (-kv[1], kv[0])))
    head = "interrupted after" if stats.interrupted else "crawled"
    return (f"{head} {stats.crawled} of {stats.selected - stats.unchanged} repos to do ({parts or 'nothing new'}); "
            f"{stats.unchanged} unchanged, {stats.fetched} configs fetched; {stats.rate:.1f} repos/s; db: {db_path}")


def selected_from(listed: list[Listed] | None, ids: list[tuple[str, str | None]] | None) -> list[tuple[str, str | None,
                                                                                                  str | None]]:
    if listed is not None:
        return [(m.repo_id, None, m.sha) for m in listed]
    return [(repo, rev, None) for repo, rev in (ids or [])]
