"""Bad and unusual input to predict / validate / calibrate (found by an adversarial pass): one-line
errors with exit 2, inputs never overwritten, strict JSON, escaped Markdown, and layouts engines run."""

from __future__ import annotations

import json

import pytest

from scorer.cli import main
from test_costmodel import corpus_dir, write_csv  # noqa: F401 - fixture and helper shared with that module

GOOD = {"model_id": "m", "config": "llama-3.1-8b", "gpu": "H100-SXM", "weight_precision": "bf16",
        "concurrency": "8", "metric": "tpot_ms", "value": 12.0}


def one_line_exit_2(capsys, argv, needle):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("deploysheet: error:") and needle in err, err


@pytest.mark.parametrize("extra,needle", [
    (["--concurrency", "\u00b2"], "--concurrency must be an integer"),  # '²'.isdigit() is True; int('²') fails
    (["--concurrency", "2000000"], "--concurrency must be an integer from 1 to 1,048,576"),
    (["--isl", "99999999999"], "--isl must be between 1 and 16,777,216"),
    (["--tp", "2", "--ep", "2"], "EP 2 needs MoE experts"),  # llama-3.1-8b is dense
    (["--pp", "33"], "PP 33 exceeds the model's 32 layers"),
    (["--tp", "3"], "TP 3 is not valid for this model: 32 heads / 8 KV heads"),
    (["--num-gpus", "99999999999"], "absurd"),
    (["--usd-per-gpu-hour", "1e308"], "between 0.01 and 10000"),
])
def test_predict_rejects_layouts_and_sizes_engines_do_not_run(capsys, extra, needle):
    base = {"--isl": "1024", "--osl": "128", "--concurrency": "8"}
    for k in list(base):
        if k in extra:
            base.pop(k)
    argv = ["predict", "example:llama-3.1-8b"] + [x for kv in base.items() for x in kv] + extra
    one_line_exit_2(capsys, argv, needle)


def test_predict_ep_on_moe_within_the_tp_group(capsys):
    one_line_exit_2(capsys, ["predict", "example:mixtral-8x7b", "--tp", "2", "--ep", "16", "--isl", "8", "--osl",
                             "8", "--concurrency", "1"], "EP 16 must divide the TP x DP = 2 GPUs")
    # Mixtral: 8 experts; EP 2 on TP 2 is what vLLM runs (EP size = TP x DP)
    assert main(["predict", "example:mixtral-8x7b", "--tp", "2", "--ep", "2", "--isl", "1024", "--osl", "128",
                 "--concurrency", "8"]) == 0
    assert json.loads(capsys.readouterr().out)["layout"] == "TP2·EP2"


def test_predict_refuses_encoders_and_empty_source(capsys, tmp_path):
    p = tmp_path / "config.json"  # a BERT encoder (keys of transformers' BertConfig)
    p.write_text(json.dumps({"model_type": "bert", "architectures": ["BertForMaskedLM"], "hidden_size": 256,
                             "num_attention_heads": 4, "num_hidden_layers": 2, "intermediate_size": 1024,
                             "vocab_size": 30522, "max_position_embeddings": 512, "type_vocab_size": 2}))
    one_line_exit_2(capsys, ["predict", str(p), "--isl", "8", "--osl", "8", "--concurrency", "1"], "encoder model")
    one_line_exit_2(capsys, ["predict", "", "--isl", "8", "--osl", "8", "--concurrency", "1"], "SOURCE is empty")
    one_line_exit_2(capsys, ["score", " "], "SOURCE is empty")


def test_attention_dp_memory_is_per_rank(capsys):
    """With DP attention each rank holds its share of the sequences: KV per GPU = ceil(c / dp) x per-sequence
    bytes. Llama-3.1-8B bf16: 32 layers x 8 KV heads x 128 x 2 (K, V) x 2 B = 131,072 B per token."""
    c, dp, isl, osl = 64, 8, 1024, 1024
    assert main(["predict", "example:llama-3.1-8b", "--tp", "1", "--dp", str(dp), "--isl", str(isl), "--osl",
                 str(osl), "--concurrency", str(c)]) == 0
    out = json.loads(capsys.readouterr().out)
    tokens = isl + (osl + 1) // 2  # mean context of a running sequence (regimes.predict)
    assert out["kv_per_gpu_gib"] == pytest.approx(c / dp * tokens * 131072 / 2**30, abs=1e-3)
    assert out["num_gpus"] == dp and (out["tp"], out["dp"], out["pp"]) == (1, dp, 1)  # GPUs = TP x PP x DP


def test_recurrent_state_ignores_the_kv_dtype():
    """vLLM's --kv-cache-dtype does not apply to Mamba state (mamba_cache_dtype 'auto' = the model dtype):
    a hybrid model's state bytes are the same at bf16 and fp8 KV; its attention KV halves."""
    from scorer.architecture import normalize
    from scorer.kvcache import kv_cache
    # a small Nemotron-H (keys of nvidia/Nemotron-H-56B-Base-8K's config.json): Mamba2, attention, MLP layers
    raw = {"model_type": "nemotron_h", "architectures": ["NemotronHForCausalLM"], "hidden_size": 1024,
           "num_hidden_layers": 4, "hybrid_override_pattern": "M*M-", "num_attention_heads": 8,
           "num_key_value_heads": 2, "attention_head_dim": 128, "mamba_num_heads": 32, "mamba_head_dim": 64,
           "ssm_state_size": 64, "n_groups": 2, "conv_kernel": 4, "expand": 2, "intermediate_size": 2048,
           "mlp_hidden_act": "relu2", "vocab_size": 1000, "torch_dtype": "bfloat16"}
    arch = normalize(raw)
    bf16, fp8 = kv_cache(arch, "bf16"), kv_cache(arch, "fp8")
    # per Mamba2 layer: conv_dim x (conv_kernel - 1) + heads x head_dim x d_state values, conv_dim =
    # heads x head_dim + 2 x n_groups x d_state = 2048 + 256 = 2304 -> 2304 x 3 + 32 x 64 x 64 = 137,984
    # values; vLLM keeps the conv window at the model dtype and NemotronH's SSM state in float32
    # (models/config.py NemotronHForCausalLMConfig): 2304 x 3 x 2 + 32 x 64 x 64 x 4 = 538,112 B; two Mamba layers
    assert bf16.fixed_bytes_per_sequence == fp8.fixed_bytes_per_sequence == 2 * (2304 * 3 * 2 + 32 * 64 * 64 * 4)
    # one attention layer: K and V, 2 KV heads x 128: 1,024 B per token at bf16, 512 at fp8
    assert (bf16.bytes_per_token, fp8.bytes_per_token) == (1024, 512)
    # mamba_ssm_cache_dtype bfloat16: vLLM's NemotronH hook takes the config's value, 2 B per state value, in the
    # sheet's KV section and in the cost model alike
    arch16 = normalize({**raw, "mamba_ssm_cache_dtype": "bfloat16"})
    assert kv_cache(arch16, "bf16").fixed_bytes_per_sequence == 2 * 137984 * 2
    from scorer.costmodel import CostModel, Layout, load_calibration
    from scorer.gemms import inventory
    from scorer.hardware import get_gpu, get_precision
    from scorer.params import count_params
    cms = [CostModel(a, count_params(a), get_gpu("H100-SXM"), get_precision("bf16"), Layout(), "bf16", "vllm",
                     load_calibration(), set(), inventory(a)) for a in (arch16, arch)]
    # the cost model sizes the state as the sheet does: conv window bf16, SSM state bf16 (config) or float32 (default)
    assert [cm.state_dtype for cm in cms] == ["bf16", "bf16+fp32"]


def test_outputs_never_overwrite_inputs(tmp_path, corpus_dir, capsys):
    csv_path = tmp_path / "m.csv"
    write_csv(csv_path, [{**GOOD, "id": "a"}, {**GOOD, "id": "b", "concurrency": "16", "value": 14.0}])
    before = csv_path.read_bytes()
    cal = tmp_path / "cal.json"
    from scorer.resources import data_dir
    cal.write_bytes((data_dir() / "calibration.json").read_bytes())
    cal_before = cal.read_bytes()
    for argv in (["validate", str(csv_path), "--corpus", str(corpus_dir), "-o", str(csv_path)],
                 ["validate", str(csv_path), "--corpus", str(corpus_dir), "--calibration", str(cal), "--out", str(cal)],
                 ["calibrate", str(csv_path), "--corpus", str(corpus_dir), "-o", str(csv_path)],
                 ["calibrate", str(csv_path), "--corpus", str(corpus_dir), "--calibration", str(cal), "-o", str(cal)],
                 ["predict", "example:qwen3-4b", "--isl", "8", "--osl", "8", "--concurrency", "1", "--calibration",
                  str(cal), "-o", str(cal)],
                 ["score", "example:qwen3-4b", "--calibration", str(cal), "-o", str(cal)]):
        one_line_exit_2(capsys, argv, "refusing to overwrite")
    assert csv_path.read_bytes() == before and cal.read_bytes() == cal_before


def test_validate_markdown_escapes_csv_strings(tmp_path, corpus_dir, capsys):
    hostile = "<img src=x onerror=alert(1)>|**x**"
    write_csv(tmp_path / "m.csv", [{**GOOD, "id": "a"}, {**GOOD, "id": "b", "gpu": hostile},
                                   {**GOOD, "id": "c", "framework": hostile}])
    assert main(["validate", str(tmp_path / "m.csv"), "--corpus", str(corpus_dir)]) == 0
    out = capsys.readouterr().out
    assert "<img" not in out and "|**x**" not in out
    assert "&lt;img src=x onerror=alert(1)&gt;" in out or "&lt;img" in out
    # every table line keeps its column count: no injected cells
    for line in out.splitlines():
        if line.startswith("| ") and "metric" not in line and "---" not in line:
            assert line.count(" | ") == line.split(" | ").__len__() - 1


def test_csv_bom_duplicates_and_bad_cells(tmp_path, corpus_dir, capsys):
    rows = [{**GOOD, "id": "a"},
            {**GOOD, "id": "a"},  # the same run recorded twice: counted once
            {**GOOD, "id": "a", "value": 99.0},  # same id, another value: skipped as conflicting
            {**GOOD, "id": "inf", "tp": "inf"}, {**GOOD, "id": "big", "isl": "1e400"},
            {**GOOD, "id": "zero", "tp": "0"}, {**GOOD, "id": "osl0", "osl": "0"},
            {**GOOD, "id": "fw", "framework": "foo"}, {**GOOD, "id": "kv", "kv_precision": "int3"},
            {**GOOD, "id": "esc", "config": "../examples/llama-3.1-8b"},
            {**GOOD, "id": "c0", "concurrency": "0"}]
    p = tmp_path / "m.csv"
    write_csv(p, rows)
    p.write_bytes(b"\xef\xbb\xbf" + p.read_bytes())  # a UTF-8 BOM before the id column
    assert main(["validate", str(p), "--corpus", str(corpus_dir), "--format", "json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    reasons = {s["id"]: s["reason"] for s in rep["skipped"]}
    assert rep["metrics"]["tpot_ms"]["n"] == 1  # only the first "a"
    assert "same id, setup and value" in [s["reason"] for s in rep["skipped"] if s["id"] == "a"][0]
    assert any("another setup or value" in s["reason"] for s in rep["skipped"] if s["id"] == "a")
    for rid in ("inf", "big", "zero", "osl0"):
        assert reasons[rid].startswith("malformed row"), (rid, reasons[rid])
    assert "framework foo has no profile" in reasons["fw"]
    assert "KV precision int3" in reasons["kv"]
    assert "directly under --corpus" in reasons["esc"]
    assert "between 1 and" in reasons["c0"]
    assert "line" not in " ".join(reasons)  # the BOM did not hide the id column


def test_p90_is_the_nearest_rank():
    from scorer.measure import Row, RowResult, _summary
    rows = [RowResult(Row(model_id="m", config="c", gpu="g", num_gpus=1, tp=1, weight_precision="bf16",
                          framework="vllm", concurrency="1", metric="tpot_ms", value=100.0), pred)
            for pred in (110.0, 150.0)]  # APEs 10% and 50%
    s = _summary(rows)
    assert s.mdape == 30.0 and s.p90_ape == 50.0  # nearest rank: ceil(0.9 x 2) = 2nd of 2


def test_cross_validation_needs_two_groups(tmp_path, corpus_dir, capsys):
    write_csv(tmp_path / "m.csv", [{**GOOD, "id": "a"}, {**GOOD, "id": "b", "concurrency": "16", "value": 14.0}])
    one_line_exit_2(capsys, ["validate", str(tmp_path / "m.csv"), "--corpus", str(corpus_dir), "--cross-validate",
                             "model"], "needs rows of at least two models")


def test_framework_left_out_forgets_its_fitted_overrides():
    from scorer.calibrate import FIT_PARAMS, _forget_framework
    from scorer.costmodel import load_calibration
    cal = load_calibration()
    fitted = {k for k, v in FIT_PARAMS.items() if v[0] == "framework"}
    assert fitted & set(cal.frameworks["trtllm"])  # the packaged file has fitted TRT-LLM overrides
    forgot = _forget_framework(cal, "trtllm")
    assert not fitted & set(forgot.frameworks["trtllm"])
    assert forgot.frameworks["trtllm"].get("kv_free_fraction") == cal.frameworks["trtllm"]["kv_free_fraction"]
    assert forgot.frameworks["vllm"] == cal.frameworks["vllm"]


@pytest.mark.parametrize("mutate,needle", [
    (lambda d: d["params"]["gpu_mem_util"].update(value=1.5), "gpu_mem_util = 1.5 outside [0.05, 1]"),
    (lambda d: d["params"]["mem_bw_eff"].update(value=True), "mem_bw_eff must be a number, got bool"),
    (lambda d: d["params"]["mem_bw_eff"].update(value="0.8"), "mem_bw_eff must be a number, got str"),
    (lambda d: d["frameworks"]["vllm"].update(prefill_chunk_tokens=0), "frameworks.vllm.prefill_chunk_tokens = 0"),
    (lambda d: d["frameworks"]["trtllm"].update(kv_free_fraction=5), "kv_free_fraction = 5 outside [0, 1]"),
    (lambda d: d.pop("params"), "expected an object with a 'params' object"),
    (lambda d: d.update(validation=[1]), "validation must be an object"),
])
def test_calibration_values_in_range(tmp_path, capsys, mutate, needle):
    from scorer.resources import data_dir
    doc = json.loads((data_dir() / "calibration.json").read_text())
    mutate(doc)
    p = tmp_path / "cal.json"
    p.write_text(json.dumps(doc))
    one_line_exit_2(capsys, ["predict", "example:qwen3-4b", "--isl", "8", "--osl", "8", "--concurrency", "1",
                             "--calibration", str(p)], needle)


def test_deeply_nested_calibration(tmp_path, capsys):
    p = tmp_path / "deep.json"
    p.write_text("[" * 100000 + "]" * 100000)
    one_line_exit_2(capsys, ["predict", "example:qwen3-4b", "--isl", "8", "--osl", "8", "--concurrency", "1",
                             "--calibration", str(p)], "malformed")


def test_odd_validation_block_is_no_error_bar(tmp_path, capsys):
    from scorer.resources import data_dir
    doc = json.loads((data_dir() / "calibration.json").read_text())
    doc["validation"] = {"leave_one_model_out": [1, 2]}
    p = tmp_path / "cal.json"
    p.write_text(json.dumps(doc))
    assert main(["predict", "example:qwen3-4b", "--isl", "8", "--osl", "8", "--concurrency", "1",
                 "--calibration", str(p)]) == 0
    assert json.loads(capsys.readouterr().out)["expected_error_pct"] == {
        "ttft_ms": None, "tpot_ms": None, "output_tokens_per_s_per_gpu": None}


def test_sla_search_honours_tp(capsys):
    assert main(["score", "example:qwen3-4b", "--tp", "4", "--ttft-ms", "500", "--no-recommendations",
                 "--format", "json"]) == 0
    sheet = json.loads(capsys.readouterr().out)
    assert sheet["sla"]["best"]["H100-SXM"]["tp"] == 4
    assert {p["tp"] for p in sheet["frontier"]["H100-SXM"]["pareto"]} == {4}


def test_predict_says_when_the_gpu_lacks_the_format(capsys):
    # A100 (compute capability 8.0, data/gpus.json) has no FP4 tensor cores; NVFP4 KV is a Blackwell feature
    assert main(["predict", "example:qwen3-4b", "--gpu", "A100-SXM-80GB", "--precision", "nvfp4", "--kv-dtype",
                 "nvfp4", "--isl", "128", "--osl", "128", "--concurrency", "1"]) == 0
    notes = json.loads(capsys.readouterr().out)["notes"]
    assert any("no native nvfp4 GEMM kernels" in n and "bf16 math" in n for n in notes)
    # vLLM 0.33.0 v1/attention/backends/flashinfer.py _nvfp4_kv_on_fa2: SM80/90/120 read NVFP4 KV through FA2
    assert any("through its FA2 path" in n and "8.0" in n for n in notes), notes
    assert main(["predict", "example:qwen3-4b", "--gpu", "A100-SXM-80GB", "--framework", "trtllm", "--kv-dtype",
                 "nvfp4", "--isl", "128", "--osl", "128", "--concurrency", "1"]) == 0
    notes = json.loads(capsys.readouterr().out)["notes"]
    assert any("NVFP4 KV cache needs Blackwell" in n and "8.0" in n for n in notes)
    # SGLang 0.5.23 arg_groups/kv_cache_hook.py: --kv-cache-dtype nvfp4 needs SM100 or SM120
    one_line_exit_2(capsys, ["predict", "example:qwen3-4b", "--gpu", "A100-SXM-80GB", "--framework", "sglang",
                             "--kv-dtype", "nvfp4", "--isl", "8", "--osl", "8", "--concurrency", "1"],
                    "needs Blackwell SM100 or SM120")
    assert main(["predict", "example:qwen3-4b", "--gpu", "B200", "--precision", "nvfp4", "--kv-dtype", "nvfp4",
                 "--isl", "128", "--osl", "128", "--concurrency", "1"]) == 0
    notes = json.loads(capsys.readouterr().out)["notes"]
    assert not any("GEMM kernels" in n or "KV cache needs" in n for n in notes), notes
    one_line_exit_2(capsys, ["predict", "example:qwen3-4b", "--gpu", "MI300X", "--framework", "trtllm", "--isl", "8",
                             "--osl", "8", "--concurrency", "1"], "TensorRT-LLM runs on NVIDIA GPUs only")


def test_error_bars_are_conservative(tmp_path, capsys):
    """The wider of the GPU's and the framework's own LOMO figures; an unmeasured GPU gets the widest
    measured GPU's figure and a note; groups under 10 rows do not count."""
    from scorer.resources import data_dir
    doc = json.loads((data_dir() / "calibration.json").read_text())
    m = lambda x, n=50: {"ttft_ms": {"n": n, "mdape": x}, "tpot_ms": {"n": n, "mdape": x / 2},  # noqa: E731
                         "output_tokens_per_s_per_gpu": {"n": n, "mdape": x / 4}}
    doc["validation"] = {"leave_one_model_out": {
        "metrics": m(30.0), "by_gpu": {"H100-SXM": m(20.0), "H200-SXM": m(40.0), "B200": m(90.0, n=3)},
        "by_framework": {"vllm": m(10.0), "sglang": m(60.0)}}}
    p = tmp_path / "cal.json"
    p.write_text(json.dumps(doc))

    def bars(gpu, fw):
        assert main(["predict", "example:qwen3-4b", "--gpu", gpu, "--framework", fw, "--isl", "64", "--osl", "64",
                     "--concurrency", "1", "--calibration", str(p)]) == 0
        out = json.loads(capsys.readouterr().out)
        return out["expected_error_pct"]["ttft_ms"], out["notes"]

    assert bars("H100-SXM", "vllm")[0] == 20.0  # max(H100 20, vLLM 10)
    assert bars("H100-SXM", "sglang")[0] == 60.0  # max(H100 20, SGLang 60)
    ttft, notes = bars("B200", "vllm")  # B200 has 3 rows only: the widest GPU with >= 10 rows (H200, 40)
    assert ttft == 40.0 and any("too few TTFT, TPOT, tokens/s/GPU measurements on B200" in n for n in notes)
    ttft, notes = bars("L40S", "vllm")  # never measured: the same
    assert ttft == 40.0 and any("measurements on L40S" in n for n in notes)
    # a GPU measured for one metric only borrows the widest figure for the others
    doc["validation"]["leave_one_model_out"]["by_gpu"]["A100-SXM-80GB"] = {
        "output_tokens_per_s_per_gpu": {"n": 40, "mdape": 5.0}}
    p.write_text(json.dumps(doc))
    ttft, notes = bars("A100-SXM-80GB", "vllm")
    assert ttft == 40.0 and any("too few TTFT, TPOT measurements on A100-SXM-80GB" in n for n in notes)
    # a sheet over several GPUs shows the widest of their bars, and the caveats of each
    assert main(["score", "example:qwen3-4b", "--gpu", "H100-SXM", "--gpu", "L40S", "--no-recommendations",
                 "--format", "json", "--calibration", str(p)]) == 0
    sheet = json.loads(capsys.readouterr().out)
    assert sheet["expected_error_pct"]["ttft_ms"] == 40.0
    assert any("L40S" in a for a in sheet["assumptions"])


def test_max_concurrency_is_the_throughput_peak(capsys):
    """`--concurrency max`: no fixed concurrency on the same candidate grid (powers of two, multiples of 64,
    the memory limit) beats it by more than 1%, and it is the smallest such batch."""
    base = ["predict", "example:llama-3.1-8b", "--gpu", "H100-SXM", "--isl", "1024", "--osl", "1024"]
    assert main(base + ["--concurrency", "max"]) == 0
    got = json.loads(capsys.readouterr().out)
    top = got["max_concurrency"]
    grid = sorted({top} | {1 << k for k in range(top.bit_length())} | set(range(64, top, 64)))
    tps = {}
    for c in grid:
        assert main(base + ["--concurrency", str(c)]) == 0
        tps[c] = json.loads(capsys.readouterr().out)["output_tokens_per_s_per_gpu"]
    best = max(tps.values())
    assert got["output_tokens_per_s_per_gpu"] >= 0.99 * best
    assert got["concurrency"] == min(c for c, v in tps.items() if v >= 0.99 * best)


def test_calibrate_reports_and_warns(tmp_path, corpus_dir, capsys):
    write_csv(tmp_path / "m.csv", [{**GOOD, "id": "a"}, {**GOOD, "id": "b", "concurrency": "16", "value": 14.0}])
    out = tmp_path / "cal.json"
    assert main(["calibrate", str(tmp_path / "m.csv"), "--corpus", str(corpus_dir), "-o", str(out),
                 "--max-iterations", "5"]) == 0
    err = capsys.readouterr().err
    assert f"fitted 2 rows (0 skipped) -> {out}" in err
    assert "cover one model, so no leave-one-model-out error" in err  # no pretend cross-validation
    doc = json.loads(out.read_text())
    assert "leave_one_model_out" not in doc["validation"] and "uncalibrated defaults" not in doc["about"]
    from scorer.calibrate import FIT_PARAMS, at_bounds
    from scorer.costmodel import load_calibration
    cal = load_calibration(str(out))
    lo = FIT_PARAMS["attn_compute_eff"][1]
    pinned = at_bounds(cal.model_copy(update={"params": {**cal.params, "attn_compute_eff": lo}}))
    assert any(p.startswith(f"attn_compute_eff = {lo:g}") for p in pinned)


def test_outputs_never_land_in_the_corpus(tmp_path, capsys):
    """validate/calibrate read <corpus>/<config>/config.json: -o must not replace one of them."""
    import shutil

    from scorer.resources import data_dir
    corpus = tmp_path / "corpus"
    shutil.copytree(data_dir() / "examples" / "llama-3.1-8b", corpus / "llama-3.1-8b")
    cfg = corpus / "llama-3.1-8b" / "config.json"
    before = cfg.read_bytes()
    write_csv(tmp_path / "m.csv", [{**GOOD, "id": "a"}, {**GOOD, "id": "b", "concurrency": "16", "value": 14.0}])
    for argv in (["validate", str(tmp_path / "m.csv"), "--corpus", str(corpus), "-o", str(cfg)],
                 ["calibrate", str(tmp_path / "m.csv"), "--corpus", str(corpus), "-o", str(cfg)],
                 ["calibrate", str(tmp_path / "m.csv"), "--corpus", str(corpus), "-o", str(corpus / "new.json")]):
        one_line_exit_2(capsys, argv, "inside --corpus")
    assert cfg.read_bytes() == before and not (corpus / "new.json").exists()


def test_sweep_skips_layouts_engines_refuse():
    """A MoE with 4 experts: no EP 8 layout in the frontier sweep (EP beyond the experts)."""
    from scorer.architecture import normalize
    from scorer.regimes import candidate_layouts
    from scorer.sheet import cost_model_factory
    from scorer.costmodel import load_calibration
    from scorer.gemms import inventory
    from scorer.hardware import get_gpu, get_precision
    from scorer.params import count_params
    from scorer.resources import data_dir
    raw = json.loads((data_dir() / "examples" / "mixtral-8x7b" / "config.json").read_text())
    arch = normalize({**raw, "num_local_experts": 4})
    make = cost_model_factory(arch, count_params(arch), inventory(arch), get_precision("bf16"), "bf16", "vllm",
                              load_calibration(), set())(get_gpu("H100-SXM"))
    eps = {lay.ep for lay in candidate_layouts(make, arch)}
    assert eps and max(eps) <= 4


def test_predict_answers_every_model_gpu_precision_of_measured_csv(corpus, capsys):
    """Issue 4: `predict` answers for every (model, GPU, precision) in ../shared/measurements/measured.csv, on a
    layout of that file (CI has ../shared; users do not, and this skips)."""
    import csv

    from scorer.measure import PRECISION_MAP
    path = corpus.parent / "measurements" / "measured.csv"
    if not path.is_file():
        pytest.skip("../shared/measurements/measured.csv not available")
    triples = {}
    with open(path, newline="", encoding="utf-8-sig") as fh:
        for r in csv.DictReader(fh):
            key = (r["config"], r["gpu"], r["weight_precision"])
            ok = r["tp"] and int(r["tp"]) * int(r["pp"] or 1) * int(r["attention_dp"] or 1) == int(r["num_gpus"] or 1)
            if ok and key not in triples:
                triples[key] = r
    assert len(triples) >= 30
    for (config, gpu, prec), r in sorted(triples.items()):
        argv = ["predict", str(corpus / config), "--gpu", gpu, "--precision", PRECISION_MAP[prec],
                "--tp", r["tp"], "--pp", r["pp"] or "1", "--dp", r["attention_dp"] or "1", "--ep", r["ep"] or "1",
                "--framework", r["framework"], "--isl", r["isl"] or "1024", "--osl", r["osl"] or "1024",
                "--concurrency", "1"]
        assert main(argv) == 0, (argv, capsys.readouterr().err)
        out = json.loads(capsys.readouterr().out)
        assert {"ttft_ms", "tpot_ms", "tokens_per_s_per_user", "output_tokens_per_s_per_gpu", "fits",
                "memory_per_gpu_gib", "bound"} <= set(out), (config, gpu, prec)


def test_a_row_with_more_fields_than_the_header_is_skipped_as_malformed(tmp_path, corpus_dir, capsys):
    """Breaker trial: a row with extra fields (a stray comma) was read silently, its extras dropped."""
    import csv as _csv
    p = tmp_path / "m.csv"
    write_csv(p, [{**GOOD, "id": "a"}])
    with p.open(newline="") as fh:
        header, good = list(_csv.reader(fh))[:2]
    with p.open("a", newline="") as fh:
        _csv.writer(fh).writerow([("b" if h == "id" else v) for h, v in zip(header, good)] + ["x", "y"])
    assert main(["validate", str(p), "--corpus", str(corpus_dir), "--format", "json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    reasons = {s["id"]: s["reason"] for s in rep["skipped"]}
    assert reasons["b"] == f"malformed row: {len(header) + 2} fields, the header has {len(header)} columns"
    assert rep["metrics"]["tpot_ms"]["n"] == 1
