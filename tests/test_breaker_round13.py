"""Breaker round 13 (engine-side truth against vLLM 0.33.0 and SGLang 0.5.23 source), each case derived here.

* Recurrent state dtypes per engine. vLLM: layers/mamba/mamba_utils.py ``_mamba_state_dtype`` keeps the conv window
  at the model dtype and, under ``--mamba-ssm-cache-dtype auto``, the SSM state the same; but
  models/config.py ``NemotronHForCausalLMConfig`` (DEFAULT_MAMBA_SSM_CACHE_DTYPE "float32") sets NemotronH's to the
  config's mamba_ssm_cache_dtype else float32, and ``kda_state_dtype`` keeps KDA's recurrent state in float32 under
  auto. SGLang: srt/configs/mamba_utils.py ``mamba2_state_dtype``: conv bf16, SSM the config's mamba_ssm_dtype else
  float32 (Mamba2 and gated delta-nets).
* DeepSeek sparse attention's indexer key: vLLM models/deepseek_v32/attention.py caches it as 128 fp8 values plus
  one 4-byte scale (132 bytes of uint8) whatever --kv-cache-dtype is.
"""

from __future__ import annotations

import pytest
from transformers import DeepseekV32Config, NemotronHConfig, Qwen3NextConfig

from scorer.architecture import normalize
from scorer.kvcache import kv_cache


def _nemotron_h(**extra) -> dict:
    """A small NemotronH: 4 layers M*M* (two Mamba2, two attention)."""
    cfg = NemotronHConfig(hidden_size=512, num_hidden_layers=4, hybrid_override_pattern="M*M*", mamba_num_heads=16,
                          mamba_head_dim=32, ssm_state_size=64, n_groups=2, conv_kernel=4, expand=1,
                          num_attention_heads=8, num_key_value_heads=2, head_dim=64, intermediate_size=1024,
                          vocab_size=1000).to_dict()
    cfg["architectures"] = ["NemotronHForCausalLM"]
    cfg["torch_dtype"] = "bfloat16"
    cfg.pop("mamba_ssm_cache_dtype", None)
    cfg.update(extra)
    return cfg


def _mamba_state(cfg: dict, conv_b: float, ssm_b: float) -> int:
    heads, hd, d_state, groups, k = (cfg["mamba_num_heads"], cfg["mamba_head_dim"], cfg["ssm_state_size"],
                                     cfg["n_groups"], cfg["conv_kernel"])
    d_inner = heads * hd
    conv = (d_inner + 2 * groups * d_state) * (k - 1)  # the conv window over x, B and C
    ssm = heads * hd * d_state
    return int(conv * conv_b + ssm * ssm_b)


def _state_of(arch, policy: str) -> int:
    kinds = kv_cache(arch, "bf16", policy).by_kind
    return next(k.state_bytes_per_sequence_per_layer for k in kinds if k.kind == "mamba2")


@pytest.mark.parametrize("policy, extra, conv_b, ssm_b", [
    ("vllm", {}, 2, 4),  # NemotronH: float32 SSM state by vLLM's default
    ("vllm", {"mamba_ssm_cache_dtype": "bfloat16"}, 2, 2),  # ... unless the config names another
    ("sglang", {}, 2, 4),  # SGLang: float32 by default
    ("sglang", {"mamba_ssm_dtype": "bfloat16"}, 2, 2),
    ("window", {}, 2, 2),  # a runtime whose rule is not read: the model dtype
])
def test_nemotron_h_state_dtype_per_engine(policy, extra, conv_b, ssm_b):
    cfg = _nemotron_h(**extra)
    assert _state_of(normalize(cfg), policy) == _mamba_state(cfg, conv_b, ssm_b)


def test_a_generic_mamba2_hybrid_keeps_vllms_auto_dtype():
    """Not NemotronH (the same layers under another class name): vLLM's auto keeps the SSM state at the model dtype,
    SGLang still float32."""
    cfg = _nemotron_h(architectures=["NemotronHPuzzleXForCausalLM"])
    arch = normalize(cfg)
    assert _state_of(arch, "vllm") == _mamba_state(cfg, 2, 2)
    assert _state_of(arch, "sglang") == _mamba_state(cfg, 2, 4)


def test_gated_delta_net_state_per_engine():
    """Qwen3-Next's gated delta-net: conv window (2 x k_heads x k_dim + v_heads x v_dim) x (kernel - 1), recurrent
    v_heads x k_dim x v_dim; vLLM bf16 throughout (auto), SGLang the recurrent part in float32."""
    cfg = Qwen3NextConfig(hidden_size=512, num_hidden_layers=4, num_attention_heads=8, num_key_value_heads=2,
                          head_dim=64, linear_num_key_heads=4, linear_num_value_heads=8, linear_key_head_dim=32,
                          linear_value_head_dim=32, linear_conv_kernel_dim=4, intermediate_size=1024,
                          moe_intermediate_size=256, num_experts=4, num_experts_per_tok=2, vocab_size=1000,
                          full_attention_interval=2).to_dict()
    cfg["architectures"] = ["Qwen3NextForCausalLM"]
    cfg["torch_dtype"] = "bfloat16"
    arch = normalize(cfg)
    conv = (2 * 4 * 32 + 8 * 32) * 3
    rec = 8 * 32 * 32
    states = {p: next(k.state_bytes_per_sequence_per_layer for k in kv_cache(arch, "bf16", p).by_kind
                      if k.kind == "gated_deltanet") for p in ("vllm", "sglang")}
    assert states == {"vllm": conv * 2 + rec * 2, "sglang": conv * 2 + rec * 4}


def test_dsa_indexer_key_is_fp8_with_a_scale_per_128():
    """DeepSeek-V3.2 at a bf16 KV cache: the latent (kv_lora_rank 512 + rope 64) x 2 bytes, the indexer key
    index_head_dim 128 x (1 + 4 / 128) = 132 bytes: 1,284 a token a layer (not 1,408)."""
    cfg = DeepseekV32Config().to_dict()
    cfg["architectures"] = ["DeepseekV32ForCausalLM"]
    arch = normalize(cfg)
    dsa = [k for k in kv_cache(arch, "bf16", "vllm").by_kind if k.kind == "dsa"]
    assert dsa and dsa[0].bytes_per_token_per_layer == (512 + 64) * 2 + 128 + 4
    fp8 = [k for k in kv_cache(arch, "fp8", "vllm").by_kind if k.kind == "dsa"]
    assert fp8[0].bytes_per_token_per_layer == (512 + 64) + 132


def test_kda_recurrent_state_is_float32_under_vllms_auto():
    """Kimi Linear (KDA): vLLM's kda_state_dtype keeps the recurrent state (heads x D x D) in float32 under auto, the
    conv window (3 x heads x D x (kernel - 1)) at the model dtype."""
    from transformers import KimiLinearConfig
    cfg = KimiLinearConfig(hidden_size=512, num_hidden_layers=4, num_attention_heads=8, vocab_size=1000,
                           intermediate_size=1024, moe_intermediate_size=256, num_experts=4,
                           num_experts_per_token=2).to_dict()
    cfg["architectures"] = ["KimiLinearForCausalLM"]
    cfg["torch_dtype"] = "bfloat16"
    cfg["linear_attn_config"] = {"num_heads": 8, "head_dim": 64, "short_conv_kernel_size": 4,
                                 "kda_layers": [1, 2, 3], "full_attn_layers": [4]}
    arch = normalize(cfg)
    kda = next(k for k in kv_cache(arch, "bf16", "vllm").by_kind if k.kind == "kda")
    assert kda.state_bytes_per_sequence_per_layer == 3 * 8 * 64 * 3 * 2 + 8 * 64 * 64 * 4


def test_vllm_hybrid_align_mode_pages_the_state_like_an_attention_block():
    """vLLM 0.33.0 defaults for a hybrid (prefix caching on: mamba_cache_mode "align"). The small NemotronH above,
    TP1, bf16 KV: the state page is 4,608 B of conv window (bf16) + 131,072 B of SSM state (float32) = 135,680 B;
    an attention layer's token is 2 KV heads x 64 x (K, V) x 2 B = 512 B; the block grows to 16 x ceil(135,680 /
    (16 x 512)) = 272 tokens (page 139,264 B, the state padded to it); 2 attention and 2 Mamba layers form groups of
    2; a request of 4,096 tokens holds ceil(4,096 / 272) = 16 attention blocks + 3 state pages per group."""
    from scorer.kvcache import engine_kv, per_sequence_bytes
    cfg = _nemotron_h()
    arch = normalize(cfg)
    state = _mamba_state(cfg, 2, 4)
    assert state == 135_680
    attn_tok = 2 * 64 * 2 * 2
    block = 16 * -(-state // (16 * attn_tok))
    page = block * attn_tok
    expected = (-(-4096 // block) + 3) * 2 * page
    assert (block, page, expected) == (272, 139_264, 5_292_032)
    assert per_sequence_bytes(arch, 4096, "bf16", "vllm", 1, None, engine_kv("vllm")) == expected
