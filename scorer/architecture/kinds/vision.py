"""Vision towers, counted under ``params.vision`` (apart from the language model)."""

from __future__ import annotations

from typing import Any

from ...errors import ConfigError
from ..reader import Reader
from ..specs import AttentionSpec, DenseMLP, LayerSpec, VisionTower


def qwen_vl_vision(vc: dict[str, Any], text_hidden: int, where: str, consumed: set[str] | None = None) -> VisionTower:
    """Qwen2-VL / Qwen2.5-VL vision tower (parameter layout of transformers' Qwen2_5_VisionTransformer)."""
    vr = Reader(vc, None, f"{where}.vision_config", consumed)
    # window attention layout and time scale: no parameters; spatial_patch_size repeats patch_size
    vr.mark("fullatt_block_indexes", "window_size", "spatial_patch_size", "tokens_per_second")
    h = vr.int("hidden_size")
    depth = vr.int("depth")
    heads = vr.int("num_heads")
    inter = vr.int("intermediate_size")
    patch = vr.int("patch_size", default=14)
    tps = vr.int("temporal_patch_size", default=2)
    in_ch = vr.int("in_chans", default=vr.get("in_channels", 3))
    merge = vr.int("spatial_merge_size", default=2)
    out_h = vr.int("out_hidden_size", default=text_hidden)
    if h % heads:
        raise ConfigError(f"{where}.vision_config: hidden_size {h} is not divisible by num_heads {heads}")
    att = AttentionSpec(num_heads=heads, num_kv_heads=heads, head_dim=h // heads, v_head_dim=h // heads,
                        qkv_bias=True, o_bias=True)
    layers = [LayerSpec(index=i, mixer=att, ffn=DenseMLP(intermediate=inter, gated=True, bias=True), num_norms=2)
              for i in range(depth)]
    merged = h * merge * merge
    extra = {
        "patch_embed": h * in_ch * tps * patch * patch,
        "merger": h + (merged * merged + merged) + (merged * out_h + out_h),
    }
    return VisionTower(family="qwen2_5_vl_vision", hidden_size=h, num_layers=depth, layers=layers, norm="rms",
                       extra_params=extra)


#: text-model family -> tower reader(vision_config dict, text hidden size, where, consumed keys)
TOWERS = {"qwen2_5_vl_text": qwen_vl_vision, "qwen2_vl_text": qwen_vl_vision, "qwen2_5_vl": qwen_vl_vision,
          "qwen2_vl": qwen_vl_vision}
