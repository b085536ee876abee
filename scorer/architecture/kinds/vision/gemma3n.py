"""Gemma 3n's towers (Gemma3nModel, transformers 5.25 models/gemma3n/modeling_gemma3n.py lines 1912-1926),
counted under ``params.vision``: ``audio_tower`` (Gemma3nAudioEncoder, a USM conformer built from
``audio_config``) with ``embed_audio``, and ``vision_tower`` (a timm MobileNetV5 named by
``vision_config.architecture``) with ``embed_vision``; both embedders are Gemma3nMultimodalEmbedder.

The audio encoder and the embedders are derived from the keys their modules read. The timm encoder is not
described by its config (``architecture`` names a timm builder whose blocks are fixed in timm's code), so its
count comes from :data:`TIMM_PARAMS`, measured; a name outside the table leaves the vision tower unmodelled
(``vision_config`` listed, the counts estimated).
"""

from __future__ import annotations

from ....errors import ConfigError
from ...reader import Reader, check_int
from ...specs import VisionTower
from . import TowerContext, tower
from .audio import AudioTower, audio_tower, usm_conformer_block
from .encoders import dim, width_and_heads

#: timm architecture name -> parameters of the encoder Gemma3nModel builds for it: vision_tower =
#: AutoModel.from_config(vision_config) (modeling_gemma3n.py line 1919) is TimmWrapperModel
#: (auto/modeling_auto.py: "gemma3n_vision"), which calls timm.create_model(architecture, pretrained=False,
#: num_classes=0, **model_args) (timm_wrapper/modeling_timm_wrapper.py lines 65-69 and 171-173): no
#: classifier. transformers' Gemma3nVisionConfig names mobilenetv5_300m_enc (configuration_gemma3n.py line 365);
#: the other MobileNetV5 builders timm registers (timm/models/mobilenetv5.py) are measured the same way.
#: Measured on torch's meta device (TimmWrapperModel and timm.create_model(name, num_classes=0) agree), with
#: torch 2.14.1, timm 1.0.31, transformers 5.25.0, python 3.11.7 (also ``python scripts/towers_oracle.py``, key
#: "timm"; kept in tests/test_towers_gemma3n_parakeet.py):
#:
#:     python -c "import torch, timm; from transformers import Gemma3nVisionConfig, TimmWrapperModel
#:     for name in ('mobilenetv5_300m_enc', 'mobilenetv5_300m', 'mobilenetv5_base'):
#:         with torch.device('meta'): m = TimmWrapperModel(Gemma3nVisionConfig(architecture=name))
#:         print(name, sum(p.numel() for p in m.parameters()))"
TIMM_PARAMS: dict[str, int] = {
    "mobilenetv5_300m_enc": 294_126_912,
    "mobilenetv5_300m": 294_126_912,
    "mobilenetv5_base": 80_598_976,
}


def multimodal_embedder(r: Reader, text_hidden: int) -> int:
    """Gemma3nMultimodalEmbedder (modeling_gemma3n.py lines 1856-1876) over the sub-config ``r``: embedding
    (vocab_size x hidden_size, the tower's hard tokens), hard_embedding_norm and soft_embedding_norm (RMSNorm of
    hidden_size each), embedding_projection (hidden_size -> text hidden, no bias); embedding_post_projection_norm
    has no scale."""
    r.mark("vocab_offset", "rms_norm_eps")  # token id offset, epsilon: no shapes
    h = dim(r, "hidden_size", limit="hidden_size")
    v = dim(r, "vocab_size", limit="vocab_size")
    return v * h + 2 * h + h * text_hidden


def _pairs(r: Reader, key: str) -> list[tuple[int, int]]:
    """``key`` read as two (time, frequency) pairs (sscp_conv_kernel_size, sscp_conv_stride_size)."""
    val = r.get(key)
    if not isinstance(val, (list, tuple)) or len(val) != 2 or not all(
            isinstance(p, (list, tuple)) and len(p) == 2 for p in val):
        raise ConfigError(f"{r.where}: {key} must be two [time, frequency] pairs, got {val!r}"[:200])
    return [(check_int(p[0], key, r.where), check_int(p[1], key, r.where)) for p in val]


@audio_tower("gemma3n")
def gemma3n_audio(ctx: TowerContext) -> AudioTower | None:
    """Gemma3nAudioEncoder (modeling_gemma3n.py lines 1422-1440) and embed_audio (:func:`multimodal_embedder`).

    Bias-free linears and convs throughout. subsample_conv_projection (lines 710-766): two Conv2d blocks
    (1 -> c0 -> c1 channels, sscp_conv_kernel_size kernels) each with a CumulativeGroupNorm weight of its
    channels (lines 532-561, 641-687), input_proj_linear (c1 x the frequency bins left after both convs -> h;
    each conv pads the frequency axis by 1 on both sides: f_out = (f_in + 2 - k_f) // s_f + 1, starting at
    input_feat_size). conf_num_hidden_layers conformer blocks (lines 879-889), each: two feed-forwards (lines
    811-821: pre / post RMSNorm, h -> 4h -> h), attention (lines 783-792 and 308-328: pre_attn_norm, q / k / v,
    the relative position embedding's pos_proj (lines 142-153), per_dim_scale of h / heads, post, post_norm), the
    light conv (lines 836-854: pre_layer_norm, linear_start h -> 2h, a depthwise Conv1d of conf_conv_kernel_size,
    conv_norm, linear_end) and the block's RMSNorm."""
    ar = ctx.vr
    if ctx.vision_type not in (None, "gemma3n_audio"):
        return None
    ar.mark("conf_attention_chunk_size", "conf_attention_context_left", "conf_attention_context_right",
            "conf_attention_logit_cap", "conf_reduction_factor", "conf_residual_weight", "gradient_clipping",
            "sscp_conv_group_norm_eps")  # chunking, caps, time reduction, clamping: buffers and forward only
    ctx.tr.mark("audio_soft_tokens_per_image")  # the audio token count per clip: no parameters
    h, heads = width_and_heads(ar, "hidden_size", "conf_num_attention_heads")
    n = dim(ar, "conf_num_hidden_layers", limit="num_layers")
    k = dim(ar, "conf_conv_kernel_size")
    ch = ar.get("sscp_conv_channel_size")
    if not isinstance(ch, (list, tuple)) or len(ch) != 2:
        raise ConfigError(f"{ar.where}: sscp_conv_channel_size must be a list of two channel counts (the two "
                          f"subsampling convs), got {ch!r}"[:200])
    c0, c1 = (check_int(c, "sscp_conv_channel_size", ar.where) for c in ch)
    kernels = _pairs(ar, "sscp_conv_kernel_size")
    strides = _pairs(ar, "sscp_conv_stride_size")
    f = dim(ar, "input_feat_size")
    for (_, kf), (_, sf) in zip(kernels, strides):
        f = (f + 2 - kf) // sf + 1
        if f < 1:
            raise ConfigError(f"{ar.where}: the subsampling convs leave no frequency bins of input_feat_size")
    (kt0, kf0), (kt1, kf1) = kernels
    sub = (c0 * kt0 * kf0 + c0) + (c0 * c1 * kt1 * kf1 + c1) + c1 * f * h
    enc = sub + n * usm_conformer_block(h, heads, k)
    return AudioTower("gemma3n_audio", h, {"audio_encoder": enc,
                                           "projector": multimodal_embedder(ar, ctx.text_hidden)})


@tower("gemma3n")
def gemma3n_vision(ctx: TowerContext) -> VisionTower | None:
    """vision_tower (TimmWrapperModel over the timm builder vision_config.architecture: :data:`TIMM_PARAMS`) and
    embed_vision (:func:`multimodal_embedder`). None (the tower unmodelled) for an architecture outside the
    table or for timm keyword arguments (model_args), which change the blocks."""
    vr = ctx.vr
    if ctx.vision_type not in (None, "gemma3n_vision"):
        return None
    name = vr.get("architecture")
    model_args = vr.get("model_args")
    if not isinstance(name, str) or name not in TIMM_PARAMS or model_args:
        return None
    vr.mark("architecture", "model_args", "do_pooling", "num_classes", "label_names", "num_labels")
    # do_pooling: the forward's pooling switch; num_classes / label_names: TimmWrapperModel builds no classifier
    ctx.tr.mark("vision_soft_tokens_per_image")  # the image token count: no parameters
    h = dim(vr, "hidden_size", limit="hidden_size")
    return VisionTower(family=f"timm:{name}", hidden_size=h, num_layers=0, layers=[], norm="rms",
                       extra_params={"vision_encoder": TIMM_PARAMS[name],
                                     "projector": multimodal_embedder(vr, ctx.text_hidden)})
