"""Families of one-off layouts (group: blt, cpmant, prophetnet, reformer, rembert, t5gemma2).

The structure flags of these families are in :mod:`scorer.architecture.families` (``FAMILIES.update`` of the
group; CPM-Ant and ProphetNet need nothing else); what the flags cannot say is here:

* Reformer: two mixer kinds (registered under the names the family's ``layer_kind_aliases`` give
  ``attn_layers``' ``"lsh"`` and ``"local"``) and a ``finish`` step (axial positions, the 2 * hidden head);
* RemBERT: embedding_hidden_mapping_in when the embedding width equals hidden;
* BLT: the local encoder, global transformer, hash embeddings and patcher around the local decoder, each read
  from its own sub-config with its own width;
* T5Gemma2: the encoder's text model (``ENCODER_READERS``), the sub-config the decoder is read from
  (``TEXT_KEYS``) and the one holding the vision tower (``TOWER_HOLDERS``).

``finish`` steps are :class:`~scorer.architecture.assemble.FamilyHook` steps: they read their keys through the
reader and return the layers and the model-level ``extra_params``.
"""

from __future__ import annotations

from typing import Any

from ...errors import ConfigError
from ..reader import Reader, check_int
from ..specs import AttentionSpec, LayerSpec
from . import LayerContext, mixer


@mixer("reformer_lsh")
def reformer_lsh(ctx: LayerContext, index: int, kind: str) -> AttentionSpec:
    """LSHSelfAttention (modeling_reformer.py): query_key (shared by queries and keys) and value, both
    hidden -> heads x attention_head_size without bias, then ReformerSelfOutput.dense (no bias).

    Counted as attention whose keys are its queries' projection (``k_eq_v``: one projection fewer; the
    cache keeps one heads x head_dim vector a token). Hashing (num_buckets, num_hashes, chunking) holds no
    parameters."""
    ctx.r.mark("num_buckets", "num_hashes", "hash_seed", "lsh_attn_chunk_length", "lsh_num_chunks_before",
               "lsh_num_chunks_after")
    return AttentionSpec(num_heads=ctx.heads, num_kv_heads=ctx.heads, head_dim=ctx.head_dim, v_head_dim=ctx.head_dim,
                         k_eq_v=True)


@mixer("reformer_local")
def reformer_local(ctx: LayerContext, index: int, kind: str) -> AttentionSpec:
    """LocalSelfAttention (modeling_reformer.py): query, key, value (hidden -> heads x attention_head_size, no
    bias) and the output dense; each chunk of local_attn_chunk_length tokens attends to itself and
    local_num_chunks_before earlier chunks (the window, tokens).

    Raises:
        ConfigError: a non-positive chunk length or a negative chunk count."""
    r = ctx.r
    chunk = r.int("local_attn_chunk_length", default=64)
    before = check_int(r.get("local_num_chunks_before", 1), "local_num_chunks_before", r.where, minimum=0)
    check_int(r.get("local_num_chunks_after", 0), "local_num_chunks_after", r.where, minimum=0)
    return AttentionSpec(span="sliding", window=chunk * (1 + before), num_heads=ctx.heads, num_kv_heads=ctx.heads,
                         head_dim=ctx.head_dim, v_head_dim=ctx.head_dim)


def reformer_finish(r: Reader, layers: list[LayerSpec], d: dict[str, Any]) -> tuple[list[LayerSpec], dict[str, int]]:
    """Reformer's modules outside the blocks (modeling_reformer.py):

    * position embeddings: AxialPositionEmbeddings (one axial_pos_shape[i] x axial_pos_embds_dim[i] weight per
      axis, the dims summing to hidden) when axial_pos_embds, else PositionEmbeddings (max_position_embeddings x
      hidden);
    * ReformerEncoder.layer_norm over the concatenated reversible streams (2 * hidden, weight + bias);
    * ReformerOnlyLMHead: decoder 2 * hidden -> vocab with bias, plus its own ``bias`` (vocab): the generic
      lm_head counts vocab x hidden + vocab, the rest is added here.

    Raises:
        ConfigError: axial shapes that are not two lists of positive ints of one length, or dims that do not sum
            to hidden (ReformerConfig would fail to build the model)."""
    h, vocab = d["hidden"], d["vocab"]
    extra: dict[str, int] = {}
    if r.get("axial_pos_embds", True):
        shape, dims = r.get("axial_pos_shape"), r.get("axial_pos_embds_dim")
        if not isinstance(shape, (list, tuple)) or not isinstance(dims, (list, tuple)) or len(shape) != len(dims) \
                or not shape:
            raise ConfigError(f"{r.where}: axial_pos_shape and axial_pos_embds_dim must be lists of one length")
        shape = [check_int(v, f"axial_pos_shape[{i}]", r.where) for i, v in enumerate(shape)]
        dims = [check_int(v, f"axial_pos_embds_dim[{i}]", r.where) for i, v in enumerate(dims)]
        if sum(dims) != h:
            raise ConfigError(f"{r.where}: axial_pos_embds_dim {dims} must sum to hidden_size {h}")
        extra["embedding"] = sum(s * e for s, e in zip(shape, dims))
        r.mark("max_position_embeddings")  # axial positions: the table is the product of the axes
    else:
        r.mark("axial_pos_shape", "axial_pos_embds_dim")
        extra["embedding"] = r.int("max_positions") * h
    extra["norms"] = 4 * h
    extra["lm_head"] = vocab * h + vocab
    r.mark("chunk_size_lm_head")  # chunked application of the head: no shape
    return layers, extra


def rembert_finish(r: Reader, layers: list[LayerSpec], d: dict[str, Any]) -> tuple[list[LayerSpec], dict[str, int]]:
    """RemBertEncoder.embedding_hidden_mapping_in (input_embedding_size -> hidden, with bias) exists even when
    the two widths are equal; the generic factorized-embedding count adds it only when they differ."""
    h = d["hidden"]
    if r.int("input_embedding_size") == h:
        return layers, {"embedding": h * h + h}
    return layers, {}


def _sub_reader(r: Reader, name: str) -> Reader:
    """A reader of sub-config ``name`` (its raw dict and the config object's attribute) whose consumed keys are
    recorded in ``r.consumed`` as ``"<name>.<key>"``, and ``name`` added to ``r.nested`` so that the sheet
    accounts for its keys one by one.

    Raises:
        ConfigError: the sub-config is absent or not an object."""
    raw = r.raw.get(name)
    obj = getattr(r.cfg, name, None) if r.cfg is not None else None
    if raw is None and obj is not None and hasattr(obj, "to_dict"):
        raw = {}
    if not isinstance(raw, dict):
        raise ConfigError(f"{r.where}: {name} must be an object (a sub-config)")
    if name not in r.nested:
        r.nested = (*r.nested, name)
    return Reader(raw, None if obj is None or isinstance(obj, dict) else obj, f"{r.where}.{name}")


def _record(r: Reader, sub: Reader, name: str) -> None:
    r.consumed.update(f"{name}.{k}" for k in sub.consumed)


def _blt_stack(sub: Reader, extra: dict[str, int]) -> tuple[int, int, int, int]:
    """Add the num_hidden_layers BltTransformerLayer blocks of sub-config ``sub`` to ``extra`` (attention, mlp,
    norms) and return (hidden, heads, kv heads, head_dim): BltSelfAttention has bias-free q/k/v/o and head_dim =
    hidden // heads whatever head_dim says; BltMLP bias-free gate/up/down of intermediate_size (default
    int(8 * hidden / 3)); two RMSNorm weights.

    Raises:
        ConfigError: heads not a multiple of the KV heads, or a missing or bad dimension."""
    h, heads = sub.int("hidden_size"), sub.int("num_attention_heads")
    kv = sub.int("num_key_value_heads", default=heads)
    if heads % kv:
        raise ConfigError(f"{sub.where}: {heads} attention heads (num_attention_heads) are not a multiple of {kv} "
                          "key/value heads (num_key_value_heads)")
    hd = h // heads
    sub.mark("head_dim")  # derived: hidden // heads
    n = sub.int("num_hidden_layers")
    inter = sub.int("intermediate_size", default=int(8 * h / 3))
    _add(extra, "attention", n * _blt_attention(h, heads, kv, hd))
    _add(extra, "mlp", n * 3 * h * inter)
    _add(extra, "norms", n * 2 * h)
    return h, heads, kv, hd


def _blt_attention(h: int, heads: int, kv: int, hd: int) -> int:
    """Bias-free q/k/v/o of BltSelfAttention / BltCrossAttention (parameters)."""
    return h * (heads + 2 * kv) * hd + heads * hd * h


def _add(extra: dict[str, int], component: str, n: int) -> None:
    extra[component] = extra.get(component, 0) + n


def blt_finish(r: Reader, layers: list[LayerSpec], d: dict[str, Any]) -> tuple[list[LayerSpec], dict[str, int]]:
    """The Byte Latent Transformer (modeling_blt.py) around its local decoder (the main stack: it feeds lm_head,
    its norm is the final norm; its window is local_attention_window_len):

    * BltLocalDecoder: BltCrossAttention (bias-free q/k/v/o of its own heads, q_norm and k_norm over hidden) in
      every layer when cross_attn_all_layers, else in layer 0; patch_embedding_projection (hidden_size_global ->
      hidden * cross_attn_k, no bias; cross_attn_k is the top-level one);
    * BltLocalEncoder (encoder_config): its layers, embed_tokens (its vocab_size x hidden: the input table,
      returned as ``input_embedding``), patch_embedding_projection (hidden -> hidden * cross_attn_k),
      cross-attention layers as the decoder's (cross_attn_all_layers, default False);
    * BltGlobalTransformer (global_config): its layers (no final norm) and token_embedding_projection
      (encoder hidden * cross_attn_k -> hidden, no bias) when the two widths differ;
    * encoder_hash_tok_embedding: encoder_hash_byte_group_vocab * nb_functions * len(group sizes) rows of the
      encoder width;
    * BltPatcher (patcher_config, when patch_in_forward): its layers, embed_tokens, norm and lm_head.

    Raises:
        ConfigError: a sub-config missing or malformed."""
    h, heads, kv, hd = d["hidden"], d["heads"], d["kv"], d["head_dim"]
    k = check_int(r.raw_get("cross_attn_k", 2), "cross_attn_k", r.where)  # BltConfig's, shared by all stacks
    # the decoder has no token table (lm_head reads BltConfig.vocab_size) and rotary positions only
    r.mark("decoder_config.cross_attn_k", "decoder_config.vocab_size", "decoder_config.max_position_embeddings")
    cross = AttentionSpec(num_heads=heads, num_kv_heads=kv, head_dim=hd, v_head_dim=hd)
    all_dec = r.get("cross_attn_all_layers", True)
    out = []
    for lay in layers:
        if all_dec or lay.index == 0:
            lay = lay.model_copy(update={"cross_attention": cross,
                                         "extra_params": {**lay.extra_params,
                                                          "norms": lay.extra_params.get("norms", 0) + 2 * h}})
        out.append(lay)
    extra: dict[str, int] = {}
    _add(extra, "attention", r.int("hidden_size_global") * h * k)  # decoder patch_embedding_projection

    enc = _sub_reader(r, "encoder_config")
    he, e_heads, e_kv, e_hd = _blt_stack(enc, extra)
    n_cross = enc.int("num_hidden_layers") if enc.get("cross_attn_all_layers", False) else 1
    _add(extra, "attention", n_cross * _blt_attention(he, e_heads, e_kv, e_hd))
    _add(extra, "norms", n_cross * 2 * he)
    _add(extra, "attention", he * he * k)  # encoder patch_embedding_projection
    enc.mark("cross_attn_k", "hidden_size_global", "sliding_window", "max_position_embeddings")
    input_embedding = enc.int("vocab_size") * he
    sizes = r.get("encoder_hash_byte_group_size") or [3, 4, 5, 6, 7, 8]
    if not isinstance(sizes, (list, tuple)):
        raise ConfigError(f"{r.where}: encoder_hash_byte_group_size must be a list")
    _add(extra, "embedding", r.int("encoder_hash_byte_group_vocab", default=500002)
         * r.int("encoder_hash_byte_group_nb_functions", default=1) * len(sizes) * he)
    _record(r, enc, "encoder_config")

    glob = _sub_reader(r, "global_config")
    hg = _blt_stack(glob, extra)[0]
    if he * k != hg:  # BltConfig sets encoder_cross_output_size only when the widths differ
        _add(extra, "embedding", he * k * hg)
    glob.mark("encoder_cross_output_size", "max_position_embeddings")
    _record(r, glob, "global_config")

    if r.raw_get("patch_in_forward", True):
        pat = _sub_reader(r, "patcher_config")
        hp = _blt_stack(pat, extra)[0]
        _add(extra, "embedding", 2 * pat.int("vocab_size") * hp)  # embed_tokens, lm_head
        _add(extra, "norms", hp)
        pat.mark("sliding_window", "max_position_embeddings")
        _record(r, pat, "patcher_config")
    else:
        r.mark("patcher_config")
    r.mark("patch_size", "patching_mode", "patching_threshold", "patching_batch_size", "max_patch_length")
    extra["input_embedding"] = input_embedding
    return out, extra


def t5gemma2_encoder(raw: dict[str, Any], top: Any, d: dict[str, Any],
                     flags: dict[str, Any]) -> tuple[list[LayerSpec], dict[str, int], set[str], set[str]]:
    """T5Gemma2Encoder's text model (modeling_t5gemma2.py), read from ``encoder.text_config``: its
    T5Gemma2EncoderLayer blocks (bias-free q/k/v/o of head_dim per attention_bias, q_norm / k_norm over head_dim,
    a gated MLP, four RMSNorm weights; each layer's kind from layer_types, the window sliding_window); its token
    table is tied to the decoder's (T5Gemma2Model._tied_weights_keys), its eoi_embedding (hidden) too, counted
    once here; its final norm is counted by params (kind encoder-decoder). The vision tower and projector under
    ``encoder`` are read by the tower reader (``TOWER_HOLDERS``).

    Returns (encoder layers, model-level extra parameters, keys consumed of ``encoder``, keys consumed of
    ``encoder.text_config``).

    Raises:
        ConfigError: no encoder.text_config, a hidden size or vocabulary other than the decoder's (T5Gemma2Config
            refuses both), or a malformed dimension."""
    enc_raw = raw.get("encoder")
    if not isinstance(enc_raw, dict):
        enc_raw = {}
    enc_obj = getattr(top, "encoder", None) if top is not None else None
    text_raw = enc_raw.get("text_config")
    text_obj = getattr(enc_obj, "text_config", None) if enc_obj is not None else None
    if not isinstance(text_raw, dict) and text_obj is None:
        raise ConfigError("config.encoder: missing text_config (the encoder's text model)")
    r = Reader(text_raw if isinstance(text_raw, dict) else {}, text_obj, "config.encoder.text_config")
    h = r.int("hidden_size")
    if h != d["hidden"] or r.int("vocab_size") != d["vocab"]:
        raise ConfigError(f"config.encoder.text_config: hidden_size {h} and vocab_size must equal the decoder's "
                          f"({d['hidden']}, {d['vocab']}): T5Gemma2 supports no imbalanced encoder-decoder")
    n = r.int("num_layers")
    heads = r.int("num_heads")
    kv = r.int("num_kv_heads", default=heads)
    if heads % kv:
        raise ConfigError(f"{r.where}: {heads} attention heads are not a multiple of {kv} key/value heads")
    hd = r.int("head_dim", default=h // heads)
    inter = r.int("intermediate_size")
    bias = r.flag("attention_bias")
    types = r.get("layer_types") or ["full_attention"] * n
    if not isinstance(types, (list, tuple)) or len(types) != n:
        raise ConfigError(f"{r.where}: layer_types must be a list of {n} layer types")
    window = r.int("sliding_window", required=False)
    from .ffn import dense_mlp  # noqa: PLC0415  (the family's gated MLP)
    mlp = dense_mlp(r, flags, inter)
    layers = []
    for i, t in enumerate(types):
        sliding = t == "sliding_attention" and window is not None
        att = AttentionSpec(span="sliding" if sliding else "full", window=window if sliding else None,
                            num_heads=heads, num_kv_heads=kv, head_dim=hd, v_head_dim=hd, qkv_bias=bias, o_bias=bias,
                            qk_norm="head")
        layers.append(LayerSpec(index=i, mixer=att, ffn=mlp, num_norms=4))
    r.mark("max_position_embeddings", "query_pre_attn_scalar")  # rotary positions; a score scale
    return layers, {"embedding": h}, {"text_config", "vision_config"}, set(r.consumed)


#: top-level model_type -> the sub-config the language model (the generating stack) is read from
TEXT_KEYS = {"t5gemma2": "decoder"}
#: top-level model_type -> its encoder reader (T5Gemma2: the encoder is described by its own sub-config)
ENCODER_READERS = {"t5gemma2": t5gemma2_encoder}
#: top-level model_type -> the sub-config holding vision_config and the projector's keys
TOWER_HOLDERS = {"t5gemma2": "encoder"}


def _register_towers() -> None:
    """T5Gemma2MultiModalProjector is Gemma3's (mm_input_projection_weight vh x th, mm_soft_emb_norm)."""
    from .vision import TOWERS, tower  # noqa: PLC0415
    from .vision.towers import gemma3  # noqa: PLC0415
    if "t5gemma2" not in TOWERS:
        tower("t5gemma2")(gemma3)


_register_towers()
