"""The GitHub Action's entry point: ``deploysheet action`` (run by ``action.yml``).

Reads its inputs from the environment (the composite action maps each input through ``env:``;
hub-and-github.md §4.1-§4.8), scores the model, then, in this order:

1. writes the sheet to ``$GITHUB_STEP_SUMMARY`` (trimmed below the 1 MiB cap with a note) and to a
   file (the ``sheet-path`` output);
2. posts it: on ``pull_request`` one sticky comment found by a hidden marker and the token's login
   (PATCH when the body changed, nothing when identical, newer duplicates deleted); on ``release``
   (or a tag push) a block between markers in the release body, the rest of the body untouched;
   on a pull request the comment leads with what changed against the base revision;
3. writes ``score``, ``grade``, ``passed``, ``sheet-path`` and ``comment-url`` to ``$GITHUB_OUTPUT``;
4. applies the quality gate last, so a failing run still shows why.

A 403 from GitHub (fork pull requests get a read-only token; a missing ``permissions:``) is a
warning, never a failure: the sheet is still in the summary.

Environment (inputs): ``DEPLOYSHEET_MODEL_PATH`` (folder or config.json in the workspace, default
``.``), ``DEPLOYSHEET_HF_REPO_ID`` and ``DEPLOYSHEET_HF_REVISION`` (score a Hub repo instead),
``HF_TOKEN`` (empty = unset), ``DEPLOYSHEET_GPUS`` (comma- or space-separated), ``DEPLOYSHEET_PRECISION``,
``DEPLOYSHEET_THRESHOLD`` (0-100, 0 disables the gate), ``DEPLOYSHEET_COMMENT`` (auto | pr | release
| none), ``DEPLOYSHEET_COMMENT_HEADER``, ``DEPLOYSHEET_DIFF`` (true | false), ``DEPLOYSHEET_ON_ERROR``
(fail | warn), ``GITHUB_TOKEN``. GitHub's own: ``GITHUB_EVENT_NAME``, ``GITHUB_EVENT_PATH``,
``GITHUB_REPOSITORY``, ``GITHUB_API_URL``, ``GITHUB_SERVER_URL``, ``GITHUB_RUN_ID``, ``GITHUB_REF``,
``GITHUB_SHA``, ``GITHUB_WORKSPACE``, ``GITHUB_STEP_SUMMARY``, ``GITHUB_OUTPUT``, ``RUNNER_TEMP``.

Exit codes: 0 done (warnings included) · 2 bad input or a model that cannot be scored · 3 Hub
failure (both only with ``on-error: fail``) · 4 the score is below the threshold · 1 internal error.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import sys
from dataclasses import dataclass, field
from pathlib import Path

from scorer.errors import EXIT_GATE, BadInputError, DeploysheetError
from scorer.render import md_escape, render_diff_markdown, render_json, render_markdown
from scorer.sheet import Options, Sheet, build_sheet
from scorer.sources import (
    MAX_CONFIG_BYTES,
    Provenance,
    RawModel,
    load_source,
    parse_json_bytes,
)

from .card import END, START, find_block, splice
from .github import GitHub, GitHubError
from .post import neutralize_mentions

SUMMARY_MAX_BYTES = 1024 * 1024  # $GITHUB_STEP_SUMMARY cap per step (hub-and-github.md §4.3)
COMMENT_MAX_CHARS = 65536  # GitHub issue-comment body limit (§4.6)
RELEASE_MAX_CHARS = 125000  # GitHub release body limit
COMMENT_MODES = ("auto", "pr", "release", "none")
_DATE = re.compile(r" on \d{4}-\d{2}-\d{2}")


# ------------------------------------------------------------------------------------------ inputs
@dataclass
class Inputs:
    model_path: str = "."
    hf_repo_id: str = ""
    hf_revision: str = ""
    gpus: list[str] = field(default_factory=list)
    precision: str = ""
    threshold: float = 0.0
    comment: str = "auto"
    header: str = ""
    diff: bool = True
    on_error: str = "fail"

    @classmethod
    def from_env(cls, env: dict[str, str]) -> Inputs:
        """Parse and check the inputs. Raises BadInputError naming the input at fault."""
        def get(name: str, default: str = "") -> str:
            return (env.get(f"DEPLOYSHEET_{name}") or default).strip()

        raw_t = get("THRESHOLD", "0")
        if not re.fullmatch(r"[0-9]{1,3}(\.[0-9]+)?", raw_t):
            raise BadInputError(f"input threshold: {raw_t[:40]!r} is not a number from 0 to 100")
        threshold = float(raw_t)
        if not 0 <= threshold <= 100:
            raise BadInputError(f"input threshold: {threshold:g} is outside 0-100")
        comment = get("COMMENT", "auto").lower()
        if comment not in COMMENT_MODES:
            raise BadInputError(f"input comment: {comment[:40]!r} is not one of {', '.join(COMMENT_MODES)}")
        header = get("COMMENT_HEADER")
        if not re.fullmatch(r"[A-Za-z0-9._-]{0,64}", header):
            raise BadInputError("input comment-header: use at most 64 letters, digits, '.', '_' or '-'")
        on_error = get("ON_ERROR", "fail").lower()
        if on_error not in ("fail", "warn"):
            raise BadInputError(f"input on-error: {on_error[:40]!r} is not fail or warn")
        diff = get("DIFF", "true").lower()
        if diff not in ("true", "false"):
            raise BadInputError(f"input diff: {diff[:40]!r} is not true or false")
        from scorer.hardware import get_gpu, get_precision
        from scorer.sources import parse_hub_source

        listed = get("GPUS").strip()
        gpus = [g for g in re.split(r"\s*,\s*|\s+", listed)] if listed else []
        if any(not g for g in gpus):
            raise BadInputError(f"input gpus: an empty GPU id in {listed[:80]!r}")
        try:
            gpus = [get_gpu(g).id for g in gpus]
            precision = get("PRECISION")
            if precision:
                get_precision(precision)
        except BadInputError as exc:
            raise BadInputError(f"input {'precision' if 'precision' in str(exc) else 'gpus'}: {exc}") from None
        repo_id, revision = get("HF_REPO_ID"), get("HF_REVISION")
        if repo_id:
            parsed = parse_hub_source(repo_id)
            if parsed is None or parsed[1] or (revision and parse_hub_source(f"{parsed[0]}@{revision}") is None):
                raise BadInputError(f"input hf-repo-id/hf-revision: {repo_id[:100]!r} @ {revision[:100]!r} is not a "
                                    "Hub repo id (org/name) and a branch, tag or commit")
            from scorer.sources import hub_endpoint
            hub_endpoint()  # a malformed HF_ENDPOINT is the user's setting (exit 2), before huggingface_hub loads
        return cls(model_path=get("MODEL_PATH", "."), hf_repo_id=repo_id, hf_revision=revision, gpus=gpus,
                   precision=precision, threshold=threshold, comment=comment, header=header, diff=diff == "true",
                   on_error=on_error)

    def options(self) -> Options:
        kw = {"gpus": self.gpus} if self.gpus else {}
        return Options(precision=self.precision or None, **kw)


# ------------------------------------------------------------------------------------------ workflow commands
def _escape_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def annotate(level: str, message: str, title: str = "deploysheet") -> None:
    """A workflow command (``::warning title=...::message``) that GitHub shows on the run."""
    t = _escape_data(title).replace(":", "%3A").replace(",", "%2C")
    print(f"::{level} title={t}::{_escape_data(message)}", flush=True)


def write_outputs(path: str | None, values: dict[str, str]) -> None:
    """Append ``name<<DELIM`` blocks to ``$GITHUB_OUTPUT`` with a random delimiter (§4.3)."""
    if not path:
        return
    text = ""
    for k, v in values.items():
        delim = f"ghadelim_{secrets.token_hex(16)}"
        text += f"{k}<<{delim}\n{v}\n{delim}\n"
    try:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as exc:
        raise BadInputError(f"GITHUB_OUTPUT {path}: cannot write the outputs ({exc.strerror or exc})") from None


def trim_utf8(text: str, max_bytes: int, note: str) -> str:
    """``text`` cut at a line boundary so that it plus ``note`` fits in ``max_bytes`` of UTF-8."""
    data = text.encode("utf-8")
    if len(data) <= max_bytes:
        return text
    room = max_bytes - len(note.encode("utf-8")) - 2
    cut = data[:max(room, 0)].decode("utf-8", "ignore")
    cut = cut[:cut.rfind("\n") + 1] if "\n" in cut else cut
    if cut.count("```") % 2:  # do not leave a code fence open
        cut += "```\n"
    return cut + "\n" + note + "\n"


# ------------------------------------------------------------------------------------------ the action
@dataclass
class Context:
    env: dict[str, str]
    event_name: str
    event: dict
    repository: str
    api_url: str
    run_url: str | None

    @classmethod
    def from_env(cls, env: dict[str, str]) -> Context:
        event: dict = {}
        path = env.get("GITHUB_EVENT_PATH")
        if path:
            try:
                with open(path, "rb") as fh:
                    event = json.loads(fh.read(16 * 1024 * 1024))
            except (OSError, ValueError) as exc:
                raise BadInputError(f"GITHUB_EVENT_PATH {path}: cannot read the event ({type(exc).__name__})") \
                    from None
            if not isinstance(event, dict):
                raise BadInputError(f"GITHUB_EVENT_PATH {path}: the event is not a JSON object")
        server, repo, run = env.get("GITHUB_SERVER_URL", "https://github.com"), env.get("GITHUB_REPOSITORY", ""), \
            env.get("GITHUB_RUN_ID")
        return cls(env=env, event_name=env.get("GITHUB_EVENT_NAME", ""), event=event, repository=repo,
                   api_url=env.get("GITHUB_API_URL") or "https://api.github.com",
                   run_url=f"{server.rstrip('/')}/{repo}/actions/runs/{run}" if repo and run else None)

    @property
    def pr(self) -> dict | None:
        pr = self.event.get("pull_request")
        return pr if isinstance(pr, dict) and type(pr.get("number")) is int and pr["number"] > 0 else None

    @property
    def tag(self) -> str | None:
        ref = self.env.get("GITHUB_REF", "")
        return ref[len("refs/tags/"):] if ref.startswith("refs/tags/") else None


def _repo_root(start: Path, workspace: Path) -> Path:
    """The git checkout holding ``start`` (a folder with ``.git``), else the workspace."""
    for d in [start, *start.parents]:
        if (d / ".git").exists():
            return d
        if d == workspace:
            break
    return workspace


def _model_files(inputs: Inputs, workspace: Path) -> tuple[Path, str]:
    """The local config.json and its path relative to the repository root (for the contents API).

    The root is the checkout that holds the config (``actions/checkout`` may use ``path:``), so the
    same path names the file at the pull request's base commit.
    """
    p = Path(inputs.model_path)
    p = p if p.is_absolute() else workspace / p
    cfg = p / "config.json" if p.is_dir() else p
    root = _repo_root(cfg.parent.resolve(), workspace.resolve())
    try:
        rel = cfg.parent.resolve().relative_to(root).joinpath(cfg.name).as_posix()
    except ValueError:
        rel = ""
    return cfg, rel


def score_head(inputs: Inputs, ctx: Context) -> tuple[Sheet, str]:
    """Build the sheet of what the workflow checked out (or of the Hub repo); returns it and the config's repo path."""
    if inputs.hf_repo_id:
        from scorer.sources import load_hub
        raw = load_hub(inputs.hf_repo_id, inputs.hf_repo_id, inputs.hf_revision or None)
        return build_sheet(raw, inputs.options()), ""
    workspace = Path(ctx.env.get("GITHUB_WORKSPACE") or os.getcwd())
    cfg, rel = _model_files(inputs, workspace)
    raw = load_source(str(cfg))
    raw.provenance.source = raw.provenance.path = rel or inputs.model_path  # no runner paths in the sheet
    return build_sheet(raw, inputs.options()), rel


def score_base(gh: GitHub, inputs: Inputs, ctx: Context, rel: str) -> Sheet | None | str:
    """The sheet of the pull request's base revision: a Sheet, None (no config there: a new model), or a
    one-line reason the comparison is skipped."""
    pr = ctx.pr
    base_sha = ((pr or {}).get("base") or {}).get("sha")
    if not isinstance(base_sha, str) or not rel:
        return "no base revision to compare with"
    try:
        data = gh.file(rel, base_sha, MAX_CONFIG_BYTES)
        if data is None:
            if not gh.readable(base_sha):  # a 404 on everything: the token cannot read the repository
                return "the base revision is not readable with this token (contents: read)"
            return None
        quant_rel = rel.rsplit("/", 1)[0] + "/hf_quant_config.json" if "/" in rel else "hf_quant_config.json"
        quant = gh.file(quant_rel, base_sha, MAX_CONFIG_BYTES)
    except GitHubError as exc:
        return f"base revision not readable ({exc.status or 'no answer'})"
    try:
        raw = RawModel(config=parse_json_bytes(data, f"{rel}@{base_sha[:7]}"),
                       quant_config=parse_json_bytes(quant, f"{quant_rel}@{base_sha[:7]}") if quant else None,
                       provenance=Provenance(kind="local", source=f"{rel} (base {base_sha[:7]})",
                                             path=f"{rel} (base {base_sha[:7]})", files=[rel]))
        return build_sheet(raw, inputs.options())
    except DeploysheetError as exc:
        return f"the base revision's config cannot be scored: {exc}"


def marker_for(header: str) -> str:
    return f"<!-- deploysheet-action:v1 header={header} -->"


def _fold(sheet_md: str) -> tuple[str, str]:
    """The sheet's head (title, score line, summary table) and the rest (from its first '## ' section)."""
    i = sheet_md.find("\n## ")
    return (sheet_md, "") if i < 0 else (sheet_md[:i].rstrip() + "\n", sheet_md[i + 1:])


def comment_body(sheet: Sheet, header: str, lead: str, run_url: str | None) -> str:
    """The sticky comment, under 65,536 characters: marker on the first line, the diff (if any), the sheet's
    head, then the rest of the sheet folded in ``<details>`` (cut, with a link to the run, if still too long)."""
    sheet_md = neutralize_mentions(render_markdown(sheet)).rstrip()
    top, rest = _fold(sheet_md)
    head = f"{marker_for(header)}\n{lead}{top}\n"
    if not rest:
        return trim_utf8(head, COMMENT_MAX_CHARS, "")
    body = f"{head}<details>\n<summary>Full deployment sheet</summary>\n\n{rest}\n\n</details>\n"
    if len(body) <= COMMENT_MAX_CHARS:
        return body
    where = f"the [run summary]({run_url})" if run_url else "the run summary"
    note = f"*The sheet is longer than a comment may be; it is cut here. The whole sheet is in {where}.*"
    room = COMMENT_MAX_CHARS - len(head) - len(note) - 128
    return (f"{head}<details>\n<summary>Full deployment sheet</summary>\n\n"
            f"{trim_utf8(rest, room, note)}\n</details>\n")


def _same(a: str, b: str) -> bool:
    """Equal apart from the generation date in the sheet's last line."""
    return _DATE.sub("", a).rstrip() == _DATE.sub("", b).rstrip()


def _mine(login: str, me: str | None) -> bool:
    """A comment by this token's identity. When ``GET /user`` is refused (GITHUB_TOKEN and GitHub App
    installation tokens), the author is an app: ``github-actions[bot]`` or ``<app-slug>[bot]``."""
    login = login.lower()
    if me:
        return login in (me.lower(), f"{me.lower()}[bot]")
    return login.endswith("[bot]")


def find_mine(gh: GitHub, number: int, header: str, me: str | None) -> list:
    marker = marker_for(header)
    return [c for c in gh.comments(number) if marker in c.body and _mine(c.login, me)]


def sticky_comment(gh: GitHub, number: int, body: str, header: str) -> tuple[str, str]:
    """Create or update the one marked comment on issue/PR ``number``; returns (action, url)."""
    me = gh.login()
    mine = find_mine(gh, number, header, me)
    if not mine:
        created = gh.create_comment(number, body)
        me = me or (created.login if created and created.login else None)
        mine = find_mine(gh, number, header, me)
        if not mine:
            return "created", created.url if created else ""
        keep = mine[0]
        for c in mine[1:]:  # a concurrent run created one too: keep the oldest
            gh.delete_comment(c.id)
        if not _same(keep.body, body):
            gh.update_comment(keep.id, body)
        return "created", keep.url
    keep, dupes = mine[0], mine[1:]
    for c in dupes:
        gh.delete_comment(c.id)
    if _same(keep.body, body):
        return "unchanged", keep.url
    url = gh.update_comment(keep.id, body) or keep.url
    return "updated", url


def release_block(sheet: Sheet, run_url: str | None) -> bytes:
    sheet_md = neutralize_mentions(render_markdown(sheet)).rstrip()
    intro = (f"## Deployment sheet\n\n**Grade {sheet.score.grade}** ({sheet.score.total:.1f}/100), computed by "
             "deploysheet from this release's `config.json`.\n\n")
    inner = f"{intro}<details>\n<summary>Full deployment sheet</summary>\n\n{sheet_md}\n\n</details>\n"
    if len(inner) > RELEASE_MAX_CHARS // 2:
        inner = intro + (f"The full sheet is in the [run summary]({run_url}).\n" if run_url else "")
    return START + b"\n" + inner.encode("utf-8") + END


def update_release(gh: GitHub, release: dict, sheet: Sheet, run_url: str | None) -> tuple[str, str]:
    """Replace (or append) the marked block in the release body; returns (action, url)."""
    rid = release.get("id")
    if type(rid) is not int:
        raise GitHubError(0, "the release in the event has no id")
    current = gh.release(rid)
    url = current.get("html_url") if isinstance(current.get("html_url"), str) else ""
    text = current.get("body") if isinstance(current.get("body"), str) else ""
    old = text.encode("utf-8")
    try:
        find_block(old)
    except BadInputError as exc:
        annotate("warning", f"not editing the release body: {str(exc).replace('model card', 'release body')}")
        return "skipped", url
    new = splice(old, release_block(sheet, run_url)).decode("utf-8")
    if _same(text, new):
        return "unchanged", url
    if len(new) > RELEASE_MAX_CHARS:
        annotate("warning", "the release body would exceed GitHub's limit; not editing it")
        return "skipped", url
    updated = gh.update_release(rid, new)
    return "updated", updated.get("html_url") if isinstance(updated.get("html_url"), str) else url


def _target(inputs: Inputs, ctx: Context) -> str:
    if inputs.comment != "auto":
        return inputs.comment
    if ctx.event_name in ("pull_request", "pull_request_target") and ctx.pr:
        return "pr"
    if ctx.event_name == "release" or ctx.tag:
        return "release"
    return "none"


def _append_summary(path: str | None, text: str) -> None:
    """Append to $GITHUB_STEP_SUMMARY; a summary that cannot be written is a warning, not a failure."""
    if not path:
        return
    try:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as exc:
        annotate("warning", f"cannot write the step summary ({exc.strerror or type(exc).__name__})")


def _output_dir(env: dict[str, str]) -> Path:
    """A fresh folder for this run's sheet under RUNNER_TEMP (two uses in one job do not collide)."""
    import tempfile
    for base in (env.get("RUNNER_TEMP"), None):
        try:
            if base:
                Path(base).mkdir(parents=True, exist_ok=True)
            return Path(tempfile.mkdtemp(prefix="deploysheet-", dir=base))
        except OSError:
            continue
    raise BadInputError("cannot create a folder for the sheet under RUNNER_TEMP or the system temp folder")


def _post(gh: GitHub, target: str, ctx: Context, body: str, header: str, sheet: Sheet | None) -> str:
    """Post the comment or release block; returns its URL. GitHub failures are warnings."""
    try:
        if target == "pr":
            number = ctx.pr["number"] if ctx.pr else None
            if number is None and isinstance(ctx.event.get("pull_request"), dict):
                annotate("notice", "the event's pull_request has no valid number; the sheet is in the summary only")
                return ""
            if number is None and ctx.env.get("GITHUB_SHA"):
                prs = gh.pulls_for_commit(ctx.env["GITHUB_SHA"])
                number = prs[0] if prs else None
            if number is None:
                annotate("notice", "no pull request for this run: the sheet is in the step summary only")
                return ""
            if sheet is None:  # could not score: only an existing comment is updated, none is created
                mine = find_mine(gh, number, header, gh.login())
                if mine and not _same(mine[0].body, body):
                    gh.update_comment(mine[0].id, body)
                return mine[0].url if mine else ""
            action, url = sticky_comment(gh, number, body, header)
            print(f"deploysheet: pull request #{number} comment {action}{' ' + url if url else ''}", flush=True)
            return url
        if target == "release" and sheet is not None:
            rel_obj = ctx.event.get("release") if isinstance(ctx.event.get("release"), dict) else None
            if rel_obj is None and ctx.tag:
                rel_obj = gh.release_by_tag(ctx.tag)
            if rel_obj is None:
                annotate("notice", "no release for this run: the sheet is in the step summary only")
                return ""
            action, url = update_release(gh, rel_obj, sheet, ctx.run_url)
            print(f"deploysheet: release body {action}{' ' + url if url else ''}", flush=True)
            return url
    except GitHubError as exc:
        if exc.status == 403 and "rate limit" in str(exc).lower():
            annotate("warning", f"{exc}. GitHub rate-limited the token; the sheet is in the step summary.")
        elif exc.status == 403:
            annotate("warning", f"{exc}. The token may not write here (pull requests from forks get a read-only "
                                "token; or add 'pull-requests: write' / 'contents: write' to permissions). The sheet "
                                "is in the step summary.")
        else:
            annotate("warning", f"could not post the sheet: {exc}. The sheet is in the step summary.")
    return ""


def run(env: dict[str, str] | None = None) -> int:
    """The action, end to end (see the module docstring). Returns the process exit code.

    Raises:
        BadInputError: an input is invalid (exit 2 whatever ``on-error`` says), or $GITHUB_OUTPUT cannot be
        written.
    """
    env = dict(os.environ if env is None else env)
    token = env.get("DEPLOYSHEET_HF_TOKEN") or env.get("HF_TOKEN") or ""
    if token:
        os.environ["HF_TOKEN"] = token  # the hf-token input, else a job-level HF_TOKEN
    else:
        os.environ.pop("HF_TOKEN", None)  # an empty token would be sent as a blank bearer
    inputs = Inputs.from_env(env)
    ctx = Context.from_env(env)
    outputs = {"score": "", "grade": "", "passed": "false", "sheet-path": "", "comment-url": ""}
    summary_path = env.get("GITHUB_STEP_SUMMARY")
    gh = GitHub(ctx.api_url, env.get("GITHUB_TOKEN") or None, ctx.repository)
    target = _target(inputs, ctx)
    if target != "none" and not env.get("GITHUB_TOKEN"):
        annotate("notice", "no github-token: the sheet goes to the step summary only")
        target = "none"
    workspace = Path(env.get("GITHUB_WORKSPACE") or os.getcwd())

    try:
        sheet, rel = score_head(inputs, ctx)
    except DeploysheetError as exc:
        msg = " ".join(str(exc).replace(f"{workspace.resolve()}/", "").replace(f"{workspace}/", "").split())
        level = "error" if inputs.on_error == "fail" else "warning"
        annotate(level, f"could not score the model: {msg}")
        _append_summary(summary_path, f"### deploysheet\n\nCould not score the model: {md_escape(msg[:500])}\n")

        head_sha = ((ctx.pr or {}).get("head") or {}).get("sha") or env.get("GITHUB_SHA") or ""
        sha = head_sha[:7] if isinstance(head_sha, str) else ""
        failed = (f"{marker_for(inputs.header)}\n### Deployment sheet\n\ndeploysheet could not score this "
                  f"revision{' (' + md_escape(sha) + ')' if sha else ''}: {md_escape(msg[:500])}\n")
        outputs["comment-url"] = _post(gh, target, ctx, failed, inputs.header, None)
        write_outputs(env.get("GITHUB_OUTPUT"), outputs)
        return exc.exit_code if inputs.on_error == "fail" else 0

    lead = ""
    if inputs.diff and target == "pr" and ctx.pr and not inputs.hf_repo_id and ctx.repository:
        base = score_base(gh, inputs, ctx, rel)
        if isinstance(base, Sheet):
            from scorer.compare import diff
            lead = render_diff_markdown(diff(base, sheet)).rstrip() + "\n\n"
        elif base is None:
            lead = ("### What this change does to deployment\n\nThe base revision has no "
                    f"{md_escape(rel)}: this pull request adds the model.\n\n")
        else:
            lead = f"*No comparison with the base revision: {md_escape(base)}.*\n\n"

    # 1. the sheet: a file and the step summary (the one channel that needs no permission)
    out_dir = _output_dir(env)
    sheet_md = render_markdown(sheet)
    (out_dir / "sheet.md").write_text(sheet_md, encoding="utf-8")
    (out_dir / "sheet.json").write_text(render_json(sheet), encoding="utf-8")
    outputs.update({"score": f"{sheet.score.total:.1f}", "grade": sheet.score.grade,
                    "sheet-path": str(out_dir / "sheet.md")})
    note = ("*The sheet is larger than the step summary may be (1 MiB); it is cut here. The whole sheet is "
            f"in `{out_dir / 'sheet.md'}` on the runner; upload it as an artifact to keep it.*")
    _append_summary(summary_path, trim_utf8(lead + sheet_md, SUMMARY_MAX_BYTES - 1024, note))

    # 2. the comment or release block
    body = comment_body(sheet, inputs.header, lead, ctx.run_url) if target == "pr" else ""
    outputs["comment-url"] = _post(gh, target, ctx, body, inputs.header, sheet)

    # 3. outputs, 4. the gate
    passed = inputs.threshold <= 0 or sheet.score.total >= inputs.threshold
    outputs["passed"] = "true" if passed else "false"
    write_outputs(env.get("GITHUB_OUTPUT"), outputs)
    print(f"deploysheet: score {sheet.score.total:.1f}/100 (grade {sheet.score.grade})", flush=True)
    if not passed:
        annotate("error", f"score {sheet.score.total:.1f} is below the threshold {inputs.threshold:g}",
                 title="deploysheet quality gate")
        return EXIT_GATE
    return 0


def main() -> int:  # pragma: no cover - thin wrapper used by the CLI
    return run()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
