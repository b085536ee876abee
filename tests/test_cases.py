"""The cases from public bug reports against similar tools (issue 2), each with its arithmetic.

Configs are built here from public architecture facts with transformers' own config classes, so
these tests need nothing outside the project.
"""

from __future__ import annotations

import json

from transformers import DeepseekV3Config, GemmaConfig, GptOssConfig, LlamaConfig, MistralConfig, MixtralConfig, \
    Qwen3Config

from scorer.architecture import normalize
from scorer.kvcache import kv_cache, per_sequence_bytes
from scorer.params import count_params

GIB = 2 ** 30


def arch_of(cfg, archs):
    cfg.architectures = archs
    return normalize(json.loads(cfg.to_json_string()))


def test_gemma_7b_explicit_head_dim():
    arch = arch_of(GemmaConfig(hidden_size=3072, num_attention_heads=16, head_dim=256, num_key_value_heads=16,
                               num_hidden_layers=28, vocab_size=256000, intermediate_size=24576,
                               tie_word_embeddings=True), ["GemmaForCausalLM"])
    h, heads, hd, kv, layers, vocab, inter = 3072, 16, 256, 16, 28, 256000, 24576
    attn = h * heads * hd + 2 * h * kv * hd + heads * hd * h  # q, k, v, o: head_dim 256 != 3072/16 = 192
    mlp = 3 * h * inter
    per_layer = attn + mlp + 2 * h  # two RMSNorm weights
    expected = vocab * h + layers * per_layer + h  # tied: no separate lm_head; final norm
    assert expected == 8_537_680_896
    assert count_params(arch).total == expected
    # KV: 28 layers x 2 (K, V) x 16 heads x 256 x 2 bytes
    assert kv_cache(arch, "bf16").bytes_per_token == 28 * 2 * 16 * 256 * 2 == 458_752


def test_qwen3_4b_tied():
    arch = arch_of(Qwen3Config(hidden_size=2560, num_attention_heads=32, num_key_value_heads=8, head_dim=128,
                               num_hidden_layers=36, vocab_size=151936, intermediate_size=9728,
                               tie_word_embeddings=True), ["Qwen3ForCausalLM"])
    h = 2560
    attn = h * 32 * 128 + 2 * h * 8 * 128 + 32 * 128 * h + 2 * 128  # + q_norm, k_norm over head_dim
    per_layer = attn + 3 * h * 9728 + 2 * h
    expected = 151936 * h + 36 * per_layer + h
    assert expected == 4_022_468_096
    assert count_params(arch).total == expected
    assert kv_cache(arch, "bf16").bytes_per_token == 36 * 2 * 8 * 128 * 2 == 147_456


def test_mistral_nemo_untied():
    arch = arch_of(MistralConfig(hidden_size=5120, num_attention_heads=32, head_dim=128, num_key_value_heads=8,
                                 num_hidden_layers=40, vocab_size=131072, intermediate_size=14336,
                                 sliding_window=None, tie_word_embeddings=False), ["MistralForCausalLM"])
    h = 5120
    per_layer = h * 4096 + 2 * h * 1024 + 4096 * h + 3 * h * 14336 + 2 * h
    expected = 2 * 131072 * h + 40 * per_layer + h  # embedding + untied lm_head
    assert expected == 12_247_782_400
    assert count_params(arch).total == expected
    assert kv_cache(arch, "bf16").bytes_per_token == 40 * 2 * 8 * 128 * 2 == 163_840


def llama31_70b():
    return arch_of(LlamaConfig(hidden_size=8192, intermediate_size=28672, num_hidden_layers=80,
                               num_attention_heads=64, num_key_value_heads=8, vocab_size=128256,
                               tie_word_embeddings=False), ["LlamaForCausalLM"])


def test_llama31_70b_bytes_once_and_gqa_kv_read():
    arch = llama31_70b()
    p = count_params(arch)
    h = 8192
    per_layer = h * h + 2 * h * 1024 + h * h + 3 * h * 28672 + 2 * h
    expected = 2 * 128256 * h + 80 * per_layer + h
    assert expected == p.total == 70_553_706_496
    # BF16 weights: 2 bytes per parameter, applied once, lm_head included
    assert round(p.total * 2 / GIB, 1) == 131.4
    # one decode step at 4,096 tokens reads 80 layers x 2 x 8 KV heads x 128 x 2 B x 4096 = 1.25 GiB (not 8x)
    read = per_sequence_bytes(arch, 4096, "bf16")
    assert read == 80 * 2 * 8 * 128 * 2 * 4096
    assert read / GIB == 1.25


def test_llama32_1b_tied_embeddings():
    arch = arch_of(LlamaConfig(hidden_size=2048, intermediate_size=8192, num_hidden_layers=16,
                               num_attention_heads=32, num_key_value_heads=8, vocab_size=128256,
                               tie_word_embeddings=True), ["LlamaForCausalLM"])
    h = 2048
    per_layer = 2 * h * h + 2 * h * 512 + 3 * h * 8192 + 2 * h
    tied = 128256 * h + 16 * per_layer + h
    assert tied == 1_235_814_400
    assert tied + 128256 * h == 1_498_482_688  # the wrong answer: lm_head counted again
    assert count_params(arch).total == tied


def test_mixtral_total_and_active():
    arch = arch_of(MixtralConfig(hidden_size=4096, intermediate_size=14336, num_hidden_layers=32,
                                 num_attention_heads=32, num_key_value_heads=8, num_local_experts=8,
                                 num_experts_per_tok=2, vocab_size=32000, tie_word_embeddings=False),
                   ["MixtralForCausalLM"])
    h = 4096
    expert = 3 * h * 14336
    attn = 2 * h * h + 2 * h * 1024
    per_layer_shared = attn + 8 * h + 2 * h  # router 8 x 4096, two norms
    total = 2 * 32000 * h + 32 * (per_layer_shared + 8 * expert) + h
    active = 2 * 32000 * h + 32 * (per_layer_shared + 2 * expert) + h
    p = count_params(arch)
    assert (total, active) == (46_702_792_704, 12_879_925_248)
    assert (p.total, p.active) == (total, active)


def test_deepseek_v3_mla_kv_and_mtp_apart():
    cfg = DeepseekV3Config(hidden_size=7168, intermediate_size=18432, moe_intermediate_size=2048,
                           num_hidden_layers=61, num_attention_heads=128, num_key_value_heads=128,
                           n_routed_experts=256, n_shared_experts=1, num_experts_per_tok=8, first_k_dense_replace=3,
                           q_lora_rank=1536, kv_lora_rank=512, qk_rope_head_dim=64, qk_nope_head_dim=128,
                           v_head_dim=128, vocab_size=129280, num_nextn_predict_layers=1, n_group=8, topk_group=4)
    arch = arch_of(cfg, ["DeepseekV3ForCausalLM"])
    kv = kv_cache(arch, "bf16")
    # MLA caches the compressed latent plus the rope key: 61 layers x (512 + 64) values x 2 bytes
    assert kv.bytes_per_token == 61 * (512 + 64) * 2 == 70_272
    p = count_params(arch)
    assert p.total == 671_026_404_352  # the 671B main model (meta-device oracle value for this shape)
    assert p.mtp is not None and p.mtp > 0  # the next-n layer is reported apart, not in the total
    mla = 7168 * 1536 + 1536 + 1536 * 128 * 192 + 7168 * 576 + 512 + 512 * 128 * 256 + 128 * 128 * 7168
    moe = 256 * 3 * 7168 * 2048 + 3 * 7168 * 2048 + 256 * 7168
    extra = 2 * 7168 * 7168 + 3 * 7168  # eh_proj (2h -> h), enorm, hnorm, shared_head norm
    copies = 2 * 129280 * 7168  # model.layers.61.embed_tokens and shared_head.head, as the checkpoint stores them
    assert p.mtp == mla + moe + 2 * 7168 + extra + copies and p.mtp_copies == copies


def gpt_oss_120b():
    return arch_of(GptOssConfig(hidden_size=2880, intermediate_size=2880, num_hidden_layers=36,
                                num_attention_heads=64, num_key_value_heads=8, head_dim=64, num_local_experts=128,
                                num_experts_per_tok=4, vocab_size=201088, sliding_window=128),
                   ["GptOssForCausalLM"])


def test_gpt_oss_120b_kv_policies():
    arch = gpt_oss_120b()
    per_layer = 2 * 8 * 64 * 2
    unified = kv_cache(arch, "bf16", "vllm-unified")
    # vLLM with the hybrid KV cache manager disabled: all 36 layers (sliding ones included) x 2 x 8 heads x 64 x 2 B
    assert unified.bytes_per_token == 36 * per_layer == 73_728
    hybrid = kv_cache(arch, "bf16", "vllm")
    assert hybrid.policy == "vllm"
    assert hybrid.bytes_per_token == 18 * per_layer  # the 18 sliding layers stop growing past window + in-flight
    win = kv_cache(arch, "bf16", "window")
    assert win.bytes_per_token == 18 * per_layer  # only the 18 full-attention layers grow with the context
    ctx = 131072
    assert per_sequence_bytes(arch, ctx, "bf16", "vllm-unified") == 36 * per_layer * ctx
    # vLLM 0.33.0: 16-token pages; a sliding layer holds cdiv(min(128 - 1 + 2 x 8192, ctx), 16) + 1 pages
    sliding_pages = -(-(128 - 1 + 2 * 8192) // 16) + 1
    assert per_sequence_bytes(arch, ctx, "bf16", "vllm") == 18 * per_layer * ctx + 18 * per_layer * 16 * sliding_pages
    win_seq = per_sequence_bytes(arch, ctx, "bf16", "window")
    assert win_seq == 18 * per_layer * ctx + 18 * per_layer * 128
    assert win_seq < 0.51 * per_sequence_bytes(arch, ctx, "bf16", "vllm-unified")


def test_kv_heads_replicated_at_tp16():
    arch = llama31_70b()  # 8 KV heads
    kv = kv_cache(arch, "bf16", tps=(8, 16))
    one_head = 80 * 2 * 1 * 128 * 2  # every GPU holds one KV head (replicated), per token
    assert kv.per_gpu_bytes_per_token[16] == one_head
    assert kv.per_gpu_bytes_per_token[8] == one_head  # at TP 8 each GPU also holds one (split, not replicated)
    assert kv.kv_replication[16] == 2.0 and kv.kv_replication[8] == 1.0
    # vLLM's paged cache holds whole 16-token pages: 1000 tokens take cdiv(1000, 16) = 63 pages = 1008 tokens
    assert per_sequence_bytes(arch, 1000, "bf16", tp=16) == one_head * 1008
    assert per_sequence_bytes(arch, 1000, "bf16", "vllm-unified", tp=16) == one_head * 1000
