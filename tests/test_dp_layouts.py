"""Attention data parallelism with expert parallelism in the layout search (issue 14 newcomer trial: "MLA DP not
costed in vLLM regimes"). vLLM (``--data-parallel-size N --enable-expert-parallel``) and SGLang
(``--enable-dp-attention``) run attention per DP rank over its own sequences while the experts are spread over all
N GPUs: each rank holds only its sequences' KV. Under TP an MLA latent (one per token, shared by all heads) is
stored whole on every rank, so DP N holds N times the sequences of TP N, less what the replicated attention
weights take."""

from __future__ import annotations

from transformers import DeepseekV3Config

from scorer.architecture import normalize
from scorer.costmodel import CostModel, Layout
from scorer.hardware import get_gpu, get_precision
from scorer.params import count_params
from scorer.regimes import candidate_layouts, run_regimes
from scorer.sources import load_source


def _deepseek_v3():
    cfg = DeepseekV3Config(hidden_size=7168, intermediate_size=18432, moe_intermediate_size=2048,
                           num_hidden_layers=61, num_attention_heads=128, num_key_value_heads=128,
                           n_routed_experts=256, n_shared_experts=1, num_experts_per_tok=8, first_k_dense_replace=3,
                           q_lora_rank=1536, kv_lora_rank=512, qk_rope_head_dim=64, qk_nope_head_dim=128,
                           v_head_dim=128, vocab_size=129280, n_group=8, topk_group=4, max_position_embeddings=163840)
    d = cfg.to_dict()
    d["architectures"] = ["DeepseekV3ForCausalLM"]
    return normalize(d)


def _maker(arch, gpu="H200-SXM", precision="fp8_block", framework="vllm"):
    params, g, p = count_params(arch), get_gpu(gpu), get_precision(precision)
    cms = {}

    def make(lay):
        key = (lay.tp, lay.pp, lay.ep, lay.dp)
        if key not in cms:
            cms[key] = CostModel(arch, params, g, p, lay, "bf16", framework)
        return cms[key]
    return make


def test_mla_moe_tries_attention_dp_and_holds_n_times_the_sequences():
    arch = _deepseek_v3()
    make = _maker(arch)
    layouts = {(lay.tp, lay.ep, lay.dp) for lay in candidate_layouts(make, arch)}
    assert (1, 8, 8) in layouts and (8, 8, 1) in layouts
    tp8, dp8 = make(Layout(tp=8, ep=8)), make(Layout(tp=1, ep=8, dp=8))
    ctx = 2048
    per_seq = 61 * (512 + 64) * 2 * ctx  # the latent and rope key, bf16: the same on every rank in both layouts
    assert tp8.kv_bytes_per_sequence(ctx) == per_seq == dp8.kv_bytes_per_sequence(ctx)
    assert tp8.max_concurrency(ctx) == int(tp8.kv_budget_bytes() // per_seq)
    assert dp8.max_concurrency(ctx) == int(dp8.kv_budget_bytes() // per_seq) * 8
    assert dp8.max_concurrency(ctx) > 4 * tp8.max_concurrency(ctx)
    # the attention weights are whole on every DP rank, sharded 8 ways under TP: DP's rank holds more weights
    assert dp8.weights_per_gpu() > tp8.weights_per_gpu()


def test_the_throughput_regime_can_pick_attention_dp():
    arch = _deepseek_v3()
    regimes = run_regimes(_maker(arch), arch, "H200-SXM", "fp8_block", 3.0)
    picked = {r.id: r.prediction for r in regimes if r.prediction is not None}
    assert picked["throughput"].dp == 8 and picked["throughput"].tp == 1
    assert picked["latency"].dp == 1  # one user: TP splits the step, DP would not


def test_no_attention_dp_where_tensor_parallelism_replicates_no_kv():
    for name in ("mixtral-8x7b", "llama-3.1-8b"):  # 8 KV heads: TP 8 splits them; a dense model has no EP
        raw = load_source(f"example:{name}")
        arch = normalize(raw.config, raw.quant_config)
        assert all(lay.dp == 1 for lay in candidate_layouts(_maker(arch, precision="bf16"), arch)), name
