"""Configs as the Hub publishes them (a newcomer's trial of recent releases, issue 12): what transformers and the
engines read, not what a hand-written config would say.

* a composite config's ``text_config`` omits every value equal to its class default (transformers'
  ``to_diff_dict`` / ``recursive_diff_dict``): Gemma 3's vision-language checkpoints carry no vocab_size;
* LFM2 publishes ``block_ff_dim`` (Lfm2Config reads it as intermediate_size);
* Granite-4.0-H-Micro has ``num_local_experts: 0`` (GraniteMoeHybridDecoderLayer builds no MoE then; its shared MLP
  is ``shared_intermediate_size`` wide);
* Hunyuan-A13B gives ``moe_topk`` per layer (HunYuanMoEV1Gate reads ``moe_topk[layer_idx]``);
* a wrapper whose top-level ``tie_word_embeddings`` (or its class default) disagrees with the text config's: the
  count is labelled estimated and says why, never silently one of the two.

Expected values are derived here, from the modules' shapes in transformers' modeling code, or by relations that a
wrong reading breaks.
"""

from __future__ import annotations

import json

import pytest

from scorer.architecture import normalize
from scorer.cli import main
from scorer.errors import ConfigError
from scorer.params import count_params

H = 64

VISION = {"model_type": "siglip_vision_model", "hidden_size": 32, "intermediate_size": 64, "num_hidden_layers": 1,
          "num_attention_heads": 2, "image_size": 32, "patch_size": 16}


def _gemma3(text: dict) -> dict:
    return {"model_type": "gemma3", "architectures": ["Gemma3ForConditionalGeneration"], "mm_tokens_per_image": 4,
            "text_config": {"model_type": "gemma3_text", "hidden_size": H, "intermediate_size": 128,
                            "num_hidden_layers": 2, "num_attention_heads": 2, "num_key_value_heads": 1,
                            "head_dim": 32, **text},
            "vision_config": dict(VISION)}


def test_a_text_config_without_vocab_size_has_the_class_default():
    """google/gemma-3-27b-it's text_config has no vocab_size: Gemma3TextConfig's default 262,208 (transformers
    5.24.0 models/gemma3/configuration_gemma3.py) is what transformers and the engines load."""
    omitted = normalize(_gemma3({}))
    given = normalize(_gemma3({"vocab_size": 262208}))
    assert omitted.vocab_size == 262208
    assert count_params(omitted).total == count_params(given).total
    assert omitted.exact
    top_level = {"model_type": "gemma3_text", "hidden_size": H, "intermediate_size": 128, "num_hidden_layers": 2,
                 "num_attention_heads": 2, "num_key_value_heads": 1, "head_dim": 32}
    with pytest.raises(ConfigError, match="missing vocab_size"):  # a top-level config is written whole
        normalize(top_level)


LFM2 = {"model_type": "lfm2", "architectures": ["Lfm2ForCausalLM"], "hidden_size": H, "num_hidden_layers": 2,
        "num_attention_heads": 4, "num_key_value_heads": 2, "vocab_size": 1000, "layer_types": ["conv",
                                                                                              "full_attention"],
        "block_auto_adjust_ff_dim": True, "block_ffn_dim_multiplier": 1.0, "block_multiple_of": 256,
        "block_dim": H, "conv_dim": H, "conv_dim_out": H, "block_use_swiglu": True, "conv_L_cache": 3,
        "tie_embedding": True}


def test_lfm2_reads_block_ff_dim_as_its_mlp_width():
    """LiquidAI/LFM2-1.2B publishes block_ff_dim 12288 and no intermediate_size. Lfm2MLP: int(2 * 12288 / 3) =
    8192, x1.0, rounded up to 256: 8192; gate, up and down: 3 x 64 x 8192 per block."""
    arch = normalize({**LFM2, "block_ff_dim": 12288})
    assert {lay.ffn.intermediate for lay in arch.layers} == {8192}
    assert arch.exact, (arch.unmodelled_keys, arch.guesses)
    # the same model written with intermediate_size counts the same
    assert count_params(arch).total == count_params(normalize({**LFM2, "intermediate_size": 12288})).total
    # vLLM sizes the MLP by block_dim, transformers by hidden_size: where they differ the count is an estimate
    odd = normalize({**LFM2, "block_ff_dim": 12288, "block_dim": 2 * H})
    assert not odd.exact and "block_dim" in odd.unmodelled_keys


GRANITE = {"model_type": "granitemoehybrid", "architectures": ["GraniteMoeHybridForCausalLM"], "hidden_size": H,
           "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2, "vocab_size": 1000,
           "intermediate_size": 96, "layer_types": ["mamba", "attention"], "mamba_n_heads": 4, "mamba_d_head": 32,
           "mamba_n_groups": 1, "mamba_d_state": 16, "mamba_expand": 2, "mamba_d_conv": 4,
           "num_local_experts": 0, "num_experts_per_tok": 0, "position_embedding_type": "nope",
           "normalization_function": "rmsnorm", "tie_word_embeddings": True}


def test_zero_experts_is_a_dense_hybrid_with_the_shared_mlp():
    """ibm-granite/granite-4.0-h-micro: num_local_experts 0. GraniteMoeHybridMLP is input_linear (hidden ->
    2 x shared_intermediate_size) and output_linear (shared -> hidden), no bias: 3 x 64 x S per block."""
    a = normalize({**GRANITE, "shared_intermediate_size": 128})
    b = normalize({**GRANITE, "shared_intermediate_size": 256})
    assert not any(type(lay.ffn).__name__ == "MoEMLP" for lay in a.layers)
    assert count_params(b).total - count_params(a).total == 2 * 3 * H * (256 - 128)
    assert count_params(a).active == count_params(a).total
    assert a.exact, (a.unmodelled_keys, a.guesses)


HUNYUAN = {"model_type": "hunyuan_v1_moe", "architectures": ["HunYuanMoEV1ForCausalLM"], "hidden_size": H,
           "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16,
           "vocab_size": 1000, "intermediate_size": 96, "num_experts": 8, "use_qk_norm": True,
           "tie_word_embeddings": True}


def test_per_layer_moe_topk_and_the_lists_transformers_does_not_read():
    """tencent/Hunyuan-A13B-Instruct: moe_topk, moe_intermediate_size and num_shared_expert per layer. transformers
    routes moe_topk[layer_idx]; its experts and shared MLP are intermediate_size wide (the two other lists are
    not read): one value in every entry counts as that value; a moe_intermediate_size that disagrees is an
    estimate."""
    scalar = normalize({**HUNYUAN, "moe_topk": 2})
    listed = normalize({**HUNYUAN, "moe_topk": [2, 2], "moe_intermediate_size": [96, 96], "num_shared_expert": [1, 1],
                        "im_end_id": 6, "text_end_id": 8})
    assert count_params(listed).total == count_params(scalar).total
    assert count_params(listed).active == count_params(scalar).active
    assert {lay.ffn.top_k for lay in listed.layers} == {2}
    assert listed.exact, (listed.unmodelled_keys, listed.guesses)
    assert not normalize({**HUNYUAN, "moe_topk": 2, "moe_intermediate_size": [64, 64]}).exact
    with pytest.raises(ConfigError, match="varies by layer"):
        normalize({**HUNYUAN, "moe_topk": [2, 4]})


def test_a_tie_the_two_config_levels_disagree_on_is_an_estimate():
    """mistralai/Mistral-Small-3.2-24B: no tie_word_embeddings at either level. Mistral3Config defaults to True
    (transformers would tie lm_head to the embedding), its MistralConfig text config to False (the engines build
    the language model from it; the checkpoint stores lm_head). Counted untied, labelled estimated, with why."""
    cfg = {"model_type": "mistral3", "architectures": ["Mistral3ForConditionalGeneration"],
           "text_config": {"model_type": "mistral", "hidden_size": H, "intermediate_size": 128,
                           "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2,
                           "head_dim": 16, "vocab_size": 1000},
           "vision_config": {"model_type": "pixtral", "hidden_size": 32, "intermediate_size": 64,
                             "num_hidden_layers": 1, "num_attention_heads": 2, "image_size": 32, "patch_size": 16}}
    arch = normalize(cfg)
    assert not arch.tie_word_embeddings and not arch.exact
    assert any("tie_word_embeddings" in g and "Mistral3Config" in g and f"{1000 * H:,}" in g for g in arch.guesses)
    # said at both levels alike: exact
    agreed = normalize({**cfg, "tie_word_embeddings": False})
    assert agreed.exact and count_params(agreed).total == count_params(arch).total


def test_a_checkpoint_format_without_a_precision_is_not_sized_silently(tmp_path, capsys):
    """An unsloth-style bitsandbytes NF4 checkpoint of a Llama: without --precision the sheet is at bf16, and
    finding Q9 says those are not the checkpoint's numbers; with --precision the user chose, and Q9 is gone."""
    import json

    from scorer.cli import main
    cfg = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 256, "intermediate_size": 512,
           "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2, "vocab_size": 1000,
           "torch_dtype": "bfloat16",
           "quantization_config": {"quant_method": "bitsandbytes", "load_in_4bit": True,
                                   "bnb_4bit_quant_type": "nf4", "bnb_4bit_compute_dtype": "bfloat16"}}
    path = tmp_path / "config.json"
    path.write_text(json.dumps(cfg))
    assert main(["score", str(path), "--format", "json", "--no-recommendations"]) == 0
    doc = json.loads(capsys.readouterr().out)
    q9 = [f for f in doc["findings"] if f["rule"] == "Q9"]
    assert len(q9) == 1 and "nf4" in q9[0]["message"] and "BF16" in q9[0]["message"]
    assert main(["score", str(path), "--precision", "int4", "--format", "json", "--no-recommendations"]) == 0
    assert not [f for f in json.loads(capsys.readouterr().out)["findings"] if f["rule"] == "Q9"]


def test_a_full_disk_behind_stdout_is_a_one_line_error():
    import subprocess
    import sys

    from conftest import ROOT
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "scorer", "score", "example:llama-3.1-8b"], cwd=ROOT,
                              stdout=full, stderr=subprocess.PIPE, text=True)
    assert proc.returncode == 2
    assert proc.stderr.startswith("deploysheet: error: cannot write the output to stdout") and \
        proc.stderr.count("\n") == 1


# moonshotai/Kimi-Linear-48B-A3B-Instruct's config.json as published (auto_map left out: never run). Its
# linear_attn_config is what KimiLinearConfig.__post_init__ reads into linear_head_dim / linear_num_heads /
# linear_conv_kernel_dim and the 1-indexed layer_types (transformers 5.24.0 configuration_kimi_linear.py).
KIMI_LINEAR = {
    "architectures": ["KimiLinearForCausalLM"], "model_type": "kimi_linear", "dtype": "bfloat16",
    "bos_token_id": 163584, "pad_token_id": 163839, "eos_token_id": 163586, "first_k_dense_replace": 1,
    "head_dim": 72, "hidden_act": "silu", "hidden_size": 2304, "initializer_range": 0.02, "intermediate_size": 9216,
    "kv_lora_rank": 512,
    "linear_attn_config": {"full_attn_layers": [4, 8, 12, 16, 20, 24, 27], "head_dim": 128,
                           "kda_layers": [1, 2, 3, 5, 6, 7, 9, 10, 11, 13, 14, 15, 17, 18, 19, 21, 22, 23, 25, 26],
                           "num_heads": 32, "short_conv_kernel_size": 4},
    "mla_use_nope": True, "model_max_length": 1048576, "moe_intermediate_size": 1024, "moe_layer_freq": 1,
    "moe_renormalize": True, "moe_router_activation_func": "sigmoid", "num_attention_heads": 32,
    "num_expert_group": 1, "num_experts": 256, "num_experts_per_token": 8, "num_hidden_layers": 27,
    "num_key_value_heads": 32, "num_nextn_predict_layers": 0, "num_shared_experts": 1, "q_lora_rank": None,
    "qk_nope_head_dim": 128, "qk_rope_head_dim": 64, "rms_norm_eps": 1e-05, "rope_scaling": None,
    "rope_theta": 10000.0, "routed_scaling_factor": 2.446, "tie_word_embeddings": False, "topk_group": 1,
    "transformers_version": "4.56.0", "use_cache": True, "use_grouped_topk": True, "v_head_dim": 128,
    "vocab_size": 163840}

# google/paligemma2-3b-pt-224's config.json as published: legacy top-level hidden_size / num_hidden_layers, and
# num_image_tokens / num_positions that PaliGemmaConfig writes and no module reads
PALIGEMMA2 = {
    "_vocab_size": 257152, "architectures": ["PaliGemmaForConditionalGeneration"], "bos_token_id": 2,
    "eos_token_id": 1, "hidden_size": 2048, "image_token_index": 257152, "model_type": "paligemma",
    "num_hidden_layers": 26, "pad_token_id": 0, "projection_dim": 2304, "torch_dtype": "bfloat16",
    "transformers_version": "4.47.0.dev0",
    "text_config": {"hidden_activation": "gelu_pytorch_tanh", "hidden_size": 2304, "intermediate_size": 9216,
                    "model_type": "gemma2", "num_attention_heads": 8, "num_hidden_layers": 26,
                    "num_image_tokens": 256, "num_key_value_heads": 4, "vocab_size": 257216},
    "vision_config": {"hidden_size": 1152, "intermediate_size": 4304, "model_type": "siglip_vision_model",
                      "num_attention_heads": 16, "num_hidden_layers": 27, "num_image_tokens": 256,
                      "num_positions": 256, "patch_size": 14, "projection_dim": 2304, "torch_dtype": "bfloat16",
                      "vision_use_head": False}}

# Oracle: transformers 5.24.0 + torch 2.13.0 on the meta device, e.g. for Kimi-Linear
#   cfg = AutoConfig.for_model(**KIMI_LINEAR); with torch.device("meta"): m = AutoModelForCausalLM.from_config(cfg)
#   sum(p.numel() for p in m.parameters())
# and for PaliGemma 2 PaliGemmaForConditionalGeneration(cfg), vision = parameters under vision_tower /
# multi_modal_projector.
PUBLISHED_ORACLE = {"kimi_linear": (KIMI_LINEAR, 49_122_675_072, None),
                    "paligemma2": (PALIGEMMA2, 2_617_143_552, 415_098_864)}


@pytest.mark.parametrize("name", sorted(PUBLISHED_ORACLE))
def test_published_keys_the_config_class_reads_count_exactly(name):
    cfg, total, vision = PUBLISHED_ORACLE[name]
    arch = normalize(cfg)
    params = count_params(arch)
    assert params.total == total
    assert (params.vision or None) == vision
    assert arch.exact and not arch.unmodelled_keys


def test_a_disagreeing_or_unknown_sub_key_is_still_listed():
    """What the config class does not read stays unmodelled: a linear_attn_config key KimiLinearConfig ignores,
    and PaliGemma's num_positions when it is not (image_size / patch_size)^2 = (224 / 14)^2 = 256."""
    import copy
    kimi = copy.deepcopy(KIMI_LINEAR)
    kimi["linear_attn_config"]["gate_low_rank"] = 32
    arch = normalize(kimi)
    assert not arch.exact and arch.unmodelled_keys == ["linear_attn_config.gate_low_rank"]
    pg = copy.deepcopy(PALIGEMMA2)
    pg["vision_config"]["num_positions"] = 1024
    arch = normalize(pg)
    assert not arch.exact and arch.unmodelled_keys == ["vision_config.num_positions"]


def test_mtp_modules_no_engine_builds_are_a_note_not_an_estimate():
    """MiniMax-M2 publishes use_mtp / num_mtp_modules / mtp_transformer_layers: transformers' MiniMaxM2ForCausalLM
    builds no MTP module and vLLM 0.33.0's minimax_m2.py drops those weights (layers.{num_hidden_layers + i}), so the
    served model is the meta device's (oracle: MiniMaxM2 at this shape, 228,689,748,992 parameters, the command of
    PUBLISHED_ORACLE); the sheet says the modules are not counted."""
    import json

    from transformers import MiniMaxM2Config
    cfg = MiniMaxM2Config(hidden_size=3072, intermediate_size=1536, num_hidden_layers=62, num_attention_heads=48,
                          num_key_value_heads=8, head_dim=128, num_local_experts=256, num_experts_per_tok=8,
                          vocab_size=200064, rotary_dim=64, max_position_embeddings=196608,
                          tie_word_embeddings=False).to_dict()
    cfg |= {"architectures": ["MiniMaxM2ForCausalLM"], "use_mtp": True, "num_mtp_modules": 3,
            "mtp_transformer_layers": 1}
    arch = normalize(cfg)
    assert count_params(arch).total == 228_689_748_992
    assert arch.exact and arch.mtp is None
    assert "3 MTP module(s)" in arch.mtp_note and "layers.62 onward" in arch.mtp_note
    from scorer.sheet import Options, build_sheet
    from scorer.sources import RawModel, Provenance
    sheet = build_sheet(RawModel(config=json.loads(json.dumps(cfg)), provenance=Provenance(kind="local", source="m")),
                        Options(recommendations=False))
    assert any("3 MTP module(s) (num_mtp_modules) are not counted" in a for a in sheet.assumptions)
    off = normalize(cfg | {"use_mtp": False})
    assert off.exact and off.mtp_note is None


# ---------------------------------------------------------------- custom-code trial (issue 12, 2026-12-02)

def _llama_like() -> dict:
    return {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 256,
            "intermediate_size": 512, "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2,
            "vocab_size": 1000, "max_position_embeddings": 4096, "tie_word_embeddings": False}


def _rw(tmp_path, name, **keys):
    cfg = {"architectures": ["RWForCausalLM"], "auto_map": {"AutoModelForCausalLM": "modelling_RW.RWForCausalLM"},
           "alibi": False, "bias": False, "bos_token_id": 11, "eos_token_id": 11, "layer_norm_epsilon": 1e-5,
           "torch_dtype": "bfloat16", "vocab_size": 65024, **keys}
    p = tmp_path / f"{name}.json"
    p.write_text(json.dumps(cfg))
    return str(p)


def _layer(h, heads, kv, norms):
    """transformers' FalconDecoderLayer without biases: fused QKV h x (heads + 2 kv) x 64, dense h x h, a
    4h MLP (two matrices), LayerNorms of weight and bias."""
    return h * (heads + 2 * kv) * 64 + h * h + 2 * h * 4 * h + norms * 2 * h


def test_refinedweb_configs_read_as_falcon(tmp_path, capsys):
    """The original Falcon repos' configs (model_type RefinedWebModel / RefinedWeb, RWForCausalLM, the authors'
    code) were refused for a missing intermediate_size. transformers' Falcon port reads them: falcon-7b is
    multi-query with parallel attention and one norm; falcon-40b's n_head_kv is the grouped-KV layout with two
    norms (new_decoder_architecture). Tied embeddings 65,024 x h, a final LayerNorm."""
    for name, keys, h, n, heads, kv, norms in (
            ("falcon-7b", {"model_type": "RefinedWebModel", "hidden_size": 4544, "n_head": 71, "n_layer": 32,
                           "multi_query": True, "parallel_attn": True}, 4544, 32, 71, 1, 1),
            ("falcon-40b", {"model_type": "RefinedWeb", "hidden_size": 8192, "n_head": 128, "n_head_kv": 8,
                            "n_layer": 60, "parallel_attn": True}, 8192, 60, 128, 8, 2)):
        assert main(["score", _rw(tmp_path, name, **keys), "--format", "json"]) == 0
        sheet = json.loads(capsys.readouterr().out)
        want = n * _layer(h, heads, kv, norms) + 65024 * h + 2 * h
        assert sheet["params"]["total"] == want, name  # 6,921,720,704 and 41,303,293,952
        assert sheet["params"]["unmodelled_keys"] == [] and sheet["score"]["provisional"]
        assert sheet["kv_cache"]["bytes_per_token_all_layers"] == n * 2 * kv * 64 * 2


def test_a_wrapper_without_text_config_says_its_top_level_keys_are_not_what_transformers_builds(tmp_path, capsys):
    """Yi-VL-6B ships model_type llava with the original LLaVA repo's flat keys and no text_config: LlavaConfig
    builds the language model from LlamaConfig's defaults (vocabulary 32,000, 32 KV heads), so the file's
    vocab_size 64,000 and num_key_value_heads 4 are not what any transformers-based loader builds. They were
    marked read; now they are listed and the count is labelled estimated, with a guess naming both values."""
    cfg = {"architectures": ["LlavaLlamaForCausalLM"], "model_type": "llava", "hidden_size": 4096,
           "intermediate_size": 11008, "num_attention_heads": 32, "num_hidden_layers": 32,
           "num_key_value_heads": 4, "vocab_size": 64000, "max_position_embeddings": 4096,
           "tie_word_embeddings": False, "torch_dtype": "bfloat16"}
    p = tmp_path / "yi-vl.json"
    p.write_text(json.dumps(cfg))
    assert main(["score", str(p), "--format", "json"]) == 0
    sheet = json.loads(capsys.readouterr().out)
    assert {"vocab_size", "num_key_value_heads"} <= set(sheet["params"]["unmodelled_keys"])
    assert sheet["params"]["exact"] is False
    assert any("vocab_size 64000 (default 32000)" in g for g in sheet["model"]["guesses"])


def test_a_tower_object_is_not_shape_neutral_for_its_name(tmp_path, capsys):
    """Ovis2's visual_tokenizer_config and Phi-4-multimodal's audio_processor are objects describing towers; the
    name fragments 'tokenizer' / 'processor' made them shape-neutral, and the towers vanished without a trace."""
    cfg = dict(_llama_like(), visual_tokenizer_config={"model_type": "aimv2_visual_tokenizer", "vocab_size": 65536},
               audio_processor={"config": {"attention_dim": 1024, "num_blocks": 24}}, image_processor_type="x")
    p = tmp_path / "ovis.json"
    p.write_text(json.dumps(cfg))
    assert main(["score", str(p), "--format", "json"]) == 0
    keys = json.loads(capsys.readouterr().out)["params"]["unmodelled_keys"]
    assert "visual_tokenizer_config" in keys and "audio_processor" in keys and "image_processor_type" not in keys


def test_first_generation_qwen_reads_its_fused_mlp_width(tmp_path, capsys):
    """Qwen-7B (model_type qwen, the authors' modeling_qwen.py): intermediate_size 22,016 is w1 and w2 together,
    each 11,008 wide (QWenMLP: ff_dim_in = intermediate_size // 2). By hand: c_attn 4,096 x 12,288 + bias 12,288,
    c_proj 4,096^2, MLP 3 x 4,096 x 11,008, two RMSNorms, 32 layers; embedding and untied lm_head 151,936 x 4,096;
    ln_f: 7,721,324,544 (the model card's 7.7 B). It was read as a 22,016-wide SwiGLU (12.05 B)."""
    cfg = {"architectures": ["QWenLMHeadModel"], "auto_map": {"AutoModelForCausalLM": "modeling_qwen.QWenLMHeadModel"},
           "model_type": "qwen", "hidden_size": 4096, "intermediate_size": 22016, "kv_channels": 128,
           "num_attention_heads": 32, "num_hidden_layers": 32, "vocab_size": 151936, "no_bias": True,
           "seq_length": 8192, "max_position_embeddings": 8192, "rotary_pct": 1.0, "use_dynamic_ntk": True,
           "use_logn_attn": True, "tie_word_embeddings": False, "layer_norm_epsilon": 1e-6}
    p = tmp_path / "qwen.json"
    p.write_text(json.dumps(cfg))
    assert main(["score", str(p), "--format", "json"]) == 0
    sheet = json.loads(capsys.readouterr().out)
    h, f, v = 4096, 11008, 151936
    layer = h * 3 * h + 3 * h + h * h + 3 * h * f + 2 * h
    assert sheet["params"]["total"] == 32 * layer + 2 * v * h + h == 7_721_324_544
    assert sheet["params"]["unmodelled_keys"] == [] and sheet["score"]["provisional"]
