"""Vision towers (issue 12, part 2): ``params.vision`` of each multimodal family transformers 5.24 ships.

Expected numbers: tests/data/vision_oracle.json, produced by the command recorded in that file (each
family's ``...ForConditionalGeneration`` built on torch's meta device from its config class defaults and
from one resized variant; vision = the parameters outside the language model and audio towers). A few
tests derive the count from the module layout by hand (the transformers class is named beside each
formula), on configs written the way hub ``config.json`` files are (vision_config keys left to the
class defaults). No torch needed.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from scorer.architecture import normalize
from scorer.architecture.kinds.vision import TOWERS, read_tower
from scorer.architecture.loader import with_transformers
from scorer.errors import ConfigError
from scorer.params import count_params, layer_params

ORACLE = json.loads((Path(__file__).parent / "data" / "vision_oracle.json").read_text())
CASES = [(mt, label) for mt in sorted(ORACLE["families"]) for label in sorted(ORACLE["families"][mt]["cases"])]

#: the families of issue 12's list (and their siblings) whose tower is counted
SUPPORTED = {
    "qwen2_vl", "qwen2_5_vl", "qwen3_vl", "qwen3_vl_moe", "qwen3_5", "qwen3_5_moe", "gemma3", "shieldgemma2", "gemma4",
    "llava", "llava_next", "llava_next_video", "llava_onevision", "vipllava", "mistral3", "lighton_ocr", "llama4",
    "mllama", "idefics3", "smolvlm", "paligemma", "internvl", "kimi_k25", "glm4v", "glm4v_moe", "glm46v",
    "ernie4_5_vl_moe", "aya_vision", "cohere2_vision", "lfm2_vl", "phi4_multimodal", "minimax_m3_vl", "step3p7",
    "hunyuan_vl", "deepseek_vl", "hyperclovax_vision_v2", "paddleocr_vl", "video_llama_3", "cosmos3_omni",
}


def _tower_alone(raw: dict) -> int:
    """The tower of ``raw`` counted without the language model (for families whose text side the scorer
    cannot read yet)."""
    top, text = with_transformers(raw["model_type"], raw, lambda: None)
    tower = read_tower(raw["model_type"], raw["model_type"], raw["vision_config"], top.vision_config, raw, top,
                       text.hidden_size, set(), set())
    width = tower.hidden_size * (2 if tower.norm == "layernorm" else 1)
    blocks = sum(sum(v for k, v in layer_params(lay, tower.hidden_size, width).items() if k != "routed_active")
                 for lay in tower.layers)
    return blocks + sum(tower.extra_params.values())


def test_oracle_file_records_its_command_versions_and_every_supported_family():
    assert "scripts/vision_oracle.py" in ORACLE["command"] and "vision_oracle.json" in ORACLE["command"]
    assert ORACLE["versions"]["transformers"] == "5.24.0" and ORACLE["versions"]["torch"]
    assert set(ORACLE["families"]) == SUPPORTED
    assert SUPPORTED <= set(TOWERS)
    for entry in ORACLE["families"].values():
        assert set(entry["cases"]) == {"default", "variant"}


@pytest.mark.parametrize("family,label", CASES)
def test_vision_params_match_meta_device(family, label):
    case = ORACLE["families"][family]["cases"][label]
    raw = copy.deepcopy(case["config"])
    if "text_error" in case:  # the scorer could not read this text side when the oracle was made
        try:
            arch = normalize(copy.deepcopy(raw))
        except ConfigError:
            assert _tower_alone(raw) == case["vision"]
            return
    else:
        arch = normalize(raw)
    counts = count_params(arch)
    assert arch.vision is not None and arch.vision_note is None
    # params.vision also holds audio towers (kinds/vision/audio.py: "audio_*" modules, as in the sweep oracle);
    # this oracle leaves audio towers out
    audio = sum(n for k, n in arch.vision.extra_params.items() if k.startswith("audio_"))
    assert counts.vision - audio == case["vision"]
    if case["text_exact"]:  # the language model stays what it was: vision is apart
        assert counts.total == case["language_model"]
    # every key of vision_config is read, or known to change no shape
    assert [k for k in arch.unmodelled_keys if k.startswith("vision_config")] == []


def _clip_layers(h: int, inter: int, n: int) -> int:
    """CLIPEncoderLayer: q/k/v/out_proj with biases, fc1/fc2 with biases, layer_norm1/2 (weight + bias)."""
    return n * (4 * (h * h + h) + (h * inter + inter) + (inter * h + h) + 2 * 2 * h)


def test_llava_1_5_hub_config_counts_clip_and_the_projector():
    # llava-hf/llava-1.5-7b-hf writes a partial vision_config; CLIPVisionConfig fills num_channels (3)
    raw = {"architectures": ["LlavaForConditionalGeneration"], "model_type": "llava", "ignore_index": -100,
           "image_token_index": 32000, "projector_hidden_act": "gelu", "vision_feature_layer": -2,
           "vision_feature_select_strategy": "default", "tie_word_embeddings": False,
           "text_config": {"model_type": "llama", "hidden_size": 4096, "intermediate_size": 11008,
                           "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 32,
                           "vocab_size": 32064, "max_position_embeddings": 4096, "rms_norm_eps": 1e-05},
           "vision_config": {"hidden_size": 1024, "image_size": 336, "intermediate_size": 4096,
                             "model_type": "clip_vision_model", "num_attention_heads": 16, "num_hidden_layers": 24,
                             "patch_size": 14, "projection_dim": 768, "vocab_size": 32000}}
    h, th = 1024, 4096
    # CLIPVisionEmbeddings: class_embedding, bias-free Conv2d 3x14x14, (336/14)^2 + 1 positions;
    # CLIPVisionTransformer: pre_layrnorm, post_layernorm
    embeddings = h + 3 * 14 * 14 * h + (24 * 24 + 1) * h + 2 * 2 * h
    # LlavaMultiModalProjector: linear_1 (h -> th), linear_2 (th -> th), biased (multimodal_projector_bias default)
    projector = (h * th + th) + (th * th + th)
    arch = normalize(raw)
    assert count_params(arch).vision == _clip_layers(h, 4096, 24) + embeddings + projector == 324_487_168
    assert arch.unmodelled_keys == []


def test_qwen2_vl_reads_embed_dim_and_mlp_ratio():
    # Qwen/Qwen2-VL-7B-Instruct style vision_config: embed_dim is the tower's width, hidden_size the merger's output
    raw = {"architectures": ["Qwen2VLForConditionalGeneration"], "model_type": "qwen2_vl", "hidden_size": 3584,
           "intermediate_size": 18944, "num_attention_heads": 28, "num_hidden_layers": 28, "num_key_value_heads": 4,
           "vocab_size": 152064, "tie_word_embeddings": False,
           "vision_config": {"depth": 32, "embed_dim": 1280, "mlp_ratio": 4, "num_heads": 16, "in_chans": 3,
                             "hidden_size": 1536, "patch_size": 14, "spatial_merge_size": 2,
                             "spatial_patch_size": 14, "temporal_patch_size": 2}}
    e, i, out, merged = 1280, 5120, 1536, 1280 * 4
    # Qwen2VisionTransformerPretrainedModel: bias-free Conv3d (3 x 2 x 14 x 14), blocks of LayerNorm x 2, fused
    # qkv + proj with biases, fc1/fc2 with biases; PatchMerger: ln_q, mlp merged -> merged -> hidden_size
    blocks = 32 * (2 * 2 * e + (3 * e * e + 3 * e) + (e * e + e) + (e * i + i) + (i * e + e))
    expected = 3 * 2 * 14 * 14 * e + blocks + 2 * e + (merged * merged + merged) + (merged * out + out)
    arch = normalize(raw)
    assert count_params(arch).vision == expected
    assert [k for k in arch.unmodelled_keys if k.startswith("vision_config")] == []


def test_an_unread_vision_key_is_named_and_an_unknown_encoder_is_noted():
    base = copy.deepcopy(ORACLE["families"]["llava"]["cases"]["default"]["config"])
    raw = copy.deepcopy(base)
    raw["vision_config"]["num_register_tokens"] = 4
    arch = normalize(raw)
    assert "vision_config.num_register_tokens" in arch.unmodelled_keys and not arch.exact
    raw = copy.deepcopy(base)
    raw["vision_config"] = {"model_type": "dinov2", "hidden_size": 1024, "num_hidden_layers": 24,
                            "num_attention_heads": 16}
    arch = normalize(raw)
    assert arch.vision is None and "not derived" in arch.vision_note
    assert count_params(arch).total == ORACLE["families"]["llava"]["cases"]["default"]["language_model"]


@pytest.mark.parametrize("family,edit,message", [
    ("llava", {"num_attention_heads": 7}, "attention heads"),
    ("qwen3_vl", {"num_heads": 7}, "not divisible by 7 attention heads"),
    ("mllama", {"supported_aspect_ratios": 3}, "supported_aspect_ratios"),
    ("qwen3_vl", {"depth": 10 ** 7}, "absurdly large"),
    ("internvl", {"patch_size": [14, 14, 14]}, "patch_size"),
])
def test_malformed_tower_dimensions_are_config_errors(family, edit, message):
    raw = copy.deepcopy(ORACLE["families"][family]["cases"]["default"]["config"])
    raw["vision_config"].update(edit)
    with pytest.raises(ConfigError, match=message):
        normalize(raw)


def test_internvl_downsample_ratio_must_be_a_fraction():
    raw = copy.deepcopy(ORACLE["families"]["internvl"]["cases"]["default"]["config"])
    raw["downsample_ratio"] = 0
    with pytest.raises(ConfigError, match="downsample_ratio"):
        normalize(raw)


def test_the_vision_tower_counts_in_weight_memory(tmp_path):
    """Newcomer trial: a VLM's vision tower was left out of weight memory and fit. vLLM loads it with the model and
    shards it over TP (vllm 0.33.0 qwen2_5_vl.py), so each GPU holds vision x 2 bytes / TP more than the language
    model alone; the tower's count is the hand-derived one of test_llava_1_5_hub_config_counts_clip_and_the_projector."""
    from scorer.sheet import Options, build_sheet
    from scorer.sources import RawModel, Provenance
    raw = {"architectures": ["LlavaForConditionalGeneration"], "model_type": "llava", "tie_word_embeddings": False,
           "text_config": {"model_type": "llama", "hidden_size": 4096, "intermediate_size": 11008,
                           "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 32,
                           "vocab_size": 32064, "max_position_embeddings": 4096},
           "vision_config": {"hidden_size": 1024, "image_size": 336, "intermediate_size": 4096,
                             "model_type": "clip_vision_model", "num_attention_heads": 16, "num_hidden_layers": 24,
                             "patch_size": 14, "projection_dim": 768}}
    text = dict(raw["text_config"], architectures=["LlamaForCausalLM"], tie_word_embeddings=False)

    def sheet(cfg):
        return build_sheet(RawModel(config=cfg, provenance=Provenance(kind="local", source="x")),
                           Options(recommendations=False))

    vlm, lm = sheet(raw), sheet(text)
    assert vlm.params.vision == 324_487_168 and vlm.params.total == lm.params.total
    for a, b in zip(vlm.capacity, lm.capacity):
        assert a.tp == b.tp
        assert a.weights_per_gpu_gib - b.weights_per_gpu_gib == pytest.approx(324_487_168 * 2 / a.tp / 2**30, abs=0.01)
    assert any("Vision tower" in x and "count in memory" in x for x in vlm.assumptions)
