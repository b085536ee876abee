"""The buyer's due-diligence comparison: several models side by side for one workload (``deploysheet compare``).

For every model this builds its sheet (:func:`scorer.sheet.build_sheet`, without the what-if search) for the
parameters, memory, KV cache, quantization readiness and provenance, then, on every GPU compared, sweeps the
candidate layouts x concurrencies at the user's ISL/OSL (:func:`scorer.regimes.sweep`). For each point that meets the
TTFT and ITL targets:

* per-replica request rate by Little's law: concurrency / (TTFT + (OSL - 1) x TPOT), the request latency the cost
  model's own throughput uses (the first token arrives at TTFT, each of the OSL - 1 others one TPOT later);
* replicas = ceil(QPS / that rate); GPUs = replicas x GPUs per replica.

The point needing the fewest GPUs is kept, and among equals the one with the most output tokens/s/GPU: at a high
load usually the sheet's SLA pick (the most tokens/s/GPU, :func:`scorer.regimes.cheapest_meeting`), at a low load
a smaller layout whose single replica suffices. Then:

* $/month = GPUs x $/GPU-hour x 730 h;
* $ per 1M output tokens at the provisioned capacity and at the requested load (QPS x OSL tokens/s).

The best deployment of a model is its cheapest $/month across GPUs. Pure: no network, no rendering.
"""

from __future__ import annotations

import datetime
import math
from typing import Any, Literal

from pydantic import BaseModel, Field

from . import __version__
from .checkpoint import stored_weight_bytes
from .costmodel import load_calibration
from .errors import BadInputError, ConfigError, DeploysheetError, KVLaunchError
from .hardware import GIB, get_gpu, get_precision
from .kvcache import resolve_policy
from .regimes import SLA_CONCURRENCIES, Prediction, sweep, to_prediction
from .sheet import (
    DEFAULT_GPU,
    Options,
    Sheet,
    _decode_steps_note,
    build_sheet,
    cost_model_factory,
    expected_errors,
    unquantized_components,
)
from .sources import RawModel

HOURS_PER_MONTH = 730.0
MAX_MODELS = 8
#: licenses that allow commercial serving without a separate agreement (SPDX-style ids as the Hub writes them)
PERMISSIVE_LICENSES = {"apache-2.0", "mit", "bsd-2-clause", "bsd-3-clause", "bsd", "cc-by-4.0", "cc0-1.0",
                       "unlicense"}
#: quantization formats the readiness row shows, in order
QUANT_FORMATS = ("fp8", "fp8_block", "int4", "nvfp4", "mxfp4")


class Workload(BaseModel):
    isl: int = Field(description="input tokens per request")
    osl: int = Field(description="output tokens per request")
    qps: float = Field(description="requests per second to serve")
    ttft_ms: float | None = Field(None, description="time-to-first-token target, ms (None: no target)")
    itl_ms: float | None = Field(None, description="inter-token latency (TPOT) target, ms (None: no target)")
    max_utilization: float = Field(1.0, description="plan replicas so the load is at most this share of their "
                                                    "capacity (headroom for bursty arrivals); 1 = none")

    @property
    def output_tokens_per_s(self) -> float:
        return self.qps * self.osl


class GpuPrice(BaseModel):
    gpu: str
    usd_per_hour: float | None = Field(description="None: no cited price and no override")
    source: str = Field(description="where the price comes from")


class Risk(BaseModel):
    kind: Literal["custom_code", "gated", "no_safetensors", "license", "no_license", "guess", "provenance",
                  "checkpoint_refused", "checkpoint_not_loaded", "checkpoint_tp_cap", "cannot_generate",
                  "engine_cannot_load", "engine_implementation", "checkpoint_reexport"]
    severity: Literal["high", "medium", "info"]
    text: str


class Deployment(BaseModel):
    """One model on one GPU type: the cheapest layout meeting the targets and what serving the load costs."""

    gpu: str
    status: Literal["ok", "misses_targets", "does_not_fit", "context_too_long", "not_servable", "engine_refuses"]
    note: str | None = None
    prediction: Prediction | None = Field(None, description="the layout and concurrency meeting the targets with the "
                                                            "fewest GPUs for the load")
    best_ttft_ms: float | None = Field(None, description="lowest TTFT any fitting layout reaches (misses_targets)")
    best_itl_ms: float | None = Field(None, description="lowest TPOT any fitting layout reaches (misses_targets)")
    layouts_tried: int = 0
    request_latency_s: float | None = Field(None, description="TTFT + (OSL - 1) x TPOT")
    requests_per_s_per_replica: float | None = Field(None, description="concurrency / request latency (Little)")
    replicas: int | None = None
    gpus_per_replica: int | None = None
    num_gpus: int | None = Field(None, description="replicas x GPUs per replica")
    utilization: float | None = Field(None, description="requested QPS / provisioned request rate")
    usd_per_gpu_hour: float | None = None
    usd_per_month: float | None = Field(None, description=f"GPUs x $/GPU-hour x {HOURS_PER_MONTH:g} h")
    usd_per_1m_tokens_capacity: float | None = Field(None, description="$ per 1M output tokens at full capacity")
    usd_per_1m_tokens_load: float | None = Field(None, description="$ per 1M output tokens at the requested load")
    expected_error_pct: dict[str, float | None] = Field(default_factory=dict,
                                                        description="metric -> calibration's expected error, %")
    assumptions: list[str] = Field(default_factory=list)
    launch: Any = Field(None, description="scorer.launch.LaunchCommand of the chosen layout (status ok)")


class ModelColumn(BaseModel):
    name: str
    source: str
    source_kind: str
    precision: str
    params_total: int
    params_active: int
    moe: bool
    weights_gib: float = Field(description="weights at the serving precision")
    weights_bf16_gib: float
    kv_bytes_per_token: int | None = Field(description="K+V bytes per token, all attention layers (None: not a "
                                                       "decoder, no generation KV cache)")
    kv_dtype: str = Field(description="the KV dtype on the first GPU (kv_dtype_by_gpu: on each)")
    kv_dtype_by_gpu: dict[str, str] = Field(default_factory=dict, description="GPU -> the KV dtype it runs (the "
                                            "engine's auto may differ by GPU)")
    kv_bytes_per_token_by_gpu: dict[str, int | None] = Field(default_factory=dict, description="GPU -> K+V bytes "
                                                             "per token at that GPU's KV dtype")
    max_positions: int | None
    checkpoint_quantization: str | None
    quant_ready: dict[str, list[int]] = Field(description="format -> TP degrees the framework's kernels accept "
                                                          "with the experts split by TP")
    quant_ep_ready: dict[str, list[int]] = Field(default_factory=dict, description="format -> degrees the kernels "
                                                 "accept only with expert parallelism (EP = TP, each expert whole)")
    quant_padded: dict[str, list[int]] = Field(default_factory=dict, description="format -> TP degrees the kernels "
                                                                                 "accept after padding a dimension")
    custom_code: bool
    gated: str | None
    license: str | None
    weight_formats: list[str]
    risks: list[Risk]
    deployments: list[Deployment]
    best: Deployment | None = Field(None, description="the cheapest deployment meeting the targets across GPUs")


class Recommendation(BaseModel):
    winner: str | None = Field(None, description="name of the model cheapest to serve the workload within targets")
    headline: str
    ranking: list[str] = Field(default_factory=list, description="one line per model, cheapest first")
    caveats: list[str] = Field(default_factory=list)


class Skipped(BaseModel):
    """A model the report could not compare, and why (its config could not be read or normalized)."""

    source: str
    reason: str = Field(description="one line: gated, not found, no config.json, unreadable config, ...")


class CompareReport(BaseModel):
    generator: dict[str, str]
    workload: Workload
    framework: str
    precision: str | None = Field(None, description="requested precision (None: each checkpoint's own)")
    gpus: list[GpuPrice]
    calibration: str
    hours_per_month: float = HOURS_PER_MONTH
    models: list[ModelColumn]
    skipped: list[Skipped] = Field(default_factory=list, description="sources that could not be compared")
    recommendation: Recommendation
    assumptions: list[str]


def resolve_prices(gpus: list[str] | None, usd_per_gpu_hour: list[float] | float | None) -> list[GpuPrice]:
    """GPU ids (aliases resolved, no duplicates) with their price: the override (one for all or one per GPU), else
    the midpoint of the catalog's cited range. Raises BadInputError."""
    ids = [get_gpu(g).id for g in (gpus or [DEFAULT_GPU])]
    dup = sorted({g for g in ids if ids.count(g) > 1})
    if dup:
        raise BadInputError(f"GPU listed twice: {', '.join(dup)}")
    prices = [usd_per_gpu_hour] if isinstance(usd_per_gpu_hour, (int, float)) else list(usd_per_gpu_hour or [])
    for v in prices:
        if not (isinstance(v, (int, float)) and math.isfinite(v) and 0 < v <= 10_000):
            raise BadInputError(f"--usd-per-gpu-hour must be between 0 and 10,000 $ per GPU-hour, got {v!r}")
    if prices and len(prices) not in (1, len(ids)):
        raise BadInputError(f"--usd-per-gpu-hour: give one price for all GPUs or one per GPU ({len(ids)}: "
                            f"{', '.join(ids)}), got {len(prices)}")
    out = []
    for i, gid in enumerate(ids):
        if prices:
            out.append(GpuPrice(gpu=gid, usd_per_hour=float(prices[0] if len(prices) == 1 else prices[i]),
                                source="--usd-per-gpu-hour"))
            continue
        pr = get_gpu(gid).usd_per_hour
        if pr is None:
            out.append(GpuPrice(gpu=gid, usd_per_hour=None, source="no cited price (pass --usd-per-gpu-hour)"))
        else:
            out.append(GpuPrice(gpu=gid, usd_per_hour=pr.mid, source=f"midpoint of ${pr.low:.2f}-{pr.high:.2f} "
                                                                     f"({pr.tier}, source {pr.src})"))
    return out


def validate_workload(w: Workload) -> None:
    from .sheet import MAX_WORKLOAD_TOKENS  # one limit for score, predict and compare
    for name, v in (("--isl", w.isl), ("--osl", w.osl)):
        if not 1 <= v <= MAX_WORKLOAD_TOKENS:
            raise BadInputError(f"{name} must be between 1 and {MAX_WORKLOAD_TOKENS:,} tokens, got {v:,}")
    for name, v in (("--qps", w.qps), ("--ttft-ms", w.ttft_ms), ("--itl-ms", w.itl_ms)):
        if v is not None and not (math.isfinite(v) and v > 0):
            raise BadInputError(f"{name} must be a positive number, got {v}")
    if not (math.isfinite(w.max_utilization) and 0.05 <= w.max_utilization <= 1):
        raise BadInputError(f"--max-utilization must be between 0.05 and 1, got {w.max_utilization:g}")
    if w.qps < 1e-6:
        raise BadInputError(f"--qps {w.qps:g} is below one request in 11 days (1e-6 requests/s)")
    if w.qps > 1e7:
        raise BadInputError(f"--qps {w.qps:g} is absurd (over 10 million requests/s)")


def _risks(sheet: Sheet) -> list[Risk]:
    m, prov = sheet.model, sheet.model.provenance
    out: list[Risk] = []
    if sheet.checkpoint_refused:  # a HARD C1: the deployment below is of weights no engine loads
        c1 = next(f for f in sheet.findings if f.rule == "C1" and f.severity == "HARD")
        out.append(Risk(kind="checkpoint_refused", severity="high",
                        text="engines refuse to load the checkpoint: its tensor shapes differ from config.json "
                             f"(rule C1: {c1.message})"))
    refused = sheet.quantization.checkpoint_refused_by.get(sheet.options.framework)
    if refused:  # a HARD Q10: the framework has no loader for the checkpoint's quantization method
        out.append(Risk(kind="checkpoint_not_loaded", severity="high",
                        text=f"{refused}: the deployment below is of another export of the model, not of this "
                             "checkpoint"))
    q, prec = m.quantization or {}, sheet.options.precision
    if not refused and q.get("format") and prec and prec != q.get("format"):
        # another precision than the checkpoint's: engines read a quantized checkpoint's own method and refuse
        # --quantization on it, so this deployment is of another export (the 16-bit weights or one at prec)
        out.append(Risk(kind="checkpoint_reexport", severity="medium",
                        text=f"the checkpoint is stored {q.get('format')}: serving it at {prec} needs another "
                             "export of the model (the engines refuse --quantization on a quantized checkpoint)"))
    cap = sheet.quantization.checkpoint_tp_caps.get(sheet.options.framework)
    if cap is not None:
        out.append(Risk(kind="checkpoint_tp_cap", severity="medium",
                        text=f"{sheet.options.framework} loads the checkpoint as stored at TP {cap} only (rule Q10): a "
                             f"deployment above TP {cap} is of another export of the model"))
    from .engine_models import S6_SEVERITY, engine_support
    impl = engine_support(m.arch, sheet.options.framework)  # rule S6 for the framework compared on
    if impl is not None and impl.status not in ("native", "unknown"):
        if sheet.engine_refusal:
            out.append(Risk(kind="engine_cannot_load", severity="high", text=f"{sheet.engine_refusal}: {impl.detail}"))
        else:
            out.append(Risk(kind="engine_implementation", severity="high" if S6_SEVERITY.get(impl.status) == "HARD"
                            else "medium", text=f"rule S6: {impl.detail}"))
    if m.arch.pooling_head is not None:
        out.append(Risk(kind="cannot_generate", severity="high",
                        text=f"{m.arch.pooling_head.head_class} has no lm_head: a reward / classification / embedding model "
                             "that does not generate; its output-token costs below are not a service it offers"))
    if m.custom_code:
        out.append(Risk(kind="custom_code", severity="high",
                        text="custom code required: the config has auto_map, so transformers must run the "
                             "repository's own Python (trust_remote_code) to load it"))
    if prov.kind == "hub":
        if prov.gated:
            out.append(Risk(kind="gated", severity="medium",
                            text=f"gated on the Hub ({prov.gated}): each user must accept the conditions before "
                                 "downloading"))
        if not prov.weight_formats:
            out.append(Risk(kind="no_safetensors", severity="high", text="no weight files found in the repository"))
        elif "safetensors" not in prov.weight_formats:
            out.append(Risk(kind="no_safetensors", severity="high",
                            text="no safetensors weights (" + ", ".join(prov.weight_formats) + "): pickle files can "
                                 "run code when loaded"))
        lic = (prov.license or "").strip()
        if not lic:
            out.append(Risk(kind="no_license", severity="high", text="no license in the model card metadata"))
        elif lic.lower() not in PERMISSIVE_LICENSES:
            out.append(Risk(kind="license", severity="medium",
                            text=f"license '{lic}' is not a standard permissive license: review its terms for "
                                 "commercial serving"))
    else:
        out.append(Risk(kind="provenance", severity="info",
                        text="read from a local config: license, gating and weight formats not checked (pass a Hub "
                             "repo id to check them)"))
    for g in m.guesses:
        out.append(Risk(kind="guess", severity="info", text=f"config guess: {g}"))
    return out


def _quant_ready(sheet: Sheet, framework: str, status: str = "ready") -> dict[str, list[int]]:
    """format -> the TP degrees (≤ 8) whose quantization status on ``framework`` is ``status``: "ready" with
    the experts split by TP; "ep" ready only with expert parallelism; "padded" only after padding, neither
    ready with TP nor with EP."""
    tps = [t for t in sheet.report_tps if t <= 8] or sheet.report_tps
    out: dict[str, list[int]] = {}
    for fmt in QUANT_FORMATS:
        entries = [e for e in sheet.quantization.matrix if e.format == fmt and e.engine == framework and e.tp in tps]
        if entries:
            tp_ready = [e.tp for e in entries if e.status == "ready"]
            # only with EP: refused with the experts split by TP (a padded TP split runs, and is listed as padded)
            ep_ready = [e.tp for e in entries if e.status not in ("ready", "padded") and e.ep_status == "ready"]
            if status == "ready":
                out[fmt] = tp_ready
            elif status == "ep":
                if ep_ready:
                    out[fmt] = ep_ready
            else:
                out[fmt] = [e.tp for e in entries if e.tp not in tp_ready + ep_ready
                            and "padded" in (e.status, e.ep_status)]
    return out


def _kv_bytes_by_gpu(sheet, kv_by_gpu: dict[str, str], framework: str) -> dict[str, int | None]:
    """GPU -> K+V bytes per token (bytes) at the KV dtype that GPU runs (None: not a decoder)."""
    from .kvcache import engine_kv, kv_cache
    if sheet.model.kind != "decoder":
        return {g: None for g in kv_by_gpu}
    out = {}
    for g, kv in kv_by_gpu.items():
        out[g] = (sheet.kv_cache.bytes_per_token_all_layers if kv == sheet.kv_cache.dtype else
                  kv_cache(sheet.model.arch, kv, sheet.options.kv_policy, contexts=(4096,),
                           engine=engine_kv(framework, get_gpu(g))).bytes_per_token_all_layers)
    return out


def _weights_gib(sheet: Sheet, prec) -> float:
    """Weight memory at ``prec``, GiB: the sheet's weight-memory row for it (what the memory fit uses: the
    checkpoint's stored bytes, the components it leaves unquantized at 16 bits, a vision tower). The sheet has a
    row for bf16 and for its own precision, the two this report asks for."""
    return round(next(w for w in sheet.weights if w.precision == prec.id).bytes / GIB, 2)


def sizing(p: Prediction, w: Workload) -> tuple[float, float, int, int]:
    """(request latency s, requests/s per replica, replicas, GPUs) to serve ``w.qps`` on the layout of ``p``."""
    latency = (p.ttft_ms + max(w.osl - 1, 0) * p.tpot_ms) / 1e3
    rps = p.concurrency / latency
    replicas = math.ceil(w.qps / (rps * w.max_utilization) - 1e-9)
    return latency, rps, replicas, replicas * p.num_gpus


def _deploy(make_cm, arch, gpu, price: GpuPrice, w: Workload, errs: dict, cal_note: str, prov) -> Deployment:
    base = {"gpu": gpu.id, "usd_per_gpu_hour": price.usd_per_hour, "expected_error_pct": errs}
    err_txt = ", ".join(f"{k} ±{v:g}%" for k, v in errs.items() if v is not None) or "no validated error bar"
    assumptions = [f"calibration {cal_note}; expected error (median, leave-one-model-out): {err_txt}"]
    if arch.kind != "decoder":
        return Deployment(status="not_servable", note=f"an {arch.kind} model: no generation serving predictions",
                          assumptions=assumptions, **base)
    if arch.context_limit and w.isl + w.osl > arch.context_limit:
        return Deployment(status="context_too_long", note=f"ISL + OSL = {w.isl + w.osl:,} tokens exceeds "
                                                          f"{arch.context_label}",
                          assumptions=assumptions, **base)
    pts = sweep(make_cm(gpu), arch, w.isl, w.osl, price.usd_per_hour, SLA_CONCURRENCIES)
    layouts = {p.layout for p in pts}
    if not pts:
        from .regimes import candidate_layouts, refused_note
        refused = refused_note(make_cm(gpu), arch) if not candidate_layouts(make_cm(gpu), arch) else None
        if refused:  # nothing was tried: the framework refuses the precision at every layout (readiness matrix)
            return Deployment(status="engine_refuses", note=refused, assumptions=assumptions, **base)
        return Deployment(status="does_not_fit", note=f"no layout tried holds the weights plus one {w.isl + w.osl:,}"
                                                      f"-token sequence on {gpu.id}", assumptions=assumptions, **base)
    preds = [to_prediction(make_cm(gpu), q, w.isl, w.osl, price.usd_per_hour) for q in pts]
    meeting = [q for q in preds if q.fits and (w.ttft_ms is None or q.ttft_ms <= w.ttft_ms)
               and (w.itl_ms is None or q.tpot_ms <= w.itl_ms)]
    if not meeting:
        best_ttft = min(q.ttft_ms for q in preds)
        best_itl = min(q.tpot_ms for q in preds)
        return Deployment(status="misses_targets", layouts_tried=len(layouts), best_ttft_ms=best_ttft,
                          best_itl_ms=best_itl,
                          note=f"best TTFT {best_ttft:,.0f} ms, best ITL "
                               f"{best_itl:,.1f} ms (not necessarily on the same layout)",
                          assumptions=assumptions, **base)
    # the fewest GPUs for the load; among equals the most tokens/s/GPU (the most headroom). At a high load this is
    # the layout with the most tokens/s/GPU; at a low one a small layout whose one replica suffices.
    p = min(meeting, key=lambda q: (sizing(q, w)[3], -q.output_tokens_per_s_per_gpu))
    latency, rps, replicas, n_gpus = sizing(p, w)
    out = Deployment(status="ok", prediction=p, layouts_tried=len(layouts), request_latency_s=round(latency, 4),
                     requests_per_s_per_replica=rps, replicas=replicas, gpus_per_replica=p.num_gpus,
                     num_gpus=n_gpus, utilization=w.qps / (replicas * rps), assumptions=assumptions, **base)
    from .launch import launch_command
    out.launch = launch_command(make_cm(gpu)(p.layout_spec), p, prov)
    if price.usd_per_hour is not None:
        hourly = n_gpus * price.usd_per_hour
        out.usd_per_month = hourly * HOURS_PER_MONTH
        out.usd_per_1m_tokens_capacity = hourly / (replicas * rps * w.osl * 3600) * 1e6
        out.usd_per_1m_tokens_load = hourly / (w.output_tokens_per_s * 3600) * 1e6
    return out


def _cost_key(d: Deployment) -> tuple:
    """Cheapest first: priced before unpriced, then $/month (or GPUs), then the most spare capacity for the money
    (the lowest $ per 1M tokens at capacity), then fewer GPUs."""
    spare = -(d.replicas or 0) * (d.requests_per_s_per_replica or 0.0)
    if d.usd_per_month is not None:
        return (0, round(d.usd_per_month, 6), spare, d.num_gpus or 0)
    return (1, d.num_gpus or 0, spare, 0)


def _serious(m: ModelColumn) -> int:
    return sum(r.severity != "info" for r in m.risks)


#: risks that rank a model after every model without them (it cannot serve the workload as asked)
_DEMOTING = ("checkpoint_refused", "checkpoint_not_loaded", "cannot_generate", "engine_cannot_load")


def _model_key(m: ModelColumn) -> tuple:
    """Checkpoints engines load and that generate before those they refuse (rule C1) or that have no lm_head; then
    the cheapest best deployment; at the same cost, fewer serious risks, then more spare capacity."""
    k = _cost_key(m.best)
    return (any(r.kind in _DEMOTING for r in m.risks), k[0], k[1], _serious(m),
            *k[2:])


def _money(x: float | None) -> str:
    return "–" if x is None else f"${x:,.0f}"


def _where(d: Deployment) -> str:
    p = d.prediction
    return (f"{d.num_gpus:,}× {d.gpu} ({d.replicas:,} replica{'s' if d.replicas != 1 else ''} of {p.layout}, "
            f"up to {p.concurrency:,} concurrent request{'s' if p.concurrency != 1 else ''} each)")


def _recommend(models: list[ModelColumn], w: Workload, prices: list[GpuPrice]) -> Recommendation:
    targets = " and ".join(t for t in (f"TTFT ≤ {w.ttft_ms:g} ms" if w.ttft_ms else "",
                                       f"ITL ≤ {w.itl_ms:g} ms" if w.itl_ms else "") if t)
    load = (f"{w.qps:g} requests/s of {w.isl:,} in / {w.osl:,} out tokens"
            + (f" within {targets}" if targets else " (no latency target)"))
    ok = sorted((m for m in models if m.best is not None), key=_model_key)
    caveats: list[str] = []
    for m in models:
        if m.best is not None:
            continue
        reasons = "; ".join(f"{d.gpu}: {d.note}" for d in m.deployments if d.note) or "no deployment"
        caveats.append(f"{m.name} cannot serve this workload on the GPUs compared ({reasons}).")
    ranking = []
    for m in ok:
        b = m.best
        line = f"{m.name}: {_where(b)}"
        if b.usd_per_month is not None:
            line += f", {_money(b.usd_per_month)}/month, ${b.usd_per_1m_tokens_load:,.3f} per 1M output tokens"
        ranking.append(line)
    unpriced = [g.gpu for g in prices if g.usd_per_hour is None]
    if unpriced:
        caveats.append(f"No price for {', '.join(unpriced)}: ranked by GPU count after every priced deployment "
                       "(pass --usd-per-gpu-hour to compare them in $).")
    if not ok:
        return Recommendation(headline=f"No model compared can serve {load} on the GPUs compared.", caveats=caveats)
    win = ok[0]
    wb = win.best
    barred = {m.name: next(r for r in m.risks if r.kind in _DEMOTING) for m in ok
              if any(r.kind in _DEMOTING for r in m.risks)}
    if win.name in barred:  # every model that generates and loads failed the workload: say so first
        headline = (f"No model compared that engines load and that generates can serve {load}; {win.name} "
                    f"({barred[win.name].text}) would take {_where(wb)}")
        if wb.usd_per_month is not None:
            headline += f", {_money(wb.usd_per_month)}/month"
        return Recommendation(headline=headline + ".", ranking=ranking, caveats=caveats)
    if wb.usd_per_month is not None:
        which = "the cheapest model engines load and that generates" if barred else "the cheapest"
        headline = (f"{win.name} is {which} to serve {load}: {_where(wb)}, {_money(wb.usd_per_month)}/month "
                    f"(${wb.usd_per_1m_tokens_load:,.3f} per 1M output tokens at this load)")
    else:
        headline = (f"{win.name} needs the fewest GPUs to serve {load}: {_where(wb)} (no GPU price known, so no "
                    "$ figures: pass --usd-per-gpu-hour)")
    if len(ok) > 1:
        sec = ok[1].best
        if wb.usd_per_month is not None and sec.usd_per_month is not None:
            gap = sec.usd_per_month - wb.usd_per_month
            if gap < 0 and ok[1].name in barred:  # cheaper, ranked below: it cannot generate / engines refuse it
                headline += (f"; {ok[1].name} would cost {_money(sec.usd_per_month)}/month but is ranked below it: "
                             f"{barred[ok[1].name].text}")
            elif gap <= 0:
                cap_w = wb.replicas * wb.requests_per_s_per_replica
                cap_s = sec.replicas * sec.requests_per_s_per_replica
                headline += f", the same $/month as {ok[1].name}"
                caveats.append(f"{win.name} and {ok[1].name} cost the same for this load: the choice between them "
                               "rests on risks, headroom and quality, not on the cost model.")
                if _serious(win) < _serious(ok[1]):
                    headline += f" with fewer risks ({_serious(win)} against {_serious(ok[1])})"
                elif cap_w > cap_s:
                    headline += f" with more spare capacity ({cap_w:,.1f} against {cap_s:,.1f} requests/s provisioned)"
            else:
                headline += (f", {_money(gap)}/month ({gap / sec.usd_per_month:.0%}) less than the runner-up "
                             f"{ok[1].name}")
                err = wb.expected_error_pct.get("output_tokens_per_s_per_gpu")
                if err is not None and gap / sec.usd_per_month * 100 < err:
                    caveats.append(f"The gap to {ok[1].name} ({gap / sec.usd_per_month:.0%}) is within the "
                                   f"throughput prediction's expected error (±{err:g}%): measure both before "
                                   "committing.")
        elif sec.num_gpus and wb.num_gpus:
            headline += (f", the same number of GPUs as the runner-up {ok[1].name}" if sec.num_gpus == wb.num_gpus
                         else f", against {sec.num_gpus:,} GPU{'s' if sec.num_gpus != 1 else ''} for the runner-up "
                              f"{ok[1].name}")
    headline += "."
    for r in win.risks:
        if r.severity != "info":
            caveats.append(f"{win.name}: {r.text}.")
    if wb.utilization is not None and wb.utilization < 0.5:
        caveats.append(f"{win.name} runs at {wb.utilization:.0%} of its provisioned capacity (whole replicas of "
                       f"{wb.gpus_per_replica} GPU{'s' if wb.gpus_per_replica != 1 else ''}): the $ per 1M tokens at "
                       "this load is above the capacity figure.")
    for m in ok[1:]:
        risky = [r for r in m.risks if r.severity == "high"]
        if risky:
            caveats.append(f"{m.name}: {'; '.join(r.text for r in risky)}.")
    return Recommendation(winner=win.name, headline=headline, ranking=ranking, caveats=caveats)


def _with_skipped(rec: Recommendation, skipped: list[Skipped]) -> Recommendation:
    for k in skipped:
        rec.caveats.insert(0, f"{k.source} was not compared: {k.reason}.")
    return rec


def _overhead_caveat(rec: Recommendation, models: list[ModelColumn], w: Workload, framework: str,
                     overhead_ms: float, decode_steps: float = 0.5) -> Recommendation:
    """``rec`` with caveats when a TTFT target is missed by some model and a fitted term, not a per-model
    derivation, may decide the outcome: the framework's fixed per-request prefill overhead when it is at least
    half of the target; the decode iterations in its TTFT (``decode_steps``, κ) when they are fitted (not ½)."""
    if not w.ttft_ms:
        return rec
    if not any(d.status != "ok" and d.best_ttft_ms is not None for m in models for d in m.deployments):
        return rec
    texts = []
    if overhead_ms >= 0.5 * w.ttft_ms:
        where = "below" if overhead_ms >= w.ttft_ms else "within 2x of"
        texts.append(f"The TTFT target ({w.ttft_ms:g} ms) is {where} {framework}'s fixed per-request prefill "
                     f"overhead ({overhead_ms:.0f} ms, fitted mostly on large models): TTFT misses here may come from "
                     "that constant rather than the model; compare with another --framework or measure.")
    if abs(decode_steps - 0.5) > 1e-9:
        texts.append(f"{framework}'s TTFT includes {decode_steps:.1f} decode iterations, a fitted term whose "
                     "mechanism is not established: TTFT misses may come from it rather than the model; compare "
                     "with another --framework or measure.")
    if not texts:
        return rec
    return rec.model_copy(update={"caveats": list(rec.caveats) + texts})


def build_report(raws: list[RawModel], workload: Workload, gpus: list[str] | None = None,
                 usd_per_gpu_hour: list[float] | float | None = None, precision: str | None = None,
                 framework: str = "vllm", calibration: str | None = None,
                 skipped: list[Skipped] | None = None) -> CompareReport:
    """Compare ``raws`` for ``workload`` on every GPU of ``gpus`` (see the module docstring).

    Raises:
        BadInputError / ConfigError: fewer than two or more than 8 models, an unknown GPU or precision, prices that
        do not match the GPUs, a bad workload, an unusable config.
    """
    skipped = list(skipped or [])
    if len(raws) + len(skipped) < 2:
        raise BadInputError("compare needs at least two models")
    if len(raws) > MAX_MODELS:
        raise BadInputError(f"compare takes at most {MAX_MODELS} models, got {len(raws)}")
    validate_workload(workload)
    prices = resolve_prices(gpus, usd_per_gpu_hour)
    if precision:
        precision = get_precision(precision).id
    cal = load_calibration(calibration)
    cal_note = cal.path + (f" (fitted {cal.fit_date})" if cal.fit_date else " (uncalibrated defaults)")
    gpu_ids = [p.gpu for p in prices]
    from .launch import framework_gpu_problem
    for g in gpu_ids:  # the framework and the GPUs, not any one model, are at fault: no model named
        if framework_gpu_problem(framework, get_gpu(g)):
            raise BadInputError(framework_gpu_problem(framework, get_gpu(g)))
    columns: list[ModelColumn] = []
    for raw in raws:
        name = raw.provenance.repo_id or raw.provenance.source
        kv_refused: dict[str, str] = {}  # GPU -> why the engine cannot launch this model's KV cache there
        run_gpus = list(gpu_ids)
        sheet = None
        try:
            while sheet is None and run_gpus:
                try:
                    sheet = build_sheet(raw, Options(gpus=run_gpus, precision=precision, framework=framework,
                                                     calibration=calibration, recommendations=False))
                except KVLaunchError as exc:  # that GPU's deployment is refused; the others are still compared
                    kv_refused[exc.gpu] = str(exc).replace("(--kv-dtype)", "(score or predict --kv-dtype; compare "
                                                                           "runs each engine's auto)")
                    run_gpus = [g for g in run_gpus if g != exc.gpu]
        except ConfigError as exc:  # this model's config: compare the others, say why this one is missing
            custom = " (custom code: auto_map)" if isinstance(raw.config.get("auto_map"), dict) else ""
            skipped.append(Skipped(source=name, reason=f"config not readable{custom}: {exc}"))
            continue
        except DeploysheetError as exc:  # name the model: the message alone may not say which one
            raise type(exc)(f"{name}: {exc}") from None
        if sheet is None:
            skipped.append(Skipped(source=name, reason="the engine launches its KV cache on none of the GPUs: "
                                                       + "; ".join(f"{g}: {w}" for g, w in kv_refused.items())))
            continue
        arch = sheet.model.arch
        prec = get_precision(sheet.options.precision)
        kv_by_gpu = sheet.options.kv_dtype_by_gpu  # the engine's auto per GPU (build_sheet resolves it)
        make_cm = cost_model_factory(arch, sheet.params, sheet.gemms, prec, kv_by_gpu, framework, cal,
                                     unquantized_components(arch, prec.id), sheet.options.kv_policy,
                                     stored_weight_bytes(sheet.params.checkpoint, prec.id))
        deps = [Deployment(gpu=pr.gpu, status="engine_refuses", note=kv_refused[pr.gpu],
                           usd_per_gpu_hour=pr.usd_per_hour, expected_error_pct=expected_errors(cal, pr.gpu, framework))
                if pr.gpu in kv_refused else
                _deploy(make_cm, arch, get_gpu(pr.gpu), pr, workload, expected_errors(cal, pr.gpu, framework),
                        cal_note, raw.provenance) for pr in prices]
        ok = [d for d in deps if d.status == "ok"]
        m = sheet.model
        columns.append(ModelColumn(
            name=m.name, source=m.provenance.source, source_kind=m.provenance.kind, precision=prec.id,
            params_total=sheet.params.total, params_active=sheet.params.active, moe=m.moe is not None,
            weights_gib=_weights_gib(sheet, prec),
            weights_bf16_gib=_weights_gib(sheet, get_precision("bf16")), kv_bytes_per_token=(
                sheet.kv_cache.bytes_per_token_all_layers if m.kind == "decoder" else None),
            kv_dtype=sheet.kv_cache.dtype, kv_dtype_by_gpu=dict(kv_by_gpu),
            kv_bytes_per_token_by_gpu=_kv_bytes_by_gpu(sheet, kv_by_gpu, framework),
            max_positions=m.max_positions,
            checkpoint_quantization=(m.quantization or {}).get("format"), quant_ready=_quant_ready(sheet, framework),
            quant_ep_ready=_quant_ready(sheet, framework, "ep"), quant_padded=_quant_ready(sheet, framework, "padded"),
            custom_code=m.custom_code, gated=m.provenance.gated, license=m.provenance.license,
            weight_formats=m.provenance.weight_formats, risks=_risks(sheet), deployments=deps,
            best=min(ok, key=_cost_key) if ok else None))
    if len(columns) < 2:
        why = "; ".join(f"{k.source}: {k.reason}" for k in skipped)
        raise BadInputError(f"compare: fewer than two models could be compared ({why[:300]})")
    assumptions = [
        f"$/month = GPUs x $/GPU-hour x {HOURS_PER_MONTH:g} h (24 h x 365 d / 12), GPUs billed around the clock.",
        ("Request rate per replica by Little's law: concurrency / (TTFT + (OSL - 1) x TPOT); replicas = "
         "ceil(QPS / that rate), GPUs = replicas x GPUs per replica (tensor x pipeline x data parallel)."),
        ("Layout per GPU: every valid TP of one node (EP = TP for MoE experts; attention DP x EP where TP would "
         "replicate the KV cache; TP across nodes and TP x PP stages when one node is too small: data/regimes.json), "
         "only those the framework's readiness matrix does not refuse, x concurrency 1-1024 (powers of "
         "two and the steps 1.5x between them) that fits in memory; among those meeting the targets, the one needing the fewest GPUs for the load "
         "(then the most output tokens/s/GPU) is kept."),
        ("TTFT and ITL are steady-state means (not p99) predicted at each replica's full concurrency (its "
         "capacity); below it they are lower."),
        (f"Replicas planned for at most {workload.max_utilization:.0%} of their capacity" + (
            " (no headroom: bursty arrivals near capacity queue in front of the engines and add to TTFT; "
            "--max-utilization 0.8 leaves 20%)." if workload.max_utilization >= 1 else ".")),
        ("$ per 1M output tokens: at capacity = the replicas' full output rate; at load = the requested "
         "QPS x OSL tokens/s (idle headroom of the last replica included)."),
        (f"Serving framework profile {framework}; KV cache in {framework}'s default dtype for each model (its "
         f"column's KV dtype) under the {resolve_policy('auto', framework)} allocation policy; weights at "
         + (f"{precision} for every model." if precision else "each checkpoint's own precision (BF16 if none).")),
        f"Cost model calibration: {cal_note}.",
    ]
    overhead_ms = 1e3 * float(cal.resolve(framework).get("prefill_overhead_s", 0.0))
    decode_steps = float(cal.resolve(framework).get("ttft_decode_steps", 0.5))
    assumptions.append(f"Every TTFT includes {framework}'s fixed per-request prefill overhead of {overhead_ms:.0f} ms "
                       "(data/calibration.json: fitted on closed-loop runs at 4 or more concurrent requests, mostly "
                       "of large models); at low load on a small model it may overstate TTFT. "
                       + _decode_steps_note(cal, framework))
    for pr in prices:
        assumptions.append(f"{pr.gpu}: " + (f"${pr.usd_per_hour:.2f}/GPU-hour, {pr.source}." if pr.usd_per_hour
                                            else f"{pr.source}: $ figures not computed."))
    return CompareReport(generator={"name": "deploysheet", "version": __version__,
                                    "date": datetime.date.today().isoformat()},
                         workload=workload, framework=framework, precision=precision, gpus=prices,
                         calibration=cal_note, models=columns, skipped=skipped,
                         recommendation=_overhead_caveat(_with_skipped(_recommend(columns, workload, prices), skipped),
                                                         columns, workload, framework, overhead_ms,
                                                         decode_steps),
                         assumptions=assumptions)
