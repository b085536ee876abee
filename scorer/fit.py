"""Hardware fit: GEMM alignment and tile/wave efficiency, parallelism fit, attention-kernel fit.

All checks read the GEMM inventory and the normalized architecture; thresholds and sources are
those of the rules in ``data/rules.json`` (ids in each docstring).
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from .architecture import (AttentionSpec, CompressedAttentionSpec, GatedDeltaNetSpec, Mamba2Spec, MLASpec, ModelArch,
                           MoEMLP)
from .gemms import Gemm, shard
from .hardware import GPU
from .tiles import efficiency_for_tile, gemm_efficiency, misalignment_factor

PREFILL_M = 8192  # rule G4: tile/wave efficiency is reported at prefill M = 8192
DECODE_M = 128  # a decode-size batch (F5 evaluates decode M in 1..256)
TPS = (1, 2, 4, 8)


def pow2_multiple(x: int, cap: int = 512) -> int:
    """Largest power of two (<= cap) dividing x: the 'multiple of' shown in alignment tables."""
    if x <= 0:
        return 0
    return min(x & -x, cap)


def alignment_grade(x: int) -> str:
    """'512', '256', '128' (pass), '64' (G2 only), '8' (G1 only), 'misaligned' (< 16 bytes at bf16)."""
    m = pow2_multiple(x)
    if m >= 128:
        return str(m)
    if m >= 64:
        return "64"
    if m >= 8:
        return "8"
    return "misaligned"


class GemmFit(BaseModel):
    name: str
    component: str
    tp: int
    k: int = Field(description="in_features per TP shard")
    n: int = Field(description="out_features per TP shard")
    k_full: int
    n_full: int
    count: int
    flop_share: float = Field(description="share of the model's GEMM FLOPs per token")
    k_multiple: int
    n_multiple: int
    efficiency: float = Field(description="tile x wave x misalignment efficiency at M = 8192 on the primary GPU")
    efficiency_tile_wave: float
    efficiency_decode: float = Field(description="tile x wave efficiency at decode-size M = 128")
    aligned: dict[str, bool] = Field(description="16-byte alignment of K_p and N_p per dtype (G1)")
    aspect: float = Field(description="max(N/K, K/N) of the unsharded weight")
    divisible: bool
    status: str = Field(description="ok (x128), partial (x64), low (x8), misaligned (not 16-byte aligned)")


class TPFit(BaseModel):
    tp: int
    heads_ok: bool
    kv_mode: str = Field(description="split, replicated, invalid")
    kv_heads_per_gpu: int | None
    kv_replication: float
    valid: bool
    mlp_shard: int | None = Field(None, description="dense intermediate / TP")
    expert_shard: int | None = Field(None, description="expert intermediate / TP (no EP)")
    notes: list[str] = Field(default_factory=list)


class LayoutFit(BaseModel):
    n_gpus: int
    tp: int
    pp: int = 1
    ep: int = 1
    clean: bool = Field(description="valid (T1/T2), no KV replication, balanced stages, experts divide (E1)")
    notes: list[str] = Field(default_factory=list)


class ParallelismFit(BaseModel):
    tp: list[TPFit]
    valid_tp: list[int]
    ep: dict[int, bool] = Field(default_factory=dict, description="EP degree -> experts divide evenly (E1)")
    pp: dict[int, bool] = Field(default_factory=dict, description="PP degree -> layers divide evenly (P1)")
    pp_imbalance: dict[int, float] = Field(default_factory=dict, description="PP degree -> heaviest stage / mean "
                                                                             "stage (active parameters, vLLM split)")
    deepep_hidden_ok: bool | None = None
    layouts: list[LayoutFit] = Field(default_factory=list, description="layouts on 8, 16, 32, 64 GPUs")


class AttentionFit(BaseModel):
    mechanism: str
    head_dim: int | None
    v_head_dim: int | None
    gqa_group: int | None
    fa2: str
    fa2_efficiency: float | None
    fa3: str
    fa4_blackwell: str
    flashinfer_head_dim: str
    flashinfer_group: str
    mla_kernel: str | None = None
    sinks: bool = False
    spans: dict[str, int] = Field(default_factory=dict, description="layer count per span: full, sliding, chunked")


class VocabPadding(BaseModel):
    vocab_size: int
    vllm_padded: int = Field(description="padded to a multiple of 64 (vLLM/SGLang DEFAULT_VOCAB_PADDING_SIZE)")
    vllm_waste_pct: float
    per_tp_rows: dict[int, int] = Field(description="TP -> lm_head rows per rank after vLLM padding")
    megatron_padded: dict[int, int] = Field(description="TP -> padded to 128 x TP (Megatron/NeoX)")


def vocab_padding(vocab: int, tps=TPS) -> VocabPadding:
    padded = -(-vocab // 64) * 64
    return VocabPadding(vocab_size=vocab, vllm_padded=padded, vllm_waste_pct=round((padded - vocab) / vocab * 100, 3),
                        per_tp_rows={tp: -(-padded // tp) for tp in tps},
                        megatron_padded={tp: -(-vocab // (128 * tp)) * 128 * tp for tp in tps})


class HardwareFit(BaseModel):
    gpu: str
    dims: dict[str, int] = Field(description="the key widths of the model")
    dim_alignment: dict[str, str]
    gemms: list[GemmFit]
    flop_weighted_efficiency: dict[int, float] = Field(description="TP -> FLOP-weighted GEMM efficiency at M=8192")
    efficiency_by_gpu: dict[str, float] = Field(default_factory=dict, description="GPU -> TP1 FLOP-weighted efficiency")
    width_depth: float | None
    depth_blocks: int | None = Field(None, description="the depth width_depth divides by: the layers with a mixer "
                                                       "(Nemotron-H gives the mixer and the MLP separate layers)")
    vocab: VocabPadding
    parallelism: ParallelismFit
    attention: AttentionFit


def key_dims(arch: ModelArch) -> dict[str, int]:
    dims = {"hidden_size": arch.hidden_size, "vocab_size": arch.vocab_size}
    widths = []
    for lay in arch.layers:
        if lay.ffn is not None and lay.ffn.kind == "dense" and not lay.ffn.replace_with_linear:
            if lay.ffn.intermediate not in widths:
                widths.append(lay.ffn.intermediate)
    for i, w in enumerate(widths):
        dims["intermediate_size" if i == 0 else f"intermediate_size[{w}]"] = w
    for lay in arch.layers:
        if isinstance(lay.ffn, MoEMLP):
            dims.setdefault("moe_intermediate_size", lay.ffn.expert_intermediate)
            if lay.ffn.shared is not None:
                dims.setdefault("shared_expert_intermediate_size", lay.ffn.shared.intermediate)
    att = arch.first_attention()
    if isinstance(att, AttentionSpec):
        dims["head_dim"] = att.head_dim
        dims["q_width"] = att.num_heads * att.head_dim
        dims["kv_width"] = att.num_kv_heads * att.head_dim
    elif isinstance(att, MLASpec):
        dims["kv_lora_rank"] = att.kv_lora_rank
        if att.q_lora_rank:
            dims["q_lora_rank"] = att.q_lora_rank
        dims["mla_latent"] = att.kv_lora_rank + att.qk_rope_head_dim
    elif isinstance(att, CompressedAttentionSpec):  # DeepSeek-V4
        dims["head_dim"] = att.head_dim
        dims["q_lora_rank"] = att.q_lora_rank
        dims["q_width"] = att.num_heads * att.head_dim
        dims["o_lora_rank"] = att.o_lora_rank
    return dims


def gemm_fits(gemms: list[Gemm], gpu: GPU, tps=TPS, m: int = PREFILL_M) -> list[GemmFit]:
    total = sum(g.k * g.n * g.active for g in gemms) or 1.0
    out = []
    for tp in tps:
        for g in gemms:
            s = shard(g, tp)
            # G4 reports the worse of cuBLAS's two large tiles (256x128, 128x256), as the rule's worked examples do
            tw = min(efficiency_for_tile(m, s.n, s.k, gpu.sms, t) for t in ((256, 128, 64), (128, 256, 64)))
            eff = tw * misalignment_factor(s.n, s.k, 2.0)
            worst = min(pow2_multiple(s.k), pow2_multiple(s.n))
            status = "ok" if worst >= 128 else "partial" if worst >= 64 else "low" if worst >= 8 else "misaligned"
            out.append(GemmFit(name=g.name, component=g.component, tp=tp, k=s.k, n=s.n, k_full=g.k, n_full=g.n,
                               count=g.count, flop_share=round(g.k * g.n * g.active / total, 5),
                               k_multiple=pow2_multiple(s.k), n_multiple=pow2_multiple(s.n),
                               efficiency=round(eff, 4), efficiency_tile_wave=round(tw, 4),
                               efficiency_decode=round(gemm_efficiency(DECODE_M, s.n, s.k, gpu.sms), 4),
                               aligned={dt: s.k % a == 0 and s.n % a == 0 for dt, a in
                                        (("bf16", 8), ("fp8", 16), ("fp4", 32))},
                               aspect=round(max(max(g.parts or [g.n]) / g.k, g.k / max(g.parts or [g.n])), 2), divisible=s.divisible, status=status))
    return out


def flop_weighted(fits: list[GemmFit], tp: int) -> float:
    sel = [f for f in fits if f.tp == tp]
    w = sum(f.flop_share for f in sel) or 1.0
    return round(sum(f.flop_share * f.efficiency for f in sel) / w, 4)


def tp_valid(arch: ModelArch, tp: int) -> bool:
    """TP degrees engines accept: attention heads (T1), KV heads divisible or replicable (T2), Mamba2 heads and
    groups, gated delta-net heads."""
    att = arch.first_attention()
    if att is not None:
        if att.num_heads % tp:
            return False
        if isinstance(att, AttentionSpec) and att.num_kv_heads % tp and tp % att.num_kv_heads:
            return False
    for lay in arch.layers:
        m = lay.mixer
        if isinstance(m, Mamba2Spec) and (m.n_heads % tp or (m.n_groups % tp and m.n_groups != 1)):
            return False
        if isinstance(m, GatedDeltaNetSpec) and (m.num_k_heads % tp or m.num_v_heads % tp):
            return False
    return True


def parallelism_fit(arch: ModelArch, tps=(1, 2, 4, 8, 16, 32)) -> ParallelismFit:
    """T1/T2 per TP degree, E1 per EP degree, P1 per PP degree."""
    att = arch.first_attention()
    rows = []
    dense_i = next((lay.ffn.intermediate for lay in arch.layers if lay.ffn is not None and lay.ffn.kind == "dense"
                    and not lay.ffn.replace_with_linear), None)
    moe = next((lay.ffn for lay in arch.layers if isinstance(lay.ffn, MoEMLP)), None)
    for tp in tps:
        notes = []
        if att is None:
            heads_ok, mode, per, repl = True, "split", None, 1.0
        else:
            heads_ok = att.num_heads % tp == 0
            if isinstance(att, MLASpec):
                mode, per, repl = "replicated", 1, float(tp)
                if tp > 1:
                    notes.append("MLA latent KV replicated on every rank")
            else:
                kv = att.num_kv_heads
                if tp <= kv:
                    mode = "split" if kv % tp == 0 else "invalid"
                    per, repl = kv // tp, 1.0
                else:
                    mode = "replicated" if tp % kv == 0 else "invalid"
                    per, repl = 1, tp / kv
        if not heads_ok:
            notes.append(f"{att.num_heads} heads not divisible by TP {tp} (T1)")
        mamba = next((lay.mixer for lay in arch.layers if isinstance(lay.mixer, Mamba2Spec)), None)
        if mamba is not None and (mamba.n_heads % tp or (mamba.n_groups % tp and mamba.n_groups != 1)):
            heads_ok = False
            notes.append(f"Mamba2: {mamba.n_heads} heads / {mamba.n_groups} groups not divisible by TP {tp} "
                         "(vLLM MambaMixer2)")
        gdn = next((lay.mixer for lay in arch.layers if isinstance(lay.mixer, GatedDeltaNetSpec)), None)
        if gdn is not None and (gdn.num_k_heads % tp or gdn.num_v_heads % tp):
            heads_ok = False
            notes.append(f"gated delta-net: {gdn.num_k_heads}/{gdn.num_v_heads} key/value heads not divisible by "
                         f"TP {tp}")
        if mode == "invalid":
            notes.append(f"{att.num_kv_heads} KV heads and TP {tp} neither divide (T2)")
        elif mode == "replicated" and repl > 1 and isinstance(att, AttentionSpec):
            notes.append(f"KV heads replicated {repl:g}x (T2)")
        rows.append(TPFit(tp=tp, heads_ok=heads_ok, kv_mode=mode, kv_heads_per_gpu=per, kv_replication=repl,
                          valid=heads_ok and mode != "invalid",
                          mlp_shard=dense_i // tp if dense_i and dense_i % tp == 0 else None,
                          expert_shard=moe.expert_intermediate // tp if moe and moe.expert_intermediate % tp == 0
                          else None, notes=notes))
    ep = {}
    deepep = None
    if moe is not None:
        ep = {e: moe.num_experts % e == 0 for e in (2, 4, 8, 16, 32, 64)}
        deepep = arch.hidden_size in (2048, 2560, 3072, 4096, 5120, 6144, 7168, 8192)
    pp = {p: arch.num_layers % p == 0 for p in (2, 4, 8)}
    weights = _layer_weights(arch)
    imbalance = {p: pp_imbalance(weights, p) for p in (2, 4, 8) if p <= len(weights)}
    valid = [r.tp for r in rows if r.valid]
    layouts = []
    by_tp = {r.tp: r for r in rows}
    for n in (8, 16, 32, 64):
        for t in (1, 2, 4, 8):
            p_ = n // t
            if t not in valid or p_ > len(weights) or t * p_ != n:
                continue
            r = by_tp[t]
            notes = []
            clean = True
            if r.kv_mode == "replicated" and r.kv_replication > 1:
                notes.append(f"KV replicated {r.kv_replication:g}x" if isinstance(att, AttentionSpec) else
                             "MLA latent replicated per rank: DP attention avoids it")
            if p_ > 1:
                imb = pp_imbalance(weights, p_)
                if arch.num_layers % p_ or imb > 1.05:
                    clean = False
                    notes.append(f"PP stages unbalanced ({imb:.2f}x the mean)")
            layouts.append(LayoutFit(n_gpus=n, tp=t, pp=p_, clean=clean, notes=notes))
        if moe is not None and n <= moe.num_experts:  # EP beyond the expert count leaves ranks without an expert
            ok = moe.num_experts % n == 0
            layouts.append(LayoutFit(n_gpus=n, tp=1, ep=n, clean=ok,
                                     notes=([] if ok else [f"{moe.num_experts} experts not divisible by {n} (E1)"]) +
                                     ([] if deepep is not False else ["DeepEP pads the hidden size (E2)"])))
    return ParallelismFit(tp=rows, valid_tp=valid, ep=ep, pp=pp, pp_imbalance=imbalance, deepep_hidden_ok=deepep,
                          layouts=layouts)


def _layer_weights(arch: ModelArch) -> list[float]:
    """Active parameters per layer (a proxy for per-layer FLOPs and weight bytes)."""
    from .params import layer_params
    h = arch.hidden_size
    out = []
    for lay in arch.layers:
        lp = layer_params(lay, h, h)
        routed_active = lp.pop("routed_active")
        lp["routed_experts"] = routed_active
        out.append(float(sum(lp.values())) or 1.0)
    return out


def pp_stages(n_layers: int, pp: int) -> list[int]:
    """vLLM get_pp_indices: layers per stage, the remainder added from the second-to-last stage backwards."""
    parts = [n_layers // pp] * pp
    for i in range(2, n_layers % pp + 2):
        parts[-i] += 1
    return parts


def pp_imbalance(weights: list[float], pp: int) -> float:
    """Heaviest pipeline stage over the mean stage, with vLLM's layer split (P1)."""
    sizes = pp_stages(len(weights), pp)
    loads, i = [], 0
    for n in sizes:
        loads.append(sum(weights[i:i + n]))
        i += n
    mean = sum(loads) / len(loads)
    return round(max(loads) / mean, 4) if mean else 1.0


def attention_fit(arch: ModelArch) -> AttentionFit:
    """A1-A8: head sizes against FA2/FA3/FA4/FlashInfer, GQA group, MLA shape, window spans."""
    spans: dict[str, int] = {}
    for lay in arch.layers:
        if isinstance(lay.mixer, (AttentionSpec, MLASpec)):
            spans[lay.mixer.span] = spans.get(lay.mixer.span, 0) + 1
        elif isinstance(lay.mixer, CompressedAttentionSpec):  # DeepSeek-V4: swa, csa, hca
            spans[lay.mixer.label] = spans.get(lay.mixer.label, 0) + 1
        elif lay.mixer is not None:
            spans[lay.mixer.kind] = spans.get(lay.mixer.kind, 0) + 1
    att = arch.first_attention()
    if att is None:
        return AttentionFit(mechanism="none", head_dim=None, v_head_dim=None, gqa_group=None, fa2="n/a",
                            fa2_efficiency=None, fa3="n/a", fa4_blackwell="n/a", flashinfer_head_dim="n/a",
                            flashinfer_group="n/a", spans=spans)
    if isinstance(att, MLASpec):
        latent = att.kv_lora_rank + att.qk_rope_head_dim
        mla = "ok (FlashMLA 576/512)" if latent == 576 and att.kv_lora_rank == 512 else \
            (f"unsupported by FlashMLA: kv_lora_rank {att.kv_lora_rank} + qk_rope_head_dim {att.qk_rope_head_dim} "
             f"= {latent} cached per token (FlashMLA needs 512 + 64 = 576)")
        d, dv = att.head_dim, att.v_head_dim
        fa4 = "ok (192/128 DeepSeek shape)" if (d, dv) == (192, 128) else "check"
        return AttentionFit(mechanism="mla", head_dim=d, v_head_dim=dv, gqa_group=att.num_heads, fa2=_fa2(d)[0],
                            fa2_efficiency=_fa2(d)[1], fa3="ok (d in (128,192], dv <= 128)" if 128 < d <= 192 and
                            dv <= 128 else _fa3(d), fa4_blackwell=fa4, flashinfer_head_dim="MLA kernel",
                            flashinfer_group="n/a (MLA)", mla_kernel=mla, spans=spans)
    d = att.head_dim
    group = att.num_heads // att.num_kv_heads
    fa2, eff = _fa2(d)
    if 8 <= d <= 128 and d % 8 == 0:
        fa4 = "ok"
    elif d == 256:
        fa4 = "ok (dedicated 256 kernel)"
    else:
        fa4 = f"rejected on SM100: head_dim {d} (A3)"
    fi_head = "ok" if d in (64, 128, 256, 512) else f"unsupported head_dim {d} (A4)"
    fi_group = "ok" if group in (1, 2, 3, 4, 6, 8) else f"unsupported group size {group} (A4)"
    if att.sinks:
        fa2 = f"no attention-sink support ({fa2} otherwise)"
    return AttentionFit(mechanism="mha" if group == 1 else ("mqa" if att.num_kv_heads == 1 else "gqa"), head_dim=d,
                        v_head_dim=att.v_head_dim, gqa_group=group, fa2=fa2, fa2_efficiency=eff, fa3=_fa3(d),
                        fa4_blackwell=fa4, flashinfer_head_dim=fi_head, flashinfer_group=fi_group, spans=spans,
                        sinks=att.sinks)


def _fa2(d: int) -> tuple[str, float | None]:
    if d > 256 or d % 8:
        return f"unsupported: head_dim {d} (needs % 8 and <= 256, A1)", None
    rounded = -(-d // (32 if d <= 128 else 64)) * (32 if d <= 128 else 64)
    if rounded == d:
        return "ok", 1.0
    return f"padded {d} -> {rounded}", round(d / rounded, 4)


def _fa3(d: int) -> str:
    if d > 256 or d % 8:
        return f"unsupported: head_dim {d} (A2)"
    for r in (64, 96, 128, 192, 256):
        if d <= r:
            return "ok" if r == d else f"padded {d} -> {r}"
    return "unsupported"


def hardware_fit(arch: ModelArch, gemms: list[Gemm], gpu: GPU, all_gpus: list[GPU], tps=TPS) -> HardwareFit:
    dims = key_dims(arch)
    fits = gemm_fits(gemms, gpu, tps=tps)
    by_gpu = {}
    for g in all_gpus:
        by_gpu[g.id] = flop_weighted(gemm_fits(gemms, g, tps=(1,)), 1)
    # depth in blocks: hybrids that give the mixer and the MLP separate layers (Nemotron-H) count mixers
    att_layers = sum(1 for lay in arch.layers if lay.mixer is not None) or arch.num_layers
    return HardwareFit(
        gpu=gpu.id, dims=dims, dim_alignment={k: alignment_grade(v) for k, v in dims.items()}, gemms=fits,
        flop_weighted_efficiency={tp: flop_weighted(fits, tp) for tp in tps}, efficiency_by_gpu=by_gpu,
        width_depth=round(arch.hidden_size / att_layers, 1) if att_layers else None,
        depth_blocks=att_layers or None,
        vocab=vocab_padding(arch.vocab_size, tps),
        parallelism=parallelism_fit(arch), attention=attention_fit(arch))
