"""Configs written by transformers' save_pretrained, which carries class defaults the layout leaves unread, count exactly.

First case: a dense model whose config class writes MoE defaults (NemotronHConfig).

NVIDIA-Nemotron-Nano-9B-v2 is a dense Mamba2 / attention / MLP hybrid. Its Hub config has no MoE keys,
but transformers 5.x's NemotronHConfig carries MoE defaults (n_routed_experts, moe_intermediate_size,
n_shared_experts, num_experts_per_tok, ...) and writes them on save_pretrained, so every fine-tune re-saved
with transformers has them. With no "E" layer in hybrid_override_pattern they size nothing
(transformers 5.24.0 modeling_nemotron_h.py builds an MoE block only for "moe" layers); they must not
label the count estimated.

Oracle (run on 2026-12-03 with transformers 5.24.0 and torch 2.13.0 on the meta device): SMALL saved as below
builds 59,352 parameters (the hand count), and the real 9B-v2 dimensions saved the same way 8,888,227,328:
``AutoModelForCausalLM.from_config(AutoConfig.from_pretrained(folder))`` under ``torch.device("meta")``,
summing ``p.numel()``.
"""

from __future__ import annotations

import json

import pytest

transformers = pytest.importorskip("transformers")

from scorer.architecture import normalize  # noqa: E402
from scorer.params import count_params  # noqa: E402


def _saved(tmp_path, **kw):
    cfg = transformers.NemotronHConfig(**kw)
    cfg.save_pretrained(tmp_path)
    return json.loads((tmp_path / "config.json").read_text())


SMALL = dict(hidden_size=64, hybrid_override_pattern="M*-", num_hidden_layers=3, num_attention_heads=4,
             num_key_value_heads=2, head_dim=16, intermediate_size=128, mamba_num_heads=8, mamba_head_dim=8,
             n_groups=2, ssm_state_size=16, conv_kernel=4, vocab_size=100, tie_word_embeddings=False,
             architectures=["NemotronHForCausalLM"])


def hand_count() -> int:
    """NemotronHForCausalLM of SMALL, module by module (transformers 5.24.0 modeling_nemotron_h.py)."""
    h, v = 64, 100
    # Mamba2 mixer: intermediate = heads x head_dim; conv over intermediate + 2 x groups x state
    inter, conv_dim, heads = 8 * 8, 8 * 8 + 2 * 2 * 16, 8
    mamba = (h * (inter + conv_dim + heads)  # in_proj (use_bias False)
             + conv_dim * 4 + conv_dim  # conv1d weight and bias (use_conv_bias True)
             + 3 * heads  # dt_bias, A_log, D
             + inter  # gated RMSNorm
             + inter * h)  # out_proj
    attention = h * 4 * 16 + 2 * h * 2 * 16 + 4 * 16 * h  # q, k, v, o (attention_bias False)
    mlp = 2 * h * 128  # up and down (relu2, not gated; mlp_bias False)
    norms = 3 * h + h  # one pre-norm per block, the final norm
    return mamba + attention + mlp + norms + 2 * v * h  # untied embedding and lm_head


def test_saved_config_carries_moe_defaults(tmp_path):
    raw = _saved(tmp_path, **SMALL)
    assert {"moe_intermediate_size", "n_shared_experts", "num_experts_per_tok"} <= set(raw)


def test_dense_hybrid_with_moe_defaults_is_exact(tmp_path):
    arch = normalize(_saved(tmp_path, **SMALL))
    assert arch.unmodelled_keys == []
    pc = count_params(arch)
    assert pc.total == hand_count() == 59352
    assert arch.exact


def test_moe_hybrid_still_reads_its_moe_keys(tmp_path):
    """With an "E" layer the MoE keys size the experts: a different moe_intermediate_size changes the count."""
    kw = dict(SMALL, hybrid_override_pattern="M*E", n_routed_experts=4, num_experts_per_tok=2, n_shared_experts=1)
    a = count_params(normalize(_saved(tmp_path / "a", moe_intermediate_size=32, moe_shared_expert_intermediate_size=32,
                                      **kw))).total
    b = count_params(normalize(_saved(tmp_path / "b", moe_intermediate_size=48, moe_shared_expert_intermediate_size=32,
                                      **kw))).total
    # 4 routed experts of up and down (relu2): 2 x 64 x 16 more weights each
    assert b - a == 4 * 2 * 64 * 16


# ----------------------------------------------------------------------------------------------------------------
# Other classes whose save_pretrained writes keys the model's layout leaves unread or reads elsewhere. Oracle totals
# (same command as above, the whole composite model; the vision towers cancel in the differences):
# paddle use_bias False / True 434,590,960 / 434,591,856; deepseek-ocr2 mlp_bias False / True 10,902,221,632 /
# 10,902,222,272; falcon multi_query 92,800, falcon MHA (old layout) 105,088.

def _save(tmp_path, cls_name, **kw):
    getattr(transformers, cls_name)(**kw).save_pretrained(tmp_path)
    return json.loads((tmp_path / "config.json").read_text())


def _text_total(raw):
    arch = normalize(raw)
    assert arch.unmodelled_keys == [] and arch.exact
    return count_params(arch).total


def test_paddleocr_vl_text_reads_use_bias(tmp_path):
    """PaddleOCRAttention / PaddleOCRMLP take bias=config.use_bias (transformers 5.24.0 modeling_paddleocr_vl.py)."""
    text = dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2, head_dim=16,
                intermediate_size=96, vocab_size=100)
    off = _text_total(_save(tmp_path / "a", "PaddleOCRVLConfig", text_config=dict(text, use_bias=False)))
    on = _text_total(_save(tmp_path / "b", "PaddleOCRVLConfig", text_config=dict(text, use_bias=True)))
    per_layer = (4 * 16 + 2 * 2 * 16 + 64) + (2 * 96 + 64)  # q, k, v, o biases; gate, up, down biases
    assert on - off == 2 * per_layer == 896 == 434_591_856 - 434_590_960


def test_deepseek_ocr2_shared_experts_read_mlp_bias(tmp_path):
    """The shared experts are a DeepseekOcr2TextMLP (bias=config.mlp_bias), as the dense first layer is."""
    text = dict(hidden_size=64, num_hidden_layers=3, num_attention_heads=4, num_key_value_heads=4, intermediate_size=96,
                moe_intermediate_size=32, n_routed_experts=4, n_shared_experts=2, num_experts_per_tok=2,
                first_k_dense_replace=1, mlp_layer_types=["dense", "sparse", "sparse"], vocab_size=100)
    off = _text_total(_save(tmp_path / "a", "DeepseekOcr2Config", text_config=dict(text, mlp_bias=False)))
    on = _text_total(_save(tmp_path / "b", "DeepseekOcr2Config", text_config=dict(text, mlp_bias=True)))
    dense = 2 * 96 + 64  # gate, up, down of the dense layer
    shared = 2 * (32 * 2) + 64  # of each MoE layer's shared MLP, moe_intermediate_size x n_shared_experts wide
    assert on - off == dense + 2 * shared == 640 == 10_902_222_272 - 10_902_221_632


@pytest.mark.parametrize("multi_query, expected", [(True, 92_800), (False, 105_088)])
def test_falcon_original_layout_ignores_written_num_kv_heads(tmp_path, multi_query, expected):
    """FalconConfig writes num_kv_heads (= heads); the original layout's fused QKV is hidden + 2 x head_dim or
    3 x hidden wide whatever it says."""
    raw = _save(tmp_path, "FalconConfig", hidden_size=64, num_hidden_layers=2, num_attention_heads=4, vocab_size=100,
                multi_query=multi_query, new_decoder_architecture=False)
    assert "num_kv_heads" in raw
    h, hd = 64, 16
    qkv = h * (h + 2 * hd if multi_query else 3 * h)  # bias False (FalconConfig default)
    layer = qkv + h * h + 2 * h * 4 * h + 2 * h  # dense; MLP 4h up and down; input_layernorm (weight + bias)
    assert _text_total(raw) == 2 * layer + 100 * h + 2 * h == expected  # tied embedding, ln_f


def test_moe_classes_configured_dense_count_exactly(tmp_path):
    """Qwen3MoeConfig with every layer in mlp_only_layers builds Qwen3MoeMLP everywhere: its MoE defaults
    (moe_intermediate_size, num_experts_per_tok) size nothing. Hand count: per layer q, o 64x64; k, v 64x32; q/k
    norms 16 each; gate, up, down 64x128; two norms. Oracle (meta device, as above) on the breaker trial's
    Qwen3MoeConfig / DeepseekV3Config / Llama4TextConfig dense variants: equal to the sheet's counts."""
    raw = _save(tmp_path, "Qwen3MoeConfig", hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                num_key_value_heads=2, head_dim=16, intermediate_size=128, vocab_size=100, num_experts=8,
                mlp_only_layers=[0, 1], tie_word_embeddings=False)
    layer = 2 * 64 * 64 + 2 * 64 * 32 + 2 * 16 + 3 * 64 * 128 + 2 * 64
    assert _text_total(raw) == 2 * layer + 64 + 2 * 100 * 64


def test_qwen3_5_moe_builds_experts_in_every_layer(tmp_path):
    """Qwen3_5MoeDecoderLayer has no mlp_only_layers: the key (not a Qwen3_5MoeTextConfig field) is left unread and
    the count estimated, with experts in every layer (the meta device builds them: 839,564,864 on the breaker's
    config, as the sheet counts)."""
    kw = dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2, head_dim=16,
              moe_intermediate_size=32, shared_expert_intermediate_size=32, num_experts=4, num_experts_per_tok=2,
              vocab_size=100, layer_types=["linear_attention", "full_attention"])
    plain = normalize(_save(tmp_path / "a", "Qwen3_5MoeTextConfig", **kw))
    extra = normalize(_save(tmp_path / "b", "Qwen3_5MoeTextConfig", mlp_only_layers=[0, 1], **kw))
    assert count_params(extra).total == count_params(plain).total
    assert all(lay.ffn.kind == "moe" for lay in extra.layers)
    assert "mlp_only_layers" in extra.unmodelled_keys and not extra.exact


def test_moe_keys_on_a_dense_family_stay_unmodelled():
    """A dense family (no expert count) with MoE keys is not a class default: a custom MoE under a borrowed
    model_type. The keys stay listed and the count estimated."""
    arch = normalize({"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 64,
                      "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 4,
                      "intermediate_size": 128, "vocab_size": 100, "moe_intermediate_size": 32,
                      "num_experts_per_tok": 2})
    assert {"moe_intermediate_size", "num_experts_per_tok"} <= set(arch.unmodelled_keys) and not arch.exact
