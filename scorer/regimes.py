"""Serving predictions: one workload (ISL, OSL, concurrency) on one layout, and the four regimes.

Continuous-batching model (steady state, closed loop of C users):

* decode step ``t_dec(C, c̄)`` at the mean context c̄ = ISL + OSL/2 (:meth:`CostModel.decode_step`);
* TTFT, TPOT and tokens/s/GPU from :func:`scorer.costmodel.serve` (prefill interference on TPOT,
  queueing behind simultaneous prefills in TTFT and the closed loop's wait for the engine's prefill work once the
  prompts fill it, Little's law for throughput), with the calibrated ``tpot_interference`` and ``ttft_queue``;
* tokens/s/user = 1000 / TPOT[ms];
* memory fit: weights + C/dp sequences per GPU (each attention-DP rank holds its share) of ISL + OSL/2 tokens
  of KV (the mean context of a steady closed loop) ≤ the framework's KV budget; beyond it the engine
  queues requests (their wait goes into TTFT);
* ``concurrency="max"``: the batch with the most tokens/s/GPU (:func:`max_throughput_batch`);
* $ per 1M output tokens = $/GPU-hour / (tokens/s/GPU · 3600) · 1e6.
"""

from __future__ import annotations

from typing import Any, Literal, NamedTuple

from pydantic import BaseModel, Field

from .costmodel import CostModel, Layout, serve_constants, serve_point
from .hardware import GIB
from .memo import MIB, ByteLRU
from .resources import load_json


class StepBreakdown(BaseModel):
    """One step's time by part, ms (the parts add up to ``total``)."""

    gemm: float
    attention: float
    comm_intra_node: float = Field(description="collectives inside the scale-up domain (NVLink / XGMI / PCIe)")
    comm_inter_node: float = Field(description="collectives and pipeline hops between domains (scale-out NICs)")
    overhead: float = Field(description="per-step scheduler/launch overhead and per-GEMM launch latency")
    draft: float = Field(0.0, description="speculative decoding: drafting, per emitted token")
    total: float


def step_breakdown(parts: dict[str, float]) -> StepBreakdown:
    """A :func:`scorer.costmodel.step_time` result (seconds) as a :class:`StepBreakdown` (ms)."""
    return StepBreakdown(gemm=round(parts["gemm"] * 1e3, 4), attention=round(parts["attention"] * 1e3, 4),
                         comm_intra_node=round(parts["comm_intra"] * 1e3, 4),
                         comm_inter_node=round(parts["comm_inter"] * 1e3, 4),
                         overhead=round(parts["overhead"] * 1e3, 4), draft=round(parts.get("draft", 0.0) * 1e3, 4),
                         total=round(parts["total"] * 1e3, 4))


class Prediction(BaseModel):
    layout: str
    tp: int
    pp: int = 1
    ep: int = 1
    dp: int = Field(1, description="attention data-parallel ranks (GPUs = TP x PP x DP)")
    num_gpus: int
    isl: int
    osl: int
    concurrency: int
    fits: bool = Field(description="the concurrency's KV fits at each sequence's mean occupancy, ISL + OSL/2 tokens")
    memory_per_gpu_gib: float = Field(description="weights + KV for the concurrency (sequences at ISL + OSL/2 "
                                                  "tokens) + runtime reserve, GiB")
    weights_per_gpu_gib: float
    kv_per_gpu_gib: float
    ttft_ms: float | None
    tpot_ms: float | None
    tokens_per_s_per_user: float | None
    output_tokens_per_s_per_gpu: float | None
    bound: str | None
    usd_per_1m_output_tokens: float | None = None
    max_concurrency: int = Field(description="sequences that fit on this layout at their mean occupancy, "
                                             "ISL + OSL/2 tokens of KV each (a steady closed loop's running "
                                             "sequences are spread over their decode; engines page KV as tokens "
                                             "arrive and preempt when they run out)")
    nodes: int = Field(1, description="servers the layout spans (the catalog's node_gpus per server)")
    scaleup_domains: int = Field(1, description="scale-up (NVLink/XGMI) domains the layout spans; above 1 its "
                                                "collectives cross the scale-out network")
    breakdown: dict[str, StepBreakdown] | None = Field(
        None, description="decode: one decode step at the running batch; prefill: one request's prefill (ms)")

    @property
    def layout_spec(self) -> Layout:
        """The :class:`~scorer.costmodel.Layout` this prediction ran (attention DP ranks = GPUs / (TP x PP))."""
        return Layout(tp=self.tp, pp=self.pp, ep=self.ep, dp=max(1, self.num_gpus // (self.tp * self.pp)))
    queued: int = Field(0, description="requests waiting because their KV cache does not fit (concurrency beyond "
                                       "max_concurrency): their wait is in TTFT")


def max_note(p: Prediction) -> str | None:
    if p.max_concurrency > p.concurrency:
        return (f"concurrency {p.concurrency:,} chosen: {p.max_concurrency:,} sequences fit, but larger batches add "
                "less than 1% tokens/s/GPU")
    return None


class RegimeResult(BaseModel):
    id: str
    title: str
    why: str
    isl: int
    osl: int
    concurrency: str = Field(description="as requested: a number or 'max'")
    gpu: str
    precision: str
    prediction: Prediction | None
    note: str | None = None
    candidates: list[Prediction] = Field(default_factory=list, description="best prediction per TP degree tried")
    launch: Any = Field(None, description="scorer.launch.LaunchCommand that realizes the prediction, when made")
    refused: bool = Field(False, description="the engine refuses every layout tried (note: the first refusal)")


def regime_defs() -> list[dict]:
    return list(load_json("regimes.json")["regimes"])


def predict(cm: CostModel, isl: int, osl: int, concurrency: int | Literal["max"],
            usd_per_gpu_hour: float | None = None, max_requests: int | None = None,
            engine_choice: bool = False, wave_share: float = 0.0) -> Prediction:
    """Predict TTFT, TPOT, tokens/s for one workload on the layout of ``cm`` (see module docstring).

    ``concurrency="max"``: the batch with the most throughput that fits (the smallest within 1% of it).
    With ``engine_choice`` (a measured max-throughput run, whose batch the engine picked and the source
    does not state), the rule the calibration was fitted with instead: from the memory limit, halve while
    throughput holds within 1%. ``max_requests`` bounds the batch a ``max`` run can reach: a benchmark that
    issues N requests in all never runs more than N at once, whatever fits. ``wave_share``: the share of a
    benchmark's requests that arrive in its opening wave (:func:`scorer.costmodel.serve`; 0 = steady state)."""
    # in a steady closed loop the running sequences are spread over their decode: on average ISL + OSL/2 tokens
    # of KV each (engines allocate pages as tokens arrive, and preempt when they run out)
    ctx = isl + (osl + 1) // 2
    cap = int(load_json("regimes.json")["max_concurrency_cap"])
    max_c = cm.max_concurrency(ctx)
    if concurrency == "max":
        if max_c < 1:
            return _no_fit(cm, isl, osl, 1, max_c)
        cap *= cm.layout.dp  # the search cap holds per engine: each attention-DP rank schedules its own batch
        top = min(max_c, cap, max_requests or cap, cm.admission_cap() or cap)
        if engine_choice:
            return _engine_max(cm, isl, osl, top, max_c, usd_per_gpu_hour, wave_share)
        batch = max_throughput_batch(cm, isl, osl, top, max_c, usd_per_gpu_hour, wave_share)
        return _predict_one(cm, isl, osl, batch, max_c, usd_per_gpu_hour, wave_share)
    return _predict_one(cm, isl, osl, int(concurrency), max_c, usd_per_gpu_hour, wave_share)


def with_breakdown(cm: CostModel, p: Prediction) -> Prediction:
    """``p`` with its per-step :class:`StepBreakdown` (decode at the running batch, one request's prefill); kept
    out of the regimes and sweeps, which make thousands of predictions and show none of them."""
    if p.tpot_ms is None:
        return p
    running = cm.running(p.concurrency, p.max_concurrency)
    dec = cm.decode_step(running, p.isl + p.osl / 2)
    return p.model_copy(update={"breakdown": {"decode": step_breakdown(dec),
                                              "prefill": step_breakdown(cm.prefill(cm.layout.dp, p.isl))}})


def max_throughput_batch(cm: CostModel, isl: int, osl: int, top: int, max_c: int, price: float | None,
                         wave_share: float = 0.0) -> int:
    """The batch of ``concurrency="max"``: the most output tokens/s/GPU, the smallest batch within 1% of it.

    Candidates: ``top`` (the memory limit or cap) and the powers of two below it, walking down until
    throughput falls 3% under the best seen (throughput rises with the batch to a plateau or peak, then
    only falls going down); then the three multiples of 64 on each side of the best of those (within
    half to 1.5 times it), because GEMM tile quantization makes throughput step at M = 64 x k, so a batch
    just under a step can beat both neighbouring powers of two. The 3% and 1% margins are design choices
    (assumptions), not measured. Returns a batch in sequences, 1 <= batch <= ``top``.
    """
    seen: dict[int, float] = {}

    def tps(c: int) -> float:
        if c not in seen:
            seen[c] = _evaluate(cm, isl, osl, c, max_c, price, wave_share)["tps_gpu"]
        return seen[c]

    best = tps(top)
    for c in sorted((1 << k for k in range(top.bit_length()) if 1 << k < top), reverse=True):
        best = max(best, tps(c))
        if tps(c) < 0.97 * best:
            break
    b = max(seen, key=lambda c: (seen[c], -c))
    near = (b // 64 + k for k in (-3, -2, -1, 1, 2, 3))
    for c in (64 * j for j in near):
        if b // 2 <= c <= b + b // 2 and 0 < c < top:
            tps(c)
    best = max(seen.values())
    return min(c for c, v in seen.items() if v >= 0.99 * best)


def _engine_max(cm: CostModel, isl: int, osl: int, top: int, max_c: int, price: float | None,
                wave_share: float = 0.0) -> Prediction:
    best = _predict_one(cm, isl, osl, top, max_c, price, wave_share)
    c = top
    while c > 1:
        c = max(1, c // 2)
        p = _predict_one(cm, isl, osl, c, max_c, price, wave_share)
        if (p.output_tokens_per_s_per_gpu or 0) >= 0.99 * (best.output_tokens_per_s_per_gpu or 0):
            best = p  # as good (or better) with a smaller batch
        else:
            break
    return best


def _no_fit(cm: CostModel, isl: int, osl: int, c: int, max_c: int) -> Prediction:
    w = cm.weights_per_gpu()
    kv = -(-c // cm.layout.dp) * cm.kv_bytes_per_sequence(isl + osl)  # each DP rank holds its share
    mem = (w + kv) / GIB + cm.p["runtime_reserve_gib"]
    lay = cm.layout
    return Prediction(layout=lay.label, tp=lay.tp, pp=lay.pp, ep=lay.ep, dp=lay.dp, num_gpus=lay.num_gpus, isl=isl,
                      osl=osl,
                      concurrency=c, fits=False, memory_per_gpu_gib=round(mem, 2), weights_per_gpu_gib=round(w / GIB, 2),
                      kv_per_gpu_gib=round(kv / GIB, 2), ttft_ms=None, tpot_ms=None, tokens_per_s_per_user=None,
                      output_tokens_per_s_per_gpu=None, bound=None, max_concurrency=max(0, max_c),
                      nodes=cm.topology.nodes(lay.num_gpus), scaleup_domains=cm.topology.domains(lay.num_gpus))


def _predict_one(cm: CostModel, isl: int, osl: int, c: int, max_c: int, price: float | None,
                 wave_share: float = 0.0) -> Prediction:
    memo = cm._predictions
    key = (isl, osl, c, max_c, price, wave_share)
    hit = memo.get(key)
    if hit is None:  # regimes and the Pareto sweep ask for the same points
        hit = memo[key] = _predict_uncached(cm, isl, osl, c, max_c, price, wave_share)
    return hit


def _evaluate(cm: CostModel, isl: int, osl: int, c: int, max_c: int, price: float | None,
              wave_share: float = 0.0) -> dict:
    """Raw numbers of one workload point (seconds, bytes; memoized per cost model); ``wave_share``: see
    :func:`scorer.costmodel.serve`."""
    memo = cm._evaluations
    key = (isl, osl, c, max_c, price, wave_share)
    hit = memo.get(key)
    if hit is not None:
        return hit
    k = cm._serve_k
    if k is None:  # per cost model: the serve() parameter terms, DP ranks, GPUs, admission cap
        k = cm._serve_k = (serve_constants(cm.p), cm.layout.dp, cm.layout.num_gpus, cm.admission_cap())
    # = cm.running(c, max_c): what its KV cache holds and its max-num-seqs admit; the rest wait in its queue
    run = min(c, max_c) if max_c >= 1 else c
    cap = k[3]
    running = max(1, min(run, cap)) if cap else run
    ctx = isl + osl / 2
    hit = cm._dec_parts.get((running, ctx))  # = cm.decode_step(...)["total"] (its breakdown: _predict_uncached)
    t_dec = (hit if hit is not None else cm.decode_parts(running, ctx))[0]
    t_pre, t_marg = cm._pre_cache.get(isl) or cm.prefill_times(isl)
    # = serve(t_dec, t_pre, t_marg, running / dp, osl, num_gpus, running, cm.p, isl, wave_share)
    ttft, tpot, tps_gpu = serve_point(k[0], t_dec, t_pre, t_marg, running / k[1], osl, k[2], running, isl, wave_share)
    if c > running:
        # closed loop, Little's law: a request's whole latency grows by c / running
        latency = ttft + max(osl - 1, 0) * tpot
        ttft += latency * (c / running - 1)
    memo[key] = out = {"running": running, "ttft": ttft, "tpot": tpot, "tps_gpu": tps_gpu,
                       "usd": price / (tps_gpu * 3600) * 1e6 if price else None}
    return out


def _predict_uncached(cm: CostModel, isl: int, osl: int, c: int, max_c: int, price: float | None,
                      wave_share: float = 0.0) -> Prediction:
    if max_c < 1:
        return _no_fit(cm, isl, osl, c, max_c)
    e = _evaluate(cm, isl, osl, c, max_c, price, wave_share)
    running, ttft, tpot, tps_gpu, usd = e["running"], e["ttft"], e["tpot"], e["tps_gpu"], e["usd"]
    k = cm._pred_k
    if k is None:  # per cost model: the layout's fields, its weights and spans
        lay = cm.layout
        w = cm.weights_per_gpu()
        k = cm._pred_k = (lay.label, lay.tp, lay.pp, lay.ep, lay.num_gpus, lay.dp, w, round(w / GIB, 2),
                          cm.p["runtime_reserve_gib"], cm.topology.nodes(lay.num_gpus),
                          cm.topology.domains(lay.num_gpus))
    label, tp, pp, ep, num_gpus, dp, w, w_gib, reserve, nodes, domains = k
    kv = -(-running // dp) * cm.kv_bytes_per_sequence(isl + (osl + 1) // 2)  # sequences of one DP rank
    mem = (w + kv) / GIB + reserve
    return Prediction(layout=label, tp=tp, pp=pp, ep=ep, dp=dp, num_gpus=num_gpus, isl=isl, osl=osl,
                      concurrency=c, fits=c <= max_c, queued=max(0, c - running), memory_per_gpu_gib=round(mem, 2),
                      weights_per_gpu_gib=w_gib, kv_per_gpu_gib=round(kv / GIB, 3),
                      ttft_ms=round(ttft * 1e3, 3), tpot_ms=round(tpot * 1e3, 3),
                      tokens_per_s_per_user=round(1.0 / tpot, 2), output_tokens_per_s_per_gpu=round(tps_gpu, 2),
                      bound=cm.decode_bound(running, isl + osl / 2),
                      usd_per_1m_output_tokens=round(usd, 4) if usd else None,
                      max_concurrency=max_c, nodes=nodes, scaleup_domains=domains)


#: (id(arch), tp) -> (weak reference to the arch, valid): the weak reference checks that the id still names that
#: arch without keeping it alive (a stale entry is a miss and ages out); an entry costs about 300 bytes
_VALID = ByteLRU("regimes.valid_tp", 1 * MIB)


def valid_tp(arch, tp: int) -> bool:
    """TP degrees engines accept (rules T1, T2 and the recurrent mixers' head splits); memoized per arch."""
    hit = _VALID.get_for(arch, (id(arch), tp))
    if hit is not None:
        return hit
    from .fit import tp_valid
    return _VALID.put_for(arch, (id(arch), tp), tp_valid(arch, tp))


def layout_problem(arch, tp: int, pp: int = 1, ep: int = 1, dp: int = 1) -> str | None:
    """Why engines would not run this layout, or None. Checks: TP against the heads (rules T1, T2), PP
    at most one stage per layer, EP only for MoE experts, on the GPUs of the attention TP x DP group
    (vLLM's expert-parallel size is TP x DP; TensorRT-LLM's moe_tp x moe_ep = tp), at most one expert
    per GPU short of the expert count."""
    if not valid_tp(arch, tp):
        att = arch.first_attention()
        heads = f"{att.num_heads} heads / {getattr(att, 'num_kv_heads', att.num_heads)} KV heads" if att else ""
        return f"TP {tp} is not valid for this model{': ' + heads if heads else ''} (rules T1, T2)"
    if pp > arch.num_layers:
        return f"PP {pp} exceeds the model's {arch.num_layers} layers"
    if ep > 1:
        experts = max((lay.ffn.num_experts for lay in arch.layers if getattr(lay.ffn, "kind", "") == "moe"),
                      default=0)
        if not experts:
            return f"EP {ep} needs MoE experts; this model has none"
        if (tp * dp) % ep:
            return f"EP {ep} must divide the TP x DP = {tp * dp} GPUs the experts are spread over"
        if ep > experts:
            return f"EP {ep} exceeds the model's {experts} experts"
    return None


def layout_alternatives(arch, tp: int, pp: int, ep: int, dp: int) -> str:
    """The nearest layouts of a refused one that pass :func:`scorer.regimes.layout_problem`, changing one degree at
    a time: TP degrees closest to ``tp`` (on a log scale), the deepest PP at most the layers, EP 1 or the EP degrees
    the TP x DP GPUs and the experts allow. Whether the engine then runs them at a precision is its own check."""
    import math

    from .quant import DEFAULT_TPS
    near = lambda xs, x: sorted(xs, key=lambda t: (abs(math.log2(t / x)), t))  # noqa: E731
    parts = []
    tps = [t for t in near([t for t in DEFAULT_TPS if t != tp], tp) if not layout_problem(arch, t, pp, 1, dp)][:3]
    if layout_problem(arch, tp, 1, 1, dp) and tps:
        parts.append("TP " + ", ".join(map(str, tps)))
    if pp > arch.num_layers and not layout_problem(arch, tp, arch.num_layers, ep, dp):
        parts.append(f"PP up to {arch.num_layers}")
    if ep > 1 and layout_problem(arch, tp, pp, ep, dp) and not layout_problem(arch, tp, pp, 1, dp):
        eps = [e for e in near([e for e in range(2, tp * dp + 1) if e != ep], ep) if not layout_problem(arch, tp, pp,
                                                                                                         e, dp)][:3]
        parts.append("EP 1 (experts split by TP)" + (f", EP {', '.join(map(str, eps))}" if eps else "")
                     if arch.is_moe else "no --ep (a dense model has no experts to spread)")
    return ("nearest that pass: " + "; ".join(parts)) if parts else "no nearby layout passes"


def replicated_kv(arch, tp: int) -> bool:
    """Whether TP ``tp`` would store the same KV cache on several ranks: an MLA (or compressed) latent is one per
    token on every rank; attention with fewer KV heads than ranks replicates each head."""
    from .architecture import AttentionSpec
    att = arch.first_attention()
    if att is None:
        return False
    return not isinstance(att, AttentionSpec) or att.num_kv_heads < tp


def staged_layouts(arch, tps: list[int], moe: bool = False) -> list[Layout]:
    """Half the largest single-node TP of ``tps`` in two pipeline stages on that node (TP4·PP2, and TP4·EP4·PP2 for
    MoE experts when ``moe``): the other way to spread a model over one node, with fewer ranks per all-reduce and a
    stage hop instead (vLLM and SGLang run pipeline stages on one node). Empty where the half TP is not valid."""
    top = max(tps) if tps else 1
    half = top // 2
    if top <= 2 or arch.num_layers < 2 or not valid_tp(arch, half):
        return []
    return [Layout(tp=half, pp=2)] + ([Layout(tp=half, ep=half, pp=2)] if moe else [])


def multinode_layouts(arch, tps: list[int], moe: bool = False) -> list[Layout]:
    """The layouts tried when no single stage of one node holds the model (``data/regimes.json``): the one-node
    pipeline stages of :func:`staged_layouts`, TP across nodes (with EP = TP for MoE experts when ``moe``), and the
    largest single-node TP of ``tps`` times PP stages (with EP = that TP for MoE experts)."""
    doc = load_json("regimes.json")
    top = max(tps) if tps else 1
    pps = [p for p in doc["pp_degrees_multinode"] if p <= arch.num_layers]
    out = staged_layouts(arch, tps, moe)
    out += [Layout(tp=t) for t in doc["tp_degrees_multinode"] if valid_tp(arch, t)]
    if moe:
        out += [Layout(tp=t, ep=t) for t in doc["tp_degrees_multinode"] if valid_tp(arch, t)]
    out += [Layout(tp=top, pp=p) for p in pps]
    if moe:
        out += [Layout(tp=top, ep=top, pp=p) for p in pps]
    return out


def candidate_layouts(make_cm, arch, tp_fixed: int | None = None) -> list[Layout]:
    """Layouts the regimes and the sweep try: every valid TP of one node, EP = TP for MoE experts, and for an MoE
    model whose KV TP would replicate, attention DP x EP (:func:`replicated_kv`); when the model needs more than
    2 GPUs, half the node's TP in two pipeline stages on that node (:func:`staged_layouts`); when no single stage
    holds it, those and the multi-node layouts (:func:`multinode_layouts`)."""
    doc = load_json("regimes.json")

    def runs(lay: Layout) -> bool:  # only what the engine runs (the readiness matrix's refusals are skipped)
        return make_cm(lay).engine_blocker() is None

    if tp_fixed:
        # TP fixed by the user: with the experts split by TP and, for MoE, whole on each rank (EP = TP), as the
        # unfixed search tries; PP stages of that TP where no single stage holds the model, or where they are the
        # unfixed search's one-node staged layouts
        eps = [1] + ([tp_fixed] if arch.is_moe and tp_fixed > 1 else [])
        fixed = [lay for lay in (Layout(tp=tp_fixed, ep=e) for e in eps) if runs(lay)]
        tps = [t for t in doc["tp_degrees"] if valid_tp(arch, t)]
        fits = [lay for lay in fixed if make_cm(lay).max_concurrency(2048) >= 1]
        if fixed and not fits:
            fixed += [lay for lay in (Layout(tp=tp_fixed, ep=e, pp=p) for p in doc["pp_degrees_multinode"]
                                      if p <= arch.num_layers for e in {lay.ep for lay in fixed}) if runs(lay)]
        elif fits and tp_fixed > 1:
            small = [t for t in tps if any(make_cm(Layout(tp=t, ep=e)).max_concurrency(2048) >= 1
                                           for e in ([1, t] if arch.is_moe and t > 1 else [1]))]
            if small and min(small) > 2:  # the model needs more than 2 GPUs: the one-node staged layouts too
                fixed += [lay for lay in staged_layouts(arch, tps, arch.is_moe) if lay.tp == tp_fixed and runs(lay)]
        return [lay for lay in fixed if layout_problem(arch, lay.tp, lay.pp, lay.ep, lay.dp) is None]
    tps = [t for t in doc["tp_degrees"] if valid_tp(arch, t)]
    layouts = [Layout(tp=t) for t in tps]
    # the answer depends only on the cost models make_cm returns: memoized on the first one (run_regimes and sweep
    # ask for the same GPU and precision in turn)
    first = make_cm(layouts[0]) if layouts else None
    memo = first.__dict__.get("_candidates") if first is not None else None
    if memo is not None and memo[0] is arch:
        return list(memo[1])
    moe = arch.is_moe
    if moe:
        layouts += [Layout(tp=t, ep=t) for t in tps if t > 1]
        # attention data parallelism with expert parallelism (vLLM --data-parallel-size with
        # --enable-expert-parallel, SGLang --enable-dp-attention): each GPU runs attention for its own sequences
        # and holds only their KV, where tensor parallelism would replicate it on every rank (an MLA latent, or
        # fewer KV heads than ranks)
        layouts += [Layout(tp=1, ep=t, dp=t) for t in tps if t > 1 and replicated_kv(arch, t)]
    layouts = [lay for lay in layouts if runs(lay)]
    fitting = [lay.num_gpus for lay in layouts if make_cm(lay).max_concurrency(2048) >= 1]
    if not fitting:
        layouts += multinode_layouts(arch, tps, moe)
    elif min(fitting) > 2:  # a model that needs more than 2 GPUs: one node's pipeline stages too
        layouts += staged_layouts(arch, tps, moe)
    out = [lay for lay in layouts if layout_problem(arch, lay.tp, lay.pp, lay.ep, lay.dp) is None and runs(lay)]
    if first is not None:
        first._candidates = (arch, tuple(out))
    return out


def refused_note(make_cm, arch, tp_fixed: int | None = None) -> str | None:
    """When the engine refuses every single-node layout (or ``tp_fixed``): the first refusal, else None."""
    tps = [tp_fixed] if tp_fixed else [t for t in load_json("regimes.json")["tp_degrees"] if valid_tp(arch, t)]
    blockers = [make_cm(Layout(tp=t)).engine_blocker() for t in tps]
    if tps and all(blockers):
        return blockers[0] + (f" (and at every TP tried: {', '.join(map(str, tps))})" if len(tps) > 1 else "")
    return None


def run_regimes(make_cm, arch, gpu_id: str, precision: str, usd_per_gpu_hour: float | None,
                tp_fixed: int | None = None) -> list[RegimeResult]:
    """Evaluate every regime of ``data/regimes.json``, choosing the best candidate layout per regime.

    ``make_cm(Layout) -> CostModel`` builds a cost model for a layout.
    """
    models = {lay.label: make_cm(lay) for lay in candidate_layouts(make_cm, arch, tp_fixed)}
    refused = refused_note(make_cm, arch, tp_fixed) if not models else None
    out = []
    for r in load_json("regimes.json")["regimes"]:
        isl, osl = r["isl"], r["osl"]
        note = None
        if arch.context_limit and isl + osl > arch.context_limit:
            out.append(RegimeResult(id=r["id"], title=r["title"], why=r["why"], isl=isl, osl=osl,
                                    concurrency=str(r["concurrency"]), gpu=gpu_id, precision=precision,
                                    prediction=None, note=f"context {isl + osl:,} exceeds {arch.context_label}: "
                                                          "not applicable"))
            continue
        cands = [predict(cm, isl, osl, r["concurrency"], usd_per_gpu_hour) for cm in models.values()]
        fitting = [p for p in cands if p.fits]
        if refused:
            note = refused
            best = None
        elif not fitting:
            note = "does not fit at any layout tried (" + ", ".join(models) + ")"
            best = None
        elif r["objective"] == "min_tpot":
            best = min(fitting, key=lambda p: p.tpot_ms)
        else:
            best = max(fitting, key=lambda p: p.output_tokens_per_s_per_gpu)
        if best is not None and r["concurrency"] == "max":
            note = max_note(best)
        out.append(RegimeResult(id=r["id"], title=r["title"], why=r["why"], isl=isl, osl=osl,
                                concurrency=str(r["concurrency"]), gpu=gpu_id, precision=precision, prediction=best,
                                note=note, candidates=cands, refused=bool(refused)))
    return out


class SweepPoint(NamedTuple):
    """One (layout, concurrency) of a sweep: the numbers the frontier and the SLA search need."""

    layout: str
    tp: int
    ep: int
    pp: int
    concurrency: int
    max_concurrency: int
    fits: bool
    ttft_ms: float
    tpot_ms: float
    tokens_per_s_per_user: float
    output_tokens_per_s_per_gpu: float
    #: attention data-parallel ranks (TP x PP x DP GPUs in all)
    dp: int = 1


class Frontier(BaseModel):
    gpu: str
    precision: str
    isl: int
    osl: int
    points: list[SweepPoint] = Field(description="every (layout, concurrency) evaluated")
    pareto: list[Prediction] = Field(description="non-dominated points: no other has both more tokens/s/user and "
                                                 "more tokens/s/GPU; sorted by tokens/s/user")
    note: str | None = Field(None, description="why the frontier is empty, when it is")


#: concurrencies of the frontier sweep: powers of two
SWEEP_CONCURRENCIES = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)
#: concurrencies of the SLA and compare searches: powers of two and 1.5x between them, so the pick is
#: within about a third of the best batch for the targets (a 2x grid could miss it by half)
SLA_CONCURRENCIES = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024)


def sweep(make_cm, arch, isl: int, osl: int, usd_per_gpu_hour: float | None,
          concurrencies=SWEEP_CONCURRENCIES, tp_fixed: int | None = None
          ) -> list[SweepPoint]:
    """Every candidate layout (:func:`candidate_layouts`; only TP ``tp_fixed`` when given) x concurrency
    that fits, and each layout's full batch (the sequences its KV cache holds, at most its admission cap) beyond
    the grid's last point: the frontier's most throughput-bound end is the one ``--concurrency max`` runs."""
    out = []
    top_cap = int(load_json("regimes.json")["max_concurrency_cap"])
    for lay in candidate_layouts(make_cm, arch, tp_fixed):
        cm = make_cm(lay)
        max_c = cm.max_concurrency(isl + (osl + 1) // 2)
        if max_c < 1:
            continue
        label, tp, ep, pp, dp = lay.label, lay.tp, lay.ep, lay.pp, lay.dp
        # the full batch predict's --concurrency max reaches: memory, the engine's admission cap, the global cap
        rank_cap = top_cap * dp  # per attention-DP rank, as predict's --concurrency max
        full = min(max_c, rank_cap, cm.admission_cap() or rank_cap)
        grid = [c for c in concurrencies if c <= max_c]
        if grid and full > grid[-1]:
            grid.append(full)
        for c in grid:
            e = _evaluate(cm, isl, osl, c, max_c, usd_per_gpu_hour)
            tpot = e["tpot"]
            out.append(_new_point(SweepPoint, (label, tp, ep, pp, c, max_c, True, e["ttft"] * 1e3, tpot * 1e3,
                                               1.0 / tpot, e["tps_gpu"], dp)))
    return out


_new_point = tuple.__new__  # SweepPoint(*fields) without the NamedTuple's Python-level __new__


def to_prediction(make_cm, point: SweepPoint, isl: int, osl: int, usd_per_gpu_hour: float | None) -> Prediction:
    """The full :class:`Prediction` of a sweep point (memoized on its cost model)."""
    cm = make_cm(Layout(tp=point.tp, ep=point.ep, pp=point.pp, dp=point.dp))
    return _predict_one(cm, isl, osl, point.concurrency, point.max_concurrency, usd_per_gpu_hour)


def pareto(points: list) -> list:
    """Points not dominated in (tokens/s/user, output tokens/s/GPU), sorted by tokens/s/user."""
    pts = sorted((p for p in points if p.fits and p.tokens_per_s_per_user), key=lambda p: (
        -p.tokens_per_s_per_user, -p.output_tokens_per_s_per_gpu))
    front, best = [], -1.0
    for p in pts:
        if p.output_tokens_per_s_per_gpu > best:
            front.append(p)
            best = p.output_tokens_per_s_per_gpu
    return sorted(front, key=lambda p: p.tokens_per_s_per_user)


def cheapest_meeting(points: list, ttft_ms: float | None, itl_ms: float | None):
    """The point with the most tokens/s/GPU (the lowest $/token) meeting the TTFT and ITL targets."""
    ok = [p for p in points if p.fits and (ttft_ms is None or p.ttft_ms <= ttft_ms)
          and (itl_ms is None or p.tpot_ms <= itl_ms)]
    return max(ok, key=lambda p: p.output_tokens_per_s_per_gpu, default=None)
