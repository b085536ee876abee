"""Model types transformers added after the sweep's version (tests/data/meta_oracle_sweep.json: 5.24.0).

Param2 (bharatgenai/Param2-17B-A2.4B): transformers 5.25.0 adds Param2MoeConfig, a subclass of Glm4MoeConfig, and
builds it with Glm4MoeForCausalLM (models/auto/modeling_auto.py ("param2moe", "Glm4MoeForCausalLM")), so the sheet
reads it with GLM-4-MoE's layout. Oracle (2026-12-03, transformers 5.25.0 and torch 2.13.0 on the meta device,
``AutoModelForCausalLM.from_config``): the SMALL config below builds 819,264 parameters, the class defaults
17,151,124,096; the hand count below agrees with the first.

MiniCPM-5-MoE (openbmb): transformers 5.25.0 adds MiniCPM5MoeConfig (a Glm4MoeConfig) with LlamaAttention whose
q_gate_proj emits the queries and a per-channel output gate, DeepSeek-V3 experts and Glm4MoeLiteDecoderLayer. Oracle
(same command): SMALL_M5 builds 996,224 parameters, the class defaults 15,002,552,320.

Ergo (Amazon-FMR/Ergo, modeling_ergo.py) and Kolibri 1.1 (Aleph-Alpha/Kolibri-1.1, modeling_kolibri1_1.py) were
refused before ("missing intermediate_size"). Oracle (same command): SMALL_ERGO builds 842,880 parameters, ErgoConfig()
1,105,550,917,632; SMALL_KOLIBRI 712,560, Kolibri1_1Config() 75,112,646,912. The hand counts below agree.
"""

from __future__ import annotations

import json

import pytest

from scorer.architecture import normalize
from scorer.params import count_params

#: Param2MoeConfig(hidden_size=128, intermediate_size=256, num_hidden_layers=3, num_attention_heads=4,
#: num_key_value_heads=2, head_dim=32, moe_intermediate_size=64, n_routed_experts=8, num_experts_per_tok=2,
#: n_shared_experts=1, first_k_dense_replace=1, vocab_size=1000, tie_word_embeddings=True), as save_pretrained writes it
SMALL = {"attention_bias": False, "eos_token_id": 3, "first_k_dense_replace": 1, "head_dim": 32, "hidden_act": "silu",
         "hidden_size": 128, "intermediate_size": 256, "max_position_embeddings": 32768, "model_type": "param2moe",
         "moe_intermediate_size": 64, "n_group": 1, "n_routed_experts": 8, "n_shared_experts": 1,
         "norm_topk_prob": True, "num_attention_heads": 4, "num_experts_per_tok": 2, "num_hidden_layers": 3,
         "num_key_value_heads": 2, "num_nextn_predict_layers": 0, "pad_token_id": 0, "rms_norm_eps": 1e-06,
         "rope_parameters": {"partial_rotary_factor": 1.0, "rope_theta": 500000.0, "rope_type": "default"},
         "routed_scaling_factor": 2.5, "tie_word_embeddings": True, "topk_group": 1, "use_qk_norm": True,
         "vocab_size": 1000}


def hand_count() -> int:
    attn = 128 * 4 * 32 + 2 * 128 * 2 * 32 + 4 * 32 * 128 + 2 * 32  # q, k, v, o (no biases); q/k RMSNorm(head_dim)
    norms = 2 * 128
    dense = 3 * 128 * 256  # layer 0 (first_k_dense_replace 1): gate, up, down
    moe = 8 * 3 * 128 * 64 + 3 * 128 * 64 + 8 * 128  # 8 experts, one shared expert, the router (its bias a buffer)
    return 3 * (attn + norms) + dense + 2 * moe + 1000 * 128 + 128  # tied embedding, final norm


def test_param2_counts_as_glm4_moe():
    """Exact with transformers' class (5.25.0+); read by its raw keys with the same layout, and labelled estimated,
    with an earlier transformers."""
    from transformers import CONFIG_MAPPING
    arch = normalize(SMALL)
    assert count_params(arch).total == hand_count() == 819_264
    assert arch.family == "param2moe" and arch.unmodelled_keys == []
    assert arch.exact == ("param2moe" in CONFIG_MAPPING)


def test_param2_class_defaults_with_transformers_5_25():
    transformers = pytest.importorskip("transformers")
    from transformers import CONFIG_MAPPING
    if "param2moe" not in CONFIG_MAPPING:
        pytest.skip(f"transformers {transformers.__version__} has no Param2MoeConfig (added in 5.25.0)")
    raw = json.loads(CONFIG_MAPPING["param2moe"]().to_json_string(use_diff=False))
    arch = normalize(raw)
    assert count_params(arch).total == 17_151_124_096 and arch.exact


SMALL_M5 = {"attention_bias": False, "first_k_dense_replace": 1, "head_dim": 32, "hidden_act": "silu",
            "hidden_size": 128, "intermediate_size": 256, "model_type": "minicpm5_moe", "moe_intermediate_size": 64,
            "n_group": 1, "n_routed_experts": 8, "n_shared_experts": 1, "norm_topk_prob": True,
            "num_attention_heads": 4, "num_experts_per_tok": 2, "num_hidden_layers": 3, "num_key_value_heads": 2,
            "num_nextn_predict_layers": 0, "rms_norm_eps": 1e-06, "routed_scaling_factor": 1.0,
            "tie_word_embeddings": False, "topk_group": 1, "use_qk_norm": False, "vocab_size": 1000}


def test_minicpm5_moe_counts_its_gated_queries():
    from transformers import CONFIG_MAPPING
    attn = 128 * 2 * 4 * 32 + 2 * 128 * 2 * 32 + 4 * 32 * 128  # q_gate_proj (queries + gate), k, v, o
    dense = 3 * 128 * 256
    moe = 8 * 3 * 128 * 64 + 3 * 128 * 64 + 8 * 128
    expected = 3 * (attn + 2 * 128) + dense + 2 * moe + 2 * 1000 * 128 + 128  # untied embedding and lm_head
    arch = normalize(SMALL_M5)
    assert count_params(arch).total == expected == 996_224
    assert arch.exact == ("minicpm5_moe" in CONFIG_MAPPING)
    if "minicpm5_moe" in CONFIG_MAPPING:
        raw = json.loads(CONFIG_MAPPING["minicpm5_moe"]().to_json_string(use_diff=False))
        assert count_params(normalize(raw)).total == 15_002_552_320


#: ErgoConfig(vocab_size=1000, hidden_size=96, num_hidden_layers=6, num_attention_heads=6, num_key_value_heads=2,
#: first_dense_intermediate_size=320, moe_intermediate_size=48, shared_intermediate_size=64, num_experts=8,
#: num_experts_per_tok=2): head_dim 96 // 6 = 16, layer 3 global (every 4th), layer 0 dense (num_dense_blocks 1)
SMALL_ERGO = {"model_type": "ergo", "vocab_size": 1000, "hidden_size": 96, "num_hidden_layers": 6,
              "num_attention_heads": 6, "num_key_value_heads": 2, "first_dense_intermediate_size": 320,
              "moe_intermediate_size": 48, "shared_intermediate_size": 64, "num_experts": 8, "num_experts_per_tok": 2,
              "num_dense_blocks": 1, "global_attention_every_n_layers": 4, "sliding_window": 512,
              "layer_types": ["sliding_attention"] * 3 + ["full_attention"] + ["sliding_attention"] * 2,
              "mlp_layer_types": ["dense"] + ["sparse"] * 5}


def test_ergo_counts_its_ungated_moe_with_expert_norms():
    from transformers import CONFIG_MAPPING
    h, hd = 96, 16
    attn = h * (6 + 2 * 2) * hd + 6 * hd * h + 2 * hd  # fused qkv, o, q_norm / k_norm of head_dim
    block = 4 * h + 2 * h  # four RMSNorms and the two residual gates
    dense = 2 * h * 320  # relu2 up / down, no gate
    moe = 8 * 2 * h * 48 + 8 * h + h * 8 + 2 * h * 64 + h  # experts, post_expert_norm, router, shared expert + norm
    expected = 6 * (attn + block) + dense + 5 * moe + 2 * 1000 * h + h  # lm_head never tied, final norm
    arch = normalize(SMALL_ERGO)
    assert count_params(arch).total == expected == 842_880
    assert arch.exact == ("ergo" in CONFIG_MAPPING)
    assert [lay.mixer.span for lay in arch.layers] == ["sliding"] * 3 + ["full"] + ["sliding"] * 2
    assert arch.layers[0].mixer.window == 512 and not arch.layers[0].ffn.gated
    if "ergo" in CONFIG_MAPPING:
        raw = json.loads(CONFIG_MAPPING["ergo"]().to_json_string(use_diff=False))
        assert count_params(normalize(raw)).total == 1_105_550_917_632


#: Kolibri1_1Config with ten layers: 4 and 9 indexed (every 5th), layer 9 reads layer 4's keys and values
SMALL_KOLIBRI = {"model_type": "kolibri1_1", "vocab_size": 500, "hidden_size": 64, "num_hidden_layers": 10,
                 "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16, "num_local_experts": 8,
                 "num_experts_per_tok": 2, "moe_intermediate_size": 32, "shared_expert_intermediate_size": 32,
                 "mlp_only_layers": [0], "mlp_only_intermediate_size": 128, "sliding_window": 33,
                 "layer_types": ["sliding_attention"] * 4 + ["indexed_attention"] + ["sliding_attention"] * 4
                 + ["indexed_attention"], "index_layers": [4], "kv_source_layers": [0, 1, 2, 3, 4, 5, 6, 7, 8, 4],
                 "index_topk": 16, "index_pool_size": 64, "index_compression": 8, "index_num_heads": 2,
                 "index_num_local_tokens": 4, "index_num_sink_tokens": 2, "tie_word_embeddings": False}


def test_kolibri_counts_kv_sharing_and_reads_its_selection():
    from transformers import CONFIG_MAPPING
    own = 64 * 64 + 2 * 64 * 32 + 64 * 64 + 2 * 16  # q, k, v, o, q_norm and k_norm
    shared = 64 * 64 + 64 * 64 + 16  # a reuse layer: q, o and q_norm only
    moe = 8 * 3 * 64 * 32 + 8 * 64 + 3 * 64 * 32  # gated experts, router, gated shared expert
    expected = 9 * own + shared + 10 * 4 * 64 + 3 * 64 * 128 + 9 * moe + 2 * 500 * 64 + 64
    arch = normalize(SMALL_KOLIBRI)
    assert count_params(arch).total == expected == 712_560
    assert arch.exact == ("kolibri1_1" in CONFIG_MAPPING)
    m4, m9 = arch.layers[4].mixer, arch.layers[9].mixer
    assert m4.span == m9.span == "full" and not m4.kv_shared and m9.kv_shared
    assert m4.selection.attended == 16 + 2 + 4 and m4.selection.pool_source and not m9.selection.pool_source
    assert arch.layers[0].mixer.selection is None and arch.layers[0].mixer.window == 33
    # without layer_types: Kolibri1_1Config.__post_init__'s rule, indexed_attention on every 5th layer
    bare = {k: v for k, v in SMALL_KOLIBRI.items() if k != "layer_types"}
    assert count_params(normalize(bare)).total == 712_560
    if "kolibri1_1" in CONFIG_MAPPING:
        raw = json.loads(CONFIG_MAPPING["kolibri1_1"]().to_json_string(use_diff=False))
        assert count_params(normalize(raw)).total == 75_112_646_912


@pytest.mark.parametrize("sources", [[0, 1, 2, 3, 4, 5, 6, 7, 7, 4],   # a sliding layer reading another's K/V
                                     [0, 1, 2, 3, 4, 5, 6, 7, 8, 10],  # a later layer
                                     [0, 1, 2, 3, 2, 5, 6, 7, 8, 9],   # another kind
                                     [0, 1, 2]])                       # another length
def test_kolibri_refuses_kv_sources_its_config_class_refuses(sources):
    from scorer.errors import ConfigError
    with pytest.raises(ConfigError, match="kv_source_layers"):
        normalize(dict(SMALL_KOLIBRI, kv_source_layers=sources))


def test_kolibri_selection_costs_what_the_indexer_reads():
    """Decode at a context beyond the budget: the selected layers read their 22 selected keys' K and V (2 KV heads x
    (16 + 16) values, 2 bytes), the scoring reads KV head 0's key of every pool token (64 x 16 x 2 bytes) with 2 heads,
    the pool source also every cached token's (C x 16 x 2 bytes) for its block summaries; sliding layers their 33."""
    from scorer.costmodel import CostModel, Layout
    from scorer.gemms import inventory
    from scorer.hardware import get_gpu, get_precision
    arch = normalize(SMALL_KOLIBRI)
    cm = CostModel(arch, count_params(arch), get_gpu("H100-SXM"), get_precision("bf16"), Layout(tp=1), "bf16", "vllm",
                   None, set(), inventory(arch))
    c, b = 10_000, 3
    kv = 2 * (16 + 16) * 2  # bytes per token and layer, both KV heads
    hand_bytes = 8 * 33 * kv + 2 * 22 * kv + 2 * 64 * 16 * 2 + c * 16 * 2
    hand_flops = 8 * 33 * 2 * 4 * 32 + 2 * 22 * 2 * 4 * 32 + 2 * 64 * 2 * 2 * 16 + c * (16 + 2 * 2 * 16 / 8)
    f = cm.decode_features(b, c)
    assert f.attn_memory * cm.bw_peak == pytest.approx(b * hand_bytes, rel=1e-9)
    assert f.attn_compute * cm.peak_bf16 == pytest.approx(b * hand_flops, rel=1e-9)
    # prefill of one sequence of L tokens: pairs a query attends (at most 33 sliding, 22 selected), the scoring of at
    # most 64 pool keys by 2 heads on both selected layers, the pool source's L(L+1)/2 / 8 block summaries
    L = 1000

    def pairs(w):
        return w * (w + 1) / 2 + (L - w) * w
    hand = (8 * pairs(33) + 2 * pairs(22)) * 2 * 4 * 32 + 2 * 2 * 2 * 16 * pairs(64) \
        + 2 * 2 * 16 * L * (L + 1) / 2 / 8
    assert cm.prefill_features(1, L).attn_compute * cm.peak_bf16 == pytest.approx(hand, rel=1e-9)


def test_kolibri_top_k_beyond_the_pool_attends_the_pool():
    # Kolibri1_1Indexer.select_tokens picks the top-k among the pool's candidates only, so an index_topk above
    # index_pool_size attends pool + sink + local keys, as index_topk = index_pool_size does
    wide = normalize(dict(SMALL_KOLIBRI, index_topk=60_000))
    assert wide.layers[4].mixer.selection.attended == 64 + 2 + 4
    from scorer.costmodel import CostModel, Layout
    from scorer.gemms import inventory
    from scorer.hardware import get_gpu, get_precision

    def decode_bytes(arch):
        cm = CostModel(arch, count_params(arch), get_gpu("H100-SXM"), get_precision("bf16"), Layout(tp=1), "bf16",
                       "vllm", None, set(), inventory(arch))
        return cm.decode_features(2, 50_000).attn_memory
    assert decode_bytes(wide) == decode_bytes(normalize(dict(SMALL_KOLIBRI, index_topk=64)))


@pytest.mark.parametrize("family,extra", [
    # keys no Kolibri class reads: its projections have no biases, only mlp_only_layers makes a layer dense
    ("kolibri", {"decoder_sparse_step": 2}), ("kolibri", {"first_k_dense_replace": 5}),
    ("kolibri", {"attention_bias": True}), ("kolibri", {"mlp_bias": True}),
    # Ergo: head_dim is hidden // heads (ErgoAttention), num_experts its only expert count, no biases
    ("ergo", {"head_dim": 128}), ("ergo", {"num_local_experts": 4}), ("ergo", {"attention_bias": True}),
    ("ergo", {"mlp_bias": True})])
def test_keys_the_family_ignores_change_nothing(family, extra):
    base = SMALL_KOLIBRI if family == "kolibri" else SMALL_ERGO
    arch = normalize(dict(base, **extra))
    assert count_params(arch).total == (712_560 if family == "kolibri" else 842_880)
    assert not arch.unmodelled_keys and not arch.guesses


def test_ergo_refuses_zero_experts():
    # ErgoDecoderLayer builds ErgoMoE on every "sparse" layer: a top-2 of no experts cannot run
    from scorer.errors import ConfigError
    with pytest.raises(ConfigError, match="num_experts = 0"):
        normalize(dict(SMALL_ERGO, num_experts=0))


def test_ergo_refuses_a_layer_type_it_does_not_build():
    # ErgoRotaryEmbedding keeps rope_parameters per layer type and ErgoAttention only slides or not: a "conv" layer
    # is no Ergo layer (it was read as a short-convolution mixer)
    from scorer.errors import ConfigError
    with pytest.raises(ConfigError, match="builds only sliding_attention, full_attention"):
        normalize(dict(SMALL_ERGO, layer_types=["sliding_attention"] * 3 + ["conv"] + ["sliding_attention"] * 2))
