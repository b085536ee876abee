"""ViT-style vision encoders: one declarative entry per vision ``model_type``, one generic reader.

An :class:`Encoder` states the parameter layout of one transformers vision model class: which
``vision_config`` keys give depth, width, heads and MLP width; the blocks' norm type and count, the
attention and MLP biases, a gated (SwiGLU) MLP, q/k norms and layer scales; the patch embedding
(``channels * patch * patch * temporal_patch`` weights per output channel, a Conv2d/Conv3d or an
equivalent Linear), the learned position table, a class token, pre/post norms, and Siglip's
attention-pooling head. :func:`read_encoder` reads one through the tower's key reader and returns
the blocks as :class:`~scorer.architecture.specs.LayerSpec` objects (counted at the encoder's width
by :func:`scorer.params.layer_params`) plus the modules outside the blocks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Union

from ....errors import ConfigError
from ...reader import DEFAULT_LIMIT, LIMITS, Reader, check_int
from ...specs import AttentionSpec, DenseMLP, LayerSpec

#: a constant, or ``(config key, default)`` whose boolean value decides (``"!key"``: its negation)
Flag = Union[bool, tuple[str, bool]]


def flag(vr: Reader, spec: Flag) -> bool:
    if isinstance(spec, bool):
        return spec
    key, default = spec
    negate = key.startswith("!")
    val = vr.get(key.lstrip("!"))
    val = default if val is None else bool(val)
    return not val if negate else val


def dim(vr: Reader, names: tuple[str, ...] | str, default: int | None = None, limit: str | None = None) -> int:
    """The first of ``names`` present (config object, then raw), validated; ``default`` when none is.

    Raises:
        ConfigError: none present and no default, or a malformed / absurd value.
    """
    names = (names,) if isinstance(names, str) else names
    for name in names:
        val = vr.get(name)
        if val is not None:
            return check_int(val, vr.key_name(name), vr.where,
                             limit=LIMITS.get(limit or name, DEFAULT_LIMIT))
    if default is None:
        raise ConfigError(f"{vr.where}: missing {names[0]} (needed for the vision tower)")
    return default


def width_and_heads(vr: Reader, width: tuple[str, ...] | str = "hidden_size",
                    heads: tuple[str, ...] | str = "num_attention_heads", label: str = "hidden_size") -> tuple[int, int]:
    """An encoder's width (elements) and attention heads (count), each read by :func:`dim`.

    Raises:
        ConfigError: either is missing or malformed, or the width is not divisible by the heads (named ``label``).
    """
    w = dim(vr, width, limit="hidden_size")
    n = dim(vr, heads, limit="num_heads")
    if w % n:
        raise ConfigError(f"{vr.where}: {label} {w} is not divisible by {n} attention heads")
    return w, n


def pair(vr: Reader, name: str, default: int | None = None) -> tuple[int, int]:
    """A size that may be an int or a [height, width] list (image_size, patch_size, kernel sizes)."""
    val = vr.get(name)
    if isinstance(val, (list, tuple)):
        if len(val) != 2:
            raise ConfigError(f"{vr.where}: {name} must be an integer or a pair, got {val!r}"[:200])
        return (check_int(val[0], name, vr.where), check_int(val[1], name, vr.where))
    v = dim(vr, name, default)
    return (v, v)


def linear(n_in: int, n_out: int, bias: bool = True) -> int:
    return n_in * n_out + (n_out if bias else 0)


def norm(n: int, kind: str) -> int:
    """Parameters of one norm over ``n`` features: LayerNorm weight + bias, RMSNorm weight."""
    return 2 * n if kind == "layernorm" else n


def siglip_head(h: int, inter: int) -> int:
    """SiglipMultiheadAttentionPoolingHead: probe, nn.MultiheadAttention (in_proj 3h x h + bias, out_proj),
    LayerNorm, fc1/fc2 MLP."""
    return h + (3 * h * h + 3 * h) + (h * h + h) + 2 * h + (2 * h * inter + inter + h)


# --- learned position tables (rows; each row is one width-sized vector) -----------------------

def grid(vr: Reader) -> int:
    """(image_size / patch_size)^2 patches, one position each (Siglip, Idefics3, GLM-4V, Step3)."""
    (ih, iw), (ph, pw) = pair(vr, "image_size"), pair(vr, "patch_size")
    return (ih // ph) * (iw // pw)


def grid_cls(vr: Reader) -> int:
    """The patches and the class token (CLIP, Llama 4, InternViT)."""
    return grid(vr) + 1


def rows(key: str) -> Callable[[Reader], int]:
    """A table whose row count is a config key (Siglip2 num_patches, Qwen3-VL num_position_embeddings)."""
    def fn(vr: Reader) -> int:
        return dim(vr, key)
    fn.__name__ = f"rows_{key}"
    return fn


@dataclass(frozen=True)
class Encoder:
    """The parameter layout of one transformers vision encoder class."""

    name: str
    source: str                                    # the transformers class whose layout this is
    norm: str = "layernorm"                        # the blocks' norms (and pre/post norms unless given)
    width: tuple[str, ...] = ("hidden_size",)
    depth: tuple[str, ...] = ("num_hidden_layers",)
    heads: tuple[str, ...] = ("num_attention_heads",)
    inter: tuple[str, ...] = ("intermediate_size",)
    inter_ratio: str | None = None                 # Qwen2-VL: MLP width = width * mlp_ratio
    head_dim: str | None = None                    # key of a head size the modeling code reads (else width/heads)
    kv_heads: str | None = None                    # key of the key/value head count the modeling code reads
    qkv_bias: Flag = True
    o_bias: Flag = True
    qk_norm: str = "none"                          # "head" (head_dim weights) or "full" (width weights, RMS)
    qk_norm_on: Flag = True
    mlp_gated: bool = False
    mlp_bias: Flag = True
    mlp_inter_is: str | None = None                # GLM-4V: the blocks' MLP width is another key (out_hidden_size)
    norms_per_layer: int = 2
    layer_scale: Flag = False                      # two per-channel scales per block (lambda_1, lambda_2)
    channels: tuple[str, ...] = ("num_channels", "in_channels", "in_chans")
    fixed_channels: int | None = None              # the modeling code hard-codes the input channels
    patch_bias: Flag = True
    temporal: str | None = None                    # key of the temporal patch size (Conv3d patch embedding)
    positions: Callable[[Reader], int] | None = None
    position_flag: Flag = True                     # InternViT: use_absolute_position_embeddings
    cls_token: bool = False
    mask_token: Flag = False                       # InternViT: use_mask_token
    pre_norm: bool = False
    post_norm: Flag = False
    post_norm_kind: str | None = None
    siglip_head: Flag = False
    no_shape: tuple[str, ...] = ()                 # keys the class reads that change no parameter shape
    norm_key: str | None = None                    # InternViT: norm_type ("layer_norm" / "rms_norm")


@dataclass
class EncoderParts:
    """An encoder read from a config: widths (elements), blocks, modules outside the blocks."""

    hidden: int
    inter: int
    heads: int
    norm: str
    layers: list[LayerSpec]
    extra: dict[str, int]


def read_encoder(vr: Reader, enc: Encoder) -> EncoderParts:
    """The blocks and embedding modules of ``enc`` read from ``vision_config``.

    Raises:
        ConfigError: a missing, malformed or absurd dimension, or heads that do not divide the width.
    """
    vr.mark(*enc.no_shape)
    h = dim(vr, enc.width, limit="hidden_size")
    depth = dim(vr, enc.depth, limit="num_layers") if enc.depth else 0
    heads = dim(vr, enc.heads, limit="num_heads")
    if enc.mlp_inter_is:
        inter = dim(vr, enc.mlp_inter_is)
    elif enc.inter_ratio:
        ratio = vr.get(enc.inter_ratio)
        if isinstance(ratio, bool) or not isinstance(ratio, (int, float)) or not 0 < ratio <= 64:
            raise ConfigError(f"{vr.where}: {enc.inter_ratio} must be a positive number, got {ratio!r}"[:200])
        inter = int(h * ratio)
    else:
        inter = dim(vr, enc.inter, limit="intermediate_size")
    head_dim = dim(vr, enc.head_dim, default=0) if enc.head_dim else 0
    if not head_dim:
        if h % heads:
            raise ConfigError(f"{vr.where}: hidden_size {h} is not divisible by {heads} attention heads")
        head_dim = h // heads
    kv = dim(vr, enc.kv_heads, default=heads) if enc.kv_heads else heads
    if kv > heads or heads % kv:
        raise ConfigError(f"{vr.where}: {heads} attention heads are not a multiple of {kv} key/value heads")
    kind = enc.norm
    if enc.norm_key:
        nt = vr.get(enc.norm_key)
        if nt not in (None, "layer_norm", "rms_norm"):
            raise ConfigError(f"{vr.where}: {enc.norm_key} must be layer_norm or rms_norm, got {nt!r}"[:200])
        kind = "rms" if nt == "rms_norm" else "layernorm"
    qk = enc.qk_norm if flag(vr, enc.qk_norm_on) else "none"
    att = AttentionSpec(num_heads=heads, num_kv_heads=kv, head_dim=head_dim, v_head_dim=head_dim,
                        qkv_bias=flag(vr, enc.qkv_bias), o_bias=flag(vr, enc.o_bias), qk_norm=qk)
    mlp = DenseMLP(intermediate=inter, gated=enc.mlp_gated, bias=flag(vr, enc.mlp_bias))
    scale = {"norms": 2 * h} if flag(vr, enc.layer_scale) else {}
    layers = [LayerSpec(index=i, mixer=att, ffn=mlp, num_norms=enc.norms_per_layer, extra_params=dict(scale))
              for i in range(depth)]

    extra: dict[str, int] = {}
    ch = enc.fixed_channels or dim(vr, enc.channels, default=3)
    vr.mark(*enc.channels)  # aliases of one size: whichever the config class reads, the others change nothing
    ph, pw = pair(vr, "patch_size")
    t = dim(vr, enc.temporal, default=1) if enc.temporal else 1
    extra["patch_embed"] = linear(ch * t * ph * pw, h, flag(vr, enc.patch_bias))
    pos = 0
    if enc.positions is not None and flag(vr, enc.position_flag):
        pos = enc.positions(vr) * h
    pos += h if enc.cls_token else 0
    pos += h if flag(vr, enc.mask_token) else 0
    if pos:
        extra["positions"] = pos
    outer = enc.post_norm_kind or kind
    n = (norm(h, outer) if enc.pre_norm else 0) + (norm(h, outer) if flag(vr, enc.post_norm) else 0)
    if n:
        extra["encoder_norms"] = n
    if flag(vr, enc.siglip_head):
        extra["pooling_head"] = siglip_head(h, inter)
    return EncoderParts(hidden=h, inter=inter, heads=heads, norm=kind, layers=layers, extra=extra)


#: vision config model_type -> encoder layout
ENCODERS: dict[str, Encoder] = {
    # CLIPVisionModel: class embedding, position table of patches + 1, bias-free conv, pre_layrnorm and
    # post_layernorm; projection_dim belongs to CLIPVisionModelWithProjection, vocab_size to nothing
    "clip_vision_model": Encoder("clip_vision", "CLIPVisionModel", positions=grid_cls, cls_token=True,
                                 patch_bias=False, pre_norm=True, post_norm=True,
                                 no_shape=("projection_dim", "vocab_size")),
    # SiglipVisionModel: conv with bias, (image/patch)^2 positions, post_layernorm, pooling head if vision_use_head
    "siglip_vision_model": Encoder("siglip_vision", "SiglipVisionModel", positions=grid, post_norm=True,
                                   siglip_head=("vision_use_head", True), no_shape=("projection_dim", "vocab_size")),
    # Siglip2VisionModel: a Linear patch embedding (same count), num_patches positions
    "siglip2_vision_model": Encoder("siglip2_vision", "Siglip2VisionModel", positions=rows("num_patches"),
                                    post_norm=True, siglip_head=("vision_use_head", True)),
    # Idefics3VisionTransformer / SmolVLMVisionTransformer: Siglip-like, no pooling head
    "idefics3_vision": Encoder("idefics3_vision", "Idefics3VisionTransformer", positions=grid, post_norm=True),
    "smolvlm_vision": Encoder("smolvlm_vision", "SmolVLMVisionTransformer", positions=grid, post_norm=True),
    # PaddleOCRVisionModel / VideoLlama3VisionModel: Siglip-like without pooling head (VideoLLaMA3: no position table)
    "paddleocr_vl_vision": Encoder("paddleocr_vl_vision", "PaddleOCRVisionModel", positions=grid, post_norm=True,
                                   no_shape=("spatial_merge_size",)),
    "video_llama_3_vision": Encoder("video_llama_3_vision", "VideoLlama3VisionModel", post_norm=True),
    # Phi4MultimodalVisionModel: Siglip with its pooling head always built
    "phi4_multimodal_vision": Encoder("phi4_multimodal_vision", "Phi4MultimodalVisionModel", positions=grid,
                                      post_norm=True, siglip_head=True, no_shape=("crop_size", "feature_layer")),
    # PixtralVisionModel: RMSNorms (ln_pre, attention_norm, ffn_norm), no biases, SwiGLU MLP, 2-D RoPE;
    # head_dim is not read (heads are width / num_attention_heads)
    "pixtral": Encoder("pixtral_vision", "PixtralVisionModel", norm="rms", qkv_bias=False, o_bias=False,
                       mlp_gated=True, mlp_bias=False, patch_bias=False, pre_norm=True,
                       no_shape=("head_dim", "image_size", "vocab_size")),
    # InternVLVisionModel: cls token, patches + 1 positions, q/k/v bias attention_bias, projection with bias,
    # optional full-width RMS q/k norms, layer scales, norm_type; a final LayerNorm unless use_mean_pooling
    "internvl_vision": Encoder("internvl_vision", "InternVLVisionModel", qkv_bias=("attention_bias", False),
                               qk_norm="full", qk_norm_on=("use_qk_norm", False), layer_scale=True,
                               positions=grid_cls, position_flag=("use_absolute_position_embeddings", True),
                               cls_token=True, mask_token=("use_mask_token", False), norm_key="norm_type",
                               post_norm=("!use_mean_pooling", True), post_norm_kind="layernorm",
                               no_shape=("layer_scale_init_value", "projection_dropout", "hidden_dropout_prob")),
    # Qwen2VisionTransformerPretrainedModel: embed_dim wide (hidden_size is the merger's output), MLP width
    # embed_dim * mlp_ratio, fused qkv with bias, LayerNorms, bias-free Conv3d
    "qwen2_vl": Encoder("qwen2_vl_vision", "Qwen2VisionTransformerPretrainedModel", width=("embed_dim",),
                        depth=("depth",), heads=("num_heads",), inter_ratio="mlp_ratio", patch_bias=False,
                        temporal="temporal_patch_size", no_shape=("spatial_patch_size",)),
    # Qwen2_5_VisionTransformerPretrainedModel: RMSNorms, SwiGLU MLP with biases; window attention no parameters
    "qwen2_5_vl": Encoder("qwen2_5_vl_vision", "Qwen2_5_VisionTransformerPretrainedModel", norm="rms",
                          depth=("depth",), heads=("num_heads",), mlp_gated=True, patch_bias=False,
                          temporal="temporal_patch_size",
                          no_shape=("fullatt_block_indexes", "window_size", "spatial_patch_size", "tokens_per_second")),
    # Qwen3VLVisionModel (also Qwen3.5): LayerNorms, fc1/fc2 MLP, Conv3d with bias, num_position_embeddings table
    "qwen3_vl": Encoder("qwen3_vl_vision", "Qwen3VLVisionModel", depth=("depth",), heads=("num_heads",),
                        temporal="temporal_patch_size", positions=rows("num_position_embeddings")),
    # Glm4vVisionModel: RMSNorms, qkv bias attention_bias, bias-free proj, SwiGLU MLP out_hidden_size wide,
    # Conv3d with bias, (image/patch)^2 positions
    "glm4v": Encoder("glm4v_vision", "Glm4vVisionModel", norm="rms", depth=("depth",), heads=("num_heads",),
                     qkv_bias=("attention_bias", False), o_bias=False, mlp_gated=True, mlp_bias=False,
                     mlp_inter_is="out_hidden_size", temporal="temporal_patch_size", positions=grid),
    # Ernie4_5_VLMoeVisionTransformerPretrainedModel: Qwen2-VL blocks, bias-free Linear patch embedding, final ln
    "ernie4_5_vl_moe": Encoder("ernie4_5_vl_vision", "Ernie4_5_VLMoeVisionTransformerPretrainedModel",
                               depth=("depth",), heads=("num_heads",), patch_bias=False, post_norm=True),
    # Kimi_K25VisionModel: 3-channel conv with bias, a pos_emb_height x pos_emb_width table, final LayerNorm
    "kimi_k25": Encoder("kimi_k25_vision", "Kimi_K25VisionModel", fixed_channels=3,
                        positions=lambda vr: dim(vr, "pos_emb_height") * dim(vr, "pos_emb_width"), post_norm=True,
                        no_shape=("pos_emb_time",)),
    # Step3p7VisionModel: bias-free conv, (image/patch)^2 positions, pre_layernorm, layer scales
    "step3p7": Encoder("step3p7_vision", "Step3p7VisionModel", patch_bias=False, positions=grid, pre_norm=True,
                       layer_scale=True, no_shape=("layer_scale_init_value", "mlp_ratio", "max_position_embeddings")),
    # MiniMaxM3VLVisionModel: bias-free Conv3d, pre_layrnorm, CLIP blocks, 2-D RoPE (no table)
    "minimax_m3_vl": Encoder("minimax_m3_vl_vision", "MiniMaxM3VLVisionModel", patch_bias=False,
                             temporal="temporal_patch_size", pre_norm=True, no_shape=("image_size",)),
    # HunYuanVLVisionTransformer: conv with bias, (max_image_size/patch)^2 + 1 positions; num_key_value_heads unread
    "hunyuan_vl": Encoder("hunyuan_vl_vision", "HunYuanVLVisionTransformer", head_dim="head_dim",
                          heads=("num_attention_heads", "attention_heads"),
                          positions=lambda vr: (dim(vr, "max_image_size") // pair(vr, "patch_size")[0]) ** 2 + 1,
                          no_shape=("num_key_value_heads", "temporal_patch_size", "img_max_token_num",
                                    "min_image_size", "max_vit_seq_len", "interpolate_mode")),
    # Gemma4VisionModel: Linear 3*p*p patch embedding, a 2 x position_embedding_size table, bias-free q/k/v/o
    # with per-head q/k RMS norms, SwiGLU MLP, four RMSNorms per block; clipped linears add buffers only
    "gemma4": Encoder("gemma4_vision", "Gemma4VisionModel", norm="rms", head_dim="head_dim",
                      kv_heads="num_key_value_heads", qkv_bias=False, o_bias=False, qk_norm="head",
                      mlp_gated=True, mlp_bias=False, norms_per_layer=4, fixed_channels=3, patch_bias=False,
                      positions=lambda vr: 2 * dim(vr, "position_embedding_size"),
                      no_shape=("use_clipped_linears", "pooling_kernel_size", "standardize", "attention_bias",
                                "max_position_embeddings")),
    # Llama4VisionModel: Linear (unfold) patch embedding without bias, class embedding, patches + 1 positions,
    # layernorm_pre / layernorm_post, CLIP-like blocks with biases
    "llama4": Encoder("llama4_vision", "Llama4VisionModel", patch_bias=False, positions=grid_cls, cls_token=True,
                      pre_norm=True, post_norm=True),
    # MllamaVisionModel: bias-free attention, two stacks (read by the mllama tower), gated tile positions
    "mllama": Encoder("mllama_vision", "MllamaVisionModel", heads=("attention_heads", "num_attention_heads"),
                      qkv_bias=False, o_bias=False, patch_bias=False, cls_token=True, pre_norm=True, post_norm=True),
}
ENCODERS["qwen2_vl_vision"] = ENCODERS["qwen2_vl"]
ENCODERS["qwen2_5_vl_vision"] = ENCODERS["qwen2_5_vl"]
for _name in ("qwen3_vl_vision", "qwen3_vl_moe_vision", "qwen3_5_vision", "qwen3_5_moe_vision"):
    ENCODERS[_name] = ENCODERS["qwen3_vl"]
for _name in ("glm4v_vision", "glm4v_moe_vision", "glm4v_moe"):  # GLM-4.5V's vision_config says "glm4v_moe"
    ENCODERS[_name] = ENCODERS["glm4v"]
ENCODERS["ernie4_5_vl_moe_vision"] = ENCODERS["ernie4_5_vl_moe"]
ENCODERS["kimi_k25_vision"] = ENCODERS["kimi_k25"]
ENCODERS["step3p5_vision"] = ENCODERS["step3p7"]
ENCODERS["step3p7_vision"] = ENCODERS["step3p7"]
ENCODERS["minimax_m3_vl_vision"] = ENCODERS["minimax_m3_vl"]
ENCODERS["hunyuan_vl_vision"] = ENCODERS["hunyuan_vl"]
ENCODERS["gemma4_vision"] = ENCODERS["gemma4"]
ENCODERS["llama4_vision_model"] = ENCODERS["llama4"]
ENCODERS["mllama_vision_model"] = ENCODERS["mllama"]
del _name
# group: multimodal round 2. GlmOcrVisionModel: RMSNorms, attention_bias on qkv, proj and the SwiGLU MLP
# (intermediate_size wide), q/k RMSNorm(head_dim), Conv3d with bias, no position table (image_size unread)
ENCODERS["glm_ocr_vision"] = Encoder("glm_ocr_vision", "GlmOcrVisionModel", norm="rms", depth=("depth",),
                                     heads=("num_heads",), qkv_bias=("attention_bias", False),
                                     o_bias=("attention_bias", False), qk_norm="head", mlp_gated=True,
                                     mlp_bias=("attention_bias", False), temporal="temporal_patch_size",
                                     no_shape=("image_size",))
# Exaone4_5 vision model: Qwen2.5-VL's blocks with grouped key/value heads (num_key_value_heads)
ENCODERS["exaone4_5_vision"] = Encoder(
    "exaone4_5_vision", "Exaone4_5_VisionModel", norm="rms", depth=("depth",), heads=("num_heads",),
    kv_heads="num_key_value_heads", mlp_gated=True, patch_bias=False, temporal="temporal_patch_size",
    no_shape=("fullatt_block_indexes", "window_size", "spatial_patch_size", "tokens_per_second"))
ENCODERS["qianfan_ocr_vision"] = ENCODERS["internvl_vision"]  # QianfanOCR's vision tower is InternViT
ENCODERS["idefics2_vision"] = ENCODERS["idefics3_vision"]  # Idefics2VisionTransformer: the same layout
# GraniteDoclingVisionTransformer: Idefics3's layout; the connector is the tower's (towers.granite_docling)
ENCODERS["granite_docling_vision"] = ENCODERS["idefics3_vision"]
# Lfm3VlVisionModel: bias-free Linear patch embedding (temporal_patch_size), embedding_norm, RMSNorm blocks of GQA
# attention with q/k RMSNorm(head_dim) or (layer_types "conv") a gated 2-D depthwise convolution (towers.lfm3_vl),
# a bias-free SwiGLU MLP, no final norm
ENCODERS["lfm3_vl_vision"] = Encoder("lfm3_vl_vision", "Lfm3VlVisionModel", norm="rms", kv_heads="num_key_value_heads",
                                     qkv_bias=False, o_bias=False, qk_norm="head", mlp_gated=True, mlp_bias=False,
                                     patch_bias=False, temporal="temporal_patch_size", pre_norm=True)
# GotOcr2VisionEncoder (SAM ViT-B): fused qkv (qkv_bias), biased proj and lin1/lin2 (mlp_dim), (image/patch)^2
# absolute positions (use_abs_pos); rel_pos tables and the neck are read by towers.sam_extra
ENCODERS["got_ocr2_vision"] = Encoder("got_ocr2_vision", "GotOcr2VisionEncoder", inter=("mlp_dim",),
                                      qkv_bias=("qkv_bias", True), positions=grid, position_flag=("use_abs_pos", True))
ENCODERS["sam_vision_model"] = ENCODERS["got_ocr2_vision"]  # SamVisionEncoder: the same layout
ENCODERS["deepseek_ocr2_sam_vision_model"] = ENCODERS["got_ocr2_vision"]
# Ovis2VisionTransformer: RMSNorms, qkv_bias on q/k/v/out_proj, SwiGLU MLP with mlp_bias, grid positions,
# embeddings.rms_norm and a final rms_norm; the visual tokenizer head is the tower's (towers.ovis2)
ENCODERS["ovis2_vision"] = Encoder("ovis2_vision", "Ovis2VisionTransformer", norm="rms", qkv_bias=("qkv_bias", False),
                                   o_bias=("qkv_bias", False), mlp_gated=True, mlp_bias=("mlp_bias", False),
                                   positions=grid, pre_norm=True, post_norm=True, no_shape=("tokenize_function",))
# Molmo2VisionTransformer: LayerNorm blocks, attention_bias on q/k/v/o (head_dim, num_key_value_heads), fc1/fc2,
# a Linear patch embedding with bias, num_position_embeddings rows, no pre/post norm
ENCODERS["molmo2_vision"] = Encoder("molmo2_vision", "Molmo2VisionTransformer", head_dim="head_dim",
                                    kv_heads="num_key_value_heads", qkv_bias=("attention_bias", True),
                                    o_bias=("attention_bias", True), positions=rows("num_position_embeddings"),
                                    no_shape=("image_size",))
# MiniCPMV4_6VisionModel (also MiniCPM-V 4.7 / MiniCPM-OCR): Siglip blocks, (image/patch)^2 positions,
# post_layernorm; the ViT window merger is read by the tower (kinds/vision/towers.minicpmv)
for _name in ("minicpmv4_6_vision", "minicpmv4_7_vision", "minicpm_ocr_vision"):
    ENCODERS[_name] = Encoder(_name, "MiniCPMV4_6VisionModel", positions=grid, post_norm=True,
                              no_shape=("insert_layer_id",))


def encoder_for(vision_type: str | None, default: str) -> Encoder | None:
    """The encoder of a vision config's model_type (``default`` when the config names none)."""
    return ENCODERS.get(vision_type or default)
