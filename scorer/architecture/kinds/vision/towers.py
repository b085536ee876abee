"""Per-family towers: the encoder of :mod:`.encoders` plus the modules each ``...ForConditionalGeneration``
class builds around it (merger, multi_modal_projector, connector, aligner, image newline, ...).

Each reader cites the transformers 5.24 class whose parameters it counts. Widths are elements:
``vh`` the encoder's width, ``th`` the language model's hidden size.
"""

from __future__ import annotations

from ....errors import ConfigError
from ...reader import Reader, check_int
from ...specs import AttentionSpec, DenseMLP, LayerSpec, VisionTower
from . import TowerContext, tower
from .encoders import EncoderParts, dim, encoder_for, flag, grid, linear, norm, pair, read_encoder


def _vision_type(ctx: TowerContext) -> str | None:
    """vision_config's model_type, None where it repeats the wrapper's own (Idefics3-8B-Llama3 publishes
    ``vision_config.model_type: "idefics3"``; Idefics3Config builds its vision sub-config class whatever the
    dict says), so the wrapper's encoder is read."""
    vt = ctx.vision_type
    return None if vt == ctx.model_type else vt


def _encoder(ctx: TowerContext, default: str) -> EncoderParts | None:
    enc = encoder_for(_vision_type(ctx), default)
    return read_encoder(ctx.vr, enc) if enc is not None else None


def parts_family(ctx: TowerContext, default: str) -> str:
    """The encoder's label (for VisionTower.family)."""
    enc = encoder_for(_vision_type(ctx), default)
    return enc.name if enc is not None else "unknown"


def _tower(parts: EncoderParts, family: str, **extra: int) -> VisionTower:
    return VisionTower(family=family, hidden_size=parts.hidden, num_layers=len(parts.layers), layers=parts.layers,
                       norm="rms" if parts.norm == "rms" else "layernorm",
                       extra_params={**parts.extra, **{k: v for k, v in extra.items() if v}})


def _feature_layers(r: Reader, *names: str) -> int:
    """How many encoder layers' outputs are concatenated (vision_feature_layer: an int or a list)."""
    for name in names or ("vision_feature_layer",):
        val = r.get(name)
        if val is None:
            continue
        if isinstance(val, (list, tuple)):
            if not val:
                raise ConfigError(f"{r.where}: {name} is an empty list")
            return len(val)
        return 1
    return 1


def _merge(vr: Reader, key: str = "spatial_merge_size", default: int = 2) -> int:
    return dim(vr, key, default=default)


# --- LLaVA family --------------------------------------------------------------------------------

@tower("llava", "llava_next", "llava_next_video", "llava_onevision")
def llava(ctx: TowerContext) -> VisionTower | None:
    """LlavaMultiModalProjector (and LLaVA-NeXT's / OneVision's): linear_1 (vh * feature layers -> th) and
    linear_2 (th -> th), biased per multimodal_projector_bias; LLaVA-NeXT adds image_newline (th)."""
    default = "siglip_vision_model" if ctx.model_type == "llava_onevision" else "clip_vision_model"
    parts = _encoder(ctx, default)
    if parts is None:
        return None
    tr, th = ctx.tr, ctx.text_hidden
    tr.mark("projector_hidden_act", "image_seq_length", "image_grid_pinpoints", "video_seq_length",
            "spatial_pool_mode", "spatial_pool_stride", "vision_aspect_ratio")
    bias = flag(tr, ("multimodal_projector_bias", True))
    nfl = _feature_layers(tr)
    proj = linear(parts.hidden * nfl, th, bias) + linear(th, th, bias)
    newline = th if ctx.model_type != "llava" else 0
    return _tower(parts, f"{ctx.model_type}:{parts_family(ctx, default)}", projector=proj, image_newline=newline)


@tower("vipllava")
def vipllava(ctx: TowerContext) -> VisionTower | None:
    """VipLlavaMultiModalProjector: projector_layernorm over the concatenated feature layers, linear_1, linear_2."""
    parts = _encoder(ctx, "clip_vision_model")
    if parts is None:
        return None
    tr, th = ctx.tr, ctx.text_hidden
    tr.mark("projector_hidden_act", "image_seq_length")
    n = parts.hidden * _feature_layers(tr, "vision_feature_layer", "vision_feature_layers")
    proj = norm(n, "layernorm") + linear(n, th) + linear(th, th)
    return _tower(parts, "vipllava:" + parts_family(ctx, "clip_vision_model"), projector=proj)


@tower("mistral3", "lighton_ocr", "mistral_large4")
def mistral3(ctx: TowerContext) -> VisionTower | None:
    """Mistral3MultiModalProjector: RMSNorm (vh), Mistral3PatchMerger (vh * merge^2 -> vh, no bias), linear_1
    (vh * feature layers -> th), linear_2 (th -> th), biased per multimodal_projector_bias.
    LightOnOcrVisionProjection has the same modules."""
    parts = _encoder(ctx, "pixtral")
    if parts is None:
        return None
    tr, th, vh = ctx.tr, ctx.text_hidden, parts.hidden
    tr.mark("projector_hidden_act")
    m = _merge(tr)
    bias = flag(tr, ("multimodal_projector_bias", False))
    proj = norm(vh, "rms") + linear(vh * m * m, vh, False) + linear(vh * _feature_layers(tr), th, bias) \
        + linear(th, th, bias)
    return _tower(parts, ctx.model_type + ":" + parts_family(ctx, "pixtral"), projector=proj)


# --- Siglip-tower families -----------------------------------------------------------------------

@tower("gemma3", "shieldgemma2")
def gemma3(ctx: TowerContext) -> VisionTower | None:
    """Gemma3MultiModalProjector: mm_input_projection_weight (vh x th) and mm_soft_emb_norm (RMS, vh);
    mm_tokens_per_image sets an average pool (no parameters)."""
    parts = _encoder(ctx, "siglip_vision_model")
    if parts is None:
        return None
    ctx.tr.mark("mm_tokens_per_image")
    proj = parts.hidden * ctx.text_hidden + norm(parts.hidden, "rms")
    return _tower(parts, "gemma3:" + parts_family(ctx, "siglip_vision_model"), projector=proj)


#: wrapper model_type -> text_config keys its config class writes there and no text module reads: consumed where
#: the file's value is the one the class derived (PaliGemmaConfig.__post_init__: text_config.num_image_tokens =
#: (image_size // patch_size) ** 2)
TEXT_KEYS_SET_BY_WRAPPER: dict[str, tuple[str, ...]] = {"paligemma": ("num_image_tokens",)}
#: wrapper model_type -> text_config keys its checkpoints carry that no module reads, whatever their value:
#: Idefics2's perceiver_config left in Idefics3 / SmolVLM text configs (their connectors have no perceiver)
TEXT_KEYS_IGNORED_BY_WRAPPER: dict[str, tuple[str, ...]] = {"idefics3": ("perceiver_config",),
                                                            "smolvlm": ("perceiver_config",)}


@tower("paligemma")
def paligemma(ctx: TowerContext) -> VisionTower | None:
    """PaliGemmaMultiModalProjector: linear (vh -> projection_dim, with bias); PaliGemmaConfig copies its
    projection_dim into the vision config. The top-level hidden_size is not read by the modeling code."""
    parts = _encoder(ctx, "siglip_vision_model")
    if parts is None:
        return None
    tr, vr = ctx.tr, ctx.vr
    pd = dim(tr, "projection_dim", default=0) or dim(vr, "projection_dim", default=2048)
    # PaliGemmaConfig keeps the legacy top-level hidden_size / num_hidden_layers as unread kwargs (the language
    # model is text_config's); the vision config's num_image_tokens / num_positions, which PaliGemma checkpoints
    # carry, are read by no module (SiglipVisionEmbeddings derives num_positions = (image_size / patch_size)^2):
    # consumed where they agree with that, listed otherwise
    tr.mark("hidden_size", "vocab_size", "num_hidden_layers")
    side = vr.raw.get("image_size", getattr(vr.cfg, "image_size", None)), vr.raw.get("patch_size",
                                                                                     getattr(vr.cfg, "patch_size", None))
    if all(isinstance(x, int) and not isinstance(x, bool) and x > 0 for x in side):
        patches = (side[0] // side[1]) ** 2
        vr.mark(*(k for k in ("num_image_tokens", "num_positions") if vr.raw.get(k) == patches))
    return _tower(parts, "paligemma:" + parts_family(ctx, "siglip_vision_model"), projector=linear(parts.hidden, pd))


@tower("idefics3", "smolvlm")
def idefics3(ctx: TowerContext) -> VisionTower | None:
    """Idefics3Connector / SmolVLMConnector: modality_projection.proj (vh * scale_factor^2 -> th, no bias)."""
    default = ctx.model_type + "_vision"
    parts = _encoder(ctx, default)
    if parts is None:
        return None
    s = dim(ctx.tr, "scale_factor", default=2)
    ctx.vr.mark("size", "max_image_size")  # SmolVLM2's image-processor sizes: no module reads them
    proj = linear(parts.hidden * s * s, ctx.text_hidden, False)
    return _tower(parts, ctx.model_type + ":" + parts_family(ctx, default), projector=proj)


@tower("aya_vision", "cohere2_vision")
def aya_vision(ctx: TowerContext) -> VisionTower | None:
    """AyaVisionMultiModalProjector: LayerNorm over vh * downsample_factor^2, linear_1 (-> alignment_intermediate_size,
    default th), SwiGLU halving, linear_2 (half -> th), both biased. Cohere2VisionMultiModalProjector: the
    same without the LayerNorm."""
    parts = _encoder(ctx, "siglip_vision_model")
    if parts is None:
        return None
    tr, th = ctx.tr, ctx.text_hidden
    # the projector is built for one feature layer whatever vision_feature_layer says
    tr.mark("adapter_layer_norm_eps", "vision_feature_layer")
    d = dim(tr, "downsample_factor", default=2)
    n = parts.hidden * d * d
    inter = dim(tr, "alignment_intermediate_size", default=th)
    if inter % 2:
        raise ConfigError(f"{tr.where}: alignment_intermediate_size {inter} is odd (it is split in two halves)")
    proj = linear(n, inter) + linear(inter // 2, th)
    if ctx.model_type == "aya_vision":
        proj += norm(n, "layernorm")
    return _tower(parts, ctx.model_type + ":" + parts_family(ctx, "siglip_vision_model"), projector=proj)


@tower("lfm2_vl")
def lfm2_vl(ctx: TowerContext) -> VisionTower | None:
    """Lfm2VlMultiModalProjector: LayerNorm over vh * downsample_factor^2 (projector_use_layernorm), linear_1
    (-> projector_hidden_size), linear_2 (-> th), biased per projector_bias."""
    parts = _encoder(ctx, "siglip2_vision_model")
    if parts is None:
        return None
    tr, th = ctx.tr, ctx.text_hidden
    tr.mark("projector_hidden_act")
    # the image processor's settings, which LFM2-VL checkpoints also write into config.json (transformers 5.24.0
    # models/lfm2_vl/image_processing_lfm2_vl.py reads them; Lfm2VlConfig and the model do not): tiling and the
    # image-token budget, no parameter or cache shape
    tr.mark("encoder_patch_size", "max_image_tokens", "min_image_tokens", "max_num_patches", "max_tiles",
            "min_tiles", "tile_size", "max_pixels_tolerance", "do_image_splitting", "use_thumbnail",
            "use_image_special_tokens")
    f = dim(tr, "downsample_factor", default=2)
    n = parts.hidden * f * f
    p = dim(tr, "projector_hidden_size", default=2560)
    bias = flag(tr, ("projector_bias", True))
    proj = (norm(n, "layernorm") if flag(tr, ("projector_use_layernorm", True)) else 0) + linear(n, p, bias) \
        + linear(p, th, bias)
    return _tower(parts, "lfm2_vl:" + parts_family(ctx, "siglip2_vision_model"), projector=proj)


@tower("deepseek_vl")
def deepseek_vl(ctx: TowerContext) -> VisionTower | None:
    """DeepseekVLAligner: linear1 (vh -> th) and linear2 (th -> th), with biases."""
    parts = _encoder(ctx, "siglip_vision_model")
    if parts is None:
        return None
    proj = linear(parts.hidden, ctx.text_hidden) + linear(ctx.text_hidden, ctx.text_hidden)
    return _tower(parts, "deepseek_vl:" + parts_family(ctx, "siglip_vision_model"), projector=proj)


@tower("phi4_multimodal")
def phi4_multimodal(ctx: TowerContext) -> VisionTower | None:
    """Phi4MultimodalImageEmbedding: the Siglip img_processor, img_projection_up (vh -> th) and
    img_projection_down (th -> th) with biases, and the global / sub-image separators (vh each).
    The audio embedding is not part of the vision count."""
    parts = _encoder(ctx, "phi4_multimodal_vision")
    if parts is None:
        return None
    th, vh = ctx.text_hidden, parts.hidden
    proj = linear(vh, th) + linear(th, th)
    return _tower(parts, "phi4_multimodal:" + parts_family(ctx, "phi4_multimodal_vision"), projector=proj,
                  separators=2 * vh)


@tower("internvl", "qianfan_ocr")
def internvl(ctx: TowerContext) -> VisionTower | None:
    """InternVLMultiModalProjector: LayerNorm and linear_1 over vh * (1/downsample_ratio)^2 (-> th), linear_2
    (th -> th), with biases."""
    parts = _encoder(ctx, "internvl_vision")
    if parts is None:
        return None
    tr, th = ctx.tr, ctx.text_hidden
    tr.mark("projector_hidden_act", "image_seq_length", "vision_feature_layer")
    ratio = tr.get("downsample_ratio")
    ratio = 0.5 if ratio is None else ratio
    if isinstance(ratio, bool) or not isinstance(ratio, (int, float)) or not 0 < ratio <= 1:
        raise ConfigError(f"{tr.where}: downsample_ratio must be in (0, 1], got {ratio!r}"[:200])
    k = int(1 / ratio)
    n = parts.hidden * k * k
    proj = norm(n, "layernorm") + linear(n, th) + linear(th, th)
    return _tower(parts, "internvl:" + parts_family(ctx, "internvl_vision"), projector=proj)


# --- towers with their own merger -----------------------------------------------------------------

@tower("qwen2_vl", "qwen2_vl_text")
def qwen2_vl(ctx: TowerContext) -> VisionTower | None:
    """Qwen2VisionTransformerPretrainedModel's PatchMerger: ln_q (LayerNorm, embed_dim), mlp (merged -> merged
    -> vision hidden_size) with biases, merged = embed_dim * spatial_merge_size^2."""
    parts = _encoder(ctx, "qwen2_vl")
    if parts is None:
        return None
    vr, vh = ctx.vr, parts.hidden
    m = _merge(vr)
    out = dim(vr, "hidden_size", default=ctx.text_hidden)
    merged = vh * m * m
    merger = norm(vh, "layernorm") + linear(merged, merged) + linear(merged, out)
    return _tower(parts, "qwen2_vl_vision", merger=merger)


@tower("qwen2_5_vl", "qwen2_5_vl_text", "exaone4_5")
def qwen2_5_vl(ctx: TowerContext) -> VisionTower | None:
    """Qwen2_5_VLPatchMerger: ln_q (RMSNorm, vh), mlp (merged -> merged -> out_hidden_size) with biases."""
    parts = _encoder(ctx, "qwen2_5_vl")
    if parts is None:
        return None
    vr, vh = ctx.vr, parts.hidden
    m = _merge(vr)
    out = dim(vr, "out_hidden_size", default=ctx.text_hidden)
    merged = vh * m * m
    merger = norm(vh, "rms") + linear(merged, merged) + linear(merged, out)
    return _tower(parts, "qwen2_5_vl_vision", merger=merger)


@tower("hyperclovax_vision_v2")
def hyperclovax_vision_v2(ctx: TowerContext) -> VisionTower | None:
    """HyperCLOVAXVisionV2Model: a Qwen2.5-VL vision model (with its merger) and projector (out_hidden_size -> th,
    with bias)."""
    t = qwen2_5_vl(ctx)
    if t is None:
        return None
    out = dim(ctx.vr, "out_hidden_size", default=ctx.text_hidden)
    return t.model_copy(update={"extra_params": {**t.extra_params, "projector": linear(out, ctx.text_hidden)}})


@tower("paddleocr_vl")
def paddleocr_vl(ctx: TowerContext) -> VisionTower | None:
    """PaddleOCRVLModel.projector: pre_norm (LayerNorm, vh), linear_1 (vh * merge^2 -> same), linear_2 (-> th),
    with biases."""
    parts = _encoder(ctx, "paddleocr_vl_vision")
    if parts is None:
        return None
    n = parts.hidden * _merge(ctx.vr) ** 2
    proj = norm(parts.hidden, "layernorm") + linear(n, n) + linear(n, ctx.text_hidden)
    return _tower(parts, "paddleocr_vl_vision", projector=proj)


@tower("video_llama_3")
def video_llama_3(ctx: TowerContext) -> VisionTower | None:
    """VideoLlama3Projector.readout: linear (vh -> th) and linear (th -> th), with biases."""
    parts = _encoder(ctx, "video_llama_3_vision")
    if parts is None:
        return None
    th = ctx.text_hidden
    return _tower(parts, "video_llama_3_vision", projector=linear(parts.hidden, th) + linear(th, th))


@tower("qwen3_vl", "qwen3_vl_moe", "qwen3_5", "qwen3_5_moe", "cosmos3_omni")
def qwen3_vl(ctx: TowerContext) -> VisionTower | None:
    """Qwen3VLVisionPatchMerger: LayerNorm (vh), linear_fc1 (merged -> merged), linear_fc2 (merged ->
    out_hidden_size), with biases; Qwen3-VL adds one deepstack merger per deepstack_visual_indexes entry
    (its LayerNorm over merged). Qwen3.5's vision model has no deepstack mergers."""
    parts = _encoder(ctx, "qwen3_vl")
    if parts is None:
        return None
    vr, vh = ctx.vr, parts.hidden
    m = _merge(vr)
    out = dim(vr, "out_hidden_size", default=ctx.text_hidden)
    merged = vh * m * m
    mlp = linear(merged, merged) + linear(merged, out)
    deep = 0
    if ctx.model_type in ("qwen3_vl", "qwen3_vl_moe", "cosmos3_omni"):
        idx = vr.get("deepstack_visual_indexes")
        if idx is not None and not isinstance(idx, (list, tuple)):
            raise ConfigError(f"{vr.where}: deepstack_visual_indexes must be a list, got {idx!r}"[:200])
        deep = len(idx or ()) * (norm(merged, "layernorm") + mlp)
    else:
        vr.mark("deepstack_visual_indexes")
    return _tower(parts, ctx.model_type + "_vision", merger=norm(vh, "layernorm") + mlp, deepstack_mergers=deep)


@tower("glm4v", "glm4v_moe", "glm46v", "glmga")
def glm4v(ctx: TowerContext) -> VisionTower | None:
    """Glm4vVisionModel around its blocks: post_conv_layernorm and post_layernorm (RMS, vh), downsample
    (Conv2d vh -> out_hidden_size, kernel spatial_merge_size, with bias), Glm4vVisionPatchMerger (proj
    out x out, LayerNorm out, SwiGLU out -> intermediate_size -> out, no biases)."""
    parts = _encoder(ctx, "glm4v")
    if parts is None:
        return None
    vr, vh = ctx.vr, parts.hidden
    m = _merge(vr)
    out = dim(vr, "out_hidden_size")
    inter = dim(vr, "intermediate_size")
    merger = out * out + norm(out, "layernorm") + 3 * out * inter
    downsample = vh * out * m * m + out
    return _tower(parts, "glm4v_vision", encoder_out_norms=2 * norm(vh, "rms"), downsample=downsample, merger=merger)


@tower("ernie4_5_vl_moe")
def ernie4_5_vl(ctx: TowerContext) -> VisionTower | None:
    """Ernie4_5_VLMoeVariableResolutionResamplerModel: spatial_linear (fc1, fc2 over s = vh * merge^2, LayerNorm),
    temporal_linear (fc1 s * temporal_merge_size -> s, fc2, LayerNorm), mlp (s -> th), after_norm (RMS, th)."""
    parts = _encoder(ctx, "ernie4_5_vl_moe")
    if parts is None:
        return None
    vr, th = ctx.vr, ctx.text_hidden
    s = parts.hidden * _merge(vr) ** 2
    tm = dim(vr, "temporal_merge_size", default=2)
    block = linear(s, s) + norm(s, "layernorm")
    resampler = (linear(s, s) + block) + (linear(s * tm, s) + block) + linear(s, th) + norm(th, "rms")
    return _tower(parts, "ernie4_5_vl_vision", resampler=resampler)


@tower("kimi_k25")
def kimi_k25(ctx: TowerContext) -> VisionTower | None:
    """Kimi_K25MultimodalProjection: pre_norm (LayerNorm, projection_hidden_size), in_proj (vh * k0 * k1 ->
    same) and out_proj (-> th), with biases; k0 x k1 = vision_config.merge_kernel_size."""
    parts = _encoder(ctx, "kimi_k25")
    if parts is None:
        return None
    k0, k1 = pair(ctx.vr, "merge_kernel_size", default=2)
    n = parts.hidden * k0 * k1
    pre = dim(ctx.tr, "projection_hidden_size", default=parts.hidden)
    proj = norm(pre, "layernorm") + linear(n, n) + linear(n, ctx.text_hidden)
    return _tower(parts, "kimi_k25_vision", projector=proj)


@tower("step3p7")
def step3p7(ctx: TowerContext) -> VisionTower | None:
    """Step3p7VisionModel's downsampler1 (Conv2d vh -> 2vh, 3x3) and downsampler2 (2vh -> 4vh, 3x3), with biases;
    Step3p7Model.multi_modal_projector (4vh -> th, bias per projector_bias)."""
    parts = _encoder(ctx, "step3p7")
    if parts is None:
        return None
    vh = parts.hidden
    down = (vh * 2 * vh * 9 + 2 * vh) + (2 * vh * 4 * vh * 9 + 4 * vh)
    proj = linear(4 * vh, ctx.text_hidden, flag(ctx.tr, ("projector_bias", False)))
    return _tower(parts, "step3p7_vision", downsample=down, projector=proj)


@tower("minimax_m3_vl")
def minimax_m3_vl(ctx: TowerContext) -> VisionTower | None:
    """MiniMaxM3VLMultiModalProjector: linear_1 (vh -> projector_hidden_size), linear_2 (-> th), merge_linear_1
    (merged_hidden_size -> projector_hidden_size), merge_linear_2 (-> th), all biased."""
    parts = _encoder(ctx, "minimax_m3_vl")
    if parts is None:
        return None
    tr, th = ctx.tr, ctx.text_hidden
    tr.mark("projector_hidden_act")
    p = dim(tr, "projector_hidden_size")
    merged = dim(tr, "merged_hidden_size")
    proj = linear(parts.hidden, p) + linear(p, th) + linear(merged, p) + linear(p, th)
    ctx.vr.mark("spatial_merge_size")  # how patches are grouped into merged_hidden_size; no parameters
    return _tower(parts, "minimax_m3_vl_vision", projector=proj)


@tower("hunyuan_vl")
def hunyuan_vl(ctx: TowerContext) -> VisionTower | None:
    """HunYuanVLVisionPatchMerger: proj_conv (Conv2d vh -> 2vh, kernel spatial_merge_size), proj_out (1x1, 2vh ->
    4vh), mlp (4vh -> text_hidden_size), all biased; before_rms (vh), after_rms (text_hidden_size), image_newline
    (4vh), image_begin / image_end / image_sep (text_hidden_size each)."""
    parts = _encoder(ctx, "hunyuan_vl")
    if parts is None:
        return None
    vr, vh = ctx.vr, parts.hidden
    m = _merge(vr)
    t = dim(vr, "text_hidden_size", default=ctx.text_hidden)
    vr.mark("out_hidden_size")  # not read by the modeling code (text_hidden_size is)
    ctx.tr.mark("im_start_id", "im_end_id", "im_newline_id")  # token ids
    merger = (vh * 2 * vh * m * m + 2 * vh) + (2 * vh * 4 * vh + 4 * vh) + linear(4 * vh, t) + vh + t + 4 * vh + 3 * t
    return _tower(parts, "hunyuan_vl_vision", merger=merger)


@tower("gemma4")
def gemma4(ctx: TowerContext) -> VisionTower | None:
    """Gemma4MultimodalEmbedder (embed_vision): embedding_projection (vh -> th, no bias); its pre-projection
    RMSNorm has no scale."""
    parts = _encoder(ctx, "gemma4")
    if parts is None:
        return None
    out = dim(ctx.vr, "output_proj_dims", default=parts.hidden)
    return _tower(parts, "gemma4_vision", projector=out * ctx.text_hidden)


@tower("llama4")
def llama4(ctx: TowerContext) -> VisionTower | None:
    """Llama4VisionModel.vision_adapter (Llama4VisionMLP2: fc1 intermediate_size -> projector_input_dim, fc2
    projector_output_dim^2, no biases) and Llama4MultiModalProjector (vision_output_dim -> th, no bias)."""
    parts = _encoder(ctx, "llama4")
    if parts is None:
        return None
    vr = ctx.vr
    pin = dim(vr, "projector_input_dim")
    pout = dim(vr, "projector_output_dim")
    out = dim(vr, "vision_output_dim")
    # pixel_shuffle_ratio regroups patches (no parameters); the projector's bias is hard-coded off
    vr.mark("pixel_shuffle_ratio", "multi_modal_projector_bias", "vision_feature_layer")
    adapter = parts.inter * pin + pout * pout
    return _tower(parts, "llama4_vision", adapter=adapter, projector=out * ctx.text_hidden)


@tower("mllama")
def mllama(ctx: TowerContext) -> VisionTower | None:
    """MllamaVisionModel: the local transformer (num_hidden_layers) and the gated global transformer
    (num_global_layers, gate_attn and gate_ffn per layer); gated position embedding (gate, patches + 1 rows,
    a tile table of (aspect ratios + 1) x (tiles * (patches + 1) * vh)); pre/post tile embeddings
    ((aspect ratios + 1) x tiles * vh, gated); MllamaForConditionalGeneration's multi_modal_projector
    (vision_output_dim -> th, with bias)."""
    parts = _encoder(ctx, "mllama")
    if parts is None:
        return None
    vr, vh = ctx.vr, parts.hidden
    n_global = dim(vr, "num_global_layers", default=8, limit="num_layers")
    base = parts.layers[0] if parts.layers else LayerSpec(
        index=0, mixer=AttentionSpec(num_heads=parts.heads, num_kv_heads=parts.heads, head_dim=vh // parts.heads,
                                     v_head_dim=vh // parts.heads),
        ffn=DenseMLP(intermediate=parts.inter, gated=False, bias=True))
    layers = list(parts.layers)
    for _ in range(n_global):
        layers.append(base.model_copy(update={"index": len(layers), "extra_params": {"attention": 1, "mlp": 1}}))
    patches = grid(vr) + 1
    tiles = dim(vr, "max_num_tiles", default=4)
    ratios = vr.get("supported_aspect_ratios")
    if not isinstance(ratios, (list, tuple)) or not ratios:
        raise ConfigError(f"{vr.where}: supported_aspect_ratios must be a non-empty list")
    rows = len(ratios) + 1
    check_int(rows * tiles * patches, "supported_aspect_ratios x max_num_tiles", vr.where, limit=1 << 40)
    pos = 1 + patches * vh + rows * tiles * patches * vh + 2 * (rows * tiles * vh + 1)
    out = dim(vr, "vision_output_dim")
    vr.mark("intermediate_layers_indices")  # which local layers feed vision_output_dim; no parameters
    parts = EncoderParts(hidden=vh, inter=parts.inter, heads=parts.heads, norm=parts.norm, layers=layers,
                         extra=parts.extra)
    return _tower(parts, "mllama_vision", tile_positions=pos, projector=linear(out, ctx.text_hidden))


# group: multimodal round 2
@tower("glm_ocr")
def glm_ocr(ctx: TowerContext) -> VisionTower | None:
    """GlmOcrVisionModel around its blocks: post_layernorm (RMS, vh), downsample (Conv2d vh -> out_hidden_size,
    kernel spatial_merge_size, with bias), GlmOcrVisionPatchMerger (proj out x out, LayerNorm out, SwiGLU out ->
    out * in_channels -> out, no biases)."""
    parts = _encoder(ctx, "glm_ocr_vision")
    if parts is None:
        return None
    vr, vh = ctx.vr, parts.hidden
    m = _merge(vr)
    out = dim(vr, "out_hidden_size")
    ctx_dim = out * dim(vr, "in_channels", default=3)
    merger = out * out + norm(out, "layernorm") + 3 * out * ctx_dim
    downsample = vh * out * m * m + out
    return _tower(parts, "glm_ocr_vision", encoder_out_norms=norm(vh, "rms"), downsample=downsample, merger=merger)


def _twice(parts: EncoderParts) -> EncoderParts:
    """Two encoders of the same layout (Video-LLaVA's image_tower and video_tower)."""
    copies = [lay.model_copy(update={"index": len(parts.layers) + lay.index}) for lay in parts.layers]
    return EncoderParts(hidden=parts.hidden, inter=parts.inter, heads=parts.heads, norm=parts.norm,
                        layers=list(parts.layers) + copies, extra={k: 2 * v for k, v in parts.extra.items()})


@tower("video_llava")
def video_llava(ctx: TowerContext) -> VisionTower | None:
    """VideoLlavaModel: image_tower and video_tower (two CLIPVisionModel of vision_config) and
    VideoLlavaMultiModalProjector (linear_1 vh * feature layers -> th, linear_2 th -> th, biased per
    multimodal_projector_bias)."""
    parts = _encoder(ctx, "clip_vision_model")
    if parts is None:
        return None
    tr, th = ctx.tr, ctx.text_hidden
    tr.mark("projector_hidden_act", "image_seq_length", "video_seq_length")
    bias = flag(tr, ("multimodal_projector_bias", True))
    proj = linear(parts.hidden * _feature_layers(tr), th, bias) + linear(th, th, bias)
    return _tower(_twice(parts), "video_llava:" + parts_family(ctx, "clip_vision_model"), projector=proj)


@tower("minicpmv4_6", "minicpmv4_7", "minicpm_ocr")
def minicpmv(ctx: TowerContext) -> VisionTower | None:
    """MiniCPMV4_6VisionModel.vit_merger (MiniCPMV4_6ViTWindowAttentionMerger: a biased attention, layer_norm1 (vh),
    pre_norm over w = vh * window kernel, linear_1 w -> intermediate * window kernel, linear_2 -> vh) and
    MiniCPMV4_6Merger: merger_times MiniCPMV4_6DownsampleMLP (pre_norm over 4vh, linear_1 4vh -> 4vh, linear_2 ->
    vh, the last -> th; all biased)."""
    default = ctx.model_type + "_vision"
    parts = _encoder(ctx, default)
    if parts is None:
        return None
    vr, tr, vh, th = ctx.vr, ctx.tr, parts.hidden, ctx.text_hidden
    kh, kw = pair(vr, "window_kernel_size", default=2)
    w, wi = vh * kh * kw, parts.inter * kh * kw
    vit_merger = 4 * linear(vh, vh) + norm(vh, "layernorm") + norm(w, "layernorm") + linear(w, wi) + linear(wi, vh)
    times = dim(tr, "merger_times", default=1, limit="num_layers")
    tr.mark("merge_kernel_size", "downsample_mode", "insert_layer_id", "drop_vision_last_layer", "image_size",
            "patch_size")

    def down(out: int) -> int:
        return norm(4 * vh, "layernorm") + linear(4 * vh, 4 * vh) + linear(4 * vh, out)
    merger = (times - 1) * down(vh) + down(th)
    return _tower(parts, ctx.model_type + ":" + parts_family(ctx, default), vit_merger=vit_merger, merger=merger)


@tower("aria")
def aria(ctx: TowerContext) -> VisionTower | None:
    """AriaProjector: query (max_value_projector_patch_to_query_dict x vh), AriaCrossAttention (q/k/v vh x vh
    without bias, an nn.MultiheadAttention, linear with bias, layer_norm and layer_norm_kv), layer_norm (vh),
    AriaProjectorMLP (linear_in vh -> th, linear_out th -> th, no biases)."""
    parts = _encoder(ctx, "idefics3_vision")
    if parts is None:
        return None
    tr, vh, th = ctx.tr, parts.hidden, ctx.text_hidden
    tr.mark("projector_patch_to_query_dict", "vision_feature_layer")
    queries = dim(tr, "max_value_projector_patch_to_query_dict", default=256, limit="max_positions")
    cross = 3 * vh * vh + (3 * vh * vh + 3 * vh) + linear(vh, vh) + linear(vh, vh) + 2 * norm(vh, "layernorm")
    proj = queries * vh + cross + norm(vh, "layernorm") + linear(vh, th, False) + linear(th, th, False)
    return _tower(parts, "aria:" + parts_family(ctx, "idefics3_vision"), projector=proj)


@tower("idefics2")
def idefics2(ctx: TowerContext) -> VisionTower | None:
    """Idefics2Connector: modality_projection (Idefics2MLP: gate/up vh -> the text intermediate_size, down -> th, no
    biases) and Idefics2PerceiverResampler of perceiver_config at th (Idefics2Config forces its hidden_size to the
    text model's): latents (resampler_n_latents x th), resampler_depth layers (2 RMSNorms, q/k/v/o of
    resampler_n_heads / num_key_value_heads x resampler_head_dim, post_attention_layernorm, gated MLP of 4 th), norm."""
    parts = _encoder(ctx, "idefics2_vision")
    if parts is None:
        return None
    tr, vh, th = ctx.tr, parts.hidden, ctx.text_hidden
    text_obj = getattr(tr.cfg, "text_config", None) if tr.cfg is not None else None
    text_raw = tr.raw.get("text_config") if isinstance(tr.raw.get("text_config"), dict) else {}
    tx = Reader(text_raw, text_obj if not isinstance(text_obj, dict) else None, "config.text_config", set())
    inter = dim(tx, "intermediate_size")
    p_obj = getattr(tr.cfg, "perceiver_config", None) if tr.cfg is not None else None
    p_raw = tr.get("perceiver_config")
    pr = Reader(p_raw if isinstance(p_raw, dict) else {}, p_obj if not isinstance(p_obj, dict) else None,
                "config.perceiver_config", set())
    latents = dim(pr, "resampler_n_latents", default=64, limit="max_positions")
    depth = dim(pr, "resampler_depth", default=3, limit="num_layers")
    heads = dim(pr, "resampler_n_heads", default=16, limit="num_heads")
    kv = dim(pr, "num_key_value_heads", default=4, limit="num_heads")
    hd = dim(pr, "resampler_head_dim", default=96, limit="head_dim")
    layer = 3 * th + th * heads * hd * 2 + 2 * th * kv * hd + 3 * th * 4 * th
    resampler = latents * th + depth * layer + th
    proj = 2 * vh * inter + inter * th
    return _tower(parts, "idefics2:" + parts_family(ctx, "idefics2_vision"), projector=proj, resampler=resampler)


def _sub_reader(tr: Reader, key: str) -> Reader:
    """A reader over a nested top-level config (perceiver_config, qformer_config): raw dict and config object."""
    obj = getattr(tr.cfg, key, None) if tr.cfg is not None else None
    raw = tr.get(key)
    return Reader(raw if isinstance(raw, dict) else {}, obj if obj is not None and not isinstance(obj, dict) else None,
                  f"config.{key}", set())


@tower("granite4_vision")
def granite4_vision(ctx: TowerContext) -> VisionTower | None:
    """Granite4VisionModel: image_newline (th); len(deepstack_layer_map) layerwise and 4 spatial
    Granite4VisionWindowQFormerDownsampler (norm (vh), query (q^2 x vh), image_positions (w^2 x vh) for downsample_rate
    "q/w", a Blip2QFormerModel of qformer_config (layernorm; layers of self-attention, cross-attention every
    cross_attention_frequency layers from encoder_hidden_size, intermediate_query / output_query), out_linear vh -> th
    with bias)."""
    parts = _encoder(ctx, "clip_vision_model")
    if parts is None:
        return None
    tr, vh, th = ctx.tr, parts.hidden, ctx.text_hidden
    tr.mark("image_grid_pinpoints", "image_seq_length", "vision_feature_layer", "vision_feature_select_strategy",
            "projector_dropout", "spatial_target_layers", "spatial_vision_layer")
    rate = tr.get("downsample_rate")
    try:
        q_side, w_side = (int(v) for v in str(rate if rate is not None else "1/4").split("/"))
    except ValueError:
        raise ConfigError(f"{tr.where}: downsample_rate must read 'q/w', got {rate!r}"[:200]) from None
    layer_map = tr.get("deepstack_layer_map") or ()
    if not isinstance(layer_map, (list, tuple)):
        raise ConfigError(f"{tr.where}: deepstack_layer_map must be a list, got {layer_map!r}"[:200])
    qr = _sub_reader(tr, "qformer_config")
    qh = dim(qr, "hidden_size", default=768)
    eh = dim(qr, "encoder_hidden_size", default=qh)
    qi = dim(qr, "intermediate_size", default=3072)
    n_layers = dim(qr, "num_hidden_layers", default=1, limit="num_layers")
    freq = dim(qr, "cross_attention_frequency", default=1, limit="num_layers")
    text_input = bool(qr.get("use_qformer_text_input"))
    ln = norm(qh, "layernorm")
    attn = 2 * linear(qh, qh) + 2 * linear(qh, qh) + ln
    cross = 2 * linear(qh, qh) + 2 * linear(eh, qh) + ln
    ffn = linear(qh, qi) + linear(qi, qh) + ln
    qformer = ln + sum(attn + (cross if i % freq == 0 else 0) + ffn * (2 if text_input else 1)
                       for i in range(n_layers))
    per = norm(vh, "layernorm") + (q_side ** 2 + w_side ** 2) * vh + qformer + linear(vh, th)
    return _tower(parts, "granite4_vision:" + parts_family(ctx, "clip_vision_model"),
                  projector=(len(layer_map) + 4) * per, image_newline=th)


def sam_extra(vr: Reader, parts: EncoderParts) -> dict[str, int]:
    """A SAM ViT's modules beyond the generic blocks: per block rel_pos_h / rel_pos_w ((2 s - 1) x head_dim each,
    s = window_size, or image_size / patch_size on global_attn_indexes) when use_rel_pos; the neck (conv1 1x1
    vh -> output_channels, conv2 3x3, no biases, two LayerNorms)."""
    out = dim(vr, "output_channels", default=256)
    neck = parts.hidden * out + 9 * out * out + 2 * norm(out, "layernorm")
    rel = 0
    if flag(vr, ("use_rel_pos", True)):
        side = dim(vr, "image_size") // pair(vr, "patch_size")[0]
        window = dim(vr, "window_size", default=14) if vr.get("window_size") != 0 else side
        glob = vr.get("global_attn_indexes") or ()
        if not isinstance(glob, (list, tuple)):
            raise ConfigError(f"{vr.where}: global_attn_indexes must be a list, got {glob!r}"[:200])
        hd = parts.hidden // parts.heads
        rel = sum(2 * (2 * (side if i in glob else window) - 1) * hd for i in range(len(parts.layers)))
    return {"neck": neck, "rel_pos": rel}


@tower("got_ocr2")
def got_ocr2(ctx: TowerContext) -> VisionTower | None:
    """GotOcr2VisionEncoder (SAM: sam_extra) and GotOcr2MultiModalProjector: conv_upsampler1 (3x3, output_channels
    -> 2x), conv_upsampler2 (3x3, -> th), no biases; multimodal_projector (th -> th, with bias)."""
    parts = _encoder(ctx, "got_ocr2_vision")
    if parts is None:
        return None
    vr, th = ctx.vr, ctx.text_hidden
    ctx.tr.mark("image_seq_length")
    oc = dim(vr, "output_channels", default=256)
    proj = 9 * oc * 2 * oc + 9 * 2 * oc * th + linear(th, th)
    return _tower(parts, "got_ocr2:" + parts_family(ctx, "got_ocr2_vision"), projector=proj, **sam_extra(vr, parts))


def _encoder_total(parts: EncoderParts) -> int:
    """Every parameter of an encoder read apart from the tower's own (a second encoder of another width)."""
    from ....params import layer_params  # the counting module imports this package: import it late
    nw = parts.hidden * (2 if parts.norm != "rms" else 1)
    return sum(sum(x for k, x in layer_params(lay, parts.hidden, nw).items() if k != "routed_active")
               for lay in parts.layers) + sum(parts.extra.values())


@tower("deepseek_vl_hybrid")
def deepseek_vl_hybrid(ctx: TowerContext) -> VisionTower | None:
    """DeepseekVLHybridModel: vision_model (Siglip), high_res_vision_model (SamVisionEncoder of
    high_res_vision_config, its neck included: sam_extra), high_res_vision_neck (a second SAM neck),
    high_res_vision_proj (conv1 3x3 oc -> 2 oc, conv2 3x3 -> 4 oc, no biases), high_res_vision_alpha (1) and
    DeepseekVLHybridAligner (vision_proj vh -> th/2, high_res_vision_proj 4 oc -> th/2, proj th -> th, biased)."""
    parts = _encoder(ctx, "siglip_vision_model")
    if parts is None:
        return None
    tr, vh, th = ctx.tr, parts.hidden, ctx.text_hidden
    hr = _sub_reader(tr, "high_res_vision_config")
    enc = encoder_for(hr.raw.get("model_type") or "sam_vision_model", "sam_vision_model")
    if enc is None:
        return None
    sam = read_encoder(hr, enc)
    extra = sam_extra(hr, sam)
    oc = dim(hr, "output_channels", default=256)
    high_res = _encoder_total(sam) + 2 * extra["neck"] + extra["rel_pos"] + 9 * oc * 2 * oc + 9 * 2 * oc * 4 * oc + 1
    aligner = linear(vh, th // 2) + linear(4 * oc, th // 2) + linear(th, th)
    return _tower(parts, "deepseek_vl_hybrid:" + parts_family(ctx, "siglip_vision_model"), high_res=high_res,
                  projector=aligner)


@tower("ovis2")
def ovis2(ctx: TowerContext) -> VisionTower | None:
    """Ovis2VisionModel's visual tokenizer head (head_linear vh * hidden_stride^2 -> vocab_size -
    num_visual_indicator_tokens, no bias; head_norm LayerNorm of that width) and Ovis2Model.visual_embeddings_table
    (vision vocab_size x th)."""
    parts = _encoder(ctx, "ovis2_vision")
    if parts is None:
        return None
    vr, vh, th = ctx.vr, parts.hidden, ctx.text_hidden
    ctx.tr.mark("visual_indicator_token_ids")
    stride = dim(vr, "hidden_stride", default=1)
    vocab = dim(vr, "vocab_size", limit="vocab_size")
    n = vocab - dim(vr, "num_visual_indicator_tokens", default=5)
    if n < 1:
        raise ConfigError(f"{vr.where}: num_visual_indicator_tokens must be below vocab_size {vocab}")
    head = vh * stride * stride * n + norm(n, "layernorm")
    # the visual table is config.hidden_size wide (the top-level key, not the text model's); top-level vocab_size
    # sizes the lm_head, tied to the text embedding in Ovis2 checkpoints
    table_width = dim(ctx.tr, "hidden_size", default=th)
    ctx.tr.mark("vocab_size")
    return _tower(parts, "ovis2:" + parts_family(ctx, "ovis2_vision"), head=head,
                  visual_embeddings=vocab * table_width)


@tower("molmo2")
def molmo2(ctx: TowerContext) -> VisionTower | None:
    """Molmo2Adapter of adapter_config: image_pooling_2d (Molmo2VisionAttention over hidden_size * len(
    vision_feature_layer) inputs: q/k/v of num_attention_heads / num_key_value_heads x head_dim, o_proj -> hidden_size,
    biased per attention_bias) and image_projector (gate/up hidden_size -> intermediate_size with mlp_bias, down ->
    text_hidden_size without bias)."""
    parts = _encoder(ctx, "molmo2_vision")
    if parts is None:
        return None
    ctx.tr.mark("image_patch_id")  # a token id
    ar = _sub_reader(ctx.tr, "adapter_config")
    ah = dim(ar, "hidden_size", default=parts.hidden)
    nfl = _feature_layers(ar)
    heads = dim(ar, "num_attention_heads", limit="num_heads")
    kv = dim(ar, "num_key_value_heads", default=heads, limit="num_heads")
    hd = dim(ar, "head_dim", default=ah // heads, limit="head_dim")
    bias = flag(ar, ("attention_bias", True))
    n_in = ah * nfl
    pool = linear(n_in, heads * hd, bias) + 2 * linear(n_in, kv * hd, bias) + linear(heads * hd, ah, bias)
    inter = dim(ar, "intermediate_size")
    out = dim(ar, "text_hidden_size", default=ctx.text_hidden)
    mlp_bias = flag(ar, ("mlp_bias", False))
    proj = 2 * linear(ah, inter, mlp_bias) + linear(inter, out, False)
    return _tower(parts, "molmo2:" + parts_family(ctx, "molmo2_vision"), pooling=pool, projector=proj)


@tower("granite_docling")
def granite_docling(ctx: TowerContext) -> VisionTower | None:
    """GraniteDoclingConnector: ln_in (vh); a coarse path (scale_factor s) and, when use_fine_route, a fine path
    (s // 2), each a projection (vh * s^2 -> out_hidden_size, no bias) and one GraniteDoclingDeepStackMerger per
    deepstack_visual_indexes entry (LayerNorm vh * s^2, linear_1 -> out, linear_2 out -> out, biased); ln_mid,
    mlp_fc2 (out -> out, no bias), ln_out. GraniteDoclingDensityRouter when density_router_hidden_size is set (att
    vh -> 1, LayerNorm vh, fc1 vh -> d, fc2 d -> 1, biased)."""
    parts = _encoder(ctx, "granite_docling_vision")
    if parts is None:
        return None
    vr, tr, vh = ctx.vr, ctx.tr, parts.hidden
    out = dim(vr, "out_hidden_size", default=ctx.text_hidden)
    deep = vr.get("deepstack_visual_indexes") or ()
    if not isinstance(deep, (list, tuple)):
        raise ConfigError(f"{vr.where}: deepstack_visual_indexes must be a list, got {deep!r}"[:200])
    s = dim(vr, "scale_factor", default=4)

    def path(f: int) -> int:
        m = vh * f * f
        return m * out + len(deep) * (norm(m, "layernorm") + linear(m, out) + linear(out, out))
    fine = path(s // 2) if flag(vr, ("use_fine_route", True)) and s // 2 >= 1 else 0
    conn = norm(vh, "layernorm") + path(s) + fine + 2 * norm(out, "layernorm") + out * out
    tr.mark("density_router_loss_weight", "density_router_threshold")
    d = tr.get("density_router_hidden_size")
    router = 0
    if d is not None:
        d = check_int(d, "density_router_hidden_size", tr.where)
        router = linear(vh, 1) + norm(vh, "layernorm") + linear(vh, d) + linear(d, 1)
    return _tower(parts, "granite_docling:" + parts_family(ctx, "granite_docling_vision"), connector=conn,
                  density_router=router)


@tower("lfm3_vl")
def lfm3_vl(ctx: TowerContext) -> VisionTower | None:
    """Lfm3VlVisionModel's "conv" layers (in_proj vh -> 3 vh, spatial_conv depthwise conv_kernel_size^2, out_proj, no
    biases: a ShortConvSpec of kernel k^2) and Lfm3VlMultiModalProjector (LayerNorm over vh, then linear_1 over
    vh * merge^2 -> projector_hidden_size, linear_2 -> th, biased per projector_bias)."""
    from ...specs import ShortConvSpec
    parts = _encoder(ctx, "lfm3_vl_vision")
    if parts is None:
        return None
    vr, tr, vh, th = ctx.vr, ctx.tr, parts.hidden, ctx.text_hidden
    types = vr.get("layer_types")
    if types is not None and (not isinstance(types, (list, tuple)) or len(types) != len(parts.layers)):
        raise ConfigError(f"{vr.where}: layer_types must list the {len(parts.layers)} layers, got {types!r}"[:200])
    k = dim(vr, "conv_kernel_size", default=3)
    conv = ShortConvSpec(channels=vh, kernel=k * k)
    layers = [lay.model_copy(update={"mixer": conv}) if types and types[i] == "conv" else lay
              for i, lay in enumerate(parts.layers)]
    parts = EncoderParts(hidden=vh, inter=parts.inter, heads=parts.heads, norm=parts.norm, layers=layers,
                         extra=parts.extra)
    tr.mark("projector_hidden_act")
    m = _merge(vr)
    n = vh * m * m
    p = dim(tr, "projector_hidden_size", default=th)
    bias = flag(tr, ("projector_bias", True))
    proj = norm(vh, "layernorm") + linear(n, p, bias) + linear(p, th, bias)  # layer_norm before the merge
    return _tower(parts, "lfm3_vl:" + parts_family(ctx, "lfm3_vl_vision"), projector=proj)


@tower("deepseek_ocr2")
def deepseek_ocr2(ctx: TowerContext) -> VisionTower | None:
    """DeepseekOcr2VisionModel: sam_encoder (SAM of sam_config: sam_extra, plus proj conv1 / conv2 3x3 through
    downsample_channels, no biases), vision_encoder (a Qwen2-style stack of encoder_config: q/k/v with bias, o_proj
    without, SwiGLU, RMSNorms, a final norm), query_768_resolution / query_1024_resolution (144 and 256 rows of the
    encoder width); multi_modal_projector (encoder width -> th, with bias) and view_separator (th)."""
    sr = _sub_reader(ctx.vr, "sam_config")
    enc = encoder_for(sr.raw.get("model_type"), "sam_vision_model")
    if enc is None:
        return None
    parts = read_encoder(sr, enc)
    extra = sam_extra(sr, parts)
    oc = dim(sr, "output_channels", default=256)
    chans = sr.get("downsample_channels") or (512, 896)
    if not isinstance(chans, (list, tuple)) or len(chans) != 2:
        raise ConfigError(f"{sr.where}: downsample_channels must be a pair, got {chans!r}"[:200])
    c0, c1 = (check_int(c, "downsample_channels", sr.where) for c in chans)
    sam_proj = 9 * oc * c0 + 9 * c0 * c1
    er = _sub_reader(ctx.vr, "encoder_config")
    eh = dim(er, "hidden_size")
    heads = dim(er, "num_attention_heads", limit="num_heads")
    kv = dim(er, "num_key_value_heads", default=heads, limit="num_heads")
    if eh % heads:
        raise ConfigError(f"{er.where}: hidden_size {eh} is not divisible by {heads} attention heads")
    hd = eh // heads
    att = AttentionSpec(num_heads=heads, num_kv_heads=kv, head_dim=hd, v_head_dim=hd, qkv_bias=True, o_bias=False)
    mlp = DenseMLP(intermediate=dim(er, "intermediate_size"), gated=True, bias=False)
    n = dim(er, "num_hidden_layers", limit="num_layers")
    qwen = EncoderParts(hidden=eh, inter=mlp.intermediate, heads=heads, norm="rms",
                        layers=[LayerSpec(index=i, mixer=att, ffn=mlp, num_norms=2) for i in range(n)], extra={})
    encoder = _encoder_total(qwen) + norm(eh, "rms") + (144 + 256) * eh
    th = ctx.text_hidden
    return _tower(parts, "deepseek_ocr2:" + enc.name, sam_proj=sam_proj, vision_encoder=encoder,
                  projector=linear(eh, th), view_separator=th, **extra)
