"""Architecture coverage (issue 12): unknown keys are named, guesses are labelled, new layer kinds and
real-world inputs are read.

Expected values are derived in each test from the modeling code's parameter layout (the module
written beside each formula), or taken from the meta-device oracle (tests/data/meta_oracle.json).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_cli

from scorer.architecture import MLASpec, MoEMLP, ShortConvSpec, normalize
from scorer.errors import ConfigError
from scorer.kvcache import kv_cache
from scorer.params import count_params

ORACLE = json.loads((Path(__file__).parent / "data" / "meta_oracle.json").read_text())

#: plausible keys a new release might add, each able to change shapes
NEW_KEYS = [("attn_latent_dim", 256), ("num_sparse_heads", 8), ("kv_compress_rank", 128),
            ("mlp_expansion_layers", [1, 3]), ("window_pattern", "LLG"), ("token_mixer_latent_size", 1024),
            ("num_memory_tokens", 64), ("expert_group_size", 4), ("head_groups", 2), ("conv_window", 4),
            ("layer_scale_dims", [64, 128]), ("shared_kv_layer_count", 10), ("qk_rank", 64), ("router_groups", 8),
            ("per_block_overrides", {"3": {"head_dim": 256}}), ("num_hash_layers", 3), ("lora_dim", 16),
            ("num_registers", 4), ("patch_merge_size", 2), ("ffn_groups", 2), ("side_input_width", 256),
            ("out_proj_groups", 8), ("compress_ratio", 4), ("block_pattern", [0, 1]), ("engram_size", 512),
            ("num_recurrent_heads", 3), ("lightning_heads", 16), ("residual_streams", 4), ("stream_count", 4)]


def _text(raw: dict) -> dict:
    return raw["text_config"] if isinstance(raw.get("text_config"), dict) else raw


@pytest.mark.corpus
def test_an_unknown_shape_key_in_each_corpus_config_is_named(corpus):
    """Every corpus config with one plausible unknown key added says exact: false and names the key."""
    paths = sorted(corpus.glob("*/config.json"))
    assert len(paths) >= 20
    checked = 0
    for i, path in enumerate(paths):
        raw = json.loads(path.read_text())
        base = normalize(raw)
        target = _text(raw)
        key, value = next((k, v) for k, v in NEW_KEYS[i % len(NEW_KEYS):] + NEW_KEYS if k not in target)
        target[key] = value
        arch = normalize(raw)
        name = ("text_config." if target is not raw else "") + key
        if base.structure_verified and not base.unmodelled_keys and not base.guesses:
            assert base.exact, path.parent.name
        assert arch.exact is False, path.parent.name
        assert name in arch.unmodelled_keys, (path.parent.name, arch.unmodelled_keys)
        checked += 1
    assert checked >= 20


def test_json_contract_and_header_name_the_unmodelled_key(write_config):
    cfg = json.loads((Path(__file__).parent.parent / "data" / "examples" / "llama-3.1-8b" / "config.json").read_text())
    exact = run_cli("score", str(write_config(cfg)), "--format", "json")
    assert exact.returncode == 0, exact.stderr
    doc = json.loads(exact.stdout)
    assert doc["params"]["exact"] is True and doc["params"]["unmodelled_keys"] == [] and doc["model"]["guesses"] == []
    cfg["attn_latent_dim"] = 256
    path = write_config(cfg)
    res = run_cli("score", str(path), "--format", "json")
    doc = json.loads(res.stdout)
    assert doc["params"]["exact"] is False and doc["params"]["unmodelled_keys"] == ["attn_latent_dim"]
    assert any(f["rule"] == "S5" and "attn_latent_dim" in f["message"] for f in doc["findings"])
    md = run_cli("score", str(path)).stdout
    header = next(line for line in md.splitlines() if line.startswith("**Score"))
    assert "(estimated)" in header
    assert "attn\\_latent\\_dim" in md


def test_made_up_model_type_is_provisional_and_lists_its_guesses(write_config):
    cfg = {"model_type": "zz-new-arch", "architectures": ["ZzForCausalLM"], "hidden_size": 2048,
           "intermediate_size": 8192, "num_hidden_layers": 16, "num_attention_heads": 16, "num_key_value_heads": 4,
           "vocab_size": 32000, "tie_word_embeddings": False, "head_dim": 128}
    res = run_cli("score", str(write_config(cfg)), "--format", "json")
    doc = json.loads(res.stdout)
    assert doc["score"]["provisional"] is True and doc["params"]["exact"] is False
    assert any("zz-new-arch" in g for g in doc["model"]["guesses"])
    md = run_cli("score", str(write_config(cfg))).stdout
    header = next(line for line in md.splitlines() if line.startswith("**Score"))
    assert "provisional" in header and "(estimated)" in header
    assert "> - guess: model\\_type 'zz-new-arch'" in md


def test_depth_from_the_layer_pattern_when_num_hidden_layers_is_absent():
    cfg = {"model_type": "zz-hybrid", "hidden_size": 1024, "num_attention_heads": 8, "num_key_value_heads": 2,
           "head_dim": 128, "vocab_size": 32000, "intermediate_size": 4096, "tie_word_embeddings": True,
           "layer_types": ["linear_attention", "full_attention", "linear_attention", "full_attention",
                           "linear_attention", "full_attention"],
           "linear_num_key_heads": 4, "linear_num_value_heads": 8, "linear_key_head_dim": 64,
           "linear_value_head_dim": 64, "linear_conv_kernel_dim": 4}
    arch = normalize(cfg)
    assert arch.num_layers == 6
    assert [lay.kind_label for lay in arch.layers] == ["gated_deltanet", "full"] * 3


def test_moe_layer_freq_as_a_per_layer_list():
    cfg = {"model_type": "zz-moe", "architectures": ["DeepseekV3ForCausalLM"], "hidden_size": 1024,
           "num_hidden_layers": 6, "num_attention_heads": 8, "vocab_size": 32000, "intermediate_size": 4096,
           "moe_intermediate_size": 512, "n_routed_experts": 16, "num_experts_per_tok": 2, "n_shared_experts": 1,
           "kv_lora_rank": 128, "q_lora_rank": 256, "qk_rope_head_dim": 32, "qk_nope_head_dim": 64,
           "v_head_dim": 64, "tie_word_embeddings": False, "moe_layer_freq": [0, 0, 0, 1, 0, 1]}
    arch = normalize(cfg)
    assert [isinstance(lay.ffn, MoEMLP) for lay in arch.layers] == [False, False, False, True, False, True]
    with pytest.raises(ConfigError, match="moe_layer_freq lists 3 layers, the model has 6"):
        normalize(dict(cfg, moe_layer_freq=[0, 1, 1]))


@pytest.mark.corpus
def test_mla_under_an_unknown_model_type_counts_like_deepseek_v3(corpus):
    """DeepSeek-V3's config under a made-up model_type (heads x head size != hidden, kv_lora_rank
    present): read by keys, same total as the meta-device oracle."""
    raw = json.loads((corpus / "deepseek-ai__DeepSeek-V3" / "config.json").read_text())
    raw["model_type"] = "zz_mla_next"
    raw["architectures"] = ["ZzForCausalLM"]
    raw.pop("auto_map", None)
    arch = normalize(raw)
    assert isinstance(arch.layers[0].mixer, MLASpec)
    assert count_params(arch).total == ORACLE["models"]["deepseek-ai__DeepSeek-V3"]["language_model"]
    assert arch.exact is False and arch.guesses


def test_deepseek_sparse_attention_indexer_params_and_cache():
    """DeepSeek-V3.2 (``indexed_attention``): MLA plus the indexer of transformers' DeepseekV32Indexer:
    wq_b (q_lora x heads*dim), wk (hidden x dim), k_norm LayerNorm (2*dim), weights_proj (hidden x heads);
    its key (index_head_dim values per token) is cached beside the latent."""
    base = {"hidden_size": 1024, "num_hidden_layers": 4, "num_attention_heads": 8, "num_key_value_heads": 8,
            "vocab_size": 32000, "intermediate_size": 4096, "moe_intermediate_size": 512, "n_routed_experts": 8,
            "num_experts_per_tok": 2, "n_shared_experts": 1, "first_k_dense_replace": 1, "kv_lora_rank": 128,
            "q_lora_rank": 256, "qk_rope_head_dim": 32, "qk_nope_head_dim": 64, "v_head_dim": 64,
            "tie_word_embeddings": False}
    v3 = normalize(dict(base, model_type="deepseek_v3"))
    dsa = normalize(dict(base, model_type="deepseek_v32", index_n_heads=16, index_head_dim=64, index_topk=256))
    assert all(lay.mixer.indexer is not None for lay in dsa.layers)
    h, n, d, q = 1024, 16, 64, 256
    per_layer = q * n * d + h * d + 2 * d + h * n
    assert count_params(dsa).total - count_params(v3).total == 4 * per_layer
    kv3, kvd = kv_cache(v3, "bf16", "vllm"), kv_cache(dsa, "bf16", "vllm")
    assert kv3.bytes_per_token_all_layers == 4 * (128 + 32) * 2
    # the latent and rope key at bf16, the indexer key (64) as fp8 with a float32 scale per 128 (vLLM 0.33.0
    # models/deepseek_v32/attention.py): 64 x (1 + 4 / 128) = 66 B
    assert kvd.bytes_per_token_all_layers == 4 * ((128 + 32) * 2 + 66)


def test_short_convolution_layers_of_lfm2():
    """LFM2 ``conv`` layers (transformers Lfm2ShortConv): in_proj h -> 3h, depthwise Conv1d (h x L), out_proj h -> h;
    the MLP width follows Lfm2MLP (2/3 of intermediate_size, times the multiplier, rounded up to block_multiple_of)."""
    kinds = ["conv", "conv", "full_attention", "conv"]
    cfg = {"model_type": "lfm2", "hidden_size": 512, "intermediate_size": 3072, "num_hidden_layers": 4,
           "num_attention_heads": 8, "num_key_value_heads": 2, "vocab_size": 1000, "layer_types": kinds,
           "conv_L_cache": 3, "conv_bias": False, "block_multiple_of": 256, "block_ffn_dim_multiplier": 1.0,
           "block_auto_adjust_ff_dim": True, "tie_word_embeddings": True}
    arch = normalize(cfg)
    assert [type(lay.mixer).__name__ for lay in arch.layers] == ["ShortConvSpec"] * 2 + ["AttentionSpec", "ShortConvSpec"]
    h, hd, kvh = 512, 64, 2
    width = 256 * -(-int(2 * 3072 / 3) // 256)  # 2048
    conv = 3 * h * h + h * 3 + h * h
    attn = h * (8 * hd + 2 * kvh * hd) + 8 * hd * h + 2 * hd  # q/k/v/o + q_layernorm, k_layernorm (head_dim)
    mlp = 3 * h * width
    expected = 1000 * h + 3 * conv + attn + 4 * mlp + 4 * 2 * h + h
    assert count_params(arch).total == expected
    assert unknown_free(arch)
    kv = kv_cache(arch, "bf16", "vllm")
    conv_kind = next(k for k in kv.by_kind if k.kind == "short_conv")
    assert conv_kind.layers == 3 and conv_kind.state_bytes_per_sequence_per_layer == h * (3 - 1) * 2
    assert isinstance(arch.layers[0].mixer, ShortConvSpec)


def unknown_free(arch) -> bool:
    return not arch.unmodelled_keys


def test_latent_moe_of_nemotron_3_super():
    """NemotronH with ``moe_latent_size``: experts of latent width with fc1_latent_proj (h -> latent) and
    fc2_latent_proj (latent -> h) (transformers NemotronHMoE / NemotronHExperts)."""
    base = {"model_type": "nemotron_h", "hidden_size": 1024, "vocab_size": 1000, "num_attention_heads": 8,
            "num_key_value_heads": 2, "head_dim": 128, "intermediate_size": 2048, "hybrid_override_pattern": "ME*E",
            "n_routed_experts": 16, "num_experts_per_tok": 4, "moe_intermediate_size": 512,
            "moe_shared_expert_intermediate_size": 1024, "n_shared_experts": 1, "mamba_num_heads": 16,
            "mamba_head_dim": 64, "ssm_state_size": 64, "n_groups": 2, "tie_word_embeddings": False}
    plain = count_params(normalize(base))
    latent = count_params(normalize(dict(base, moe_latent_size=256)))
    h, lat, e, i = 1024, 256, 16, 512
    per_layer_delta = e * 2 * i * (lat - h) + 2 * h * lat  # up/down (not gated) in the latent width + projections
    assert latent.total - plain.total == 2 * per_layer_delta
    assert latent.active - plain.active == 2 * (4 * 2 * i * (lat - h) + 2 * h * lat)


def test_distilbert_reads_hidden_dim():
    """DistilBertForMaskedLM: embeddings (+positions, LayerNorm), per layer q/k/v/out (with biases), lin1/lin2,
    two LayerNorms; vocab_transform, vocab_layer_norm and the projector's bias (its weight is tied)."""
    cfg = {"model_type": "distilbert", "architectures": ["DistilBertForMaskedLM"], "dim": 768, "hidden_dim": 3072,
           "n_layers": 6, "n_heads": 12, "vocab_size": 30522, "max_position_embeddings": 512,
           "sinusoidal_pos_embds": False, "activation": "gelu", "tie_word_embeddings": True}
    arch = normalize(cfg)
    h, v, p, f, n = 768, 30522, 512, 3072, 6
    expected = v * h + p * h + 2 * h + n * (4 * (h * h + h) + h * f + f + f * h + h + 4 * h) + h * h + h + 2 * h + v
    assert count_params(arch).total == expected == 66_985_530
    assert arch.unmodelled_keys == []


def test_gemma3n_per_layer_intermediate_list_is_read():
    from scorer.architecture.layout import per_layer_values
    from scorer.architecture.reader import Reader
    r = Reader({"intermediate_size": [8, 16, 32]}, None, "config")
    assert per_layer_values(r, "intermediate_size", 3) == [8, 16, 32]
    with pytest.raises(ConfigError, match="intermediate_size lists 3 values, the model has 4 layers"):
        per_layer_values(r, "intermediate_size", 4)
    with pytest.raises(ConfigError, match=r"intermediate_size\[1\]"):
        per_layer_values(Reader({"intermediate_size": [8, "x", 32]}, None, "config"), "intermediate_size", 3)


def _mixed_precision_config(n_layers: int) -> dict:
    cfg = json.loads((Path(__file__).parent.parent / "data" / "examples" / "llama-3.1-8b" / "config.json").read_text())
    layers = {}
    for i in range(n_layers):
        for proj in ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"):
            algo = "FP8" if proj == "down_proj" else "NVFP4"
            layers[f"model.layers.{i}.{'self_attn' if proj[0] in 'qkvo' else 'mlp'}.{proj}.padded_for_size_0000"] = {
                "quant_algo": algo, **({"group_size": 16} if algo == "NVFP4" else {})}
    cfg["quantization_config"] = {"quant_method": "modelopt", "quant_algo": "MIXED_PRECISION",
                                  "kv_cache_quant_algo": "FP8", "quantized_layers": layers}
    return cfg


def test_modelopt_mixed_precision_config_of_several_mb_is_read(write_config):
    cfg = _mixed_precision_config(4600)  # 32,200 layer entries: about 3 MB, over the old 2 MiB cap
    path = write_config(cfg)
    assert path.stat().st_size > 2 * 1024 * 1024 + 512 * 1024
    res = run_cli("score", str(path), "--format", "json")
    assert res.returncode == 0, res.stderr
    q = json.loads(res.stdout)["model"]["quantization"]
    assert q["format"] == "nvfp4" and q["mixed"] == {"FP8": 4600, "NVFP4": 6 * 4600}


def test_config_over_the_64_mib_cap_is_refused_in_one_line(write_config):
    path = write_config('{"model_type": "llama", "pad": "' + "x" * (64 * 1024 * 1024) + '"}')
    res = run_cli("score", str(path))
    assert res.returncode == 2
    assert len(res.stderr.strip().splitlines()) == 1 and "cap" in res.stderr


def test_unknown_layer_type_is_read_as_its_nearest_kind_and_labelled():
    """A layer type of a model newer than deploysheet gets a sheet, with the guess named."""
    cfg = {"model_type": "zz-next", "hidden_size": 1024, "num_attention_heads": 8, "num_key_value_heads": 2,
           "head_dim": 128, "vocab_size": 32000, "intermediate_size": 4096, "tie_word_embeddings": True,
           "sliding_window": 512, "layer_types": ["zz_sliding_attention", "zz_global_attention"] * 2}
    arch = normalize(cfg)
    assert [lay.kind_label for lay in arch.layers] == ["sliding", "full"] * 2
    assert sum("layer type 'zz_sliding_attention' is unknown" in g for g in arch.guesses) == 1
    assert arch.exact is False


def test_language_model_under_llm_config_is_read():
    inner = {"hidden_size": 1024, "num_hidden_layers": 4, "num_attention_heads": 8, "num_key_value_heads": 2,
             "vocab_size": 32000, "intermediate_size": 4096, "tie_word_embeddings": False, "head_dim": 128,
             "zz_width": 7}
    arch = normalize({"model_type": "zz-vlm", "llm_config": inner, "vision_config": {"hidden_size": 64}})
    assert arch.num_layers == 4 and arch.hidden_size == 1024
    assert "llm_config.zz_width" in arch.unmodelled_keys and "vision_config" in arch.unmodelled_keys


def test_special_float_tags_of_transformers_5_configs_are_decoded():
    """transformers 5 saves time_step_limit's Infinity as {"__float__": "Infinity"}; its config classes
    reject the tag unless it is decoded as transformers' own from_pretrained does."""
    from transformers import NemotronHConfig
    cfg = NemotronHConfig(hybrid_override_pattern="M*M-", num_hidden_layers=4, hidden_size=512,
                          num_attention_heads=8, num_key_value_heads=2, head_dim=64, mamba_num_heads=8,
                          mamba_head_dim=64, n_groups=1, ssm_state_size=16, intermediate_size=1024, vocab_size=1000)
    raw = json.loads(cfg.to_json_string(use_diff=False))
    assert raw["time_step_limit"][1] == {"__float__": "Infinity"}
    arch = normalize(raw)
    assert [lay.kind_label for lay in arch.layers] == ["mamba2", "full", "mamba2", "mlp"]


def test_relative_position_bert_and_cross_attention_are_not_silently_exact():
    """BERT with position_embedding_type relative_key has a distance table; add_cross_attention adds
    blocks: neither is modelled, so both must be named rather than counted as plain BERT."""
    base = {"model_type": "bert", "architectures": ["BertModel"], "hidden_size": 256, "num_hidden_layers": 2,
            "num_attention_heads": 4, "intermediate_size": 1024, "vocab_size": 1000,
            "max_position_embeddings": 128, "position_embedding_type": "absolute", "add_cross_attention": False}
    assert normalize(base).unmodelled_keys == []
    assert "position_embedding_type" in normalize(dict(base, position_embedding_type="relative_key")).unmodelled_keys
    assert "add_cross_attention" in normalize(dict(base, add_cross_attention=True)).unmodelled_keys


def test_predict_says_when_counts_are_estimated(write_config):
    cfg = {"model_type": "zz-new-arch", "hidden_size": 2048, "intermediate_size": 8192, "num_hidden_layers": 16,
           "num_attention_heads": 16, "num_key_value_heads": 4, "vocab_size": 32000, "head_dim": 128,
           "tie_word_embeddings": False}
    res = run_cli("predict", str(write_config(cfg)), "--isl", "1024", "--osl", "128", "--concurrency", "8")
    assert res.returncode == 0, res.stderr
    notes = json.loads(res.stdout)["notes"]
    assert any(n.startswith("parameter counts are estimated") for n in notes)
    llama = json.loads((Path(__file__).parent.parent / "data" / "examples" / "llama-3.1-8b" / "config.json").read_text())
    res = run_cli("predict", str(write_config(llama, "exact.json")), "--isl", "1024", "--osl", "128",
                  "--concurrency", "8")
    assert not any("estimated" in n for n in json.loads(res.stdout)["notes"])


def test_shared_blocks_are_stored_once_in_weight_memory(write_config):
    """Zamba2 runs one shared attention block in many layers: the inventory lists its GEMMs per use, the
    checkpoint stores them once. FP8 weights must then be about half the BF16 ones (1 vs 2 bytes), not less."""
    from transformers import Zamba2Config
    cfg = json.loads(Zamba2Config().to_json_string(use_diff=False))
    cfg["architectures"] = ["Zamba2ForCausalLM"]
    res = run_cli("score", str(write_config(cfg)), "--format", "json")
    assert res.returncode == 0, res.stderr
    w = {x["precision"]: x["bytes"] for x in json.loads(res.stdout)["weights"]}
    assert 0.5 <= w["fp8"] / w["bf16"] <= 0.53
