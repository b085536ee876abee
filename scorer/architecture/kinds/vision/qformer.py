"""BLIP-2 / InstructBLIP towers (group: audio and omni): the EVA-style vision model, the Q-Former and the
language projection, counted under ``params.vision``.

transformers 5.24: ``Blip2VisionModel`` (qkv with a q / v bias stored as one 3 x width bias, projection,
fc1 / fc2, two LayerNorms a block; biased patch conv, class embedding, patches + 1 positions, post_layernorm),
``Blip2QFormerModel`` / ``InstructBlipQFormerModel`` and ``...ForConditionalGeneration``'s query_tokens and
language_projection.
"""

from __future__ import annotations

from ...reader import Reader
from ...specs import VisionTower
from . import TowerContext, tower
from .encoders import ENCODERS, Encoder, dim, flag, grid_cls, linear, norm, read_encoder, width_and_heads

_BLIP_VISION = Encoder("blip_2_vision", "Blip2VisionModel", positions=grid_cls, cls_token=True, post_norm=True,
                       qkv_bias=("qkv_bias", True))
for _name in ("blip_2_vision_model", "instructblip_vision_model", "instructblipvideo_vision_model"):
    ENCODERS.setdefault(_name, _BLIP_VISION)


def qformer_params(qr: Reader, embeddings: bool) -> int:
    """Blip2QFormerModel: layernorm and num_hidden_layers blocks of self-attention (query / key / value / dense,
    LayerNorm), cross-attention every cross_attention_frequency layers (key / value from encoder_hidden_size),
    the query FFN (intermediate_query / output_query, LayerNorm) and, with use_qformer_text_input, the text FFN;
    InstructBLIP's Q-Former always has the text FFN and word / position embeddings (its LayerNorm is the
    model's)."""
    h, heads = width_and_heads(qr)
    n = dim(qr, "num_hidden_layers", limit="num_layers")
    inter = dim(qr, "intermediate_size")
    enc = dim(qr, "encoder_hidden_size")
    freq = dim(qr, "cross_attention_frequency", default=2)
    text_ffn = embeddings or flag(qr, ("use_qformer_text_input", False))
    ln = norm(h, "layernorm")
    self_att = 4 * linear(h, h) + ln
    cross = linear(h, h) + 2 * linear(enc, h) + linear(h, h) + ln
    ffn = linear(h, inter) + linear(inter, h) + ln
    total = ln + sum(self_att + (cross if i % freq == 0 else 0) + ffn * (2 if text_ffn else 1) for i in range(n))
    if embeddings:
        total += (dim(qr, "vocab_size") + dim(qr, "max_position_embeddings", limit="max_positions")) * h
    else:
        qr.mark("vocab_size", "max_position_embeddings")  # Blip2QFormerModel builds no embeddings
    return total


@tower("blip-2", "instructblip", "instructblipvideo")
def blip2(ctx: TowerContext) -> VisionTower | None:
    """The vision model, the Q-Former (qformer_config), query_tokens (num_query_tokens x Q-Former width) and
    language_projection (Q-Former width -> text hidden, with bias)."""
    enc = ENCODERS.get(ctx.vision_type or "blip_2_vision_model")
    q_raw = ctx.tr.raw.get("qformer_config")
    if enc is not _BLIP_VISION or not isinstance(q_raw, dict):
        return None
    parts = read_encoder(ctx.vr, enc)
    q_obj = getattr(ctx.tr.cfg, "qformer_config", None) if ctx.tr.cfg is not None else None
    qr = Reader(q_raw, q_obj if q_obj is not None and not isinstance(q_obj, dict) else None, "config.qformer_config")
    q = qformer_params(qr, embeddings=ctx.model_type != "blip-2")
    ctx.tr.mark("qformer_config", "image_text_hidden_size", "use_decoder_only_language_model")
    qh = dim(qr, "hidden_size")
    tokens = dim(ctx.tr, "num_query_tokens", default=32) * qh
    return VisionTower(family=ctx.model_type + ":blip_2_vision", hidden_size=parts.hidden,
                       num_layers=len(parts.layers), layers=parts.layers, norm="layernorm",
                       extra_params={**parts.extra, "qformer": q, "query_tokens": tokens,
                                     "projector": linear(qh, ctx.text_hidden)})


ENCODERS.setdefault("kosmos_2_vision_model", ENCODERS["clip_vision_model"])  # Kosmos2VisionTransformer: CLIP's


@tower("kosmos-2")
def kosmos2(ctx: TowerContext) -> VisionTower | None:
    """Kosmos2VisionModel (CLIP's vision transformer) and Kosmos2ImageToTextProjection: dense (vision hidden ->
    text embed_dim, with bias), latent_query (latent_query_num x embed_dim), x_attn (q / k / v / out_proj of
    embed_dim with biases, no inner LayerNorm)."""
    enc = ENCODERS.get(ctx.vision_type or "kosmos_2_vision_model")
    if enc is not ENCODERS["clip_vision_model"]:
        return None
    parts = read_encoder(ctx.vr, enc)
    th = ctx.text_hidden
    proj = linear(parts.hidden, th) + dim(ctx.tr, "latent_query_num", default=64) * th + 4 * linear(th, th)
    return VisionTower(family="kosmos-2:clip_vision", hidden_size=parts.hidden, num_layers=len(parts.layers),
                       layers=parts.layers, norm="layernorm", extra_params={**parts.extra, "projector": proj})
