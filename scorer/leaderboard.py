"""The leaderboard of a crawl database: read and rank, no rendering (see :mod:`scorer.leaderboard_output`).

Every repo is taken at its current commit (``CrawlDB.current()``: ``repos`` joined to ``results``). Repos whose
current result is ``ok`` are ranked twice:

* by score, descending (``rank``);
* by the predicted $/1M output tokens of the best layout for one GPU and serving regime, ascending
  (``cost_rank``); a model with no cost for that GPU and regime (it fits no layout), or one that does not generate
  (``generates``: an encoder, a reward / classification / embedding head), has no cost rank.

Ranks are competition ranks (equal values share a rank, the next rank skips: 1, 2, 2, 4); ties are listed by repo
id. Repos whose current result is anything else (gated, missing_config, invalid_json, custom_code, error, ...)
form the "not scored" list with their status and one-line error.
"""

from __future__ import annotations

import datetime
import hashlib
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

from pydantic import BaseModel, Field, ValidationError

from .errors import BadInputError, DeploysheetError

DEFAULT_GPU = "H100-SXM"
DEFAULT_REGIME = "throughput"
REGIMES = ("latency", "throughput", "long_context", "short_context")
HUB_URL = "https://huggingface.co"
_TABLES = {"results", "repos", "costs"}


class Entry(BaseModel):
    """A scored model (its current commit's ``ok`` result) and its cost on the chosen GPU and regime."""

    rank: int | None = Field(None, description="by score, descending (competition rank)")
    cost_rank: int | None = Field(None, description="by $/1M output tokens, ascending; None without a cost")
    repo_id: str
    sha: str
    url: str = Field(description="the model's Hub page")
    sheet: str | None = Field(None, description="relative path of the rendered sheet, when one was written")
    score: float | None = Field(None, ge=0, le=100, allow_inf_nan=False)
    grade: str | None = None
    provisional: bool = Field(False, description="the score is provisional (a model type read by keys, not known)")
    generates: bool = Field(True, description="the checkpoint generates text (False: an encoder or a reward / "
                                              "classification / embedding head: no cost rank)")
    params_exact: bool = Field(True, description="false: the parameter counts are estimated (unmodelled keys)")
    params_total: int | None = None
    params_active: int | None = None
    model_type: str | None = None
    family: str | None = None
    kind: str | None = None
    precision: str | None = None
    kv_bytes_per_token: int | None = None
    usd_per_1m_output_tokens: float | None = Field(None, ge=0, allow_inf_nan=False)
    output_tokens_per_s_per_gpu: float | None = Field(None, ge=0, allow_inf_nan=False)
    tokens_per_s_per_user: float | None = Field(None, ge=0, allow_inf_nan=False)
    ttft_ms: float | None = Field(None, ge=0, allow_inf_nan=False)
    tpot_ms: float | None = Field(None, ge=0, allow_inf_nan=False)
    layout: str | None = None
    num_gpus: int | None = None
    concurrency: int | None = None
    license: str | None = None
    gated: str | None = Field(None, description="'no', 'auto', 'manual' (as the Hub says), or None if unknown")
    custom_code: bool | None = None
    downloads: int | None = None
    likes: int | None = None
    crawled_at: str | None = None

    @property
    def link(self) -> str:
        return self.sheet or self.url


class NotScored(BaseModel):
    """A repo whose current commit has no score: its status (see ``crawldb.STATUSES``) and one-line error."""

    repo_id: str
    sha: str
    url: str
    status: str
    error: str | None = None
    license: str | None = None
    gated: str | None = None
    downloads: int | None = None
    crawled_at: str | None = None


class RegimeInfo(BaseModel):
    id: str
    title: str = ""
    isl: int | None = None
    osl: int | None = None
    concurrency: str | None = None


class Leaderboard(BaseModel):
    db: str = Field(description="the database file's name")
    gpu: str
    regime: RegimeInfo
    gpus: list[str] = Field(description="GPUs with costs in the database")
    regimes: list[str] = Field(description="regimes with costs in the database")
    generated_at: str
    entries: list[Entry] = Field(description="scored models, by score")
    not_scored: list[NotScored]
    status_counts: dict[str, int]
    usd_per_gpu_hour: float | None = Field(None, description="the catalog price the costs were computed with")

    @property
    def by_cost(self) -> list[Entry]:
        """Scored models with a cost, cheapest first."""
        return sorted((e for e in self.entries if e.cost_rank is not None), key=lambda e: (e.cost_rank, e.repo_id))


def hub_url(repo_id: str) -> str:
    """The model's Hub page; the repo id is percent-encoded, so the link is always https://huggingface.co/..."""
    return f"{HUB_URL}/{quote(repo_id, safe='/')}"


def _gated(value: Any) -> str | None:
    if value is None:
        return None
    s = str(value).strip()
    if s.lower() in ("", "0", "false", "no", "none"):
        return "no"
    if s.lower() in ("1", "true", "yes"):
        return "yes"
    return s


def competition_ranks(items: list[Any], value: Callable[[Any], Any]) -> list[int]:
    """Ranks of already sorted ``items``: equal values share a rank (1, 2, 2, 4)."""
    ranks: list[int] = []
    prev = object()
    for i, it in enumerate(items):
        v = value(it)
        ranks.append(ranks[-1] if i and v == prev else i + 1)
        prev = v
    return ranks


def open_db(path: str | Path):
    """Open an existing crawl database for reading (BadInputError, exit 2, if it is not one)."""
    from .crawldb import CrawlDB

    p = Path(path)
    if not p.exists():
        raise BadInputError(f"{path}: no such file")
    if p.is_dir():
        raise BadInputError(f"{path}: is a folder, not a crawl database file")
    if not p.is_file():
        raise BadInputError(f"{path}: not a regular file (a device or pipe)")
    db = CrawlDB(p, write=False)  # read-only; refuses any file that is not already a crawl database
    try:
        names = {r[0] for r in db.conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    except sqlite3.DatabaseError as exc:
        db.close()
        raise BadInputError(f"{path}: not a SQLite database ({exc})") from None
    if not _TABLES <= names:
        db.close()
        raise BadInputError(f"{path}: not a deploysheet crawl database (no tables "
                            f"{', '.join(sorted(_TABLES - names))})")
    return db


def _regime_info(regime: str) -> RegimeInfo:
    from .resources import load_json
    for d in load_json("regimes.json")["regimes"]:
        if d["id"] == regime:
            return RegimeInfo(id=regime, title=d.get("title", ""), isl=d.get("isl"), osl=d.get("osl"),
                              concurrency=str(d.get("concurrency")))
    return RegimeInfo(id=regime)


def resolve_gpu(gpu: str, present: list[str]) -> str:
    """The database's id for ``gpu`` (catalog aliases accepted); BadInputError listing the GPUs present."""
    if gpu in present:
        return gpu
    try:
        from .hardware import get_gpu
        canon = get_gpu(gpu).id
    except BadInputError:
        canon = None
    if canon in present:
        return canon
    lower = {g.lower(): g for g in present}
    if gpu.lower() in lower:
        return lower[gpu.lower()]
    raise BadInputError(f"--gpu {gpu[:60]!r} has no costs in this database; GPUs present: "
                        f"{', '.join(present) or 'none'}")


def build_leaderboard(path: str | Path, gpu: str = DEFAULT_GPU, regime: str = DEFAULT_REGIME) -> Leaderboard:
    """Read the crawl database at ``path`` and rank its models (see the module docstring).

    Raises:
        BadInputError: not a crawl database; an unknown regime; a GPU with no costs in a database that has costs.
    """
    if regime not in REGIMES:
        raise BadInputError(f"--regime {regime[:60]!r} is not a regime; choose one of {', '.join(REGIMES)}")
    db = open_db(path)
    try:
        gpus, regimes = db.gpus_and_regimes()
        rows = db.current()
        if gpus:
            gpu = resolve_gpu(gpu, gpus)
        else:  # no costs stored (every repo failed): the GPU must still be one of the catalog's
            from .hardware import get_gpu
            gpu = get_gpu(gpu).id
        costs = db.costs_for(gpu, regime) if gpus else {}
        labels = db.labels()
    finally:
        db.close()

    entries: list[Entry] = []
    not_scored: list[NotScored] = []
    counts: dict[str, int] = {}
    for r in rows:
        try:
            _add_row(r, costs, entries, not_scored, counts, labels)
        except (ValidationError, TypeError, ValueError) as exc:
            raise BadInputError(f"{path}: corrupt row for {str(r.get('repo_id'))[:100]!r} "
                                f"({type(exc).__name__}: a value of the wrong type or out of range)") from None
    return _rank(entries, not_scored, counts, gpu, regime, gpus, regimes, path)


def _add_row(r, costs, entries, not_scored, counts, labels=None) -> None:
    """Append one current row to ``entries`` or ``not_scored`` (pydantic validates each value's type)."""
    counts[r["status"]] = counts.get(r["status"], 0) + 1
    url = hub_url(r["repo_id"])
    if r["status"] != "ok":
        not_scored.append(NotScored(repo_id=r["repo_id"], sha=r["sha"], url=url, status=r["status"],
                                    error=r["error"], license=r["license"], gated=_gated(r["gated"]),
                                    downloads=r["downloads"], crawled_at=r["crawled_at"]))
        return
    c = costs.get((r["repo_id"], r["sha"]), {})
    exact, provisional, generates = (labels or {}).get((r["repo_id"], r["sha"]), (True, False, True))
    entries.append(Entry(
        repo_id=r["repo_id"], sha=r["sha"], url=url, score=r["score"], grade=r["grade"], provisional=provisional,
        params_exact=exact, generates=generates,
        params_total=r["params_total"], params_active=r["params_active"], model_type=r["model_type"],
        family=r["family"], kind=r["kind"], precision=r["precision"], kv_bytes_per_token=r["kv_bytes_per_token"],
        usd_per_1m_output_tokens=c.get("usd_per_1m_output_tokens"),
        output_tokens_per_s_per_gpu=c.get("output_tokens_per_s_per_gpu"),
        tokens_per_s_per_user=c.get("tokens_per_s_per_user"), ttft_ms=c.get("ttft_ms"), tpot_ms=c.get("tpot_ms"),
        layout=c.get("layout"), num_gpus=c.get("num_gpus"), concurrency=c.get("concurrency"),
        license=r["license"], gated=_gated(r["gated"]),
        custom_code=None if r["custom_code"] is None else bool(r["custom_code"]),
        downloads=r["downloads"], likes=r["likes"], crawled_at=r["crawled_at"]))


def _rank(entries, not_scored, counts, gpu, regime, gpus, regimes, path):
    # by score: descending, unscored ok rows (no score stored) last and unranked; ties by repo id
    entries.sort(key=lambda e: (e.score is None, -(e.score or 0.0), e.repo_id))
    scored = [e for e in entries if e.score is not None]
    for e, rank in zip(scored, competition_ranks(scored, lambda e: e.score)):
        e.rank = rank
    # $ per output token ranks generators only: a reward / embedding model's output-token cost is no service it offers
    priced = sorted((e for e in entries if e.usd_per_1m_output_tokens is not None and e.generates),
                    key=lambda e: (e.usd_per_1m_output_tokens, e.repo_id))
    for e, rank in zip(priced, competition_ranks(priced, lambda e: e.usd_per_1m_output_tokens)):
        e.cost_rank = rank
    not_scored.sort(key=lambda n: (n.status, n.repo_id))
    from .hardware import catalog_price, get_gpu
    try:
        price = catalog_price(get_gpu(gpu))
    except DeploysheetError:  # a GPU id from the database that this catalog no longer knows
        price = None
    return Leaderboard(db=Path(path).name, gpu=gpu, usd_per_gpu_hour=price, regime=_regime_info(regime), gpus=gpus, regimes=regimes,
                       generated_at=datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                       entries=entries, not_scored=not_scored, status_counts=dict(sorted(counts.items())))


_SAFE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,150}")


def sheet_names(repo_ids: list[str]) -> dict[str, str]:
    """repo id -> a file name (no extension) safe on any file system, unique case-insensitively.

    ``org/name`` becomes ``org--name``; anything with other characters (the Hub forbids them, a database may not)
    becomes a sanitized name plus a hash of the repo id.
    """
    out: dict[str, str] = {}
    used: set[str] = set()
    for repo in repo_ids:
        base = repo.replace("/", "--")
        if not _SAFE.fullmatch(base) or base.lower().endswith((".", "-")) or base.lower() in used:
            digest = hashlib.sha1(repo.encode("utf-8", "surrogatepass")).hexdigest()[:10]
            clean = re.sub(r"[^A-Za-z0-9._-]+", "_", base).strip("._-")[:100]
            base = f"{clean}-{digest}" if clean else digest
        used.add(base.lower())
        out[repo] = base
    return out


def local_folders(dirs: list[str]) -> list[Path]:
    """The model folders of ``leaderboard --from``: each DIR holding a ``config.json``, else its subfolders that
    do (sorted). Raises BadInputError for a DIR that is not a folder or holds no model."""
    from .sources import expand_user
    out: list[Path] = []
    for d in dirs:
        p = expand_user(d)
        try:
            if not p.is_dir():
                raise BadInputError(f"leaderboard --from {d[:200]}: not a folder")
            if (p / "config.json").is_file() or (p / "config.json").is_symlink():
                out.append(p)
                continue
            # a subfolder that cannot be searched is kept: scoring it lists it as not scored, with the error
            subs = sorted(x for x in p.iterdir() if x.is_dir() and _may_hold_config(x))
        except PermissionError:
            raise BadInputError(f"leaderboard --from {d[:200]}: permission denied") from None
        if not subs:
            raise BadInputError(f"leaderboard --from {d[:200]}: no config.json in it or in its subfolders")
        out += subs
    return out


def _may_hold_config(folder: Path) -> bool:
    """Whether ``folder`` holds a config.json, or cannot be searched to tell (no permission); a config.json that is
    a link (a dangling one, a loop) counts: scoring it lists the folder as not scored, with the error."""
    try:
        cfg = folder / "config.json"
        return cfg.is_file() or cfg.is_symlink()
    except PermissionError:
        return True


def local_database(dirs: list[str], db_path: str, gpu: str) -> str:
    """Score the local model folders of ``dirs`` (:func:`local_folders`) on ``gpu`` into a new crawl database at
    ``db_path``, as ``crawl`` would store Hub repos: the folder name is the repo id, the SHA-1 of its config the
    commit. A folder that cannot be read is stored with its status and error, as the crawl does. Returns
    ``db_path``."""
    import hashlib

    from .crawl import CrawlOptions, Task, _score
    from .crawldb import CrawlDB, Listed, Result
    from .errors import DeploysheetError
    from .sources import load_source

    from .hardware import get_gpu
    gpu = get_gpu(gpu).id  # BadInputError for an id the catalog lacks, before anything is scored
    options = CrawlOptions(gpus=[gpu])
    digest = options.digest()
    folders = local_folders(dirs)
    names = [f.name for f in folders]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise BadInputError(f"leaderboard --from: two model folders are named {dup[0][:100]!r}; rename one")
    with CrawlDB(db_path) as db:
        for folder in folders:
            try:
                sha = hashlib.sha1((folder / "config.json").read_bytes()).hexdigest()
            except OSError:  # unreadable: listed as not scored below, under the hash of its name
                sha = hashlib.sha1(str(folder).encode()).hexdigest()
            db.note_listed([Listed(repo_id=folder.name, sha=sha)])
            base = dict(repo_id=folder.name, options=digest)
            try:
                raw = load_source(str(folder))
                res = _score(Task(repo_id=folder.name, endpoint="local", options=options, options_digest=digest),
                             raw, sha, base, {})
            except DeploysheetError as exc:
                res = Result(**base, sha=sha, status="invalid_config", error=str(exc)[:500], fetched=True)
            db.put(res)
    return db_path


def localized(board: Leaderboard, dirs: list[str]) -> Leaderboard:
    """A leaderboard of local folders (``--from``): no Hub links, and the source named as the folders."""
    for e in board.entries:
        e.url = ""
    for n in board.not_scored:
        n.url = ""
    board.db = "local folders " + ", ".join(Path(d).name or d for d in dirs)[:300]
    return board
