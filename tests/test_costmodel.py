"""Cost model, serving formulas, Pareto/SLA search and the predict / validate / calibrate commands."""

from __future__ import annotations

import csv
import json
import math

import pytest

from scorer.cli import main
from scorer.costmodel import Layout, serve
from scorer.measure import spearman
from scorer.regimes import Prediction, cheapest_meeting, pareto

PREDICT_KEYS = {"ttft_ms", "tpot_ms", "tokens_per_s_per_user", "output_tokens_per_s_per_gpu", "fits",
                "memory_per_gpu_gib", "bound"}


def test_layout_groups():
    lay = Layout(tp=1, ep=8, dp=8)
    assert lay.num_gpus == 8 and lay.moe_tp == 1
    lay = Layout(tp=64, ep=8)
    assert lay.num_gpus == 64 and lay.moe_tp == 8  # 64 GPUs per stage, 8 expert groups: each expert split 8-way
    assert Layout(tp=4).moe_tp == 4  # no EP: experts split like dense layers
    assert Layout(tp=1, dp=4).moe_tp == 4  # DP attention without EP: the MoE is split over the whole DP group


def test_serve_formulas_by_hand():
    p = {"tpot_interference": 0.5, "ttft_queue": 0.25, "prefill_chunk_tokens": 8192}
    out = serve(t_dec=0.010, t_pre=0.100, t_pre_marginal=0.080, c_local=9, osl=100, num_gpus=2, concurrency=9, p=p,
                isl=2048)
    tpot = 0.010 + 0.5 * 8 / 100 * 0.080  # other users' prefill compute carried by the decode steps
    # queueing behind 8 x 0.25 earlier prefills, each its compute plus the 2048/8192 of a decode iteration its
    # chunk rides with; half a step waiting for the running iteration
    ttft = 0.100 + 0.25 * 8 * (0.080 + 2048 / 8192 * 0.010) + 0.010 / 2
    # plus the closed loop's wait for the others' prefill work: D = 0.0825 s of it a request, the rest of its cycle
    # Z = TTFT - D + 99 TPOT; Schweitzer-Bard's R = D (1 + (c-1)/c Q), Q = c R / (R + Z) is the root of
    # R^2 + (Z - c D) R - D Z = 0, and the wait is R - D
    d = 0.080 + 2048 / 8192 * 0.010
    z = ttft - d + 99 * tpot
    r = ((9 * d - z) + math.sqrt((9 * d - z) ** 2 + 4 * d * z)) / 2
    assert math.isclose(r, d * (1 + 8 / 9 * 9 * r / (r + z)))
    ttft += r - d
    assert math.isclose(out["tpot"], tpot) and math.isclose(out["ttft"], ttft)
    # Little's law: 9 users x 100 tokens per (TTFT + 99 TPOT), over 2 GPUs
    assert math.isclose(out["tokens_per_s_per_gpu"], 9 * 100 / (ttft + 99 * tpot) / 2)


def test_serve_separate_prefill_is_a_burst():
    # prefill batches run on their own (SGLang): the wave of 9 users is prefilled back to back, then decodes in
    # lockstep; a request waits on average for half of the other 8 prefills before its first token (no decode
    # iteration rides along, and ttft_queue does not apply) and for the other half before its second token
    p = {"tpot_interference": 1.0, "ttft_queue": 0.25, "prefill_chunk_tokens": 8192, "prefill_separate": 1.0}
    out = serve(t_dec=0.010, t_pre=0.100, t_pre_marginal=0.080, c_local=9, osl=100, num_gpus=2, concurrency=9, p=p,
                isl=2048)
    ttft = 0.100 + 8 / 2 * 0.080 + 0.010 / 2
    tpot = 0.010 + 8 / 2 * 0.080 / 100
    assert math.isclose(out["ttft"], ttft) and math.isclose(out["tpot"], tpot)
    assert math.isclose(out["tokens_per_s_per_gpu"], 9 * 100 / (ttft + 99 * tpot) / 2)


def test_decode_never_beats_the_weight_read(capsys):
    # Llama-3.1-8B at BF16 on one H100: a decode step must read every weight once:
    # 8,030,261,248 params x 2 bytes / 3.35e12 B/s = 4.79 ms is a hard floor for TPOT
    assert main(["predict", "example:llama-3.1-8b", "--gpu", "H100-SXM", "--isl", "128", "--osl", "128",
                 "--concurrency", "1"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert PREDICT_KEYS <= set(out)
    assert out["tpot_ms"] >= 8_030_261_248 * 2 / 3.35e12 * 1e3
    assert out["fits"] is True and out["bound"] in ("memory", "compute", "communication", "overhead")


def test_predict_layouts_and_errors(capsys):
    assert main(["predict", "example:mixtral-8x7b", "--gpu", "H200-SXM", "--tp", "2", "--ep", "2", "--isl", "1024",
                 "--osl", "256", "--concurrency", "max", "--precision", "fp8"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["layout"] == "TP2·EP2" and out["concurrency"] >= 1 and out["fits"]
    assert main(["predict", "example:qwen3-4b", "--isl", "10", "--osl", "10", "--concurrency", "zero"]) == 2
    assert "concurrency" in capsys.readouterr().err
    assert main(["predict", "example:qwen3-4b", "--tp", "2", "--num-gpus", "3", "--isl", "1", "--osl", "1",
                 "--concurrency", "1"]) == 2
    assert "num-gpus" in capsys.readouterr().err


def test_oversubscribed_concurrency_queues(capsys):
    # Llama-2-7B (MHA: 0.5 MiB of KV per token) at 4k context on one L4 (24 GB): a handful of sequences fit
    assert main(["predict", "example:llama-2-7b", "--gpu", "L4", "--precision", "int4", "--isl", "3000",
                 "--osl", "1000", "--concurrency", "64"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["fits"] is False and out["queued"] == 64 - out["max_concurrency"] > 0


def pt(user, gpu, ttft=100.0, tpot=10.0):
    return Prediction(layout="TP1", tp=1, num_gpus=1, isl=1, osl=1, concurrency=1, fits=True, memory_per_gpu_gib=1,
                      weights_per_gpu_gib=1, kv_per_gpu_gib=0, ttft_ms=ttft, tpot_ms=tpot,
                      tokens_per_s_per_user=user, output_tokens_per_s_per_gpu=gpu, bound="memory",
                      max_concurrency=1)


def test_pareto_drops_dominated_points():
    a, b, c, d = pt(100, 50), pt(50, 500), pt(60, 400), pt(40, 300)  # d is dominated by b
    front = pareto([a, b, c, d])
    assert [(p.tokens_per_s_per_user, p.output_tokens_per_s_per_gpu) for p in front] == [(50, 500), (60, 400),
                                                                                          (100, 50)]


def test_cheapest_layout_meeting_targets():
    fast = pt(100, 50, ttft=50, tpot=10)
    cheap = pt(20, 900, ttft=900, tpot=50)
    mid = pt(40, 600, ttft=300, tpot=25)
    assert cheapest_meeting([fast, cheap, mid], 500, 30) is mid
    assert cheapest_meeting([fast, cheap, mid], None, None) is cheap
    assert cheapest_meeting([fast, cheap, mid], 10, None) is None


def test_spearman_by_hand():
    assert math.isclose(spearman([1, 2, 3, 4], [10, 20, 30, 40]), 1.0)
    assert math.isclose(spearman([1, 2, 3, 4], [40, 30, 20, 10]), -1.0)
    # ranks x = 1,2,3,4; y = 1,3,2,4: rho = 1 - 6*(0+1+1+0)/(4*15) = 0.8
    assert math.isclose(spearman([1, 2, 3, 4], [1, 3, 2, 4]), 0.8)
    assert spearman([1, 2], [2, 1]) is None


def write_csv(path, rows):
    cols = ["id", "model_id", "config", "gpu", "num_gpus", "tp", "pp", "ep", "attention_dp", "weight_precision",
            "kv_precision", "framework", "framework_version", "isl", "osl", "concurrency", "metric", "value", "unit",
            "source", "notes"]
    with open(path, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=cols)
        w.writeheader()
        for r in rows:
            base = {c: "" for c in cols}
            base.update({"num_gpus": 1, "tp": 1, "pp": 1, "ep": 1, "attention_dp": 1, "framework": "vllm",
                         "isl": 1024, "osl": 128, "unit": "ms", "source": "test"})
            base.update(r)
            w.writerow(base)


@pytest.fixture
def corpus_dir():
    from scorer.resources import data_dir
    return data_dir() / "examples"


def test_validate_counts_skips_with_reasons(tmp_path, corpus_dir, capsys):
    rows = [
        {"id": "a", "model_id": "m", "config": "llama-3.1-8b", "gpu": "H100-SXM", "weight_precision": "bf16",
         "concurrency": "8", "metric": "tpot_ms", "value": 12.0},
        {"id": "b", "model_id": "m", "config": "llama-3.1-8b", "gpu": "H100-SXM", "weight_precision": "bf16",
         "concurrency": "16", "metric": "tpot_ms", "value": 14.0},
        {"id": "c", "model_id": "m", "config": "llama-3.1-8b", "gpu": "H100-SXM", "weight_precision": "bf16",
         "concurrency": "32", "metric": "tpot_ms", "value": 18.0},
        {"id": "d", "model_id": "m", "config": "llama-3.1-8b", "gpu": "TPU-v9", "weight_precision": "bf16",
         "concurrency": "8", "metric": "tpot_ms", "value": 9.0},
        {"id": "e", "model_id": "m", "config": "nope", "gpu": "H100-SXM", "weight_precision": "bf16",
         "concurrency": "8", "metric": "tpot_ms", "value": 9.0},
        {"id": "f", "model_id": "m", "config": "llama-3.1-8b", "gpu": "H100-SXM", "weight_precision": "fp3",
         "concurrency": "8", "metric": "tpot_ms", "value": 9.0},
        {"id": "g", "model_id": "m", "config": "llama-3.1-8b", "gpu": "H100-SXM", "weight_precision": "bf16",
         "concurrency": "QPS=2", "metric": "ttft_ms", "value": 9.0},
        {"id": "h", "model_id": "m", "config": "llama-3.1-8b", "gpu": "H100-SXM", "weight_precision": "bf16",
         "concurrency": "8", "metric": "tpot_ms", "value": "not-a-number"},
    ]
    csv_path = tmp_path / "m.csv"
    write_csv(csv_path, rows)
    assert main(["validate", str(csv_path), "--corpus", str(corpus_dir), "--format", "json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    m = rep["metrics"]["tpot_ms"]
    assert m["n"] == 3 and m["mdape"] is not None and m["spearman"] is not None
    reasons = " ".join(s["reason"] for s in rep["skipped"])
    assert {s["id"] for s in rep["skipped"]} == {"d", "e", "f", "g", "h"}
    assert "TPU-v9" in reasons and "nope" in reasons and "fp3" in reasons and "open-loop" in reasons
    assert "malformed" in reasons


def test_validate_bad_csv(tmp_path, capsys):
    p = tmp_path / "x.csv"
    p.write_text("a,b\n1,2\n")
    assert main(["validate", str(p), "--corpus", str(tmp_path)]) == 2
    assert "missing columns" in capsys.readouterr().err
    assert main(["validate", str(tmp_path / "none.csv"), "--corpus", str(tmp_path)]) == 2


def test_calibrate_writes_a_usable_file(tmp_path, corpus_dir, capsys):
    rows = []
    for c, v in ((1, 7.0), (8, 8.0), (32, 11.0), (64, 15.0)):
        rows.append({"id": f"t{c}", "model_id": "m", "config": "llama-3.1-8b", "gpu": "H100-SXM",
                     "weight_precision": "bf16", "concurrency": str(c), "metric": "tpot_ms", "value": v})
        rows.append({"id": f"q{c}", "model_id": "m", "config": "qwen3-4b", "gpu": "H100-SXM",
                     "weight_precision": "bf16", "concurrency": str(c), "metric": "tpot_ms", "value": v * 0.6})
    csv_path = tmp_path / "m.csv"
    write_csv(csv_path, rows)
    out = tmp_path / "cal.json"
    assert main(["calibrate", str(csv_path), "--corpus", str(corpus_dir), "-o", str(out), "--max-iterations",
                 "5"]) == 0
    doc = json.loads(out.read_text())
    assert doc["fit_date"] and doc["command"].startswith("deploysheet calibrate")
    assert "leave_one_model_out" in doc["validation"]
    # a refit names its starting value's source once: no "(was: fitted ... (was: ...))" nest over refits
    fitted = [p["src"] for p in doc["params"].values() if p["src"].startswith("fitted by")]
    assert fitted and all(src.count("fitted by deploysheet calibrate") == 1 for src in fitted), fitted
    assert main(["predict", "example:llama-3.1-8b", "--isl", "1024", "--osl", "128", "--concurrency", "8",
                 "--calibration", str(out)]) == 0
    pred = json.loads(capsys.readouterr().out)
    assert pred["expected_error_pct"]["tpot_ms"] is not None
    assert "fitted" in pred["calibration"]
    assert main(["score", "example:qwen3-4b", "--calibration", str(out), "--no-recommendations"]) == 0
    assert "Expected error" in capsys.readouterr().out


def test_window_policy_fits_more_sequences_for_sliding_models():
    from scorer.costmodel import CostModel
    from scorer.gemms import inventory
    from scorer.hardware import get_gpu, get_precision
    from scorer.params import count_params
    from scorer.sources import load_example
    from scorer.architecture import normalize
    arch = normalize(load_example("gpt-oss-20b").config)
    args = (arch, count_params(arch), get_gpu("H100-SXM"), get_precision("bf16"), Layout(tp=1), "bf16", "vllm",
            None, set(), inventory(arch))
    full = CostModel(*args, kv_policy="vllm-unified").max_concurrency(32768)
    hybrid = CostModel(*args, kv_policy="vllm").max_concurrency(32768)
    capped = CostModel(*args, kv_policy="window").max_concurrency(32768)
    # 24 layers, half sliding (window 128): the window policy keeps 12 full layers + 12 x 128 tokens, so at 32k
    # tokens a sequence needs about half the bytes and roughly twice as many fit
    assert capped > 1.8 * full > 0
    # vLLM's hybrid manager keeps 127 + 16,384 in-flight tokens per sliding layer: 12 x 32k + 12 x 16.5k of
    # 24 x 32k, so about 1.33x as many as with the hybrid manager disabled, fewer than the window cap
    assert 1.25 * full < hybrid < capped


def test_validate_skips_non_positive_and_nan_values(tmp_path, corpus_dir, capsys):
    rows = [{"id": f"r{i}", "model_id": "m", "config": "llama-3.1-8b", "gpu": "H100-SXM", "weight_precision": "bf16",
             "concurrency": "8", "metric": "tpot_ms", "value": v}
            for i, v in enumerate(["nan", "-3", "0", "inf", "5e-324", "1e400"])]
    csv_path = tmp_path / "m.csv"
    write_csv(csv_path, rows)
    # nothing predictable: validate and calibrate both refuse, in one line, writing nothing
    assert main(["validate", str(csv_path), "--corpus", str(corpus_dir), "--out", str(tmp_path / "v.md")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no row could be predicted (" in err and "x malformed row: value" in err
    assert main(["calibrate", str(csv_path), "--corpus", str(corpus_dir), "-o", str(tmp_path / "c.json")]) == 2
    assert "nothing to fit" in capsys.readouterr().err
    assert not (tmp_path / "c.json").exists() and not (tmp_path / "v.md").exists()
    # with one good row the bad ones are reported as skipped, and the JSON is strict (no NaN/Infinity)
    rows.append({**rows[0], "id": "good", "value": "9.5"})
    write_csv(csv_path, rows)
    assert main(["validate", str(csv_path), "--corpus", str(corpus_dir), "--format", "json"]) == 0
    rep = json.loads(capsys.readouterr().out, parse_constant=lambda c: pytest.fail(f"non-JSON constant {c}"))
    assert len(rep["skipped"]) == 6 and all("malformed" in s["reason"] for s in rep["skipped"])
    assert rep["metrics"]["tpot_ms"]["n"] == 1


def test_pipeline_parallel_decode_is_not_faster_at_batch_one(capsys):
    # a token passes through every pipeline stage in turn: PP halves the weights per GPU, not the latency
    outs = []
    for pp in ("1", "2"):
        assert main(["predict", "example:llama-3.1-8b", "--pp", pp, "--isl", "1024", "--osl", "128",
                     "--concurrency", "1"]) == 0
        outs.append(json.loads(capsys.readouterr().out))
    assert outs[1]["tpot_ms"] >= outs[0]["tpot_ms"] * 0.98
    assert outs[1]["weights_per_gpu_gib"] < 0.6 * outs[0]["weights_per_gpu_gib"]


def test_vectorized_fit_residuals_match_the_reference(corpus_dir):
    """The calibration fit's numpy residuals equal predict_sample's, row by row, at any parameter vector."""
    import random

    from scorer.calibrate import Fit, _samples
    from scorer.costmodel import load_calibration
    from scorer.measure import Predictor, Row

    rows = []
    for i, (cfg, fw, c, metric, isl, osl, dp, ep) in enumerate([
            ("llama-3.1-8b", "vllm", "8", "tpot_ms", 1024, 128, 1, 1),
            ("llama-3.1-8b", "trtllm", "64", "ttft_ms", 8192, 1024, 1, 1),
            ("qwen3-4b", "sglang", "max", "output_tokens_per_s_per_gpu", 1024, 1024, 1, 1),
            ("qwen3-4b", "vllm", "4096", "ttft_ms", 1024, 1024, 1, 1),  # beyond the KV budget: queued
            ("gpt-oss-20b", "trtllm", "32", "tpot_ms", 1024, 1024, 2, 2),
            ("gpt-oss-20b", "vllm", "16", "tokens_per_s_per_user", 2048, 256, 1, 1),
            ("qwen3-4b", "sglang", "16", "ttft_ms", 2048, 256, 1, 1),  # separate prefill: the burst branch
            ("llama-3.1-8b", "sglang", "32", "tpot_ms", 1024, 512, 1, 1)]):
        rows.append(Row(id=str(i), model_id="m", config=cfg, gpu="H100-SXM", num_gpus=dp, tp=1, ep=ep,
                        attention_dp=dp, weight_precision="bf16", framework=fw, isl=isl, osl=osl, concurrency=c,
                        metric=metric, value=10.0))
    cal = load_calibration()
    samples, skipped = _samples(Predictor(corpus_dir, cal), rows)
    assert not skipped and len(samples) == len(rows)
    f = Fit(cal, samples)
    lo, hi = f.bounds()
    rng = random.Random(4)
    for _ in range(5):
        theta = [rng.uniform(a, b) for a, b in zip(lo, hi)]
        for fast, ref in zip(f.residuals(theta), f.residuals_reference(theta)):
            assert math.isclose(fast, ref, rel_tol=1e-9, abs_tol=1e-12)


def test_max_run_is_bounded_by_the_requests_issued(corpus_dir):
    """A max-throughput run of N requests never holds more than N at once (ITL of a 500-request burst)."""
    from scorer.measure import Predictor, Row, requests_issued

    assert requests_issued("Online serving, 500 requests, Poisson-ish arrival") == 500
    assert requests_issued("1,000 requests at once") == 1000
    assert requests_issued("no count here") is None
    base = dict(model_id="m", config="llama-3.1-8b", gpu="H100-SXM", num_gpus=1, tp=1, weight_precision="bf16",
                framework="trtllm", isl=202, osl=214, concurrency="max", metric="itl_ms", value=20.0)
    pred = Predictor(corpus_dir)
    free = pred.predict_row(Row(id="a", **base))
    burst = pred.predict_row(Row(id="b", notes="500 requests, all at once", **base))
    assert free.prediction.concurrency > 500 >= burst.prediction.concurrency
    assert burst.predicted < free.predicted


def test_num_prompts_bounds_the_requests_held_at_once(corpus_dir):
    """A row's num_prompts column is the number of requests its client issued: a closed-loop run of N < c
    prompts holds N at once (all of them in the opening wave), a max run of N no more than N, as the notes'
    "N requests" already say."""
    from scorer.measure import Predictor, Row

    base = dict(model_id="m", config="llama-3.1-8b", gpu="H100-SXM", num_gpus=1, tp=1, weight_precision="bf16",
                framework="vllm", isl=1024, osl=256, metric="ttft_ms", value=20.0, harness="inferencemax")
    pred = Predictor(corpus_dir)
    one = pred.predict_row(Row(id="a", concurrency="1", num_prompts=1, **base))
    capped = pred.predict_row(Row(id="b", concurrency="64", num_prompts=1, **base))
    full = pred.predict_row(Row(id="c", concurrency="64", num_prompts=640, **base))
    assert capped.prediction.concurrency == one.prediction.concurrency == 1
    assert math.isclose(capped.predicted, one.predicted)
    assert full.prediction.concurrency == 64 and full.predicted > capped.predicted
    m = dict(base, metric="itl_ms", concurrency="max", framework="trtllm", harness="")
    by_column = pred.predict_row(Row(id="d", num_prompts=50, **m))
    by_notes = pred.predict_row(Row(id="e", notes="50 requests, all at once", **m))
    free = pred.predict_row(Row(id="f", **m))
    assert by_column.prediction.concurrency == by_notes.prediction.concurrency <= 50 < free.prediction.concurrency
    assert math.isclose(by_column.predicted, by_notes.predicted)


def test_attention_dp_wait_by_hand_and_only_on_dp_layouts(capsys):
    """TTFT + adp_wait_steps x t_dec on attention-DP layouts (steady state; the opening wave keeps its own
    formula), nothing elsewhere: the cost model zeroes the parameter where the layout has no attention DP."""
    p = {"tpot_interference": 0.5, "ttft_queue": 0.25, "prefill_chunk_tokens": 8192, "adp_wait_steps": 40.0}
    out = serve(t_dec=0.010, t_pre=0.100, t_pre_marginal=0.080, c_local=9, osl=100, num_gpus=2, concurrency=9, p=p,
                isl=2048)
    steady = 0.100 + 0.25 * 8 * (0.080 + 2048 / 8192 * 0.010) + 0.010 / 2 + 40 * 0.010
    # the closed loop's wait for the others' prefill work (as in test_serve_formulas_by_hand): root of
    # R^2 + (Z - c D) R - D Z = 0 with D = 0.0825 s, Z = TTFT - D + 99 TPOT, c = 9; the wait is R - D
    d, tpot = 0.080 + 2048 / 8192 * 0.010, 0.010 + 0.5 * 8 / 100 * 0.080
    z = steady - d + 99 * tpot
    steady += ((9 * d - z) + math.sqrt((9 * d - z) ** 2 + 4 * d * z)) / 2 - d
    assert math.isclose(out["ttft"], steady)
    wave = serve(t_dec=0.010, t_pre=0.100, t_pre_marginal=0.080, c_local=9, osl=100, num_gpus=2, concurrency=9, p=p,
                 isl=2048, wave_share=0.1)
    assert math.isclose(wave["ttft"], 0.9 * steady + 0.1 * (0.100 + 0.5 * 8 * 0.080))
    from scorer.costmodel import load_calibration
    cal = load_calibration()
    wait = cal.resolve("trtllm").get("adp_wait_steps", 0.0)
    assert wait > 1 and cal.resolve("vllm").get("adp_wait_steps", 0.0) == 0.0  # fitted for TensorRT-LLM only

    def ttft(extra):
        assert main(["predict", "example:mixtral-8x7b", "--gpu", "B200", "--precision", "fp8",
                     "--framework", "trtllm", "--isl", "1024", "--osl", "1024", "--concurrency", "64",
                     "--format", "json", *extra]) == 0
        return json.loads(capsys.readouterr().out)

    dp = ttft(["--tp", "1", "--dp", "8", "--ep", "8"])
    tp = ttft(["--tp", "8", "--ep", "8"])
    # the DP layout's TTFT carries the wait: at least wait x its own decode step (TPOT is the step and more)
    assert dp["ttft_ms"] >= wait * dp["breakdown"]["decode"]["total"]
    assert tp["ttft_ms"] < wait * tp["breakdown"]["decode"]["total"]
    assert any("attention-dp layouts" in n for n in dp["notes"])  # its held-out bias is stated


def test_layout_kinds_the_validation_groups_errors_by():
    from scorer.measure import layout_kind
    assert layout_kind("trtllm", 1, 1, 8, 8) == "trtllm attention-dp"
    assert layout_kind("vllm", 8, 2, 1, 1) == "vllm pp"
    assert layout_kind("sglang", 8, 1, 8, 1) == "sglang tp+ep"
    assert layout_kind("vllm", 4, 1, 1, 1) == "vllm tp"
    from scorer.costmodel import load_calibration
    groups = load_calibration().validation["leave_one_model_out"]["by_layout"]
    ttft = groups["trtllm attention-dp"]["ttft_ms"]
    assert ttft["n"] >= 10 and ttft["median_ratio"] > 0


def test_prefill_op_latency_applies_to_prefill_only():
    """Prefill batches run outside CUDA graphs: each of a prefill's GEMMs pays prefill_op_latency_s on top of
    op_latency_s; a decode step (graph-captured) does not. By hand: 300 GEMMs x (7 + 30) us + 2 ms overhead."""
    from scorer.costmodel import Features, step_time
    p = {"mem_bw_eff": 1.0, "attn_compute_eff": 1.0, "comm_bw_eff": 1.0, "comm_latency_s": 0.0,
         "op_latency_s": 7e-6, "prefill_op_latency_s": 3e-5, "decode_step_overhead_s": 1e-3,
         "prefill_overhead_s": 2e-3}

    def feats(kind):
        return Features(gemm_compute=[0.0], gemm_memory=[0.0], gemm_ops=300, attn_compute=0.0, attn_memory=0.0,
                        comm_s=0.0, comm_n=0, kind=kind)
    assert math.isclose(step_time(feats("prefill"), p, 1.0)["total"], 300 * (7e-6 + 3e-5) + 2e-3)
    assert math.isclose(step_time(feats("decode"), p, 1.0)["total"], 300 * 7e-6 + 1e-3)
