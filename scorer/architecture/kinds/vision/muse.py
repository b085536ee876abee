"""Towers of Muse Spark / Muse Glimmer (vision, Muse Spark's audio) and HY-V4-VL (vision).

Group: longcat_flash, muse_spark, muse_glimmer, axk2, hy_v4, hy_v4_vl (g3). Counts follow transformers 5.24
(``modeling_muse_spark.py``, ``modeling_muse_glimmer.py``, ``modeling_hy_v4_vl.py``); widths are elements,
``vh`` the encoder's width, ``th`` the language model's hidden size.
"""

from __future__ import annotations

from ....errors import ConfigError
from ...reader import Reader, check_int
from ...specs import VisionTower
from . import TowerContext, tower
from .audio import AudioTower, audio_tower
from .encoders import ENCODERS, Encoder, dim, linear, norm, pair, read_encoder
from .towers import _tower

# MuseSparkVisionModel / MuseGlimmerVisionModel: a bias-free Linear patch embedding of patch_temporal x 3 x p x p
# inputs, a pos_emb_height x pos_emb_width position table, ln_pre and ln_post (LayerNorms), blocks of two
# LayerNorms, q/k/v/proj and fc1/fc2 with biases; layer_types (window / full attention), merge_size (the pixel
# shuffle) and the axial RoPE shape no parameter
for _name, _source in (("muse_spark_vision", "MuseSparkVisionModel"),
                       ("muse_glimmer_vision", "MuseGlimmerVisionModel")):
    ENCODERS[_name] = Encoder(_name, _source, fixed_channels=3, patch_bias=False, temporal="patch_temporal",
                              positions=lambda vr: dim(vr, "pos_emb_height") * dim(vr, "pos_emb_width"),
                              pre_norm=True, post_norm=True,
                              no_shape=("layer_types", "merge_size", "max_position_embeddings"))
# HYV4VLVisionModel: Conv2d patch embedding with bias, (max_image_size / patch_size)^2 + 1 positions (a class row
# and the patch grid), LayerNorm blocks with biased q/k/v/o_proj (heads x head_dim, head_dim = width / heads unless
# given) and fc1/fc2; no final norm (the patch merger's before_rms follows); num_key_value_heads is not read
ENCODERS["hy_v4_vl_vision"] = Encoder(
    "hy_v4_vl_vision", "HYV4VLVisionModel", head_dim="head_dim", heads=("num_attention_heads", "attention_heads"),
    positions=lambda vr: (dim(vr, "max_image_size") // pair(vr, "patch_size")[0]) ** 2 + 1,
    no_shape=("num_key_value_heads", "interpolate_mode"))
del _name, _source


@tower("muse_spark", "muse_glimmer")
def muse(ctx: TowerContext) -> VisionTower | None:
    """The Muse vision tower and its projector (MuseSparkModel / MuseGlimmerModel): vision_adapter fc1
    (out_hidden_size -> projector_hidden_size) and fc2 (projector_hidden_size square), vision_projection
    (projector_hidden_size -> th), none with bias; perception_emb_norm is weight-less.

    Raises:
        ConfigError: a missing, malformed or absurd dimension.
    """
    default = f"{ctx.model_type}_vision"
    enc = ENCODERS.get(ctx.vision_type or default) or ENCODERS.get(default)
    if enc is None:
        return None
    parts = read_encoder(ctx.vr, enc)
    tr = ctx.tr
    tr.mark("projector_hidden_act")
    out = dim(tr, "out_hidden_size")
    p = dim(tr, "projector_hidden_size")
    proj = linear(out, p, False) + linear(p, p, False) + linear(p, ctx.text_hidden, False)
    return _tower(parts, enc.name, projector=proj)


@tower("hy_v4_vl")
def hy_v4_vl(ctx: TowerContext) -> VisionTower | None:
    """HYV4VLVisionModel and its HYV4VLVisionPatchMerger: before_rms (RMSNorm, vh), proj_conv (Conv2d vh ->
    vh·m², kernel m, bias), proj_out (1x1 Conv2d vh·m² -> out_hidden_size, bias), image_newline (out_hidden_size);
    m = spatial_merge_size.

    Raises:
        ConfigError: a missing, malformed or absurd dimension.
    """
    parts = read_encoder(ctx.vr, ENCODERS["hy_v4_vl_vision"])
    vr, vh = ctx.vr, parts.hidden
    m = dim(vr, "spatial_merge_size", default=2)
    out = dim(vr, "out_hidden_size")
    wide = vh * m * m
    merger = vh + (vh * wide * m * m + wide) + linear(wide, out) + out
    return _tower(parts, "hy_v4_vl_vision", merger=merger)


def _int_list(ar: Reader, key: str, n: int) -> list[int]:
    val = ar.get(key)
    if not isinstance(val, (list, tuple)) or len(val) != n:
        raise ConfigError(f"{ar.where}: {key} must list one integer per audio layer ({n}), got {val!r}"[:200])
    return [check_int(v, f"{key}[{i}]", ar.where) for i, v in enumerate(val)]


@audio_tower("muse_spark")
def muse_spark_audio(ctx: TowerContext) -> AudioTower | None:
    """MuseSparkAudioModel: num_hidden_layers stages; stage i has a patch embedding (Linear of in_i x
    patch_sizes[i] -> hidden_sizes[i] with bias, in_0 = 1 (the waveform), in_i = hidden_sizes[i-1]) and its
    RMSNorm, then depths[i] conv blocks: a depthwise causal Conv1d (conv_kernel_size taps, bias), an RMSNorm and an
    fc1/fc2 MLP of int(hidden x mlp_ratio) with biases; then norm (RMSNorm), proj (-> out_hidden_size, bias) and
    post_proj_norm. Its output is scattered onto the text embeddings: no projector.

    Raises:
        ConfigError: the per-stage lists do not have one entry per layer, or a malformed dimension.
    """
    ar = ctx.vr
    n = dim(ar, "num_hidden_layers", limit="num_layers")
    patches, widths, depths = (_int_list(ar, k, n) for k in ("patch_sizes", "hidden_sizes", "depths"))
    ratio = ar.get("mlp_ratio")
    if isinstance(ratio, bool) or not isinstance(ratio, (int, float)) or not 0 < ratio <= 64:
        raise ConfigError(f"{ar.where}: mlp_ratio must be a positive number, got {ratio!r}"[:200])
    kernel = dim(ar, "conv_kernel_size")
    out = dim(ar, "out_hidden_size")
    total = 0
    for i in range(n):
        h, inner = widths[i], int(widths[i] * ratio)
        total += linear((1 if i == 0 else widths[i - 1]) * patches[i], h) + norm(h, "rms")
        total += depths[i] * ((h * kernel + h) + norm(h, "rms") + linear(h, inner) + linear(inner, h))
    total += norm(widths[-1], "rms") + linear(widths[-1], out) + norm(out, "rms")
    return AudioTower("muse_spark_audio", widths[-1], {"audio_encoder": total})
