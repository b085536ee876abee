"""Family hooks of group g2 (Inkling / Inkling 2 / Inkling 2 Loop / ZAYA): attention blocks the generic specs
do not hold, and their vision / audio towers.

The configs call every layer ``hybrid`` (full attention) or ``hybrid_sliding`` (sliding-window attention); the
families map those names to softmax attention (flag ``layer_kind_aliases``) and the hooks here rebuild each layer:

* Inkling (``models/inkling/modeling_inkling.py``): attention with per-layer-kind heads (``swa_*`` on sliding
  layers), q/k RMSNorm(head_dim), an r_proj / relative-logit bank, depthwise short convolutions on k, v and after
  attention and MLP; dense MLPs or an MoE with stacked shared experts the router also scores.
* Inkling 2 (``models/inkling2/modeling_inkling2.py``): scaled-L2-clip q / relative states, gated output,
  sink_proj, static (sliding) or dynamic (full) short convolutions on k / v, block attention residuals; every
  layer an MoE without shared experts; the LM head has unpadded_vocab_size rows.
* Inkling 2 Loop (``models/inkling2_loop/modeling_inkling2_loop.py``): Inkling 2 whose layers
  loop_layer_index_start .. loop_layer_index_end run loop_num_passes times. The looped layers are stored once
  (their weights count once) and add four message gates each, plus the model's message_input queries.
* ZAYA (``models/zaya/modeling_zaya.py``): CCA attention (q / k convolutions, split v projections, a per-KV-head
  key temperature), residual scalings, an MLP router with a skip class, top-1 experts.
"""

from __future__ import annotations

from typing import Any

from ...errors import ConfigError
from ..reader import Reader
from ..specs import AttentionSpec, DenseMLP, LayerSpec, MoEMLP, VisionTower
from .vision import TowerContext, tower
from .vision.audio import AudioTower, audio_tower
from .vision.encoders import dim, linear, norm


def _attention(r: Reader, dims: dict[str, Any], sliding: bool, qk_norm: str = "none") -> AttentionSpec:
    """One Inkling* attention layer's q/k/v/o shape: ``swa_*`` heads on sliding layers (``InklingAttention``)."""
    if sliding:
        heads = r.int("swa_num_attention_heads")
        kv = r.int("swa_num_key_value_heads")
        head_dim = r.int("swa_head_dim")
    else:
        heads, kv, head_dim = dims["heads"], dims["kv"], dims["head_dim"]
    if heads % kv:
        raise ConfigError(f"{r.where}: {heads} attention heads are not a multiple of {kv} key/value heads")
    return AttentionSpec(span="sliding" if sliding else "full", window=r.int("sliding_window") if sliding else None,
                         num_heads=heads, num_kv_heads=kv, head_dim=head_dim, v_head_dim=head_dim, qk_norm=qk_norm)


def _conv_states(att: AttentionSpec, hidden: int, kernel: int) -> AttentionSpec:
    """``att`` with the per-sequence state of a layer's four short convolutions (Inkling / Inkling 2: k and v of
    kv_heads x head_dim channels, post-attention and post-MLP of hidden channels; each layer's cache holds their
    conv states, ``cache.update_conv_state``, number_of_conv_states = 4): kernel - 1 past columns of every channel
    at the model dtype, as the engines keep a short convolution's state (vLLM's ShortConv / Mamba layout; ZAYA's
    CCA state below). transformers' cache keeps conv_kernel_size columns (float32 for Inkling 2's k/v convs)."""
    channels = 2 * att.num_kv_heads * att.head_dim + 2 * hidden
    return att.model_copy(update={"side_state_elements": channels * (kernel - 1)})


def _kinds(r: Reader, n: int) -> list[str]:
    kinds = list(getattr(r.cfg, "layer_types", None) or r.raw.get("layer_types") or [])
    if len(kinds) != n:
        raise ConfigError(f"{r.where}: layer_types must list {n} layers")
    return kinds


def _add(extra: dict[str, int], **parts: int) -> dict[str, int]:
    out = dict(extra)
    for k, v in parts.items():
        out[k] = out.get(k, 0) + v
    return out


def inkling_finish(r: Reader, layers: list[LayerSpec], dims: dict[str, Any]
                   ) -> tuple[list[LayerSpec], dict[str, int]]:
    """Inkling (``InklingDecoderLayer``): attention (q/k/v/o without bias, q_norm / k_norm of head_dim, r_proj
    hidden -> heads*d_rel, InklingRelativeLogits d_rel x rel_extent (sliding_window_size on sliding layers),
    k_sconv / v_sconv depthwise convs of kv_heads*head_dim x conv_kernel_size without bias), attn_sconv and
    mlp_sconv (hidden x conv_kernel_size), two norms; mlp_layer_types "sparse": InklingMoE (routed experts of
    moe_intermediate_size, n_shared_experts stacked shared experts, a router over routed + shared experts and a
    global_scale), else InklingMLP (intermediate_size, with a global_scale)."""
    h, n = dims["hidden"], len(layers)
    kinds = _kinds(r, n)
    mlp_types = list(getattr(r.cfg, "mlp_layer_types", None) or r.raw.get("mlp_layer_types") or ["sparse"] * n)
    r.mark("mlp_layer_types", "dense_mlp_idx", "dense_intermediate_size")  # derived by InklingTextConfig
    d_rel = r.int("d_rel")
    rel_extent = r.int("rel_extent")
    window = r.int("sliding_window")
    ks = r.int("conv_kernel_size")
    experts = r.int("num_experts")
    top_k = r.int("top_k")
    moe_i = r.int("expert_intermediate")
    shared = r.int("num_shared_experts", minimum=0)
    dense_i = r.int("intermediate_size") if "dense" in mlp_types else None
    if "dense" not in mlp_types:
        r.mark("intermediate_size")  # no dense layer: the width shapes nothing
    out = []
    for lay, kind in zip(layers, kinds):
        sliding = kind == "hybrid_sliding"
        att = _conv_states(_attention(r, dims, sliding, qk_norm="head"), h, ks)
        extra = _add(lay.extra_params, attention=h * att.num_heads * d_rel + 2 * att.num_kv_heads * att.head_dim * ks
                     + d_rel * (window if sliding else rel_extent) + h * ks, mlp=h * ks)
        if mlp_types[lay.index] == "sparse":
            ffn: Any = MoEMLP(num_experts=experts, top_k=top_k, expert_intermediate=moe_i,
                              shared=DenseMLP(intermediate=shared * moe_i) if shared else None)
            extra = _add(extra, router=shared * h + 1)  # the router scores the shared experts; global_scale
        else:
            ffn = DenseMLP(intermediate=dense_i)
            extra = _add(extra, mlp=1)  # InklingMLP.global_scale
        out.append(lay.model_copy(update={"mixer": att, "ffn": ffn, "num_norms": 2, "extra_params": extra}))
    return out, {}


def _inkling2_layer(r: Reader, lay: LayerSpec, kind: str, dims: dict[str, Any], p: dict[str, int]) -> LayerSpec:
    """One Inkling 2 decoder layer (``Inkling2SlidingDecoderLayer`` / ``Inkling2FullDecoderLayer``)."""
    h, ks, d_rel = dims["hidden"], p["ks"], p["d_rel"]
    sliding = kind == "hybrid_sliding"
    att = _conv_states(_attention(r, dims, sliding), h, ks)
    q, kv = att.num_heads * att.head_dim, att.num_kv_heads * att.head_dim
    attn = q  # Inkling2QueryProjection's (Log)ScaledL2Clip scale (heads x head_dim)
    attn += h * q  # Inkling2GatedOutputProjection.gate_proj
    attn += h * att.num_heads  # sink_proj
    attn += h * att.num_heads * d_rel + att.num_heads * d_rel + d_rel * (p["window"] if sliding else p["rel_extent"])
    if sliding:  # Inkling2ShortConvolution on k and v (depthwise, no bias)
        attn += 2 * kv * ks
    else:  # Inkling2DynamicShortConvolution: static_weight (ks x width) and weight_proj (hidden -> kv_heads * ks)
        attn += 2 * (ks * kv + h * att.num_kv_heads * ks)
    # Inkling2BlockAttentionResidual queries: attention_input (3 x hidden on full layers; none on layer 0), mlp_input
    residual = (0 if lay.index == 0 else (h if sliding else 3 * h)) + h
    extra = _add(lay.extra_params, attention=attn + h * ks, mlp=h * ks, norms=residual)
    ffn = MoEMLP(num_experts=p["experts"], top_k=p["top_k"], expert_intermediate=p["moe_i"])
    return lay.model_copy(update={"mixer": att, "ffn": ffn, "num_norms": 2 if sliding else 4, "extra_params": extra})


def inkling2_finish(r: Reader, layers: list[LayerSpec], dims: dict[str, Any]
                    ) -> tuple[list[LayerSpec], dict[str, int]]:
    """Inkling 2 (``Inkling2TextModel``, ``Inkling2ForCausalLM``): per layer q (hidden -> heads*head_dim and a
    heads x head_dim scale), k / v (hidden -> kv_heads*head_dim, static or dynamic short convolutions), gated o,
    sink_proj, Inkling2RelativePositionBias (linear, heads x d_rel scale, d_rel x rel_extent bank; the window on
    sliding layers), the block-attention-residual queries, post-attention and post-MLP convolutions, 2 norms
    (sliding) or 4 (q / k / v input norms on full layers), an MoE of n_routed_experts (router: experts x hidden).
    Model level: final_input (hidden); lm_head has unpadded_vocab_size rows (not vocab_size).
    For the loop variant (``Inkling2LoopTextModel``) layers in [loop_layer_index_start, loop_layer_index_end)
    add four Inkling2LoopMessageGate (down_proj 2*hidden -> loop_gate_rank, forget / message gates back to
    hidden) and the model the message_input queries ((end - start) x 4 x hidden); looping runs the same weights
    loop_num_passes times: the returned layers are the executed ones (:func:`_unrolled`), weights counted once."""
    h, n = dims["hidden"], len(layers)
    kinds = _kinds(r, n)
    p = {"ks": r.int("conv_kernel_size"), "d_rel": r.int("d_rel"), "rel_extent": r.int("rel_extent"),
         "window": r.int("sliding_window"), "experts": r.int("num_experts"), "top_k": r.int("top_k"),
         "moe_i": r.int("expert_intermediate")}
    out = [_inkling2_layer(r, lay, kind, dims, p) for lay, kind in zip(layers, kinds)]
    unpadded = r.int("unpadded_vocab_size", required=False)
    extra = {"norms": h, "lm_head": ((unpadded or dims["vocab"]) - dims["vocab"]) * h}
    if r.get("loop_num_passes") is not None:  # Inkling2LoopTextConfig
        start, end = r.int("loop_layer_index_start"), r.int("loop_layer_index_end")
        rank = r.int("loop_gate_rank")
        passes = r.int("loop_num_passes")  # passes rerun the stored layers: compute and cache, no parameters
        r.mark("loop_config")  # read by the config class into the four keys above
        if not 0 < start <= end <= n:
            raise ConfigError(f"{r.where}: loop layers {start}..{end} are outside the {n} layers")
        out = [lay.model_copy(update={"extra_params": _add(lay.extra_params, attention=4 * 4 * h * rank)})
               if start <= lay.index < end else lay for lay in out]
        extra["norms"] += (end - start) * 4 * h
        out = _unrolled(out, start, end, passes, h)
    return out, extra


def _unrolled(layers: list[LayerSpec], start: int, end: int, passes: int, hidden: int) -> list[LayerSpec]:
    """The layers in execution order with the loop unrolled: [0, end), then passes - 1 more runs of
    [start, end), then [end, n). A rerun is the stored layer's compute and its own KV / conv cache
    (``Inkling2LoopTextModel``: ``cache_offset`` gives each pass its cache layers) but no weights of its own: its
    extra_params cancel the layer's parameters component by component (as zamba's shared block counts once)."""
    from ...params import layer_params
    reruns = []
    for _ in range(passes - 1):
        for lay in layers[start:end]:
            own = layer_params(lay, hidden, hidden)  # RMSNorm weights: hidden each
            cancel = {k: lay.extra_params.get(k, 0) - own.get(k, 0) for k in set(own) | set(lay.extra_params)}
            reruns.append(lay.model_copy(update={"extra_params": {k: v for k, v in cancel.items() if v}}))
    ordered = layers[:end] + reruns + layers[end:]
    return [lay.model_copy(update={"index": i}) for i, lay in enumerate(ordered)]


def zaya_finish(r: Reader, layers: list[LayerSpec], dims: dict[str, Any]) -> tuple[list[LayerSpec], dict[str, int]]:
    """ZAYA (``ZayaDecoderLayer``): ZayaCCAProjection (q_proj, k_proj, v_proj_current and v_proj_delayed of
    kv_heads*head_dim // 2 each, all with attention_bias; conv_qk_depthwise (cca_time0 taps) and conv_qk_grouped
    (heads + kv_heads groups, cca_time1 taps) over the q and k channels, with bias), o_proj (attention_bias),
    ZayaQKNorm.temp (kv_heads); two norms and two ZayaResidualScaling (4 x hidden each); ZayaRouter (down_proj
    hidden -> router_hidden_size with bias, router_states_scale after layer 0, ZayaRouterMLP: norm, fc1 / fc2 with
    bias, out_proj to num_experts + 1 classes) and num_experts gated experts. Model level:
    input_hidden_states_scale / _bias (hidden each)."""
    h, n = dims["hidden"], len(layers)
    kinds = _kinds(r, n)
    bias = bool(r.get("attention_bias", False))
    t0, t1 = r.int("cca_time0"), r.int("cca_time1")
    rh = r.int("router_hidden_size")
    experts, top_k, moe_i = r.int("num_experts"), r.int("top_k"), r.int("expert_intermediate")
    heads, kv, hd = dims["heads"], dims["kv"], dims["head_dim"]
    window = r.int("sliding_window") if "hybrid_sliding" in kinds else None
    if "hybrid_sliding" not in kinds:
        r.mark("sliding_window")
    chans = (heads + kv) * hd
    v_half = kv * hd // 2
    v_fix = (2 * v_half - kv * hd) * (h + (1 if bias else 0))  # an odd width loses one channel to the halves
    attn = chans * t0 + chans + chans * hd * t1 + chans + kv + v_fix
    out = []
    for lay, kind in zip(layers, kinds):
        sliding = kind == "hybrid_sliding"
        # the cache's conv state: (t0 - 1) + (t1 - 1) past columns of the q and k channels
        # (ZayaCCAProjection.conv_kernel_size, cache.update_conv_state); the recurrent state: the last token's
        # v_proj_delayed output (kv_heads x head_dim // 2, cache.update_recurrent_state)
        side = chans * ((t0 - 1) + (t1 - 1)) + v_half
        att = AttentionSpec(span="sliding" if sliding else "full", window=window if sliding else None,
                            num_heads=heads, num_kv_heads=kv, head_dim=hd, v_head_dim=hd, qkv_bias=bias, o_bias=bias,
                            side_state_elements=side)
        router = (h * rh + rh + (rh if lay.index else 0) + rh + 2 * (rh * rh + rh) + rh * (experts + 1)
                  - experts * h)  # the MoEMLP spec counts an experts x hidden router: replaced
        ffn = MoEMLP(num_experts=experts, top_k=top_k, expert_intermediate=moe_i)
        extra = _add(lay.extra_params, attention=attn, router=router, norms=8 * h)
        out.append(lay.model_copy(update={"mixer": att, "ffn": ffn, "num_norms": 2, "extra_params": extra}))
    return out, {"norms": 2 * h}


# --- towers -----------------------------------------------------------------------------------------------------

def _prime_factors(number: int) -> list[int]:
    """modeling_inkling.py ``prime_factors``: ascending, with multiplicity."""
    factors = []
    while number % 2 == 0:
        factors.append(2)
        number //= 2
    p = 3
    while p * p <= number:
        while number % p == 0:
            factors.append(p)
            number //= p
        p += 2
    if number > 1:
        factors.append(number)
    return factors


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def inkling_scales(temporal: int, patch: int, n_layers: int, channels: int) -> list[tuple[int, int, int, int]]:
    """modeling_inkling.py ``plan_out_scales``: the (t, h, w, c) grid of each of the n_layers + 1 stages of the
    HMLP vision encoder. Candidates: the input (1, 1, 1, channels); spatial folds by the cumulative products of
    patch_size's prime factors (largest first), channels rounded up to 64; temporal folds (channels
    ceil(patch^2 * channels * t) * 64, as the code computes them). Each stage takes the candidate closest in log
    size to a linear ramp (float32, as torch): argmin per stage with at least as many stages as candidates, else
    the optimal one-to-one assignment (scipy linear_sum_assignment, as the modeling code); first and last stages
    fixed.

    Raises:
        ConfigError: a patch size without prime factors (1).
    """
    import numpy as np
    hs, acc = [], 1
    for f in _prime_factors(patch)[::-1]:
        acc *= f
        hs.append(acc)
    ts, acc = [], 1
    for f in _prime_factors(temporal)[::-1]:
        acc *= f
        ts.append(acc)
    if not hs:
        raise ConfigError(f"vision patch_size {patch} has no prime factors; the HMLP encoder needs one")
    scales = [(1, 1, 1, channels)] + [(1, x, x, _ceil_div(x * x * channels, 64) * 64) for x in hs] + \
             [(t, hs[-1], hs[-1], hs[-1] ** 2 * channels * t * 64) for t in ts]
    # float32 throughout, as torch computes it: which candidate is nearest can hang on the rounding (exact ties)
    f32 = np.float32
    logs = np.log(np.array([s[0] * s[1] * s[2] for s in scales], dtype=f32))
    end = np.log(f32(patch * patch * temporal * channels))
    steps = n_layers + 1
    step = (end - f32(0)) / f32(n_layers)
    # torch.linspace: start + step * i on the first half, end - step * (steps - 1 - i) on the second
    ideal = np.array([f32(0) + step * f32(i) if i < steps // 2 else end - step * f32(steps - 1 - i)
                      for i in range(steps)], dtype=f32)
    cost = np.abs(ideal[:, None] - logs[None, :])
    cols = len(scales)
    if n_layers >= cols:
        idxs = [int(k) for k in np.argmin(cost, axis=1)]
    else:
        from scipy.optimize import linear_sum_assignment
        idxs = [int(k) for k in linear_sum_assignment(cost)[1]]
    idxs[0], idxs[-1] = 0, cols - 1
    return [scales[k] for k in idxs]


@tower("inkling_mm_model")
def inkling_vision(ctx: TowerContext) -> VisionTower | None:
    """InklingVisionModel (modeling_inkling.py): an HMLP of n_layers InklingVisionEncoderLayer, each a folding
    projection (no bias) from stage to stage of :func:`inkling_scales` plus an RMSNorm of its output width; the
    last projects to the text hidden size without a norm; final_norm (text hidden)."""
    vr = ctx.vr
    n = dim(vr, ("n_layers", "num_hidden_layers"), limit="num_layers")
    scales = inkling_scales(dim(vr, "temporal_patch_size"), dim(vr, "patch_size"), n, dim(vr, "num_channels"))
    vr.mark("hidden_size", "num_attention_heads", "text_hidden_size")  # read by no module (text_hidden_size: the
    # text model's hidden size, copied by InklingConfig)
    th = ctx.text_hidden
    total = 0
    for i, (s, e) in enumerate(zip(scales[:-1], scales[1:])):
        fold = (e[0] // s[0]) * (e[1] // s[1]) * (e[2] // s[2])
        last = i == n - 1
        width = th if last else e[3]
        total += s[3] * fold * width + (0 if last else width)
    return VisionTower(family="inkling_vision", hidden_size=th, num_layers=n, layers=[], norm="rms",
                       extra_params={"vision_encoder": total + th})


@audio_tower("inkling_mm_model")
def inkling_audio(ctx: TowerContext) -> AudioTower | None:
    """InklingAudioModel: embed_audio_tokens (n_mel_bins * mel_vocab_size rows of the text hidden size) and an
    RMSNorm (text hidden)."""
    rows = dim(ctx.vr, "n_mel_bins") * dim(ctx.vr, "mel_vocab_size")
    ctx.vr.mark("text_hidden_size", "hidden_size")  # the text model's hidden size, copied by InklingConfig
    th = ctx.text_hidden
    return AudioTower("inkling_audio", th, {"audio_encoder": rows * th + th})


@tower("inkling2", "inkling2_loop")
def inkling2_vision(ctx: TowerContext) -> VisionTower | None:
    """Inkling2VisionModel: patch_embedding (channels * patch^2 -> hidden, no bias), position_embedding
    (posemb_grid_size^2 rows), class_embedding and cls_position_embedding, pre_layernorm; blocks of biased q / k /
    v / out_proj, fc1 / fc2 (intermediate_size, biased), two LayerNorms and lambda_1 / lambda_2 layer scales;
    Inkling2VisionMerger: linear_1 (merge^2 * hidden -> projection_hidden_dim) and linear_2 (-> text hidden),
    biases projector_bias."""
    vr = ctx.vr
    d = dim(vr, "hidden_size")
    n = dim(vr, "num_hidden_layers", limit="num_layers")
    f = dim(vr, "intermediate_size", limit="intermediate_size")
    p, c, grid = dim(vr, "patch_size"), dim(vr, "num_channels"), dim(vr, "posemb_grid_size")
    merge, proj = dim(vr, "spatial_merge_size"), dim(vr, "projection_hidden_dim")
    pbias = bool(vr.get("projector_bias", False))
    vr.mark("num_attention_heads", "mlp_ratio", "text_hidden_size", "layer_scale_init_value")  # heads split d;
    # mlp_ratio gave intermediate_size; text_hidden_size equals the text hidden size
    # (Inkling2Config.validate_architecture); layer_scale_init_value only initializes lambda_1 / lambda_2
    block = 4 * linear(d, d) + linear(d, f) + linear(f, d) + 2 * norm(d, "layernorm") + 2 * d
    stem = c * p * p * d + grid * grid * d + 2 * d + norm(d, "layernorm")
    merger = linear(merge * merge * d, proj, pbias) + linear(proj, ctx.text_hidden, pbias)
    return VisionTower(family="inkling2_vision", hidden_size=d, num_layers=n, layers=[], norm="layernorm",
                       extra_params={"vision_encoder": n * block + stem, "projector": merger})
