"""Issue 13: KV allocation per engine and version, admission defaults, one KV dtype default per framework.

Expected values are derived here from the engines' own formulas and defaults (data/engines.json cites the files):

* vLLM 0.33.0 (vllm/v1/kv_cache_interface.py, vllm/v1/core/kv_cache_planning.py, kv_cache_utils.py):
  a full-attention layer needs cdiv(max_model_len, 16) blocks per request, a sliding-window layer
  cdiv(min(window - 1 + max_in_flight_tokens, max_model_len), 16) + 1; layers are grouped in groups of the
  smallest kind's layer count, padded; every group draws blocks of group_size pages from one pool:
  num_blocks = available // bytes_per_block, max concurrency = num_blocks / sum of the groups' blocks per request.
  max_in_flight_tokens = 2 (async scheduling) x max_num_batched_tokens (8192 on an 80 GB H100, vllm serve).
* SGLang 0.5.23 (pool_configurator.py): full pool F = budget / (full bytes/token + 0.8 x SWA bytes/token),
  SWA pool 0.8 F; a sequence needs its context in F and min(context, window) in the SWA pool.
"""

from __future__ import annotations

import json

import pytest

from scorer.architecture import normalize
from scorer.cli import main
from scorer.costmodel import CostModel, Layout
from scorer.hardware import get_gpu, get_precision
from scorer.kvcache import default_kv_dtype, engine_kv, per_sequence_bytes
from scorer.params import count_params
from scorer.sources import load_source


def _example(name: str):
    raw = load_source(f"example:{name}")
    return normalize(raw.config, raw.quant_config)


def _cm(arch, gpu="H100-SXM", precision="mxfp4", framework="vllm", tp=1, policy="auto") -> CostModel:
    return CostModel(arch, count_params(arch), get_gpu(gpu), get_precision(precision), Layout(tp=tp),
                     framework=framework, kv_policy=policy)


def test_vllm_max_concurrency_of_gpt_oss_20b_follows_the_engines_formula():
    """gpt-oss-20b: 24 layers alternating sliding (window 128) and full, 8 KV heads of 64, bf16 KV.

    vLLM 0.33.0 on one H100 (80 GB: max_num_batched_tokens 8192, 2 batches in flight), max_model_len 131,072:
      page per layer = 16 tokens x 8 heads x (64 + 64) x 2 B = 32,768 B; 12 + 12 layers: group_size 12, one full
      and one sliding group, bytes_per_block = 12 x 32,768 = 393,216 B;
      blocks per request = cdiv(131072, 16) + cdiv(min(127 + 16384, 131072), 16) + 1 = 8192 + 1032 + 1 = 9,225;
      max concurrency = (available // 393,216) / 9,225 — what vLLM logs as "Maximum concurrency for 131,072 tokens
      per request".
    """
    arch = _example("gpt-oss-20b")
    cm = _cm(arch)
    assert cm.kv_policy == "vllm"
    assert engine_kv("vllm", get_gpu("H100-SXM")).in_flight_tokens == 2 * 8192
    page = 16 * 8 * (64 + 64) * 2
    bytes_per_block = 12 * page
    blocks_per_request = 131072 // 16 + (-(-(128 - 1 + 2 * 8192) // 16) + 1)
    assert blocks_per_request == 9225
    available = cm.kv_budget_bytes()
    expected = int((available // bytes_per_block) / blocks_per_request)
    assert cm.max_concurrency(131072) == expected
    # the old policy (hybrid manager disabled) charged every sliding layer the whole context: 24 x 8192 blocks
    unified = int(available // (24 * page * (131072 // 16)))
    assert unified < expected < 2 * unified


def test_vllm_pads_the_groups_of_a_5_to_1_pattern():
    """Gemma-3-27B's layout: 62 layers, every 6th full (10 full, 52 sliding of window 1024), 16 KV heads of 128.
    group_size = 10; the sliding layers form ceil(52 / 10) = 6 groups = 60 layer pages (8 padding)."""
    cfg = {"model_type": "gemma3_text", "architectures": ["Gemma3ForCausalLM"], "hidden_size": 5376,
           "intermediate_size": 21504, "num_hidden_layers": 62, "num_attention_heads": 32, "num_key_value_heads": 16,
           "head_dim": 128, "sliding_window": 1024, "vocab_size": 262208, "max_position_embeddings": 131072}
    arch = normalize(cfg)
    full = sum(1 for lay in arch.layers if lay.mixer.span == "full")
    assert (full, len(arch.layers) - full) == (10, 52)
    eng = engine_kv("vllm", get_gpu("H100-SXM"))
    per_tok_layer = 16 * (128 + 128) * 2
    c = 32768
    full_blocks = c // 16
    sw_blocks = -(-min(1024 - 1 + eng.in_flight_tokens, c) // 16) + 1
    expected = 10 * full_blocks * 16 * per_tok_layer + 60 * sw_blocks * 16 * per_tok_layer
    assert per_sequence_bytes(arch, c, "bf16", "vllm", 1, engine=eng) == expected


def test_sglang_swa_pool():
    arch = _example("gpt-oss-20b")
    per_layer = 8 * (64 + 64) * 2  # bytes per token
    full, swa = 12 * per_layer, 12 * per_layer
    c = 131072
    expected = (full + 0.8 * swa) * max(c, min(c, 128) / 0.8)
    assert per_sequence_bytes(arch, c, "bf16", "sglang", 1) == int(expected)
    short = 100  # below the window: the SWA pool (0.8 of the full one) binds
    assert per_sequence_bytes(arch, short, "bf16", "sglang", 1) == int((full + 0.8 * swa) * short / 0.8)
    cm = _cm(arch, framework="sglang")
    assert cm.kv_policy == "sglang"


def test_a_dense_model_is_the_same_under_every_paged_policy():
    arch = _example("llama-3.1-8b")
    per_tok = 32 * 8 * 128 * 2 * 2
    for policy in ("vllm", "vllm-unified", "window"):
        assert per_sequence_bytes(arch, 4096, "bf16", policy, 1) == 4096 * per_tok, policy


def test_vllm_admission_cap_queues_beyond_max_num_seqs(capsys):
    """vLLM's max_num_seqs for vllm serve on a GPU under 70 GiB (L40S): 256 (EngineArgs.get_batch_defaults)."""
    assert main(["predict", "example:qwen3-4b", "--gpu", "L40S", "--isl", "128", "--osl", "64", "--concurrency",
                 "300", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["admission_cap"] == 256
    assert out["max_concurrency"] > 300  # memory is not the limit
    assert out["queued"] == 300 - 256


@pytest.mark.parametrize("framework,precision,expected", [
    ("vllm", "fp8", "bf16"), ("sglang", "nvfp4", "bf16"), ("trtllm", "fp8", "fp8"), ("trtllm", "nvfp4", "fp8"),
    ("trtllm", "bf16", "bf16")])
def test_one_kv_dtype_default_per_framework(framework, precision, expected, capsys):
    assert default_kv_dtype(framework, precision)[0] == expected
    assert main(["predict", "example:llama-3.1-8b", "--gpu", "B200", "--framework", framework, "--precision",
                 precision, "--isl", "1024", "--osl", "128", "--concurrency", "8", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["kv_dtype"] == expected and out["kv_dtype_source"]
    assert main(["score", "example:llama-3.1-8b", "--gpu", "B200", "--framework", framework, "--precision",
                 precision, "--format", "json", "--no-recommendations"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["options"]["kv_dtype"] == expected and doc["options"]["kv_dtype_source"]


def test_validate_uses_the_same_default(tmp_path, capsys):
    """A measurement row without a KV dtype gets the framework's default, the one predict uses (the row of the
    issue: TensorRT-LLM at FP8, where predict assumed bf16 and validate fp8)."""
    from scorer.measure import Predictor, Row
    (tmp_path / "llama").mkdir()
    raw = load_source("example:llama-3.1-8b")
    (tmp_path / "llama" / "config.json").write_text(json.dumps(raw.config))
    for framework, precision in (("trtllm", "fp8"), ("vllm", "fp8"), ("sglang", "bf16")):
        row = Row(model_id="m", config="llama", gpu="H100-SXM", num_gpus=1, tp=1, weight_precision=precision,
                  framework=framework, isl=1024, osl=128, concurrency="4", metric="tpot_ms", value=10.0)
        res = Predictor(tmp_path).predict_row(row)
        assert res.skipped is None
        assert main(["predict", str(tmp_path / "llama"), "--gpu", "H100-SXM", "--framework", framework,
                     "--precision", precision, "--isl", "1024", "--osl", "128", "--concurrency", "4",
                     "--format", "json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert res.cost_model.kv_dtype == out["kv_dtype"] == default_kv_dtype(framework, precision)[0]
        assert out["tpot_ms"] == pytest.approx(res.prediction.tpot_ms, rel=1e-6)


def test_pipeline_stages_do_not_shrink_a_single_tokens_expert_reads():
    """One sequence at PP 8 still passes every stage, touching top_k experts in each: the decode step's GEMM time
    cannot fall below PP 1's (it did: 3.35 B active parameters read at about 6 TB/s on an H100)."""
    raw = load_source("example:mixtral-8x7b")
    arch = normalize(raw.config)
    t = {pp: CostModel(arch, count_params(arch), get_gpu("H100-SXM"), get_precision("bf16"),
                       Layout(tp=1, pp=pp)).decode_step(1, 2048)["gemm"] for pp in (1, 4)}
    assert t[4] >= t[1] * 0.999


def test_unknown_harness_is_a_skipped_row(tmp_path):
    from scorer.measure import Predictor, Row
    (tmp_path / "llama").mkdir()
    (tmp_path / "llama" / "config.json").write_text(json.dumps(load_source("example:llama-3.1-8b").config))
    row = Row(model_id="m", config="llama", gpu="H100-SXM", num_gpus=1, tp=1, weight_precision="bf16",
              framework="vllm", isl=1024, osl=128, concurrency="4", metric="ttft_ms", value=100.0, harness="inferencmax")
    res = Predictor(tmp_path).predict_row(row)
    assert res.skipped and "unknown harness 'inferencmax'" in res.skipped and "inferencemax" in res.skipped


def test_tensorrt_llm_on_amd_is_refused_by_score_too(capsys):
    assert main(["score", "example:llama-3.1-8b", "--framework", "trtllm", "--gpu", "MI300X",
                 "--no-recommendations"]) == 2
    assert "NVIDIA GPUs only" in capsys.readouterr().err


# --- SGLang's default mem_fraction_static and the catalog's memory capacity -----------------------------------
#
# sglang 0.5.23 sglang/srt/arg_groups/memory_hook.py handle_gpu_memory_settings, with no --mem-fraction-static:
#   reserved (MiB) = 512 + max(chunked_prefill_size, 2048) x 1.5 + tp_size x pp_size / 8 x 1024 + graphs,
#   at least 10,240 on GPUs over 60 GiB; fraction = round((memory - reserved) / memory, 3);
#   graphs = decode max_bs x 2 (+ max_bs x dp x 3, + max_bs x dp x 1.5 above max_bs 300, with attention DP)
#            + prefill graphs: 8 x (captured token counts up to chunked_prefill_size), or 1,536 with MLA.
#   An H100 (80 GiB = 81,920 MiB: the 60-90 GiB tier) gets chunked_prefill_size 8192 and decode max_bs 256 below
#   tp_size 4; a B200 (180 GiB = 184,320 MiB: above 160 GiB) 16384 and 512.
#   Prefill token counts captured up to 8192 (cuda_graph_hook.generate_prefill_cuda_graph_batch_sizes):
#   4..32 step 4 (8), 48..256 step 16 (14), 288..512 step 32 (8), 576..1024 step 64 (8), 1280..4096 step 256 (12),
#   4608..8192 step 512 (8) = 58.
# The KV pool: free memory after the weights minus the pre-load free memory x (1 - fraction)
# (sglang/srt/mem_cache/kv_cache_configurator.py _profile_available_bytes).
# Catalog capacity: aiconfigurator_core 0.12.0 systems/h100_sxm.yaml "mem_capacity: 85899345920 # 80GiB",
# b200_sxm.yaml "193273528320 # 180GiB".

def test_catalog_memory_is_the_sourced_capacity():
    assert get_gpu("H100-SXM").memory_bytes == 85899345920
    assert get_gpu("B200").memory_bytes == 193273528320
    assert get_gpu("H100-SXM").memory_gb == 80  # the label stays the vendor's
    assert get_gpu("MI300X").memory_bytes == 192e9  # no exact source: vendor GB x 1e9


def test_sglang_default_mem_fraction_on_h100_tp1():
    from scorer.kvcache import sglang_mem_fraction
    reserved = 512 + 8192 * 1.5 + 1 * 1 / 8 * 1024 + (256 * 2 + 58 * 8)
    assert reserved == 13904
    expected = round((81920 - reserved) / 81920, 3)
    assert expected == 0.83
    assert sglang_mem_fraction(get_gpu("H100-SXM"), tp=1) == expected


def test_sglang_default_mem_fraction_with_mla_and_attention_dp_on_b200():
    from scorer.kvcache import sglang_mem_fraction
    max_bs, dp = 512, 8
    graphs = max_bs * 2 + max_bs * dp * 3 + max_bs * dp * 1.5 + 1536
    reserved = 512 + 16384 * 1.5 + 8 / 8 * 1024 + graphs
    assert sglang_mem_fraction(get_gpu("B200"), tp=1, dp=dp, mla=True) == round((184320 - reserved) / 184320, 3)


def test_sglang_kv_budget_and_launch_flag_follow_its_default_fraction():
    arch = _example("llama-3.1-8b")
    cm = _cm(arch, precision="bf16", framework="sglang")
    frac = 0.83  # derived above for an H100 at TP1
    weights = cm.weights_per_gpu()
    assert cm.kv_budget_bytes() == pytest.approx((85899345920 - 2 * 2 ** 30) * frac - weights)
    vllm = _cm(arch, precision="bf16", framework="vllm")
    # vLLM 0.33.0 vllm/config/cache.py: gpu_memory_utilization defaults to 0.92
    assert vllm.kv_budget_bytes() == pytest.approx(85899345920 * 0.92 - 2 * 2 ** 30 - weights)

def test_sglang_launch_command_states_the_fraction_predicted(capsys):
    assert main(["predict", "example:llama-3.1-8b", "--framework", "sglang", "--isl", "1024", "--osl", "128",
                 "--concurrency", "8", "--format", "json"]) == 0
    argv = json.loads(capsys.readouterr().out)["launch"]["argv"]
    assert argv[argv.index("--mem-fraction-static") + 1] == "0.83"  # derived above (H100, TP1)


def test_sglang_admission_default_per_worker():
    """resolve_max_num_reqs: min(clamp(pool tokens / context_len x 512, 2048, 4096), pool tokens // 2)."""
    arch = _example("llama-3.1-8b")
    cm = _cm(arch, precision="bf16", framework="sglang")
    tokens = int(cm.kv_budget_bytes() // (32 * 8 * 128 * 2 * 2))
    expected = min(max(min(int(tokens / 131072 * 512), 4096), 2048), tokens // 2)
    assert cm.admission_cap() == expected == 2048


def test_an_h100_holds_what_sglang_served_on_one(corpus):
    """measured.csv rows 0a80db693f35 and neighbours: SGLang 0.5.8 served Qwen3-32B in BF16 (65.5 GB of weights) on
    one H100 at concurrency 16 (aiconfigurator gap analysis). At 80e9 bytes SGLang's default fraction would leave no
    KV cache; at the sourced 80 GiB it leaves (80 GiB - 2 GiB) x 0.83 - weights."""
    raw = load_source(str(corpus / "Qwen__Qwen3-32B"))
    arch = normalize(raw.config, raw.quant_config)
    cm = _cm(arch, precision="bf16", framework="sglang")
    assert cm.weights_per_gpu() > 0.83 * (80e9 - 2 * 2 ** 30)  # the old reading: nothing left for KV
    assert cm.kv_budget_bytes() == pytest.approx((85899345920 - 2 * 2 ** 30) * 0.83 - cm.weights_per_gpu())
    assert cm.max_concurrency(1024 + 256) >= 1


def test_zaya_cca_keeps_its_convolution_and_delayed_value_state_per_sequence():
    """Newcomer trial: ZAYA's CCA layers keep, per sequence, the q/k convolution's last (cca_time0 - 1) +
    (cca_time1 - 1) columns of the (heads + kv_heads) x head_dim channels (ZayaCCAProjection.conv_kernel_size,
    cache.update_conv_state) and the last token's v_proj_delayed output, kv_heads x head_dim / 2
    (cache.update_recurrent_state): fixed_bytes_per_sequence was 0."""
    import json as _json
    from pathlib import Path

    from scorer.architecture import normalize
    from scorer.kvcache import kv_cache, per_sequence_bytes
    flips = _json.loads((Path(__file__).parent / "data" / "meta_oracle_flips.json").read_text())
    raw = dict(next(v for v in flips["variants"] if v["name"] == "flip_tie_zaya")["config"])
    raw.update(cca_time0=3, cca_time1=2, torch_dtype="bfloat16")
    h, kv, hd, n = raw["num_attention_heads"], raw["num_key_value_heads"], raw["head_dim"], raw["num_hidden_layers"]
    per_layer = ((h + kv) * hd * ((3 - 1) + (2 - 1)) + kv * hd // 2) * 2  # elements x bf16 bytes
    arch = normalize(raw)
    kv_doc = kv_cache(arch, kv_dtype="bf16", policy="vllm")
    assert kv_doc.fixed_bytes_per_sequence == n * per_layer
    assert any("ZAYA CCA" in note for note in kv_doc.notes)
    kv_bytes = n * 2 * kv * hd * 2  # K and V per token, every layer full attention
    for policy in ("vllm", "window", "vllm-unified"):
        got = per_sequence_bytes(arch, 4096, "bf16", policy, tp=1)
        assert got == n * per_layer + kv_bytes * 4096, policy
    assert per_sequence_bytes(arch, 4096, "bf16", "window", tp=2) == (n * per_layer + kv_bytes * 4096) // 2
