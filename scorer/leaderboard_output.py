"""Render a :class:`~scorer.leaderboard.Leaderboard` as Markdown, CSV or one self-contained HTML page, write the
leaderboard folder (all-or-nothing) with the models' sheets, and upload it to a Hub dataset repo.

Escaping: model names, types, licenses and errors come from crawled repos and are attacker-controlled. Markdown
goes through :func:`scorer.render.md_escape`; HTML is autoescaped and carries a Content-Security-Policy that runs
only the page's own script (by hash) and loads nothing; CSV cells that a spreadsheet would read as a formula
(``= + - @``, tab, CR) are prefixed with ``'``. Links are either ``sheets/<safe-name>.html`` or the model's
percent-encoded Hub page, never anything a name could turn into a ``javascript:`` URL.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import os
import shutil
import sys
import tempfile
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .errors import BadInputError, DeploysheetError, HubError
from .leaderboard import Leaderboard, sheet_names
from .sources import _REPO_ID

FORMATS = ("md", "csv", "html")
#: a Hub repo id (user or org / name): the pattern scorer.sources accepts
HUB_REPO_ID = _REPO_ID
FILES = {"md": "leaderboard.md", "csv": "leaderboard.csv", "html": "index.html"}
SHEETS_DIR = "sheets"
#: written into every --out folder: only a folder holding it (and nothing but our files) is ever replaced
MARKER = ".deploysheet-leaderboard"
_OURS = {*FILES.values(), SHEETS_DIR, MARKER}

CSV_COLUMNS = ["rank", "cost_rank", "model", "status", "score", "grade", "provisional", "params_total",
               "params_exact", "params_active",
               "model_type", "precision", "kv_bytes_per_token", "usd_per_1m_output_tokens",
               "output_tokens_per_s_per_gpu", "tokens_per_s_per_user", "ttft_ms", "tpot_ms", "layout", "num_gpus",
               "license", "gated", "custom_code", "downloads", "likes", "error", "link", "sha", "gpu", "regime"]


def _csp_hash(text: Any) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(str(text).encode("utf-8")).digest()).decode()


def _env(kind: str):
    from .render import _env as render_env
    env = render_env(kind)
    env.filters.setdefault("csp_hash", _csp_hash)
    return env


def render_markdown(lb: Leaderboard) -> str:
    return _env("md").get_template("leaderboard.md.j2").render(lb=lb)


def render_html(lb: Leaderboard) -> str:
    return _env("html").get_template("leaderboard.html.j2").render(lb=lb)


def csv_cell(value: Any) -> Any:
    """A CSV cell: text a spreadsheet would evaluate as a formula gets a leading ``'``; numbers stay numbers."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float)):
        return value
    s = " ".join(str(value).split())
    return "'" + s if s[:1] in ("=", "+", "-", "@", "\t", "\r", "|", "%") else s


def render_csv(lb: Leaderboard) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for e in lb.entries:
        d = e.model_dump()
        d.update(model=e.repo_id, status="ok", error=None, link=e.link, gpu=lb.gpu, regime=lb.regime.id)
        w.writerow([csv_cell(d.get(c)) for c in CSV_COLUMNS])
    for n in lb.not_scored:
        d = n.model_dump()
        d.update(model=n.repo_id, link=n.url, gpu=lb.gpu, regime=lb.regime.id)
        w.writerow([csv_cell(d.get(c)) for c in CSV_COLUMNS])
    return buf.getvalue()


def render(lb: Leaderboard, fmt: str) -> str:
    return {"md": render_markdown, "csv": render_csv, "html": render_html}[fmt](lb)


def render_sheets(lb: Leaderboard, db_path: str | Path) -> tuple[dict[str, str], list[str]]:
    """Render every scored model's stored sheet as HTML: ({relative path: html}, [one-line problems]).

    Sets ``entry.sheet`` on each model whose sheet was rendered, so the leaderboard links to it.
    """
    from pydantic import ValidationError

    from .leaderboard import open_db
    from .render import render_html as render_sheet_html
    from .sheet import Sheet

    names = sheet_names([e.repo_id for e in lb.entries])
    out: dict[str, str] = {}
    problems: list[str] = []
    db = open_db(db_path)
    try:
        for e in lb.entries:
            try:
                data = db.sheet(e.repo_id, e.sha)
                if data is None:
                    problems.append(f"{e.repo_id}: no stored sheet")
                    continue
                sheet = Sheet.model_validate(data)
                html = render_sheet_html(sheet)
            except (ValidationError, ValueError, TypeError, RecursionError, MemoryError, zlib.error) as exc:
                problems.append(f"{e.repo_id}: stored sheet unreadable ({type(exc).__name__})")
                continue
            except Exception as exc:  # noqa: BLE001 - a stored sheet that validates but cannot be rendered
                problems.append(f"{e.repo_id}: stored sheet cannot be rendered ({type(exc).__name__})")
                continue
            rel = f"{SHEETS_DIR}/{names[e.repo_id]}.html"
            out[rel] = html
            e.sheet = rel
    finally:
        db.close()
    return out, problems


def build_files(lb: Leaderboard, db_path: str | Path, sheets: bool) -> tuple[dict[str, str], list[str]]:
    """Every file of the leaderboard folder: {relative path: text}, and the problems met rendering sheets."""
    files: dict[str, str] = {}
    problems: list[str] = []
    if sheets:
        files, problems = render_sheets(lb, db_path)
    for fmt in FORMATS:
        files[FILES[fmt]] = render(lb, fmt)
    return files, problems


def _write_tree(root: Path, files: dict[str, str]) -> None:
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(root, 0o777 & ~umask)  # mkdtemp makes 0700; a published folder is an ordinary one
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")


def _foreign(folder: Path) -> list[str]:
    """Entries of ``folder`` that a previous ``--out`` run did not write (empty: safe to replace whole)."""
    present = list(folder.iterdir())
    if not present:
        return []
    foreign = []
    for p in present:
        if p.name == SHEETS_DIR:
            if not p.is_dir() or p.is_symlink():
                foreign.append(SHEETS_DIR)
            else:
                foreign += [f"{SHEETS_DIR}/{q.name}" for q in p.iterdir()
                            if not (q.is_file() and not q.is_symlink() and q.suffix == ".html")]
        elif p.name not in _OURS or not p.is_file() or p.is_symlink():
            foreign.append(p.name)  # an unknown name, or one of ours that is a folder or a link
    if not foreign and not (folder / MARKER).is_file():
        foreign = sorted(p.name for p in present)  # names like ours, but not a folder this command wrote
    return sorted(foreign)


def check_folder(out: str | Path, keep: list[str | Path] = ()) -> Path:
    """The resolved ``--out`` folder, if it may be written (BadInputError otherwise): new, empty, or a previous
    leaderboard's folder (nothing in it but its files), in a folder that exists, holding none of ``keep``
    (the input database)."""
    target = Path(os.path.realpath(out))
    for k in keep:
        real = Path(os.path.realpath(k))
        if real == target or target in real.parents:
            raise BadInputError(f"--out {out}: holds the input {k}; choose a folder that does not contain it")
    if target.exists():
        if not target.is_dir():
            raise BadInputError(f"--out {out}: exists and is not a folder")
        foreign = _foreign(target)
        if foreign:
            raise BadInputError(f"--out {out}: the folder holds other files ({', '.join(foreign[:3])}"
                                f"{', ...' if len(foreign) > 3 else ''}); refusing to replace it (use a new or "
                                "empty folder)")
    if not target.parent.is_dir():
        raise BadInputError(f"--out {out}: parent folder does not exist")
    if target == Path(target.anchor):
        raise BadInputError(f"--out {out}: refusing to replace a file-system root")
    return target


def write_folder(out: str | Path, files: dict[str, str], keep: list[str | Path] = ()) -> Path:
    """Write ``files`` as the folder ``out``, all or nothing: into a temp folder beside it, then renamed into place.

    An existing ``out`` is replaced only when it is empty or holds nothing but a previous leaderboard's files.
    """
    target = check_folder(out, keep)
    try:
        tmp = Path(tempfile.mkdtemp(prefix=f".{target.name[:60]}.tmp-", dir=target.parent))
    except OSError as exc:
        raise BadInputError(f"cannot write {out}: {exc.strerror or exc}") from None
    old: Path | None = None
    try:
        _write_tree(tmp, {**files, MARKER: "Written by 'deploysheet leaderboard --out': the next run replaces this "
                                          "folder whole.\n"})
        if target.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{target.name[:60]}.old-", dir=target.parent))
            os.rmdir(old)
            os.replace(target, old)
            late = _foreign(old)  # written into it while the new tree was being written: put it back, stop
            if late:
                os.replace(old, target)
                old = None
                raise BadInputError(f"--out {out}: the folder changed while the leaderboard was written "
                                    f"({', '.join(late[:3])}); nothing replaced")
        try:
            os.replace(tmp, target)
        except BaseException:
            if old is not None:
                os.replace(old, target)
                old = None
            raise
    except BaseException as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        if isinstance(exc, OSError):
            raise BadInputError(f"cannot write {out}: {exc.strerror or exc}") from None
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
    return target


def push_to_hub(folder: str | Path, repo_id: str, lb: Leaderboard) -> str:
    """Upload ``folder`` to the Hub dataset repo ``repo_id`` (created if missing); returns the commit URL.

    Honours HF_ENDPOINT and HF_TOKEN. Any Hub or network failure is a one-line HubError (exit 3).
    """
    from huggingface_hub import HfApi

    from .sources import _network_errors, redact

    from .sources import hub_endpoint
    endpoint = hub_endpoint()
    api = HfApi(endpoint=endpoint, token=os.environ.get("HF_TOKEN") or None)
    try:
        api.create_repo(repo_id, repo_type="dataset", exist_ok=True)
        info = api.upload_folder(folder_path=str(folder), repo_id=repo_id, repo_type="dataset",
                                 commit_message=f"deploysheet leaderboard: {len(lb.entries)} models, {lb.gpu} "
                                                f"{lb.regime.id}")
    except DeploysheetError:
        raise
    except _network_errors() as exc:
        from huggingface_hub import errors as e
        status = getattr(getattr(exc, "response", None), "status_code", None)
        if isinstance(exc, e.RepositoryNotFoundError):
            raise HubError(f"push to {repo_id}: dataset repo not found and could not be created") from None
        if status in (401, 403):
            raise HubError(f"push to {repo_id}: the Hub refused the upload (HTTP {status}); set HF_TOKEN to a "
                           "token that may write to it") from None
        if status:
            raise HubError(f"push to {repo_id}: the Hub answered HTTP {status}") from None
        raise HubError(f"push to {repo_id}: cannot reach the Hub at {redact(endpoint)}: {type(exc).__name__}") \
            from None
    return str(getattr(info, "commit_url", None) or info)


def warn(problems: Iterable[str]) -> None:
    problems = list(problems)
    if problems:
        print(f"deploysheet: warning: {len(problems)} sheet(s) not rendered (linked to the Hub instead): "
              f"{'; '.join(problems[:3])}{'; ...' if len(problems) > 3 else ''}", file=sys.stderr)
