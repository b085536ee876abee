"""Third breaker round: each case fed hostile input to a command and got the wrong answer (data loss, exit 1,
exit 0 on total failure, silently accepted ambiguity). The contract: a one-line error, a documented exit code,
nothing written where it must not be."""

from __future__ import annotations

import csv
import json
import shutil
import socket
import sqlite3
from pathlib import Path

import pytest
from conftest import run_cli
from lbdb import make_db

from scorer.cli import main

QWEN = {"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "hidden_size": 1024, "intermediate_size": 3072,
        "num_hidden_layers": 28, "num_attention_heads": 16, "num_key_value_heads": 8, "head_dim": 128,
        "vocab_size": 151936, "max_position_embeddings": 40960, "tie_word_embeddings": True,
        "torch_dtype": "bfloat16", "rms_norm_eps": 1e-6, "rope_theta": 1000000}


def _closed_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there now: a connection is refused at once
    return port


def _one_line(err: str) -> None:
    assert err.count("\n") <= 1 and "Traceback" not in err, err


def test_leaderboard_never_writes_inside_a_from_folder(tmp_path, capsys):
    model = tmp_path / "models" / "m1"
    model.mkdir(parents=True)
    (model / "config.json").write_text(json.dumps(QWEN))
    before = (model / "config.json").read_bytes()
    for flag, target in (("-o", model / "config.json"), ("--out", tmp_path / "models" / "site")):
        assert main(["leaderboard", "--from", str(tmp_path / "models"), flag, str(target)]) == 2
        err = capsys.readouterr().err
        assert f"{flag} " in err and "inside --from" in err
    assert (model / "config.json").read_bytes() == before  # the input was not replaced
    assert not (tmp_path / "models" / "site").exists()


@pytest.mark.parametrize("endpoint, needle", [("http://[::1", "Invalid IPv6 URL"),
                                              ("http://127.0.0.1:99999", "Port out of range"),
                                              ("http://:80", "names no host")])
def test_malformed_hf_endpoint_is_bad_input_everywhere(endpoint, needle, tmp_path):
    env = {"HF_ENDPOINT": endpoint, "HF_HOME": str(tmp_path / "hf")}
    for args in (("score", "Qwen/Qwen3-0.6B"), ("hub", "post", "Qwen/Qwen3-0.6B", "--dry-run", str(tmp_path / "d")),
                 ("leaderboard", "--from", str(tmp_path), "--push-to-hub", "me/board")):
        res = run_cli(*args, env=env)
        assert res.returncode == 2, (args, res.stderr)
        assert needle in res.stderr and res.stdout == "", (args, res.stdout, res.stderr)
        _one_line(res.stderr)


def test_hub_post_checks_its_flags_before_the_network(tmp_path):
    env = {"HF_ENDPOINT": f"http://127.0.0.1:{_closed_port()}", "HF_HOME": str(tmp_path / "hf")}
    res = run_cli("hub", "post", "Qwen/Qwen3-0.6B", "--gpu", "FOO", "--dry-run", str(tmp_path / "d"), env=env)
    assert res.returncode == 2 and "unknown GPU 'FOO'" in res.stderr, res.stderr
    afile = tmp_path / "afile"
    afile.write_text("keep")
    res = run_cli("hub", "post", "Qwen/Qwen3-0.6B", "--dry-run", str(afile), env=env)
    assert res.returncode == 2 and "is a file, not a folder" in res.stderr, res.stderr
    assert afile.read_text() == "keep"


def test_crawl_of_ids_that_never_reach_the_hub_exits_3(tmp_path):
    ids = tmp_path / "ids.txt"
    ids.write_text("Qwen/Qwen3-0.6B\nfoo/bar@main\n")
    env = {"HF_ENDPOINT": f"http://127.0.0.1:{_closed_port()}", "HF_HOME": str(tmp_path / "hf")}
    res = run_cli("crawl", "--db", str(tmp_path / "c.sqlite"), "--ids", str(ids), "--no-progress", env=env)
    assert res.returncode == 3, res.stderr
    assert "could not reach the Hub" in res.stderr and "any of the 2 repos" in res.stderr
    # the per-repo errors are stored (the next run retries them)
    with sqlite3.connect(tmp_path / "c.sqlite") as db:
        assert db.execute("select count(*) from results where status = 'error'").fetchone()[0] == 2


def test_measurement_csv_with_a_repeated_column_is_refused(tmp_path, capsys):
    path = tmp_path / "dup.csv"
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "model_id", "config", "gpu", "num_gpus", "tp", "pp", "ep", "attention_dp",
                    "weight_precision", "kv_precision", "framework", "isl", "osl", "concurrency", "metric", "value",
                    "value"])
        w.writerow(["a", "o/m", "m", "H100-SXM", 1, 1, 1, 1, 1, "bf16", "", "vllm", 128, 128, 1, "tpot_ms", 5.0, 1])
    (tmp_path / "corpus").mkdir()
    for cmd in (["validate", str(path), "--corpus", str(tmp_path / "corpus")],
                ["calibrate", str(path), "--corpus", str(tmp_path / "corpus"), "-o", str(tmp_path / "cal.json")]):
        assert main(cmd) == 2
        err = capsys.readouterr().err
        assert "column 'value' appears 2 times" in err, err
    assert not (tmp_path / "cal.json").exists()


@pytest.mark.parametrize("sql", ["update results set score = 'nan'", "update results set score = 1e308",
                                 "update costs set usd_per_1m_output_tokens = -1",
                                 "update costs set output_tokens_per_s_per_gpu = -5",
                                 "update costs set usd_per_1m_output_tokens = 9e999"])
def test_leaderboard_refuses_out_of_range_values_of_a_tampered_database(tmp_path, capsys, sql):
    path = tmp_path / "crawl.sqlite"
    make_db(path, gpus=("H100-SXM",))
    assert main(["leaderboard", str(path)]) == 0
    capsys.readouterr()
    with sqlite3.connect(path) as db:
        db.execute(sql)
    assert main(["leaderboard", str(path)]) == 2
    err = capsys.readouterr().err
    assert "corrupt row" in err and "out of range" in err
    _one_line(err)


def test_compare_header_keeps_small_targets(capsys):
    assert main(["compare", "example:llama-3.1-8b", "example:qwen3-4b", "--isl", "1024", "--osl", "128", "--qps",
                 "1", "--ttft-ms", "0.01", "--itl-ms", "0.5"]) == 0
    out = capsys.readouterr().out
    assert "TTFT ≤ 0.01 ms · ITL ≤ 0.5 ms" in out.split("\n## ")[0]


def test_config_group_weights_of_the_wrong_type_are_named(tmp_path, capsys):
    cfg = dict(QWEN, quantization_config={"quant_method": "compressed-tensors",
                                          "config_groups": {"g": {"weights": 5, "targets": ["Linear"]}}})
    (tmp_path / "config.json").write_text(json.dumps(cfg))
    assert main(["score", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "quantization_config.config_groups.g.weights is int" in err
