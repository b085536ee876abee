"""DeepSeek / GLM / Mistral MoE families against transformers' modeling code (issue 12).

Two kinds of evidence, neither needing torch:

* tests/data/deepseek_oracle.json — for deepseek_v2, deepseek_v3, deepseek_v32, glm_moe_dsa, glm4_moe,
  glm4_moe_lite, mistral4, mistral_large4, longcat_flash and deepseek_v4, the default config and two resized
  variants built through the config class, with the parameters of the CausalLM class built on torch's meta
  device (the command and versions are in the file: ``scripts/deepseek_oracle.py``);
* module-layout formulas written out here from the transformers 5.x classes they cite.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from transformers import (DeepseekV3Config, DeepseekV4Config, DeepseekV32Config, GlmMoeDsaConfig, LongcatFlashConfig,
                          MistralLarge4Config)

from scorer.architecture import CompressedAttentionSpec, MLASpec, MoEMLP, normalize
from scorer.architecture.families import VERIFIED
from scorer.gemms import inventory
from scorer.kvcache import kv_cache, per_sequence_bytes
from scorer.params import count_params

ORACLE = json.loads((Path(__file__).parent / "data" / "deepseek_oracle.json").read_text())
CASES = ORACLE["cases"]


def arch_of(cfg, cls: str):
    d = json.loads(cfg.to_json_string(use_diff=False))
    d["architectures"] = [cls]
    return normalize(d)


# ------------------------------------------------------------------ the meta-device oracle


def zero_expert_share(cfg: dict) -> int:
    """The oracle's active count takes all top_k picks as real experts; with LongCat's zero-compute experts a token
    uses top_k x E / (E + Z) real ones on average (the stated assumption, tests/test_zero_experts.py): the expert
    weights of the other picks, per MoE layer (LongcatFlash: one MoE block in each of num_layers layers)."""
    z = cfg.get("zero_expert_num") or 0
    if not z:
        return 0
    e, k = cfg["n_routed_experts"], cfg["moe_topk"]
    per_expert = 3 * cfg["hidden_size"] * cfg["expert_ffn_hidden_size"]
    return cfg["num_layers"] * (k * per_expert - round(k * e / (e + z) * per_expert))


def test_oracle_records_command_versions_and_covers_every_type():
    assert ORACLE["command"].startswith("DEPLOYSHEET_NO_CACHE=1 python scripts/deepseek_oracle.py")
    assert ORACLE["versions"]["transformers"] and ORACLE["versions"]["torch"]
    types = {c["model_type"] for c in CASES}
    assert types == {"deepseek_v2", "deepseek_v3", "deepseek_v32", "glm_moe_dsa", "glm4_moe", "glm4_moe_lite",
                     "mistral4", "mistral_large4", "longcat_flash", "deepseek_v4"}
    assert all(sum(c["model_type"] == t for c in CASES) >= 3 for t in types)  # default + two resized variants
    assert not any(c["meta_has_mtp_modules"] for c in CASES)  # transformers instantiates no MTP layer


@pytest.mark.parametrize("case", CASES, ids=[f"{c['model_type']}-{c['variant']}" for c in CASES])
def test_counts_match_the_meta_device(case):
    arch = normalize(copy.deepcopy(case["config"]))
    p = count_params(arch)
    assert p.total == case["total"]
    if case["active"] is not None:
        assert p.active == case["active"] - zero_expert_share(case["config"])
    assert (p.vision or 0) == case["vision"]
    assert arch.unmodelled_keys == []
    if case["active"] is None:  # DeepseekV2Config's num_experts_per_tok defaults to None: no routing width
        assert p.active == p.total and any("num_experts_per_tok absent" in g for g in arch.guesses)
    else:
        assert arch.guesses == []
    verified = case["model_type"] in VERIFIED
    assert arch.structure_verified == verified
    assert verified  # longcat_flash too: its phantom zero-expert rows are derived in test_longcat_flash_layout


def test_corpus_deepseek_configs_match():
    for row in ORACLE["corpus"]:
        assert row["ours_total"] == row["total"], row["config"]
    kimi = next(r for r in ORACLE["corpus"] if r["model_type"] == "kimi_k2")
    assert kimi["guesses"]  # kimi_k2 is unknown to transformers: read as deepseek_v3, labelled estimated


# ------------------------------------------------------------------ layouts written out


def mla_params(h, heads, q_lora, kv_lora, nope, rope, v, bias=False):
    """DeepseekV3Attention: q_a_proj (+bias), q_a_layernorm, q_b_proj; kv_a_proj_with_mqa (+bias),
    kv_a_layernorm, kv_b_proj; o_proj (+bias)."""
    q = h * q_lora + q_lora + q_lora * heads * (nope + rope) if q_lora else h * heads * (nope + rope)
    kv = h * (kv_lora + rope) + kv_lora + kv_lora * heads * (nope + v)
    o = heads * v * h
    if bias:
        q += q_lora if q_lora else 0
        kv += kv_lora + rope
        o += h
    return q + kv + o


def dsa_indexer(h, q_lora, n, d):
    """DeepseekV32Indexer: wq_b (q_lora -> n*d), wk (h -> d), k_norm (LayerNorm d: weight + bias), weights_proj."""
    return q_lora * n * d + h * d + 2 * d + h * n


def moe(h, experts, inter, shared):
    """DeepseekV3MoE: experts (gate_up + down), gate (router weight E x h), shared_experts MLP (shared x inter)."""
    return experts * 3 * h * inter + experts * h + 3 * h * inter * shared


def test_deepseek_v32_default_layout():
    cfg = DeepseekV32Config()
    h, L, V = 7168, 61, 129280
    attn = mla_params(h, 128, 1536, 512, 128, 64, 128) + dsa_indexer(h, 1536, 64, 128)
    dense = 3 * h * 18432
    total = 2 * V * h + h + L * (attn + 2 * h) + 3 * dense + (L - 3) * moe(h, 256, 2048, 1)
    arch = arch_of(cfg, "DeepseekV32ForCausalLM")
    assert count_params(arch).total == total == 671_877_929_216
    kv = kv_cache(arch, "bf16")  # latent 512 + rope 64 + the indexer key 128, bf16
    # latent + rope key at bf16; the indexer key as fp8 + a float32 scale per 128: 128 + 4 = 132 B
    assert kv.bytes_per_token == L * ((512 + 64) * 2 + 132)


def test_glm_moe_dsa_shared_indexer_layers():
    """GlmMoeDsaAttention: indexer_types "shared" layers have no indexer and reuse the previous top-k."""
    types = ["full", "shared", "shared", "full"]
    cfg = GlmMoeDsaConfig(num_hidden_layers=4, hidden_size=512, num_attention_heads=8, kv_lora_rank=64,
                          q_lora_rank=128, qk_nope_head_dim=32, qk_rope_head_dim=16, v_head_dim=32,
                          n_routed_experts=4, num_experts_per_tok=2, moe_intermediate_size=64, intermediate_size=256,
                          first_k_dense_replace=1, vocab_size=1000, index_n_heads=4, index_head_dim=16,
                          indexer_types=types)
    arch = arch_of(cfg, "GlmMoeDsaForCausalLM")
    h = 512
    attn = mla_params(h, 8, 128, 64, 32, 16, 32)
    ix = dsa_indexer(h, 128, 4, 16)
    total = 2 * 1000 * h + h + 4 * (attn + 2 * h) + 2 * ix + 3 * h * 256 + 3 * moe(h, 4, 64, 1)
    assert count_params(arch).total == total
    shared = [lay.mixer.indexer.shared for lay in arch.layers]
    assert shared == [t == "shared" for t in types]
    kv = kv_cache(arch, "bf16")
    # an own indexer key of 16 as fp8 + scale: 16 x (1 + 4 / 128) = 16.5 B, whole bytes per layer (floor)
    assert kv.bytes_per_token == 2 * int((64 + 16) * 2 + 16.5) + 2 * (64 + 16) * 2
    # the derived schedule: index_topk_freq / index_skip_topk_offset are read through the config class
    arch = arch_of(GlmMoeDsaConfig(num_hidden_layers=6, index_topk_freq=2, index_skip_topk_offset=1,
                                   first_k_dense_replace=1), "GlmMoeDsaForCausalLM")
    assert [lay.mixer.indexer.shared for lay in arch.layers] == [False, True, False, True, False, True]
    assert arch.unmodelled_keys == []


def test_mla_attention_bias_on_the_down_projections():
    """attention_bias adds biases to q_a_proj, kv_a_proj_with_mqa and o_proj (never q_b_proj / kv_b_proj)."""
    kw = dict(num_hidden_layers=2, hidden_size=256, num_attention_heads=4, kv_lora_rank=32, q_lora_rank=64,
              qk_nope_head_dim=16, qk_rope_head_dim=8, v_head_dim=16, n_routed_experts=4, num_experts_per_tok=2,
              moe_intermediate_size=32, intermediate_size=128, first_k_dense_replace=1, vocab_size=100, n_group=1,
              topk_group=1)
    plain = count_params(arch_of(DeepseekV3Config(**kw), "DeepseekV3ForCausalLM")).total
    biased = count_params(arch_of(DeepseekV3Config(attention_bias=True, **kw), "DeepseekV3ForCausalLM")).total
    assert biased - plain == 2 * (64 + 32 + 8 + 256)


def test_deepseek_v3_mtp_counts_the_checkpoint_copies():
    """model.layers.61.*: the block, eh_proj, enorm, hnorm, shared_head.norm, embed_tokens, shared_head.head."""
    arch = arch_of(DeepseekV3Config(), "DeepseekV3ForCausalLM")
    p = count_params(arch)
    h, V = 7168, 129280
    block = mla_params(h, 128, 1536, 512, 128, 64, 128) + moe(h, 256, 2048, 1) + 2 * h
    assert p.mtp == block + 2 * h * h + 3 * h + 2 * V * h
    assert p.mtp_copies == 2 * V * h and arch.mtp.copies == ["embed_tokens", "shared_head_head"]


def v4_layer(h, heads, d, q_lora, o_groups, o_lora, kind, rate, n_ix, d_ix, hc, experts, inter):
    """DeepseekV4DecoderLayer: attention (+ compressor, indexer), the MoE block, two norms, two hyper-connections."""
    attn = h * q_lora + q_lora + q_lora * heads * d + h * d + d + heads * d * o_lora + o_groups * o_lora * h + heads
    if kind == "hca":  # DeepseekV4HCACompressor
        attn += 2 * h * d + rate * d + d
    elif kind == "csa":  # DeepseekV4CSACompressor + DeepseekV4Indexer (+ scorer.weights_proj)
        attn += 2 * h * 2 * d + rate * 2 * d + d
        attn += 2 * h * 2 * d_ix + rate * 2 * d_ix + d_ix + q_lora * n_ix * d_ix + h * n_ix
    mlp = experts * 3 * h * inter + experts * h + 3 * h * inter  # experts, router weight, one shared MLP
    mix = (2 + hc) * hc
    return attn + mlp + 2 * h + 2 * (mix * hc * h + mix + 3)


def test_deepseek_v4_default_layout_and_cache():
    cfg = DeepseekV4Config()
    arch = arch_of(cfg, "DeepseekV4ForCausalLM")
    h, V, hc = 4096, 129280, 4
    kinds = ["hca", "hca"] + ["csa" if i % 2 else "hca" for i in range(41)]
    rates = {"hca": 128, "csa": 4}
    layers = sum(v4_layer(h, 64, 512, 1024, 8, 1024, k, rates[k], 64, 128, hc, 256, 2048) for k in kinds)
    total = 2 * V * h + h + (hc * hc * h + hc + 1) + layers  # embed, lm_head, norm, hc_head
    p = count_params(arch)
    assert p.total == total == 284_325_869_015
    assert [lay.kind_label for lay in arch.layers] == kinds
    assert all(isinstance(lay.mixer, CompressedAttentionSpec) for lay in arch.layers)
    # MTP: a block like the last layer, e_proj, h_proj, enorm, hnorm, norm, its hyper-head; embedding shared
    last = v4_layer(h, 64, 512, 1024, 8, 1024, kinds[-1], rates[kinds[-1]], 64, 128, hc, 256, 2048)
    assert p.mtp == last + 2 * h * h + 3 * h + hc * hc * h + hc + 1 and p.mtp_copies == 0
    # cache per context token: CSA (512 + 128) / 4 values, HCA 512 / 128, in bf16
    kv = kv_cache(arch, "bf16")
    assert kv.bytes_per_token == 20 * (512 + 128) // 4 * 2 + 23 * 512 // 128 * 2
    by = {k.kind: k for k in kv.by_kind}
    assert by["csa"].state_bytes_per_sequence_per_layer == (128 * 512 + 4 * 6 * 512 + 4 * 6 * 128) * 2
    assert by["hca"].state_bytes_per_sequence_per_layer == (128 * 512 + 128 * 2 * 512) * 2
    assert kv.fixed_bytes_per_sequence == 20 * by["csa"].state_bytes_per_sequence_per_layer \
        + 23 * by["hca"].state_bytes_per_sequence_per_layer
    assert per_sequence_bytes(arch, 131072) == 131072 * kv.bytes_per_token + kv.fixed_bytes_per_sequence
    assert kv_cache(arch, "bf16", policy="window").bytes_per_token == kv.bytes_per_token  # the window is fixed


def test_deepseek_v4_sliding_layers_and_gemms():
    cfg = DeepseekV4Config(num_hidden_layers=3, hidden_size=256, num_attention_heads=4, head_dim=64, q_lora_rank=64,
                           n_routed_experts=4, num_experts_per_tok=2, moe_intermediate_size=32, vocab_size=100,
                           o_groups=2, o_lora_rank=32, index_n_heads=2, index_head_dim=16, index_topk=8,
                           sliding_window=16, layer_types=["sliding_attention", "compressed_sparse_attention",
                                                           "heavily_compressed_attention"])
    arch = arch_of(cfg, "DeepseekV4ForCausalLM")
    assert [lay.kind_label for lay in arch.layers] == ["swa", "csa", "hca"]
    kv = kv_cache(arch, "bf16")
    # HCA at rate 128: 64 / 128 values per token, 1 byte in bf16
    assert {k.kind: k.bytes_per_token_per_layer for k in kv.by_kind} == {"swa": 0, "csa": (64 + 16) // 4 * 2,
                                                                          "hca": 64 * 2 // 128}
    # every linear of the attention is a GEMM; what is left are the norms, sinks and position biases
    p = count_params(arch)
    gemm_attn = sum(g.params for g in inventory(arch) if g.component == "attention")
    rest = 3 * (64 + 64 + 4)  # q_a_norm, kv_norm, sinks per layer
    rest += 4 * 2 * 64 + 64 + 4 * 2 * 16 + 16  # CSA position_bias and kv_norm, its indexer's
    rest += 128 * 64 + 64  # HCA position_bias and kv_norm
    assert gemm_attn + rest == p.by_component["attention"]


def test_longcat_flash_layout():
    """LongcatFlashDecoderLayer: two MLA sublayers with dense MLPs and two norms each, one shortcut MoE whose router
    also scores the zero (identity) experts. transformers 5.x allocates gate_up_proj for E + Z experts; those Z
    rows (phantom_zero_expert_params in the oracle) are not counted: LongCat-Flash is 560B."""
    arch = arch_of(LongcatFlashConfig(), "LongcatFlashForCausalLM")
    h, n, V = 6144, 28, 131072
    attn = mla_params(h, 64, 1536, 512, 128, 64, 128)
    block = 2 * (attn + 3 * h * 12288 + 2 * h) + 512 * 3 * h * 2048 + (512 + 256) * h
    total = 2 * V * h + h + n * block
    assert count_params(arch).total == total == 560_664_958_976
    default = next(c for c in CASES if c["model_type"] == "longcat_flash" and c["variant"] == 0)
    assert default["total"] == total and default["phantom_zero_expert_params"] == n * 256 * 2 * 2048 * h
    assert arch.num_layers == 3 * n and sum(isinstance(lay.ffn, MoEMLP) for lay in arch.layers) == n
    assert kv_cache(arch, "bf16").bytes_per_token == 2 * n * (512 + 64) * 2
    # counted exactly once the meta device's phantom rows are taken off (tests/test_oracle_sweep.py ORACLE_OVERCOUNT)
    assert "longcat_flash" in VERIFIED


def test_mistral_large4_kv_sharing_and_nope_layers():
    """MistralLarge4TextAttention: a KV-shared layer has no kv_a_proj_with_mqa / kv_a_layernorm and no latent
    cache (its own indexer key unless the indexer is shared); a NoPE layer caches kv_lora_rank only."""
    text = dict(num_hidden_layers=4, hidden_size=256, num_attention_heads=4, kv_lora_rank=32, qk_nope_head_dim=16,
                qk_rope_head_dim=8, v_head_dim=16, n_routed_experts=4, num_experts_per_tok=2,
                moe_intermediate_size=32, intermediate_size=128, vocab_size=100, index_n_heads=2, index_head_dim=16,
                no_rope_layers=[1, 0, 1, 1], kv_source_layers=[0, 0, 2, 2],
                indexer_types=["full", "full", "full", "shared"])
    arch = arch_of(MistralLarge4Config(text_config=text), "MistralLarge4ForConditionalGeneration")
    mla = [lay.mixer for lay in arch.layers]
    assert all(isinstance(m, MLASpec) for m in mla)
    assert [m.kv_shared for m in mla] == [False, True, False, True]
    assert [m.qk_rope_head_dim for m in mla] == [8, 0, 8, 8]
    kv = kv_cache(arch, "bf16")
    # indexer keys of 16 as fp8 + scale (16.5 B, whole bytes per layer), the latents at bf16
    assert kv.bytes_per_token == int((32 + 8) * 2 + 16.5) + int(16.5) + int((32 + 8) * 2 + 16.5) + 0
    # layer 1 (shared KV, NoPE): q_proj, kv_b_proj with nope 16 + 8, o_proj, softmax scaling, its indexer
    h = 256
    ix = h * 2 * 16 + h * 16 + 2 * 16 + h * 2 + 2 * h + 2 * 2  # wq_b from hidden, wk, k_norm, weights_proj, ...
    one = h * 4 * 24 + 32 * 4 * (24 + 16) + 4 * 16 * h + 2 * 4 + ix
    from scorer.params import attention_params
    assert attention_params(mla[1], h) == one
    assert arch.vision is not None  # the Pixtral tower and projector (kinds/vision/towers.py mistral3)


def test_cost_model_reads_compressed_and_sparse_caches():
    """Decode reads what the layers keep: DeepSeek-V4's window and compressed entries (CSA: the index_topk picked
    ones, after its indexer scores every compressed key) against V3.2's index_topk latents plus a full indexer
    scan; a GLM-5 "shared" layer has no indexer scan of its own."""
    from scorer.costmodel import CostModel, Layout
    from scorer.hardware import get_gpu, get_precision

    def cm(arch):
        return CostModel(arch, count_params(arch), get_gpu("H100-SXM"), get_precision("fp8"), Layout(tp=8), "bf16",
                         "vllm", None, set(), inventory(arch))

    v4 = cm(arch_of(DeepseekV4Config(), "DeepseekV4ForCausalLM"))
    v32 = cm(arch_of(DeepseekV32Config(), "DeepseekV32ForCausalLM"))
    ctx = 131072
    mem = {k: m.decode_features(8, ctx).attn_memory for k, m in (("v4", v4), ("v32", v32))}
    assert 0 < mem["v4"] < mem["v32"] / 5
    for m in (v4, v32):
        assert m.decode_step(8, ctx)["total"] > 0 and m.prefill(1, 8192)["total"] > 0
    glm = arch_of(GlmMoeDsaConfig(num_hidden_layers=4, indexer_types=["full", "shared", "shared", "full"],
                                  first_k_dense_replace=1), "GlmMoeDsaForCausalLM")
    terms = cm(glm)._decode_attention_terms()
    assert len(terms) == 3  # full layers: latent + indexer scan; shared layers: latent only
    assert v4.kv_bytes_per_sequence(ctx) == per_sequence_bytes(v4.arch, ctx, "bf16", "vllm", 8) / 1


def test_the_flashmla_finding_names_both_latent_terms():
    """Newcomer trial: a GLM-5-Next config with qk_rope_head_dim 0 read "latent 512 (needs kv_lora_rank 512 + rope
    64)" although its kv_lora_rank is 512: the finding now names both terms of the cached width."""
    from scorer.fit import attention_fit
    cfg = {"model_type": "deepseek_v3", "architectures": ["DeepseekV3ForCausalLM"], "hidden_size": 1024,
           "num_hidden_layers": 2, "num_attention_heads": 8, "num_key_value_heads": 8, "kv_lora_rank": 512,
           "q_lora_rank": 256, "qk_nope_head_dim": 128, "qk_rope_head_dim": 0, "v_head_dim": 128,
           "intermediate_size": 2048, "moe_intermediate_size": 256, "n_routed_experts": 4, "num_experts_per_tok": 2,
           "first_k_dense_replace": 2, "vocab_size": 1000, "max_position_embeddings": 4096}
    fit = attention_fit(normalize(cfg))
    assert "kv_lora_rank 512 + qk_rope_head_dim 0 = 512 cached per token" in fit.mla_kernel
