"""Gemma 3n's towers and Nemotron-H Omni's Parakeet audio tower, counted under ``params.vision``.

Expected numbers come from two places that do not use the normalizer:

* :data:`MEASURED`: the models instantiated on torch's meta device with transformers 5.25.0, timm 1.0.31, torch
  2.14.1 (python 3.11.7) by ``python scripts/towers_oracle.py`` (the overrides below are the script's), per module;
* module-by-module derivations written out here from the modeling code (:func:`gemma3n_audio_encoder`,
  :func:`gemma3n_embedder`, :func:`parakeet`, :func:`nemotron_embed_audio`), checked against the measurements.

No torch is needed here: the configs are serialized by transformers' config classes.
"""

from __future__ import annotations

import copy
import json
import math

import pytest
import transformers
from transformers import AutoConfig

from scorer.architecture import normalize
from scorer.architecture.kinds.vision.gemma3n import TIMM_PARAMS
from scorer.errors import ConfigError
from scorer.params import count_params

#: variant -> the overrides scripts/towers_oracle.py passes to Gemma3nConfig
GEMMA3N = {
    "default": {},
    "resize_a": {"audio_config": {"hidden_size": 512, "conf_num_attention_heads": 4, "conf_num_hidden_layers": 3,
                                  "conf_conv_kernel_size": 7, "sscp_conv_channel_size": [64, 16],
                                  "input_feat_size": 80, "vocab_size": 64},
                 "text_config": {"hidden_size": 1024}},
    "resize_b": {"audio_config": {"hidden_size": 384, "conf_num_attention_heads": 6, "conf_num_hidden_layers": 2,
                                  "conf_conv_kernel_size": 3, "sscp_conv_channel_size": [32, 8],
                                  "sscp_conv_kernel_size": [[3, 5], [5, 3]], "sscp_conv_stride_size": [[2, 3], [2, 2]],
                                  "input_feat_size": 96, "vocab_size": 100},
                 "vision_config": {"vocab_size": 64, "hidden_size": 1024}},
}

#: variant -> the overrides scripts/towers_oracle.py passes to NemotronH_Omni_Reasoning_V3_Config (the model reads
#: projection_hidden_size / projection_bias from audio_config as attributes: every variant sets them)
NEMOTRON = {
    "default_audio": {"audio_config": {"projection_hidden_size": 4096, "projection_bias": False}},
    "published_like": {"audio_config": {"num_mel_bins": 128, "projection_hidden_size": 4096,
                                        "projection_bias": False}},
    "resize_a": {"audio_config": {"hidden_size": 512, "num_hidden_layers": 3, "num_attention_heads": 4,
                                  "intermediate_size": 1024, "conv_kernel_size": 15, "subsampling_factor": 4,
                                  "subsampling_conv_channels": 64, "num_mel_bins": 80,
                                  "projection_hidden_size": 1024, "projection_bias": True,
                                  "attention_bias": True, "convolution_bias": False}},
    "resize_b": {"audio_config": {"hidden_size": 256, "num_hidden_layers": 2, "num_attention_heads": 2,
                                  "head_dim": 64, "intermediate_size": 512, "conv_kernel_size": 5,
                                  "subsampling_factor": 4, "subsampling_conv_stride": 3,
                                  "subsampling_conv_kernel_size": 5, "subsampling_conv_channels": 32,
                                  "num_mel_bins": 100, "projection_hidden_size": 768, "projection_bias": False}},
}

#: parameters per module on torch's meta device (python scripts/towers_oracle.py; torch 2.14.1, timm 1.0.31,
#: transformers 5.25.0): Gemma3nForConditionalGeneration's model.<module>, NemotronH_Omni_Reasoning_V3's children
MEASURED = {
    "gemma3n": {
        "default": {"audio_tower": 681_348_640, "vision_tower": 294_126_912, "embed_audio": 3_345_408,
                    "embed_vision": 4_460_544, "language_model": 6_835_235_568},
        "resize_a": {"audio_tower": 19_073_040, "vision_tower": 294_126_912, "embed_audio": 558_080,
                     "embed_vision": 2_363_392, "language_model": 4_585_740_016},
        "resize_b": {"audio_tower": 7_140_744, "vision_tower": 294_126_912, "embed_audio": 825_600,
                     "embed_vision": 2_164_736, "language_model": 6_835_235_568},
    },
    "nemotron_h_omni": {  # vision_model 653,693,440 and multi_modal_projector 37,753,856 in every variant
        "default_audio": {"audio_tower": 607_405_056, "embed_audio": 20_972_544},
        "published_like": {"audio_tower": 608_977_920, "embed_audio": 20_972_544},
        "resize_a": {"audio_tower": 13_304_128, "embed_audio": 4_724_224},
        "resize_b": {"audio_tower": 1_873_824, "embed_audio": 3_342_592},
    },
    # TimmWrapperModel(Gemma3nVisionConfig(architecture=name)) and timm.create_model(name, num_classes=0) agree
    "timm": {"mobilenetv5_300m_enc": 294_126_912, "mobilenetv5_300m": 294_126_912, "mobilenetv5_base": 80_598_976},
}
NEMOTRON_VISION = 653_693_440 + 37_753_856
NEMOTRON_TEXT = 1_968_355_712  # language_model (NemotronHForCausalLM) of the default text config


def gemma3n_config(variant: str) -> dict:
    d = json.loads(transformers.Gemma3nConfig(**copy.deepcopy(GEMMA3N[variant])).to_json_string(use_diff=False))
    d["architectures"] = ["Gemma3nForConditionalGeneration"]
    return d


def nemotron_config(variant: str) -> dict:
    cfg = AutoConfig.for_model("nemotron_h_omni", **copy.deepcopy(NEMOTRON[variant]))
    d = json.loads(cfg.to_json_string(use_diff=False))
    d["architectures"] = ["NemotronH_Omni_Reasoning_V3"]
    return d


# --- independent derivations (transformers 5.25 modeling code) ---------------------------------------------------

def gemma3n_audio_encoder(a: dict) -> int:
    """Gemma3nAudioEncoder (models/gemma3n/modeling_gemma3n.py), module by module; no biases anywhere."""
    h, heads, k = a["hidden_size"], a["conf_num_attention_heads"], a["conf_conv_kernel_size"]
    c = a["sscp_conv_channel_size"]
    modules = {}
    # Gemma3nAudioSubSampleConvProjection: conv_0 / conv_1 (Conv2d, bias=False) + CumulativeGroupNorm weights;
    # each conv pads frequency (1, 1): f_out = (f_in + 2 - k_w) // s_w + 1
    f = a["input_feat_size"]
    c_in = 1
    for i in range(2):
        kh, kw = a["sscp_conv_kernel_size"][i]
        f = (f + 2 - kw) // a["sscp_conv_stride_size"][i][1] + 1
        modules[f"conv_{i}"] = c_in * c[i] * kh * kw + c[i]
        c_in = c[i]
    modules["input_proj_linear"] = c[-1] * f * h
    block = {
        "ffw_layer_start": h + h * 4 * h + 4 * h * h + h,  # pre norm, ffw_layer_1, ffw_layer_2, post norm
        "attention": h + 3 * h * h + h * h + h // heads + h * h + h,  # pre_attn_norm, q/k/v, pos_proj,
        # per_dim_scale, post, post_norm
        "lconv1d": h + h * 2 * h + h * k + h + h * h,  # pre norm, linear_start, depthwise, conv_norm, linear_end
        "ffw_layer_end": h + h * 4 * h + 4 * h * h + h,
        "norm": h,
    }
    return sum(modules.values()) + a["conf_num_hidden_layers"] * sum(block.values())


def gemma3n_embedder(m: dict, text_hidden: int) -> int:
    """Gemma3nMultimodalEmbedder: embedding, hard / soft RMSNorms, embedding_projection (bias=False); the post
    projection norm is built with_scale=False."""
    return m["vocab_size"] * m["hidden_size"] + 2 * m["hidden_size"] + m["hidden_size"] * text_hidden


def parakeet(a: dict) -> int:
    """ParakeetEncoder (models/parakeet/modeling_parakeet.py), module by module."""
    h, heads, inter, k = a["hidden_size"], a["num_attention_heads"], a["intermediate_size"], a["conv_kernel_size"]
    hd = a.get("head_dim", h // heads)
    kv = a["num_key_value_heads"]
    ab, cb = a["attention_bias"], a["convolution_bias"]
    c, ks, s = a["subsampling_conv_channels"], a["subsampling_conv_kernel_size"], a["subsampling_conv_stride"]
    stages = int(math.log2(a["subsampling_factor"]))

    def lin(i, o, b):
        return i * o + (o if b else 0)

    sub = (1 * c * ks * ks + c) + (stages - 1) * ((c * ks * ks + c) + (c * c + c))  # depthwise (groups=c), pointwise
    sub += lin(c * (a["num_mel_bins"] // s ** stages), h, True)
    ffn = lin(h, inter, ab) + lin(inter, h, ab)
    attn = lin(h, heads * hd, ab) + 2 * lin(h, kv * hd, ab) + lin(heads * hd, h, ab) + h * heads * hd \
        + 2 * heads * hd  # q, k, v, o, relative_k_proj, bias_u, bias_v
    conv = lin(h, 2 * h, cb) + (h * k + (h if cb else 0)) + 2 * h + lin(h, h, cb)  # BatchNorm1d: weight, bias
    return sub + a["num_hidden_layers"] * (2 * ffn + attn + conv + 5 * 2 * h)


def nemotron_embed_audio(a: dict, text_hidden: int) -> int:
    """NemotronH_Omni_Reasoning_V3MultiModalProjector(audio hidden, projection_hidden_size, text hidden)."""
    h, p, b = a["hidden_size"], a["projection_hidden_size"], a["projection_bias"]
    return h + h * p + (p if b else 0) + p * text_hidden + (text_hidden if b else 0)


# --- Gemma 3n ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", sorted(GEMMA3N))
def test_gemma3n_derivation_matches_the_meta_device(variant):
    d = gemma3n_config(variant)
    m = MEASURED["gemma3n"][variant]
    th = d["text_config"]["hidden_size"]
    assert gemma3n_audio_encoder(d["audio_config"]) == m["audio_tower"]
    assert gemma3n_embedder(d["audio_config"], th) == m["embed_audio"]
    assert gemma3n_embedder(d["vision_config"], th) == m["embed_vision"]
    assert MEASURED["timm"][d["vision_config"]["architecture"]] == m["vision_tower"]


@pytest.mark.parametrize("variant", sorted(GEMMA3N))
def test_gemma3n_towers_count_as_the_meta_device(variant):
    arch = normalize(gemma3n_config(variant))
    p = count_params(arch)
    m = MEASURED["gemma3n"][variant]
    assert p.vision == m["audio_tower"] + m["vision_tower"] + m["embed_audio"] + m["embed_vision"]
    assert p.total == m["language_model"]
    assert arch.vision.extra_params == {"vision_encoder": m["vision_tower"], "projector": m["embed_vision"],
                                        "audio_encoder": m["audio_tower"], "audio_projector": m["embed_audio"]}
    assert arch.unmodelled_keys == [] and arch.guesses == [] and arch.vision_note is None
    assert arch.exact


def test_gemma3n_default_towers_total():
    # the default config's towers as measured on the meta device (983,281,504)
    assert count_params(normalize(gemma3n_config("default"))).vision == 983_281_504


def test_gemma3n_hub_style_config_counts_the_same():
    # a config.json naming only some keys: transformers' config classes fill the rest
    hub = {"model_type": "gemma3n", "architectures": ["Gemma3nForConditionalGeneration"],
           "audio_config": {"model_type": "gemma3n_audio", "hidden_size": 1536, "conf_num_hidden_layers": 12},
           "vision_config": {"model_type": "gemma3n_vision", "architecture": "mobilenetv5_300m_enc",
                             "model_args": None},
           "text_config": {"model_type": "gemma3n_text"}}
    arch = normalize(hub)
    assert count_params(arch).vision == 983_281_504
    assert arch.exact


def test_gemma3n_timm_table_is_the_measurement():
    assert TIMM_PARAMS == MEASURED["timm"]
    assert transformers.Gemma3nVisionConfig().architecture in TIMM_PARAMS


@pytest.mark.parametrize("vision_change", [{"architecture": "mobilenetv4_conv_small"},
                                           {"model_args": {"drop_path_rate": 0.1, "num_features": 1024}}])
def test_gemma3n_unknown_timm_encoder_is_left_unmodelled(vision_change):
    d = gemma3n_config("default")
    d["vision_config"].update(vision_change)
    arch = normalize(d)
    p = count_params(arch)
    m = MEASURED["gemma3n"]["default"]
    assert p.vision == m["audio_tower"] + m["embed_audio"]  # the audio tower alone; nothing guessed for vision
    assert "vision_config" in arch.unmodelled_keys
    assert arch.vision_note and not arch.exact


def test_gemma3n_weight_memory_holds_the_towers():
    from scorer.costmodel import CostModel, Layout
    from scorer.hardware import get_gpu, get_precision
    arch = normalize(gemma3n_config("default"))
    p = count_params(arch)
    cm = CostModel(arch, p, get_gpu("H100-SXM"), get_precision("bf16"), Layout(tp=2))
    assert cm.vision_weight_bytes() == 983_281_504 * 2 / 2  # bf16, split over TP 2
    assert cm.weights_per_gpu() > cm.vision_weight_bytes()


def test_gemma3n_malformed_subsampling_is_refused():
    d = gemma3n_config("default")
    d["audio_config"]["sscp_conv_channel_size"] = [128, 32, 16]
    with pytest.raises(ConfigError, match="sscp_conv_channel_size"):
        normalize(d)


# --- Nemotron-H Omni: the Parakeet audio tower ------------------------------------------------------------------

@pytest.mark.parametrize("variant", sorted(NEMOTRON))
def test_parakeet_derivation_matches_the_meta_device(variant):
    d = nemotron_config(variant)
    m = MEASURED["nemotron_h_omni"][variant]
    assert parakeet(d["audio_config"]) == m["audio_tower"]
    assert nemotron_embed_audio(d["audio_config"], d["text_config"]["hidden_size"]) == m["embed_audio"]


@pytest.mark.parametrize("variant", sorted(NEMOTRON))
def test_nemotron_h_omni_audio_tower_counts_as_the_meta_device(variant):
    arch = normalize(nemotron_config(variant))
    p = count_params(arch)
    m = MEASURED["nemotron_h_omni"][variant]
    assert p.vision == NEMOTRON_VISION + m["audio_tower"] + m["embed_audio"]
    assert p.total == NEMOTRON_TEXT
    assert arch.vision.extra_params["audio_encoder"] == m["audio_tower"]
    assert arch.vision.extra_params["audio_projector"] == m["embed_audio"]
    assert arch.unmodelled_keys == [] and arch.exact


def test_nemotron_h_omni_published_sizes():
    # Parakeet 1024 wide x 24 layers, 128 mel bins, projection_hidden_size 4096, projection_bias false
    p = count_params(normalize(nemotron_config("published_like")))
    assert p.vision - NEMOTRON_VISION == 608_977_920 + 20_972_544


def test_nemotron_h_omni_legacy_sound_config_without_the_bias_flags():
    # released checkpoints write sound_config (the config class maps it to audio_config) and leave attention_bias /
    # scale_input out, which the class then sets to False (configuration_nemotron_h_omni.py __post_init__)
    d = nemotron_config("published_like")
    sound = d.pop("audio_config")
    for k in ("model_type", "attention_bias", "scale_input"):
        sound.pop(k)
    d["sound_config"] = sound
    arch = normalize(d)
    assert count_params(arch).vision - NEMOTRON_VISION == 608_977_920 + 20_972_544
    assert arch.unmodelled_keys == [] and arch.exact


def test_nemotron_h_omni_without_audio_config_counts_vision_only():
    d = nemotron_config("default_audio")
    d["audio_config"] = None
    assert count_params(normalize(d)).vision == NEMOTRON_VISION


def test_nemotron_h_omni_audio_without_projection_keys_is_refused():
    # NemotronH_Omni_Reasoning_V3.__init__ reads config.audio_config.projection_hidden_size: no model without it
    d = nemotron_config("default_audio")
    del d["audio_config"]["projection_hidden_size"]
    with pytest.raises(ConfigError, match="projection_hidden_size"):
        normalize(d)
