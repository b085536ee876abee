"""Model-card mode (`hub post --as pr`): one pull request per repo that touches only the card's block.

The real huggingface_hub client (create_commit with create_pr, commits to refs/pr/N) talks to the
fake Hub in tests/fakehub.py.
"""

from __future__ import annotations

import json

import pytest

from bot.card import END, START, find_block, post_card_pr, splice
from bot.hub import HubClient
from bot.marker import find_marker
from scorer.cli import main
from scorer.errors import BadInputError

CFG = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 1024,
       "intermediate_size": 2816, "num_hidden_layers": 4, "num_attention_heads": 8, "num_key_value_heads": 2,
       "vocab_size": 32000, "max_position_embeddings": 4096}

# a card with YAML front matter, a non-ASCII character, trailing spaces, a mention and no final newline
CARD = ("---\nlicense: apache-2.0\ntags:\n- text-generation\n---\n\n# My model  \n\nBuilt by @alice — "
        "see <https://example.org>.\n\n| a | b |\n|---|---|\n| 1 | 2 |").encode()


@pytest.fixture
def hub(fakehub, monkeypatch):
    monkeypatch.setenv("HF_TOKEN", "hf_fake_token")
    return fakehub


def client():
    return HubClient(sleep=lambda s: None)


def pr_readme(hub, repo="org/model", num=1) -> bytes:
    return hub.pr_files[(repo, num)]["README.md"]


def block_of(readme: bytes) -> bytes:
    i, j = find_block(readme)
    return readme[i:j]


# ---------------------------------------------------------------------------------------------- splice

def test_splice_appends_and_keeps_every_other_byte():
    block = START + b"\nX\n" + END
    assert splice(b"# Card\n", block) == b"# Card\n\n" + block + b"\n"
    assert splice(b"# Card", block) == b"# Card\n\n" + block + b"\n"
    assert splice(b"# Card\n\n", block) == b"# Card\n\n" + block + b"\n"
    # a CRLF card stays CRLF: the block's line ends follow the card's
    assert splice(b"# Card\r\nline\r\n", block) == (b"# Card\r\nline\r\n\r\n" + START + b"\r\nX\r\n" + END
                                                      + b"\r\n")
    assert splice(None, block) == block + b"\n"


def test_splice_replaces_only_between_markers():
    old = b"head \xe2\x80\x94 \n" + START + b"\nold sheet\n" + END + b"\n tail  \n"
    new = START + b"\nnew\n" + END
    assert splice(old, new) == b"head \xe2\x80\x94 \n" + new + b"\n tail  \n"


@pytest.mark.parametrize("card", [
    b"x\n" + START + b"\ny", b"x\n" + END + b"\n", END + b"\nthen\n" + START + b"\n",
    START + b"\na\n" + END + b"\n" + START + b"\nb\n" + END + b"\n",           # two blocks
    START + b"\na\n" + END + b"\n" + END + b"\n",                               # a stray end
    b"The bot writes between `" + START + b"` and `" + END + b"`.\n",           # quoted in prose
    b"```\n" + START + b"\nexample\n" + END + b"\n```\n",                       # inside a code block
])
def test_unmatched_or_quoted_markers_are_refused(card):
    with pytest.raises(BadInputError, match="deploysheet marker"):
        splice(card, START + END)


# ---------------------------------------------------------------------------------------------- PR flow

def test_first_pr_touches_only_the_block_then_same_commit_is_a_no_op(hub):
    hub.add("org/model", CFG, more_files={"README.md": CARD})
    out = post_card_pr("org/model", client=client())
    assert out.action == "created" and out.discussion == 1
    pr = hub.discussions["org/model"][0]
    assert pr["isPullRequest"] and pr["status"] == "draft"
    readme = pr_readme(hub)
    assert readme.startswith(CARD + b"\n\n" + START)  # the card, byte for byte, then the block
    assert readme.endswith(END + b"\n")
    assert readme[len(CARD) + 2:] == block_of(readme) + b"\n"
    text = block_of(readme).decode()
    assert "## Deployment sheet" in text and "<details>" in text and "### Architecture" in text
    assert hub.pr_files[("org/model", 1)]["config.json"] == hub.repos["org/model"].files["config.json"]
    assert [c["files"].keys() for c in hub.commits] == [{"README.md": 0}.keys()]  # one commit, README only
    desc = pr["events"][0]["data"]["latest"]["raw"]
    assert "automated" in desc and "close this pull request" in desc
    m = find_marker(desc)
    assert m.sha == hub.repos["org/model"].sha and m.key and find_marker(text).key == m.key
    writes = len(hub.writes())
    again = post_card_pr("org/model", client=client())
    assert again.action == "unchanged" and len(hub.discussions["org/model"]) == 1
    assert len(hub.writes()) == writes


def test_model_change_updates_the_open_pr_in_place(hub):
    hub.add("org/model", CFG, more_files={"README.md": CARD})
    post_card_pr("org/model", client=client())
    old_key = find_marker(block_of(pr_readme(hub)).decode()).key
    repo = hub.push("org/model", {"config.json": json.dumps(dict(CFG, max_position_embeddings=8192)).encode()})
    out = post_card_pr("org/model", client=client())
    assert out.action == "updated" and out.discussion == 1 and len(hub.discussions["org/model"]) == 1
    assert [(c["revision"], c["create_pr"]) for c in hub.commits] == [("main", True), ("refs/pr/1", False)]
    readme = pr_readme(hub)
    assert readme.startswith(CARD + b"\n\n" + START)
    new = find_marker(block_of(readme).decode())
    assert new.sha == repo.sha and new.key != old_key
    desc = hub.discussions["org/model"][0]["events"][0]["data"]["latest"]["raw"]
    assert find_marker(desc).key == new.key


def test_closed_pr_means_no(hub):
    hub.add("org/model", CFG, more_files={"README.md": CARD})
    post_card_pr("org/model", client=client())
    hub.discussions["org/model"][0]["status"] = "closed"
    hub.push("org/model", {"config.json": json.dumps(dict(CFG, max_position_embeddings=8192)).encode()})
    writes = len(hub.writes())
    out = post_card_pr("org/model", client=client())
    assert out.action == "opted-out" and len(hub.discussions["org/model"]) == 1
    assert len(hub.writes()) == writes


def test_merged_card_is_in_card_until_the_model_changes_and_removal_means_no(hub):
    hub.add("org/model", CFG, more_files={"README.md": CARD})
    post_card_pr("org/model", client=client())
    hub.merge_pr("org/model", 1)  # the merge is a new commit on main
    writes = len(hub.writes())
    assert post_card_pr("org/model", client=client()).action == "in-card"
    assert len(hub.writes()) == writes
    # the model changes: a new PR replaces the block in the merged card, nothing else
    merged_card = hub.repos["org/model"].files["README.md"]
    hub.push("org/model", {"config.json": json.dumps(dict(CFG, max_position_embeddings=8192)).encode()})
    out = post_card_pr("org/model", client=client())
    assert out.action == "created" and out.discussion == 2
    i, j = find_block(merged_card)
    readme = pr_readme(hub, num=2)
    assert readme.startswith(merged_card[:i]) and readme.endswith(merged_card[j:])
    # the owner closes nothing but deletes the section after merging: that is a no as well
    hub.discussions["org/model"][1]["status"] = "merged"
    hub.push("org/model", {"README.md": CARD,
                           "config.json": json.dumps(dict(CFG, max_position_embeddings=16384)).encode()})
    assert post_card_pr("org/model", client=client()).action == "opted-out"


def test_error_after_the_pr_landed_makes_exactly_one_pr(hub):
    hub.add("org/model", CFG, more_files={"README.md": CARD})
    hub.fail_after_create.append(500)
    out = post_card_pr("org/model", client=client())
    assert out.action == "created" and len(hub.discussions["org/model"]) == 1
    assert sum(c["create_pr"] for c in hub.commits) == 1


def test_repo_without_a_card_gets_one_with_only_the_block(hub):
    hub.add("org/model", CFG)
    post_card_pr("org/model", client=client())
    readme = pr_readme(hub)
    assert readme.startswith(START) and readme == block_of(readme) + b"\n"


def test_cli_pr_mode_dry_run_and_errors(hub, tmp_path, capsys):
    hub.add("org/model", CFG, more_files={"README.md": CARD})
    assert main(["hub", "post", "org/model", "--as", "pr", "--dry-run", str(tmp_path)]) == 0
    assert hub.writes() == [] and hub.commits == []
    proposed = (tmp_path / "org__model.README.md").read_bytes()
    assert proposed.startswith(CARD + b"\n\n" + START)
    assert find_marker((tmp_path / "org__model.pr.md").read_text()).key
    capsys.readouterr()
    assert main(["hub", "post", "org/model", "--as", "pr", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["action"] == "created" and out["url"].endswith("/org/model/discussions/1")
    assert pr_readme(hub) == proposed  # the dry run showed exactly what was committed
    hub.add("org/broken", CFG, more_files={"README.md": b"# card\n" + END + b"\n"})
    assert main(["hub", "post", "org/broken", "--as", "pr"]) == 2
    err = capsys.readouterr().err
    assert "org/broken: the model card has an unmatched" in err and "Traceback" not in err
    hub.add("org/latin1", CFG, more_files={"README.md": "# Caf\u00e9\n".encode("latin-1")})
    assert main(["hub", "post", "org/latin1", "--as", "pr"]) == 2
    assert "not UTF-8" in capsys.readouterr().err
    assert main(["hub", "post", "org/model", "--as", "pr", "--dry-run", ""]) == 2  # never "no dry run"
    assert main(["hub", "post", "org/model", "--revision", "../x y"]) == 2
    assert ("org/broken", 1) not in hub.pr_files


def test_opt_out_in_one_mode_covers_the_other(hub):
    from bot.post import post_discussion
    hub.add("org/a", CFG, more_files={"README.md": CARD})
    post_discussion("org/a", client=client())
    hub.discussions["org/a"][0]["status"] = "closed"  # the owner closes the bot's discussion
    writes = len(hub.writes())
    assert post_card_pr("org/a", client=client()).action == "opted-out"
    hub.add("org/b", CFG, more_files={"README.md": CARD})
    post_card_pr("org/b", client=client())
    assert not [p for _, p in hub.writes()[writes:] if "org/a" in p]  # nothing more on org/a
    hub.discussions["org/b"][0]["status"] = "closed"  # the owner closes the bot's pull request
    writes = len(hub.writes())
    assert post_discussion("org/b", client=client()).action == "opted-out"
    assert len(hub.writes()) == writes


def test_pr_the_bot_closed_itself_is_no_opt_out(hub):
    hub.add("org/model", CFG, more_files={"README.md": CARD})
    post_card_pr("org/model", client=client())
    hub.merge_pr("org/model", 1)
    # a stale duplicate PR, then the card already current: the bot closes the PR itself
    hub.add_discussion("org/model", "dup", hub.discussions["org/model"][0]["events"][0]["data"]["latest"]["raw"],
                       author="deploysheet-bot", status="draft", pull_request=True)
    assert post_card_pr("org/model", client=client()).closed_duplicates == [2]
    hub.push("org/model", {"config.json": json.dumps(dict(CFG, max_position_embeddings=8192)).encode()})
    assert post_card_pr("org/model", client=client()).action == "created"


def test_dry_run_into_a_file_is_a_bad_input(hub, tmp_path, capsys):
    hub.add("org/model", CFG)
    target = tmp_path / "a-file"
    target.write_text("x")
    assert main(["hub", "post", "org/model", "--as", "pr", "--dry-run", str(target)]) == 2
    assert main(["hub", "post", "org/model", "--dry-run", str(target / "sub")]) == 2
    err = capsys.readouterr().err
    assert err.count("--dry-run") == 2 and "Traceback" not in err


@pytest.mark.parametrize("fault", [502, "reset"])
def test_every_pr_write_that_landed_before_an_error_is_adopted(hub, fault):
    """Issue 15: opening the PR, committing to its ref and editing its description each land, then their answer is
    lost: exactly one PR, one commit to refs/pr/1, one description edit."""
    hub.add("org/model", CFG, more_files={"README.md": CARD})
    hub.fail_after_create = [fault]
    out = post_card_pr("org/model", client=client())
    assert out.action == "created" and out.discussion == 1 and len(hub.discussions["org/model"]) == 1
    assert sum(c["create_pr"] for c in hub.commits) == 1
    hub.push("org/model", {"config.json": json.dumps(dict(CFG, max_position_embeddings=8192)).encode()})
    hub.fail_after_commit, hub.fail_after_edit = [fault], [fault]
    out = post_card_pr("org/model", client=client())
    assert out.action == "updated" and len(hub.discussions["org/model"]) == 1
    assert [(c["revision"], c["create_pr"]) for c in hub.commits] == [("main", True), ("refs/pr/1", False)]
    assert [h["kind"] for h in hub.history] == ["create", "edit"]
    assert find_marker(hub.history[-1]["content"]).sha == hub.repos["org/model"].sha
    assert find_marker(block_of(pr_readme(hub)).decode()).sha == hub.repos["org/model"].sha
    assert hub.fail_after_create == hub.fail_after_commit == hub.fail_after_edit == []
    assert post_card_pr("org/model", client=client()).action == "unchanged"
