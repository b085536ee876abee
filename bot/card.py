"""Model-card mode: a pull request that puts the deployment sheet in the model card, between markers.

``deploysheet hub post REPO_ID --as pr`` is for authors who want the sheet in their card. Rules
(hub-and-github.md §3.1, §3.4, §6 — the lessons of SFconvertbot and the leaderboard bots):

* the pull request changes only ``README.md``, and only between ``<!-- deploysheet:start -->`` and
  ``<!-- deploysheet:end -->``; every other byte of the card is kept as it is (a card without the
  markers gets the block appended; a card with only one of them is refused, not guessed at);
* one open bot pull request per repo (found by the bot's author name and its hidden marker, open or
  draft); when the model changes it is updated in place (a commit to ``refs/pr/N`` plus an edited
  description), never a second one; duplicates found are closed;
* a closed bot pull request means no: the bot never opens another. A merged one means yes: later
  changes open a new pull request, unless the owner has since removed the section from the card
  (that too means no);
* "up to date" is decided by a key: a digest of what the sheet is computed from (config.json,
  hf_quant_config.json, the safetensors counts, the scoring options and the bot version), not by the
  commit sha — merging the pull request is itself a commit, and must not cause another one.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict
from pathlib import Path

from scorer import __version__
from scorer.errors import BadInputError
from scorer.render import render_markdown
from scorer.sheet import Options, Sheet, build_sheet
from scorer.sources import RawModel, load_hub

from .hub import HubClient
from .marker import Marker, find_marker
from .post import Outcome, _url, neutralize_mentions, write_dry_run

START = b"<!-- deploysheet:start -->"
END = b"<!-- deploysheet:end -->"
MAX_CARD_BYTES = 4 * 1024 * 1024
PR_TITLE = "Add a deployment sheet section to the model card [automated, deploysheet]"


def card_key(raw: RawModel, options: Options) -> str:
    """16 hex digits of SHA-256 over everything the sheet depends on except the commit sha."""
    blob = json.dumps({"config": raw.config, "quant": raw.quant_config,
                       "safetensors": raw.provenance.safetensors_parameters,
                       "options": options.model_dump(mode="json"), "bot": __version__},
                      sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def _own_line(text: bytes, i: int, n: int) -> bool:
    """The marker at ``text[i:i+n]`` stands alone on its line (spaces allowed around it)."""
    line_start = text.rfind(b"\n", 0, i) + 1
    line_end = text.find(b"\n", i + n)
    line_end = len(text) if line_end < 0 else line_end
    return text[line_start:i].strip() == b"" and text[i + n:line_end].strip() == b""


def _in_fence(text: bytes, i: int) -> bool:
    """Position ``i`` is inside a fenced code block (an odd number of ``` or ~~~ fence lines before it)."""
    return sum(1 for line in text[:i].split(b"\n") if line.lstrip().startswith((b"```", b"~~~"))) % 2 == 1


def find_block(card: bytes | None) -> tuple[int, int] | None:
    """Byte span ``[start, end)`` of the deploysheet block in the card, markers included; None if absent.

    The block is recognized only when each marker appears exactly once, on a line of its own, outside
    code fences, start before end. Anything else (a card that quotes the markers in prose or in a code
    block, two blocks, a lone marker) is refused rather than guessed at.

    Raises:
        BadInputError: the markers are unmatched, repeated, out of order, or not on lines of their own.
    """
    if not card:
        return None
    ns, ne = card.count(START), card.count(END)
    if ns == 0 and ne == 0:
        return None
    how = ("fix the card by hand: one '<!-- deploysheet:start -->' line and one '<!-- deploysheet:end -->' "
           "line, in that order, outside code blocks")
    if ns != 1 or ne != 1:
        raise BadInputError(f"the model card has an unmatched or repeated deploysheet marker; {how}")
    i, j = card.find(START), card.find(END)
    if j < i:
        raise BadInputError(f"the model card has an unmatched deploysheet marker (end before start); {how}")
    if not (_own_line(card, i, len(START)) and _own_line(card, j, len(END))) or _in_fence(card, i):
        raise BadInputError(f"the model card quotes the deploysheet markers (not on lines of their own, or in a "
                            f"code block); {how}")
    return i, j + len(END)


def splice(card: bytes | None, block: bytes) -> bytes:
    """The card with ``block`` in place of the old block, or appended; all other bytes unchanged."""
    span = find_block(card)
    if card is None or card == b"":
        return block + b"\n"
    nl = b"\r\n" if b"\r\n" in card else b"\n"
    if nl == b"\r\n":  # keep a CRLF card CRLF throughout
        block = block.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    if span is not None:
        return card[:span[0]] + block + card[span[1]:]
    sep = b"" if card.endswith(nl * 2) else (nl if card.endswith(nl) else nl * 2)
    return card + sep + block + nl


def _demote(md: str, levels: int = 1) -> str:
    """Drop the sheet's H1 title and push its other headings down ``levels`` (code fences untouched)."""
    out, fence = [], False
    for n, line in enumerate(md.splitlines()):
        if line.startswith("```"):
            fence = not fence
        elif not fence and n == 0 and line.startswith("# "):
            continue
        elif not fence and re.match(r"#{1,6} ", line):
            line = "#" * levels + line
        out.append(line)
    return "\n".join(out).strip("\n")


def section_for(sheet: Sheet, marker: Marker) -> bytes:
    """The block that goes into the card, markers included (UTF-8)."""
    sha = marker.sha[:7]
    text = (
        "## Deployment sheet\n\n"
        f"*Generated by deploysheet {__version__} from this repository's `config.json` at commit `{sha}` "
        "(no code from the repository is run): hardware fit, quantization readiness and predicted serving "
        "cost. The bot updates this section through a pull request when the model changes; delete the "
        "section (markers included) to stop that.*\n\n"
        f"**Grade {sheet.score.grade}** ({sheet.score.total:.0f}/100).\n\n"
        "<details>\n<summary>Full deployment sheet</summary>\n\n"
        f"{neutralize_mentions(_demote(render_markdown(sheet)))}\n\n"
        "</details>\n\n"
        f"{marker.render()}\n")
    return START + b"\n" + text.encode("utf-8") + END


def description_for(marker: Marker, added: bool) -> str:
    where = "appends a `Deployment sheet` section at the end of" if added else "replaces the `Deployment sheet` section of"
    return (
        f"*This is an automated pull request from deploysheet {__version__}, opened because model-card mode was "
        "requested for this repository.*\n\n"
        f"It {where} `README.md`, between the markers `<!-- deploysheet:start -->` and "
        "`<!-- deploysheet:end -->`; no other file and no other byte of the card is changed. The section holds "
        "the model's deployment sheet: hardware fit, quantization readiness and predicted serving cost, computed "
        "from `config.json` without running any code from the repository.\n\n"
        "Merge it to keep the sheet in the card. To decline, close this pull request: the bot will never open "
        "another one here. If the model changes while this is open, the bot updates this pull request in place.\n\n"
        f"{marker.render()}\n")


def _write_dry_run(folder: Path, outcome: Outcome, readme: bytes, description: str) -> None:
    safe = outcome.repo_id.replace("/", "__")
    write_dry_run(folder, {f"{safe}.README.md": readme, f"{safe}.pr.md": description.encode(),
                           f"{safe}.json": (json.dumps(asdict(outcome), indent=2) + "\n").encode()})


def post_card_pr(repo_id: str, revision: str | None = None, *, client: HubClient | None = None,
                 options: Options | None = None, dry_run: str | Path | None = None) -> Outcome:
    """Open or update the bot's model-card pull request on ``repo_id`` (see the module docstring).

    Outcome actions: ``created``, ``updated``, ``unchanged`` (the open PR is current), ``in-card`` (the
    card on the main branch already holds the current section), ``opted-out``, ``dry-run:*``.

    Raises:
        HubError / BadInputError: the repo or its card cannot be read or scored, or the card has an
        unmatched marker.
    """
    client = client or HubClient()
    options = options or Options()
    raw = load_hub(repo_id, repo_id, revision)
    sheet = build_sheet(raw, options)
    sha = raw.provenance.commit_sha or ""
    key = card_key(raw, options)
    marker = Marker(repo=repo_id, sha=sha, score=sheet.score.total, grade=sheet.score.grade, key=key)
    base = dict(repo_id=repo_id, sha=sha, grade=marker.grade, score=marker.score)

    card = client.read_file(repo_id, "README.md", sha, MAX_CARD_BYTES)
    try:
        if card is not None:
            card.decode("utf-8")
        span = find_block(card)
    except UnicodeDecodeError:
        raise BadInputError(f"{repo_id}: the model card README.md is not UTF-8; the bot does not edit it") from None
    except BadInputError as exc:
        raise BadInputError(f"{repo_id}: {exc}") from None
    in_card = find_marker(card[span[0]:span[1]].decode("utf-8", "replace")) if span and card else None
    readme = splice(card, section_for(sheet, marker))
    description = description_for(marker, added=span is None)

    posts = client.own_discussions(repo_id, pull_requests=None)  # discussions and model-card PRs
    prs = [d for d in posts if d.is_pull_request]
    closed = [d for d in posts if d.opted_out(client.me)]
    merged = [d for d in prs if d.status == "merged"]
    open_ = [d for d in prs if d.status in ("open", "draft")]
    if closed:  # the owner closed the bot's pull request or discussion: no post of either kind
        out = Outcome(action="opted-out", discussion=min(d.num for d in closed), **base)
    elif in_card is not None and in_card.key == key:
        out = Outcome(action="in-card", **base)
    elif merged and span is None:  # merged once, then the owner removed the section: that is a no
        out = Outcome(action="opted-out", discussion=max(d.num for d in merged), **base)
    else:
        out = None
    if dry_run is not None:
        if out is None:
            action = "create" if not open_ else (
                "unchanged" if open_[0].marker and open_[0].marker.key == key else "update")
            out = Outcome(action=action, discussion=open_[0].num if open_ else None, **base)
        out.action = "dry-run:" + out.action
        _write_dry_run(Path(dry_run), out, readme, description)
        return out
    if out is not None:
        if out.action == "in-card" and open_:  # a stale open PR whose change is already in the card
            for d in open_:
                client.close(repo_id, d, "The card already holds the current deployment sheet; closing. "
                                         "[automated, deploysheet]")
            out.closed_duplicates = [d.num for d in open_]
        return out
    if not open_:
        num = client.create_card_pr(repo_id, readme, PR_TITLE, description, parent_commit=sha)
        return Outcome(action="created", discussion=num, url=_url(client, repo_id, num), **base)
    keep, dupes = open_[0], open_[1:]
    for d in dupes:
        client.close(repo_id, d, f"Closing a duplicate of pull request #{keep.num}. [automated, deploysheet]")
    closed_dupes = [d.num for d in dupes] or None
    if keep.marker is not None and keep.marker.key == key:
        return Outcome(action="unchanged", discussion=keep.num, closed_duplicates=closed_dupes,
                       url=_url(client, repo_id, keep.num), **base)
    client.update_card_pr(repo_id, keep, readme, PR_TITLE, description)
    return Outcome(action="updated", discussion=keep.num, closed_duplicates=closed_dupes,
                   url=_url(client, repo_id, keep.num), **base)

