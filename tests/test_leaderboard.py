"""``deploysheet leaderboard DB``: ranking read from a crawl database, Markdown/CSV/HTML output, escaping,
all-or-nothing folder writes, exit codes, and the upload to a Hub dataset repo (fake Hub)."""

from __future__ import annotations

import csv
import io
import re
import sqlite3

import pytest
from conftest import run_cli
from lbdb import (
    ERRORS,
    HOSTILE_LICENSE,
    HOSTILE_NAME,
    HOSTILE_TYPE,
    make_db,
    ok_row,
    scale_costs,
    sha_of,
)

from scorer.cli import main
from scorer.crawldb import CrawlDB, Result
from scorer.errors import BadInputError
from scorer.leaderboard import build_leaderboard, hub_url, sheet_names
from scorer.leaderboard_output import csv_cell, render_csv, render_html, render_markdown


@pytest.fixture(scope="module")
def db_rows(tmp_path_factory):
    path = tmp_path_factory.mktemp("lbdb") / "crawl.sqlite"
    rows = make_db(path, gpus=("H100-SXM", "L40S"))
    return path, rows


def _cost(r: Result, gpu: str, regime: str):
    return next((c.usd_per_1m_output_tokens for c in r.costs if c.gpu == gpu and c.regime == regime), None)


def test_ranks_by_score_and_by_cost(db_rows):
    path, rows = db_rows
    lb = build_leaderboard(path)
    want = [r.repo_id for r in sorted(rows, key=lambda r: (-r.score, r.repo_id))]
    assert [e.repo_id for e in lb.entries] == want
    assert [e.rank for e in lb.entries] == list(range(1, len(rows) + 1))
    # the current commit only: the older commits (scored 99.9) are history
    assert all(e.score != 99.9 for e in lb.entries)
    assert {e.sha for e in lb.entries} == {sha_of(r.repo_id) for r in rows}
    priced = sorted((r for r in rows if _cost(r, "H100-SXM", "throughput") is not None),
                    key=lambda r: (_cost(r, "H100-SXM", "throughput"), r.repo_id))
    assert [e.repo_id for e in lb.by_cost] == [r.repo_id for r in priced]
    assert [e.cost_rank for e in lb.by_cost] == list(range(1, len(priced) + 1))
    top = lb.by_cost[0]
    assert top.usd_per_1m_output_tokens == _cost(priced[0], "H100-SXM", "throughput")
    assert top.layout and top.output_tokens_per_s_per_gpu > 0
    assert lb.gpus == ["H100-SXM", "L40S"] and lb.gpu == "H100-SXM" and lb.regime.id == "throughput"
    assert lb.regime.isl == 1024


def test_regime_and_gpu_alias_change_the_cost_ranking(db_rows):
    path, rows = db_rows
    lb = build_leaderboard(path, gpu="h100", regime="latency")  # a catalog alias, any case
    assert lb.gpu == "H100-SXM" and lb.regime.id == "latency"
    priced = sorted(rows, key=lambda r: (_cost(r, "H100-SXM", "latency"), r.repo_id))
    assert [e.repo_id for e in lb.by_cost] == [r.repo_id for r in priced]
    e = next(e for e in lb.entries if e.repo_id == rows[0].repo_id)
    assert e.usd_per_1m_output_tokens == _cost(rows[0], "H100-SXM", "latency")


def test_equal_scores_share_a_rank(tmp_path):
    with CrawlDB(tmp_path / "t.sqlite") as db:
        for name, score in (("a/x", 80.0), ("a/y", 90.0), ("a/z", 80.0), ("a/w", 70.0)):
            db.put(ok_row(name, "qwen3-4b", score=score))
    lb = build_leaderboard(tmp_path / "t.sqlite")
    assert [(e.repo_id, e.rank) for e in lb.entries] == [("a/y", 1), ("a/x", 2), ("a/z", 2), ("a/w", 4)]
    # same model, same costs: every one shares cost rank 1
    assert {e.cost_rank for e in lb.entries} == {1}


def test_not_scored_section(db_rows):
    path, _ = db_rows
    lb = build_leaderboard(path)
    got = {(n.repo_id, n.status, n.error) for n in lb.not_scored}
    assert got == set(ERRORS)
    assert lb.status_counts == {"ok": 6, **{s: 1 for _, s, _ in ERRORS}}
    md = render_markdown(lb)
    section = md.split("## Not scored", 1)[1]
    for repo, status, _ in ERRORS:
        assert repo in section and status.replace("_", "\\_") in section


def test_csv_parses_back(db_rows):
    path, rows = db_rows
    lb = build_leaderboard(path)
    data = list(csv.DictReader(io.StringIO(render_csv(lb))))
    assert len(data) == len(rows) + len(ERRORS)
    ok = [d for d in data if d["status"] == "ok"]
    assert [d["model"] for d in ok] == [e.repo_id for e in lb.entries]
    for d, e in zip(ok, lb.entries):
        assert int(d["rank"]) == e.rank
        assert float(d["score"]) == pytest.approx(e.score)
        assert float(d["usd_per_1m_output_tokens"]) == pytest.approx(e.usd_per_1m_output_tokens)
        assert int(d["params_total"]) == e.params_total and d["gpu"] == "H100-SXM" and d["regime"] == "throughput"
        assert d["link"] == hub_url(e.repo_id)
    bad = {d["model"]: d for d in data if d["status"] != "ok"}
    assert {k: (v["status"], v["error"]) for k, v in bad.items()} == {r: (s, e) for r, s, e in ERRORS}
    assert all(v["rank"] == "" and v["score"] == "" for v in bad.values())
    hostile = next(d for d in ok if d["model"] == HOSTILE_NAME)
    assert hostile["license"] == HOSTILE_LICENSE  # does not start with a formula character: unchanged


def test_csv_guards_formulas(tmp_path):
    evil = {"license": "=HYPERLINK(\"http://x\",\"y\")", "model_type": "+cmd|' /C calc'!A0"}
    with CrawlDB(tmp_path / "t.sqlite") as db:
        db.put(ok_row("a/formula", "qwen3-4b", **evil))
        db.put(Result(repo_id="a/err", sha=sha_of("a/err"), status="error", error="@SUM(1+1)*cmd|' /C calc'!A0"))
        db.put(Result(repo_id="a/neg", sha=sha_of("a/neg"), status="invalid_json", error="-2+3"))
    data = list(csv.DictReader(io.StringIO(render_csv(build_leaderboard(tmp_path / "t.sqlite")))))
    by = {d["model"]: d for d in data}
    assert by["a/formula"]["license"] == "'" + evil["license"]
    assert by["a/formula"]["model_type"] == "'" + evil["model_type"]
    assert by["a/err"]["error"].startswith("'@")
    assert by["a/neg"]["error"] == "'-2+3"
    for d in data:
        for v in d.values():
            assert not v.startswith(("=", "+", "@")), v
    assert csv_cell(-1.5) == -1.5 and csv_cell(None) == "" and csv_cell(True) == "yes"


def _table_rows(md: str, heading: str) -> list[str]:
    part = md.split(heading, 1)[1].split("\n## ", 1)[0]
    return [ln for ln in part.splitlines() if ln.startswith("|")]


def _cells(line: str) -> int:
    return len(re.split(r"(?<!\\)\|", line)) - 2


def test_markdown_escapes_hostile_text(db_rows):
    path, _ = db_rows
    md = render_markdown(build_leaderboard(path))
    rows = _table_rows(md, "## By score")
    assert len(rows) == 2 + 6
    assert {_cells(r) for r in rows} == {17}  # escaped pipes split no cell
    hostile = next(r for r in rows if "evil/" in r)
    assert "<img" not in md and "<script" not in md
    assert "\\|\\`x\\`" in hostile  # pipe and backticks escaped
    assert "&lt;img src=x onerror=window.\\_\\_xss=3\\>" in hostile  # the model_type
    assert "javascript:" not in md.lower()
    # the link target is the percent-encoded Hub page: no ( ) < > or spaces to break out of it
    assert "](https://huggingface.co/evil/%3Cimg%20src%3Dx%20onerror%3Dwindow.__xss%3D1%3E)" in hostile
    assert {_cells(r) for r in _table_rows(md, "## By cost")} == {10}


def test_html_escapes_and_is_self_contained(db_rows):
    path, _ = db_rows
    html = render_html(build_leaderboard(path))
    assert "<img" not in html and html.count("<script") == 1
    assert "&lt;img src=x onerror=window.__xss=1&gt;" in html
    assert "&#34;&gt;&lt;script&gt;window.__xss=2&lt;/script&gt;" in html
    assert "onerror=" not in re.sub(r"&lt;img[^&]*&gt;", "", html)
    assert not re.search(r"""(src|href)=["']?(https?:)?//(?!huggingface\.co/)""", html)
    assert "javascript:" not in html.lower()
    assert "Content-Security-Policy" in html and "script-src 'sha256-" in html
    assert HOSTILE_TYPE not in html and HOSTILE_NAME not in html


def test_sheet_names_are_safe_and_unique():
    names = sheet_names(["org/name", "Org/Name", HOSTILE_NAME, "a/../../etc", "x/.hidden", "y/z."])
    assert names["org/name"] == "org--name"
    assert names["Org/Name"] != "Org--Name" and names["Org/Name"].lower() != "org--name"
    for n in names.values():
        assert re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", n) and len(n) < 200, n
        assert not n.endswith((".", "-")), n
    assert len({n.lower() for n in names.values()}) == len(names)


def test_cli_markdown_to_stdout_and_formats(db_rows, tmp_path, capsys):
    path, _ = db_rows
    assert main(["leaderboard", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# Leaderboard — H100-SXM, throughput regime")
    assert main(["leaderboard", str(path), "--format", "csv", "--gpu", "L40S", "--regime", "short_context"]) == 0
    data = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert {d["gpu"] for d in data} == {"L40S"} and {d["regime"] for d in data} == {"short_context"}
    assert main(["leaderboard", str(path), "--format", "html", "-o", str(tmp_path / "lb.html")]) == 0
    assert (tmp_path / "lb.html").read_text().startswith("<!doctype html>")


def test_cli_out_folder_with_sheets(db_rows, tmp_path):
    path, rows = db_rows
    out = tmp_path / "site"
    res = run_cli("leaderboard", str(path), "--out", str(out), "--sheets")
    assert res.returncode == 0, res.stderr
    assert sorted(p.name for p in out.iterdir()) == [".deploysheet-leaderboard", "index.html", "leaderboard.csv",
                                                     "leaderboard.md", "sheets"]
    sheets = sorted(p.name for p in (out / "sheets").iterdir())
    assert len(sheets) == len(rows) and "meta-llama--Llama-3.1-8B-Instruct.html" in sheets
    md = (out / "leaderboard.md").read_text()
    assert "](sheets/meta-llama--Llama-3.1-8B-Instruct.html)" in md
    assert 'href="sheets/Qwen--Qwen3-4B.html"' in (out / "index.html").read_text()
    page = (out / "sheets" / "Qwen--Qwen3-4B.html").read_text()
    assert page.startswith("<!doctype html>") and "Deployment sheet" in page
    # not-scored repos link to the Hub
    assert "](https://huggingface.co/someone/flaky)" in md
    # no temp folders left beside it
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]
    # a rerun replaces the previous leaderboard whole
    (out / "sheets" / "stale.html").write_text("old")
    res = run_cli("leaderboard", str(path), "--out", str(out))
    assert res.returncode == 0, res.stderr
    assert not (out / "sheets").exists()
    assert "](https://huggingface.co/Qwen/Qwen3-4B)" in (out / "leaderboard.md").read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_out_folder_is_all_or_nothing(db_rows, tmp_path):
    path, _ = db_rows
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "thesis.tex").write_text("precious")
    res = run_cli("leaderboard", str(path), "--out", str(mine))
    assert res.returncode == 2 and "refusing to replace" in res.stderr
    assert [p.name for p in mine.iterdir()] == ["thesis.tex"]
    res = run_cli("leaderboard", str(path), "--out", str(tmp_path / "new"), "--gpu", "B200")
    assert res.returncode == 2 and not (tmp_path / "new").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine"]


@pytest.mark.parametrize("args, needle", [
    (["--gpu", "B200"], "GPUs present: H100-SXM, L40S"),
    (["--gpu", "no-such-gpu"], "GPUs present: H100-SXM, L40S"),
    (["--regime", "batch"], "invalid choice"),
    (["--sheets"], "--sheets"),
    (["--out", "x", "-o", "y"], "not both"),
    (["--push-to-hub", "not a repo"], "not a Hub repo id"),
])
def test_bad_arguments_exit_2_one_line(db_rows, args, needle):
    path, _ = db_rows
    res = run_cli("leaderboard", str(path), *args)
    assert res.returncode == 2, res.stderr
    assert needle in res.stderr and res.stderr.count("\n") == 1 and "Traceback" not in res.stderr
    assert res.stdout == ""


def test_not_a_database_exit_2(tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("this is not a database\n" * 100)
    other = tmp_path / "other.sqlite"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    before = other.read_bytes()
    for target, needle in ((text, "not a usable SQLite database"), (other, "not a deploysheet crawl database"),
                           (tmp_path / "missing.sqlite", "no such file"), (tmp_path, "is a folder")):
        res = run_cli("leaderboard", str(target))
        assert res.returncode == 2, (target, res.stderr)
        assert needle in res.stderr and res.stderr.count("\n") == 1 and "Traceback" not in res.stderr
    assert other.read_bytes() == before  # looked at, not modified
    assert not (tmp_path / "missing.sqlite").exists()
    with pytest.raises(BadInputError):
        build_leaderboard(text)


def test_empty_database_says_no_models(tmp_path):
    CrawlDB(tmp_path / "empty.sqlite").close()
    # no costs to check the GPU against: it must still be the catalog's (crawl --gpu takes catalog ids only)
    with pytest.raises(BadInputError, match="unknown GPU 'anything'"):
        build_leaderboard(tmp_path / "empty.sqlite", gpu="anything")
    lb = build_leaderboard(tmp_path / "empty.sqlite", gpu="b200")
    assert lb.entries == [] and lb.not_scored == [] and lb.gpu == "B200"
    assert "No models scored in this database." in render_markdown(lb)
    assert list(csv.reader(io.StringIO(render_csv(lb))))[1:] == []
    res = run_cli("leaderboard", str(tmp_path / "empty.sqlite"), "--out", str(tmp_path / "site"))
    assert res.returncode == 0, res.stderr
    assert "No models" in (tmp_path / "site" / "index.html").read_text()


def test_only_errors_database(tmp_path):
    with CrawlDB(tmp_path / "e.sqlite") as db:
        db.put(Result(repo_id="a/b", sha=sha_of("a/b"), status="gated", error="gated"))
    lb = build_leaderboard(tmp_path / "e.sqlite")
    assert lb.entries == [] and [n.repo_id for n in lb.not_scored] == ["a/b"]


def test_model_without_cost_has_no_cost_rank(tmp_path):
    with CrawlDB(tmp_path / "t.sqlite") as db:
        db.put(ok_row("a/cheap", "qwen3-4b"))
        db.put(scale_costs(ok_row("a/pricey", "llama-3.1-8b"), 2.0))
        db.put(ok_row("a/nofit", "gemma-7b").model_copy(update={"costs": []}))
    lb = build_leaderboard(tmp_path / "t.sqlite")
    assert [e.repo_id for e in lb.by_cost] == ["a/cheap", "a/pricey"]
    nofit = next(e for e in lb.entries if e.repo_id == "a/nofit")
    assert nofit.cost_rank is None and nofit.usd_per_1m_output_tokens is None
    assert "| – |" in render_markdown(lb)


def test_push_to_hub_dataset(db_rows, fakehub, monkeypatch, tmp_path, capsys):
    path, _ = db_rows
    monkeypatch.setenv("HF_TOKEN", "hf_test_token")
    assert main(["leaderboard", str(path), "--push-to-hub", "me/leaderboard", "--sheets"]) == 0
    assert "me/leaderboard" in fakehub.datasets and "me/leaderboard" not in fakehub.repos
    commits = [c for c in fakehub.commits if c["repo"] == "me/leaderboard"]
    assert len(commits) == 1 and commits[0]["repo_type"] == "dataset"
    files = commits[0]["files"]
    assert {"index.html", "leaderboard.md", "leaderboard.csv"} <= set(files)
    assert sum(1 for f in files if f.startswith("sheets/")) == 6
    assert files["leaderboard.md"].decode().startswith("# Leaderboard")
    assert set(fakehub.write_auth) == {"Bearer hf_test_token"}
    assert "/commit/" in capsys.readouterr().out
    assert not any(p.name.startswith("deploysheet-leaderboard-") for p in tmp_path.iterdir())
    # a second push: the repo exists (409 on create is fine), a new commit with the same files
    out = tmp_path / "site"
    assert main(["leaderboard", str(path), "--out", str(out), "--push-to-hub", "me/leaderboard"]) == 0
    assert len([c for c in fakehub.commits if c["repo"] == "me/leaderboard"]) == 2
    assert (out / "index.html").is_file()


def test_push_to_hub_refused_exits_3(db_rows, fakehub, tmp_path):
    path, _ = db_rows
    fakehub.fail_next = [403]
    res = run_cli("leaderboard", str(path), "--push-to-hub", "me/leaderboard",
                  env={"HF_ENDPOINT": fakehub.endpoint, "HF_HOME": str(tmp_path / "hf")})
    assert res.returncode == 3, res.stderr
    assert "me/leaderboard" in res.stderr and res.stderr.count("\n") == 1 and "Traceback" not in res.stderr
    assert fakehub.commits == []


@pytest.mark.parametrize("plant", ["sheets/mydata.txt", "index.html", "sheets/sub/a.html"])
def test_out_never_replaces_files_it_did_not_write(db_rows, tmp_path, plant):
    """Names like ours are not enough: the whole tree must be a previous leaderboard's."""
    path, _ = db_rows
    site = tmp_path / "site"
    (site / plant).parent.mkdir(parents=True)
    (site / plant).write_text("<html>my own site</html>" if plant.endswith(".html") else "precious")
    res = run_cli("leaderboard", str(path), "--out", str(site))
    assert res.returncode == 2 and "refusing to replace" in res.stderr, res.stderr
    assert (site / plant).read_text().endswith(("site</html>", "precious"))


def test_unreadable_stored_sheet_is_a_warning(db_rows, tmp_path):
    import shutil
    import sqlite3
    path, rows = db_rows
    bad = tmp_path / "bad.db"
    shutil.copy(path, bad)
    victim = rows[0].repo_id
    with sqlite3.connect(bad) as c:
        c.execute("UPDATE results SET sheet = X'00112233' WHERE repo_id = ?", (victim,))
    res = run_cli("leaderboard", str(bad), "--out", str(tmp_path / "site"), "--sheets")
    assert res.returncode == 0, res.stderr
    assert victim in res.stderr and "unreadable" in res.stderr
    md = (tmp_path / "site" / "leaderboard.md").read_text()
    assert f"](https://huggingface.co/{victim})" in md  # links to the Hub instead


def test_inputs_are_never_outputs(db_rows, tmp_path):
    """-o onto the database (directly or through a link), or an --out folder holding it, is refused up front."""
    import shutil
    path, _ = db_rows
    db = tmp_path / "crawl.db"
    shutil.copy(path, db)
    before = db.read_bytes()
    link = tmp_path / "link.md"
    link.symlink_to(db)
    for args in (["-o", str(db)], ["-o", str(link)]):
        res = run_cli("leaderboard", str(db), *args)
        assert res.returncode == 2 and "refusing to overwrite" in res.stderr, res.stderr
    site = tmp_path / "site"
    site.mkdir()
    (site / ".deploysheet-leaderboard").write_text("")
    shutil.copy(path, site / "leaderboard.csv")  # the database under one of our names, in a marked folder
    res = run_cli("leaderboard", str(site / "leaderboard.csv"), "--out", str(site))
    assert res.returncode == 2 and "holds the input" in res.stderr
    assert (site / "leaderboard.csv").read_bytes()[:15] == b"SQLite format 3"
    assert db.read_bytes() == before


def test_our_names_must_be_our_files(db_rows, tmp_path):
    path, _ = db_rows
    site = tmp_path / "site"
    (site / "index.html").mkdir(parents=True)  # a folder named like our page, in a marked folder
    (site / "index.html" / "mydata.txt").write_text("precious")
    (site / ".deploysheet-leaderboard").write_text("")
    res = run_cli("leaderboard", str(path), "--out", str(site))
    assert res.returncode == 2 and "refusing to replace" in res.stderr
    assert (site / "index.html" / "mydata.txt").read_text() == "precious"


def test_a_file_planted_while_writing_is_kept(db_rows, tmp_path, monkeypatch):
    import scorer.leaderboard_output as lo
    from scorer.leaderboard import build_leaderboard
    path, _ = db_rows
    site = tmp_path / "site"
    board = build_leaderboard(path)
    files, _ = lo.build_files(board, path, False)
    lo.write_folder(site, files)  # a previous leaderboard
    real = lo._write_tree

    def racing(tmp, fs):
        (site / "user-notes.txt").write_text("written meanwhile")
        return real(tmp, fs)

    monkeypatch.setattr(lo, "_write_tree", racing)
    with pytest.raises(BadInputError, match="changed while"):
        lo.write_folder(site, files)
    assert (site / "user-notes.txt").read_text() == "written meanwhile"
    assert (site / "index.html").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_sheet_that_validates_but_cannot_render_is_a_warning(db_rows, tmp_path):
    import json
    import shutil
    import sqlite3
    import zlib
    path, rows = db_rows
    bad = tmp_path / "bad.db"
    shutil.copy(path, bad)
    with sqlite3.connect(bad) as c:
        repo, sha, blob = c.execute("SELECT r.repo_id, r.sha, r.sheet FROM results r JOIN repos p ON "
                                    "p.repo_id = r.repo_id AND p.sha = r.sha WHERE r.status='ok' AND r.sheet IS NOT "
                                    "NULL LIMIT 1").fetchone()
        doc = json.loads(zlib.decompress(blob))
        doc["report_tps"] = []
        c.execute("UPDATE results SET sheet=? WHERE repo_id=? AND sha=?", (zlib.compress(json.dumps(doc).encode()),
                                                                           repo, sha))
    res = run_cli("leaderboard", str(bad), "--out", str(tmp_path / "site"), "--sheets")
    assert res.returncode == 0, res.stderr
    assert repo in res.stderr and "cannot be rendered" in res.stderr


def test_leaderboard_straight_from_local_folders(tmp_path, capsys, monkeypatch):
    """Issue 14: `leaderboard --from DIR...` ranks local model folders, no crawl and no Hub."""
    import json as _json

    from scorer.cli import main
    from scorer.resources import data_dir
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")  # any Hub call would fail
    mine = tmp_path / "mine"
    (mine / "broken").mkdir(parents=True)
    (mine / "broken" / "config.json").write_text('{"model_type": "llama", "hidden_size": 0}')
    (mine / "tiny").mkdir()
    (mine / "tiny" / "config.json").write_text(_json.dumps({
        "model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 1024, "intermediate_size": 2816,
        "num_hidden_layers": 4, "num_attention_heads": 8, "num_key_value_heads": 2, "vocab_size": 32000,
        "max_position_embeddings": 4096}))
    assert main(["leaderboard", "--from", str(data_dir() / "examples"), str(mine), "--format", "csv"]) == 0
    out = capsys.readouterr().out
    rows = list(__import__("csv").DictReader(__import__("io").StringIO(out)))
    scored = {r["model"] for r in rows if r.get("status", "ok") == "ok"}
    assert {"llama-3.1-8b", "qwen3-4b", "tiny"} <= scored
    assert any(r["model"] == "broken" and r.get("status") == "invalid_config" for r in rows)
    assert "huggingface.co" not in out
    assert main(["leaderboard", "--from", str(mine)]) == 0
    md = capsys.readouterr().out
    assert "local folders mine" in md and "](https://huggingface.co" not in md
    for bad in (["leaderboard"], ["leaderboard", "x.db", "--from", str(mine)],
                ["leaderboard", "--from", str(tmp_path / "nope")], ["leaderboard", "--from", str(tmp_path / "mine" / "tiny" / "config.json")]):
        assert main(bad) == 2
        assert capsys.readouterr().err.count("\n") == 1


def test_local_leaderboard_refuses_an_unknown_gpu_and_lists_a_looping_config(tmp_path, capsys, monkeypatch):
    """Breaker trial: `--gpu FOO` exited 0 and wrote its outputs (a database without costs never checked the id),
    and a folder whose config.json is a symlink loop was dropped silently instead of listed as not scored."""
    import csv as _csv
    import io
    import json as _json

    from scorer.cli import main
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")
    mine = tmp_path / "mine"
    (mine / "tiny").mkdir(parents=True)
    (mine / "tiny" / "config.json").write_text(_json.dumps({
        "model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 1024, "intermediate_size": 2816,
        "num_hidden_layers": 4, "num_attention_heads": 8, "num_key_value_heads": 2, "vocab_size": 32000,
        "max_position_embeddings": 4096}))
    (mine / "loop").mkdir()
    (mine / "loop" / "config.json").symlink_to("config.json")  # resolves to itself
    out = tmp_path / "out"
    assert main(["leaderboard", "--from", str(mine), "--gpu", "FOO", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "FOO" in err and not out.exists()
    assert main(["leaderboard", "--from", str(mine / "tiny"), "--gpu", "FOO"]) == 2
    capsys.readouterr()
    assert main(["leaderboard", "--from", str(mine), "--format", "csv"]) == 0
    rows = {r["model"]: r for r in _csv.DictReader(io.StringIO(capsys.readouterr().out))}
    assert rows["tiny"].get("status", "ok") == "ok"
    assert rows["loop"]["status"] == "invalid_config" and "link" in rows["loop"]["error"]
    from scorer.crawldb import CrawlDB
    with CrawlDB(str(tmp_path / "empty.db")):
        pass  # a database with no costs (nothing crawled, or every repo failed)
    assert main(["leaderboard", str(tmp_path / "empty.db"), "--gpu", "FOO"]) == 2
    assert "unknown GPU 'FOO'" in capsys.readouterr().err
    assert main(["leaderboard", str(tmp_path / "empty.db"), "--gpu", "h100"]) == 0  # an alias of the catalog


def test_a_refused_local_leaderboard_leaves_no_scratch_folder(tmp_path, monkeypatch):
    import tempfile
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))  # mkdtemp's default folder
    assert main(["leaderboard", "--from", str(tmp_path / "nope")]) == 2
    assert list(scratch.iterdir()) == []


def test_the_leaderboard_keeps_the_sheets_estimated_and_provisional_labels(tmp_path, capsys, monkeypatch):
    """Newcomer trial: a made-up model_type (read by keys: provisional score) and a plausible unknown shape key
    (estimated counts) were labelled in their sheets but listed plainly in the leaderboard."""
    import csv as _csv
    import io
    import json as _json

    from scorer.cli import main
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")
    base = {"architectures": ["LlamaForCausalLM"], "hidden_size": 1024, "intermediate_size": 2816,
            "num_hidden_layers": 4, "num_attention_heads": 8, "num_key_value_heads": 2, "vocab_size": 32000,
            "max_position_embeddings": 4096}
    mine = tmp_path / "mine"
    for name, cfg in (("plain", {**base, "model_type": "llama"}),
                      ("guessed", {**base, "model_type": "zorblax", "architectures": ["ZorblaxForCausalLM"]}),
                      ("widened", {**base, "model_type": "llama", "num_extra_expert_layers": 3})):
        (mine / name).mkdir(parents=True)
        (mine / name / "config.json").write_text(_json.dumps(cfg))
    for name in ("guessed", "widened"):  # what each sheet says, the oracle for the leaderboard's labels
        assert main(["score", str(mine / name), "--format", "json", "--no-recommendations"]) == 0
        doc = _json.loads(capsys.readouterr().out)
        assert (doc["params"]["exact"], doc["score"]["provisional"]) == (
            (False, True) if name == "guessed" else (False, False))
    assert main(["leaderboard", "--from", str(mine), "--format", "csv"]) == 0
    rows = {r["model"]: r for r in _csv.DictReader(io.StringIO(capsys.readouterr().out))}
    assert (rows["plain"]["params_exact"], rows["plain"]["provisional"]) == ("yes", "no")
    assert (rows["guessed"]["params_exact"], rows["guessed"]["provisional"]) == ("no", "yes")
    assert (rows["widened"]["params_exact"], rows["widened"]["provisional"]) == ("no", "no")
    assert main(["leaderboard", "--from", str(mine)]) == 0
    md = capsys.readouterr().out
    line = next(x for x in md.splitlines() if "| guessed |" in x or "guessed" in x and x.startswith("|"))
    assert "(provisional)" in line and "(estimated)" in line
    line = next(x for x in md.splitlines() if x.startswith("|") and "widened" in x)
    assert "(estimated)" in line and "(provisional)" not in line
