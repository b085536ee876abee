"""Family hooks of the "hybrids round 2" group: blocks with two mixers, and blocks shared across layers.

* FalconH1 (transformers ``FalconH1DecoderLayer``): attention and a Mamba2 mixer run in parallel on the same
  normed input in every layer; the layer's mixer is the attention, its ``side_mixer`` the Mamba2 (its state:
  ``FalconHybridMambaAttentionDynamicCache`` conv_states (batch, conv_dim, d_conv) and ssm_states (batch,
  mamba_n_heads, mamba_d_head, mamba_d_state), the Mamba2Spec state).
* Zamba (``ZambaModel``): every layer a Mamba (ZambaMambaMixer: Mamba1 with n_mamba_heads splitting d_inner,
  the same element counts); the "hybrid" layers also run ONE shared attention block (``shared_transf``:
  attention over concat(hidden, embeddings) = attention_hidden_size, MLP, two norms) followed by a per-layer
  ``linear`` (hidden x hidden). The shared block's weights count once (a negative model-level correction of the
  copies); its compute and KV cache (``ZambaHybridDynamicCache`` key/value per hybrid layer) count per layer.
"""

from __future__ import annotations

from typing import Any

from ..reader import Reader
from ..specs import AttentionSpec, DenseMLP, LayerSpec, Mamba1Spec, Mamba2Spec, MLSTMSpec


def falcon_h1_finish(r: Reader, layers: list[LayerSpec], dims: dict[str, Any]
                     ) -> tuple[list[LayerSpec], dict[str, int]]:
    """Every FalconH1 layer: attention (mixer) beside Mamba2 (side_mixer); the Mamba2's gated RMSNorm exists only
    with mamba_rms_norm, its out_proj bias is projectors_bias; the muP multipliers and the chunk size shape
    nothing."""
    bias = bool(r.get("attention_bias", False))
    gated_norm = bool(r.get("mamba_rms_norm", False))
    out_bias = bool(r.get("projectors_bias", False))
    r.mark("mamba_chunk_size", "mamba_norm_before_gate")
    out = []
    for lay in layers:
        m = lay.mixer
        if isinstance(m, Mamba2Spec):
            att = AttentionSpec(num_heads=dims["heads"], num_kv_heads=dims["kv"], head_dim=dims["head_dim"],
                                v_head_dim=dims["head_dim"], qkv_bias=bias, o_bias=bias)
            side = m.model_copy(update={"gated_norm": gated_norm, "out_bias": out_bias})
            lay = lay.model_copy(update={"mixer": att, "side_mixer": side})
        out.append(lay)
    return out, {}


def _attention_params_in(att: AttentionSpec, width_in: int, hidden: int) -> int:
    """q/k/v from ``width_in`` features, o back to ``hidden`` (no biases)."""
    return width_in * (att.num_heads + 2 * att.num_kv_heads) * att.head_dim + att.num_heads * att.head_dim * hidden


def zamba_finish(r: Reader, layers: list[LayerSpec], dims: dict[str, Any]) -> tuple[list[LayerSpec], dict[str, int]]:
    """Zamba: Mamba1 layers (one input_layernorm); hybrid layers add the shared attention block and their own
    linear. Layer kinds come from layers_block_type ("mamba" / "hybrid"), both read as the Mamba mixer."""
    from ...params import attention_params, mlp_params
    hidden = dims["hidden"]
    kinds = list(getattr(r.cfg, "layers_block_type", None) or r.raw.get("layers_block_type") or [])
    attn_in = r.int("attention_hidden_size", default=2 * hidden)
    head_dim = r.int("head_dim", default=attn_in // dims["heads"])  # attention_head_dim
    r.mark("n_mamba_heads", "hidden_mamba_act", "use_mamba_kernels")  # heads split d_inner: same element counts
    att = AttentionSpec(num_heads=dims["heads"], num_kv_heads=dims["kv"], head_dim=head_dim, v_head_dim=head_dim)
    mlp = DenseMLP(intermediate=r.int("intermediate_size"), gated=True, activation=str(r.get("hidden_act") or "gelu"))
    out, hybrids = [], 0
    for lay in layers:
        m = lay.mixer
        if lay.index < len(kinds) and kinds[lay.index] == "hybrid" and isinstance(m, Mamba1Spec):
            hybrids += 1
            lay = lay.model_copy(update={"mixer": att, "side_mixer": m, "ffn": mlp,
                                         "extra_params": {**lay.extra_params, "attention": hidden * hidden}})
        out.append(lay)
    extra: dict[str, int] = {}
    if hybrids:
        shared_att = _attention_params_in(att, attn_in, hidden)
        # the per-layer specs count hybrids copies of attention (from hidden) and of the MLP: keep one, from attn_in
        extra["attention"] = shared_att - hybrids * attention_params(att, hidden)
        extra["mlp"] = -(hybrids - 1) * mlp_params(mlp, hidden)
        extra["norms"] = attn_in + hidden  # shared_transf input_layernorm (attention_hidden_size), pre_ff_layernorm
    return out, extra


def zamba2_finish(r: Reader, layers: list[LayerSpec], dims: dict[str, Any]
                  ) -> tuple[list[LayerSpec], dict[str, int]]:
    """Zamba2 (``Zamba2Model.get_layers``): Mamba2 layers (conv1d always with bias, in/out_proj bias
    add_bias_linear, one input_layernorm); each "hybrid" layer also runs one of ``num_mem_blocks`` shared blocks
    (cycled in hybrid-layer order) and its own ``linear`` (hidden x hidden). A shared block: attention over
    attention_hidden_size (2 * hidden), gate_up_proj / down_proj MLP (bias add_bias_linear), two norms, and per
    hybrid layer it serves (``i % num_mem_blocks == block_id``) a LoRA adapter of adapter_rank on gate_up_proj and,
    with use_shared_attention_adapter, on q / k / v. Weights count once per realized block; compute and KV cache
    (``Zamba2HybridDynamicCache`` key/value per hybrid layer) per hybrid layer."""
    from ...params import attention_params, mlp_params
    hidden = dims["hidden"]
    kinds = list(getattr(r.cfg, "layers_block_type", None) or r.raw.get("layers_block_type") or [])
    attn_in = r.int("attention_hidden_size", default=2 * hidden)
    head_dim = r.int("head_dim", default=attn_in // dims["heads"])  # attention_head_dim
    bias = bool(r.get("add_bias_linear", False))
    blocks = r.int("num_mem_blocks", default=1)
    rank = r.int("adapter_rank", default=128)
    attn_adapter = bool(r.get("use_shared_attention_adapter", False))
    r.mark("kv_channels", "num_query_groups", "hybrid_layer_ids", "chunk_size", "use_conv_bias", "use_mem_rope",
           "use_long_context")  # derived from the keys above / run-time switches
    att = AttentionSpec(num_heads=dims["heads"], num_kv_heads=dims["kv"], head_dim=head_dim, v_head_dim=head_dim)
    width = r.int("intermediate_size")
    mlp = DenseMLP(intermediate=width, gated=True, bias=bias, activation=str(r.get("hidden_act") or "gelu"))
    out, hybrids = [], 0
    for lay in layers:
        m = lay.mixer
        if isinstance(m, Mamba2Spec):
            m = m.model_copy(update={"conv_bias": True, "proj_bias": bias})
            lay = lay.model_copy(update={"mixer": m})
        if lay.index < len(kinds) and kinds[lay.index] == "hybrid" and isinstance(m, Mamba2Spec):
            hybrids += 1
            lay = lay.model_copy(update={"mixer": att, "side_mixer": m, "ffn": mlp,
                                         "extra_params": {**lay.extra_params, "attention": hidden * hidden}})
        out.append(lay)
    extra: dict[str, int] = {}
    if hybrids:
        realized = min(blocks, hybrids)
        served = sum(1 for i in range(hybrids) if i % blocks < realized)  # adapters of the realized blocks
        shared_att = realized * _attention_params_in(att, attn_in, hidden)
        if attn_adapter:
            shared_att += served * 3 * 2 * attn_in * rank
        extra["attention"] = shared_att - hybrids * attention_params(att, hidden)
        extra["mlp"] = (realized - hybrids) * mlp_params(mlp, hidden) + served * (hidden * rank + rank * 2 * width)
        extra["norms"] = realized * (attn_in + hidden)  # input_layernorm (attention_hidden_size), pre_ff_layernorm
    return out, extra


def jetmoe_finish(r: Reader, layers: list[LayerSpec], dims: dict[str, Any]
                  ) -> tuple[list[LayerSpec], dict[str, int]]:
    """JetMoE (transformers ``JetMoeMoA`` / ``JetMoeMoE``): mixture-of-attention experts. Each of
    num_local_experts attention experts maps hidden -> num_key_value_heads * kv_channels queries (input_linear) and
    back (output_linear); a token uses num_experts_per_tok of them, so the attention spec (num_attention_heads =
    kv_heads * top_k, derived by JetMoeConfig) holds the active q / o; the weights of all experts count as routed
    experts. kv_proj (hidden -> 2 * kv_heads * kv_channels) is shared; the MoA and the MoE each have a router
    (experts x hidden, no bias) and an output bias of hidden."""
    hidden = dims["hidden"]
    out = []
    for lay in layers:
        m, f = lay.mixer, lay.ffn
        if isinstance(m, AttentionSpec) and f is not None and getattr(f, "num_experts", None):
            e, k = f.num_experts, f.top_k
            width = m.num_kv_heads * m.head_dim  # one attention expert's query width
            qo_active = 2 * hidden * m.num_heads * m.head_dim  # counted by the attention spec: top_k experts
            extra = dict(lay.extra_params)
            extra["attention"] = extra.get("attention", 0) - qo_active + hidden  # MoA output bias
            extra["router"] = extra.get("router", 0) + e * hidden  # the MoA router
            extra["routed_experts"] = extra.get("routed_experts", 0) + e * 2 * hidden * width
            extra["routed_active"] = extra.get("routed_active", 0) + k * 2 * hidden * width
            extra["mlp"] = extra.get("mlp", 0) + hidden  # the MoE output bias
            lay = lay.model_copy(update={"extra_params": extra})
        out.append(lay)
    return out, {}


def laguna_finish(r: Reader, layers: list[LayerSpec], dims: dict[str, Any]
                  ) -> tuple[list[LayerSpec], dict[str, int]]:
    """Laguna (transformers ``LagunaAttention``): each layer's query heads from num_attention_heads_per_layer;
    q_norm / k_norm of head_dim (family flag qk_norm); g_proj (hidden -> heads with gating true / "per-head",
    else heads * head_dim, no bias) gates the attention output. moe_apply_router_weight_on_input only moves the
    routing weight (LagunaConfig refuses true)."""
    hidden = dims["hidden"]
    per_layer = r.get("num_attention_heads_per_layer")
    gating = r.get("gating", True)
    per_head = gating is True or gating == "per-head"
    r.mark("moe_apply_router_weight_on_input")
    out = []
    for lay in layers:
        m = lay.mixer
        if isinstance(m, AttentionSpec):
            heads = m.num_heads
            if isinstance(per_layer, list) and lay.index < len(per_layer):
                heads = int(per_layer[lay.index])
                m = m.model_copy(update={"num_heads": heads})
            g = hidden * (heads if per_head else heads * m.head_dim)
            lay = lay.model_copy(update={"mixer": m, "extra_params": {
                **lay.extra_params, "attention": lay.extra_params.get("attention", 0) + g}})
        out.append(lay)
    return out, {}


def recurrent_gemma_finish(r: Reader, layers: list[LayerSpec], dims: dict[str, Any]
                           ) -> tuple[list[LayerSpec], dict[str, int]]:
    """RecurrentGemma (``RecurrentGemmaMlp``): gate / up / down of intermediate_size // 2, all with bias; the
    attention's o_proj always has a bias. logits_soft_cap and the init scales shape nothing."""
    r.mark("logits_soft_cap", "final_w_init_variance_scale", "w_init_variance_scale")
    out = []
    for lay in layers:
        f, m = lay.ffn, lay.mixer
        upd: dict[str, Any] = {}
        if isinstance(f, DenseMLP):
            upd["ffn"] = f.model_copy(update={"intermediate": f.intermediate // 2, "bias": True})
        if isinstance(m, AttentionSpec):
            upd["mixer"] = m.model_copy(update={"o_bias": True})
        out.append(lay.model_copy(update=upd) if upd else lay)
    return out, {}


def _round_up(x: float, multiple: int) -> int:
    """transformers' xLSTM ``round_up_to_next_multiple_of``: floor((x + m - 1) / m) * m, on a float x too"""
    return int(((x + multiple - 1) // multiple) * multiple)


def xlstm_finish(r: Reader, layers: list[LayerSpec], dims: dict[str, Any]) -> tuple[list[LayerSpec], dict[str, int]]:
    """xLSTM (``xLSTMBlock``): norm_mlstm, the mLSTM layer, norm_ffn, a gated FFN (proj_up_gate / proj_up hidden ->
    round_up(hidden * ffn_proj_factor, ffn_round_up_to_multiple_of), proj_down; bias use_bias); num_blocks blocks
    (family key_aliases). qk_dim / v_dim: hidden * qk_dim_factor / v_dim_factor rounded up to 64. The kernel and
    inference switches shape nothing."""
    hidden = dims["hidden"]
    bias = bool(r.get("use_bias", False))
    width = _round_up(hidden * float(r.get("ffn_proj_factor", 2.667)), r.int("ffn_round_up_to_multiple_of", default=64))
    r.mark("num_hidden_layers", "embedding_dim", "weight_mode", "chunk_size", "chunkwise_kernel", "sequence_kernel",
           "step_kernel", "mode", "autocast_kernel_dtype", "inference_state_dtype", "max_inference_chunksize",
           "return_last_states", "gate_soft_cap", "output_logit_soft_cap", "norm_eps", "eps",
           "norm_reduction_force_float32")
    mlp = DenseMLP(intermediate=width, gated=True, bias=bias)
    out = [lay.model_copy(update={"ffn": mlp}) if isinstance(lay.mixer, MLSTMSpec) else lay for lay in layers]
    # xLSTMBlock's norm_mlstm and norm_ffn (xLSTMRMSNorm(use_bias)) take a bias with use_bias
    blocks = sum(isinstance(lay.mixer, MLSTMSpec) for lay in out)
    return out, ({"norms": 2 * hidden * blocks} if bias else {})
