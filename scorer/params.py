"""Parameter counts from a :class:`~scorer.architecture.ModelArch`: total, active, by component.

Counts are element counts (parameters), independent of dtype. They follow the parameter layout
transformers instantiates; ``scripts/meta_oracle.py`` checks them against models built on torch's
meta device (numbers in ``tests/data/meta_oracle.json``).

Components: embedding (token, position and token-type tables), lm_head, attention (q/k/v/o,
MLA projections, q/k norms, sinks, cross-attention), mlp (dense MLPs), routed_experts,
shared_experts, router (router and shared-expert gate), norms, recurrent (Mamba2, gated
delta-net, NAS linear replacements), task_head (encoder pooler/classifier). The vision tower and
MTP layers are counted apart and are not part of ``total``.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

#: parameters (language model + towers + MTP) beyond which a config is refused as implausible (count_params)
PLAUSIBLE_MAX_PARAMS = 100e12

from .architecture import (AttentionSpec, CompressedAttentionSpec, DenseMLP, GatedDeltaNetSpec, LayerSpec,
                           LinearMixerSpec, Mamba1Spec, Mamba2Spec, MLASpec, ModelArch, MoEMLP, ShortConvSpec)

COMPONENTS = ("embedding", "lm_head", "attention", "mlp", "routed_experts", "shared_experts", "router", "norms",
              "recurrent", "task_head")


#: the config keys that size each component (named when the plausibility bound is exceeded)
_SUSPECTS = {
    "embedding": "vocab_size and hidden_size", "lm_head": "vocab_size and hidden_size",
    "attention": "hidden_size, num_attention_heads, num_key_value_heads, head_dim (or the MLA ranks) and "
                 "num_hidden_layers",
    "mlp": "intermediate_size, hidden_size and num_hidden_layers",
    "routed_experts": "the expert count (num_experts, num_local_experts, n_routed_experts), the expert width "
                      "(moe_intermediate_size, else intermediate_size) and num_hidden_layers",
    "shared_experts": "the shared-expert width (shared_expert_intermediate_size, n_shared_experts)",
    "router": "the expert count and hidden_size", "norms": "hidden_size and num_hidden_layers",
    "recurrent": "the state-space / recurrent dimensions (ssm_state_size, mamba_num_heads, expand) and "
                 "num_hidden_layers",
    "task_head": "num_labels and hidden_size", "vision": "vision_config", "mtp": "num_nextn_predict_layers",
}


class ParamCounts(BaseModel):
    total: int = Field(description="language-model parameters (vision tower and MTP layers excluded)")
    active: int = Field(description="parameters used per token: total minus the routed experts not chosen")
    by_component: dict[str, int]
    active_by_component: dict[str, int]
    vision: int | None = Field(None, description="vision tower parameters, reported apart")
    mtp: int | None = Field(None, description="multi-token-prediction layers as the checkpoint stores them (block, "
                                              "projections, norms, and the embedding / lm_head copies in mtp_copies)")
    mtp_copies: int | None = Field(None, description="parameters of params.mtp that copy the main model's embedding "
                                                     "and lm_head (MTPSpec.copies): engines may share them")
    embedding_fraction: float = Field(description="(embedding + lm_head) / total")


def attention_params(a: AttentionSpec | MLASpec | CompressedAttentionSpec, hidden: int) -> int:
    """Parameters of one attention block (projections, biases, q/k norms, sinks, relative bias)."""
    if isinstance(a, CompressedAttentionSpec):
        return compressed_attention_params(a, hidden)
    if isinstance(a, MLASpec):
        # DeepseekV3Attention (and its V2 / V3.2 / GLM / Mistral4 / LongCat copies): q_a_proj (bias: attention_bias),
        # q_a_layernorm, q_b_proj, or a plain q_proj without q_lora_rank (no bias); kv_a_proj_with_mqa (bias:
        # attention_bias), kv_a_layernorm, kv_b_proj (no bias); o_proj (bias: attention_bias)
        qk = a.qk_nope_head_dim + a.qk_rope_head_dim
        latent = a.kv_lora_rank + a.qk_rope_head_dim
        if a.q_lora_rank:
            q = hidden * a.q_lora_rank + a.q_lora_rank + a.q_lora_rank * a.num_heads * qk
            q += a.q_lora_rank if a.qkv_bias else 0
        else:
            q = hidden * a.num_heads * qk
        kv = a.kv_lora_rank * a.num_heads * (a.qk_nope_head_dim + a.v_head_dim)
        if not a.kv_shared:  # a KV-shared layer (Mistral Large 4) has no kv_a_proj_with_mqa / kv_a_layernorm
            kv += hidden * latent + a.kv_lora_rank + (latent if a.qkv_bias else 0)
        o = a.num_heads * a.v_head_dim * hidden + (hidden if a.o_bias else 0)
        o += 2 * a.num_heads if a.softmax_scaling else 0  # MistralLarge4TextSoftmaxScaling: scale, bias per head
        ix = 0
        if a.indexer is not None and not a.indexer.shared:
            # DeepseekV32Indexer: wq_b, wk, k_norm (LayerNorm: weight + bias), weights_proj; a GLM-5 "shared" layer
            # has none; MistralLarge4TextIndexer adds q_input_norm (LayerNorm over hidden) and a softmax scaling
            i = a.indexer
            ix = i.q_lora_rank * i.num_heads * i.head_dim + hidden * i.head_dim + 2 * i.head_dim + hidden * i.num_heads
            ix += 2 * hidden + 2 * i.num_heads if i.input_norm else 0
        return q + kv + o + ix
    q_out = a.num_heads * a.head_dim * (2 if a.output_gate else 1)
    k_out = 0 if a.kv_shared else a.num_kv_heads * a.head_dim  # a KV-shared layer has no k/v projections
    v_out = 0 if a.kv_shared or a.k_eq_v else a.num_kv_heads * a.v_head_dim
    n = hidden * (q_out + k_out + v_out)
    if a.qkv_bias:
        n += q_out + k_out + v_out
    if a.output_gate and a.gate_bias is not None and a.gate_bias != a.qkv_bias:  # a gate_proj of its own
        n += (1 if a.gate_bias else -1) * a.num_heads * a.head_dim
    n += a.num_heads * a.v_head_dim * hidden + (hidden if a.o_bias else 0)
    norm_mult = 2 if a.qk_norm_bias else 1
    if a.qk_norm == "head":
        n += (1 if a.kv_shared else 2) * a.head_dim * norm_mult
    elif a.qk_norm == "full":
        n += (a.num_heads + (0 if a.kv_shared else a.num_kv_heads)) * a.head_dim * norm_mult
    if a.sinks:
        n += a.num_heads
    n += a.relative_bias_buckets * a.num_heads
    return n


def compressed_attention_params(a: CompressedAttentionSpec, hidden: int) -> int:
    """DeepSeek-V4 attention of one layer, its compressor and indexer (layout in
    :mod:`scorer.architecture.kinds.deepseek`)."""
    d, h, ql = a.head_dim, hidden, a.q_lora_rank
    n = h * ql + ql + ql * a.num_heads * d  # q_a_proj, q_a_norm, q_b_proj
    n += h * d + d  # kv_proj, kv_norm
    n += a.num_heads * d * a.o_lora_rank + a.o_groups * a.o_lora_rank * h  # o_a_proj (grouped), o_b_proj
    n += a.num_heads  # sinks
    if a.compression == "hca":  # kv_proj, gate_proj (h -> D), position_bias (m' x D), kv_norm
        n += 2 * h * d + a.compress_rate * d + d
    elif a.compression == "csa":  # two overlapping series: h -> 2D, position_bias m x 2D, kv_norm D
        n += 2 * h * 2 * d + a.compress_rate * 2 * d + d
        ix = a.indexer
        if ix is not None:  # the indexer's own compressor at index_head_dim, q_b_proj, weights_proj
            di = ix.head_dim
            n += 2 * h * 2 * di + a.compress_rate * 2 * di + di + ql * ix.num_heads * di + h * ix.num_heads
    return n


def recurrent_params(m: Mamba2Spec | GatedDeltaNetSpec | ShortConvSpec | LinearMixerSpec, hidden: int) -> int:
    """Parameters of one recurrent / linear-attention / convolution mixer."""
    if hasattr(m, "param_count"):  # other kinds count their own (LightningAttentionSpec, ...)
        return m.param_count(hidden)
    if isinstance(m, LinearMixerSpec):
        return hidden * hidden
    if isinstance(m, ShortConvSpec):  # Lfm2ShortConv: in_proj (h -> 3c), depthwise conv (c x kernel), out_proj
        c = m.channels
        n = hidden * 3 * c + c * m.kernel + c * hidden
        if m.bias:
            n += 3 * c + c + hidden
        return n
    if isinstance(m, Mamba1Spec):  # MambaMixer: in_proj, conv1d, x_proj, dt_proj (bias), A_log, D, out_proj
        di, ds = m.d_inner, m.d_state
        n = hidden * 2 * di + di * m.conv_kernel + di * (m.dt_rank + 2 * ds) + m.dt_rank * di + di
        n += di * ds + di + di * hidden
        n += (2 * di + hidden if m.proj_bias else 0) + (di if m.conv_bias else 0)
        n += m.dt_rank + 2 * ds if m.inner_norms else 0  # JambaMambaMixer dt / b / c RMSNorm weights
        return n
    if isinstance(m, Mamba2Spec):
        n = hidden * m.in_proj_width + (m.in_proj_width if m.proj_bias else 0)
        n += m.conv_dim * m.conv_kernel + (m.conv_dim if m.conv_bias else 0)
        n += 3 * m.n_heads  # dt_bias, A_log, D
        n += m.d_inner if m.gated_norm else 0  # gated RMSNorm
        n += m.d_inner * hidden + (hidden if (m.proj_bias if m.out_bias is None else m.out_bias) else 0)
        return n
    n = hidden * (2 * m.key_dim + 2 * m.value_dim)  # in_proj_qkvz
    n += hidden * 2 * m.num_v_heads  # in_proj_ba
    n += m.conv_dim * m.conv_kernel  # depthwise conv, no bias
    n += 2 * m.num_v_heads  # dt_bias, A_log
    n += m.head_v_dim  # gated RMSNorm over a head
    n += m.value_dim * hidden  # out_proj
    return n


def mlp_params(m: DenseMLP, hidden: int) -> int:
    if m.replace_with_linear:
        return hidden * hidden
    branches = 3 if m.gated else 2
    n = branches * hidden * m.intermediate
    if m.bias:
        n += (2 if m.gated else 1) * m.intermediate + hidden
    return n


def moe_params(m: MoEMLP, hidden: int) -> dict[str, int]:
    """Routed experts (all / chosen), shared experts, router; a latent MoE's hidden<->latent projections
    (NemotronH fc1_latent_proj / fc2_latent_proj, always active) count under ``mlp``."""
    width = m.latent_size or hidden
    per_expert = (3 if m.gated else 2) * width * m.expert_intermediate
    if m.expert_bias:
        per_expert += (2 if m.gated else 1) * m.expert_intermediate + width
    slots = m.num_experts + m.zero_experts  # the router also scores LongCat's identity experts
    router = slots * hidden + (slots if m.router_bias else 0)
    if m.shared_gate:
        router += hidden
    latent = 0
    if m.latent_size:
        latent = 2 * hidden * m.latent_size + ((m.latent_size + hidden) if m.latent_bias else 0)
    return {
        "routed_experts": m.num_experts * per_expert,
        "routed_active": round(m.expected_top_k * per_expert),  # zero-compute experts: an average (MoEMLP)
        "shared_experts": mlp_params(m.shared, hidden) if m.shared else 0,
        "router": router,
        "mlp": latent,
    }


def layer_params(layer: LayerSpec, hidden: int, norm_width: int) -> dict[str, int]:
    """Parameters of one block by component, plus ``routed_active`` for the chosen experts."""
    out = dict.fromkeys(COMPONENTS, 0)
    out["routed_active"] = 0
    if isinstance(layer.mixer, (AttentionSpec, MLASpec, CompressedAttentionSpec)):
        out["attention"] += attention_params(layer.mixer, hidden)
    elif layer.mixer is not None:
        out["recurrent"] += recurrent_params(layer.mixer, hidden)
    if isinstance(layer.side_mixer, (AttentionSpec, MLASpec, CompressedAttentionSpec)):
        out["attention"] += attention_params(layer.side_mixer, hidden)
    elif layer.side_mixer is not None:
        out["recurrent"] += recurrent_params(layer.side_mixer, hidden)
    if layer.cross_attention is not None:
        out["attention"] += attention_params(layer.cross_attention, hidden)
    if isinstance(layer.ffn, DenseMLP):
        key = "recurrent" if layer.ffn.replace_with_linear else "mlp"
        out[key] += mlp_params(layer.ffn, hidden)
    elif isinstance(layer.ffn, MoEMLP):
        for k, v in moe_params(layer.ffn, hidden).items():
            out[k] += v
    out["norms"] += layer.num_norms * norm_width
    for k, v in layer.extra_params.items():
        out[k] += v
    return out


def _head_before_labels(th, h: int, norm: str) -> int:
    """Parameters of a task head before its num_labels linear: the pooler and a dense (h x h with a bias each),
    an intermediate / output block (h -> w -> h with biases, a LayerNorm; BigBird's QA head)."""
    w = th.block_width
    return (h * h + h) * (int(th.pooler) + int(th.dense)) + (
        2 * h * w + w + h + h * (2 if norm == "layernorm" else 1) if w else 0)


def count_params(arch: ModelArch) -> ParamCounts:
    """Total, active and per-component parameter counts of the language model."""
    h = arch.hidden_size
    norm_w = h * (2 if arch.norm == "layernorm" else 1)
    comp = dict.fromkeys(COMPONENTS, 0)
    routed_active = 0
    for layer in [*arch.encoder_layers, *arch.layers]:
        lp = layer_params(layer, h, norm_w)
        routed_active += lp.pop("routed_active")
        for k, v in lp.items():
            comp[k] += v
    e = arch.embedding_size or h  # factorized embeddings (ELECTRA): tables e wide, embeddings_project e -> h
    norm_e = e * (2 if arch.norm == "layernorm" else 1)
    comp["embedding"] = (arch.vocab_size + arch.learned_positions + arch.token_types) * e
    if arch.input_embedding is not None:  # a token table of its own shape (BLT's local encoder)
        comp["embedding"] = arch.input_embedding + (arch.learned_positions + arch.token_types) * e
    if e != h:
        comp["embedding"] += e * h + h
    if arch.embedding_norm:
        comp["norms"] += norm_e
    if arch.final_norm:
        comp["norms"] += norm_w * (2 if arch.kind == "encoder-decoder" else 1)
    if arch.kind == "encoder":
        th = arch.task_head
        if th is not None:
            comp["task_head"] += _head_before_labels(th, h, arch.norm)
            if th.num_labels:
                comp["task_head"] += h * th.num_labels + th.num_labels
            if th.mlm_head:  # transform (dense h -> e, LayerNorm e), bias; the decoder is the tied embedding
                w = th.head_width or e  # RemBERT: its own output_embedding_size, the decoder untied
                norm_hw = w * (2 if arch.norm == "layernorm" else 1)
                comp["task_head"] += (h * w + w + norm_hw if th.mlm_transform else 0) + arch.vocab_size
                if not arch.tie_word_embeddings:  # the decoder untied, and its bias from the head's (bias_pair)
                    comp["lm_head"] = arch.vocab_size * w + (arch.vocab_size if th.bias_pair else 0)
    elif arch.pooling_head is not None:  # a decoder (or encoder-decoder) with another head, no lm_head
        n = arch.pooling_head.num_labels
        comp["task_head"] = _head_before_labels(arch.pooling_head, h, arch.norm) + h * n + (
            n if arch.pooling_head.label_bias else 0)
    elif not arch.tie_word_embeddings:
        comp["lm_head"] = arch.head_vocab * h + (arch.head_vocab if arch.lm_head_bias else 0)
    elif arch.lm_head_bias:
        comp["lm_head"] = arch.head_vocab
    for k, v in arch.extra_params.items():
        if not (arch.pooling_head is not None and k == "lm_head"):  # a family's lm_head tensors (a bias) go with the head it replaces
            comp[k] += v
    total = sum(comp.values())
    active_comp = dict(comp)
    active_comp["routed_experts"] = routed_active
    active = sum(active_comp.values())

    vision = None
    if arch.vision is not None:
        v = arch.vision
        vnorm = v.hidden_size * (2 if v.norm == "layernorm" else 1)
        vision = sum(sum(x for k, x in layer_params(lay, v.hidden_size, vnorm).items() if k != "routed_active")
                     for lay in v.layers) + sum(v.extra_params.values())
    mtp = mtp_copies = None
    if arch.mtp is not None:
        lp = layer_params(arch.mtp.layer, h, norm_w)
        lp.pop("routed_active")
        mtp = arch.mtp.num_layers * (sum(lp.values()) + sum(arch.mtp.extra_params_per_layer.values()))
        mtp_copies = arch.mtp.num_layers * sum(arch.mtp.extra_params_per_layer.get(k, 0) for k in arch.mtp.copies)
    emb = comp["embedding"] + comp["lm_head"]
    grand = total + (vision or 0) + (mtp or 0)
    if grand > PLAUSIBLE_MAX_PARAMS:
        from .errors import ConfigError
        parts = dict(comp, vision=vision or 0, mtp=mtp or 0)
        big = max(parts, key=parts.get)
        raise ConfigError(f"the config describes {grand / 1e12:,.0f} trillion parameters, beyond the plausibility "
                          f"bound of {PLAUSIBLE_MAX_PARAMS / 1e12:.0f} trillion (the largest published models hold "
                          "1-2 trillion; 100 trillion is 50 TB of weights even at 4 bits, more than any GPU system "
                          f"in the catalog serves): a dimension is probably wrong; {parts[big] / 1e12:,.0f} trillion "
                          f"are {big.replace('_', ' ')}, check {_SUSPECTS.get(big, 'its dimensions')}")
    return ParamCounts(total=total, active=active, by_component=comp, active_by_component=active_comp,
                       vision=vision, mtp=mtp, mtp_copies=mtp_copies, embedding_fraction=emb / total if total else 0.0)
