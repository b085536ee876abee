"""Findings (each citing a rule of ``data/rules.json``), the 0–100 score and its breakdown.

The score's weights, credits and thresholds live in ``data/scoring.json``; every component
records its inputs and deductions so the sheet can show them.
"""

from __future__ import annotations

import math

from pydantic import BaseModel, Field

from .architecture import AttentionSpec, ModelArch, MoEMLP
from .fit import HardwareFit
from .kvcache import KVCache
from .params import ParamCounts
from .quant import QuantReadiness
from .regimes import RegimeResult
from .resources import load_json


class Rule(BaseModel):
    id: str
    category: str
    severity: str
    title: str
    statement: str
    threshold: str
    applies_to: str
    source: str


class Finding(BaseModel):
    rule: str
    severity: str = Field(description="HARD, FALLBACK, PERF, INFO")
    message: str
    category: str
    title: str


class Component(BaseModel):
    name: str
    weight: float
    value: float = Field(description="0-1 sub-score")
    points: float
    details: list[str] = Field(default_factory=list, description="inputs and deductions")


class Score(BaseModel):
    total: float
    grade: str
    components: list[Component]
    method: str = "data/scoring.json"
    provisional: bool = Field(False, description="the architecture was read by guess (a model_type transformers does "
                                                 "not know): the score may change once it is read exactly")


def rules() -> dict[str, Rule]:
    return {r["id"]: Rule(**r) for r in load_json("rules.json")["rules"]}


def finding(rule_id: str, message: str, severity: str | None = None) -> Finding:
    """A finding citing ``rule_id``; ``severity`` overrides the rule's (a HARD rule met by padding is FALLBACK)."""
    r = rules()[rule_id]
    return Finding(rule=rule_id, severity=severity or r.severity, message=message, category=r.category,
                   title=r.title)


SEVERITY_ORDER = {"HARD": 0, "FALLBACK": 1, "PERF": 2, "INFO": 3}


def relevant_tps(params: ParamCounts) -> tuple[int, ...]:
    """TP degrees worth reporting: 1-8, plus 16 and 32 when BF16 weights exceed one 8 x 80 GB node."""
    return (1, 2, 4, 8, 16, 32) if params.total * 2 > 8 * 80e9 * 0.9 else (1, 2, 4, 8)


def _fmt_tps(tps: list[int]) -> str:
    return ", ".join(str(t) for t in tps)


def checkpoint_method_findings(arch: ModelArch) -> list[Finding]:
    """Rule Q10: engines whose version does not load the checkpoint's ``quant_method`` as stored (HARD: where it has
    no loader for it, or loads it at TP 1 only), or loads it only behind a flag (INFO); from data/engines.json."""
    from .quant import ENGINES, _short, checkpoint_blocker, checkpoint_method_rules, engine_name as named
    q = arch.quantization
    if q is None or not q.method:
        return []
    method = q.method.strip().lower()
    refused, capped, flagged = [], [], []
    for engine in ENGINES:
        rules = checkpoint_method_rules(engine)
        if checkpoint_blocker(arch, engine, 1):
            refused.append(engine)
        elif (rules.get("max_tp") or {}).get(method) is not None:
            capped.append(f"{engine} at TP {rules['max_tp'][method]} only")
        if method in rules.get("deprecated", []):
            flagged.append(engine)
    out = []
    if refused or capped:
        parts = [f"{', '.join(named(e) for e in refused)} ha{'ve' if len(refused) > 1 else 's'} no loader for it"
                 ] if refused else []
        parts += [f"{named(c.split(' ', 1)[0])} loads it {c.split(' ', 1)[1]}" for c in capped]
        out.append(finding("Q10", f"the checkpoint's quant_method {_short(method)!r}: {'; '.join(parts)}. Serving it there "
                                  "needs another export of the model (16-bit, or a format the engine loads)"))
    for e in flagged:
        out.append(finding("Q10", f"{named(e)} loads quant_method {method!r} checkpoints only with "
                                  f"--allow-deprecated-quantization (a deprecated method; {e} launch commands pass it)",
                           severity="INFO"))
    return out


def findings(arch: ModelArch, params: ParamCounts, fit: HardwareFit, quant: QuantReadiness, kv: KVCache,
             regimes: list[RegimeResult], gpu_id: str, provenance=None) -> list[Finding]:
    """Every rule violation or notable fact, most severe first."""
    out: list[Finding] = []
    if provenance is not None and provenance.kind == "hub" and provenance.weight_formats and \
            "safetensors" not in provenance.weight_formats:
        out.append(finding("S4", "weights ship as " + ", ".join(provenance.weight_formats) + " only, no safetensors"))
    seen_g1 = set()
    for g in fit.gemms:
        if g.status == "misaligned" and (g.name, g.tp) not in seen_g1 and g.component != "router":
            seen_g1.add((g.name, g.tp))
            if g.tp == 1 or (g.name, 1) not in seen_g1:
                out.append(finding("G1", f"{g.name}: K={g.k} N={g.n} at TP {g.tp} is not a multiple of 8 elements "
                                         "(16 bytes at BF16); expect far below-peak GEMM throughput"))
    reported = set()
    for name, value in fit.dims.items():
        if name in ("head_dim", "mla_latent") or (name in ("q_width",) and value == arch.hidden_size):
            continue
        if (name, value) in reported:
            continue
        reported.add((name, value))
        if value % 128:
            rid = "T5" if name == "vocab_size" else ("G6" if name.split("[")[0] == "intermediate_size" else "G3")
            extra = ""
            if name == "vocab_size":
                padded = -(-value // 64) * 64
                extra = (f"; not a multiple of 64 either: vLLM pads it to {padded:,} ({padded - value} rows of "
                         "wasted lm_head work)") if value % 64 else "; a multiple of 64 (vLLM needs no padding)"
            out.append(finding(rid, f"{name} = {value:,} is not a multiple of 128 (largest power-of-two factor "
                                    f"{value & -value}){extra}"))
    low = sorted({(g.name, g.efficiency) for g in fit.gemms if g.tp == 1 and g.efficiency < 0.9
                  and g.component != "router"}, key=lambda x: (x[1], x[0]))  # ties by name: no set order
    if low:
        worst = ", ".join(f"{n} {e:.2f}" for n, e in low[:3])
        out.append(finding("G4", f"tile x wave efficiency below 0.90 at M=8192 on {fit.gpu}: {worst}"))
    for g in fit.gemms:
        if g.tp == 1 and g.component in ("mlp", "routed_experts", "shared_experts") and g.aspect > 4.0:
            out.append(finding("G5", f"{g.name} is {g.k} x {g.n} (aspect {g.aspect:g}): thin weights lower prefill "
                                     "arithmetic intensity"))
            break
    if fit.width_depth is not None and not 100 <= fit.width_depth <= 210 and arch.num_layers > 4:
        depth = fit.depth_blocks or arch.num_layers
        what = "layers" if depth == arch.num_layers else f"mixer layers (of {arch.num_layers})"
        out.append(finding("G7", f"hidden/{what.split(' (')[0]} = {arch.hidden_size}/{depth} = {fit.width_depth:g} "
                                 + (f"({what.split('(')[1][:-1]} layers; " if depth != arch.num_layers else "(")
                                 + "outside the usual 100-210 band)"))
    par = fit.parallelism
    bad_tp = [r.tp for r in par.tp if r.tp in (2, 4, 8) and not r.heads_ok]
    if bad_tp:
        att = arch.first_attention()
        out.append(finding("T1", f"{att.num_heads} attention heads are not divisible by TP {_fmt_tps(bad_tp)}: "
                                 "engines refuse those degrees"))
    inv = [r.tp for r in par.tp if r.tp in (2, 4, 8) and r.heads_ok and r.kv_mode == "invalid"]
    if inv:
        out.append(finding("T2", f"{arch.first_attention().num_kv_heads} KV heads and TP {_fmt_tps(inv)} neither "
                                 "divide: engines refuse those degrees"))
    repl = [(r.tp, r.kv_replication) for r in par.tp if r.tp in (2, 4, 8) and r.kv_mode == "replicated"
            and r.kv_replication > 1 and isinstance(arch.first_attention(), AttentionSpec)]
    if repl:
        tp, f = repl[-1]
        out.append(finding("T2", f"{arch.first_attention().num_kv_heads} KV heads: at TP {tp} each GPU keeps a "
                                 f"replicated head, the KV cache is stored {f:g}x across the group (accepted, "
                                 "wastes KV memory)", severity="PERF"))
    att = fit.attention
    if att.fa2.startswith("unsupported"):
        out.append(finding("A1", f"FlashAttention-2: {att.fa2}"))
    elif att.fa2.startswith("padded"):
        out.append(finding("A1", f"FlashAttention-2 runs head_dim {att.fa2[7:]} (efficiency {att.fa2_efficiency:.2f})"))
    if att.fa4_blackwell.startswith("rejected"):
        out.append(finding("A3", f"FlashAttention-4 on Blackwell: {att.fa4_blackwell}"))
    if att.flashinfer_head_dim.startswith("unsupported"):
        out.append(finding("A4", f"FlashInfer: {att.flashinfer_head_dim}"))
    if att.flashinfer_group.startswith("unsupported"):
        a0 = arch.first_attention()
        per_rank = []
        for r in par.tp:
            if r.valid and r.tp <= 8 and isinstance(a0, AttentionSpec):
                g = (a0.num_heads // r.tp) // max(1, r.kv_heads_per_gpu or 1)
                per_rank.append(f"TP{r.tp}: {g}")
        out.append(finding("A4", f"FlashInfer's FA2-style decode kernel: {att.flashinfer_group} (supported 1, 2, 3, "
                                 "4, 6, 8); vLLM and SGLang switch to the tensor-core decode kernel. Group per rank "
                                 + ", ".join(per_rank), severity="PERF"))
    if att.sinks:
        out.append(finding("A9", "attention sinks (a learned logit per head): upstream FlashAttention-2 has no sink "
                                 "support, so engines need sink-aware kernels (FA3 fork, Triton, TRT-LLM-gen)",
                           severity="FALLBACK"))
    if att.mla_kernel and att.mla_kernel.startswith("unsupported"):
        out.append(finding("A7", att.mla_kernel))
    spans = {k: v for k, v in att.spans.items() if k in ("sliding", "chunked")}
    if spans:
        c = max(kv.per_sequence_bytes)
        out.append(finding("A8", ", ".join(f"{v} {k} layers" for k, v in spans.items()) +
                           f"; KV policy '{kv.policy}' in use: {kv.per_sequence_bytes[c] / 2**30:.2f} GiB per "
                           f"{c:,}-token sequence" + (" (--kv-policy window caps sliding layers at their window)"
                                                      if kv.policy == "vllm-unified" else "")))
    moe = next((lay.ffn for lay in arch.layers if isinstance(lay.ffn, MoEMLP)), None)
    if moe is not None:
        bad_ep = [e for e, ok in par.ep.items() if not ok and e <= 8]
        if bad_ep:
            out.append(finding("E1", f"{moe.num_experts} expert{'s are' if moe.num_experts != 1 else ' is'} not divisible "
                                     f"by EP {_fmt_tps(bad_ep)}"))
        if par.deepep_hidden_ok is False:
            out.append(finding("E2", f"hidden {arch.hidden_size} is not a DeepEP low-latency size: engines pad it "
                                     "(e.g. 2880 → 3072 for gpt-oss) or use another all-to-all backend",
                               severity="PERF"))
        need = math.ceil(300 * moe.num_experts / moe.top_k)
        out.append(finding("E4", f"{moe.num_experts} expert{'s' if moe.num_experts != 1 else ''}, top-{moe.top_k}: each expert sees batch x "
                                 f"{moe.top_k}/{moe.num_experts} tokens; about {need:,} batched tokens reach the "
                                 "~300-token ridge point per expert"))
    bad_pp = [p for p, ok in par.pp.items() if not ok]
    if bad_pp:
        out.append(finding("P1", f"{arch.num_layers} layers are not divisible by PP {_fmt_tps(bad_pp)}"))
    heavy = {p: v for p, v in par.pp_imbalance.items() if v > 1.1 and p not in bad_pp}
    if heavy:
        out.append(finding("P1", "pipeline stages carry unequal work with vLLM's even layer split (heaviest stage / "
                                 "mean: " + ", ".join(f"PP{p} {v:.2f}x" for p, v in heavy.items()) +
                                 "); set VLLM_PP_LAYER_PARTITION by per-layer FLOPs"))
    # quantization (vLLM rows; other engines mentioned where they differ)
    tps = relevant_tps(params)
    by_fmt: dict[str, list] = {}
    for e in quant.matrix:
        if e.tp in tps:
            by_fmt.setdefault(e.format, []).append(e)
    for fmt, entries in by_fmt.items():
        vl = [e for e in entries if e.engine == "vllm"]
        bad = [e for e in vl if e.status == "not_ready" and e.rule != "T1"]
        padded = [e for e in vl if e.status == "padded"]
        other = sorted({e.engine for e in entries if e.engine != "vllm" and e.rule != "T1" and
                        e.status != next(v.status for v in vl if v.tp == e.tp)})
        tail = f" (differs on {', '.join(other)})" if other else ""
        if bad:
            ep_ok = [e.tp for e in bad if e.ep_status in ("ready", "padded")]
            ep = f"; with expert parallelism TP {_fmt_tps(ep_ok)} works" if ep_ok else ""
            out.append(finding(vl[0].rule, f"{fmt} not ready at TP {_fmt_tps([e.tp for e in bad])} (vLLM): "
                                           f"{bad[0].reason}{ep}{tail}", severity="HARD"))
        if padded:  # beside a refusal at other TPs too: the degrees that do run pay the padding or slower kernel
            out.append(finding(vl[0].rule, f"{fmt} needs padding at TP {_fmt_tps([e.tp for e in padded])} (vLLM): "
                                           f"{padded[0].reason}{tail}", severity="FALLBACK"))
    out += checkpoint_method_findings(arch)
    if quant.unquantized_share > 0.05:
        out.append(finding("Q7", f"{quant.unquantized_share:.1%} of GEMM weights ({', '.join(quant.unquantized)}) "
                                 "stay in the model's 16-bit dtype (BF16/FP16) under every recipe"))
    # KV
    kib_per_b = kv.bytes_per_token_all_layers / 1024 / max(params.active / 1e9, 1e-9) * (2.0 / _kv_b(kv.dtype))
    a = arch.first_attention()
    if isinstance(a, AttentionSpec) and a.num_kv_heads == a.num_heads and a.num_heads > 8:
        out.append(finding("R3", f"MHA ({a.num_heads} KV heads): {kv.bytes_per_token_all_layers:,} B/token at "
                                 f"{kv.dtype}, {a.num_heads // 8}x a GQA-8 model of the same width"))
    elif kib_per_b > 32:
        out.append(finding("R3", f"KV cache {kib_per_b:.0f} KiB/token per billion active parameters at BF16"))
    # memory / regimes
    fits8 = [r for r in regimes if r.prediction is not None and r.prediction.num_gpus <= 8]
    refused = [r for r in regimes if r.prediction is None and (r.refused or (r.note and " refuses " in r.note))]
    if regimes and not fits8 and not refused and arch.kind == "decoder":  # refusals have their Q or S6 finding
        out.append(finding("M1", f"weights do not fit on one 8-GPU {gpu_id} node at this precision; the regimes use "
                                 "multi-node layouts or none"))
    if arch.needs_remote_code:
        out.append(finding("S1", "auto_map present (" + ", ".join(sorted(arch.auto_map)) + "): transformers needs the "
                                 "repository's code (trust_remote_code) to run it; deploysheet read it as data only"))

    out += engine_findings(arch)
    if arch.guesses:
        out.append(finding("S2", "; ".join(arch.guesses)))
    if arch.unmodelled_keys:
        out.append(finding("S5", "config keys that may change shapes are not modelled: "
                                 + ", ".join(arch.unmodelled_keys) + "; parameter and KV figures are estimated"))
    if arch.kind != "decoder":
        out.append(finding("S3", f"{arch.kind} model: parameters, alignment and quantization are covered; decoder "
                                 "serving regimes are not"))
    out.sort(key=lambda f: SEVERITY_ORDER.get(f.severity, 9))
    return out


def engine_findings(arch: ModelArch) -> list[Finding]:
    """Rule S6: the engines whose own implementation would not run the model (scorer.engine_models): HARD when the
    engine cannot load it (no implementation and no compatible Transformers class, or removed), PERF when it falls
    back to its Transformers backend (the cost model assumes the engine's kernels), INFO for a class the engine lists
    on that backend itself or implements in a plugin."""
    from .engine_models import S6_SEVERITY, engine_support
    out = []
    for engine in ("vllm", "sglang"):
        s = engine_support(arch, engine)
        if s is None or s.status in ("native", "unknown"):
            continue
        sev = S6_SEVERITY.get(s.status, "INFO")
        tail = {"HARD": ": its commands fail" + (" until it gains an implementation (the predictions assume one)"
                                                 if s.status == "unsupported" else ""),
                "PERF": ": the predictions assume its own kernels, so expect slower steps"}.get(sev, "")
        out.append(finding("S6", s.detail + tail, severity=sev))
    return out


def _kv_b(dtype: str) -> float:
    from .kvcache import DTYPE_BYTES
    return DTYPE_BYTES.get(dtype, 2.0)


def compute_score(arch: ModelArch, params: ParamCounts, fit: HardwareFit, quant: QuantReadiness, kv: KVCache,
                  regimes: list[RegimeResult], peak_flops: float) -> Score:
    """Component scores and total (weights in data/scoring.json)."""
    cfg = load_json("scoring.json")
    w = cfg["weights"]
    comps: list[Component] = []

    # alignment
    credit = cfg["alignment"]["credit"]
    tp1 = [g for g in fit.gemms if g.tp == 1]
    tot = sum(g.flop_share for g in tp1) or 1.0
    acc = 0.0
    worst = []
    for g in tp1:
        m = min(g.k_multiple, g.n_multiple)
        key = "256" if m >= 256 else "128" if m >= 128 else "64" if m >= 64 else "8" if m >= 8 else "misaligned"
        c = credit[key]
        acc += g.flop_share * c
        if c < 1.0:
            worst.append(f"{g.name} x{m} ({g.flop_share:.0%} of FLOPs) → {c:g}")
    align_credit = acc / tot
    eff = fit.flop_weighted_efficiency.get(1, 1.0)
    v = align_credit * eff
    comps.append(Component(name="alignment", weight=w["alignment"], value=round(v, 4),
                           points=round(v * w["alignment"], 2),
                           details=[f"FLOP-weighted alignment credit {align_credit:.3f}",
                                    f"x tile/wave efficiency at M=8192 on {fit.gpu}: {eff:.3f}", *worst[:4]]))

    # parallelism
    pc = cfg["parallelism"]["credit"]
    rows = [r for r in fit.parallelism.tp if r.tp in (2, 4, 8)]
    vals = []
    det = []
    for r in rows:
        c = 0.0 if not r.valid else pc["replicated"] if (r.kv_mode == "replicated" and r.kv_replication > 1 and
                                                           isinstance(arch.first_attention(), AttentionSpec)) \
            else pc["split"]
        vals.append(c)
        det.append(f"TP{r.tp}: {'valid' if r.valid else 'invalid'}, KV {r.kv_mode} → {c:g}")
    v = sum(vals) / len(vals) if vals else 1.0
    if fit.parallelism.ep and not fit.parallelism.ep.get(8, True):
        v *= cfg["parallelism"]["moe_ep8_penalty"]
        det.append(f"experts not divisible by EP 8 → x{cfg['parallelism']['moe_ep8_penalty']}")
    comps.append(Component(name="parallelism", weight=w["parallelism"], value=round(v, 4),
                           points=round(v * w["parallelism"], 2), details=det))

    # quantization
    qc = cfg["quantization"]
    sel = [e for e in quant.matrix if e.format in qc["formats"] and e.engine == "vllm" and e.tp in (1, 2, 4, 8)]
    v = sum(qc["credit"][e.status] for e in sel) / len(sel) if sel else 1.0
    det = []
    for fmt in qc["formats"]:
        ent = [e for e in sel if e.format == fmt]
        det.append(f"{fmt}: " + " ".join(f"TP{e.tp}={e.status}" for e in ent))
    comps.append(Component(name="quantization", weight=w["quantization"], value=round(v, 4),
                           points=round(v * w["quantization"], 2), details=det))

    # attention / KV
    att = fit.attention
    det = []
    if att.mechanism == "none":
        head = group = 1.0
    elif att.mechanism == "mla":
        head = 1.0 if att.mla_kernel and att.mla_kernel.startswith("ok") else 0.5
        group = 1.0
        det.append(f"MLA kernel: {att.mla_kernel}")
    else:
        head = (att.fa2_efficiency or 0.0) * (1.0 if att.flashinfer_head_dim == "ok" else 0.7) * \
            (1.0 if att.fa4_blackwell.startswith("ok") else 0.8)
        group = 1.0 if att.flashinfer_group == "ok" else 0.5
        det.append(f"head_dim {att.head_dim}: FA2 {att.fa2}, FlashInfer {att.flashinfer_head_dim}, "
                   f"FA4/Blackwell {att.fa4_blackwell} → {head:.2f}")
        det.append(f"GQA group {att.gqa_group}: {att.flashinfer_group} → {group:g}")
    kv_bf16 = kv.bytes_per_token_all_layers * (2.0 / _kv_b(kv.dtype))
    kib_per_b = kv_bf16 / 1024 / max(params.active / 1e9, 1e-9)
    full = cfg["attention_kv"]["kv_kib_per_billion_full_credit"]
    kvs = 1.0 if kib_per_b <= full else max(0.0, 1.0 - 0.25 * math.log2(kib_per_b / full))
    det.append(f"KV {kib_per_b:.1f} KiB/token per billion active params (16-bit equivalent) → {kvs:.2f}")
    v = 0.4 * head + 0.2 * group + 0.4 * kvs
    comps.append(Component(name="attention_kv", weight=w["attention_kv"], value=round(v, 4),
                           points=round(v * w["attention_kv"], 2), details=det))

    # serving economics
    thr = next((r for r in regimes if r.id == "throughput"), None)
    mfu = None
    if thr is not None and thr.prediction is not None and thr.prediction.output_tokens_per_s_per_gpu:
        mfu = thr.prediction.output_tokens_per_s_per_gpu * 2 * params.active / peak_flops
        v = min(1.0, mfu / cfg["serving_economics"]["mfu_full_credit"])
        lay = thr.prediction
        det = [f"throughput regime ({thr.precision} {lay.layout} on {thr.gpu}: the sheet's options, so --gpu, "
               f"--precision, --framework and --tp move this term): {thr.prediction.output_tokens_per_s_per_gpu:,.0f} "
               f"tok/s/GPU x 2 x {params.active / 1e9:.2f}B active / peak = MFU {mfu:.3f}"]
    else:
        v = 0.0
        det = ["no throughput prediction (does not fit, or the engine refuses the format)"]
    if arch.kind != "decoder":  # serving regimes do not apply (rule S3): no serving score, the others scale to 100
        rest = sum(c.weight for c in comps)
        for c in comps:
            c.weight = round(c.weight * 100.0 / rest, 2) if rest else c.weight
            c.points = round(c.value * c.weight, 2)
        comps.append(Component(name="serving_economics", weight=0.0, value=0.0, points=0.0,
                               details=[f"{arch.kind} model: decoder serving regimes do not apply (rule S3); its "
                                        "weight is spread over the other components"]))
    else:
        comps.append(Component(name="serving_economics", weight=w["serving_economics"], value=round(v, 4),
                               points=round(v * w["serving_economics"], 2), details=det))

    total = round(sum(c.points for c in comps), 1)
    grade = next(g for thr_, g in cfg["grades"] if total >= thr_)
    return Score(total=total, grade=grade, components=comps, provisional=arch.layout_guessed)
