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

from .architecture import (AttentionSpec, DenseMLP, GatedDeltaNetSpec, LayerSpec, LinearMixerSpec, Mamba2Spec,
                           MLASpec, ModelArch, MoEMLP, ShortConvSpec)

COMPONENTS = ("embedding", "lm_head", "attention", "mlp", "routed_experts", "shared_experts", "router", "norms",
              "recurrent", "task_head")


class ParamCounts(BaseModel):
    total: int = Field(description="language-model parameters (vision tower and MTP layers excluded)")
    active: int = Field(description="parameters used per token: total minus the routed experts not chosen")
    by_component: dict[str, int]
    active_by_component: dict[str, int]
    vision: int | None = Field(None, description="vision tower parameters, reported apart")
    mtp: int | None = Field(None, description="multi-token-prediction layers (own weights; embedding/lm_head shared)")
    embedding_fraction: float = Field(description="(embedding + lm_head) / total")


def attention_params(a: AttentionSpec | MLASpec, hidden: int) -> int:
    """Parameters of one attention block (projections, biases, q/k norms, sinks, relative bias)."""
    if isinstance(a, MLASpec):
        qk = a.qk_nope_head_dim + a.qk_rope_head_dim
        if a.q_lora_rank:
            q = hidden * a.q_lora_rank + a.q_lora_rank + a.q_lora_rank * a.num_heads * qk
        else:
            q = hidden * a.num_heads * qk
        kv = hidden * (a.kv_lora_rank + a.qk_rope_head_dim) + a.kv_lora_rank \
            + a.kv_lora_rank * a.num_heads * (a.qk_nope_head_dim + a.v_head_dim)
        o = a.num_heads * a.v_head_dim * hidden + (hidden if a.o_bias else 0)
        ix = 0
        if a.indexer is not None:  # DeepseekV32Indexer: wq_b, wk, k_norm (LayerNorm: weight + bias), weights_proj
            i = a.indexer
            ix = i.q_lora_rank * i.num_heads * i.head_dim + hidden * i.head_dim + 2 * i.head_dim + hidden * i.num_heads
        return q + kv + o + ix
    q_out = a.num_heads * a.head_dim * (2 if a.output_gate else 1)
    k_out = a.num_kv_heads * a.head_dim
    v_out = a.num_kv_heads * a.v_head_dim
    n = hidden * (q_out + k_out + v_out)
    if a.qkv_bias:
        n += q_out + k_out + v_out
    n += a.num_heads * a.v_head_dim * hidden + (hidden if a.o_bias else 0)
    norm_mult = 2 if a.qk_norm_bias else 1
    if a.qk_norm == "head":
        n += 2 * a.head_dim * norm_mult
    elif a.qk_norm == "full":
        n += (a.num_heads + a.num_kv_heads) * a.head_dim * norm_mult
    if a.sinks:
        n += a.num_heads
    n += a.relative_bias_buckets * a.num_heads
    return n


def recurrent_params(m: Mamba2Spec | GatedDeltaNetSpec | ShortConvSpec | LinearMixerSpec, hidden: int) -> int:
    """Parameters of one recurrent / linear-attention / convolution mixer."""
    if isinstance(m, LinearMixerSpec):
        return hidden * hidden
    if isinstance(m, ShortConvSpec):  # Lfm2ShortConv: in_proj (h -> 3c), depthwise conv (c x kernel), out_proj
        c = m.channels
        n = hidden * 3 * c + c * m.kernel + c * hidden
        if m.bias:
            n += 3 * c + c + hidden
        return n
    if isinstance(m, Mamba2Spec):
        n = hidden * m.in_proj_width + (m.in_proj_width if m.proj_bias else 0)
        n += m.conv_dim * m.conv_kernel + (m.conv_dim if m.conv_bias else 0)
        n += 3 * m.n_heads  # dt_bias, A_log, D
        n += m.d_inner  # gated RMSNorm
        n += m.d_inner * hidden + (hidden if m.proj_bias else 0)
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
    router = m.num_experts * hidden + (m.num_experts if m.router_bias else 0)
    if m.shared_gate:
        router += hidden
    latent = 0
    if m.latent_size:
        latent = 2 * hidden * m.latent_size + ((m.latent_size + hidden) if m.latent_bias else 0)
    return {
        "routed_experts": m.num_experts * per_expert,
        "routed_active": m.top_k * per_expert,
        "shared_experts": mlp_params(m.shared, hidden) if m.shared else 0,
        "router": router,
        "mlp": latent,
    }


def layer_params(layer: LayerSpec, hidden: int, norm_width: int) -> dict[str, int]:
    """Parameters of one block by component, plus ``routed_active`` for the chosen experts."""
    out = dict.fromkeys(COMPONENTS, 0)
    out["routed_active"] = 0
    if isinstance(layer.mixer, (AttentionSpec, MLASpec)):
        out["attention"] += attention_params(layer.mixer, hidden)
    elif layer.mixer is not None:
        out["recurrent"] += recurrent_params(layer.mixer, hidden)
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
    comp["embedding"] = arch.vocab_size * h + arch.learned_positions * h + arch.token_types * h
    if arch.embedding_norm:
        comp["norms"] += norm_w
    if arch.final_norm:
        comp["norms"] += norm_w * (2 if arch.kind == "encoder-decoder" else 1)
    if arch.kind == "encoder":
        th = arch.task_head
        if th is not None:
            if th.pooler:
                comp["task_head"] += h * h + h
            if th.num_labels:
                comp["task_head"] += h * th.num_labels + th.num_labels
            if th.mlm_head:
                comp["task_head"] += h * h + h + norm_w + arch.vocab_size
    elif not arch.tie_word_embeddings:
        comp["lm_head"] = arch.vocab_size * h + (arch.vocab_size if arch.lm_head_bias else 0)
    elif arch.lm_head_bias:
        comp["lm_head"] = arch.vocab_size
    for k, v in arch.extra_params.items():
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
    mtp = None
    if arch.mtp is not None:
        lp = layer_params(arch.mtp.layer, h, norm_w)
        lp.pop("routed_active")
        mtp = arch.mtp.num_layers * (sum(lp.values()) + sum(arch.mtp.extra_params_per_layer.values()))
    emb = comp["embedding"] + comp["lm_head"]
    return ParamCounts(total=total, active=active, by_component=comp, active_by_component=active_comp,
                       vision=vision, mtp=mtp, embedding_fraction=emb / total if total else 0.0)
