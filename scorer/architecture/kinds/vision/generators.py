"""Image tokenizers, image-generation heads and speech-output modules, counted under ``params.vision``
(group: omni models and image tokenizer towers).

A text-generating model may carry modules that turn images into tokens (Chameleon's, Emu3's and Janus's VQ-VAE
``vq_config``), generate images (Janus's generation embeddings, aligner and head) or speech (an omni model's talker
and token2wav / code2wav). None of them is part of the language model; the oracle counts every non-text module
under ``vision``, and so does this module. Readers are registered in the tower tables of :mod:`..vision` (``TOWERS`` for
configs with a ``vision_config``, :data:`.audio.TOP_LEVEL_TOWERS` for those without one).

Sub-configs (``vq_config``, ...) are read through :class:`~scorer.architecture.reader.Reader` objects over the raw
dict and transformers' sub-config object (whose defaults fill keys the file leaves out).

Counts follow transformers 5.24's modeling code (checked on torch's meta device:
``tests/data/meta_oracle_sweep.json``).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ....errors import ConfigError
from ...reader import Reader, check_int
from ...specs import VisionTower
from . import TOWERS, TowerContext, tower
from .audio import TOP_LEVEL_TOWERS
from .encoders import ENCODERS, Encoder, dim, encoder_for, grid, linear, norm, read_encoder


def sub_reader(r: Reader, key: str) -> Reader:
    """A reader over the sub-config ``key`` of ``r`` (raw dict and the config object's attribute); ``key`` is
    recorded as consumed in ``r``. An absent sub-config reads as empty (the config object's defaults apply)."""
    obj = getattr(r.cfg, key, None) if r.cfg is not None else None
    raw = r.raw.get(key)
    r.mark(key)
    return Reader(raw if isinstance(raw, dict) else {}, obj if obj is not None and not isinstance(obj, dict) else None,
                  f"{r.where}.{key}", set())


def conv(c_in: int, c_out: int, *kernel: int, bias: bool = True) -> int:
    """Parameters of a Conv of any dimension: ``kernel`` gives the size along each spatial axis (none: 1x1)."""
    ks = 1
    for v in kernel:
        ks *= v
    return c_in * c_out * ks + (c_out if bias else 0)


def conv2d(c_in: int, c_out: int, k: int = 1, bias: bool = True) -> int:
    """Parameters of a square k x k Conv2d, with bias."""
    return conv(c_in, c_out, k, k, bias=bias)


def group_norm(c: int) -> int:
    """An affine GroupNorm over ``c`` channels: weight and bias."""
    return 2 * c


def int_list(r: Reader, key: str, default: Any = None) -> list[int]:
    """``key`` read as a list of positive ints (channel multipliers, ratios).

    Raises:
        ConfigError: not a non-empty list of positive ints.
    """
    val = r.get(key, default)
    if not isinstance(val, (list, tuple)) or not val:
        raise ConfigError(f"{r.where}: {key} must be a non-empty list of integers, got {val!r}"[:200])
    return [check_int(v, key, r.where) for v in val]


# --- the taming-transformers VQGAN (Chameleon, Janus) ------------------------------------------------------------

def _resnet(c_in: int, c_out: int, conv_shortcut: bool = False) -> int:
    """ChameleonVQVAEEncoderResnetBlock / JanusVQVAEResnetBlock: GroupNorm, 3x3 conv, GroupNorm, 3x3 conv; a 1x1
    nin_shortcut (3x3 conv_shortcut) when the channels change."""
    n = group_norm(c_in) + conv2d(c_in, c_out, 3) + group_norm(c_out) + conv2d(c_out, c_out, 3)
    if c_in != c_out:
        n += conv2d(c_in, c_out, 3 if conv_shortcut else 1)
    return n


def _attn_block(c: int) -> int:
    """ChameleonVQVAEEncoderAttnBlock / JanusVQVAEAttnBlock: GroupNorm and four 1x1 convs (q, k, v, proj_out)."""
    return group_norm(c) + 4 * conv2d(c, c, 1)


def vqgan_encoder(vq: Reader, attn_at: Any, mid_attn: bool = True) -> tuple[int, int]:
    """(parameters, output channels) of the VQGAN encoder: conv_in (in_channels -> base_channels, 3x3), per level
    of channel_multiplier num_res_blocks resnet blocks (an attention block after each where ``attn_at(level,
    resolution)``), a stride-2 3x3 downsample conv below every level but the last, the mid block (resnet,
    attention when ``mid_attn``, resnet), norm_out, conv_out (-> latent_channels, doubled by double_latent)."""
    base = dim(vq, "base_channels")
    mult = int_list(vq, "channel_multiplier")
    blocks = dim(vq, "num_res_blocks", limit="num_layers")
    c_img = dim(vq, "in_channels", default=3)
    latent = dim(vq, "latent_channels")
    res = dim(vq, "resolution", default=0)  # the input side, halved per level (Chameleon's attn_resolutions)
    n = conv2d(c_img, base, 3)
    ins = [1, *mult]
    c = base
    for level, m in enumerate(mult):
        c = base * ins[level]
        out = base * m
        for _ in range(blocks):
            n += _resnet(c, out)
            c = out
            if attn_at(level, res):
                n += _attn_block(c)
        if level != len(mult) - 1:
            n += conv2d(c, c, 3)
            res //= 2
    n += 2 * _resnet(c, c) + (_attn_block(c) if mid_attn else 0)
    n += group_norm(c) + conv2d(c, latent * (2 if vq.get("double_latent") else 1), 3)
    return n, c


def vqgan_decoder(vq: Reader, attn_at: Any) -> int:
    """Parameters of JanusVQVAEDecoder: conv_in (latent_channels -> top width, 3x3), the mid block (resnet,
    attention, resnet), per level from the top num_res_blocks + 1 resnet blocks (an attention block after each where
    ``attn_at(level)``), a 3x3 upsample conv above every level but the lowest, norm_out, conv_out (-> out_channels)."""
    base = dim(vq, "base_channels")
    mult = int_list(vq, "channel_multiplier")
    blocks = dim(vq, "num_res_blocks", limit="num_layers")
    latent = dim(vq, "latent_channels")
    c_out = dim(vq, "out_channels", default=3)
    c = base * mult[-1]
    n = conv2d(latent, c, 3) + 2 * _resnet(c, c) + _attn_block(c)
    for level in reversed(range(len(mult))):
        out = base * mult[level]
        for _ in range(blocks + 1):
            n += _resnet(c, out)
            c = out
            if attn_at(level):
                n += _attn_block(c)
        if level != 0:
            n += conv2d(c, c, 3)
    return n + group_norm(c) + conv2d(c, c_out, 3)


def _quantizer(vq: Reader, codes_key: str) -> int:
    """The codebook (codes x embed_dim), quant_conv (latent -> embed_dim, 1x1) and post_quant_conv (back)."""
    codes = dim(vq, codes_key, limit="vocab_size")
    e = dim(vq, "embed_dim")
    latent = dim(vq, "latent_channels")
    return codes * e + conv2d(latent, e) + conv2d(e, latent)


def _vq_tower(family: str, width: int, extra: dict[str, int]) -> VisionTower:
    return VisionTower(family=family, hidden_size=width, num_layers=0, layers=[], norm="layernorm",
                       extra_params={k: v for k, v in extra.items() if v})


def _chameleon(ctx: TowerContext) -> VisionTower | None:
    """ChameleonVQVAE (modeling_chameleon.py; frozen, encoder only): the VQGAN encoder with attention blocks at the
    resolutions in attn_resolutions and in the mid block when attn_type is "vanilla", the codebook of num_embeddings
    x embed_dim, quant_conv and post_quant_conv."""
    vq = sub_reader(ctx.tr, "vq_config")
    vq.mark("dropout", "initializer_range")
    vanilla = (vq.get("attn_type") or "vanilla") == "vanilla"
    at = vq.get("attn_resolutions") or ()
    if not isinstance(at, (list, tuple)):
        raise ConfigError(f"{vq.where}: attn_resolutions must be a list, got {at!r}"[:200])
    enc, c = vqgan_encoder(vq, lambda level, res: vanilla and res in at, mid_attn=vanilla)
    ctx.tr.mark("vocabulary_map", "image_token_id")  # token bookkeeping: no parameters
    return _vq_tower("chameleon_vqgan", c, {"vq_encoder": enc, "vq_quantizer": _quantizer(vq, "num_embeddings")})


TOP_LEVEL_TOWERS["chameleon"] = _chameleon


#: JanusVisionModel (modeling_janus.py): SigLIP-like, MLP width hidden * mlp_ratio, q/k/v biased per
#: attention_bias, position table of (image_size / patch_size)^2 rows, post_layernorm, no pooling head
ENCODERS.setdefault("janus_vision_model", Encoder(
    "janus_vision", "JanusVisionModel", inter_ratio="mlp_ratio", qkv_bias=("attention_bias", True), positions=grid,
    post_norm=True, no_shape=("num_image_tokens", "projection_dropout", "hidden_dropout_rate")))


@tower("janus")
def janus(ctx: TowerContext) -> VisionTower | None:
    """JanusModel's non-text modules (modeling_janus.py): vision_model (JanusVisionModel; q_norm / k_norm
    LayerNorms over the width when use_qk_norm), aligner (JanusVisionAlignerMLP: fc1 hidden -> projection_dim, then
    depth - 1 linears projection_dim -> projection_dim, with biases), vqmodel (JanusVQVAE: VQGAN encoder and decoder
    with attention blocks on the lowest-resolution level, the codebook, quant / post_quant convs),
    generation_embeddings (num_embeddings x embed_dim), generation_aligner (JanusVQVAEAlignerMLP: embed_dim ->
    projection_dim, num_hidden_layers - 1 more linears) and generation_head (proj_out image_token_embed_dim ->
    projection_dim, vision_head -> num_embeddings)."""
    enc = encoder_for(ctx.vision_type, "janus_vision_model")
    if enc is None:
        return None
    vr = ctx.vr
    parts = read_encoder(vr, enc)
    vh = parts.hidden
    qk = 2 * 2 * norm(vh, "layernorm") * len(parts.layers) if vr.get("use_qk_norm") else 0
    pd = dim(vr, "projection_dim")
    aligner = linear(vh, pd) + (dim(vr, "depth", limit="num_layers") - 1) * linear(pd, pd)
    vq = sub_reader(ctx.tr, "vq_config")
    vq.mark("dropout", "initializer_range", "hidden_act")
    levels = len(int_list(vq, "channel_multiplier"))
    vq_enc, _ = vqgan_encoder(vq, lambda level, res: level == levels - 1)
    vq_dec = vqgan_decoder(vq, lambda level: level == levels - 1)
    vq.mark("num_patches", "resolution")  # the generated grid side: no parameters
    codes = dim(vq, "num_embeddings", limit="vocab_size")
    e = dim(vq, "embed_dim")
    gp = dim(vq, "projection_dim")
    gen = codes * e + linear(e, gp) + (dim(vq, "num_hidden_layers", limit="num_layers") - 1) * linear(gp, gp)
    gen += linear(dim(vq, "image_token_embed_dim"), gp) + linear(gp, codes)
    return VisionTower(family="janus_vision", hidden_size=vh, num_layers=len(parts.layers), layers=parts.layers,
                       norm="layernorm", extra_params={**parts.extra, **{k: v for k, v in {
                           "qk_norms": qk, "aligner": aligner, "vq_encoder": vq_enc, "vq_decoder": vq_dec,
                           "vq_quantizer": _quantizer(vq, "num_embeddings"), "generation": gen}.items() if v}})


# --- Cohere Compass: Qwen3-VL's vision model --------------------------------------------------------------------

def _cohere_compass() -> None:
    """CohereCompassModel is Qwen3VLModel (modular_cohere_compass.py): its visual is Qwen3VLVisionModel with the
    merger and deepstack mergers, read by the Qwen3-VL tower reader."""
    from .towers import qwen3_vl
    ENCODERS.setdefault("cohere_compass_vision", ENCODERS["qwen3_vl"])
    if "cohere_compass" not in TOWERS:
        tower("cohere_compass")(lambda ctx: qwen3_vl(dataclasses.replace(ctx, model_type="qwen3_vl")))


_cohere_compass()


# --- Nemotron-H Omni: the RADIO vision model and the pixel-shuffle projector ------------------------------------

def radio_encoder(vr: Reader) -> tuple[int, list[Any], dict[str, int]]:
    """(width, blocks, modules outside the blocks) of RadioModel (modeling_radio.py): patch_projection (patch_dim ->
    hidden, no bias), video_patch_projection (video_patch_dim -> hidden, no bias) when video_temporal_patch_size is
    set, the position table ((max_img_size / patch_size)^2 x hidden), cls_register_token ((num_cls_tokens +
    num_registers) x hidden); blocks of LayerNorm, attention (q / k / v biased per qkv_bias, o_proj biased; head_dim
    or hidden / heads), two layer scales (hidden each), LayerNorm and an MLP (fc1 / fc2 of int(hidden * mlp_ratio),
    with biases) or, with use_swiglu_ffn, a biased SwiGLU of two thirds of that rounded up to a multiple of 8."""
    from ...specs import AttentionSpec, DenseMLP, LayerSpec
    vr.mark("norm_mean", "norm_std", "summary_idxs", "image_size", "drop_path_rate", "layer_norm_eps",
            "layerscale_value", "hidden_dropout_prob", "attention_probs_dropout_prob", "hidden_act",
            "initializer_range")  # buffers, dropout, init values (the layer scales' shape is hidden)
    h = dim(vr, "hidden_size", limit="hidden_size")
    heads = dim(vr, "num_attention_heads", limit="num_heads")
    hd = dim(vr, "head_dim", default=0) or h // heads
    n = dim(vr, "num_hidden_layers", limit="num_layers")
    ratio = vr.get("mlp_ratio")
    if isinstance(ratio, bool) or not isinstance(ratio, (int, float)) or not 0 < ratio <= 64:
        raise ConfigError(f"{vr.where}: mlp_ratio must be a positive number, got {ratio!r}"[:200])
    inter = int(h * ratio)
    gated = bool(vr.get("use_swiglu_ffn"))
    if gated:
        inter = (int(inter * 2 / 3) + 7) // 8 * 8
    att = AttentionSpec(num_heads=heads, num_kv_heads=heads, head_dim=hd, v_head_dim=hd,
                        qkv_bias=bool(vr.get("qkv_bias")), o_bias=True)
    layers = [LayerSpec(index=i, mixer=att, ffn=DenseMLP(intermediate=inter, gated=gated, bias=True), num_norms=2,
                        extra_params={"norms": 2 * h}) for i in range(n)]
    side = dim(vr, "max_img_size") // dim(vr, "patch_size")
    extra = {"patch_embed": dim(vr, "patch_dim") * h, "positions": side * side * h,
             "cls_register_tokens": (dim(vr, "num_cls_tokens", default=0) + dim(vr, "num_registers", default=0)) * h}
    vr.mark("num_channels")  # folded into patch_dim
    if vr.get("video_temporal_patch_size") is not None:
        extra["patch_embed"] += dim(vr, "video_patch_dim") * h
    else:
        vr.mark("video_patch_dim")
    return h, layers, extra


@tower("nemotron_h_omni")
def nemotron_h_omni(ctx: TowerContext) -> VisionTower | None:
    """NemotronH_Omni_Reasoning_V3 (modeling_nemotron_h_omni.py): vision_model (RadioModel, :func:`radio_encoder`),
    vision_final_layernorm (LayerNorm of vision_hidden_size) when the language model has MTP layers
    (text_config.num_nextn_predict_layers > 0), multi_modal_projector (RMSNorm over vision_hidden_size x
    int(1 / downsample_ratio)^2, linear_1 -> projector_hidden_size, linear_2 -> text hidden, no biases). An
    audio_config (the Parakeet sound encoder and embed_audio) is read by :func:`.audio.nemotron_h_omni_audio`."""
    if ctx.vision_type not in (None, "radio"):
        return None
    h, layers, extra = radio_encoder(ctx.vr)
    tr = ctx.tr
    vh = dim(tr, "vision_hidden_size", default=h)
    ratio = tr.get("downsample_ratio")
    if isinstance(ratio, bool) or not isinstance(ratio, (int, float)) or not 0 < ratio <= 1:
        raise ConfigError(f"{tr.where}: downsample_ratio must be a number in (0, 1], got {ratio!r}"[:200])
    inp = vh * int(1 / ratio) ** 2
    ph = dim(tr, "projector_hidden_size")
    tr.mark("video_pruning_rate", "video_temporal_patch_size", "force_image_size")  # no parameter shapes
    text = sub_reader(tr, "text_config")
    mtp = text.get("num_nextn_predict_layers") or 0
    extra["projector"] = inp + inp * ph + ph * ctx.text_hidden
    if mtp:
        extra["vision_final_norm"] = norm(vh, "layernorm")
    return VisionTower(family="radio", hidden_size=h, num_layers=len(layers), layers=layers, norm="layernorm",
                       extra_params=extra)


# --- Emu3: the MoVQGAN-style video tokenizer --------------------------------------------------------------------

def _emu3_resnet(c_in: int, c_out: int, quant: int | None = None) -> int:
    """Emu3VQVAEResnetBlock: two norms (GroupNorm, or Emu3VQVAESpatialNorm of ``quant`` channels: GroupNorm and two
    1x1 convs quant -> c), two 3x3 convs, a 1x1 nin_shortcut when the channels change."""
    def nrm(c: int) -> int:
        return _spatial_norm(quant, c) if quant else group_norm(c)
    n = nrm(c_in) + conv2d(c_in, c_out, 3) + nrm(c_out) + conv2d(c_out, c_out, 3)
    return n + (conv2d(c_in, c_out, 1) if c_in != c_out else 0)


def _spatial_norm(quant: int, c: int) -> int:
    """Emu3VQVAESpatialNorm: GroupNorm over c and conv_y / conv_b (1x1, quant -> c, biased)."""
    return group_norm(c) + 2 * conv2d(quant, c, 1)


def _temporal_resnet(c: int) -> int:
    """Emu3VQVAETemporalResnetBlock (c -> c): two BatchNorm3d (weight and bias) and two 3x3x3 Conv3d."""
    return 2 * 2 * c + 2 * conv(c, c, 3, 3, 3)


def _emu3(ctx: TowerContext) -> VisionTower | None:
    """Emu3VQVAE (modeling_emu3.py; frozen). Encoder: conv_in, per level of channel_multiplier num_res_blocks
    resnet blocks (an attention block, Emu3VQVAEAttentionBlock of hidden_size with biased q / k / v / out_proj, and
    a GroupNorm after each on the levels in attn_resolutions), 3x3 stride-2 downsample convs, the middle block
    (resnet, attention and its GroupNorm, resnet), norm_out, conv_out (-> latent_channels, doubled by
    double_latent), log2(temporal_downsample_factor) temporal downsample Conv3d (4x3x3) and num_res_blocks temporal
    resnet blocks. Decoder: num_res_blocks temporal resnets and log2(temporal_downsample_factor) temporal upsample
    Conv3d (3x3x3) over latent_channels, conv_in, the middle block and the up levels (num_res_blocks + 1 resnets,
    attention and a spatial norm on attn_resolutions levels, 3x3 upsample convs) with spatial norms of embed_dim
    channels, norm_out (spatial), conv_out (-> out_channels). The codebook (codebook_size x embed_dim), quant_conv
    and post_quant_conv (3x1x1 Conv3d latent <-> embed_dim)."""
    import math
    vq = sub_reader(ctx.tr, "vq_config")
    vq.mark("attention_dropout", "initializer_range")
    ctx.tr.mark("vocabulary_map", "image_token_id")  # token bookkeeping: no parameters
    base = dim(vq, "base_channels")
    mult = int_list(vq, "channel_multiplier")
    blocks = dim(vq, "num_res_blocks", limit="num_layers")
    latent = dim(vq, "latent_channels")
    e = dim(vq, "embed_dim")
    h = dim(vq, "hidden_size", limit="hidden_size")
    vq.mark("num_attention_heads")  # splits hidden_size: no parameter shape
    at = vq.get("attn_resolutions") or ()
    if not isinstance(at, (list, tuple)):
        raise ConfigError(f"{vq.where}: attn_resolutions must be a list, got {at!r}"[:200])
    tdf = dim(vq, "temporal_downsample_factor")
    t_blocks = int(math.log2(tdf))
    attn = 4 * linear(h, h)
    top = base * mult[-1]
    enc_out = latent * (2 if vq.get("double_latent") else 1)
    enc = conv2d(dim(vq, "in_channels", default=3), base, 3)
    ins = [1, *mult]
    for level, m in enumerate(mult):
        c, out = base * ins[level], base * m
        for _ in range(blocks):
            enc += _emu3_resnet(c, out)
            c = out
            if level in at:
                enc += attn + group_norm(c)
        if level != len(mult) - 1:
            enc += conv2d(c, c, 3)
    enc += 2 * _emu3_resnet(top, top) + attn + group_norm(top)
    enc += group_norm(top) + conv2d(top, enc_out, 3)
    enc += t_blocks * conv(enc_out, enc_out, 4, 3, 3) + blocks * _temporal_resnet(enc_out)
    dec = blocks * _temporal_resnet(latent) + t_blocks * conv(latent, latent, 3, 3, 3) + conv2d(latent, top, 3)
    dec += 2 * _emu3_resnet(top, top, e) + attn + _spatial_norm(e, top)
    c = top
    for level in reversed(range(len(mult))):
        out = base * mult[level]
        for _ in range(blocks + 1):
            dec += _emu3_resnet(c, out, e)
            c = out
            if level in at:
                dec += attn + _spatial_norm(e, c)
        if level != 0:
            dec += conv2d(c, c, 3)
    dec += _spatial_norm(e, base * mult[0]) + conv2d(base * mult[0], dim(vq, "out_channels", default=3), 3)
    quant = dim(vq, "codebook_size", limit="vocab_size") * e + conv(latent, e, 3, 1, 1) + conv(e, latent, 3, 1, 1)
    return _vq_tower("emu3_vqgan", top, {"vq_encoder": enc, "vq_decoder": dec, "vq_quantizer": quant})


TOP_LEVEL_TOWERS["emu3"] = _emu3


# --- Apertus 1.5: the EMU3.5 image tokenizer and the WavTokenizer audio encoder ------------------------------------

@tower("apertus1p5")
def apertus1p5(ctx: TowerContext) -> VisionTower | None:
    """Apertus1p5VisionTokenizerModel (modeling_apertus1p5.py; encode only): the VQGAN encoder (conv_in, per stage
    of channel_multiplier num_res_blocks resnet blocks, each followed by an attention block when the stage's
    resolution / 2^stage is in attn_resolutions, a stride-2 downsample conv below all but the last stage, the mid
    block with attention, norm_out, conv_out -> latent_channels), quant_conv (latent_channels -> embed_dim, 1x1) and
    the IBQ codebook (a bias-free linear embed_dim -> codebook_size)."""
    vr = ctx.vr
    if ctx.vision_type not in (None, "apertus1p5_vision_tokenizer"):
        return None
    vr.mark("dropout", "spatial_scale_factor", "initializer_range")  # spatial_scale_factor: 2^(stages - 1), derived
    at = vr.get("attn_resolutions") or ()
    if not isinstance(at, (list, tuple)):
        raise ConfigError(f"{vr.where}: attn_resolutions must be a list, got {at!r}"[:200])
    enc, c = vqgan_encoder(vr, lambda level, res: res in at)
    e = dim(vr, "embed_dim")
    quant = conv2d(dim(vr, "latent_channels"), e) + e * dim(vr, "codebook_size", limit="vocab_size")
    ctx.tr.mark("image_token_offset", "audio_token_offset")  # token-id offsets into the shared vocabulary
    return _vq_tower("apertus1p5_vision_tokenizer", c, {"vq_encoder": enc, "vq_quantizer": quant})


def wavtokenizer_encoder(ar: Reader) -> tuple[int, int]:
    """(width, parameters) of WavTokenizerEncoderModel (modeling_wavtokenizer.py): the SEANet encoder (a conv
    audio_channels -> num_filters of kernel_size; per upsampling ratio, reversed, num_residual_layers resnet blocks
    (ELU, conv dim -> dim / compress of residual_kernel_size, conv -> dim of kernel 1, a kernel-1 conv shortcut when
    use_conv_shortcut) and a downsampling conv (-> 2 dim, kernel 2 x ratio); an LSTM of num_lstm_layers over the
    width; a conv -> hidden_size of last_kernel_size). The Euclidean codebook is buffers only."""
    ar.mark("sampling_rate", "pad_mode", "use_causal_conv", "dilation_growth_rate", "norm_eps", "codebook_size",
            "codebook_dim", "initializer_range")  # padding, dilation and the codebook buffers: no parameters
    nt = ar.get("norm_type") or "weight_norm"
    if nt not in ("weight_norm", "time_group_norm"):
        raise ConfigError(f"{ar.where}: norm_type must be weight_norm or time_group_norm, got {nt!r}"[:200])
    # weight_norm: weight_g (one per output channel); time_group_norm: GroupNorm(1, out) (weight and bias)
    per_out = 1 if nt == "weight_norm" else 2

    def c1d(c_in: int, c_out: int, k: int) -> int:
        return c_in * c_out * k + c_out + per_out * c_out

    f = dim(ar, "num_filters")
    h = dim(ar, "hidden_size", limit="hidden_size")
    compress = dim(ar, "compress", default=2)
    rk = dim(ar, "residual_kernel_size")
    n_res = dim(ar, "num_residual_layers", limit="num_layers")
    shortcut = bool(ar.get("use_conv_shortcut"))
    n = c1d(dim(ar, "audio_channels", default=1), f, dim(ar, "kernel_size"))
    scale = 1
    for ratio in reversed(int_list(ar, "upsampling_ratios")):
        d = scale * f
        n += n_res * (c1d(d, d // compress, rk) + c1d(d // compress, d, 1) + (c1d(d, d, 1) if shortcut else 0))
        n += c1d(d, 2 * d, 2 * ratio)
        scale *= 2
    d = scale * f
    n += dim(ar, "num_lstm_layers", limit="num_layers") * (8 * d * d + 8 * d)  # nn.LSTM(d, d): 4 gates, 2 biases
    n += c1d(d, h, dim(ar, "last_kernel_size"))
    return h, n


def _register_apertus_audio() -> None:
    from .audio import AUDIO_TOWERS, AudioTower, audio_tower

    def apertus1p5_audio(ctx: TowerContext) -> AudioTower | None:
        """Apertus1p5Model.audio_tokenizer: the WavTokenizer encoder (no projector: its codes are text tokens)."""
        if ctx.vision_type not in (None, "wavtokenizer_encoder"):
            return None
        for k in ("decoder_hidden_size", "decoder_intermediate_size", "decoder_num_layers",
                  "decoder_attention_num_groups", "adanorm_num_embeddings"):
            ctx.vr.mark(k)  # WavTokenizerEncoderConfig: keys of the decoder, which the encoder model does not build
        h, n = wavtokenizer_encoder(ctx.vr)
        return AudioTower("wavtokenizer_encoder", h, {"audio_tokenizer": n})

    if "apertus1p5" not in AUDIO_TOWERS:
        audio_tower("apertus1p5")(apertus1p5_audio)


_register_apertus_audio()


# --- omni models: the thinker's towers, the talker, token2wav / code2wav -------------------------------------------

def thinker_towers(ctx: TowerContext, thinker_type: str) -> VisionTower | None:
    """The thinker's vision and audio towers of an omni model (thinker_config.vision_config / audio_config), read
    by the readers registered for the thinker's own model type; None when neither is read."""
    from . import read_tower
    from .audio import read_audio, with_audio
    th = sub_reader(ctx.tr, "thinker_config")
    th.mark("vision_config", "audio_config")
    vision = audio = None
    for key in ("vision_config", "audio_config"):
        raw = th.raw.get(key)
        if not isinstance(raw, dict):
            continue
        obj = getattr(th.cfg, key, None) if th.cfg is not None else None
        fn = read_tower if key == "vision_config" else read_audio
        got = fn(thinker_type, thinker_type, raw, obj, th.raw, th.cfg, ctx.text_hidden, set(), set())
        if key == "vision_config":
            vision = got
        else:
            audio = got
    if audio is not None:
        vision = with_audio(vision, audio)
    return vision


def decoder_stack(r: Reader, qkv_bias: bool, o_bias: bool, qk_norm: bool = False,
                  inter_key: str = "intermediate_size") -> tuple[int, int]:
    """(hidden, parameters) of num_hidden_layers dense Qwen2 / Qwen3-style decoder blocks read from ``r``: q / k / v
    / o projections (num_attention_heads and num_key_value_heads of head_dim, default hidden / heads), per-head q / k
    RMSNorms when ``qk_norm``, a gated MLP of ``inter_key``, two RMSNorms. Sliding windows and rotary settings
    shape nothing."""
    r.mark("layer_types", "use_sliding_window", "sliding_window", "max_window_layers", "rope_parameters",
           "rope_scaling", "rope_theta", "max_position_embeddings", "rms_norm_eps", "attention_dropout", "hidden_act",
           "initializer_range", "use_cache", "attention_bias")
    h = dim(r, "hidden_size", limit="hidden_size")
    heads = dim(r, "num_attention_heads", limit="num_heads")
    kv = dim(r, "num_key_value_heads", default=heads, limit="num_kv_heads")
    hd = dim(r, "head_dim", default=0) or h // heads
    inter = dim(r, inter_key, limit="intermediate_size")
    n = dim(r, "num_hidden_layers", limit="num_layers")
    att = linear(h, heads * hd, qkv_bias) + 2 * linear(h, kv * hd, qkv_bias) + linear(heads * hd, h, o_bias)
    block = att + (2 * hd if qk_norm else 0) + 3 * h * inter + 2 * h
    return h, n * block


def _conv1d(c_in: int, c_out: int, k: int, bias: bool = True) -> int:
    return conv(c_in, c_out, k, bias=bias)


def _ecapa(dr: Reader) -> int:
    """ECAPA_TimeDelayNet (modeling_qwen2_5_omni.py): a TimeDelayNetBlock (Conv1d mel_dim -> enc_channels[0] of
    enc_kernel_sizes[0]), a SqueezeExcitationRes2NetBlock per inner enc_channels entry (tdnn1 1x1, enc_res2net_scale
    - 1 Res2Net convs of channels / scale, tdnn2 1x1, squeeze-excitation convs -> enc_se_channels -> back), mfa
    (enc_channels[-1] -> itself, enc_kernel_sizes[-1]), attentive statistics pooling (3c -> enc_attention_channels
    -> c) and fc (2c -> enc_dim); every conv biased."""
    ch = int_list(dr, "enc_channels")
    ks = int_list(dr, "enc_kernel_sizes")
    int_list(dr, "enc_dilations")  # dilations shape nothing
    if len(ks) != len(ch):
        raise ConfigError(f"{dr.where}: enc_channels and enc_kernel_sizes must have the same length")
    scale = dim(dr, "enc_res2net_scale")
    se = dim(dr, "enc_se_channels")
    n = _conv1d(dim(dr, "mel_dim"), ch[0], ks[0])
    for i in range(1, len(ch) - 1):
        c_in, c = ch[i - 1], ch[i]
        n += _conv1d(c_in, c, 1) + (scale - 1) * _conv1d(c // scale, c // scale, ks[i]) + _conv1d(c, c, 1)
        n += _conv1d(c, se, 1) + _conv1d(se, c, 1)
    c = ch[-1]
    att = dim(dr, "enc_attention_channels")
    n += _conv1d(c, c, ks[-1]) + _conv1d(3 * c, att, 1) + _conv1d(att, c, 1) + _conv1d(2 * c, dim(dr, "enc_dim"), 1)
    return n


def _qwen_dit(dr: Reader) -> int:
    """Qwen2_5OmniToken2WavDiTModel: time_embed (256 -> hidden -> hidden), text_embed ((num_embeds + 1) x emb_dim),
    input_embed (proj of mel_dim + enc_dim + enc_emb_dim + emb_dim -> hidden, the ECAPA speaker encoder),
    num_hidden_layers DiTDecoderLayer (AdaLayerNormZero linear hidden -> 6 hidden, to_q / to_k / to_v hidden ->
    heads x head_dim and to_out back, a GELU MLP of int(hidden * ff_mult); all biased; affine-free LayerNorms),
    norm_out (linear hidden -> 2 hidden) and proj_out (hidden -> mel_dim)."""
    dr.mark("block_size", "look_ahead_layers", "look_backward_layers", "dropout", "repeats", "rope_parameters",
            "max_position_embeddings")  # attention masks, repeats, rotary: no parameters
    h = dim(dr, "hidden_size", limit="hidden_size")
    heads = dim(dr, "num_attention_heads", limit="num_heads")
    inner = heads * (dim(dr, "head_dim", default=0) or h // heads)
    mult = dr.get("ff_mult", 2)
    if isinstance(mult, bool) or not isinstance(mult, (int, float)) or not 0 < mult <= 64:
        raise ConfigError(f"{dr.where}: ff_mult must be a positive number, got {mult!r}"[:200])
    ff = int(h * mult)
    mel = dim(dr, "mel_dim")
    emb = dim(dr, "emb_dim")
    n = linear(256, h) + linear(h, h) + (dim(dr, "num_embeds", limit="vocab_size") + 1) * emb
    n += linear(mel + dim(dr, "enc_dim") + dim(dr, "enc_emb_dim") + emb, h) + _ecapa(dr)
    block = linear(h, 6 * h) + 3 * linear(h, inner) + linear(inner, h) + linear(h, ff) + linear(ff, h)
    n += dim(dr, "num_hidden_layers", limit="num_layers") * block
    return n + linear(h, 2 * h) + linear(h, mel)


def _bigvgan(br: Reader) -> int:
    """Qwen2_5OmniToken2WavBigVGANModel: conv_pre (mel_dim -> upsample_initial_channel, kernel 7), per upsample
    rate a ConvTranspose1d (c -> c / 2 of its upsample_kernel_sizes entry) and one AMPBlock per resblock kernel
    size over c / 2 (six biased convs of that kernel and six SnakeBeta activations, alpha and beta of c / 2 each),
    activation_post (SnakeBeta) and conv_post (-> 1 channel, kernel 7, no bias)."""
    rates = int_list(br, "upsample_rates")
    kernels = int_list(br, "upsample_kernel_sizes")
    rks = int_list(br, "resblock_kernel_sizes")
    dil = br.get("resblock_dilation_sizes")
    if len(kernels) != len(rates) or not isinstance(dil, (list, tuple)) or len(dil) != len(rks):
        raise ConfigError(f"{br.where}: upsample_kernel_sizes / resblock_dilation_sizes do not match the upsample "
                          "rates / resblock kernel sizes")
    c = dim(br, "upsample_initial_channel")
    n = _conv1d(dim(br, "mel_dim"), c, 7)
    for i, k in enumerate(kernels):
        c_in, c_out = c >> i, c >> (i + 1)
        n += _conv1d(c_in, c_out, k)
        n += sum(6 * _conv1d(c_out, c_out, rk) + 6 * 2 * c_out for rk in rks)
    c_last = c >> len(rates)
    return n + 2 * c_last + _conv1d(c_last, 1, 7, bias=False)


def _qwen2_5_omni(ctx: TowerContext) -> VisionTower | None:
    """Qwen2_5OmniForConditionalGeneration (modeling_qwen2_5_omni.py): the thinker's visual and audio_tower, and
    when enable_audio_output the talker (Qwen2_5OmniTalkerForConditionalGeneration: thinker_to_talker_proj
    embedding_size -> hidden with bias, embed_tokens vocab_size x embedding_size, Qwen2 blocks with biased q / k / v,
    the final RMSNorm, codec_head hidden -> vocab_size without bias) and token2wav (the DiT of dit_config and the
    BigVGAN of bigvgan_config)."""
    tr = ctx.tr
    base = thinker_towers(ctx, "qwen2_5_omni_thinker")
    extra = dict(base.extra_params) if base is not None else {}
    if tr.get("enable_audio_output", True):
        t = sub_reader(tr, "talker_config")
        t.mark("tie_word_embeddings", "pad_token_id", "position_id_per_seconds", "seconds_per_chunk",
               "spatial_merge_size")  # codec_head is never tied; positions and merging: no parameters
        h, blocks = decoder_stack(t, qkv_bias=True, o_bias=False)
        e = dim(t, "embedding_size", default=h)
        v = dim(t, "vocab_size", limit="vocab_size")
        extra["talker"] = linear(e, h) + v * e + blocks + h + v * h
        w = sub_reader(tr, "token2wav_config")
        extra["token2wav"] = _qwen_dit(sub_reader(w, "dit_config")) + _bigvgan(sub_reader(w, "bigvgan_config"))
    else:
        tr.mark("talker_config", "token2wav_config")  # not built without audio output
    if base is None:
        return _vq_tower("qwen2_5_omni", ctx.text_hidden, extra)
    return base.model_copy(update={"extra_params": {k: v for k, v in extra.items() if v}})


TOP_LEVEL_TOWERS["qwen2_5_omni"] = _qwen2_5_omni


def _moe_talker_stack(r: Reader) -> tuple[int, int]:
    """(hidden, parameters) of Qwen3OmniMoeTalkerModel's blocks (modeling_qwen3_omni_moe.py): every block's mlp is
    a Qwen3OmniMoeTalkerTextSparseMoeBlock (router num_experts x hidden; experts' gate_up (2 x
    moe_intermediate_size) and down; a gated shared expert of shared_expert_intermediate_size and its 1 x hidden
    gate; the constructor's dense / thinker-MoE choice by mlp_only_layers and decoder_sparse_step is overwritten),
    attention as the thinker text model's (biased per attention_bias, per-head q / k RMSNorms), two RMSNorms."""
    r.mark("mlp_only_layers", "decoder_sparse_step", "norm_topk_prob", "num_experts_per_tok", "router_aux_loss_coef",
           "output_router_logits", "intermediate_size")  # routing only; the overwritten dense / thinker MLP
    bias = bool(r.get("attention_bias"))
    h, dense = decoder_stack(r, qkv_bias=bias, o_bias=bias, qk_norm=True, inter_key="moe_intermediate_size")
    n = dim(r, "num_hidden_layers", limit="num_layers")
    mi = dim(r, "moe_intermediate_size", limit="intermediate_size")
    e = dim(r, ("num_experts", "num_local_experts"), limit="num_experts")
    si = dim(r, "shared_expert_intermediate_size", limit="intermediate_size")
    # decoder_stack counted one gated MLP of moe_intermediate_size per block: replace it by the MoE block
    moe = e * h + e * 3 * h * mi + 3 * h * si + h
    return h, dense + n * (moe - 3 * h * mi)


def _code2wav(cr: Reader) -> int:
    """Qwen3OmniMoeCode2Wav: pre_transformer (num_hidden_layers blocks of q / k / v / o biased per attention_bias,
    no q / k norms, a gated MLP, two RMSNorms and two layer scales of hidden; the final RMSNorm), code_embedding
    (codebook_size x num_quantizers rows of hidden), per upsampling_ratios factor a transposed conv (hidden ->
    hidden, kernel = stride = factor) and a ConvNeXt block (depthwise kernel-7 conv, LayerNorm, pwconv1 / pwconv2 of
    4 hidden, gamma), the decoder (a kernel-7 conv hidden -> decoder_dim; per upsample rate r a block over
    decoder_dim / 2^i -> / 2^(i+1): SnakeBeta, a transposed conv of kernel 2r, three residual units of SnakeBeta,
    kernel-7 conv, SnakeBeta, kernel-1 conv; a SnakeBeta and a kernel-7 conv -> 1 channel)."""
    cr.mark("layer_scale_initial_scale", "sliding_window")  # the scales' initial value, the window: no shapes
    bias = bool(cr.get("attention_bias"))
    h, blocks = decoder_stack(cr, qkv_bias=bias, o_bias=bias)
    n = blocks + dim(cr, "num_hidden_layers", limit="num_layers") * 2 * h + h
    n += dim(cr, "codebook_size", limit="vocab_size") * dim(cr, "num_quantizers") * h
    for f in int_list(cr, "upsampling_ratios"):
        n += _conv1d(h, h, f) + (7 * h + h) + 2 * h + linear(h, 4 * h) + linear(4 * h, h) + h
    dd = dim(cr, "decoder_dim")
    n += _conv1d(h, dd, 7)
    rates = int_list(cr, "upsample_rates")
    for i, r in enumerate(rates):
        c_in, c_out = dd >> i, dd >> (i + 1)
        n += 2 * c_in + _conv1d(c_in, c_out, 2 * r)
        n += 3 * (2 * c_out + _conv1d(c_out, c_out, 7) + 2 * c_out + _conv1d(c_out, c_out, 1))
    out = dd >> len(rates)
    return n + 2 * out + _conv1d(out, 1, 7)


def _qwen3_omni_moe(ctx: TowerContext) -> VisionTower | None:
    """Qwen3OmniMoeForConditionalGeneration (modeling_qwen3_omni_moe.py): the thinker's visual and audio_tower, and
    when enable_audio_output the talker (Qwen3OmniMoeTalkerForConditionalGeneration: the MoE talker model of
    talker_config.text_config with its codec_embedding (vocab_size x hidden) and final RMSNorm; text_projection and
    hidden_projection, each a ResizeMLP thinker_hidden_size -> text intermediate_size -> hidden with biases;
    codec_head hidden -> vocab_size (tied to codec_embedding when tie_word_embeddings); the code predictor of
    code_predictor_config: dense Qwen3 blocks with q / k norms, the final RMSNorm, num_code_groups - 1 codec
    embeddings and lm_heads) and code2wav (:func:`_code2wav`)."""
    tr = ctx.tr
    base = thinker_towers(ctx, "qwen3_omni_moe_thinker")
    extra = dict(base.extra_params) if base is not None else {}
    if tr.get("enable_audio_output", True):
        t = sub_reader(tr, "talker_config")
        t.mark("accept_hidden_layer", "position_id_per_seconds", "spatial_merge_size", "speaker_id")  # no shapes
        tt = sub_reader(t, "text_config")
        h, blocks = _moe_talker_stack(tt)
        v = dim(tt, "vocab_size", limit="vocab_size")
        ti = dim(tt, "intermediate_size", limit="intermediate_size")
        resize = linear(dim(t, "thinker_hidden_size"), ti) + linear(ti, h)
        tie = bool(t.get("tie_word_embeddings"))
        tt.mark("tie_word_embeddings", "pad_token_id")
        talker = blocks + h + v * h + 2 * resize + (0 if tie else v * h)
        cp = sub_reader(t, "code_predictor_config")
        cp.mark("tie_word_embeddings", "pad_token_id")
        bias = bool(cp.get("attention_bias"))
        ch, cblocks = decoder_stack(cp, qkv_bias=bias, o_bias=bias, qk_norm=True)
        groups = dim(cp, "num_code_groups", default=dim(t, "num_code_groups", default=32))
        t.mark("num_code_groups")
        cv = dim(cp, "vocab_size", limit="vocab_size")
        talker += cblocks + ch + 2 * (groups - 1) * cv * ch
        extra["talker"] = talker
        extra["code2wav"] = _code2wav(sub_reader(tr, "code2wav_config"))
    else:
        tr.mark("talker_config", "code2wav_config")  # not built without audio output
    if base is None:
        return _vq_tower("qwen3_omni_moe", ctx.text_hidden, extra)
    return base.model_copy(update={"extra_params": {k: v for k, v in extra.items() if v}})


TOP_LEVEL_TOWERS["qwen3_omni_moe"] = _qwen3_omni_moe
