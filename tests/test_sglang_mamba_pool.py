"""SGLang 0.5.23's hybrid Mamba / linear-attention memory pool, derived here from its source (default server args).

Source lines (sglang 0.5.23 wheel, sglang/srt/):

* mem_cache/kv_cache_configurator.py:2990-3060 ``_profile_available_bytes``: rest = free memory after the weights -
  pre-load memory x (1 - mem_fraction_static) (deploysheet's ``kv_budget_bytes``), then for a mambaish model
  ``rest = self._handle_max_mamba_cache(rest)`` (line 3040).
* kv_cache_configurator.py:3348-3386 (no --max-mamba-cache-size, no speculative decoding):
  ``mamba_budget = rest * r / (1 + r)`` with r = ``mamba_full_memory_ratio`` (arg_groups/fields/schedule.py:220-227,
  fallback 0.9); ``max_mamba_cache_size = int((mamba_budget - per_slot) // per_slot)``, per_slot =
  ``mamba_cache_per_req`` (+ extra_mamba_cache_bytes_per_req = 0, line 350); lines 3404-3409: the KV pool gets
  ``rest - (K + 1) * per_slot`` (the +1 padding slot, mem_cache/memory_pool.py:724, 750).
* configs/mamba_utils.py:115-125 ``mamba_cache_per_req`` = (conv numel x 2 (bf16, SGLANG_MAMBA_CONV_DTYPE) + SSM numel
  x 4 (float32 default, mamba2_state_dtype lines 47-104)) x mamba layers; lines 195-244 ``Mamba2StateShape.create``:
  n_groups extended by ``tp - n_groups`` when not divisible (lines 29-38), conv (conv_dim / tp, conv_kernel - 1) with
  conv_dim = intermediate + 2 x n_groups x state_size, SSM (heads / tp, head_dim, state_size). NemotronH:
  configs/nemotron_h.py:425-439; Qwen3-Next: configs/qwen3_next.py:288-313 (intermediate = value heads x value dim,
  n_groups = key heads, state_size = key dim, heads = value heads, head_dim = value dim).
* KV pool: model_executor/pool_configurator.py:229-236 (full-attention layers only), 637-647 (tokens = bytes //
  cell_size); a KV head per GPU at least (get_num_kv_heads).
* kv_cache_configurator.py:3062-3088 ``_calculate_mamba_ratio``: 3 (line 227) + get_mamba_tracking_slots
  (mem_cache/allocation_sizing.py:11-19: 2 with overlap) when the extra buffer is on; arg_groups/overrides.py:453-488
  resolves --mamba-radix-cache-strategy auto to extra_buffer for NemotronH / Qwen3-Next (lines 369-398 and 403-435)
  with the overlap scheduler on (its default), so the ratio is 5; an architecture outside those lists keeps 3.
* kv_cache_configurator.py:3119-3172 ``resolve_max_num_reqs``: min(clamp(int(tokens / context_len x 512), 2048,
  4096), tokens // 2, max_mamba_cache_size // ratio).
"""

from __future__ import annotations

import pytest
from transformers import NemotronHConfig, Qwen3NextConfig

from scorer.architecture import normalize
from scorer.costmodel import CostModel, Layout
from scorer.hardware import get_gpu, get_precision
from scorer.kvcache import (kv_cache, recurrent_state_bytes, sglang_mamba_pool, sglang_mamba_ratio,
                            sglang_state_slot_bytes)
from scorer.params import count_params
from scorer.sources import load_source

R = 0.9  # mamba_full_memory_ratio fallback (arg_groups/fields/schedule.py:225)


def _cm(arch, tp: int, gpu: str = "H100-SXM", framework: str = "sglang", pp: int = 1) -> CostModel:
    return CostModel(arch, count_params(arch), get_gpu(gpu), get_precision("bf16"), Layout(tp=tp, pp=pp),
                     framework=framework)


def _sglang(rest: float, slot: int, kv_per_token: int, ratio: int, context_len: int) -> dict:
    """SGLang's split, written out again: K slots, KV tokens, the request cap."""
    budget = rest * R / (1 + R)
    k = int((budget - slot) // slot)
    kv = rest - (k + 1) * slot
    tokens = int(kv // kv_per_token)
    running = min(max(min(int(tokens / context_len * 512), 4096), 2048), tokens // 2, k // ratio)
    return {"K": k, "kv": kv, "tokens": tokens, "running": running, "cap": k // ratio}


def _arch(path):
    raw = load_source(str(path))
    return normalize(raw.config, raw.quant_config)


# --------------------------------------------------------------------------------------------- NemotronH-56B
def test_nemotron_h_56b_tp8_follows_sglangs_split(corpus):
    """Nemotron-H-56B (54 Mamba2 layers, 10 attention layers of 8 KV heads x 128) on 8 H100s, bf16."""
    arch = _arch(corpus / "nvidia__Nemotron-H-56B-Base-8K")
    tp = 8
    # mamba_cache_per_req at TP8: conv (256 x 64 + 2 x 8 x 256) / 8 x 3 values x 2 B, SSM 256 / 8 x 64 x 256 x 4 B
    conv = (256 * 64 + 2 * 8 * 256) // tp * (4 - 1) * 2
    ssm = 256 // tp * 64 * 256 * 4
    slot = 54 * (conv + ssm)
    assert (conv, ssm, slot) == (15_360, 2_097_152, 114_075_648)
    assert sglang_state_slot_bytes(arch, tp) == slot
    kv_per_token = 10 * (8 // tp) * 128 * 2 * 2  # 5,120 B: one KV head per GPU, K and V, bf16
    ratio = 5  # 3 + 2 extra-buffer tracking slots (NemotronHForCausalLM, overlap scheduler on)
    assert sglang_mamba_ratio(arch) == ratio

    cm = _cm(arch, tp)
    rest = cm.kv_budget_bytes()
    want = _sglang(rest, slot, kv_per_token, ratio, 8192)
    pool = cm.sglang_mamba_pool()
    assert (pool.slots, pool.max_requests, pool.ratio) == (want["K"], want["cap"], ratio)
    assert pool.kv_bytes == pytest.approx(want["kv"])
    expected_4k = min(want["tokens"] // 4096, want["cap"])
    assert cm.max_concurrency(4096) == expected_4k
    assert cm.admission_cap() == want["running"]
    # ignoring the split (one state per sequence out of the whole budget) is ~9x too many at 4k
    ignored = int(rest // (recurrent_state_bytes(arch, tp) + 4096 * kv_per_token))
    assert expected_4k == want["cap"] < ignored / 5
    assert 30 <= expected_4k <= 60  # ~50 GiB of budget -> ~223 slots -> 44 requests (H100, this checkpoint)


# --------------------------------------------------------------------------------------------- Qwen3-Next-80B
def test_qwen3_next_80b_tp8_follows_sglangs_split(corpus):
    """Qwen3-Next-80B-A3B (36 gated delta-net layers: 16 key heads x 128, 32 value heads x 128, conv 4; 12 attention
    layers of 2 KV heads x 256) on 8 H100s, bf16."""
    arch = _arch(corpus / "Qwen__Qwen3-Next-80B-A3B-Thinking")
    tp = 8
    conv = (32 * 128 + 2 * 16 * 128) // tp * 3 * 2  # conv_dim = value_dim + 2 x key_dim
    ssm = 32 // tp * 128 * 128 * 4
    slot = 36 * (conv + ssm)
    assert slot == 36 * (6_144 + 262_144) == 9_658_368
    assert sglang_state_slot_bytes(arch, tp) == slot
    kv_per_token = 12 * 1 * 256 * 2 * 2  # 2 KV heads over 8 GPUs: one a GPU
    assert sglang_mamba_ratio(arch) == 5
    cm = _cm(arch, tp)
    want = _sglang(cm.kv_budget_bytes(), slot, kv_per_token, 5, 262144)
    assert cm.sglang_mamba_pool().slots == want["K"]
    for c in (4096, 32768, 131072):
        assert cm.max_concurrency(c) == min(want["tokens"] // c, want["cap"])
    assert cm.admission_cap() == want["running"]


# --------------------------------------------------------------------------------------------- always-run cases
def _nemotron_h(**extra) -> dict:
    """A small NemotronH: M*M* (two Mamba2, two attention), 16 heads x 32, d_state 64, 2 groups."""
    cfg = NemotronHConfig(hidden_size=512, num_hidden_layers=4, hybrid_override_pattern="M*M*", mamba_num_heads=16,
                          mamba_head_dim=32, ssm_state_size=64, n_groups=2, conv_kernel=4, expand=1,
                          num_attention_heads=8, num_key_value_heads=2, head_dim=64, intermediate_size=1024,
                          vocab_size=1000, max_position_embeddings=4096).to_dict()
    cfg["architectures"] = ["NemotronHForCausalLM"]
    cfg["torch_dtype"] = "bfloat16"
    cfg.pop("mamba_ssm_cache_dtype", None)
    cfg.update(extra)
    return cfg


def test_small_nemotron_h_split_by_hand():
    """TP1, a 10 GiB budget: slot = 2 x (576 x 3 x 2 + 16 x 32 x 64 x 4) = 271,360 B; KV 2 x 2 x 64 x 2 x 2 = 1,024
    B/token; K = int((10 GiB x 0.9 / 1.9 - slot) // slot) = int(18,743.17 - 1) = 18,742, 18,742 // 5 = 3,748
    requests; KV pool = 10 GiB - 18,743 x slot = 5,651,317,760 B = 5,518,865 tokens, 1,347 sequences of 4,096."""
    arch = normalize(_nemotron_h())
    slot = 2 * ((16 * 32 + 2 * 2 * 64) * 3 * 2 + 16 * 32 * 64 * 4)
    assert slot == 271_360 == sglang_state_slot_bytes(arch, 1)
    rest = 10 * 2 ** 30
    want = _sglang(rest, slot, 1024, 5, 4096)
    pool = sglang_mamba_pool(arch, rest, 1)
    assert (pool.slots, pool.max_requests) == (want["K"], want["cap"]) == (18_742, 3_748)
    assert pool.kv_bytes == rest - (18_742 + 1) * slot == 5_651_317_760
    from scorer.kvcache import max_sequences
    assert max_sequences(rest, arch, 4096, "bf16", "sglang", 1) == min(want["tokens"] // 4096, want["cap"]) == 1_347
    # ignoring the split (one state and 4,096 tokens per sequence out of the whole budget): 2,404
    assert rest // (slot + 4096 * 1024) == 2_404 > 1_347


def test_groups_extended_when_tp_does_not_divide_them():
    """n_groups 2 at TP4: Mamba2StateShape.create extends them to 4 (extra_groups_for_head_shards = tp - n_groups),
    so each GPU's conv window is (512 + 2 x 4 x 64) / 4 = 256 channels, not 576 / 4 = 144."""
    arch = normalize(_nemotron_h())
    slot = 2 * ((16 * 32 + 2 * 4 * 64) // 4 * 3 * 2 + 16 // 4 * 32 * 64 * 4)
    assert sglang_state_slot_bytes(arch, 4) == slot == 2 * (256 * 3 * 2 + 8_192 * 4)
    assert sglang_state_slot_bytes(arch, 4) > recurrent_state_bytes(arch, 4)


def test_ratio_by_architecture_and_pp():
    """Extra-buffer hybrids: 3 + 2 (overlap); under PP the overlap scheduler is turned off after the strategy is
    chosen (arg_groups/pipeline.py:225 then :302), 3 + 1; an architecture outside SGLang's radix-cache lists: 3."""
    assert sglang_mamba_ratio(normalize(_nemotron_h())) == 5
    assert sglang_mamba_ratio(normalize(_nemotron_h()), pp=2) == 4
    assert sglang_mamba_ratio(normalize(_nemotron_h(architectures=["NemotronHPuzzleXForCausalLM"]))) == 3


def test_ssm_dtype_bf16_halves_the_ssm_part_of_a_slot():
    arch = normalize(_nemotron_h(mamba_ssm_dtype="bfloat16"))
    assert sglang_state_slot_bytes(arch, 1) == 2 * ((16 * 32 + 2 * 2 * 64) * 3 * 2 + 16 * 32 * 64 * 2)


def test_qwen3_next_style_split_small():
    """A small Qwen3-Next (gated delta-net 3 of every 4 layers): 8 layers, 6 linear, 2 attention."""
    cfg = Qwen3NextConfig(hidden_size=256, num_hidden_layers=8, num_attention_heads=4, num_key_value_heads=2,
                          head_dim=64, linear_num_key_heads=4, linear_num_value_heads=8, linear_key_head_dim=32,
                          linear_value_head_dim=32, linear_conv_kernel_dim=4, intermediate_size=512,
                          moe_intermediate_size=128, shared_expert_intermediate_size=128, num_experts=4,
                          num_experts_per_tok=2, vocab_size=1000, max_position_embeddings=8192).to_dict()
    cfg["architectures"] = ["Qwen3NextForCausalLM"]
    cfg["torch_dtype"] = "bfloat16"
    arch = normalize(cfg)
    slot = 6 * ((8 * 32 + 2 * 4 * 32) * 3 * 2 + 8 * 32 * 32 * 4)
    assert sglang_state_slot_bytes(arch, 1) == slot
    rest = 4 * 2 ** 30
    want = _sglang(rest, slot, 2 * 2 * 64 * 2 * 2, 5, 8192)
    pool = sglang_mamba_pool(arch, rest, 1)
    assert (pool.slots, pool.max_requests) == (want["K"], want["cap"])


def test_the_policy_no_longer_calls_capacity_an_upper_bound():
    arch = normalize(_nemotron_h())
    kv = kv_cache(arch, "bf16", "sglang")
    assert "upper bound" not in kv.policy_description
    assert any("mamba_full_memory_ratio" in n and "// 5" in n for n in kv.notes)
    # the vLLM policy is untouched
    assert not any("mamba_full_memory_ratio" in n for n in kv_cache(arch, "bf16", "vllm").notes)


def test_vllm_framework_is_unchanged_by_the_split():
    arch = normalize(_nemotron_h())
    cm = _cm(arch, 1, framework="vllm")
    assert cm.sglang_mamba_pool() is None
    free, per = cm.kv_budget_bytes(), cm.kv_bytes_per_sequence(4096)
    assert cm.max_concurrency(4096) == int(free // per)


def test_sglang_wheel_states_the_constants():  # opt-in: DEPLOYSHEET_SGLANG_WHEEL=.../sglang-0.5.23-*.whl
    """Re-read the constants and architecture lists of data/engines.json sglang.mamba_pool from the wheel."""
    import json
    import os
    import re
    import zipfile
    from pathlib import Path
    path = os.environ.get("DEPLOYSHEET_SGLANG_WHEEL")
    if not path:
        pytest.skip("set DEPLOYSHEET_SGLANG_WHEEL to the engine's wheel (pip download ... --no-deps) to re-read it")
    with zipfile.ZipFile(path) as z:
        read = {m: z.read(f"sglang/srt/{m}").decode() for m in (
            "mem_cache/kv_cache_configurator.py", "arg_groups/fields/schedule.py", "arg_groups/overrides.py",
            "mem_cache/allocation_sizing.py")}
    c = json.loads((Path(__file__).resolve().parent.parent / "data" / "engines.json").read_text())
    c = c["engines"]["sglang"]["mamba_pool"]
    kvc = read["mem_cache/kv_cache_configurator.py"]
    assert f"MAMBA_CACHE_SIZE_MAX_RUNNING_REQUESTS_RATIO = {c['base_slots_per_request']}" in kvc
    assert ("* get_schedule().mamba_full_memory_ratio\n"
            "                / (1 + get_schedule().mamba_full_memory_ratio)") in kvc
    assert "(mamba_budget_bytes - replayssm_fixed_bytes - per_slot)\n                        // per_slot" in kvc
    sched = read["arg_groups/fields/schedule.py"]
    ratio_arg = sched.split("mamba_full_memory_ratio: A[")[1].split("] = None")[0]
    assert f"fallback={c['mamba_full_memory_ratio']}" in ratio_arg
    assert "return 2 if overlap else 1" in read["mem_cache/allocation_sizing.py"]
    ov = read["arg_groups/overrides.py"]

    def frozen(name):
        body = ov.split(f"{name} = frozenset(")[1].split(")\n")[0]
        return set(re.findall(r'"([^"]+)"', body))
    assert frozen("_MAMBA_RADIX_CACHE_ARCHS") | {"GraniteMoeHybridForCausalLM"} == set(c["radix_cache_archs"])
    assert frozen("_MAMBA_EXTRA_BUFFER_ARCHS") == set(c["extra_buffer_archs"])


def test_speculative_decoding_reserves_the_intermediate_states():
    """kv_cache_configurator.py:3355-3377 with speculative decoding (D = --speculative-num-draft-tokens, no
    replayssm): K = int((budget x 0.9 / 1.9 - slot x (1 + D)) // (slot x (1 + D / ratio))); the KV pool also gives
    up slot x (capped + 1) x D of intermediate states, capped = min(max(1, --max-running-requests // DP), K //
    ratio): K // ratio where the running cap is at least that. The small NemotronH of test_small_nemotron_h_split_by_hand
    at TP1, 10 GiB, ratio 5, D = 4 (EAGLE-3 with 3 speculative tokens)."""
    arch = normalize(_nemotron_h())
    slot, rest, d = 271_360, 10 * 2 ** 30, 4
    k = int((rest * R / (1 + R) - slot * (1 + d)) // (slot * (1 + d / 5)))
    pool = sglang_mamba_pool(arch, rest, 1, draft_tokens=d)
    assert pool.slots == k == 10_410  # (5,086,145,482 - 1,356,800) // 488,448; 18,742 without speculation
    assert pool.max_requests == k // 5
    assert pool.kv_bytes == rest - (k + 1) * slot - slot * (k // 5 + 1) * d
    from scorer.costmodel import speculative_setting
    spec = speculative_setting("eagle3", arch, 3)
    cm = CostModel(arch, count_params(arch), get_gpu("H100-SXM"), get_precision("bf16"), Layout(tp=1),
                   framework="sglang", speculative=spec)
    base = _cm(arch, 1)
    assert cm.sglang_mamba_pool().slots < base.sglang_mamba_pool().slots
    assert cm.sglang_mamba_pool().slots == int((cm.kv_budget_bytes() * R / (1 + R) - slot * 5) // (slot * 1.8))


def test_intermediate_states_are_reserved_for_the_running_cap():
    """kv_cache_configurator.py:3368-3375: capped_reqs = min(max(1, max_running_requests // attn_dp_size),
    max_mamba_cache_size // ratio); intermediate = per_req x (capped_reqs + 1) x D. The small NemotronH at 10 GiB,
    D = 4 (K = 10,410, K // 5 = 2,082)."""
    arch = normalize(_nemotron_h())
    slot, rest, d = 271_360, 10 * 2 ** 30, 4
    k = int((rest * R / (1 + R) - slot * (1 + d)) // (slot * (1 + d / 5)))
    for running, capped in ((48, 48), (0, 1), (2_082, 2_082), (50_000, 2_082)):
        pool = sglang_mamba_pool(arch, rest, 1, draft_tokens=d, running=running)
        assert pool.slots == k  # the joint solve does not depend on it
        assert pool.kv_bytes == rest - (k + 1) * slot - slot * (capped + 1) * d
    assert sglang_mamba_pool(arch, rest, 1, running=48).kv_bytes == rest - (18_742 + 1) * slot  # no drafts: no reserve


def _spec_cm(arch, **kw):
    from scorer.costmodel import speculative_setting
    return CostModel(arch, count_params(arch), get_gpu("H100-SXM"), get_precision("bf16"), Layout(tp=1),
                     framework="sglang", speculative=speculative_setting("eagle3", arch, 3), **kw)


def test_sglang_sets_48_running_requests_under_speculative_decoding():
    """arg_groups/speculative_hook.py _handle_eagle_family: an unset --max-running-requests becomes 48 under EAGLE /
    EAGLE3 / NEXTN; resolve_max_num_reqs then runs min(48 // attn DP, tokens // 2, K // ratio) a worker. Without
    speculation the default is min(clamp(tokens / context x 512, 2048, 4096), tokens // 2, K // ratio)."""
    arch = normalize(_nemotron_h())
    assert _spec_cm(arch).admission_cap() == 48
    assert _cm(arch, 1).admission_cap() >= 2048
    import json as _json

    from scorer.resources import data_dir
    llama = normalize(_json.loads((data_dir() / "examples" / "llama-3.1-8b" / "config.json").read_text()))
    assert _spec_cm(llama).admission_cap() == 48


def test_capacity_under_speculation_is_what_the_launched_engine_holds():
    """With --max-running-requests r (what deploysheet's launch sets: the running batch), SGLang reserves
    intermediate states for min(r, K // 5) requests; the KV pool left holds int(kv / (4,096 x 1,536 B)) sequences of
    4,096 tokens (1,024 B a token for the two attention layers, 512 for the EAGLE-3 head's one: pool_configurator.py
    adds cell_size x draft layers / full-attention layers). The capacity is the largest r the engine so launched holds (found here by walking every r), more
    than the pools reserved for K // 5 would hold."""
    arch = normalize(_nemotron_h())
    cm = _spec_cm(arch, engine_args={"max_num_seqs": 100_000})
    budget, slot, d = cm.kv_budget_bytes(), 271_360, 4
    k = int((budget * R / (1 + R) - slot * (1 + d)) // (slot * (1 + d / 5)))

    def held(r: int) -> int:
        kv = budget - (k + 1) * slot - slot * (min(max(1, r), k // 5) + 1) * d
        return min(int(kv // (4096 * 1536)), k // 5)
    best = max(r for r in range(1, k // 5 + 1) if held(r) >= r)
    assert held(k // 5) < best < k // 5  # KV-bound: the reserve the launch leaves out is worth sequences
    assert cm.max_concurrency(4096) == best


def test_predict_queues_beyond_sglangs_speculative_cap(tmp_path, capsys):
    """64 requests at once under SGLang with EAGLE-3 and no flag of the user's: 48 run (the reset), 16 wait; the
    launch command spells the 48 out."""
    import json as _json

    from scorer.cli import main
    from scorer.resources import data_dir
    out = tmp_path / "p.json"
    assert main(["predict", str(data_dir() / "examples" / "llama-3.1-8b"), "--framework", "sglang", "--isl", "1000",
                 "--osl", "200", "--concurrency", "64", "--speculative", "eagle3", "--format", "json",
                 "-o", str(out)]) == 0
    capsys.readouterr()
    p = _json.loads(out.read_text())
    assert (p["admission_cap"], p["queued"]) == (48, 16)
    argv = p["launch"]["argv"]
    assert argv[argv.index("--max-running-requests") + 1] == "48"
