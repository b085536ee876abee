"""Findings of a serving engineer's audit (2026-12-06): the fitted decode iterations in TTFT ramp in from one
request instead of jumping at two; an attention-DP layout's max batch is capped per DP rank, not in total."""

import pytest

from scorer.costmodel import KAPPA_FULL_AT, load_calibration, serve

# no queueing, no burst, no attention-DP wait: TTFT = t_pre + kappa_eff x t_dec (c > 1), t_pre (c = 1)
BASE = {"ttft_queue": 0.0, "prefill_separate": 0.0, "adp_wait_steps": 0.0, "tpot_interference": 1.0}


@pytest.mark.parametrize("c, kappa_eff", [
    (1, 0.0),                     # nobody else decodes: no iteration to wait for
    (2, 0.5 + 16.0 * 1 / 3),      # a third of the way from 1/2 (one request) to 16.5 (4, the lowest measured)
    (3, 0.5 + 16.0 * 2 / 3),
    (4, 16.5),
    (64, 16.5),
])
def test_fitted_decode_steps_ramp_from_one_request(c, kappa_eff):
    assert KAPPA_FULL_AT == 4.0
    got = serve(0.01, 0.1, 0.0, float(c), 100, 1, c, {**BASE, "ttft_decode_steps": 16.5})["ttft"]
    assert got == pytest.approx(0.1 + kappa_eff * 0.01, rel=1e-12)


@pytest.mark.parametrize("c", [2, 3, 4, 100])
def test_physical_half_step_unchanged(c):
    got = serve(0.01, 0.1, 0.0, float(c), 100, 1, c, {**BASE, "ttft_decode_steps": 0.5})["ttft"]
    assert got == 0.1 + 0.5 * 0.01


def test_vllm_keeps_the_physical_half_step():
    assert load_calibration().resolve("vllm").get("ttft_decode_steps", 0.5) == 0.5


def test_attention_dp_max_batch_is_capped_per_rank():
    """TP1 x DP8 x EP8 of Mixtral-8x7B on H100: eight engines, each may run up to the 1,024 search cap, so the
    max batch of the layout exceeds 1,024 where memory and the engines' admission allow."""
    from scorer.architecture import normalize
    from scorer.costmodel import CostModel, Layout
    from scorer.gemms import inventory
    from scorer.hardware import get_gpu, get_precision
    from scorer.params import count_params
    from scorer.regimes import predict
    from scorer.sources import load_source
    raw = load_source("example:mixtral-8x7b")
    arch = normalize(raw.config, raw.quant_config)
    cm = CostModel(arch, count_params(arch), get_gpu("H100-SXM"), get_precision("bf16"),
                   Layout(tp=1, pp=1, ep=8, dp=8), "bf16", "vllm", load_calibration(), set(), inventory(arch))
    p = predict(cm, 1024, 1024, "max")
    bound = min(p.max_concurrency, cm.admission_cap() or 10 ** 9, 8 * 1024)
    assert bound > 1024  # the case the test is about
    assert 1024 < p.concurrency <= bound


def test_mtp_beyond_the_checkpoints_layers_says_estimated():
    from scorer.architecture import normalize
    from scorer.costmodel import speculative_setting
    from scorer.sources import load_source
    import json
    import pathlib
    cfg = pathlib.Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "deepseek-ai__DeepSeek-V3"
    if not (cfg / "config.json").is_file():
        pytest.skip("../shared/corpus not present (CI has it)")
    raw = load_source(str(cfg))
    arch = normalize(raw.config, raw.quant_config)
    assert json.loads((cfg / "config.json").read_text())["num_nextn_predict_layers"] == 1
    one = speculative_setting("mtp", arch)
    three = speculative_setting("mtp", arch, tokens=3)
    assert one.tokens == 1 and "estimated" not in one.source
    assert three.tokens == 3 and "estimated" in three.source and "1 MTP layer" in three.source
