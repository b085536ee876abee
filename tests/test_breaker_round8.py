"""Breaker round 8 (a helper session on families new in transformers 5.25): silently wrong counts and caches.

Each expected value is derived here from the family's modeling code (file and class named beside it); the base
configs are the meta-oracle sweep's variants (tests/data/meta_oracle_sweep.json), changed as stated.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_cli

from scorer.architecture import AttentionSpec, normalize
from scorer.errors import ConfigError
from scorer.kvcache import kv_cache
from scorer.params import count_params

SWEEP = Path(__file__).parent / "data" / "meta_oracle_sweep.json"


def _variant(model_type: str, variant: str = "resize_a") -> dict:
    data = json.loads(SWEEP.read_text())
    return dict(next(v for v in data["variants"] if v["model_type"] == model_type and v["variant"] == variant)
                ["config"])


# --- Apertus 1.5: a pruned lm_head ------------------------------------------------------------------------


#: the sweep's default config and its two resized variants (transformers' config classes, tests/data)
VARIANTS = ("default", "resize_a", "resize_b")


@pytest.mark.parametrize("variant", VARIANTS)
def test_apertus_1_5_pruned_head_has_output_vocab_size_rows(variant: str) -> None:
    # modeling_apertus1p5.py Apertus1p5TextForCausalLM: lm_head = nn.Linear(hidden, output_vocab_size or
    # vocab_size, bias=False); embed_tokens keeps vocab_size rows
    cfg = _variant("apertus1p5_text", variant)
    full = count_params(normalize(cfg))
    pruned_cfg = {**cfg, "output_vocab_size": 4096, "tie_word_embeddings": False}
    arch = normalize(pruned_cfg)
    pruned = count_params(arch)
    h, v = cfg["hidden_size"], cfg["vocab_size"]
    assert pruned.by_component["lm_head"] == h * 4096
    assert pruned.by_component["embedding"] == full.by_component["embedding"] == v * h
    assert full.total - pruned.total == h * (v - 4096)
    assert arch.exact and "output_vocab_size" not in arch.unmodelled_keys
    from scorer.gemms import inventory
    head = next(g for g in inventory(arch) if g.name == "lm_head")
    assert head.n == 4096  # the decode step's vocabulary GEMM is the pruned width


def test_apertus_1_5_full_width_head_and_bad_width() -> None:
    cfg = _variant("apertus1p5_text")
    same = count_params(normalize({**cfg, "output_vocab_size": cfg["vocab_size"]}))
    assert same.by_component["lm_head"] == cfg["hidden_size"] * cfg["vocab_size"]
    with pytest.raises(ConfigError, match="output_vocab_size"):
        normalize({**cfg, "output_vocab_size": cfg["vocab_size"] + 1})


def test_apertus_1_5_tied_pruned_head_is_labelled() -> None:
    cfg = _variant("apertus1p5_text")
    arch = normalize({**cfg, "output_vocab_size": 4096, "tie_word_embeddings": True})
    assert any("pruned lm_head" in g for g in arch.guesses)
    assert not arch.exact


def test_an_unknown_output_key_that_may_change_shapes_is_named() -> None:
    # the shape-neutral output_* switches stay neutral; another output_ key is named, not dropped
    cfg = {**_variant("llama"), "output_attentions": False, "output_hidden_states": False,
           "output_vocab_size": 1000}
    arch = normalize(cfg)
    assert arch.unmodelled_keys == ["output_vocab_size"]
    assert not arch.exact


# --- Qwen4-Exp: the QSA indexer's per-token key ----------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_qwen4_exp_caches_the_indexer_key_beside_k_and_v(variant: str) -> None:
    # modeling_qwen4_exp.py Qwen4ExpTextQSAIndexer.forward: raw_keys (indexer_kv_heads x indexer_head_dim per
    # token) go through cache.update_indexer, which concatenates every token's key (cache_utils.py)
    cfg = _variant("qwen4_exp_text", variant)
    arch = normalize(cfg)
    kv = kv_cache(arch, "bf16")
    n_att = cfg["layer_types"].count("indexed_attention")
    per_layer = cfg["num_key_value_heads"] * 2 * cfg["head_dim"] * 2 + cfg["indexer_kv_heads"] * \
        cfg["indexer_head_dim"] * 2
    assert kv.bytes_per_token == n_att * per_layer
    # at TP2 the KV heads split (2 -> 1 each), the single indexer head is on both GPUs
    tp2 = n_att * (cfg["num_key_value_heads"] // 2 * 2 * cfg["head_dim"] * 2
                   + cfg["indexer_kv_heads"] * cfg["indexer_head_dim"] * 2)
    assert kv.per_gpu_bytes_per_token[2] == tp2
    assert any("indexer key" in n for n in kv.notes)


# --- Inkling / Inkling 2: short-convolution states --------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("model_type", ["inkling2_text", "inkling_text"])
def test_inkling_short_convolution_states_are_charged(model_type: str, variant: str) -> None:
    # Inkling2SlidingDecoderLayer / Inkling2FullDecoderLayer (modeling_inkling2.py) and InklingDecoderLayer: k and
    # v convolutions (kv_heads x head_dim channels each), post-attention and post-MLP convolutions (hidden each),
    # each a conv state in the layer's cache; counted at kernel - 1 columns and the model dtype (as vLLM keeps a
    # short convolution's state)
    cfg = _variant(model_type, variant)
    arch = normalize(cfg)
    k = cfg["conv_kernel_size"]
    for lay, kind in zip(arch.layers, cfg["layer_types"]):
        kv, hd = ((cfg["swa_num_key_value_heads"], cfg["swa_head_dim"]) if kind == "hybrid_sliding"
                  else (cfg["num_key_value_heads"], cfg["head_dim"]))
        assert isinstance(lay.mixer, AttentionSpec)
        assert lay.mixer.side_state_elements == (2 * kv * hd + 2 * cfg["hidden_size"]) * (k - 1)
    kvc = kv_cache(arch, "bf16")
    expected_state = sum(lay.mixer.side_state_elements * 2 for lay in arch.layers)
    assert any("short convolutions" in n for n in kvc.notes)
    assert sum(g.state_bytes_per_sequence_per_layer * g.layers for g in kvc.by_kind) == expected_state


# --- per-layer KV heads that do not split the query heads ------------------------------------------------


def test_gemma4_global_kv_heads_that_do_not_divide_the_heads_exit_2(tmp_path: Path) -> None:
    # modeling_gemma4.py Gemma4TextAttention: num_key_value_groups = num_attention_heads // the layer's
    # num_key_value_heads (per_layer_config); repeat_kv then builds 2 x 3 = 6 heads for 8 queries
    base = _variant("gemma4_text")
    assert base["layer_types"][1] == "full_attention" and base["num_attention_heads"] == 8
    cfg = {**base, "per_layer_config": {"01": {"num_key_value_heads": 3}}}
    with pytest.raises(ConfigError, match="not a multiple of its 3 key/value heads"):
        normalize(cfg)
    (tmp_path / "config.json").write_text(json.dumps(cfg))
    res = run_cli("score", str(tmp_path))
    assert res.returncode == 2
    assert "Traceback" not in res.stderr and len(res.stderr.strip().splitlines()) == 1


# --- breaker round 9: configs no forward can run are refused, not sheeted ------------------------------------


def _refused(cfg: dict, match: str, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=match):
        normalize(cfg)
    (tmp_path / "config.json").write_text(json.dumps(cfg))
    res = run_cli("score", str(tmp_path))
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1


def test_olmo_hybrid_value_heads_not_a_multiple_of_key_heads_exit_2(tmp_path: Path) -> None:
    # modeling_olmo_hybrid.py OlmoHybridGatedDeltaNet: q and k repeat num_v_heads // num_k_heads times: 16 // 6 = 2
    # gives 12 heads against 16 value heads
    cfg = {**_variant("olmo_hybrid", "default"), "linear_num_key_heads": 6, "linear_num_value_heads": 16}
    _refused(cfg, "16 linear-attention value heads, not a multiple of its 6 key heads", tmp_path)


def test_zamba2_mamba_groups_and_head_width_must_split(tmp_path: Path) -> None:
    # modeling_zamba2.py Zamba2MambaMixer: group_size = intermediate // n_groups for the gated norm's view, the
    # inner width viewed as n_mamba_heads x mamba_headdim (a saved mamba_headdim overrides the derived one)
    base = _variant("zamba2", "default")
    d_inner = base["mamba_expand"] * base["hidden_size"]
    assert base["n_mamba_heads"] * base["mamba_headdim"] == d_inner  # the default runs
    _refused({**base, "mamba_ngroups": 3}, "8 Mamba heads, not a multiple of its 3 groups", tmp_path)
    _refused({**base, "n_mamba_heads": 4}, f"4 Mamba heads x head_dim 640 = 2560, not the Mamba inner width "
                                           f"{d_inner}", tmp_path)


def test_hrm_text_depth_that_is_not_the_invocation_count_exit_2(tmp_path: Path) -> None:
    # HrmTextConfig keeps both values as given; DynamicCache(config) allocates num_hidden_layers slots while the
    # forward loop writes num_layers_per_stack * H_cycles * (L_cycles + 1) = 16 * 2 * 4 = 128
    base = _variant("hrm_text", "default")
    assert base["num_hidden_layers"] == 16 * 2 * 4
    normalize(base)
    _refused({**base, "num_hidden_layers": 100}, "num_hidden_layers 100 is not .* = 128", tmp_path)


def test_lfm3_foreign_layer_type_is_named(tmp_path: Path) -> None:
    # Lfm3Model.forward builds masks for full_attention, sliding_attention and conv only (a KeyError otherwise)
    base = _variant("lfm3", "default")
    types = list(base["layer_types"])
    types[1] = "linear_attention"
    _refused({**base, "layer_types": types}, r"layer_types\[1\] is 'linear_attention', not a layer this family",
             tmp_path)


def test_bailing_hybrid_swiglu_limit_lists_change_no_shape() -> None:
    # BailingHybridConfig.__post_init__ writes [0] * n clamp limits; a clamp value shapes no tensor
    base = _variant("bailing_hybrid", "default")
    n = base["num_hidden_layers"]
    arch = normalize({**base, "expert_swiglu_limit_list": [0] * n, "share_expert_swiglu_limit_list": [0] * n})
    assert not any("swiglu" in k for k in arch.unmodelled_keys)
    assert count_params(arch).total == count_params(normalize(base)).total


# --- breaker round 10: what a checkpoint's exclusion list leaves 16-bit -------------------------------------


def _weights(tmp_path: Path, name: str, cfg: dict, qc: dict) -> int:
    """Weight bytes the sheet gives the checkpoint at its own format."""
    d = tmp_path / name
    d.mkdir()
    (d / "config.json").write_text(json.dumps({**cfg, "quantization_config": qc}))
    res = run_cli("score", str(d), "--format", "json", "--no-recommendations")
    assert res.returncode == 0, res.stderr
    doc = json.loads(res.stdout)
    return next(w["bytes"] for w in doc["weights"] if w["precision"] == doc["options"]["precision"])


def _modelopt_fp8(exclude: list[str]) -> dict:
    return {"quant_method": "modelopt", "quant_algo": "FP8", "exclude_modules": exclude}


def test_one_excluded_projection_leaves_only_that_projection_16_bit(tmp_path: Path) -> None:
    # FP8 (per-tensor) is 1 byte a weight, bf16 2: excluding o_proj adds L x (heads x head_dim) x hidden bytes, not
    # the whole attention's
    cfg = _variant("llama")
    L, h, q = cfg["num_hidden_layers"], cfg["hidden_size"], cfg["num_attention_heads"] * cfg["head_dim"]
    base = _weights(tmp_path, "base", cfg, _modelopt_fp8(["lm_head"]))
    oproj = _weights(tmp_path, "oproj", cfg, _modelopt_fp8(["lm_head", "model.layers.*.self_attn.o_proj"]))
    assert oproj - base == L * q * h * (2 - 1)
    moe = _variant("qwen3_moe")
    e = moe.get("num_experts") or moe["num_local_experts"]
    mb = _weights(tmp_path, "mbase", moe, _modelopt_fp8(["lm_head"]))
    md = _weights(tmp_path, "mdown", moe, _modelopt_fp8(["lm_head", "model.layers.*.mlp.experts.*.down_proj"]))
    assert md - mb == moe["num_hidden_layers"] * e * moe["moe_intermediate_size"] * moe["hidden_size"] * (2 - 1)


def test_an_explicit_per_layer_ignore_list_covers_every_layer(tmp_path: Path) -> None:
    # llm-compressor lists ignored modules one layer at a time; all L layers' down_proj left bf16
    cfg = _variant("llama")
    L, h, inter = cfg["num_hidden_layers"], cfg["hidden_size"], cfg["intermediate_size"]
    group = {"group_0": {"targets": ["Linear"], "weights": {"num_bits": 8, "type": "float", "strategy": "channel",
                                                            "symmetric": True, "dynamic": False}}}

    def ct(ignore: list[str]) -> dict:
        return {"quant_method": "compressed-tensors", "format": "float-quantized", "config_groups": group,
                "ignore": ignore}
    base = _weights(tmp_path, "ct_base", cfg, ct(["lm_head"]))
    every = _weights(tmp_path, "ct_all", cfg, ct(["lm_head"] + [f"model.layers.{i}.mlp.down_proj" for i in range(L)]))
    assert every - base == L * inter * h * (2 - 1)
    # one layer missing: the projection stays quantized elsewhere and is counted at FP8 (documented over-count)
    some = _weights(tmp_path, "ct_some", cfg, ct(["lm_head"] + [f"model.layers.{i}.mlp.down_proj"
                                                                for i in range(L - 1)]))
    assert some == base


def test_an_empty_modules_to_not_convert_does_not_hide_ignored_layers(tmp_path: Path) -> None:
    cfg = _variant("llama")
    qc = {"quant_method": "fp8", "activation_scheme": "dynamic", "ignored_layers": ["lm_head", "re:.*self_attn.*"]}
    alone = _weights(tmp_path, "alone", cfg, qc)
    both = _weights(tmp_path, "both", cfg, {**qc, "modules_to_not_convert": []})
    base = _weights(tmp_path, "none", cfg, {**qc, "ignored_layers": ["lm_head"]})
    assert both == alone > base


def test_gptq_dynamic_skips_block_lists_and_bnb_skip_modules_leave_attention_16_bit(tmp_path: Path) -> None:
    # vLLM 0.33.0 quantization/utils/gptq_utils.py get_dynamic_override: a "-:<regex>" rule skips what it matches;
    # auto_gptq.py modules_in_block_to_quantize: what the block quantizes; bitsandbytes llm_int8_skip_modules.
    # Each leaves attention (q, k, v, o: L x (2 x heads + 2 x kv) x head_dim x hidden) 16-bit.
    cfg = _variant("llama")
    L, h, d = cfg["num_hidden_layers"], cfg["hidden_size"], cfg["head_dim"]
    att = L * (2 * cfg["num_attention_heads"] + 2 * cfg["num_key_value_heads"]) * d * h
    gptq = {"quant_method": "gptq", "bits": 4, "group_size": 128, "desc_act": False, "sym": True}
    base = _weights(tmp_path, "g", cfg, gptq)
    per_weight = 0.5 + (2 + 0.5) / 128  # 4 bits, an fp16 scale and a 4-bit zero per 128 weights
    dyn = _weights(tmp_path, "gd", cfg, {**gptq, "dynamic": {"-:.*self_attn.*": {}}})
    blk = _weights(tmp_path, "gb", cfg, {**gptq, "modules_in_block_to_quantize": [["mlp.gate_proj", "mlp.up_proj"],
                                                                                  ["mlp.down_proj"]]})
    assert dyn == blk and abs(dyn - base - att * (2 - per_weight)) <= 2
    bnb = {"quant_method": "bitsandbytes", "load_in_8bit": True}
    b0 = _weights(tmp_path, "b", cfg, {**bnb, "llm_int8_skip_modules": ["lm_head"]})
    b1 = _weights(tmp_path, "bs", cfg, {**bnb, "llm_int8_skip_modules": ["lm_head", "self_attn"]})
    assert b1 - b0 == att * (2 - 1)


def test_compressed_tensors_targets_that_skip_attention_leave_it_16_bit(tmp_path: Path) -> None:
    # compressed-tensors quantizes what a group targets (re: targets match module names from the start): an
    # MLP-only recipe leaves q, k, v, o at bf16
    cfg = _variant("llama")
    L, h, d = cfg["num_hidden_layers"], cfg["hidden_size"], cfg["head_dim"]
    att = L * (2 * cfg["num_attention_heads"] + 2 * cfg["num_key_value_heads"]) * d * h
    w = {"num_bits": 8, "type": "float", "strategy": "channel", "symmetric": True, "dynamic": False}

    def ct(targets: list[str]) -> dict:
        return {"quant_method": "compressed-tensors", "format": "float-quantized", "ignore": ["lm_head"],
                "config_groups": {"group_0": {"targets": targets, "weights": w}}}
    every = _weights(tmp_path, "lin", cfg, ct(["Linear"]))
    mlp = _weights(tmp_path, "mlp", cfg, ct(["re:.*mlp.*"]))
    assert mlp - every == att * (2 - 1)
