"""Family hooks of group g6: blocks reused across cycles or loops, and text layers with adapters into a non-text tower.

* HRM-Text (transformers ``modeling_hrm_text.py``): two stacks of ``num_layers_per_stack`` blocks (``L_module``,
  ``H_module``); each of ``H_cycles`` high-level cycles runs the L stack ``L_cycles`` times, then the H stack once,
  every invocation with its own KV-cache slot (``cycle_offset``). The layer list is the invocations (compute and KV
  cache per invocation); the stored blocks count once (a negative model-level correction of the repeats).
* Dory (``modeling_dory.py``): ``n_input_layers`` blocks, ``n_recurrent_layers`` blocks run ``n_recurrent_loops``
  times, ``n_output_layers`` blocks; nGPT-style per-block scales. The layer list is again the invocations, the
  repeats corrected away; ``recurrent_kv_cache_mode: last_loop`` keeps one KV cache per recurrent block (the earlier
  loops' invocations read it: marked ``kv_shared``, their k/v GEMMs are then not listed).
* Evolla (``modeling_evolla.py``): a Llama decoder whose every (n // aligner_num_add_layers)-th layer has an
  ``adapter`` (EvollaSequenceAlignerCrossAttention into the protein tokens); the protein encoder (SaProt) and its
  sequence-compressor resampler are the non-text tower (``params.vision``).
* IDEFICS (``modeling_idefics.py``): a Llama-style decoder plus ``num_hidden_layers // cross_layer_interval`` gated
  cross-attention layers (run before every cross_layer_interval-th decoder layer), decoupled embedding / lm_head
  rows (``additional_vocab_size``); the vision tower (``vision.py``) and the perceiver resampler (``perceiver.py``)
  are ``params.vision``.
"""

from __future__ import annotations

from typing import Any

from ...errors import ConfigError
from ..reader import LIMITS, Reader, check_int
from ..specs import AttentionSpec, DenseMLP, LayerSpec, VisionTower


def _copies_correction(layers: list[LayerSpec], repeats: list[int], hidden: int, norm_kind: str = "rms"
                       ) -> dict[str, int]:
    """Minus the parameters of the layers at ``repeats`` (invocations of a block already counted), by component."""
    from ...params import layer_params
    norm_w = hidden * (2 if norm_kind == "layernorm" else 1)
    out: dict[str, int] = {}
    for i in repeats:
        for k, v in layer_params(layers[i], hidden, norm_w).items():
            if k != "routed_active" and v:
                out[k] = out.get(k, 0) - v
    return out


def _count(r: Reader, key: str, default: int | None = None) -> int:
    """A positive count read through the reader (``default`` when absent)."""
    val = r.int(key, default=default, required=default is None)
    assert val is not None
    return val


def hrm_text_finish(r: Reader, layers: list[LayerSpec], dims: dict[str, Any]
                    ) -> tuple[list[LayerSpec], dict[str, int]]:
    """HRM-Text: ``num_layers_per_stack * H_cycles * (L_cycles + 1)`` block invocations of two stored stacks.

    modeling_hrm_text.py: HrmTextStack holds num_layers_per_stack HrmTextDecoderLayers and a weightless final_norm;
    HrmTextModel.forward loops H_cycles x (L_cycles x L_module, then H_module); z_L_init (hidden) is a parameter.
    HrmTextConfig.__post_init__ keeps the real per-stack depth in num_layers_per_stack and rewrites
    num_hidden_layers to the invocation count (the KV-cache slots); a raw config without num_layers_per_stack
    gives the per-stack depth as num_hidden_layers. L_bp_cycles routes gradients only.

    Raises:
        ConfigError: a cycle count or the per-stack depth is missing, malformed or absurd, or a config with both
            depths whose num_hidden_layers is not the invocation count.
    """
    per_stack = r.int("num_layers_per_stack", required=False)
    if per_stack is None:
        per_stack = _count(r, "num_layers")
    else:
        r.mark("num_hidden_layers")  # the derived invocation count (cache slots); the forward loop decides it
    h_cycles, l_cycles = _count(r, "H_cycles", 2), _count(r, "L_cycles", 3)
    r.mark("L_bp_cycles", "embedding_scale", "prefix_lm")
    n = check_int(per_stack * h_cycles * (l_cycles + 1), "num_layers_per_stack * H_cycles * (L_cycles + 1)",
                  r.where, limit=LIMITS["num_layers"])
    total = r.get("num_hidden_layers") if r.get("num_layers_per_stack") is not None else None
    if total is not None and total != n:  # DynamicCache(config) allocates num_hidden_layers slots, the loop writes n
        raise ConfigError(f"{r.where}: num_hidden_layers {total!r} is not num_layers_per_stack * H_cycles * "
                          f"(L_cycles + 1) = {per_stack} * {h_cycles} * {l_cycles + 1} = {n} (the cache slots the "
                          "forward loop writes)")
    template = layers[0]
    out, repeats = [], []
    for i in range(n):
        cycle, slot = divmod(i, per_stack)
        out.append(template.model_copy(update={"index": i}))
        # cycle c of a high-level cycle: 0..L_cycles-1 are the L stack, L_cycles the H stack; the first invocation
        # of each stored block (the first L cycle, the first H cycle) holds its weights
        if not (cycle == 0 or cycle == l_cycles):
            repeats.append(i)
    extra = _copies_correction(out, repeats, dims["hidden"])
    extra["recurrent"] = extra.get("recurrent", 0) + dims["hidden"]  # z_L_init: the L state's initial value
    return out, extra


def dory_finish(r: Reader, layers: list[LayerSpec], dims: dict[str, Any]) -> tuple[list[LayerSpec], dict[str, int]]:
    """Dory: the input blocks, the recurrent blocks n_recurrent_loops times, the output blocks.

    modeling_dory.py: DoryAttention's gate_proj (hidden -> heads*head_dim) has no bias whatever attention_bias
    says (the output gate of the spec follows qkv_bias: corrected here); DoryConfig.__post_init__ halves the
    released attention/mlp block lists (layer_types with "mlp", num_hidden_layers, n_*_layers) into layers.

    Raises:
        ConfigError: the sections do not add up to the depth, or a count is malformed.
    """
    n = len(layers)
    n_in, n_out = _count(r, "n_input_layers", 8), _count(r, "n_output_layers", 8)
    n_rec = r.int("n_recurrent_layers", required=False, minimum=0)
    if n_rec is None:
        n_rec = n - n_in - n_out
    if n_in + n_rec + n_out != n or n_rec < 0:
        raise ConfigError(f"{r.where}: n_input_layers + n_recurrent_layers + n_output_layers must equal the "
                          f"{n} layers")
    loops = _count(r, "n_recurrent_loops", 2)
    mode = r.get("recurrent_kv_cache_mode", "per_loop")
    if mode not in ("per_loop", "last_loop"):
        raise ConfigError(f"{r.where}: recurrent_kv_cache_mode must be per_loop or last_loop, got {mode!r}"[:200])
    r.mark("ngpt_alpha_init")
    extra: dict[str, int] = {}
    for lay in layers:
        m = lay.mixer
        if isinstance(m, AttentionSpec) and m.output_gate and m.qkv_bias:
            extra["attention"] = extra.get("attention", 0) - m.num_heads * m.head_dim  # gate_proj: bias=False
    order = list(range(n_in)) + [n_in + j for _ in range(loops) for j in range(n_rec)] \
        + list(range(n_in + n_rec, n))
    check_int(len(order), "n_input_layers + n_recurrent_loops * n_recurrent_layers + n_output_layers", r.where,
              limit=LIMITS["num_layers"])
    out = [layers[src].model_copy(update={"index": i}) for i, src in enumerate(order)]
    earlier = list(range(n_in, n_in + (loops - 1) * n_rec))  # the recurrent invocations before the last loop
    if mode == "last_loop":
        # the earlier loops read the recurrent blocks' single cache (shared_kv_states): no cache of their own; the
        # last loop's invocations hold the stored weights
        for i in earlier:
            m = out[i].mixer
            if isinstance(m, AttentionSpec):
                out[i] = out[i].model_copy(update={"mixer": m.model_copy(update={"kv_shared": True})})
        repeats = earlier
    else:  # per_loop: one cache per loop; the first loop's invocations hold the stored weights
        repeats = list(range(n_in + n_rec, n_in + loops * n_rec))
    for k, v in _copies_correction(out, repeats, dims["hidden"]).items():
        extra[k] = extra.get(k, 0) + v
    return out, extra


def _adapter_layers(n: int, every: int) -> list[int]:
    """Indices of the layers with an adapter: (layer_idx + 1) % max(n // every, 1) == 0 (EvollaDecoderLayer)."""
    step = max(n // every, 1)
    return [i for i in range(n) if (i + 1) % step == 0]


def evolla_finish(r: Reader, layers: list[LayerSpec], dims: dict[str, Any]) -> tuple[list[LayerSpec], dict[str, int]]:
    """Evolla: the adapter (EvollaSequenceAlignerCrossAttention) of every (n // aligner_num_add_layers)-th layer.

    modeling_evolla.py: query, key_protein, value_protein (hidden -> heads * (hidden // heads), with bias; the
    protein states enter at the text width: protein_encoder_dim = hidden), attention_norm (RMSNorm, hidden),
    out_proj (bias: aligner_enable_bias), ff (LayerNorm, fc1 hidden -> int(hidden * aligner_ffn_mult), fc2, no
    biases), gate_attention and gate_ffw (one value each). No structure or MSA encoder is built.
    """
    h, heads = dims["hidden"], dims["heads"]
    every = _count(r, "aligner_num_add_layers", 8)
    bias = bool(r.get("aligner_enable_bias", True))
    mult = r.get("aligner_ffn_mult", 4)
    if isinstance(mult, bool) or not isinstance(mult, (int, float)) or not 0 < mult <= 64:
        raise ConfigError(f"{r.where}: aligner_ffn_mult must be a positive number, got {mult!r}"[:200])
    r.mark("aligner_attention_probs_dropout_prob")
    inner = heads * (h // heads)
    ff = int(h * mult)
    att = 3 * (h * inner + inner) + inner * h + (h if bias else 0)
    out = list(layers)
    for i in _adapter_layers(len(layers), every):
        lay = out[i]
        ex = dict(lay.extra_params)
        ex["attention"] = ex.get("attention", 0) + att + 2  # + gate_attention, gate_ffw
        ex["mlp"] = ex.get("mlp", 0) + 2 * h * ff
        ex["norms"] = ex.get("norms", 0) + h + 2 * h  # attention_norm (RMS), ff.norm (LayerNorm)
        out[i] = lay.model_copy(update={"extra_params": ex})
    return out, {}


def idefics_finish(r: Reader, layers: list[LayerSpec], dims: dict[str, Any]
                   ) -> tuple[list[LayerSpec], dict[str, int]]:
    """IDEFICS: the gated cross-attention layers and the decoupled embedding / lm_head rows.

    modeling_idefics.py: IdeficsGatedCrossAttentionLayer (num_hidden_layers // cross_layer_interval of them, the
    k-th run before decoder layer k * cross_layer_interval): cross_attn (IdeficsAttention, is_cross_attention: q/o
    hidden x hidden, k/v from vision_config.embed_dim, no biases; q/k RMSNorm(head_dim) when qk_layer_norms), a
    gated MLP of intermediate_size, two RMSNorms, alpha_cross_attn and alpha_dense (1 each for alpha_type float,
    hidden each for vector). The decoder's self-attention never has q/k norms. IdeficsDecoupledEmbedding adds
    additional_vocab_size rows, IdeficsDecoupledLinear an additional_fc (hidden -> additional_vocab_size, no bias;
    tied to them when the embeddings are tied).

    Raises:
        ConfigError: a malformed interval, vocabulary size or alpha_type.
    """
    h, heads, hd = dims["hidden"], dims["heads"], dims["head_dim"]
    n = len(layers)
    interval = _count(r, "cross_layer_interval", 1)
    vision = r.raw.get("vision_config") if isinstance(r.raw.get("vision_config"), dict) else {}
    vobj = getattr(r.cfg, "vision_config", None) if r.cfg is not None else None
    kv_in = vision.get("embed_dim", getattr(vobj, "embed_dim", None))
    kv_in = h if kv_in is None else check_int(kv_in, "vision_config.embed_dim", r.where, limit=LIMITS["hidden_size"])
    qk = bool(r.get("qk_layer_norms", False))
    alpha_type = r.get("alpha_type", "float")
    if alpha_type not in ("float", "vector"):
        raise ConfigError(f"{r.where}: alpha_type must be float or vector, got {alpha_type!r}"[:200])
    r.mark("alpha_initializer", "alphas_initializer_range", "freeze_text_layers", "freeze_text_module_exceptions",
           "freeze_vision_layers", "freeze_vision_module_exceptions", "freeze_lm_head")
    cross = AttentionSpec(num_heads=heads, num_kv_heads=heads, head_dim=hd, v_head_dim=hd,
                          qk_norm="head" if qk else "none")
    inter = _count(r, "intermediate_size")
    alphas = 2 * (h if alpha_type == "vector" else 1)
    out = []
    for lay in layers:
        k = lay.index
        if k % interval == 0 and k // interval < n // interval:
            ex = dict(lay.extra_params)
            ex["attention"] = ex.get("attention", 0) + 2 * (kv_in - h) * heads * hd + alphas  # k/v from the tower
            ex["mlp"] = ex.get("mlp", 0) + 3 * h * inter  # the gated layer's IdeficsMLP (gate/up/down, no bias)
            ex["norms"] = ex.get("norms", 0) + 2 * h
            lay = lay.model_copy(update={"cross_attention": cross, "extra_params": ex})
        out.append(lay)
    add = r.int("additional_vocab_size", default=0, minimum=0) or 0
    extra: dict[str, int] = {}
    if add:
        extra["embedding"] = add * h
        tied = r.get("tie_word_embeddings")
        if not tied:
            extra["lm_head"] = add * h
    return out, extra


# --- the non-text towers: IDEFICS' vision model and perceiver resampler, Evolla's protein encoder ----------------

def _sub(tr: Reader, key: str, where: str, consumed: set[str]) -> Reader:
    """A reader over the nested sub-config ``key`` of the top-level config (raw dict and config object)."""
    raw = tr.raw.get(key) if isinstance(tr.raw.get(key), dict) else {}
    obj = getattr(tr.cfg, key, None) if tr.cfg is not None else None
    tr.mark(key)
    return Reader(raw, obj if obj is not None and not isinstance(obj, dict) else None, where, consumed)


def _idefics_tower(ctx: Any) -> VisionTower | None:
    """IdeficsVisionTransformer (vision.py: CLIP's layout, embed_dim wide: class embedding, bias-free patch conv,
    (image/patch)^2 + 1 positions, pre_layrnorm, post_layernorm) and, when use_resampler, IdeficsPerceiverResampler
    (perceiver.py: latents, resampler_depth blocks of IdeficsPerceiverAttention (context and latents LayerNorms,
    q/k/v/output_proj without bias at resampler_n_heads x resampler_head_dim, q/k LayerNorms of head_dim when
    qk_layer_norms_perceiver) and IdeficsMLP (LayerNorm, fc embed_dim -> 4 embed_dim, c_proj, no bias), a final
    LayerNorm). Nothing projects into the text width: the gated cross-attention layers take embed_dim keys."""
    from .vision.encoders import read_encoder
    from .vision.towers import _tower
    parts = read_encoder(ctx.vr, IDEFICS_VISION)
    ctx.vr.mark("layer_norm_eps")
    extra: dict[str, int] = {}
    if ctx.tr.get("use_resampler"):
        pr = _sub(ctx.tr, "perceiver_config", "config.perceiver_config", set())
        e = parts.hidden
        depth = _count(pr, "resampler_depth", 6)
        nh, hd = _count(pr, "resampler_n_heads", 16), _count(pr, "resampler_head_dim", 96)
        lat = _count(pr, "resampler_n_latents", 64)
        qk = bool(pr.get("qk_layer_norms_perceiver", False))
        pr.mark("use_resampler")  # IdeficsConfig.use_resampler decides, not the perceiver config's copy
        att = 4 * e + 3 * e * nh * hd + nh * hd * e + (4 * hd if qk else 0)
        mlp = 2 * e + 2 * e * 4 * e
        extra["resampler"] = lat * e + depth * (att + mlp) + 2 * e
    else:
        ctx.tr.mark("perceiver_config")  # no resampler is built
    return _tower(parts, "idefics:" + IDEFICS_VISION.name, **extra)


def _evolla_tower(ctx: Any) -> VisionTower | None:
    """EvollaProteinEncoder (modeling_evolla.py): the SaProt protein language model (EvollaSaProtProteinEncoder:
    word embeddings, an embedding LayerNorm when emb_layer_norm_before, a position table only for absolute
    positions, pre-LN BERT blocks with biased query/key/value/dense and intermediate/output, emb_layer_norm_after;
    no pooler) and EvollaSequenceCompressorResampler (latents, resampler_depth blocks of attention (two LayerNorms,
    to_q, to_kv, to_out without bias, resampler_heads x resampler_dim_head) and feed-forward (LayerNorm, fc1 ->
    int(width * resampler_ff_mult), fc2, no bias), LayerNorm over the text hidden size, protein_projector into
    it). Counted as params.vision (a non-text tower)."""
    tr = ctx.tr
    pr = _sub(tr, "protein_encoder_config", "config.protein_encoder_config", set())
    h = _count(pr, "hidden_size")
    heads = _count(pr, "num_attention_heads")
    if h % heads:
        raise ConfigError(f"{pr.where}: hidden_size {h} is not divisible by {heads} attention heads")
    inter, depth, vocab = _count(pr, "intermediate_size"), _count(pr, "num_hidden_layers"), _count(pr, "vocab_size")
    pos_type = pr.get("position_embedding_type", "absolute")
    pr.mark("layer_norm_eps", "token_dropout", "mask_token_id", "rope_theta", "is_decoder", "add_cross_attention")
    att = AttentionSpec(num_heads=heads, num_kv_heads=heads, head_dim=h // heads, v_head_dim=h // heads,
                        qkv_bias=True, o_bias=True)
    mlp = DenseMLP(intermediate=inter, gated=False, bias=True, activation="gelu")
    layers = [LayerSpec(index=i, mixer=att, ffn=mlp, num_norms=2) for i in range(depth)]
    extra = {"patch_embed": vocab * h, "encoder_norms": 2 * h + (2 * h if pr.get("emb_layer_norm_before") else 0)}
    if pos_type == "absolute":
        extra["positions"] = _count(pr, "max_position_embeddings") * h
    else:
        pr.mark("max_position_embeddings")  # rotary positions: no table
    th = ctx.text_hidden
    n_lat = _count(tr, "resampler_num_latents", 64)
    rdepth, rheads, rdh = _count(tr, "resampler_depth", 6), _count(tr, "resampler_heads", 8), \
        _count(tr, "resampler_dim_head", 64)
    mult = tr.get("resampler_ff_mult", 4)
    if isinstance(mult, bool) or not isinstance(mult, (int, float)) or not 0 < mult <= 64:
        raise ConfigError(f"config: resampler_ff_mult must be a positive number, got {mult!r}"[:200])
    inner = rheads * rdh
    block = (4 * h + h * inner + h * 2 * inner + inner * h) + (2 * h + 2 * h * int(h * mult))
    extra["resampler"] = n_lat * h + rdepth * block + 2 * th + h * th + th
    return VisionTower(family="evolla:saprot", hidden_size=h, num_layers=depth, layers=layers, norm="layernorm",
                       extra_params=extra)


def _register() -> None:
    """Register the IDEFICS vision encoder and tower, and Evolla's top-level protein tower."""
    from .vision import TOWERS, tower
    from .vision.audio import TOP_LEVEL_TOWERS
    from .vision.encoders import ENCODERS
    ENCODERS.setdefault("idefics_vision", IDEFICS_VISION)
    if "idefics" not in TOWERS:
        tower("idefics")(_idefics_tower)
    TOP_LEVEL_TOWERS.setdefault("evolla", _evolla_tower)


def _idefics_vision() -> Any:
    from .vision.encoders import Encoder, grid_cls
    # vision.py IdeficsVisionTransformer: CLIP's layout at embed_dim (IdeficsVisionConfig maps hidden_size to it)
    return Encoder("idefics_vision", "IdeficsVisionTransformer", width=("embed_dim", "hidden_size"),
                   positions=grid_cls, cls_token=True, patch_bias=False, pre_norm=True, post_norm=True)


IDEFICS_VISION = _idefics_vision()
_register()
