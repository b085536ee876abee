"""Audio towers, counted under ``params.vision`` with the vision tower: every non-text tower and projector.

An audio-input chat model (Qwen2-Audio, Voxtral, ...) serves text from text prompts too; its language model
is read like any other, and the encoder behind ``audio_config`` plus the projector into the text width are
counted apart by a reader registered per top-level ``model_type`` in :data:`AUDIO_TOWERS`. A reader reads
``audio_config`` through ``ctx.vr`` (raw keys and transformers' audio config object, each key recorded, so
the unread shape keys of ``audio_config`` stay listed as unmodelled) and the top-level keys through
``ctx.tr``; it returns the parameter counts of its modules (elements), or None for a layout it cannot read.

Counts follow transformers 5.24's modeling code (checked on torch's meta device:
``tests/data/meta_oracle_sweep.json``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ....errors import ConfigError
from ...reader import Reader
from ...specs import VisionTower
from .. import registrar
from . import TowerContext, run_tower_reader
from .encoders import dim, linear, norm, width_and_heads


@dataclass
class AudioTower:
    """An audio encoder and its projector read from ``audio_config``: the encoder's width, module counts."""

    family: str
    hidden: int
    extra: dict[str, int] = field(default_factory=dict)


AudioReader = Callable[[TowerContext], "AudioTower | None"]

#: top-level model_type -> audio tower reader
AUDIO_TOWERS: dict[str, AudioReader] = {}


#: register an audio tower reader under each top-level ``model_type`` it answers to
audio_tower = registrar(AUDIO_TOWERS, "audio tower")


def read_audio(model_type: str | None, family: str, audio_raw: dict[str, Any], audio_obj: Any,
               top_raw: dict[str, Any], top_obj: Any, text_hidden: int, audio_consumed: set[str],
               top_consumed: set[str]) -> AudioTower | None:
    """The audio tower of a config, or None when no reader knows it (its audio_config stays unmodelled).

    Raises:
        ConfigError: an audio dimension is missing, malformed, absurd or inconsistent.
    """
    return run_tower_reader(AUDIO_TOWERS, "audio_config", model_type, family, audio_raw, audio_obj, top_raw,
                            top_obj, text_hidden, audio_consumed, top_consumed)


def with_audio(vision: VisionTower | None, audio: AudioTower) -> VisionTower:
    """The vision tower with the audio tower's modules added (``audio_`` prefixed), or the audio tower alone."""
    extra = {(k if k.startswith("audio") else "audio_" + k): v for k, v in audio.extra.items() if v}
    if vision is None:
        return VisionTower(family=audio.family, hidden_size=audio.hidden, num_layers=0, layers=[], norm="layernorm",
                           extra_params=extra)
    merged = dict(vision.extra_params)
    for k, v in extra.items():
        merged[k] = merged.get(k, 0) + v
    return vision.model_copy(update={"extra_params": merged, "family": f"{vision.family}+{audio.family}"})


def whisper_encoder(ar: Reader) -> tuple[int, int]:
    """(width, parameters) of a Whisper-style audio encoder (Qwen2AudioEncoder, VoxtralEncoder): conv1
    (num_mel_bins -> d, kernel 3) and conv2 (d -> d, kernel 3) with biases, embed_positions (max_source_positions
    x d, a frozen parameter), encoder_layers blocks (q / v / out_proj with bias, k_proj without; fc1 / fc2 of
    encoder_ffn_dim with biases; two LayerNorms), the final layer_norm."""
    ar.mark("scale_embedding", "vocab_size", "encoder_layerdrop", "layerdrop")  # no parameter shape
    d, heads = width_and_heads(ar, ("d_model", "hidden_size"), ("encoder_attention_heads", "num_attention_heads"),
                               "d_model")
    n = dim(ar, ("encoder_layers", "num_hidden_layers"), limit="num_layers")
    f = dim(ar, ("encoder_ffn_dim", "intermediate_size"), limit="intermediate_size")
    # published audio configs (Voxtral) also write head_dim and num_key_value_heads, which the encoder does not
    # read (head_dim = d / heads, every head its own K/V): consumed only where they say so
    if ar.raw.get("head_dim") == d // heads:
        ar.mark("head_dim")
    if ar.raw.get("num_key_value_heads") == heads:
        ar.mark("num_key_value_heads")
    mels = dim(ar, "num_mel_bins")
    pos = dim(ar, "max_source_positions", limit="max_positions")
    block = 4 * d * d + 3 * d + 2 * norm(d, "layernorm") + linear(d, f) + linear(f, d)
    stem = (mels * 3 * d + d) + (d * 3 * d + d) + pos * d
    return d, n * block + stem + norm(d, "layernorm")


@audio_tower("qwen2_audio")
def qwen2_audio(ctx: TowerContext) -> AudioTower | None:
    """Qwen2AudioEncoder and Qwen2AudioMultiModalProjector (linear d_model -> text hidden, with bias)."""
    d, enc = whisper_encoder(ctx.vr)
    return AudioTower("qwen2_audio_encoder", d, {"audio_encoder": enc, "projector": linear(d, ctx.text_hidden)})


@audio_tower("voxtral")
def voxtral(ctx: TowerContext) -> AudioTower | None:
    """VoxtralEncoder and VoxtralMultiModalProjector: linear_1 (audio intermediate_size -> text hidden) and
    linear_2 (text hidden -> text hidden), without biases."""
    d, enc = whisper_encoder(ctx.vr)
    f = dim(ctx.vr, ("encoder_ffn_dim", "intermediate_size"), limit="intermediate_size")
    th = ctx.text_hidden
    ctx.tr.mark("projector_hidden_act", "hidden_size")  # hidden_size: the text model's, copied to the top level
    return AudioTower("voxtral_encoder", d, {"audio_encoder": enc, "projector": f * th + th * th})


# --- towers described by top-level keys (no vision_config) -----------------------------------------

#: top-level model_type -> reader of a tower whose keys sit at the top level (``ctx.vr`` and ``ctx.tr`` both
#: read the top-level config)
TOP_LEVEL_TOWERS: dict[str, Callable[[TowerContext], "VisionTower | None"]] = {}


def read_top_tower(model_type: str | None, raw: dict[str, Any], top_obj: Any, text_hidden: int,
                   top_consumed: set[str]) -> VisionTower | None:
    """The tower of a config that has no vision_config but describes its image input at the top level."""
    fn = TOP_LEVEL_TOWERS.get(model_type or "")
    if fn is None:
        return None
    r = Reader(raw, top_obj, "config", top_consumed)
    return fn(TowerContext(vr=r, tr=r, text_hidden=text_hidden, model_type=model_type or ""))


def _fuyu(ctx: TowerContext) -> VisionTower | None:
    """FuyuModel.vision_embed_tokens: one linear (patch_size^2 x num_channels -> text hidden, with bias)."""
    p = dim(ctx.vr, "patch_size")
    ch = dim(ctx.vr, "num_channels", default=3)
    ctx.vr.mark("image_size")  # images are cut into patches of any count: no position table
    return VisionTower(family="fuyu_patch_linear", hidden_size=ctx.text_hidden, num_layers=0, layers=[],
                       norm="layernorm", extra_params={"patch_embed": linear(p * p * ch, ctx.text_hidden)})


TOP_LEVEL_TOWERS["fuyu"] = _fuyu


# --- omni thinkers: the Qwen-VL vision model and their own audio encoders ----------------------------------

def _omni_vision() -> None:
    """Qwen2.5-Omni's thinker.visual is Qwen2.5-VL's vision model (with its merger), Qwen3-Omni-MoE's is
    Qwen3-VL's (with the deepstack mergers): the same tower readers, under the thinkers' model types."""
    import dataclasses

    from . import TOWERS, tower
    from .encoders import ENCODERS
    from .towers import qwen2_5_vl, qwen3_vl
    ENCODERS.setdefault("qwen2_5_omni_vision_encoder", ENCODERS["qwen2_5_vl"])
    ENCODERS.setdefault("qwen3_omni_moe_vision_encoder", ENCODERS["qwen3_vl"])
    if "qwen2_5_omni_thinker" not in TOWERS:
        tower("qwen2_5_omni_thinker")(qwen2_5_vl)
    if "qwen3_omni_moe_thinker" not in TOWERS:
        tower("qwen3_omni_moe_thinker")(lambda ctx: qwen3_vl(dataclasses.replace(ctx, model_type="qwen3_vl")))


_omni_vision()


def _whisper_blocks(ar: Reader, k_bias: bool) -> tuple[int, int]:
    """(width, parameters) of encoder_layers Whisper-style blocks (k_proj biased or not) and ln_post."""
    d, heads = width_and_heads(ar, "d_model", "encoder_attention_heads", "d_model")
    n = dim(ar, "encoder_layers", limit="num_layers")
    f = dim(ar, "encoder_ffn_dim", limit="intermediate_size")
    block = 4 * d * d + (4 if k_bias else 3) * d + 2 * norm(d, "layernorm") + linear(d, f) + linear(f, d)
    # sinusoidal positions (a buffer) of max_source_positions rows; chunking windows: no parameters
    ar.mark("max_source_positions", "scale_embedding", "n_window", "n_window_infer", "conv_chunksize")
    return d, n * block + norm(d, "layernorm")


@audio_tower("qwen2_5_omni_thinker")
def qwen2_5_omni_audio(ctx: TowerContext) -> AudioTower | None:
    """Qwen2_5OmniAudioEncoder: conv1 (num_mel_bins -> d, kernel 3), conv2 (d -> d, kernel 3), blocks with a
    bias-free k_proj, ln_post, proj (d -> output_dim) with biases, audio_bos_eos_token (2 x output_dim)."""
    ctx.tr.mark("position_id_per_seconds", "seconds_per_chunk")  # audio position timing: no parameters
    ar = ctx.vr
    d, enc = _whisper_blocks(ar, k_bias=False)
    mels = dim(ar, "num_mel_bins")
    out = dim(ar, "output_dim")
    enc += (mels * 3 * d + d) + (d * 3 * d + d) + linear(d, out) + 2 * out
    return AudioTower("qwen2_5_omni_audio_encoder", d, {"audio_encoder": enc})


@audio_tower("qwen3_omni_moe_thinker")
def qwen3_omni_audio(ctx: TowerContext) -> AudioTower | None:
    """Qwen3OmniMoeAudioEncoder: conv2d1 (1 -> downsample_hidden_size, 3x3), conv2d2 / conv2d3 (c -> c, 3x3)
    with biases, conv_out (c x the mel bins after three stride-2 convs -> d, no bias), blocks with biased q / k /
    v / out_proj, ln_post, proj1 (d -> d) and proj2 (d -> output_dim) with biases."""
    ctx.tr.mark("position_id_per_seconds", "seconds_per_chunk")  # audio position timing: no parameters
    ar = ctx.vr
    d, enc = _whisper_blocks(ar, k_bias=True)
    mels = dim(ar, "num_mel_bins")
    c = dim(ar, "downsample_hidden_size")
    out = dim(ar, "output_dim")
    freq = (((mels + 1) // 2 + 1) // 2 + 1) // 2
    enc += (9 * c + c) + 2 * (c * c * 9 + c) + c * freq * d + linear(d, d) + linear(d, out)
    return AudioTower("qwen3_omni_moe_audio_encoder", d, {"audio_encoder": enc})


def usm_conformer_block(h: int, heads: int, kernel: int) -> int:
    """Parameters of one bias-free USM conformer block (Gemma 3n's Gemma3nAudioConformerBlock, Gemma 4's audio
    layers), width ``h``, ``heads`` attention heads, light-conv ``kernel``: two macaron feed-forwards (pre / post
    RMSNorm, h -> 4h -> h), attention (pre / post norms, q / k / v, the relative position projection, a per-dim scale
    of h / heads, the output projection), the light conv (its norm, linear_start h -> 2h, a depthwise conv of
    ``kernel``, conv_norm, linear_end) and the block's RMSNorm."""
    ffw = 2 * h + 8 * h * h
    att = 2 * h + 5 * h * h + h // heads
    lconv = 2 * h + 3 * h * h + kernel * h
    return 2 * ffw + att + lconv + h


@audio_tower("gemma4")
def gemma4_audio(ctx: TowerContext) -> AudioTower | None:
    """Gemma4AudioModel (a Conformer) and Gemma4MultimodalEmbedder (embed_audio: output_proj_dims -> text hidden,
    no bias; its pre-projection RMSNorm has no scale). Bias-free linears throughout (use_clipped_linears adds
    buffers only). Each of num_hidden_layers blocks: two macaron feed-forwards (h -> 4h -> h, pre / post RMSNorm),
    attention (q / k / v / post, relative_k_proj, per_dim_scale of head size), the light conv (linear_start h ->
    2h, depthwise conv of conv_kernel_size, linear_end, two RMSNorms), three RMSNorms. subsample_conv_projection:
    two 3x3 convs (1 -> c0 -> c1, no bias, weight-only LayerNorms), input_proj_linear (c0 / 4 * c1 -> h);
    output_proj (h -> output_proj_dims, with bias)."""
    ar = ctx.vr
    ar.mark("use_clipped_linears", "attention_chunk_size", "attention_context_left", "attention_context_right",
            "attention_logit_cap", "attention_invalid_logits_value", "gradient_clipping", "residual_weight")
    h, heads = width_and_heads(ar)
    n = dim(ar, "num_hidden_layers", limit="num_layers")
    k = dim(ar, "conv_kernel_size")
    ch = ar.get("subsampling_conv_channels")
    if not isinstance(ch, (list, tuple)) or len(ch) != 2:
        raise ConfigError(f"{ar.where}: subsampling_conv_channels must be a list of two channel counts, got "
                          f"{ch!r}"[:200])
    c0, c1 = (dim(Reader({"c": c}, None, ar.where), "c") for c in ch)
    out = dim(ar, "output_proj_dims", default=h)
    block = usm_conformer_block(h, heads, k)
    sub = (9 * c0 + c0) + (9 * c0 * c1 + c1) + (c0 // 4) * c1 * h
    enc = n * block + sub + linear(h, out)
    return AudioTower("gemma4_audio", h, {"audio_encoder": enc, "projector": out * ctx.text_hidden})


@audio_tower("gemma4_unified")
def gemma4_unified_audio(ctx: TowerContext) -> AudioTower | None:
    """Gemma4Unified has no audio encoder: embed_audio (Gemma4UnifiedMultimodalEmbedder) projects raw audio
    frames of audio_embed_dim (output_proj_dims) samples to the text hidden size (no bias; a scale-free RMSNorm)."""
    d = dim(ctx.vr, ("audio_embed_dim", "output_proj_dims"))
    return AudioTower("gemma4_unified_audio", d, {"projector": d * ctx.text_hidden})


def _gemma4_unified_vision(ctx: TowerContext) -> VisionTower | None:
    """Gemma4UnifiedVisionEmbedder (encoder-free): patch_ln1 (LayerNorm over (patch_size * pooling_kernel_size)^2
    x 3), patch_dense (-> mm_embed_dim, with bias), patch_ln2, pos_embedding (mm_posemb_size x 2 x mm_embed_dim),
    pos_norm, and its multimodal_embedder (output_proj_dims -> text hidden, no bias; scale-free RMSNorm)."""
    vr = ctx.vr
    p = dim(vr, "patch_size") * dim(vr, "pooling_kernel_size", default=1)
    e = dim(vr, "mm_embed_dim")
    out = dim(vr, "output_proj_dims", default=e)
    pdim = p * p * 3
    embed = norm(pdim, "layernorm") + linear(pdim, e) + 2 * norm(e, "layernorm") + dim(vr, "mm_posemb_size") * 2 * e
    return VisionTower(family="gemma4_unified_vision", hidden_size=e, num_layers=0, layers=[], norm="layernorm",
                       extra_params={"patch_embed": embed, "projector": out * ctx.text_hidden})


def _register_gemma4_unified() -> None:
    from . import TOWERS, tower
    if "gemma4_unified" not in TOWERS:
        tower("gemma4_unified")(_gemma4_unified_vision)


_register_gemma4_unified()


@audio_tower("phi4_multimodal")
def phi4_multimodal_audio(ctx: TowerContext) -> AudioTower | None:
    """Phi4MultimodalAudioEmbedding: the Conformer Phi4MultimodalAudioModel and, for speech and for vision-speech,
    up_proj (hidden_size * downsample_rate -> text hidden) and down_proj (text -> text), with biases.

    The encoder (biases throughout): NeMo conv subsampling (Conv2d 1 -> nemo_conv_channels 3x3, then per further
    stride-2 stage of log2(time_reduction) a depthwise 3x3 and a pointwise 1x1 conv; out: channels x
    nemo_final_size -> hidden), the relative attention bias table (bias_max_distance buckets, doubled unless
    bias_symmetric, x heads), num_blocks blocks of: two feed-forwards (LayerNorm, gate_up h -> 2 x
    intermediate_size, down), q / k / v / o, the conv module (LayerNorm, GLU pointwise conv h -> 2 x
    ext_pw_out_channel with b1 / b2, depthwise conv of kernel_size (x depthwise_multiplier), pointwise conv ->
    depthwise_separable_out_channel, ext_pw_conv_1d h -> ext_pw_out_channel), two LayerNorms. The mean-variance
    input norm holds buffers only."""
    ar, th = ctx.vr, ctx.text_hidden
    ar.mark("feature_layer", "left_chunk", "chunk_size", "input_size", "conv_activation", "conv_glu_type",
            "nemo_activation", "activation")  # which layer feeds, streaming, input features, activations
    h, heads = width_and_heads(ar)
    n = dim(ar, "num_blocks", limit="num_layers")
    i = dim(ar, "intermediate_size")
    ext = dim(ar, "ext_pw_out_channel")
    dso = dim(ar, "depthwise_separable_out_channel")
    dm = dim(ar, "depthwise_multiplier", default=1)
    k = dim(ar, "kernel_size")
    c = dim(ar, "nemo_conv_channels")
    tr_ = dim(ar, "time_reduction")
    if tr_ & (tr_ - 1):
        raise ConfigError(f"{ar.where}: time_reduction {tr_} is not a power of two")
    stages = tr_.bit_length() - 1
    final = dim(ar, "nemo_final_size")
    dmax = dim(ar, "bias_max_distance")
    sym = bool(ar.get("bias_symmetric"))
    down = dim(ar, "downsample_rate", default=1)
    ffn = norm(h, "layernorm") + linear(h, 2 * i) + linear(i, h)
    conv = (norm(h, "layernorm") + linear(h, 2 * ext) + 2 * ext + (h * dm * k + h * dm) + linear(h * dm, dso)
            + linear(h, ext))
    block = 2 * ffn + 4 * linear(h, h) + conv + 2 * norm(h, "layernorm")
    sub = (9 * c + c) + max(stages - 1, 0) * ((9 * c + c) + linear(c, c)) + linear(c * final, h)
    enc = n * block + sub + dmax * (1 if sym else 2) * heads
    proj = 2 * (linear(h * down, th) + linear(th, th))
    return AudioTower("phi4_multimodal_audio", h, {"audio_encoder": enc, "projector": proj})


def parakeet_encoder(ar: Reader, attention_bias_default: bool = True) -> tuple[int, int]:
    """(width, parameters) of ParakeetEncoder (transformers 5.25 models/parakeet/modeling_parakeet.py lines
    534-553): the relative positional encoding holds a buffer only (lines 68-80); subsampling
    (ParakeetEncoderSubsamplingConv2D, lines 351-385): a Conv2d 1 -> subsampling_conv_channels of
    subsampling_conv_kernel_size, then per further stage of int(log2(subsampling_factor)) a depthwise conv of
    that kernel and a 1x1 pointwise conv, all biased, and a biased linear (channels x num_mel_bins //
    stride^stages -> hidden); num_hidden_layers blocks (lines 420-434) of two feed-forwards (lines 97-102:
    hidden -> intermediate_size -> hidden, biased per attention_bias), attention (lines 255-285: q / o of
    num_attention_heads x head_dim, k / v of num_key_value_heads x head_dim, biased per attention_bias;
    relative_k_proj without bias; bias_u and bias_v of heads x head_dim), the convolution module (lines 112-145:
    pointwise_conv1 hidden -> 2 x hidden, a depthwise conv of conv_kernel_size, BatchNorm1d (weight, bias; the
    running statistics are buffers), pointwise_conv2, biased per convolution_bias) and five LayerNorms.

    head_dim is hidden / heads unless the config sets it (the attention reads it with getattr); the config class
    sets num_key_value_heads to the heads (configuration_parakeet.py line 84) unless the file gives it."""
    import math
    ar.mark("dropout", "dropout_positions", "layerdrop", "activation_dropout", "attention_dropout", "hidden_act",
            "max_position_embeddings", "scale_input", "initializer_range")  # sinusoidal positions, input scale
    heads = dim(ar, "num_attention_heads", limit="num_heads")
    h = dim(ar, "hidden_size", limit="hidden_size")
    hd = dim(ar, "head_dim", default=0)
    if not hd:
        h, heads = width_and_heads(ar)
        hd = h // heads
    kv = dim(ar, "num_key_value_heads", default=heads, limit="num_heads")
    if heads % kv:
        raise ConfigError(f"{ar.where}: num_attention_heads {heads} is not a multiple of num_key_value_heads {kv}")
    n = dim(ar, "num_hidden_layers", limit="num_layers")
    inter = dim(ar, "intermediate_size", limit="intermediate_size")
    k = dim(ar, "conv_kernel_size")
    ab = ar.get("attention_bias")
    ab = attention_bias_default if ab is None else bool(ab)
    cb = ar.get("convolution_bias")
    cb = True if cb is None else bool(cb)
    c = dim(ar, "subsampling_conv_channels")
    ks = dim(ar, "subsampling_conv_kernel_size")
    stride = dim(ar, "subsampling_conv_stride")
    stages = int(math.log2(dim(ar, "subsampling_factor")))
    freq = dim(ar, "num_mel_bins") // stride ** stages
    if freq < 1:
        raise ConfigError(f"{ar.where}: num_mel_bins leaves no frequency bins after {stages} subsampling stages")
    sub = (c * ks * ks + c) + max(stages - 1, 0) * ((c * ks * ks + c) + (c * c + c)) + linear(c * freq, h)
    ffn = linear(h, inter, ab) + linear(inter, h, ab)
    att = 2 * linear(h, heads * hd, ab) + 2 * linear(h, kv * hd, ab) + h * heads * hd + 2 * heads * hd
    conv = linear(h, 2 * h, cb) + (h * k + (h if cb else 0)) + 2 * h + linear(h, h, cb)
    return h, sub + n * (2 * ffn + att + conv + 5 * norm(h, "layernorm"))


@audio_tower("nemotron_h_omni")
def nemotron_h_omni_audio(ctx: TowerContext) -> AudioTower | None:
    """NemotronH_Omni_Reasoning_V3's audio_tower (ParakeetEncoder, :func:`parakeet_encoder`; its config class
    defaults attention_bias and scale_input to False for a file without them, configuration_nemotron_h_omni.py
    lines 104-113) and embed_audio (modeling_nemotron_h_omni.py lines 150-160: the multi-modal projector of lines
    63-69, an RMSNorm of the audio hidden size, linear_1 -> audio_config.projection_hidden_size, linear_2 -> the
    text hidden size, biased per audio_config.projection_bias; both keys are required: the model reads them as
    attributes)."""
    ar = ctx.vr
    if ctx.vision_type not in (None, "parakeet", "parakeet_encoder"):
        return None
    h, enc = parakeet_encoder(ar, attention_bias_default=False)
    ph = dim(ar, "projection_hidden_size")
    bias = ar.get("projection_bias")
    if not isinstance(bias, bool):
        raise ConfigError(f"{ar.where}: projection_bias must be true or false (embed_audio reads it), got "
                          f"{bias!r}"[:200])
    proj = norm(h, "rms") + linear(h, ph, bias) + linear(ph, ctx.text_hidden, bias)
    return AudioTower("parakeet_encoder", h, {"audio_encoder": enc, "projector": proj})
