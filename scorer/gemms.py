"""The GEMM inventory: every linear layer of the model as (name, K, N, count, active count).

This inventory is the single input for FLOPs, weight bytes, alignment and quantization checks
(DESIGN principle 3), so they cannot disagree. Names follow vLLM's fused modules (``qkv_proj``,
``gate_up_proj``, MLA's ``fused_qkv_a_proj``) because those are the GEMMs engines run and shard.

Shapes: K = in_features, N = out_features of ``y[M, N] = x[M, K] · W[K, N]``. ``count`` is the
number of weight matrices of that shape in the model (layers x experts); ``active`` is how many
of them one token uses (top_k per MoE layer instead of all experts).

Tensor parallelism (vLLM conventions, hardware-fit-rules §3 Q): column-parallel layers split N,
row-parallel layers split K; fused outputs (q|k|v, gate|up) split part by part; K/V parts are
replicated when TP exceeds the KV heads (rule T2); replicated layers (MLA's latent down
projections, routers) are not split. Experts split like dense layers under TP and are
distributed whole under EP.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from .architecture import (AttentionSpec, CompressedAttentionSpec, DenseMLP, GatedDeltaNetSpec, LayerSpec,
                           LinearMixerSpec, Mamba2Spec, MLASpec, ModelArch, MoEMLP, ShortConvSpec)


class Gemm(BaseModel):
    name: str = Field(description="module name, vLLM naming, e.g. attn.qkv_proj, mlp.gate_up_proj")
    component: str = Field(description="attention, mlp, routed_experts, shared_experts, router, recurrent, lm_head, "
                                       "vision")
    k: int = Field(description="in_features")
    n: int = Field(description="out_features")
    count: int = Field(description="matrices of this shape in the model")
    active: float = Field(description="matrices of this shape one token uses")
    shard: Literal["column", "row", "replicated"]
    expert: bool = False
    parts: list[int] = Field(default_factory=list, description="fused output parts (q, k, v or gate, up)")
    kv_parts: list[int] = Field(default_factory=list, description="indices of parts holding K/V heads")
    head_dim: int = 0
    kv_heads: int = 0
    quantizable: bool = Field(True, description="conventionally quantized (routers, lm_head and tiny gates are not)")
    layers: list[int] = Field(default_factory=list)

    @property
    def params(self) -> int:
        return self.k * self.n * self.count

    @property
    def active_params(self) -> float:
        return self.k * self.n * self.active


class ShardShape(BaseModel):
    k: int
    n: int
    parts: list[int]
    divisible: bool = Field(description="every split dimension divides evenly by the TP degree")
    reason: str | None = None


def shard(g: Gemm, tp: int, ep: bool = False) -> ShardShape:
    """Per-GPU (K, N) of ``g`` at a TP degree (``ep=True``: experts are whole on each rank)."""
    if tp <= 1 or g.shard == "replicated" or (g.expert and ep):
        return ShardShape(k=g.k, n=g.n, parts=list(g.parts) or [g.n], divisible=True)
    if g.shard == "row":
        ok = g.k % tp == 0
        return ShardShape(k=g.k // tp if ok else -(-g.k // tp), n=g.n, parts=list(g.parts) or [g.n], divisible=ok,
                          reason=None if ok else f"K={g.k} not divisible by TP {tp}")
    parts = g.parts or [g.n]
    out = []
    ok = True
    reason = None
    for i, p in enumerate(parts):
        if i in g.kv_parts and g.kv_heads and tp > g.kv_heads:
            if tp % g.kv_heads:
                ok, reason = False, f"TP {tp} is not a multiple of {g.kv_heads} KV heads"
            out.append(g.head_dim)  # one replicated KV head per rank
        else:
            if i in g.kv_parts and g.kv_heads and g.kv_heads % tp:
                ok, reason = False, f"{g.kv_heads} KV heads not divisible by TP {tp}"
            elif p % tp:
                ok, reason = False, f"N part {p} not divisible by TP {tp}"
            out.append(-(-p // tp))
    return ShardShape(k=g.k, n=sum(out), parts=out, divisible=ok, reason=reason)


def _compressed_attn(prefix: str, a: CompressedAttentionSpec, h: int) -> list[Gemm]:
    """DeepSeek-V4 attention: the low-rank q and the shared-KV projection fused as the replicated
    ``fused_qkv_a_proj`` (like MLA's), ``q_b_proj``, the grouped ``o_a_proj`` (one block-diagonal GEMM of
    heads*head_dim/o_groups -> o_groups*o_lora_rank: splitting N splits the groups) and ``o_b_proj``; the
    compressor's and the indexer's kv/gate projections (BF16 in the checkpoints: not quantized), the indexer's
    ``q_b_proj`` and ``weights_proj``. The hyper-connection mixes (tiny, float32) are not listed."""
    d, ql = a.head_dim, a.q_lora_rank
    out = [Gemm(name=f"{prefix}.fused_qkv_a_proj", component="attention", k=h, n=ql + d, count=1, active=1,
                shard="replicated", parts=[ql, d]),
           Gemm(name=f"{prefix}.q_b_proj", component="attention", k=ql, n=a.num_heads * d, count=1, active=1,
                shard="column"),
           Gemm(name=f"{prefix}.o_a_proj", component="attention", k=a.num_heads * d // a.o_groups,
                n=a.o_groups * a.o_lora_rank, count=1, active=1, shard="column"),
           Gemm(name=f"{prefix}.o_b_proj", component="attention", k=a.o_groups * a.o_lora_rank, n=h, count=1,
                active=1, shard="row")]
    if a.compression != "sliding":
        series = 2 if a.compression == "csa" else 1  # CSA: two overlapping series
        out.append(Gemm(name=f"{prefix}.compressor.kv_gate_proj", component="attention", k=h, n=2 * series * d,
                        count=1, active=1, shard="replicated", parts=[series * d, series * d], quantizable=False))
    ix = a.indexer
    if ix is not None:
        out.append(Gemm(name=f"{prefix}.compressor.indexer.kv_gate_proj", component="attention", k=h,
                        n=4 * ix.head_dim, count=1, active=1, shard="replicated",
                        parts=[2 * ix.head_dim, 2 * ix.head_dim], quantizable=False))
        out.append(Gemm(name=f"{prefix}.compressor.indexer.q_b_proj", component="attention", k=ql,
                        n=ix.num_heads * ix.head_dim, count=1, active=1, shard="replicated"))
        out.append(Gemm(name=f"{prefix}.compressor.indexer.weights_proj", component="attention", k=h,
                        n=ix.num_heads, count=1, active=1, shard="replicated", quantizable=False))
    return out


def _attn(prefix: str, a: AttentionSpec | MLASpec | CompressedAttentionSpec, h: int) -> list[Gemm]:
    if isinstance(a, CompressedAttentionSpec):
        return _compressed_attn(prefix, a, h)
    if isinstance(a, MLASpec):
        qk = a.qk_nope_head_dim + a.qk_rope_head_dim
        latent = a.kv_lora_rank + a.qk_rope_head_dim
        out = []
        if a.q_lora_rank:
            out.append(Gemm(name=f"{prefix}.fused_qkv_a_proj", component="attention", k=h, n=a.q_lora_rank + latent,
                            count=1, active=1, shard="replicated", parts=[a.q_lora_rank, latent]))
            out.append(Gemm(name=f"{prefix}.q_b_proj", component="attention", k=a.q_lora_rank, n=a.num_heads * qk,
                            count=1, active=1, shard="column"))
        else:
            out.append(Gemm(name=f"{prefix}.q_proj", component="attention", k=h, n=a.num_heads * qk, count=1,
                            active=1, shard="column"))
            if not a.kv_shared:  # Mistral Large 4's KV-shared layers read an earlier layer's latent
                out.append(Gemm(name=f"{prefix}.kv_a_proj_with_mqa", component="attention", k=h, n=latent, count=1,
                                active=1, shard="replicated"))
        out.append(Gemm(name=f"{prefix}.kv_b_proj", component="attention", k=a.kv_lora_rank,
                        n=a.num_heads * (a.qk_nope_head_dim + a.v_head_dim), count=1, active=1, shard="column"))
        out.append(Gemm(name=f"{prefix}.o_proj", component="attention", k=a.num_heads * a.v_head_dim, n=h, count=1,
                        active=1, shard="row"))
        if a.indexer is not None and not a.indexer.shared:  # DSA's indexer (vLLM keeps it unsharded)
            ix = a.indexer
            out.append(Gemm(name=f"{prefix}.indexer.wq_b", component="attention", k=ix.q_lora_rank,
                            n=ix.num_heads * ix.head_dim, count=1, active=1, shard="replicated"))
            out.append(Gemm(name=f"{prefix}.indexer.wk_weights_proj", component="attention", k=h,
                            n=ix.head_dim + ix.num_heads, count=1, active=1, shard="replicated",
                            parts=[ix.head_dim, ix.num_heads], quantizable=False))
        return out
    q = a.num_heads * a.head_dim * (2 if a.output_gate else 1)
    kk = a.num_kv_heads * a.head_dim
    v = a.num_kv_heads * a.v_head_dim
    if a.kv_shared:  # keys and values of an earlier layer: only q is projected
        first = Gemm(name=f"{prefix}.q_proj", component="attention", k=h, n=q, count=1, active=1, shard="column")
    elif a.k_eq_v:  # values reuse the key projection: no v part
        first = Gemm(name=f"{prefix}.qk_proj", component="attention", k=h, n=q + kk, count=1, active=1,
                     shard="column", parts=[q, kk], kv_parts=[1], head_dim=a.head_dim, kv_heads=a.num_kv_heads)
    else:
        first = Gemm(name=f"{prefix}.qkv_proj", component="attention", k=h, n=q + kk + v, count=1, active=1,
                     shard="column", parts=[q, kk, v], kv_parts=[1, 2], head_dim=a.head_dim,
                     kv_heads=a.num_kv_heads)
    return [
        first,
        Gemm(name=f"{prefix}.o_proj", component="attention", k=a.num_heads * a.v_head_dim, n=h, count=1, active=1,
             shard="row"),
    ]


def _mlp(prefix: str, m: DenseMLP, h: int, component: str = "mlp") -> list[Gemm]:
    if m.replace_with_linear:
        return [Gemm(name=f"{prefix}.linear", component="recurrent", k=h, n=h, count=1, active=1,
                     shard="replicated")]
    if m.gated:
        up = Gemm(name=f"{prefix}.gate_up_proj", component=component, k=h, n=2 * m.intermediate, count=1, active=1,
                  shard="column", parts=[m.intermediate, m.intermediate])
    else:
        up = Gemm(name=f"{prefix}.up_proj", component=component, k=h, n=m.intermediate, count=1, active=1,
                  shard="column")
    down = Gemm(name=f"{prefix}.down_proj", component=component, k=m.intermediate, n=h, count=1, active=1, shard="row")
    return [up, down]


def _layer(layer: LayerSpec, h: int, prefix: str = "") -> list[Gemm]:
    out: list[Gemm] = []
    m = layer.mixer
    if isinstance(m, (AttentionSpec, MLASpec, CompressedAttentionSpec)):
        out += _attn(f"{prefix}attn", m, h)
    elif isinstance(m, Mamba2Spec):
        gn = m.n_groups * m.d_state
        out.append(Gemm(name=f"{prefix}mamba.in_proj", component="recurrent", k=h, n=m.in_proj_width, count=1,
                        active=1, shard="column", parts=[m.d_inner, m.d_inner, gn, gn, m.n_heads]))
        out.append(Gemm(name=f"{prefix}mamba.out_proj", component="recurrent", k=m.d_inner, n=h, count=1, active=1,
                        shard="row"))
    elif isinstance(m, GatedDeltaNetSpec):
        out.append(Gemm(name=f"{prefix}linear_attn.in_proj_qkvz", component="recurrent", k=h,
                        n=2 * m.key_dim + 2 * m.value_dim, count=1, active=1, shard="column",
                        parts=[m.key_dim, m.key_dim, m.value_dim, m.value_dim]))
        out.append(Gemm(name=f"{prefix}linear_attn.in_proj_ba", component="recurrent", k=h, n=2 * m.num_v_heads,
                        count=1, active=1, shard="column", quantizable=False, parts=[m.num_v_heads, m.num_v_heads]))
        out.append(Gemm(name=f"{prefix}linear_attn.out_proj", component="recurrent", k=m.value_dim, n=h, count=1,
                        active=1, shard="row"))
    elif isinstance(m, ShortConvSpec):
        out.append(Gemm(name=f"{prefix}conv.in_proj", component="recurrent", k=h, n=3 * m.channels, count=1,
                        active=1, shard="column", parts=[m.channels] * 3))
        out.append(Gemm(name=f"{prefix}conv.out_proj", component="recurrent", k=m.channels, n=h, count=1, active=1,
                        shard="row"))
    elif hasattr(m, "projections"):  # other recurrent kinds list their own matrix multiplies (Mamba1Spec, ...)
        for name, k, n, shard in m.projections(h):
            out.append(Gemm(name=f"{prefix}{m.kind}.{name}", component="recurrent", k=k, n=n, count=1, active=1,
                            shard=shard))
    elif isinstance(m, LinearMixerSpec):
        out.append(Gemm(name=f"{prefix}attn.linear", component="recurrent", k=h, n=h, count=1, active=1,
                        shard="replicated"))
    if layer.side_mixer is not None:  # a block's second mixer (FalconH1, Zamba): its own GEMMs
        out += _layer(LayerSpec(index=layer.index, mixer=layer.side_mixer, num_norms=0), h, prefix)
    if layer.cross_attention is not None:
        out += _attn(f"{prefix}cross_attn", layer.cross_attention, h)
    f = layer.ffn
    if isinstance(f, DenseMLP):
        out += _mlp(f"{prefix}mlp", f, h)
    elif isinstance(f, MoEMLP):
        i = f.expert_intermediate
        e, k = f.num_experts, f.expected_top_k  # zero-compute experts: the real experts a token uses on average
        up_n = (2 if f.gated else 1) * i
        w = f.latent_size or h  # a latent MoE's experts read and write the latent width
        if f.latent_size:
            out.append(Gemm(name=f"{prefix}moe.fc1_latent_proj", component="mlp", k=h, n=w, count=1, active=1,
                            shard="replicated"))
        out.append(Gemm(name=f"{prefix}moe.experts.{'gate_up_proj' if f.gated else 'up_proj'}",
                        component="routed_experts", k=w, n=up_n, count=e, active=k, shard="column", expert=True,
                        parts=[i, i] if f.gated else []))
        out.append(Gemm(name=f"{prefix}moe.experts.down_proj", component="routed_experts", k=i, n=w, count=e,
                        active=k, shard="row", expert=True))
        if f.latent_size:
            out.append(Gemm(name=f"{prefix}moe.fc2_latent_proj", component="mlp", k=w, n=h, count=1, active=1,
                            shard="replicated"))
        out.append(Gemm(name=f"{prefix}moe.router", component="router", k=h, n=e + f.zero_experts, count=1,
                        active=1, shard="replicated", quantizable=False))
        if f.shared is not None:
            out += _mlp(f"{prefix}moe.shared_expert", f.shared, h, component="shared_experts")
        if f.shared_gate:
            out.append(Gemm(name=f"{prefix}moe.shared_expert_gate", component="router", k=h, n=1, count=1, active=1,
                            shard="replicated", quantizable=False))
    return out


def _merge(items: list[tuple[int, Gemm]]) -> list[Gemm]:
    merged: dict[tuple, Gemm] = {}
    for idx, g in items:
        key = (g.name, g.k, g.n, g.shard, tuple(g.parts), g.kv_heads, g.count, g.active)
        if key in merged:
            cur = merged[key]
            cur.layers.append(idx)
        else:
            merged[key] = g.model_copy(update={"layers": [idx]})
    out = []
    for g in merged.values():
        n = len(g.layers)
        out.append(g.model_copy(update={"count": g.count * n, "active": g.active * n}))
    return out


def inventory(arch: ModelArch, include_lm_head: bool = True) -> list[Gemm]:
    """Every linear layer of the language model, grouped by identical shape (see module docstring)."""
    h = arch.hidden_size
    items: list[tuple[int, Gemm]] = []
    for lay in arch.encoder_layers:
        items += [(lay.index, g) for g in _layer(lay, h, "encoder.")]
    for lay in arch.layers:
        items += [(lay.index, g) for g in _layer(lay, h)]
    out = _merge(items)
    if include_lm_head and arch.has_lm_head_gemm:
        out.append(Gemm(name="lm_head", component="lm_head", k=h, n=arch.head_vocab, count=1, active=1,
                        shard="column", quantizable=False))
    return out


def vision_inventory(arch: ModelArch) -> list[Gemm]:
    """Linear layers of the vision tower (component ``vision``), when the tower is known."""
    if arch.vision is None:
        return []
    v = arch.vision
    items = [(lay.index, g.model_copy(update={"component": "vision"})) for lay in v.layers
             for g in _layer(lay, v.hidden_size, "vision.")]
    return _merge(items)


def flops_per_token(gemms: list[Gemm]) -> float:
    """Dense GEMM FLOPs per token (2 * K * N per active matrix), excluding attention scores."""
    return 2.0 * sum(g.k * g.n * g.active for g in gemms)


def shared_weight_factor(arch: ModelArch, total_params: int, embedding_params: int, gemms: list[Gemm]) -> float:
    """Fraction of the inventory's GEMM weights that are stored (1.0 for almost every model).

    The inventory lists a GEMM once per layer that runs it, so a block whose weights are shared by several
    layers (Zamba's shared transformer block) appears more often than the checkpoint stores it. When the
    GEMMs add up to more than the model's parameters outside the embedding table, the stored share is
    (total - embedding) / GEMM parameters: an approximation (norms and convolutions count as GEMM weights)
    used to scale weight memory; FLOPs keep every execution.
    """
    gemm_params = sum(g.k * g.n * g.count for g in gemms)
    if arch.tie_word_embeddings and arch.has_lm_head_gemm:
        gemm_params -= arch.head_vocab * arch.hidden_size  # the lm_head GEMM is the embedding table
    eligible = total_params - embedding_params
    if gemm_params <= 0 or gemm_params <= eligible:
        return 1.0
    return max(0.0, eligible) / gemm_params
