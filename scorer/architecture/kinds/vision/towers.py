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


def _encoder(ctx: TowerContext, default: str) -> EncoderParts | None:
    enc = encoder_for(ctx.vision_type, default)
    return read_encoder(ctx.vr, enc) if enc is not None else None


def parts_family(ctx: TowerContext, default: str) -> str:
    """The encoder's label (for VisionTower.family)."""
    enc = encoder_for(ctx.vision_type, default)
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


@tower("paligemma")
def paligemma(ctx: TowerContext) -> VisionTower | None:
    """PaliGemmaMultiModalProjector: linear (vh -> projection_dim, with bias); PaliGemmaConfig copies its
    projection_dim into the vision config. The top-level hidden_size is not read by the modeling code."""
    parts = _encoder(ctx, "siglip_vision_model")
    if parts is None:
        return None
    tr = ctx.tr
    pd = dim(tr, "projection_dim", default=0) or dim(ctx.vr, "projection_dim", default=2048)
    tr.mark("hidden_size", "vocab_size")
    return _tower(parts, "paligemma:" + parts_family(ctx, "siglip_vision_model"), projector=linear(parts.hidden, pd))


@tower("idefics3", "smolvlm")
def idefics3(ctx: TowerContext) -> VisionTower | None:
    """Idefics3Connector / SmolVLMConnector: modality_projection.proj (vh * scale_factor^2 -> th, no bias)."""
    default = ctx.model_type + "_vision"
    parts = _encoder(ctx, default)
    if parts is None:
        return None
    s = dim(ctx.tr, "scale_factor", default=2)
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


@tower("internvl")
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


@tower("qwen2_5_vl", "qwen2_5_vl_text")
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


@tower("glm4v", "glm4v_moe", "glm46v")
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
