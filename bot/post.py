"""Post (or update) a model's deployment sheet as one Hub discussion, idempotently.

Rules (hub-and-github.md §0, §3.4, §6):

* one discussion per repo, found by the bot's author name and its hidden marker, open or closed;
* a bot discussion or model-card pull request closed by someone else means the owner opted out:
  never post there or open another (one the bot closed itself, as a duplicate, does not count);
* same commit as the marker says → nothing to do; new commit → edit the sheet in place, and add a
  short comment only when the grade changes;
* duplicates the bot finds (say, after a lost response) are closed, the oldest is kept;
* ``dry_run`` writes what would be posted to a folder and makes no write on the Hub.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import asdict, dataclass
from pathlib import Path

from scorer import __version__
from scorer.errors import BadInputError
from scorer.render import render_markdown
from scorer.sheet import Options, Sheet, build_sheet
from scorer.sources import load_hub

from .hub import HubClient
from .marker import Marker

TITLE_MAX = 200


@dataclass
class Outcome:
    repo_id: str
    action: str  # created, updated, updated+comment, unchanged, opted-out, dry-run
    sha: str
    grade: str
    score: float
    discussion: int | None = None
    closed_duplicates: list[int] | None = None
    url: str | None = None


def title_for(sheet: Sheet) -> str:
    """Discussion title: fixed plain text, so it stays true when the sheet is edited (hub-and-github.md §3.4)."""
    return "GPU deployment sheet (automated, deploysheet)"[:TITLE_MAX]


def neutralize_mentions(md: str) -> str:
    """Defuse @mentions (a zero-width space after '@'); model strings are already escaped by the template."""
    return re.sub(r"(?<![\w`])@(?=[A-Za-z0-9])", "@\u200b", md)


def body_for(sheet: Sheet, marker: Marker) -> str:
    """The discussion's first comment: who posts, how to opt out, the sheet, the marker."""
    head = (
        f"*This is an automated deployment sheet from deploysheet {__version__}: hardware fit, quantization readiness and predicted serving cost computed from this "
        "repository's `config.json` (no code from the repository is run). It is edited in place when the bot "
        "scores a new commit. To opt out, close this discussion: the bot never posts on this repository "
        "again.*\n\n")
    sheet_md = neutralize_mentions(render_markdown(sheet))
    return head + sheet_md.rstrip() + "\n\n" + marker.render() + "\n"


def write_dry_run(folder: Path, files: dict[str, bytes]) -> None:
    """Write the dry-run files into ``folder``: all of them or none (temporary files, then renames).

    Raises:
        BadInputError: the folder cannot be created or written, or a target exists and is not a regular file.
    """
    import tempfile

    temps: list[tuple[str, Path]] = []
    try:
        if not folder.parent.is_dir():  # as every other output: a missing parent folder is refused, not made
            raise BadInputError(f"--dry-run {folder}: its parent folder {folder.parent} does not exist")
        folder.mkdir(exist_ok=True)
        for name in files:
            target = folder / name
            if target.exists() and not target.is_file():
                raise BadInputError(f"--dry-run {folder}: {name} exists and is not a regular file")
        for name, data in files.items():
            fd, tmp = tempfile.mkstemp(prefix=f".{name[:64]}.", dir=folder)
            temps.append((tmp, folder / name))
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
        for tmp, target in temps:
            os.replace(tmp, target)
        temps = []
    except OSError as exc:
        raise BadInputError(f"--dry-run {folder}: cannot write there: {exc.strerror or exc}") from None
    finally:
        for tmp, _ in temps:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _write_dry_run(folder: Path, outcome: Outcome, title: str, body: str) -> None:
    safe = outcome.repo_id.replace("/", "__")
    write_dry_run(folder, {f"{safe}.title.txt": (title + "\n").encode(), f"{safe}.md": body.encode(),
                           f"{safe}.json": (json.dumps(asdict(outcome), indent=2) + "\n").encode()})


def post_discussion(repo_id: str, revision: str | None = None, *, client: HubClient | None = None,
                    options: Options | None = None, dry_run: str | Path | None = None) -> Outcome:
    """Create or update the bot's discussion on ``repo_id`` (see module docstring).

    Raises:
        HubError / BadInputError: the repo cannot be read or scored (from :mod:`scorer.sources`).
    """
    client = client or HubClient()
    raw = load_hub(repo_id, repo_id, revision)
    sheet = build_sheet(raw, options or Options())
    sha = raw.provenance.commit_sha or ""
    marker = Marker(repo=repo_id, sha=sha, score=sheet.score.total, grade=sheet.score.grade)
    title, body = title_for(sheet), body_for(sheet, marker)
    base = dict(repo_id=repo_id, sha=sha, grade=marker.grade, score=marker.score)

    posts = client.own_discussions(repo_id, pull_requests=None)  # discussions and model-card PRs
    no = [d for d in posts if d.opted_out(client.me)]
    if no:  # the owner closed the bot's discussion or pull request: no post of either kind
        out = Outcome(action="dry-run:opted-out" if dry_run is not None else "opted-out", discussion=min(d.num for d in no),
                      **base)
        if dry_run is not None:
            _write_dry_run(Path(dry_run), out, title, body)
        return out
    mine = [d for d in posts if not d.is_pull_request and d.status != "closed"]
    if dry_run is not None:
        action = "dry-run:create" if not mine else (
            "dry-run:unchanged" if mine[0].marker and mine[0].marker.sha == sha else "dry-run:update")
        out = Outcome(action=action, discussion=mine[0].num if mine else None, **base)
        _write_dry_run(Path(dry_run), out, title, body)
        return out
    if not mine:
        num = client.create_discussion(repo_id, title, body)
        return Outcome(action="created", discussion=num, url=_url(client, repo_id, num), **base)
    keep, dupes = mine[0], mine[1:]
    for d in dupes:
        client.close(repo_id, d, "Closing a duplicate of the deployment sheet in discussion "
                                 f"#{keep.num}. [automated, deploysheet]")
    closed = [d.num for d in dupes] or None
    old = keep.marker
    if old is not None and old.sha == sha:
        return Outcome(action="unchanged", discussion=keep.num, closed_duplicates=closed,
                       url=_url(client, repo_id, keep.num), **base)
    action = "updated"
    if old is not None and old.grade != marker.grade:
        # the comment goes first, the edit (which moves the marker to this commit) last: if either fails,
        # the next run sees the old marker and finishes the work, and never comments twice for one commit
        note = (f"The deployment sheet above was updated for commit {sha[:7]}: grade {old.grade} → "
                f"{marker.grade} ({old.score:.1f} → {marker.score:.1f}/100). [automated, deploysheet]")
        if not any(f"for commit {sha[:7]}:" in c for c in keep.comments):
            client.add_comment(repo_id, keep, note)
        action = "updated+comment"
    client.edit_first_comment(repo_id, keep, body)
    return Outcome(action=action, discussion=keep.num, closed_duplicates=closed, url=_url(client, repo_id, keep.num),
                   **base)


def _url(client: HubClient, repo_id: str, num: int) -> str:
    return f"{client.endpoint}/{repo_id}/discussions/{num}"
