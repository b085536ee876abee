"""Qwen4-Exp's hyper-connection blocks and Cosmos3-Edge's tower (group: g4, helper round 3).

Qwen4-Exp (transformers 5.24 ``modeling_qwen4_exp.py``) is Qwen3-Next's layer stack (gated delta-net
``linear_attention`` layers, gated softmax attention with per-head q/k RMSNorms, a sparse MoE with a gated
shared expert on every layer) wrapped in hyper-connections instead of pre-norms:

* each ``Qwen4ExpTextDecoderLayer`` holds ``attn_hyper_connection`` and ``mlp_hyper_connection``
  (``Qwen4ExpTextGatedResidual``): ``hc_norm`` (RMSNorm weight of hc_count·h), ``input_mix_weight_down``
  (hc·h -> hc_lowrank), ``input_mix_weight_up`` (hc_lowrank -> hc·h), ``block_inject_weight`` (hc·h -> hc_count);
  no ``input_layernorm`` / ``post_attention_layernorm``;
* the model holds ``hyper_connection_mixer`` (the same module without ``block_inject_weight``) and no final norm;
* ``indexed_attention`` layers are ``Qwen4ExpTextAttention`` (q_proj doubled for the output gate) with a
  ``Qwen4ExpTextQSAIndexer``: ``index_qk_proj`` (h -> (indexer_n_heads + indexer_kv_heads)·indexer_head_dim) and
  two RMSNorms of indexer_head_dim (``q_layernorm``, ``k_layernorm``);
* layers named (one-indexed) in ``ple_layer_ids`` add a ``Qwen4ExpTextPLELayer``: a hashed n-gram embedding
  (``Qwen4ExpTextNGramEmbedding``: (ngram_size - 1)·heads_per_ngram heads, each a table of a distinct prime
  number of rows, the primes following ``ngram_vocab_size_base`` in order across the PLE layers, the summed
  rows padded to ``make_ngram_vocab_size_divisible_by``; ple_embed_dim / heads wide), ``key_proj``
  (ple_embed_dim -> hc·h), ``value_proj`` (ple_embed_dim -> h), three RMSNorms of hc·h and a depthwise
  ``conv1d`` (hc·h channels, ple_conv_kernel_size taps, no bias).

The hyper-connection weights count under ``norms`` (as DeepSeek-V4's, :mod:`.deepseek`), the indexer under
``attention``, the n-gram tables under ``embedding`` (model-level: a per-layer embedding component is not summed)
and the rest of the PLE module under ``recurrent``.
The indexer's raw per-token keys (indexer_kv_heads x indexer_head_dim, ``cache.update_indexer``) are cached beside
K and V (``AttentionSpec.index_kv_heads``); its compressed key blocks are computed from them per step.
"""

from __future__ import annotations

from typing import Any

from ...errors import ConfigError
from ..reader import Reader, check_int
from ..specs import AttentionSpec, DenseMLP, IndexerSpec, LayerSpec, MLASpec, MoEMLP, VisionTower
from . import LayerContext, mixer
from .vision import TowerContext, tower
from .vision import towers as _towers
from .vision.audio import AudioTower, audio_tower
from .vision.encoders import ENCODERS, Encoder, dim, linear, norm, rows


def _is_prime(n: int) -> bool:
    """Deterministic Miller-Rabin for n < 3.3e24 (the bases 2..41)."""
    if n < 2:
        return False
    small = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
    for p in small:
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in small:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def ngram_table_rows(base: int, heads: int, ple_index: int, divisor: int) -> int:
    """Rows of PLE layer ``ple_index``'s n-gram embedding (modeling_qwen4_exp.py ``Qwen4ExpTextNGramEmbedding``):
    head ``j`` of that layer has the ``(ple_index·heads + j + 1)``-th prime >= ``base`` rows; the sum is padded up
    to a multiple of ``divisor``."""
    p, skipped = base - 1, ple_index * heads
    total = 0
    for k in range(skipped + heads):
        p += 1
        while not _is_prime(p):
            p += 1
        if k >= skipped:
            total += p
    return -(-total // divisor) * divisor


def _hyper_connection(hc_hidden: int, rank: int, hc: int, combine: bool) -> int:
    """``Qwen4ExpTextGatedResidual``: hc_norm, input_mix_weight_down / _up, block_inject_weight if combine."""
    return hc_hidden + 2 * hc_hidden * rank + (hc_hidden * hc if combine else 0)


def qwen4_exp_finish(r: Reader, layers: list[LayerSpec], d: dict[str, Any]) -> tuple[list[LayerSpec], dict[str, int]]:
    """FamilyHook.finish of ``qwen4_exp_text`` (see the module docstring): hyper-connections on every block and
    the model's mixer, the QSA indexer on attention layers, PLE modules on ``ple_layer_ids``.

    Raises:
        ConfigError: missing indexer keys while the model has attention layers, PLE ids out of range or on a
            non-linear-attention layer, or a ple_embed_dim the n-gram heads do not divide.
    """
    h, n = d["hidden"], len(layers)
    hc = r.int("hc_count")
    rank = r.int("hc_lowrank")
    hch = hc * h
    block_hc = 2 * _hyper_connection(hch, rank, hc, True)
    indexer = 0
    index_fields: dict[str, int] = {}
    if any(isinstance(lay.mixer, AttentionSpec) for lay in layers):
        ih = r.int("indexer_head_dim")
        indexer = h * (r.int("indexer_n_heads") + r.int("indexer_kv_heads")) * ih + 2 * ih
        # Qwen4ExpTextQSAIndexer.forward: cache.update_indexer(raw_keys) keeps every token's raw key
        # (indexer_kv_heads x indexer_head_dim) beside the layer's K and V
        index_fields = {"index_kv_heads": r.int("indexer_kv_heads"), "index_head_dim": ih,
                        "index_heads": r.int("indexer_n_heads")}
        r.mark("indexer_budget", "indexer_compress_ratio")  # which tokens are read: no shape
    else:
        r.mark("indexer_n_heads", "indexer_kv_heads", "indexer_head_dim", "indexer_budget", "indexer_compress_ratio")
    ple_ids = r.get("ple_layer_ids") or []
    if not isinstance(ple_ids, (list, tuple)) or not all(isinstance(i, int) and not isinstance(i, bool)
                                                         for i in ple_ids):
        raise ConfigError(f"{r.where}: ple_layer_ids must be a list of layer ids, got {ple_ids!r}"[:200])
    ple_ids = sorted(set(ple_ids))  # Qwen4ExpTextConfig.__post_init__
    ple_keys = ("ple_embed_dim", "ple_conv_kernel_size", "ngram_size", "heads_per_ngram", "ngram_vocab_size_base",
                "make_ngram_vocab_size_divisible_by")
    ple: dict[int, dict[str, int]] = {}
    tables = 0  # the n-gram embedding tables of every PLE layer (a model-level embedding count)
    if ple_ids:
        e = r.int("ple_embed_dim", default=h)
        kernel = r.int("ple_conv_kernel_size")
        heads = (r.int("ngram_size", minimum=2) - 1) * r.int("heads_per_ngram")
        base = check_int(r.get("ngram_vocab_size_base"), "ngram_vocab_size_base", r.where, limit=1 << 40)
        divisor = r.int("make_ngram_vocab_size_divisible_by")
        if e % heads:
            raise ConfigError(f"{r.where}: ple_embed_dim {e} is not divisible by the {heads} n-gram heads")
        if heads * len(ple_ids) > 1 << 16:  # one prime search per table: keep a hostile config bounded
            raise ConfigError(f"{r.where}: {heads} n-gram heads on {len(ple_ids)} PLE layers is absurd")
        for p, lid in enumerate(ple_ids):
            if not 1 <= lid <= n or layers[lid - 1].mixer is None or isinstance(layers[lid - 1].mixer, AttentionSpec):
                raise ConfigError(f"{r.where}: ple_layer_ids entry {lid} is not a linear_attention layer of 1..{n}")
            tables += ngram_table_rows(base, heads, p, divisor) * (e // heads)
            ple[lid - 1] = {"recurrent": e * hch + e * h + 3 * hch + hch * kernel}
        r.mark("seed", "split_ngram_parts", "eos_token_id")  # hashing, checkpoint sharding: no shape
    else:
        r.mark(*ple_keys, "seed", "split_ngram_parts")
    r.mark("number_of_conv_states", "output_gate_type")  # derived cache bookkeeping; an activation
    out = []
    for i, lay in enumerate(layers):
        extra = dict(lay.extra_params)
        extra["norms"] = extra.get("norms", 0) + block_hc
        update: dict[str, Any] = {"extra_params": extra}
        if isinstance(lay.mixer, AttentionSpec):
            extra["attention"] = extra.get("attention", 0) + indexer
            update["mixer"] = lay.mixer.model_copy(update=index_fields)
        for k, v in ple.get(i, {}).items():
            extra[k] = extra.get(k, 0) + v
        out.append(lay.model_copy(update=update))
    model_extra = {"norms": _hyper_connection(hch, rank, hc, False)}
    if tables:
        model_extra["embedding"] = tables
    return out, model_extra


# --- Dots3-Note: MLA layers of per-layer shapes -------------------------------------------------------

def _layer_reader(ctx: LayerContext, index: int) -> Reader:
    """:func:`layer_reader` of the text model's reader."""
    return layer_reader(ctx.r, index)


def layer_reader(r: Reader, index: int) -> Reader:
    """A reader of layer ``index``'s own configuration (transformers' heterogeneous ``per_layer_config``).

    With the config class: ``cfg.per_layer_config[index]`` (the class filled in the sliding layers' ``swa_*``
    shapes). Without it: the raw ``per_layer_config`` entry of the layer (keys ``"2"`` or ``"02"``) over the
    top-level keys. Keys read are recorded in the model reader's consumed set.

    Raises:
        ConfigError: a per_layer_config that is not an object of objects.
    """
    r.mark("per_layer_config")
    view = getattr(r.cfg, "per_layer_config", None) if r.cfg is not None else None
    if view is not None and getattr(r.cfg, "is_heterogeneous", False):
        return Reader(r.raw, view[index], r.where, r.consumed)
    raw = r.raw.get("per_layer_config") or {}
    if not isinstance(raw, dict):
        raise ConfigError(f"{r.where}: per_layer_config must be an object (layer index -> overrides)")
    over = next((v for k, v in raw.items() if str(k).lstrip("0") == (str(index) if index else "")), None)
    if over is not None and not isinstance(over, dict):
        raise ConfigError(f"{r.where}: per_layer_config[{index}] must be an object")
    lr = Reader({**r.raw, **(over or {})}, None, r.where, r.consumed)
    lr.key_aliases = r.key_aliases
    return lr


@mixer("dots3_note_attention")
def dots3_note_attention(ctx: LayerContext, index: int, kind: str) -> MLASpec:
    """One ``Dots3NoteTextAttention`` (modeling_dots3_note.py), read from the layer's own config: MLA (q_a_proj
    with q_lora_rank, kv_a_proj_with_mqa, kv_b_proj, o_proj; biases attention_bias), a sliding window on
    ``sliding_attention`` layers, a ``Dots3NoteTextIndexer`` (DeepSeek-V3.2's layout: wq_b from q_lora_rank,
    wk, LayerNorm k_norm, weights_proj) on ``indexed_attention`` layers. The per-layer ``k_rope_only_layernorm``
    (qk_rope_head_dim) and ``g_proj`` (h -> heads) are added by :func:`dots3_note_finish`."""
    lr = _layer_reader(ctx, index)
    kind = ctx.r.raw.get("layer_types", [None] * ctx.n_layers)[index] if ctx.r.cfg is None else \
        ctx.r.cfg.layer_types[index]
    heads = lr.int("num_heads")
    q_lora = lr.get("q_lora_rank")
    if not q_lora:
        raise ConfigError(f"{ctx.where}: Dots3-Note layer {index} needs q_lora_rank (its MLA queries)")
    if lr.int("num_kv_heads", default=heads) != heads:
        raise ConfigError(f"{ctx.where}: Dots3-Note layer {index}: num_key_value_heads must equal the heads")
    indexer = None
    if kind == "indexed_attention":
        indexer = IndexerSpec(num_heads=lr.int("index_n_heads"), head_dim=lr.int("index_head_dim"),
                              top_k=lr.int("index_topk"), q_lora_rank=check_int(q_lora, "q_lora_rank", ctx.where))
    sliding = kind == "sliding_attention"
    window = lr.int("sliding_window") if sliding else None
    bias = lr.flag("attention_bias")
    lr.mark("head_dim")  # qk_nope_head_dim + qk_rope_head_dim (checked by the config class)
    return MLASpec(span="sliding" if sliding else "full", window=window, num_heads=heads,
                   q_lora_rank=check_int(q_lora, "q_lora_rank", ctx.where), kv_lora_rank=lr.int("kv_lora_rank"),
                   qk_nope_head_dim=lr.int("qk_nope_head_dim"), qk_rope_head_dim=lr.int("qk_rope_head_dim"),
                   v_head_dim=lr.int("v_head_dim"), qkv_bias=bias, o_bias=bias, indexer=indexer)


def dots3_note_finish(r: Reader, layers: list[LayerSpec], d: dict[str, Any]
                      ) -> tuple[list[LayerSpec], dict[str, int]]:
    """FamilyHook.finish of ``dots3_note_text``: each attention's ``k_rope_only_layernorm`` (qk_rope_head_dim)
    and ``g_proj`` (h -> heads, no bias); the MoE's shared MLP (``Dots3NoteTextMoE.shared_experts``) is
    shared_experts_intermediate_size x n_shared_experts wide."""
    shared_i = r.int("shared_experts_intermediate_size") * r.int("num_shared_experts")
    if r.cfg is not None:  # legacy keys Dots3NoteTextConfig.__post_init__ folded into layer_types, mlp_layer_types,
        # per_layer_config and shared_experts_intermediate_size
        r.mark("use_dsa", "use_sliding_window", "sliding_window_size", "first_k_dense_replace", "moe_layer_freq",
               "moe_shared_expert_intermediate_size", "swa_num_attention_heads", "swa_num_key_value_heads",
               "swa_q_lora_rank", "swa_kv_lora_rank", "swa_head_dim", "swa_qk_nope_head_dim", "swa_v_head_dim",
               "swa_qk_rope_head_dim", "swa_rope_theta")
    out = []
    for lay in layers:
        extra = dict(lay.extra_params)
        upd: dict[str, Any] = {}
        if isinstance(lay.mixer, MLASpec):
            extra["attention"] = extra.get("attention", 0) + lay.mixer.qk_rope_head_dim \
                + d["hidden"] * lay.mixer.num_heads
            upd["extra_params"] = extra
        if isinstance(lay.ffn, MoEMLP) and lay.ffn.shared is not None:
            upd["ffn"] = lay.ffn.model_copy(update={"shared": lay.ffn.shared.model_copy(
                update={"intermediate": shared_i})})
        out.append(lay.model_copy(update=upd))
    return out, {}


# --- GLM-5-Next ---------------------------------------------------------------------------------------

def glm5_next_finish(r: Reader, layers: list[LayerSpec], d: dict[str, Any]
                     ) -> tuple[list[LayerSpec], dict[str, int]]:
    """FamilyHook.finish of ``glm5_next_text`` (modeling_glm5_next.py): every ``Glm5NextTextDecoderLayer`` holds
    ``attn_hc`` and ``ffn_hc`` (``Glm5NextTextHyperConnection``: DeepSeek-V4's fn / base / scale for hc_mult
    streams, beside the two RMSNorms); a layer with its own ``Glm5NextTextIndexer`` adds
    ``index_kpool_compress_ape`` (index_kpool x index_head_dim) and ``index_kpool_compress_gate``
    (index_head_dim x h). ``Glm5NextTextHyperHead`` is an unweighted mean (no parameters)."""
    from .deepseek import hyper_connection_params
    h = d["hidden"]
    block, _ = hyper_connection_params(h, r.int("hc_mult"))
    out = []
    for lay in layers:
        extra = dict(lay.extra_params)
        extra["norms"] = extra.get("norms", 0) + 2 * block
        idx = getattr(lay.mixer, "indexer", None)
        if idx is not None and not idx.shared:
            extra["attention"] = extra.get("attention", 0) + (r.int("index_kpool") + h) * idx.head_dim
        out.append(lay.model_copy(update={"extra_params": extra}))
    if not any(getattr(lay.mixer, "indexer", None) is not None for lay in layers):
        r.mark("index_kpool")
    if r.cfg is not None:
        r.mark("linear_attn_config")  # Glm5NextTextConfig folds it into linear_num_heads / linear_head_dim / ...
    return out, {}


# --- towers ------------------------------------------------------------------------------------------

# Qwen4ExpVisionModel: Qwen3-VL's encoder (Conv3d patch embedding, num_position_embeddings table, LayerNorm blocks)
ENCODERS["qwen4_exp_vision"] = ENCODERS["qwen3_vl"]

# Cosmos3EdgeVisionModel (modeling_cosmos3_edge.py): Siglip-like, a Linear patch embedding with bias, num_patches
# positions, LayerNorm blocks with biased attention and fc1/fc2, post_layernorm, no pooling head
ENCODERS["cosmos3_edge_vision"] = Encoder("cosmos3_edge_vision", "Cosmos3EdgeVisionModel",
                                          positions=rows("num_patches"), post_norm=True)


@tower("qwen4_exp")
def qwen4_exp(ctx: TowerContext) -> VisionTower | None:
    """Qwen4ExpVisionModel's merger (Qwen4ExpVisionPatchMerger) is Qwen3.5's: LayerNorm (vh), linear_fc1
    (merged -> merged), linear_fc2 (merged -> out_hidden_size); no deepstack mergers."""
    return _towers.qwen3_vl(ctx)


def _dots3_vision(ctx: TowerContext) -> tuple[VisionTower, int]:
    """Dots3NoteVisionModel (modeling_dots3_note.py): patch_embed (Conv2d with bias, RMSNorm), blocks of RMSNorms,
    qkv / proj (bias attention_bias) with per-head q_norm / k_norm, and per mlp_layer_types a gated
    Dots3NoteVisionMLP (the layer's intermediate_size, bias mlp_bias) or a Dots3NoteVisionMoE (the layer's
    num_local_experts of moe_intermediate_size, a bias-free router, no shared expert); the final RMSNorm; the
    merger (ln_q LayerNorm of adapter_in_dim, Linear m² adapter_in_dim -> same, Linear -> adapter_out_dim, biases;
    m = adapter_merge_size)."""
    vr = ctx.vr
    h = dim(vr, "hidden_size", limit="hidden_size")
    heads = dim(vr, "num_attention_heads", limit="num_heads")
    if h % heads:
        raise ConfigError(f"{vr.where}: hidden_size {h} is not divisible by {heads} attention heads")
    depth = dim(vr, "num_hidden_layers", limit="num_layers")
    kinds = vr.get("mlp_layer_types") or ["dense"] * depth
    if not isinstance(kinds, (list, tuple)) or len(kinds) != depth:
        raise ConfigError(f"{vr.where}: mlp_layer_types must list the {depth} layers")
    bias = vr.flag("attention_bias")
    att = AttentionSpec(num_heads=heads, num_kv_heads=heads, head_dim=h // heads, v_head_dim=h // heads,
                        qkv_bias=bias, o_bias=bias, qk_norm="head")
    layers = []
    for i, k in enumerate(kinds):
        lr = layer_reader(vr, i)
        if k == "sparse":
            ne = lr.int("num_experts")
            ffn: Any = MoEMLP(num_experts=ne, top_k=min(lr.int("top_k"), ne), expert_intermediate=lr.int(
                "expert_intermediate"))
        else:
            ffn = DenseMLP(intermediate=lr.int("intermediate_size"), bias=lr.flag("mlp_bias"))
        layers.append(LayerSpec(index=i, mixer=att, ffn=ffn, num_norms=2))
    vr.mark("router_scaling_factor")  # routing weights only
    if vr.cfg is not None:  # legacy keys Dots3NoteVisionConfig.__post_init__ folded into the fields read above
        vr.mark("pyramid_num_routed", "capacity_factor", "router_scale", "embed_dim", "num_heads", "use_bias",
                "is_causal")
    ch = dim(vr, "num_channels", default=3)
    p = dim(vr, "patch_size")
    m = dim(vr, "adapter_merge_size", default=2)
    vr.mark("spatial_merge_size")  # the config class checks it equals adapter_merge_size
    a_in, a_out = dim(vr, "adapter_in_dim"), dim(vr, "adapter_out_dim")
    merged = a_in * m * m
    extra = {"patch_embed": linear(ch * p * p, h) + h, "encoder_norms": h,
             "merger": norm(a_in, "layernorm") + linear(merged, merged) + linear(merged, a_out)}
    return VisionTower(family="dots3_note_vision", hidden_size=h, num_layers=depth, layers=layers, norm="rms",
                       extra_params=extra), a_out


@tower("dots3_note")
def dots3_note(ctx: TowerContext) -> VisionTower | None:
    """The vision tower of Dots3NoteModel (:func:`_dots3_vision`)."""
    return _dots3_vision(ctx)[0]


@audio_tower("dots3_note")
def dots3_note_audio(ctx: TowerContext) -> AudioTower | None:
    """Dots3NoteAudioModel (modeling_dots3_note.py): conv_stem (three 3x3 Conv2d with bias: 1 ->
    downsample_hidden_size -> same -> same; conv_out Linear conv_output_size -> h, no bias); layers of two
    RMSNorms, q_proj / v_proj / o_proj (bias attention_bias; heads x head_dim, KV heads x head_dim), a bias-free
    k_proj (h -> h), a fused gate_up_proj (h -> 2·intermediate) and down_proj with biases; layer_norm (RMS);
    the adapter (LayerNorm adapter_input_size, fc1 -> adapter_out_dim, fc2, biases)."""
    ar = ctx.vr
    h = dim(ar, "hidden_size", limit="hidden_size")
    heads = dim(ar, "num_attention_heads", limit="num_heads")
    hd = dim(ar, "head_dim", default=h // heads)
    kv = dim(ar, "num_key_value_heads", default=heads)
    inter = dim(ar, "intermediate_size", limit="intermediate_size")
    depth = dim(ar, "num_hidden_layers", limit="num_layers")
    ds = dim(ar, "downsample_hidden_size")
    conv_out = dim(ar, "conv_output_size")
    b = ar.flag("attention_bias")
    att = linear(h, heads * hd, b) + h * h + linear(h, kv * hd, b) + linear(heads * hd, h, b)
    block = att + 2 * h + linear(h, 2 * inter) + linear(inter, h)
    stem = (9 * ds + ds) + 2 * (9 * ds * ds + ds) + conv_out * h
    a_in, a_out = dim(ar, "adapter_input_size"), dim(ar, "adapter_out_dim")
    ar.mark("feature_size", "hop_length", "sampling_rate", "samples_per_token", "max_position_embeddings")
    if ar.cfg is not None:  # legacy keys Dots3NoteAudioConfig.__post_init__ folded into the fields read above
        ar.mark("whisper_adapter_in_dim", "whisper_adapter_out_dim", "adapter_output_size", "whisper_config")
    adapter = norm(a_in, "layernorm") + linear(a_in, a_out) + linear(a_out, a_out)
    return AudioTower("dots3_note_audio", h, {"audio_encoder": stem + depth * block + h, "projector": adapter})


ENCODERS["glm5_next_vision"] = ENCODERS["glm_ocr_vision"]  # Glm5NextVisionModel's blocks are GLM-OCR's


@tower("glm5_next")
def glm5_next(ctx: TowerContext) -> VisionTower | None:
    """Glm5NextVisionModel around its blocks: post_layernorm (RMS, vh), downsample (Conv2d vh -> out_hidden_size,
    kernel spatial_merge_size, with bias), Glm5NextVisionPatchMerger (proj out x out, LayerNorm out, SwiGLU
    out -> projection_intermediate_size -> out, no biases)."""
    enc = ENCODERS.get(ctx.vision_type or "glm5_next_vision")
    if enc is None:
        return None
    from .vision.encoders import read_encoder
    parts = read_encoder(ctx.vr, enc)
    vr, vh = ctx.vr, parts.hidden
    m = dim(vr, "spatial_merge_size", default=2)
    out = dim(vr, "out_hidden_size")
    inter = dim(vr, "projection_intermediate_size")
    vr.mark("swiglu_limit")  # an activation clamp
    merger = out * out + norm(out, "layernorm") + 3 * out * inter
    return _towers._tower(parts, "glm5_next_vision", encoder_out_norms=norm(vh, "rms"),
                          downsample=vh * out * m * m + out, merger=merger)


@tower("cosmos3_edge")
def cosmos3_edge(ctx: TowerContext) -> VisionTower | None:
    """Cosmos3EdgePatchMerger (``model.projector``): LayerNorm (vh, before the 2x2 merge), linear_fc1
    (vh·m² -> projector_hidden_size), linear_fc2 (-> th), with biases; m = vision spatial_merge_size."""
    enc = ENCODERS.get(ctx.vision_type or "cosmos3_edge_vision")
    if enc is None:
        return None
    from .vision.encoders import read_encoder
    parts = read_encoder(ctx.vr, enc)
    m = dim(ctx.vr, "spatial_merge_size", default=2)
    ph = dim(ctx.tr, "projector_hidden_size")
    merged = parts.hidden * m * m
    proj = norm(parts.hidden, "layernorm") + linear(merged, ph) + linear(ph, ctx.text_hidden)
    return _towers._tower(parts, "cosmos3_edge:" + enc.name, projector=proj)
