"""Hardware-fit and quantization-readiness cases from public bug reports (issue 3), each with its arithmetic."""

from __future__ import annotations

import json

from transformers import DeepseekV3Config, FalconConfig, LlamaConfig

from scorer.architecture import normalize
from scorer.fit import attention_fit, parallelism_fit
from scorer.gemms import inventory
from scorer.quant import check, readiness
from scorer.sheet import build_sheet
from scorer.sources import Provenance, RawModel


def arch_of(cfg, archs):
    cfg.architectures = archs
    return normalize(json.loads(cfg.to_json_string()))


def status(q, fmt, tp, engine="vllm"):
    return next(e for e in q.matrix if e.format == fmt and e.tp == tp and e.engine == engine)


def llama(**kw):
    base = dict(hidden_size=4096, intermediate_size=11008, num_hidden_layers=2, num_attention_heads=32,
                num_key_value_heads=32, vocab_size=32000)
    base.update(kw)
    return arch_of(LlamaConfig(**base), ["LlamaForCausalLM"])


def test_fp8_block_intermediate_18432_at_tp32_and_tp16():
    arch = arch_of(DeepseekV3Config(hidden_size=7168, intermediate_size=18432, moe_intermediate_size=2048,
                                    num_hidden_layers=4, num_attention_heads=128, num_key_value_heads=128,
                                    n_routed_experts=256, num_experts_per_tok=8, first_k_dense_replace=3,
                                    q_lora_rank=1536, kv_lora_rank=512, qk_rope_head_dim=64, qk_nope_head_dim=128,
                                    v_head_dim=128, vocab_size=129280, n_group=8, topk_group=4),
                   ["DeepseekV3ForCausalLM"])
    q = readiness(arch, inventory(arch))
    assert 18432 // 32 == 576 and 576 % 128 == 64
    e32 = status(q, "fp8_block", 32)
    assert e32.status == "not_ready" and "576" in e32.reason and "% 128 = 64" in e32.reason
    assert 18432 // 16 == 1152 and 1152 % 128 == 0
    assert status(q, "fp8_block", 16).status != "not_ready"


def test_awq_group128_intermediate_11008():
    q = readiness(llama(), inventory(llama()))
    assert 11008 // 4 == 2752 and 2752 % 128 == 64
    e4 = status(q, "int4", 4)
    assert e4.status == "not_ready" and "2752" in e4.reason
    assert 11008 // 2 == 5504 and 5504 % 128 == 0
    assert status(q, "int4", 2).status == "ready"
    # TensorRT-LLM's ModelOpt export asserts the same (K/TP) % 128
    assert status(q, "int4", 4, "trtllm").status == "not_ready"


def test_nvfp4_dimension_1856_at_tp8_and_tp4():
    arch = llama(intermediate_size=1856, hidden_size=1024, num_attention_heads=8, num_key_value_heads=8)
    q = readiness(arch, inventory(arch))
    assert 1856 // 8 == 232 and 232 % 16 == 8
    e8 = status(q, "nvfp4", 8)
    assert e8.status == "not_ready" and "232" in e8.reason
    assert 1856 // 4 == 464 and 464 % 16 == 0
    assert status(q, "nvfp4", 4).status != "not_ready"


def test_fixed_dims_4544_576_2112_need_padding_for_fp8_block():
    falcon = arch_of(FalconConfig(hidden_size=4544, num_attention_heads=71, num_hidden_layers=2, vocab_size=65024,
                                  multi_query=True, new_decoder_architecture=False, parallel_attn=True, bias=False),
                     ["FalconForCausalLM"])
    assert 4544 % 128 == 64
    qkv = next(g for g in inventory(falcon) if g.name == "attn.qkv_proj")
    st, why = check("fp8_block", "vllm", qkv, 1)
    # K = 4544: the 1x128 activation groups need K % 128 (and the merged q part 4544 % 128 = 64) -> refused
    assert st == "not_ready" and "4544" in why
    ds = arch_of(DeepseekV3Config(hidden_size=7168, intermediate_size=18432, moe_intermediate_size=2048,
                                  num_hidden_layers=1, num_attention_heads=128, num_key_value_heads=128,
                                  n_routed_experts=256, num_experts_per_tok=8, first_k_dense_replace=1,
                                  q_lora_rank=1536, kv_lora_rank=512, qk_rope_head_dim=64, qk_nope_head_dim=128,
                                  v_head_dim=128, vocab_size=129280, n_group=8, topk_group=4),
                 ["DeepseekV3ForCausalLM"])
    fused = next(g for g in inventory(ds) if g.name == "attn.fused_qkv_a_proj")
    assert fused.n == 1536 + 512 + 64 == 2112 and 2112 % 128 == 64 and 576 % 128 == 64
    st, why = check("fp8_block", "vllm", fused, 8)  # replicated: the unaligned last part (576) is allowed, padded
    assert st == "padded" and "2112" in why


def test_head_size_100_refused_by_attention_kernels():
    arch = llama(hidden_size=3200, num_attention_heads=32, num_key_value_heads=32, intermediate_size=8704)
    att = attention_fit(arch)
    assert 3200 // 32 == 100 and 100 % 8 == 4
    assert att.fa2.startswith("unsupported") and att.flashinfer_head_dim.startswith("unsupported")
    assert att.fa4_blackwell.startswith("rejected")


def test_vocab_50257_not_multiple_of_64_and_50304_offered():
    cfg = LlamaConfig(hidden_size=768, intermediate_size=3072, num_hidden_layers=2, num_attention_heads=12,
                      num_key_value_heads=12, vocab_size=50257)
    cfg.architectures = ["LlamaForCausalLM"]
    sheet = build_sheet(RawModel(config=json.loads(cfg.to_json_string()),
                                 provenance=Provenance(kind="local", source="t")))
    assert 50257 % 64 == 17 and 50304 % 64 == 0 and 50304 - 50257 == 47
    f = next(f for f in sheet.findings if f.rule == "T5")
    assert "50,304" in f.message and "not a multiple of 64" in f.message
    rec = next(r for r in sheet.recommendations if r.key == "vocab_size")
    assert rec.new == 50304 and rec.param_delta == 2 * 47 * 768  # embedding + untied lm_head rows


def test_parallelism_fit_t1_t2():
    falcon = arch_of(FalconConfig(hidden_size=4544, num_attention_heads=71, num_hidden_layers=2, vocab_size=65024,
                                  multi_query=True), ["FalconForCausalLM"])
    pf = parallelism_fit(falcon)
    assert pf.valid_tp == [1]  # 71 heads: no TP degree divides them (T1)
    gqa = llama(num_key_value_heads=8)
    rows = {r.tp: r for r in parallelism_fit(gqa).tp}
    assert rows[8].kv_mode == "split" and rows[16].kv_mode == "replicated" and rows[16].kv_replication == 2


def test_pp_stage_split_and_vocab_padding():
    from scorer.fit import pp_imbalance, pp_stages, vocab_padding
    assert pp_stages(61, 4) == [15, 15, 16, 15]  # vLLM get_pp_indices: remainder from the second-to-last stage
    assert pp_stages(32, 4) == [8, 8, 8, 8]
    assert pp_imbalance([1.0] * 61, 4) == round(16 / (61 / 4), 4)
    v = vocab_padding(50257)
    assert v.vllm_padded == 50304 and v.per_tp_rows[8] == 50304 // 8
    assert v.megatron_padded[2] == 50432  # next multiple of 128 x 2 = 256


def test_moe_layouts_and_ep_recommendation():
    from transformers import Qwen3MoeConfig
    arch = arch_of(Qwen3MoeConfig(hidden_size=4096, intermediate_size=12288, moe_intermediate_size=1536,
                                  num_hidden_layers=4, num_attention_heads=64, num_key_value_heads=4, head_dim=128,
                                  num_experts=128, num_experts_per_tok=8, vocab_size=151936),
                   ["Qwen3MoeForCausalLM"])
    q = readiness(arch, inventory(arch))
    e8 = status(q, "fp8_block", 8)
    assert 1536 // 8 == 192 and 192 % 128 == 64
    assert e8.status == "not_ready" and e8.ep_status == "ready"  # evidence E5: fails at TP8, works with EP
    assert status(q, "fp8_block", 4).status == "ready"  # 1536 / 4 = 384 = 3 x 128
    from scorer.recommend import layout_recommendations
    recs = layout_recommendations(q)
    assert any("fp8_block TP8" in r.unlocks for r in recs)
    pf = parallelism_fit(arch)
    eps = [lay for lay in pf.layouts if lay.ep == 8]
    assert eps and eps[0].clean  # 128 experts divide by 8, hidden 4096 is a DeepEP size
