"""Meta-device parameter counts of the Gemma 3n towers and the Nemotron-H Omni Parakeet audio tower, the numbers
kept in tests/test_towers_gemma3n_parakeet.py (needs torch and timm besides transformers).

    python scripts/towers_oracle.py > towers.json

Each model is instantiated on torch's meta device (no weights, no download) from transformers' config classes with
the overrides below; its modules' parameters are summed (``Module.parameters()``, shared tensors once).
"""
import json, sys
import torch, timm, transformers
from transformers import Gemma3nConfig, Gemma3nForConditionalGeneration, Gemma3nVisionConfig, TimmWrapperModel
from transformers.models.nemotron_h_omni.configuration_nemotron_h_omni import NemotronH_Omni_Reasoning_V3_Config
from transformers.models.nemotron_h_omni.modeling_nemotron_h_omni import NemotronH_Omni_Reasoning_V3


def n(m):
    return sum(p.numel() for p in m.parameters())


out = {"versions": {"torch": torch.__version__, "timm": timm.__version__, "transformers": transformers.__version__,
                    "python": sys.version.split()[0]}, "timm": {}, "gemma3n": {}, "nemotron_h_omni": {}}

# timm MobileNetV5 names, built the way Gemma3nModel builds vision_tower (AutoModel -> TimmWrapperModel, num_classes=0)
for name in ("mobilenetv5_300m_enc", "mobilenetv5_300m", "mobilenetv5_base"):
    with torch.device("meta"):
        wrapped = TimmWrapperModel(Gemma3nVisionConfig(architecture=name))
        direct = timm.create_model(name, pretrained=False, num_classes=0)
    out["timm"][name] = {"TimmWrapperModel": n(wrapped), "timm.create_model(num_classes=0)": n(direct)}

G3N = {
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
for var, kw in G3N.items():
    cfg = Gemma3nConfig(**kw)
    with torch.device("meta"):
        m = Gemma3nForConditionalGeneration(cfg)
    mods = {k: n(getattr(m.model, k)) for k in ("audio_tower", "vision_tower", "embed_audio", "embed_vision",
                                                   "language_model")}
    out["gemma3n"][var] = {"overrides": kw, "modules": mods, "total": n(m)}

NHO = {
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
for var, kw in NHO.items():
    cfg = NemotronH_Omni_Reasoning_V3_Config(**kw)
    with torch.device("meta"):
        m = NemotronH_Omni_Reasoning_V3(cfg)
    mods = {k: n(c) for k, c in m.named_children()}
    out["nemotron_h_omni"][var] = {"overrides": kw, "modules": mods, "total": n(m),
                                   "text_hidden": cfg.text_config.hidden_size}
print(json.dumps(out, indent=1))
