"""Issue 13: the fused fast paths of the cost model return what the general ones do, bit for bit.

The regimes and sweeps evaluate thousands of decode steps, prefills and serve() points per model; they run
:meth:`CostModel.decode_parts`, :meth:`CostModel._prefill_total` and :func:`serve_point`, which repeat the
arithmetic of decode_features + step_time, prefill_features + step_time and serve() without building the
intermediate lists and dicts. These tests pin them to the general paths with exact equality over the layer kinds
(dense, MoE, sliding window, MLA / DSA, DeepSeek-V4, recurrent), layouts (TP, multi-domain TP, PP, EP, DP) and
speculative decoding.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from scorer.architecture import normalize
from scorer.costmodel import CostModel, Layout, load_calibration, serve, serve_constants, serve_point, step_time
from scorer.hardware import catalog, get_precision
from scorer.sources import load_source

ROOT = Path(__file__).resolve().parent
CORPUS = ROOT.parent.parent / "shared" / "corpus"


def _archs():
    out = {}
    for name in ("llama-3.1-8b", "mixtral-8x7b", "gpt-oss-20b", "qwen3-4b", "gemma-7b"):
        raw = load_source(f"example:{name}")
        out[name] = normalize(raw.config, raw.quant_config)
    cases = json.loads((ROOT / "data" / "deepseek_oracle.json").read_text())["cases"]
    seen = set()
    for c in cases:  # one config per model type: MLA, DSA, DeepSeek-V4 compressed attention, MoE variants
        if c["model_type"] not in seen:
            seen.add(c["model_type"])
            out[c["model_type"]] = normalize(copy.deepcopy(c["config"]))
    for d in ("Qwen__Qwen3-Next-80B-A3B-Thinking", "nvidia__Nemotron-H-56B-Base-8K"):  # delta-net, Mamba2
        cfg = CORPUS / d / "config.json"
        if cfg.is_file():
            out[d] = normalize(json.loads(cfg.read_text()))
    return out


ARCHS = _archs()


def _layouts(arch):
    lays = [Layout(tp=1), Layout(tp=2), Layout(tp=8), Layout(tp=16), Layout(tp=8, pp=2), Layout(tp=2, dp=2)]
    if arch.is_moe:
        lays += [Layout(tp=2, ep=2), Layout(tp=4, ep=4, pp=2), Layout(tp=2, dp=2, ep=4)]
    return lays


def _reference_parts(cm, batch, context):
    d = step_time(cm.decode_features(batch, context), cm.p, cm.eff_c)
    return (d["total"], d["gemm_compute"], d["gemm_memory"], d["attention"], d["comm"], d["overhead"])


@pytest.mark.parametrize("name", sorted(ARCHS))
def test_fused_decode_and_prefill_match_the_general_path(name):
    arch = ARCHS[name]
    cal = load_calibration()
    from scorer.gemms import inventory
    from scorer.params import count_params
    params, gemms = count_params(arch), inventory(arch)
    for gpu_id, prec in (("H100-SXM", "bf16"), ("B200", "nvfp4"), ("MI300X", "fp8"), ("L40S", "int4")):
        gpu = catalog()[gpu_id]
        for lay in _layouts(arch):
            for framework in ("vllm", "sglang"):
                cm = CostModel(arch, params, gpu, get_precision(prec), lay, "bf16", framework, cal, set(), gemms)
                for batch in (1, 3, 64, 255, 256, 300, 512, 1024, 4096):
                    for context in (1, 192.0, 1536.0, 4096, 33280.0, 200000.0):
                        want = _reference_parts(cm, batch, context)
                        assert cm.decode_parts(batch, context) == want, (gpu_id, prec, lay, batch, context)
                        assert cm.decode_total(batch, context) == cm.decode_step(batch, context)["total"]
                for seqs in (lay.dp, 4 * lay.dp):
                    for length in (1, 128, 1024, 32768):
                        assert cm._prefill_total(seqs, length) == cm.prefill(seqs, length)["total"]


def test_fused_decode_with_speculative_decoding_matches():
    from scorer.costmodel import speculative_setting
    from scorer.gemms import inventory
    from scorer.params import count_params
    arch = ARCHS["llama-3.1-8b"]
    sp = speculative_setting("eagle3", arch)
    cm = CostModel(arch, count_params(arch), catalog()["H100-SXM"], get_precision("fp8"), Layout(tp=2), "bf16",
                   "vllm", load_calibration(), set(), inventory(arch), speculative=sp)
    for batch in (1, 64, 512):
        d = cm.decode_step(batch, 1536.0)
        assert cm.decode_parts(batch, 1536.0) == (d["total"], d["gemm_compute"], d["gemm_memory"], d["attention"],
                                                  d["comm"], d["overhead"])


def test_serve_point_matches_serve():
    rng = random.Random(13)
    base = dict(load_calibration().resolve("vllm", "hopper"))
    for i in range(3000):
        p = dict(base)
        if i % 3 == 1:
            p["prefill_separate"] = 1.0
        elif i % 3 == 2:
            p.update(prefill_separate=rng.random(), tpot_interference=rng.random() * 2, ttft_queue=rng.random(),
                     ttft_decode_steps=rng.random(), prefill_chunk_tokens=rng.choice([512.0, 2048.0, 8192.0]))
        t_dec, t_pre, t_marg = rng.random() * 0.05, rng.random() * 2, rng.random() * 0.5
        c_local = rng.choice([0.5, 1.0, 1.5, 2.0, 7.0, 256.0, rng.random() * 1000])
        osl, isl = rng.choice([0, 1, 2, 128, 1024]), rng.choice([0, 128, 1024, 32768])
        gpus, conc = rng.choice([1, 2, 8]), rng.choice([1, 3, 64, 1024])
        ws = rng.choice([0.0, 0.1, rng.random()])
        if osl == 0 and c_local <= 1:
            continue  # latency 0: serve() divides by zero, as before
        try:
            want = serve(t_dec, t_pre, t_marg, c_local, osl, gpus, conc, p, isl, ws)
        except ZeroDivisionError:
            continue
        got = serve_point(serve_constants(p), t_dec, t_pre, t_marg, c_local, osl, gpus, conc, isl, ws)
        assert got == (want["ttft"], want["tpot"], want["tokens_per_s_per_gpu"])


def test_decode_bound_is_bound_of_its_parts():
    """decode_bound picks the dominant term without building bound_of's dict; over every term order and tie it must
    name what bound_of names for the same parts."""
    from scorer.costmodel import bound_of
    raw = load_source("example:llama-3.1-8b")
    cm = CostModel(normalize(raw.config, raw.quant_config), None, catalog()["H100-SXM"], get_precision("bf16"),
                   Layout(tp=1), "bf16", "vllm", load_calibration(), set())
    rng = random.Random(7)
    levels = (0.0, 1.0, 2.0, 3.0)
    for _ in range(2000):
        comp, mem, attn, comm, over = (rng.choice(levels) for _ in range(5))
        key = (f"x{_}", 1.0)
        cm._dec_parts[key] = (0.0, comp, mem, attn, comm, over)
        want = bound_of({"gemm_compute": comp, "gemm_memory": mem, "attention": attn, "comm": comm, "overhead": over})
        assert cm.decode_bound(*key) == want, (comp, mem, attn, comm, over)
