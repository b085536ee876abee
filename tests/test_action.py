"""The GitHub Action entry point against a fake GitHub REST API on loopback, with the environment a
runner sets (GITHUB_EVENT_NAME, GITHUB_EVENT_PATH, GITHUB_REPOSITORY, GITHUB_API_URL,
GITHUB_STEP_SUMMARY, GITHUB_OUTPUT) and the inputs mapped through env as action.yml does."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from fakegithub import FakeGitHub

from bot import action
from bot.action import marker_for, run, trim_utf8
from bot.card import END, START
from scorer.errors import BadInputError

ROOT = Path(__file__).resolve().parent.parent
CFG = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 1024,
       "intermediate_size": 2816, "num_hidden_layers": 4, "num_attention_heads": 8, "num_key_value_heads": 2,
       "vocab_size": 32000, "max_position_embeddings": 4096}
BASE, HEAD = "b" * 40, "c" * 40


@pytest.fixture
def gh(httpserver):
    return FakeGitHub(httpserver)


@pytest.fixture
def ws(tmp_path):
    w = tmp_path / "ws"
    (w / "model").mkdir(parents=True)
    (w / "model" / "config.json").write_text(json.dumps(CFG))
    return w


def env_for(gh, ws, tmp_path, event_name="pull_request", event=None, **inputs) -> dict[str, str]:
    ev = tmp_path / "event.json"
    if event is None:
        event = {"pull_request": {"number": 7, "base": {"sha": BASE}, "head": {"sha": HEAD}}}
    ev.write_text(json.dumps(event))
    env = {"GITHUB_EVENT_NAME": event_name, "GITHUB_EVENT_PATH": str(ev), "GITHUB_REPOSITORY": "o/r",
           "GITHUB_API_URL": gh.url, "GITHUB_SERVER_URL": "https://github.com", "GITHUB_RUN_ID": "42",
           "GITHUB_WORKSPACE": str(ws), "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"),
           "GITHUB_OUTPUT": str(tmp_path / "output.txt"), "RUNNER_TEMP": str(tmp_path / "runner"),
           "GITHUB_TOKEN": gh.token, "GITHUB_REF": "refs/pull/7/merge", "GITHUB_SHA": HEAD,
           "DEPLOYSHEET_MODEL_PATH": "model", "DEPLOYSHEET_DIFF": "false"}
    for k, v in inputs.items():
        env[f"DEPLOYSHEET_{k.upper()}"] = str(v)
    for f in ("summary.md", "output.txt"):
        (tmp_path / f).write_text("")
    return env


def outputs(tmp_path) -> dict[str, str]:
    """Parse $GITHUB_OUTPUT the way the runner does (name<<DELIM ... DELIM)."""
    text = (tmp_path / "output.txt").read_text()
    out, lines, i = {}, text.splitlines(), 0
    while i < len(lines):
        name, delim = lines[i].split("<<", 1)
        j = lines.index(delim, i + 1)
        out[name] = "\n".join(lines[i + 1:j])
        i = j + 1
    return out


def pr_comments(gh, n=7):
    return gh.comments.get(n, [])


# ---------------------------------------------------------------------------------------------- PR comments

def test_first_pr_comment_outputs_and_summary(gh, ws, tmp_path):
    assert run(env_for(gh, ws, tmp_path)) == 0
    [c] = pr_comments(gh)
    assert c["body"].splitlines()[0] == marker_for("")
    assert "# Deployment sheet — model/config.json" in c["body"]
    out = outputs(tmp_path)
    assert set(out) == {"score", "grade", "passed", "sheet-path", "comment-url"}
    assert out["passed"] == "true" and re.fullmatch(r"\d+\.\d", out["score"]) and out["grade"] in "ABCDF"
    assert out["comment-url"] == c["html_url"]
    sheet = Path(out["sheet-path"]).read_text()
    assert sheet.startswith("# Deployment sheet") and sheet in (tmp_path / "summary.md").read_text()
    assert f"Score {out['score']}/100 ({out['grade']})" in sheet


def test_rerun_unchanged_writes_nothing_then_a_change_is_one_patch(gh, ws, tmp_path):
    env = env_for(gh, ws, tmp_path)
    run(env)
    n = len(gh.writes())
    assert run(env) == 0 and len(gh.writes()) == n  # identical body: no request that writes
    (ws / "model" / "config.json").write_text(json.dumps(dict(CFG, intermediate_size=2900)))
    assert run(env) == 0
    assert gh.writes()[n:] == [("PATCH", f"/repos/o/r/issues/comments/{pr_comments(gh)[0]['id']}")]
    assert "2,900" in pr_comments(gh)[0]["body"] and len(pr_comments(gh)) == 1


def test_duplicates_are_cleaned_and_other_authors_left_alone(gh, ws, tmp_path):
    gh.page_size = 2  # the marked comments sit on later pages: paging must follow Link
    for i in range(3):
        gh.add_comment(7, f"chatter {i}", "alice")
    first = gh.add_comment(7, marker_for("") + "\nold", "github-actions[bot]")
    copy = gh.add_comment(7, marker_for("") + "\nquoted by a human", "alice")
    dupe = gh.add_comment(7, "text\n" + marker_for("") + "\nnewer", "github-actions[bot]")
    other = gh.add_comment(7, marker_for("gpu2") + "\nanother header", "github-actions[bot]")
    assert run(env_for(gh, ws, tmp_path)) == 0
    ids = [c["id"] for c in pr_comments(gh)]
    assert dupe["id"] not in ids and {first["id"], copy["id"], other["id"]} <= set(ids)
    assert "# Deployment sheet" in first["body"] and copy["body"].endswith("quoted by a human")
    assert other["body"].endswith("another header")


def test_token_login_is_matched_when_get_user_works(gh, ws, tmp_path):
    gh.login = "my-bot"
    mine = gh.add_comment(7, marker_for("") + "\nold", "my-bot")
    gh.add_comment(7, marker_for("") + "\nnot mine", "github-actions[bot]")
    run(env_for(gh, ws, tmp_path))
    assert "# Deployment sheet" in mine["body"] and len(pr_comments(gh)) == 2


def test_forbidden_write_warns_and_the_gate_still_decides(gh, ws, tmp_path, capsys):
    gh.forbid = {"POST", "PATCH", "DELETE"}  # a fork's read-only GITHUB_TOKEN
    assert run(env_for(gh, ws, tmp_path)) == 0
    out = capsys.readouterr().out
    assert "::warning title=deploysheet::" in out and "403" in out and "read-only" in out
    assert "# Deployment sheet" in (tmp_path / "summary.md").read_text()
    assert outputs(tmp_path)["comment-url"] == ""
    assert run(env_for(gh, ws, tmp_path, threshold=99)) == action.EXIT_GATE
    assert outputs(tmp_path)["passed"] == "false"


def test_gate_below_and_above_threshold_after_posting(gh, ws, tmp_path, capsys):
    assert run(env_for(gh, ws, tmp_path, threshold=99.5)) == 4
    out = capsys.readouterr().out
    assert "::error title=deploysheet quality gate::score" in out and "below the threshold 99.5" in out
    assert len(pr_comments(gh)) == 1  # the comment was written before the gate failed the step
    assert outputs(tmp_path)["passed"] == "false"
    score = float(outputs(tmp_path)["score"])
    assert run(env_for(gh, ws, tmp_path, threshold=score)) == 0  # equal to the threshold passes
    assert outputs(tmp_path)["passed"] == "true"


def test_diff_mode_leads_with_what_changed(gh, ws, tmp_path):
    gh.files[(BASE, "model/config.json")] = json.dumps(dict(CFG, num_key_value_heads=8)).encode()
    assert run(env_for(gh, ws, tmp_path, diff="true")) == 0
    body = pr_comments(gh)[0]["body"]
    lead = body[:body.index("# Deployment sheet")]
    assert "What this change does to deployment" in lead
    # independent arithmetic: KV bytes/token = 2 (K,V) x layers x kv_heads x head_dim x 2 bytes (bf16)
    head_dim = 1024 // 8
    base_kv, head_kv = 2 * 4 * 8 * head_dim * 2, 2 * 4 * 2 * head_dim * 2
    row = next(x for x in lead.splitlines() if x.startswith("| KV cache per token"))
    assert f"{base_kv:,} B" in row and f"{head_kv:,} B" in row and "-75.0%" in row and "better" in row
    assert "What this change does" in (tmp_path / "summary.md").read_text()


def test_diff_mode_new_model_and_unreadable_base(gh, ws, tmp_path):
    assert run(env_for(gh, ws, tmp_path, diff="true")) == 0
    assert "this pull request adds the model" in pr_comments(gh)[0]["body"]
    gh.forbid = {"GET"}
    gh.login = None
    assert run(env_for(gh, ws, tmp_path, diff="true")) == 0  # nothing readable: warns, still exit 0


# ---------------------------------------------------------------------------------------------- releases

def test_release_body_block_replaced_without_touching_the_rest(gh, ws, tmp_path):
    before = "## Notes\r\n\r\n* fixed @bob's bug\r\n\r\n"
    after = "\r\n\r\nThanks to all contributors. <3"
    gh.releases[5] = {"id": 5, "tag_name": "v1.0", "html_url": "https://github.com/o/r/releases/v1.0",
                      "body": before + START.decode() + "\nold sheet\n" + END.decode() + after}
    event = {"release": {"id": 5, "tag_name": "v1.0", "body": "stale copy", "html_url": "x"}}
    assert run(env_for(gh, ws, tmp_path, "release", event)) == 0
    body = gh.releases[5]["body"]
    assert body.startswith(before + START.decode()) and body.endswith(END.decode() + after)
    assert "old sheet" not in body and "**Grade" in body
    assert outputs(tmp_path)["comment-url"] == "https://github.com/o/r/releases/v1.0"
    n = len(gh.writes())
    run(env_for(gh, ws, tmp_path, "release", event))
    assert len(gh.writes()) == n  # unchanged: no PATCH


def test_tag_push_finds_the_release_by_tag_and_appends(gh, ws, tmp_path):
    gh.releases[9] = {"id": 9, "tag_name": "v2", "html_url": "u", "body": "Release notes."}
    env = env_for(gh, ws, tmp_path, "push", {"ref": "refs/tags/v2"})
    env["GITHUB_REF"] = "refs/tags/v2"
    assert run(env) == 0
    assert gh.releases[9]["body"].startswith("Release notes.\n\n" + START.decode())
    env["GITHUB_REF"] = "refs/tags/v3"  # no release for this tag: summary only
    assert run(env) == 0


# ---------------------------------------------------------------------------------------------- limits, escaping

def test_summary_over_the_size_limit_is_trimmed_with_a_note(gh, ws, tmp_path, monkeypatch):
    text = "# T\n" + "".join(f"| row {i} | é |\n" for i in range(5000))
    cut = trim_utf8(text, 4096, "*cut*")
    assert len(cut.encode()) <= 4096 and cut.endswith("*cut*\n") and text.startswith(cut[:-len("\n*cut*\n")])
    monkeypatch.setattr(action, "SUMMARY_MAX_BYTES", 1024 + 3000)  # 3000 bytes left for the sheet
    assert run(env_for(gh, ws, tmp_path)) == 0
    summary = (tmp_path / "summary.md").read_text()
    assert len(summary.encode()) <= 3000 and "larger than the step summary may be" in summary


def test_comment_over_githubs_limit_is_folded_then_cut(gh, ws, tmp_path, monkeypatch):
    monkeypatch.setattr(action, "COMMENT_MAX_CHARS", 3000)
    assert run(env_for(gh, ws, tmp_path)) == 0
    body = pr_comments(gh)[0]["body"]
    assert len(body) <= 3000 and "whole sheet is in the [run summary](https://github.com/o/r/actions/runs/42)" in body
    assert body.startswith(marker_for(""))


def test_hostile_config_strings_are_neutralized(gh, ws, tmp_path):
    (ws / "model" / "config.json").write_text(json.dumps(dict(
        CFG, architectures=["@everyone <img src=x onerror=alert(1)> [x](http://evil.example)"],
        _name_or_path="@octocat/**bold**")))
    assert run(env_for(gh, ws, tmp_path)) == 0
    body = pr_comments(gh)[0]["body"]
    assert "@everyone" not in body and "@octocat" not in body and "<img" not in body
    assert not re.search(r"(?<!\\)\]\(http://evil", body)


# ---------------------------------------------------------------------------------------------- errors

@pytest.mark.parametrize("inputs,msg", [({"threshold": "abc"}, "input threshold"),
                                        ({"threshold": "150"}, "outside 0-100"),
                                        ({"threshold": "1_0"}, "input threshold"),
                                        ({"gpus": "NOPE", "on_error": "warn"}, "input gpus"),
                                        ({"gpus": "H100-SXM,,B200"}, "empty GPU id"),
                                        ({"gpus": "H100-SXM,"}, "empty GPU id"),
                                        ({"precision": "fp9", "on_error": "warn"}, "input precision"),
                                        ({"hf_repo_id": "/tmp/x"}, "input hf-repo-id"),
                                        ({"comment": "everywhere"}, "input comment"),
                                        ({"comment_header": "a b"}, "comment-header"),
                                        ({"on_error": "maybe"}, "input on-error")])
def test_bad_inputs_are_one_line_exit_2(gh, ws, tmp_path, capsys, inputs, msg):
    import os

    from scorer.cli import main
    env = env_for(gh, ws, tmp_path, **inputs)
    old = dict(os.environ)
    os.environ.update(env)
    try:
        assert main(["action"]) == 2
    finally:
        os.environ.clear()
        os.environ.update(old)
    cap = capsys.readouterr()
    assert msg in cap.err and "Traceback" not in cap.err and len(cap.err.strip().splitlines()) == 1
    assert "::error" in cap.out and gh.writes() == []


def test_unscorable_model_fails_or_warns_per_on_error(gh, ws, tmp_path, capsys):
    assert run(env_for(gh, ws, tmp_path, model_path="nowhere")) == 2
    assert "::error title=deploysheet::could not score the model" in capsys.readouterr().out
    assert "Could not score the model" in (tmp_path / "summary.md").read_text()
    assert outputs(tmp_path)["passed"] == "false" and gh.writes() == []
    assert run(env_for(gh, ws, tmp_path, model_path="nowhere", on_error="warn")) == 0
    assert "::warning" in capsys.readouterr().out


# ---------------------------------------------------------------------------------------------- robustness

def test_app_token_keeps_one_comment(gh, ws, tmp_path):
    gh.login, gh.bot_login = None, "my-app[bot]"  # GET /user is refused for installation tokens
    env = env_for(gh, ws, tmp_path)
    for _ in range(3):
        assert run(env) == 0
    assert len(pr_comments(gh)) == 1 and outputs(tmp_path)["comment-url"] == pr_comments(gh)[0]["html_url"]


@pytest.mark.parametrize("method,rx,status,body", [
    ("GET", r".*/issues/7/comments", 200, b"<html>proxy</html>"),
    ("POST", r".*/issues/7/comments", 201, b"{}"),
    ("GET", r".*/issues/7/comments", 200, b'[{"id": 5, "user": "str", "body": 3}]'),
])
def test_malformed_github_answers_are_warnings(gh, ws, tmp_path, capsys, method, rx, status, body):
    gh.raw_next.append((method, rx, status, body))
    assert run(env_for(gh, ws, tmp_path, threshold=99)) == 4  # the gate still decides
    assert set(outputs(tmp_path)) == {"score", "grade", "passed", "sheet-path", "comment-url"}
    assert "Traceback" not in capsys.readouterr().err


def test_unwritable_summary_warns_and_unwritable_output_is_exit_2(gh, ws, tmp_path, capsys):
    env = env_for(gh, ws, tmp_path)
    env["GITHUB_STEP_SUMMARY"] = str(tmp_path)  # a folder
    assert run(env) == 0 and "cannot write the step summary" in capsys.readouterr().out
    assert len(pr_comments(gh)) == 1
    env["GITHUB_OUTPUT"] = str(tmp_path / "missing" / "out.txt")
    with pytest.raises(BadInputError, match="GITHUB_OUTPUT"):
        run(env)


def test_two_uses_in_one_job_keep_their_own_sheet(gh, ws, tmp_path):
    (ws / "other").mkdir()
    (ws / "other" / "config.json").write_text(json.dumps(dict(CFG, hidden_size=2048)))
    run(env_for(gh, ws, tmp_path, comment_header="a"))
    first = outputs(tmp_path)["sheet-path"]
    run(env_for(gh, ws, tmp_path, comment_header="b", model_path="other"))
    second = outputs(tmp_path)["sheet-path"]
    assert first != second and Path(first).parent.parent == tmp_path / "runner"
    assert "hidden · vocab | 2,048" in Path(second).read_text()
    assert "hidden · vocab | 1,024" in Path(first).read_text()
    assert len(pr_comments(gh)) == 2


def test_diff_finds_the_base_config_under_a_checkout_path(gh, ws, tmp_path):
    repo = ws / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "model").mkdir()
    (repo / "model" / "config.json").write_text(json.dumps(CFG))
    gh.files[(BASE, "model/config.json")] = json.dumps(dict(CFG, num_key_value_heads=8)).encode()
    assert run(env_for(gh, ws, tmp_path, diff="true", model_path="repo/model")) == 0
    assert "| KV cache per token" in pr_comments(gh)[0]["body"]


def test_unscorable_head_replaces_the_old_sheet(gh, ws, tmp_path):
    run(env_for(gh, ws, tmp_path))
    (ws / "model" / "config.json").write_text("{broken")
    assert run(env_for(gh, ws, tmp_path, on_error="warn")) == 0
    [c] = pr_comments(gh)
    assert "could not score this revision (ccccccc)" in c["body"] and "**Score" not in c["body"]


def test_pr_number_that_is_not_an_integer(gh, ws, tmp_path, capsys):
    ev = {"pull_request": {"number": True, "base": {"sha": BASE}}}
    assert run(env_for(gh, ws, tmp_path, event=ev)) == 0
    assert gh.writes() == [] and "comment" not in capsys.readouterr().out.split("::")[0]


def test_delete_of_a_comment_already_gone_is_done(gh):
    from bot.github import GitHub
    GitHub(gh.url, gh.token, "o/r").delete_comment(123456)  # 404: no error


# ---------------------------------------------------------------------------------------------- as a process

def test_entry_point_as_the_runner_runs_it(gh, ws, tmp_path):
    """`deploysheet action` in a child process with only the runner's environment."""
    import os
    env = env_for(gh, ws, tmp_path, threshold=1)
    env.update({"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path),
                "DEPLOYSHEET_CACHE_DIR": str(tmp_path / "cache"), "HF_TOKEN": ""})
    exe = shutil.which("deploysheet", path=str(Path(sys.executable).parent))
    cmd = [exe] if exe else [sys.executable, "-m", "scorer"]
    if not exe:
        env["PYTHONPATH"] = str(ROOT)
    p = subprocess.run([*cmd, "action"], env=env, capture_output=True, text=True, timeout=120, cwd=ws)
    assert p.returncode == 0, p.stderr
    assert "deploysheet: pull request #7 comment created" in p.stdout
    assert outputs(tmp_path)["comment-url"] == pr_comments(gh)[0]["html_url"]
    assert gh.token not in p.stdout + p.stderr


# ---------------------------------------------------------------------------------------------- action.yml

ACTION_KEYS = {"name", "author", "description", "inputs", "outputs", "runs", "branding"}
INPUT_KEYS = {"description", "required", "default", "deprecationMessage"}
OUTPUT_KEYS = {"description", "value"}
STEP_KEYS = {"id", "name", "if", "uses", "with", "run", "shell", "env", "working-directory",
             "continue-on-error"}


def test_action_yml_is_valid_metadata_and_every_input_and_output_is_wired(gh, ws, tmp_path):
    meta = yaml.safe_load((ROOT / "action.yml").read_text())
    assert set(meta) <= ACTION_KEYS and {"name", "description", "runs"} <= set(meta)
    assert meta["runs"]["using"] == "composite"
    steps = meta["runs"]["steps"]
    for s in steps:
        assert set(s) <= STEP_KEYS
        if "run" in s:
            assert s.get("shell") == "bash"
            assert "${{" not in s["run"]  # inputs reach scripts through env only (no script injection)
    wired = " ".join(json.dumps(s.get("env", {})) + json.dumps(s.get("with", {})) for s in steps)
    for name, spec in meta["inputs"].items():
        assert set(spec) <= INPUT_KEYS and spec.get("description"), name
        assert f"inputs.{name} }}}}" in wired, f"input {name} is not passed to any step"
    assert run(env_for(gh, ws, tmp_path)) == 0
    written = set(outputs(tmp_path))
    for name, spec in meta["outputs"].items():
        assert set(spec) == OUTPUT_KEYS and spec["description"], name
        assert spec["value"] == f"${{{{ steps.run.outputs.{name} }}}}"
        assert name in written, f"output {name} is never written by the entry point"
    assert written == set(meta["outputs"])
    env = next(s for s in steps if s.get("id") == "run")["env"]
    for key in env:  # every DEPLOYSHEET_* variable the step sets is read by the entry point
        if key.startswith("DEPLOYSHEET_") and key != "DEPLOYSHEET_PY":  # _PY is the shell's
            assert key.removeprefix("DEPLOYSHEET_") in Path(action.__file__).read_text() or \
                key in Path(action.__file__).read_text(), key


def test_example_workflows_use_the_action_with_minimal_permissions():
    flows = {p.name: yaml.safe_load(p.read_text()) for p in (ROOT / ".github" / "workflows").glob("deploysheet-*.yml")}
    assert {"deploysheet-pr.yml", "deploysheet-release.yml"} <= set(flows)
    for name, wf in flows.items():
        on = wf.get("on", wf.get(True))  # YAML 1.1 reads a bare 'on' key as True
        perms = wf["permissions"]
        assert perms.get("contents") in ("read", "write") and set(perms) <= {"contents", "pull-requests"}
        uses = [s.get("uses", "") for job in wf["jobs"].values() for s in job["steps"]]
        assert "./" in uses, name
        if name == "deploysheet-pr.yml":
            assert on["pull_request"]["paths"] and perms == {"contents": "read", "pull-requests": "write"}
            assert "concurrency" in wf
        else:
            assert on["release"]["types"] == ["published"] and on["push"]["tags"]
            assert perms == {"contents": "write"}
