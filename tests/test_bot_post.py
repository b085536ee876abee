"""The Hub bot's discussion posting, through the real huggingface_hub client against a fake Hub."""

from __future__ import annotations

import json
import re

import pytest

from bot.hub import HubClient
from bot.marker import Marker, find_marker
from bot.post import post_discussion
from scorer.cli import main

CFG = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 1024,
       "intermediate_size": 2816, "num_hidden_layers": 4, "num_attention_heads": 8, "num_key_value_heads": 2,
       "vocab_size": 32000, "max_position_embeddings": 4096}


@pytest.fixture
def hub(fakehub, monkeypatch):
    monkeypatch.setenv("HF_TOKEN", "hf_fake_token")
    return fakehub


def client():
    return HubClient(sleep=lambda s: None)


def test_marker_roundtrip():
    m = Marker(repo="org/m", sha="a" * 40, score=71.25, grade="B")
    assert find_marker("text " + m.render() + " tail") == Marker(repo="org/m", sha="a" * 40, score=71.2, grade="B")
    assert find_marker("no marker") is None


def test_first_post_then_same_commit_is_a_no_op(hub):
    hub.add("org/model", CFG)
    out = post_discussion("org/model", client=client())
    assert out.action == "created" and out.discussion == 1
    d = hub.discussions["org/model"][0]
    body = d["events"][0]["data"]["latest"]["raw"]
    assert "automated" in body and "close this discussion" in body and "# Deployment sheet" in body
    assert d["title"] == "GPU deployment sheet (automated, deploysheet)"  # no grade: stays true after edits
    assert find_marker(body).sha == hub.repos["org/model"].sha
    writes = len(hub.writes())
    again = post_discussion("org/model", client=client())
    assert again.action == "unchanged" and len(hub.discussions["org/model"]) == 1
    assert len(hub.writes()) == writes  # no Hub write at all


def test_new_commit_edits_in_place_and_grade_change_comments(hub):
    repo = hub.add("org/model", CFG)
    post_discussion("org/model", client=client())
    # same grade, new commit: one edit, no comment
    hub.add("org/model", dict(CFG, max_position_embeddings=8192))
    out = post_discussion("org/model", client=client())
    assert out.action == "updated"
    d = hub.discussions["org/model"][0]
    assert len(d["events"]) == 1 and d["events"][0]["data"]["edited"]
    assert find_marker(d["events"][0]["data"]["latest"]["raw"]).sha == hub.repos["org/model"].sha != repo.sha
    # a misaligned model changes the grade: one edit plus one comment
    hub.add("org/model", dict(CFG, hidden_size=1000, num_attention_heads=8, head_dim=128, intermediate_size=2730,
                              vocab_size=32001))
    out = post_discussion("org/model", client=client())
    assert out.action == "updated+comment"
    comments = [e for e in d["events"] if e["type"] == "comment"]
    assert len(comments) == 2 and "grade" in comments[1]["data"]["latest"]["raw"]
    assert len(hub.discussions["org/model"]) == 1


def test_closed_discussion_means_opted_out(hub):
    hub.add("org/model", CFG)
    post_discussion("org/model", client=client())
    hub.discussions["org/model"][0]["status"] = "closed"
    hub.add("org/model", dict(CFG, max_position_embeddings=8192))
    writes = len(hub.writes())
    out = post_discussion("org/model", client=client())
    assert out.action == "opted-out"
    assert len(hub.writes()) == writes and len(hub.discussions["org/model"]) == 1


def test_rate_limited_read_then_success(hub):
    hub.add("org/model", CFG)
    hub.fail_next = [429]
    out = post_discussion("org/model", client=client())
    assert out.action == "created" and len(hub.discussions["org/model"]) == 1


def test_error_after_the_post_landed_makes_exactly_one_discussion(hub):
    hub.add("org/model", CFG)
    hub.fail_after_create = [500]
    out = post_discussion("org/model", client=client())
    assert out.action == "created"
    assert len(hub.discussions["org/model"]) == 1


def test_duplicates_are_closed_and_user_copies_ignored(hub):
    hub.add("org/model", CFG)
    first = post_discussion("org/model", client=client())
    body = hub.discussions["org/model"][0]["events"][0]["data"]["latest"]["raw"]
    hub.add_discussion("org/model", "copy", body, author="someone-else")  # a user pasting the marker
    hub.add_discussion("org/model", "dup", body, author="deploysheet-bot")
    hub.add("org/model", dict(CFG, max_position_embeddings=8192))
    out = post_discussion("org/model", client=client())
    assert out.discussion == first.discussion and out.closed_duplicates == [3]
    assert hub.discussions["org/model"][2]["status"] == "closed"
    assert hub.discussions["org/model"][1]["status"] == "open"  # not the bot's: untouched


def test_dry_run_writes_files_and_no_hub_writes(hub, tmp_path):
    hub.add("org/model", CFG)
    out = post_discussion("org/model", client=client(), dry_run=tmp_path)
    assert out.action == "dry-run:create"
    assert (tmp_path / "org__model.md").read_text().startswith("*This is an automated")
    assert hub.writes() == []


def test_hostile_config_strings_are_neutralized(hub):
    hub.add("org/model", dict(CFG, model_type="@everyone <script>alert(1)</script> [x](http://evil)",
                              architectures=["@admin"]))
    post_discussion("org/model", client=client())
    body = hub.discussions["org/model"][0]["events"][0]["data"]["latest"]["raw"]
    assert "@everyone" not in body and "@admin" not in body and "<script>" not in body
    assert not re.search(r"(?<!\\)\]\(http", body)  # brackets are escaped: no live link


def test_cli_hub_post(hub, capsys):
    hub.add("org/model", CFG)
    assert main(["hub", "post", "org/model", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["action"] == "created" and out["url"].endswith("/org/model/discussions/1")
    assert main(["hub", "post", "not a repo"]) == 2
    assert main(["hub", "post", "org/missing"]) == 3


def test_posted_sheet_is_the_cli_sheet(hub, capsys):
    """The discussion carries exactly the Markdown `deploysheet score org/model` prints."""
    hub.add("org/model", CFG)
    assert main(["score", "org/model"]) == 0
    cli_md = capsys.readouterr().out
    post_discussion("org/model", client=client())
    body = hub.discussions["org/model"][0]["events"][0]["data"]["latest"]["raw"]
    assert cli_md.strip() in body
    assert body.index(cli_md.strip()) < body.index("<!-- deploysheet-bot")


def test_no_token_is_a_one_line_bad_input(hub, monkeypatch, capsys, tmp_path):
    monkeypatch.delenv("HF_TOKEN")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))  # no stored login either
    hub.add("org/model", CFG)
    assert main(["hub", "post", "org/model", "--dry-run", str(tmp_path / "d")]) == 2
    err = capsys.readouterr().err
    assert "no Hugging Face token" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_repo_id_with_revision_suffix(hub, capsys):
    repo = hub.add("org/model", CFG)
    assert main(["hub", "post", f"org/model@{repo.sha}", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["sha"] == repo.sha
    assert main(["hub", "post", "org/model@main", "--revision", "dev"]) == 2


def test_duplicate_the_bot_closed_is_no_opt_out(hub):
    hub.add("org/model", CFG)
    first = post_discussion("org/model", client=client())
    body = hub.discussions["org/model"][0]["events"][0]["data"]["latest"]["raw"]
    hub.add_discussion("org/model", "dup", body, author="deploysheet-bot")
    assert post_discussion("org/model", client=client()).closed_duplicates == [2]
    hub.add("org/model", dict(CFG, max_position_embeddings=8192))  # a new commit
    out = post_discussion("org/model", client=client())
    assert out.action == "updated" and out.discussion == first.discussion


def test_grade_change_comment_survives_a_failed_edit(hub):
    hub.add("org/model", CFG)
    post_discussion("org/model", client=client())
    # a misaligned model: the grade changes; the edit fails (after its retries) once the comment is posted
    hub.add("org/model", dict(CFG, hidden_size=1000, intermediate_size=2750, num_attention_heads=10,
                              num_key_value_heads=5, vocab_size=32001))
    real = HubClient.edit_first_comment
    calls = []

    def failing(self, *a, **kw):
        calls.append(1)
        raise OSError("connection reset")

    HubClient.edit_first_comment = failing
    try:
        with pytest.raises(OSError):
            post_discussion("org/model", client=client())
    finally:
        HubClient.edit_first_comment = real
    assert calls == [1]
    out = post_discussion("org/model", client=client())  # the next run finishes the work
    assert out.action == "updated+comment"
    d = hub.discussions["org/model"][0]
    notes = [e for e in d["events"][1:] if e["type"] == "comment"]
    assert len(notes) == 1 and "grade" in notes[0]["data"]["latest"]["raw"]  # one comment, not two
    assert find_marker(d["events"][0]["data"]["latest"]["raw"]).sha == hub.repos["org/model"].sha


def test_a_failing_whoami_is_not_called_a_refused_token(hub):
    """Issue 15: a 5xx from whoami (after the retries) was reported as "the Hub refused the bot's token"."""
    from scorer.errors import HubError
    hub.fail_paths["/api/whoami-v2"] = 503
    with pytest.raises(HubError, match="could not answer whoami .HTTP 503 after retries.; the token was not checked"):
        client().me
    hub.fail_paths["/api/whoami-v2"] = 401
    with pytest.raises(HubError, match="refused the bot's token"):
        client().me


def test_the_grade_change_comment_is_written_once_when_answers_are_lost(hub):
    """Issue 15: a write whose answer is lost after it landed was retried blindly (a duplicate comment). Here the
    first comment attempt fails before landing and the second lands but its answer is a 5xx."""
    hub.add("org/model", CFG)
    post_discussion("org/model", client=client())
    hub.add("org/model", dict(CFG, hidden_size=1000, num_attention_heads=8, head_dim=128, intermediate_size=2730,
                              vocab_size=32001))  # the grade changes: a comment is due
    hub.fail_comment = [503]
    hub.fail_after_comment = [503]
    out = post_discussion("org/model", client=client())
    assert out.action == "updated+comment"
    d = hub.discussions["org/model"][0]
    notes = [e for e in d["events"] if e["type"] == "comment" and "grade" in e["data"]["latest"]["raw"]
             and "was updated for commit" in e["data"]["latest"]["raw"]]
    assert len(notes) == 1


def _posts(hub, suffix: str) -> int:
    return sum(1 for m, p in hub.requests if m == "POST" and p.endswith(suffix))


@pytest.mark.parametrize("fault", [500, "reset"])
def test_every_discussion_write_that_landed_before_an_error_is_adopted(hub, fault):
    """Issue 15: every write is adopt-before-retry. Each write here lands on the Hub, then its answer is lost (a 5xx
    or a dropped connection): the bot reads back, adopts what landed and never writes it again."""
    hub.add("org/model", CFG)
    hub.fail_after_create = [fault]
    assert post_discussion("org/model", client=client()).action == "created"
    assert len(hub.discussions["org/model"]) == 1 and _posts(hub, "/discussions") == 1
    # a new commit, same grade: the edit lands, its answer is lost: one edit, not two
    hub.push("org/model", {"config.json": json.dumps(dict(CFG, max_position_embeddings=8192)).encode()})
    hub.fail_after_edit = [fault]
    assert post_discussion("org/model", client=client()).action == "updated"
    assert _posts(hub, "/edit") == 1
    assert [h["kind"] for h in hub.history] == ["create", "edit"]
    assert find_marker(hub.history[-1]["content"]).sha == hub.repos["org/model"].sha
    # the grade changes: the comment and the edit both land with their answers lost
    hub.push("org/model", {"config.json": json.dumps(dict(CFG, hidden_size=1000, num_attention_heads=8, head_dim=128,
                                                          intermediate_size=2730, vocab_size=32001)).encode()})
    hub.fail_after_comment, hub.fail_after_edit = [fault], [fault]
    assert post_discussion("org/model", client=client()).action == "updated+comment"
    assert _posts(hub, "/comment") == 1 and _posts(hub, "/edit") == 2
    d = hub.discussions["org/model"][0]
    assert sum(e["type"] == "comment" for e in d["events"]) == 2  # the sheet and one grade note
    # a duplicate is closed once although the answer to the close is lost
    body = d["events"][0]["data"]["latest"]["raw"]
    hub.add_discussion("org/model", "dup", body, author="deploysheet-bot")
    hub.fail_after_status = [fault]
    assert post_discussion("org/model", client=client()).closed_duplicates == [2]
    assert _posts(hub, "/status") == 1 and hub.discussions["org/model"][1]["status"] == "closed"
    assert hub.fail_after_create == hub.fail_after_edit == hub.fail_after_comment == hub.fail_after_status == []


def test_a_write_that_did_not_land_is_retried_a_bounded_number_of_times(hub):
    hub.add("org/model", CFG)
    post_discussion("org/model", client=client())
    hub.push("org/model", {"config.json": json.dumps(dict(CFG, max_position_embeddings=8192)).encode()})
    hub.fail_paths["/api/models/org/model/discussions/1/comment/"] = 503  # every edit fails before landing
    with pytest.raises(Exception):
        post_discussion("org/model", client=client())
    assert _posts(hub, "/edit") == 3  # three attempts, a read-back after each, then the job gives up
    hub.fail_paths["/api/models/org/model/discussions/1/comment/"] = 422  # a verdict, not a hiccup: no retry
    with pytest.raises(Exception):
        post_discussion("org/model", client=client())
    assert _posts(hub, "/edit") == 4
    del hub.fail_paths["/api/models/org/model/discussions/1/comment/"]
    assert post_discussion("org/model", client=client()).action == "updated"  # the next job finishes it
