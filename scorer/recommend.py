"""What-if recommendations: for a misaligned or costly width, the nearest sizes that pass, with the
parameter change, the quantization formats it unlocks and the cost-model change in throughput
and latency (the "change X to Y, gain Z%" line the sheet leads with).

Candidate sizes round *up* (keeping capacity) to multiples of 64 (G2), 128 (G3), 256 and
128 x 8 = 1024 (every TP-8 shard a multiple of 128, Q2/Q3), within a bounded growth.
"""

from __future__ import annotations

from typing import Callable

from pydantic import BaseModel, Field

from .architecture import AttentionSpec, DenseMLP, MLASpec, ModelArch, MoEMLP
from .gemms import inventory
from .params import count_params
from .quant import RULE, readiness

MAX_GROWTH = {"intermediate_size": 0.06, "moe_intermediate_size": 0.10, "vocab_size": 0.02, "hidden_size": 0.10,
              "num_attention_heads": 0.15}
LABELS = {"moe_intermediate_size": "expert width (moe_intermediate_size)"}
MULTIPLES = (64, 128, 256, 1024)


class Recommendation(BaseModel):
    key: str
    old: int
    new: int
    multiple: int = Field(description="the multiple the new size reaches")
    param_delta: int
    param_delta_pct: float
    unlocks: list[str] = Field(default_factory=list, description="format at TP that move to ready")
    throughput_change_pct: float | None = Field(None, description="throughput regime tokens/s/GPU, same layout")
    tpot_change_pct: float | None = Field(None, description="latency regime TPOT, same layout (negative = faster)")
    rules: list[str]
    summary: str


def round_up(x: int, m: int) -> int:
    return -(-x // m) * m


def modify(arch: ModelArch, key: str, old: int, new: int) -> ModelArch:
    """A copy of ``arch`` with one width changed everywhere it appears."""
    if key in ("vocab_size", "hidden_size"):
        return arch.model_copy(update={key: new})
    layers = []
    hidden = arch.hidden_size
    for lay in arch.layers:
        f = lay.ffn
        m = lay.mixer
        if key == "num_attention_heads" and isinstance(m, AttentionSpec) and m.num_heads == old:
            kv = new if m.num_kv_heads == m.num_heads else m.num_kv_heads
            if hidden == old * m.head_dim:
                hidden = new * m.head_dim
            lay = lay.model_copy(update={"mixer": m.model_copy(update={"num_heads": new, "num_kv_heads": kv})})
        elif key.startswith("intermediate_size") and isinstance(f, DenseMLP) and f.intermediate == old and \
                not f.replace_with_linear:
            lay = lay.model_copy(update={"ffn": f.model_copy(update={"intermediate": new})})
        elif key == "moe_intermediate_size" and isinstance(f, MoEMLP) and f.expert_intermediate == old:
            lay = lay.model_copy(update={"ffn": f.model_copy(update={"expert_intermediate": new})})
        layers.append(lay)
    return arch.model_copy(update={"layers": layers, "hidden_size": hidden})


def candidates(key: str, value: int) -> list[tuple[int, int]]:
    """(new size, multiple) pairs above ``value`` within the growth bound, nearest first."""
    out: dict[int, int] = {}
    if key == "num_attention_heads":  # nearest multiples of 8 either side: every TP degree up to 8 divides them
        for new in (value // 8 * 8, round_up(value, 8)):
            if new and new != value and abs(new - value) / value <= MAX_GROWTH[key]:
                out[new] = 8
        return sorted(out.items())
    for m in MULTIPLES:
        new = round_up(value, m)
        if new != value and (new - value) / value <= MAX_GROWTH[key.split("[")[0]]:
            out[new] = max(out.get(new, 0), m)
    return sorted(out.items())


def _ready_set(arch: ModelArch, runnable: bool = False) -> set[tuple[str, int]]:
    """(format, TP) pairs vLLM runs without padding (``runnable``: padding allowed), over valid TP degrees."""
    from .fit import tp_valid
    valid = [t for t in (1, 2, 4, 8) if tp_valid(arch, t)]
    q = readiness(arch, inventory(arch), tps=(1, 2, 4, 8), valid_tp=valid)
    ok = ("ready", "padded") if runnable else ("ready",)
    return {(e.format, e.tp) for e in q.matrix if e.status in ok and e.engine == "vllm"}


def layout_recommendations(quant, arch: ModelArch | None = None) -> list[Recommendation]:
    """MoE: formats that TP refuses but expert parallelism runs (experts whole on each rank, rule E3);
    MLA: attention data parallelism instead of TP (the latent KV is replicated on every TP rank)."""
    out = []
    if arch is not None and isinstance(arch.first_attention(), MLASpec):
        out.append(Recommendation(
            key="layout", old=0, new=0, multiple=0, param_delta=0, param_delta_pct=0.0, rules=["T2", "R3"],
            summary="serve MLA attention data-parallel (SGLang 0.5.23 --attn-dp-size, which replaces its deprecated "
                    "--enable-dp-attention (sglang/srt/server_args.py); vLLM --data-parallel-size with "
                    "--enable-expert-parallel): under TP every rank stores the whole latent KV cache, so TP "
                    "multiplies KV memory"))
    for fmt in ("fp8_block", "int4", "nvfp4"):
        rows = [e for e in quant.matrix if e.engine == "vllm" and e.format == fmt and e.tp in (2, 4, 8, 16, 32)]
        fixed = [e.tp for e in rows if e.status == "not_ready" and e.rule != "T1" and e.ep_status in ("ready",
                                                                                                      "padded")]
        if fixed:
            tps = ", ".join(str(t) for t in fixed)
            out.append(Recommendation(
                key="layout", old=0, new=0, multiple=0, param_delta=0, param_delta_pct=0.0, rules=["E3", RULE[fmt]],
                unlocks=[f"{fmt} TP{t}" for t in fixed],
                summary=f"serve the experts with expert parallelism (vLLM --enable-expert-parallel) at TP {tps}: "
                        f"{fmt} then runs, since each expert stays whole instead of splitting its width"))
    return out


def _best_latency(latency, arch: ModelArch, pairs: set[tuple[str, int]], fmt: str) -> tuple[float, int] | None:
    best = None
    for f, tp in pairs:
        if f != fmt:
            continue
        t = latency(arch, fmt, tp)
        if t is not None and (best is None or t < best[0]):
            best = (t, tp)
    return best


def recommend(arch: ModelArch, dims: dict[str, int], perf: Callable[[ModelArch], tuple[float | None, float | None]],
              latency: Callable[[ModelArch, str, int], float | None] | None = None) -> list[Recommendation]:
    """Recommendations for the widths in ``dims`` that miss a multiple of 128 or block TP-8 quantization.

    ``perf(arch) -> (throughput tokens/s/GPU, TPOT ms)`` evaluates the cost model on a fixed layout.
    """
    from .fit import tp_valid
    base_params = count_params(arch).total
    base_ready = _ready_set(arch)
    base_run = _ready_set(arch, runnable=True)
    base_thr, base_tpot = perf(arch)
    out = []
    keys = [k for k in dims if k.startswith("intermediate_size")] + ["moe_intermediate_size", "hidden_size",
                                                                      "vocab_size"]
    att = arch.first_attention()
    if isinstance(att, AttentionSpec) and not all(tp_valid(arch, t) for t in (2, 4, 8)) and att.num_heads % 8:
        dims = dict(dims, num_attention_heads=att.num_heads)
        keys.append("num_attention_heads")
    for key in keys:
        value = dims.get(key)
        if not value:
            continue
        blocks_tp8 = ("fp8_block", 8) not in base_ready or ("int4", 8) not in base_ready
        needs = key == "num_attention_heads" or value % 128 != 0 or (
            key.startswith(("intermediate_size", "moe_intermediate_size")) and value % 1024 != 0 and blocks_tp8)
        if not needs:
            continue
        for new, mult in candidates(key, value):
            if key == "hidden_size" and isinstance(att, AttentionSpec) and att.num_heads * att.head_dim == \
                    arch.hidden_size and new % att.num_heads:
                continue  # head_dim is hidden/heads here: a hidden size the heads do not divide is invalid
            alt = modify(arch, key.split("[")[0], value, new)
            p = count_params(alt).total
            unlocked = sorted(_ready_set(alt) - base_ready, key=lambda x: (x[0], x[1]))
            thr, tpot = perf(alt)
            thr_pct = round((thr / base_thr - 1) * 100, 1) if thr and base_thr else None
            tpot_pct = round((tpot / base_tpot - 1) * 100, 1) if tpot and base_tpot else None
            unl = [f"{f} TP{tp}" for f, tp in unlocked]
            if key == "num_attention_heads":
                newly = [t for t in (2, 4, 8) if tp_valid(alt, t) and not tp_valid(arch, t)]
                unl = [f"TP{t}" for t in newly] + unl
            misaligned = value % 8 != 0  # rule G1: off the 16-byte Tensor Core paths (evidence E1, E3)
            if not unl and not misaligned and (value % 128 == 0 or key == "num_attention_heads" or thr_pct is None
                                               or thr_pct < 1.0):
                continue  # nothing unlocked and not predicted faster: not worth a parameter change
            rules_ = (["T1"] if key == "num_attention_heads" else ["G3" if mult >= 128 else "G2"]) + \
                (["G6"] if key.startswith("intermediate_size") else []) + \
                (["T5"] if key == "vocab_size" else []) + (["Q2"] if any(u.startswith("fp8_block") for u in unl)
                                                           else [])
            gain = []
            if latency is not None:
                alt_run = _ready_set(alt, runnable=True)
                for fmt in sorted({f for f, _ in unlocked} & {"fp8_block", "int4", "nvfp4"}):
                    before = _best_latency(latency, arch, base_run, fmt)
                    after = _best_latency(latency, alt, alt_run, fmt)
                    if after and (before is None or after[0] < before[0] * 0.98):
                        if before:
                            gain.append(f"{fmt} latency-regime TPOT {(after[0] / before[0] - 1) * 100:+.0f}% "
                                        f"(TP{before[1]} → TP{after[1]})")
                        else:
                            gain.append(f"{fmt} becomes runnable ({after[0]:.2f} ms TPOT at TP{after[1]})")
            if thr_pct is not None:
                gain.append(f"throughput {thr_pct:+.1f}%")
            if tpot_pct is not None:
                gain.append(f"TPOT {tpot_pct:+.1f}%")
            label = LABELS.get(key, key)
            if key == "num_attention_heads" and alt.hidden_size != arch.hidden_size:
                label = f"num_attention_heads (hidden_size {arch.hidden_size:,} → {alt.hidden_size:,})"
            summary = (f"{label} {value:,} → {new:,} (x{mult}; {p - base_params:+,} params, "
                       f"{(p - base_params) / base_params:+.2%})" + (f"; unlocks {', '.join(unl)}" if unl else "") +
                       (f"; predicted {', '.join(gain)}" if gain else ""))
            out.append(Recommendation(key=key, old=value, new=new, multiple=mult, param_delta=p - base_params,
                                      param_delta_pct=round((p - base_params) / base_params * 100, 3), unlocks=unl,
                                      throughput_change_pct=thr_pct, tpot_change_pct=tpot_pct, rules=rules_,
                                      summary=summary))
    return out
