"""The CLI end to end: sheets in both formats, and one-line errors with documented exit codes."""

from __future__ import annotations

import json

import pytest

from conftest import run_cli
from scorer.cli import main

LLAMA_LIKE = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 1024,
              "intermediate_size": 2816, "num_hidden_layers": 4, "num_attention_heads": 8,
              "num_key_value_heads": 2, "vocab_size": 32000, "max_position_embeddings": 4096}

CONTRACT_KEYS = {"schema_version", "model", "params", "kv_cache", "gemms", "hardware_fit", "quantization", "regimes",
                 "score", "findings", "assumptions"}


def score_json(capsys, *args) -> dict:
    assert main(["score", *args, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_default_example_markdown(capsys):
    assert main(["score"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# Deployment sheet — example:llama-3.1-8b")
    for section in ("## Architecture", "## Memory and KV cache", "## Hardware fit", "## Quantization readiness",
                    "## Serving regimes", "## Findings", "## Score", "## Assumptions and sources"):
        assert section in out


def test_json_contract(capsys, write_config):
    sheet = score_json(capsys, str(write_config(LLAMA_LIKE)))
    assert CONTRACT_KEYS <= set(sheet)
    assert isinstance(sheet["params"]["total"], int) and isinstance(sheet["params"]["active"], int)
    # 4 layers x 2 (K,V) x 2 KV heads x 128 head_dim x 2 bytes
    assert sheet["kv_cache"]["bytes_per_token"] == 4 * 2 * 2 * 128 * 2
    assert sheet["kv_cache"]["policy"] == "vllm"
    assert 0 <= sheet["score"]["total"] <= 100
    for f in sheet["findings"]:
        assert {"rule", "severity", "message"} <= set(f)
    rule_ids = {r["id"] for r in json.loads(json.dumps(__import__("scorer.score", fromlist=["x"]).load_json(
        "rules.json")["rules"]))}
    assert all(f["rule"] in rule_ids for f in sheet["findings"])


def test_folder_source_and_output_file(tmp_path, write_config, capsys):
    cfg = write_config(LLAMA_LIKE)
    out = tmp_path / "sheet.md"
    assert main(["score", str(cfg.parent), "-o", str(out), "--gpu", "B200", "--precision", "fp8"]) == 0
    text = out.read_text()
    assert "B200, fp8 weights" in text
    assert capsys.readouterr().out == ""


def test_kv_dtype_and_tp_options(capsys, write_config):
    sheet = score_json(capsys, str(write_config(LLAMA_LIKE)), "--kv-dtype", "fp8", "--tp", "2")
    assert sheet["kv_cache"]["bytes_per_token"] == 4 * 2 * 2 * 128 * 1
    preds = [r["prediction"] for r in sheet["regimes"]["H100-SXM"] if r["prediction"]]
    assert preds and all(p["tp"] == 2 for p in preds)


def test_custom_code_is_read_as_data(capsys, write_config):
    amap = {"AutoConfig": "configuration_evil.Cfg", "AutoModelForCausalLM": "modeling_evil.M"}
    cfg = dict(LLAMA_LIKE, model_type="evil_arch", architectures=["EvilForCausalLM"], auto_map=amap)
    sheet = score_json(capsys, str(write_config(cfg)))
    assert sheet["model"]["custom_code"] is True
    assert any(f["rule"] == "S1" for f in sheet["findings"])
    launch = next(r for rs in sheet["regimes"].values() for r in rs if r.get("launch"))["launch"]
    assert "--trust-remote-code" in launch["argv"]  # vLLM refuses an unknown model_type's config without it
    # a model_type transformers knows runs transformers' (and the engines') own implementation: its auto_map is
    # not needed (transformers' resolve_trust_remote_code prefers the local class; vLLM picks by architectures)
    sheet = score_json(capsys, str(write_config(dict(LLAMA_LIKE, auto_map=amap))))
    assert sheet["model"]["custom_code"] is False and not any(f["rule"] == "S1" for f in sheet["findings"])
    launch = next(r for rs in sheet["regimes"].values() for r in rs if r.get("launch"))["launch"]
    assert "--trust-remote-code" not in launch["argv"]


def test_unknown_model_type_falls_back_with_guess(capsys, write_config):
    cfg = dict(LLAMA_LIKE, model_type="my_new_arch", architectures=["MyNewArchForCausalLM"])
    sheet = score_json(capsys, str(write_config(cfg)))
    assert sheet["model"]["guesses"]
    assert any(f["rule"] == "S2" for f in sheet["findings"])
    assert sheet["params"]["total"] > 0


def test_encoder_only_sheet_says_what_is_covered(capsys, write_config):
    cfg = {"model_type": "bert", "architectures": ["BertForMaskedLM"], "hidden_size": 256, "num_hidden_layers": 2,
           "num_attention_heads": 4, "intermediate_size": 1024, "vocab_size": 30522}
    sheet = score_json(capsys, str(write_config(cfg)))
    assert sheet["model"]["kind"] == "encoder"
    assert sheet["regimes"] == {}
    assert any(f["rule"] == "S3" for f in sheet["findings"])


# ----------------------------------------------------------------------------- bad input

BAD_CONFIGS = {
    "zero_heads": (dict(LLAMA_LIKE, num_attention_heads=0), "num_attention_heads"),
    "negative_hidden": (dict(LLAMA_LIKE, hidden_size=-4096), "hidden_size"),
    "float_layers": (dict(LLAMA_LIKE, num_hidden_layers=2.5), "num_hidden_layers"),
    "string_vocab": (dict(LLAMA_LIKE, vocab_size="lots"), "vocab_size"),
    "missing_hidden": ({k: v for k, v in LLAMA_LIKE.items() if k != "hidden_size"}, "hidden"),
    "hidden_not_divisible": (dict(LLAMA_LIKE, hidden_size=1000, num_attention_heads=7, num_key_value_heads=7),
                             "not divisible"),
    "absurd_layers": (dict(LLAMA_LIKE, num_hidden_layers=10 ** 9), "absurd"),
    "kv_not_dividing": (dict(LLAMA_LIKE, num_key_value_heads=3), "key/value heads"),
    "unknown_type_missing_dims": ({"model_type": "mystery"}, "missing"),
}


@pytest.mark.parametrize("case", sorted(BAD_CONFIGS))
def test_bad_config_is_one_line_exit_2_no_output(case, tmp_path, write_config, capsys):
    cfg, needle = BAD_CONFIGS[case]
    out = tmp_path / "out.md"
    rc = main(["score", str(write_config(cfg)), "-o", str(out)])
    err = capsys.readouterr().err
    assert rc == 2, err
    assert err.count("\n") == 1 and err.startswith("deploysheet: error:")
    assert needle in err
    assert not out.exists()
    assert not list(tmp_path.glob(".out.md.*"))  # no temp file left behind


@pytest.mark.parametrize("args,needle", [
    (["score", "/nonexistent/config.json"], "no such file"),
    (["score", "--gpu", "H900"], "unknown GPU"),
    (["score", "--precision", "fp3"], "unknown precision"),
    (["score", "--kv-dtype", "int2"], "unknown KV dtype"),
    (["score", "--kv-policy", "magic"], "unknown KV policy"),
    (["score", "--tp", "0"], "must be at least 1"),
    (["score", "--tp", "3"], "not valid for this model"),
    (["score", "--format", "pdf"], "invalid choice"),
    (["score", "example:nope"], "unknown example"),
    (["score", "--usd-per-gpu-hour", "-1"], "positive"),
    (["score", "--isl", "0"], "must be at least 1"),
    (["score", "--osl", "99999999999"], "--osl must be between 1 and 16,777,216"),
])
def test_bad_arguments_exit_2(args, needle, capsys):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and needle in err


def test_invalid_json(write_config, capsys):
    rc = main(["score", str(write_config('{"hidden_size": 4096,,}'))])
    err = capsys.readouterr().err
    assert rc == 2 and "not valid JSON" in err and "line 1" in err


def test_json_not_an_object(write_config, capsys):
    assert main(["score", str(write_config("[1, 2, 3]"))]) == 2
    assert "JSON object" in capsys.readouterr().err


def test_oversize_file_refused(write_config, capsys):
    from scorer.sources import MAX_CONFIG_BYTES
    assert MAX_CONFIG_BYTES == 64 * 1024 * 1024  # issue 12: holds multi-MB mixed-precision configs, keeps a cap
    big = json.dumps(dict(LLAMA_LIKE, padding="x" * MAX_CONFIG_BYTES))
    assert main(["score", str(write_config(big))]) == 2
    assert "cap" in capsys.readouterr().err


def test_folder_without_config(tmp_path, capsys):
    assert main(["score", str(tmp_path)]) == 2
    assert "without a config.json" in capsys.readouterr().err


def test_subprocess_error_has_no_traceback(write_config):
    res = run_cli("score", str(write_config(dict(LLAMA_LIKE, num_attention_heads=0))))
    assert res.returncode == 2
    assert "Traceback" not in res.stderr and res.stderr.count("\n") == 1
    assert res.stdout == ""


def test_rules_and_gpus_listing(capsys):
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    for rid in ("G1", "G3", "T1", "T2", "Q2", "Q3", "Q4", "A1", "A4", "A7", "M1", "S1"):
        assert f"| {rid} |" in out
    assert main(["gpus"]) == 0
    out = capsys.readouterr().out
    for gid in ("A100-SXM-80GB", "H100-SXM", "H200-SXM", "B200", "L40S", "MI300X"):
        assert f"| {gid} |" in out


def test_frontier_and_sla_follow_isl_osl(capsys):
    """score --isl/--osl sets the workload of the Pareto frontier and the SLA search; the SLA pick is
    the prediction `predict` gives for the same layout and concurrency, and it meets the target."""
    assert main(["score", "example:qwen3-4b", "--isl", "8192", "--osl", "256", "--ttft-ms", "500",
                 "--no-recommendations", "--format", "json"]) == 0
    sheet = json.loads(capsys.readouterr().out)
    fr = sheet["frontier"]["H100-SXM"]
    assert (fr["isl"], fr["osl"]) == (8192, 256) and fr["pareto"] and fr["note"] is None
    assert all((x["isl"], x["osl"]) == (8192, 256) for x in fr["pareto"])
    pick = sheet["sla"]["best"]["H100-SXM"]
    assert (sheet["sla"]["isl"], sheet["sla"]["osl"]) == (8192, 256) and pick["ttft_ms"] <= 500
    assert main(["predict", "example:qwen3-4b", "--gpu", "H100-SXM", "--tp", str(pick["tp"]), "--precision", "bf16",
                 "--isl", "8192", "--osl", "256", "--concurrency", str(pick["concurrency"]), "--format", "json"]) == 0
    alone = json.loads(capsys.readouterr().out)
    assert alone["ttft_ms"] == pytest.approx(pick["ttft_ms"], rel=1e-3)
    assert alone["tpot_ms"] == pytest.approx(pick["tpot_ms"], rel=1e-3)
    # the default workload is 1024 in / 1024 out
    assert main(["score", "example:qwen3-4b", "--no-recommendations", "--format", "json"]) == 0
    fr = json.loads(capsys.readouterr().out)["frontier"]["H100-SXM"]
    assert (fr["isl"], fr["osl"]) == (1024, 1024)


def test_frontier_beyond_the_context_says_so(capsys):
    # Qwen3-4B: max_position_embeddings 40,960 (data/examples/qwen3-4b/config.json); 40,000 + 2,000 > 40,960
    assert main(["score", "example:qwen3-4b", "--isl", "40000", "--osl", "2000", "--no-recommendations"]) == 0
    out = capsys.readouterr().out
    assert "not computed (context 42,000 tokens exceeds max\\_position\\_embeddings 40,960)" in out


def test_predict_notes_say_why(capsys):
    base = ["predict", "example:qwen3-4b", "--gpu", "H100-SXM", "--tp", "1", "--format", "json"]
    assert main(base + ["--isl", "1000", "--osl", "10", "--concurrency", "8"]) == 0
    assert json.loads(capsys.readouterr().out)["notes"] == []
    # beyond the context: 40,000 + 2,000 > 40,960 (the example's max_position_embeddings)
    assert main(base + ["--isl", "40000", "--osl", "2000", "--concurrency", "1"]) == 0
    notes = json.loads(capsys.readouterr().out)["notes"]
    assert any("42,000" in n and "40,960" in n for n in notes)
    # more requests than the KV cache holds: the rest queue, and the note names both numbers
    assert main(base + ["--isl", "1000", "--osl", "10", "--concurrency", "100000"]) == 0
    out = json.loads(capsys.readouterr().out)
    held = out["max_concurrency"]
    assert 1 <= held < 100000 and out["queued"] == 100000 - held
    assert out["notes"] == [f"the KV cache holds {held:,} sequences: the other {100000 - held:,} requests wait in "
                            "the engine's queue (TTFT includes the wait)"]


def test_html_sheet_carries_the_sla_search(capsys):
    args = ["score", "example:llama-2-7b", "--ttft-ms", "200", "--itl-ms", "20", "--no-recommendations"]
    assert main(args + ["--format", "json"]) == 0
    pick = json.loads(capsys.readouterr().out)["sla"]["best"]["H100-SXM"]
    assert main(args + ["--format", "html"]) == 0
    html = capsys.readouterr().out
    assert "<b>SLA search</b>" in html
    assert "<h3>Parallelism</h3>" in html and "<h3>Attention kernels</h3>" in html  # as in the Markdown sheet
    assert f"H100-SXM: {pick['layout']} at {pick['concurrency']} concurrent" in html


def test_predict_markdown_is_readable(capsys):
    args = ["predict", "example:qwen3-4b", "--gpu", "H100-SXM", "--isl", "1000", "--osl", "100", "--concurrency", "8"]
    assert main(args + ["--format", "json"]) == 0
    j = json.loads(capsys.readouterr().out)
    assert main(args + ["--format", "md"]) == 0
    md = capsys.readouterr().out
    assert "None" not in md and "True" not in md and "| TTFT ms |" in md
    assert f"| {j['layout']} | 8 | yes | {j['ttft_ms']:,.1f} | {j['tpot_ms']:,.2f} |" in md
    assert "Expected error (leave-one-model-out MdAPE)" in md


def test_a_mistyped_local_folder_is_not_sent_to_the_hub(tmp_path, monkeypatch, capsys):
    """Issue 14: `score corpus/org__typo` (./corpus exists) tried the Hub and failed with a network error."""
    (tmp_path / "corpus").mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")  # a Hub call would fail with exit 3
    assert main(["score", "corpus/org__typo"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no such file or folder" in err and "'corpus' exists" in err


def test_a_missing_absolute_or_relative_path_is_named_as_such(tmp_path, monkeypatch, capsys):
    """`score /nonexist` named "the folder '' exists here": a path spelled as local is a missing path,
    never a Hub repo id, and the message says only that."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")
    for source in (str(tmp_path / "absent" / "config.json"), "./absent", "../absent/x"):
        assert main(["score", source]) == 2
        err = capsys.readouterr().err
        assert err == f"deploysheet: error: {source}: no such file or folder\n", err


def test_revision_with_a_local_source_is_an_error(tmp_path, capsys):
    cfg = tmp_path / "config.json"
    cfg.write_text(json.dumps(LLAMA_LIKE))
    for cmd in (["score", str(tmp_path), "--revision", "main"],
                ["score", "example:qwen3-4b", "--revision", "v1"],
                ["predict", str(cfg), "--revision", "main", "--isl", "10", "--osl", "10", "--concurrency", "1"]):
        assert main(cmd) == 2
        err = capsys.readouterr().err
        assert "--revision applies to Hub repos only" in err and err.count("\n") == 1


def test_predict_beyond_the_context_has_no_latency(capsys):
    """qwen3-4b's max_position_embeddings is 40,960: a 50,000-token prompt is served by no engine as configured."""
    assert main(["predict", "example:qwen3-4b", "--isl", "50000", "--osl", "100", "--concurrency", "1",
                 "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["fits"] is False
    assert all(out[k] is None for k in ("ttft_ms", "tpot_ms", "tokens_per_s_per_user",
                                        "output_tokens_per_s_per_gpu", "breakdown"))
    assert any("exceeds the model's max_position_embeddings 40,960" in n for n in out["notes"])


@pytest.mark.parametrize("cmd", [["score", "--format", "md"], ["score", "--format", "json"],
                                 ["score", "--format", "html"], ["gpus", "--format", "json"], ["gpus"],
                                 ["rules", "--format", "json"], ["rules"],
                                 ["predict", "example:gpt-oss-20b", "--isl", "100", "--osl", "10", "--concurrency", "1"]])
def test_user_facing_output_never_points_at_shared(cmd, capsys):
    """Issue 14: users do not have ../shared (the project's reference notes); no source may send them there."""
    assert main(cmd) == 0
    assert "../shared" not in capsys.readouterr().out


def test_score_at_a_tp_the_engine_refuses_is_an_error(capsys):
    """Newcomer trial: `score --tp 4 --precision fp8_block` of Llama-2-7B exited 0 with every regime refused and a
    header saying it fits. FP8-block weights need each TP shard's output width to be a multiple of the 128-wide
    block: 11,008 / 4 = 2,752 = 21.5 x 128 (refused), 11,008 / 2 = 5,504 = 43 x 128 (runs). As predict does, it is
    exit 2 with the reason and the TPs that run."""
    assert 11_008 // 4 % 128 == 64 and 11_008 // 2 % 128 == 0
    assert main(["score", "example:llama-2-7b", "--tp", "4", "--precision", "fp8_block"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "refuses fp8_block at TP4" in err and "2752 % 128 = 64" in err
    assert "runs at TP1, TP2" in err
    assert main(["score", "example:llama-2-7b", "--tp", "2", "--precision", "fp8_block", "--no-recommendations"]) == 0
    capsys.readouterr()


def test_a_cache_entry_that_is_not_text_is_a_miss(tmp_path):
    # scorer/cache.py: caching never fails a command; bytes that are not UTF-8 in an entry are recomputed
    cfg = tmp_path / "m" / "config.json"
    cfg.parent.mkdir()
    from scorer.resources import data_dir
    raw = json.loads((data_dir() / "examples" / "llama-2-7b" / "config.json").read_text())
    raw["vocab_size"] = 32_256  # not the bundled example, whose entry ships in data/arch_cache
    cfg.write_text(json.dumps(raw))
    env = {"DEPLOYSHEET_CACHE_DIR": str(tmp_path / "cache")}
    first = run_cli("score", str(cfg), "--format", "json", env=env)
    assert first.returncode == 0, first.stderr
    entries = list((tmp_path / "cache" / "arch").glob("*.json"))
    assert entries
    for e in entries:
        e.write_bytes(b"\xff\xfe\x00garbage")
    again = run_cli("score", str(cfg), "--format", "json", env=env)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["params"]["total"] == json.loads(first.stdout)["params"]["total"]


def test_console_that_cannot_show_the_sheet(tmp_path):
    # an ASCII console gets the sheet with its other characters replaced; a closed stdout a one-line error, exit 2
    ascii_run = run_cli("score", "example:llama-2-7b", env={"PYTHONIOENCODING": "ascii"})
    assert ascii_run.returncode == 0, ascii_run.stderr
    assert ascii_run.stdout.startswith("# Deployment sheet ? example:llama-2-7b")
    import subprocess
    import sys
    from conftest import ROOT
    closed = subprocess.run(f"{sys.executable} -m scorer score example:llama-2-7b >&-", shell=True, cwd=ROOT,
                            capture_output=False, stderr=subprocess.PIPE, text=True)
    assert closed.returncode == 2 and closed.stderr.count("\n") == 1 and "stdout is closed" in closed.stderr


def test_compare_refuses_two_names_for_one_source():
    run = run_cli("compare", "example:llama-3.1-8b", "example:llama-2-7b", "--label", "A=example:llama-3.1-8b",
                  "--label", "B=example:llama-3.1-8b", "--isl", "512", "--osl", "64", "--qps", "1")
    assert run.returncode == 2 and "two names" in run.stderr and run.stdout == ""


def test_compare_label_alone_adds_the_model():
    run = run_cli("compare", "--label", "A=example:llama-3.1-8b", "--label", "B=example:llama-2-7b",
                  "--isl", "512", "--osl", "64", "--qps", "1", "--format", "json")
    assert run.returncode == 0, run.stderr
    assert sorted(m["name"] for m in json.loads(run.stdout)["models"]) == ["A", "B"]


def test_predict_suggests_layouts_that_fit_with_the_same_draft():
    # 120k tokens of Llama-3.1-8B do not fit one L4 at TP1; each suggested bf16 TP must fit with the same EAGLE-3 draft
    base = ["predict", "example:llama-3.1-8b", "--isl", "120000", "--osl", "1000", "--concurrency", "1",
            "--speculative", "eagle3", "--gpu", "L4"]
    run = run_cli(*base, "--format", "md")
    assert run.returncode == 0, run.stderr
    note = next(line for line in run.stdout.splitlines() if "nearest that run" in line)
    import re
    tps = re.findall(r"TP(\d+)", note.split("runs at", 1)[1].split(";")[0]) if "runs at" in note else []
    assert tps
    for tp in tps:
        alt = run_cli(*base, "--tp", tp, "--format", "json")
        assert alt.returncode == 0 and json.loads(alt.stdout)["fits"] is True, (tp, alt.stdout[-300:])


def test_frontier_reaches_the_full_batch_of_each_layout():
    # every layout's sweep holds the batch predict's --concurrency max can reach (memory, the engine's admission
    # cap, regimes.json max_concurrency_cap), not only the powers of two around it
    from scorer.architecture import normalize
    from scorer.costmodel import CostModel, Layout
    from scorer.gemms import inventory
    from scorer.hardware import get_gpu, get_precision
    from scorer.params import count_params
    from scorer.regimes import sweep
    from scorer.resources import data_dir, load_json
    arch = normalize(json.loads((data_dir() / "examples" / "llama-3.1-8b" / "config.json").read_text()))
    params, gemms = count_params(arch), inventory(arch)

    def make_cm(lay):
        return CostModel(arch, params, get_gpu("L4"), get_precision("bf16"), lay, "bf16", "vllm", None, set(), gemms)
    pts = sweep(make_cm, arch, 1024, 1024, None)
    cap = load_json("regimes.json")["max_concurrency_cap"]
    for label in {p.layout for p in pts}:
        mine = [p for p in pts if p.layout == label]
        cm = make_cm(Layout(tp=mine[0].tp, ep=mine[0].ep, pp=mine[0].pp, dp=mine[0].dp))
        full = min(cm.max_concurrency(1024 + 512), cap, cm.admission_cap() or cap)
        assert full in {p.concurrency for p in mine}, label


def test_readiness_names_both_the_refusal_and_the_padded_degrees(tmp_path):
    # DeepSeek-V3 layout: fused_qkv_a_proj N = q_lora 1536 + kv_lora 512 + rope 64 = 2112, 2112 % 128 = 64 (replicated,
    # a partial scale block: Triton fallback at every TP); experts of 256 split by TP: 256/4 = 64 < block_n 128
    # from TP4 on (refused). The table and the findings name both
    transformers = pytest.importorskip("transformers")
    c = transformers.DeepseekV3Config(hidden_size=1024, intermediate_size=2560, moe_intermediate_size=256,
                                      num_hidden_layers=2, num_attention_heads=16, num_key_value_heads=16,
                                      q_lora_rank=1536, kv_lora_rank=512, qk_rope_head_dim=64, qk_nope_head_dim=128,
                                      v_head_dim=128, n_routed_experts=8, num_experts_per_tok=2, n_shared_experts=1,
                                      first_k_dense_replace=1, vocab_size=1024, n_group=1, topk_group=1)
    d = c.to_dict()
    d["architectures"] = ["DeepseekV3ForCausalLM"]
    (tmp_path / "config.json").write_text(json.dumps(d, default=str))
    run = run_cli("score", str(tmp_path), "--precision", "fp8_block")
    assert run.returncode == 0, run.stderr
    row = next(line for line in run.stdout.splitlines() if line.startswith("| fp8\\_block |"))
    assert "2112" in row and "expert width 256/TP4" in row and "at TP 1/2" in row
    q2 = [line for line in run.stdout.splitlines() if line.startswith("| Q2 |")]
    assert any("HARD" in x and "TP 4, 8" in x for x in q2) and any("FALLBACK" in x and "TP 1, 2" in x for x in q2)


@pytest.mark.parametrize("cmd", [["score", "example:llama-3.1-8b"], ["predict", "example:llama-3.1-8b"],
                                 ["compare", "example:llama-3.1-8b", "example:qwen3-4b"]])
def test_an_empty_precision_is_refused(cmd, capsys):
    """Breaker trial: --precision "" was read as no precision (the checkpoint's own)."""
    assert main([*cmd, "--precision", " "]) == 2
    err = capsys.readouterr().err
    assert "--precision" in err and "empty" in err


def test_output_file_replaced_keeps_its_mode(tmp_path, capsys):
    """Breaker trial: -o over a 0444 sheet left a 0644 one."""
    import stat
    out = tmp_path / "sheet.md"
    out.write_text("old")
    out.chmod(0o444)
    assert main(["score", "example:llama-3.1-8b", "-o", str(out)]) == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o444 and out.read_text() != "old"
    new = tmp_path / "new.md"
    assert main(["score", "example:llama-3.1-8b", "-o", str(new)]) == 0
    umask = __import__("os").umask(0)
    __import__("os").umask(umask)
    assert stat.S_IMODE(new.stat().st_mode) == 0o666 & ~umask
