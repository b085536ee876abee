"""Key metrics of a sheet and their changes between two sheets (a base and a head revision, or two models).

:func:`key_metrics` picks, from a built :class:`~scorer.sheet.Sheet`, the numbers a reviewer compares:
score, parameters, weight memory, KV cache per token, and the predicted serving figures of each
regime on the primary GPU. :func:`diff` lines two sheets up metric by metric and says, for each,
whether the change is better or worse (the direction is part of the metric). Rendering lives in
``templates/diff.md.j2``; nothing here formats text for Markdown.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from .sheet import Sheet


class Metric(BaseModel):
    id: str
    label: str
    unit: str = Field(description="'', 'GiB', 'B/token', 'ms', 'tokens/s', 'USD/1M tokens', 'params'")
    value: float | None
    better: Literal["higher", "lower", "none"]
    layout: str | None = Field(None, description="the layout the prediction is for (regime metrics)")


class Delta(BaseModel):
    id: str
    label: str
    unit: str
    base: float | None
    head: float | None
    change_pct: float | None = Field(None, description="(head - base) / base x 100, when both are known and base != 0")
    change_abs: float | None = Field(None, description="head - base, when both are known (points, for the score)")
    verdict: Literal["better", "worse", "same", "new", "gone", "n/a"]
    base_layout: str | None = None
    head_layout: str | None = None


class SheetDiff(BaseModel):
    base_name: str
    head_name: str
    base_grade: str
    head_grade: str
    deltas: list[Delta]
    findings_added: list[str] = Field(description="rule ids that fire on head but not on base")
    findings_removed: list[str] = Field(description="rule ids that fire on base but not on head")
    finding_titles: dict[str, str] = Field(default_factory=dict, description="rule id -> the finding's title")
    changed: bool = Field(description="any metric moved by more than the noise tolerance, the grade or a finding changed")


#: relative change below which a metric counts as unchanged. Two revisions of one model share the cost
#: model's biases, so a change can be meaningful well below its absolute error (sheet: expected error);
#: below 1 % it is within the effect of rounding and batch-size steps.
TOLERANCE_PCT = 1.0


def key_metrics(sheet: Sheet) -> list[Metric]:
    """The compared metrics of one sheet, in display order (primary GPU for the regime figures)."""
    gpu = sheet.primary_gpu
    regimes = {r.id: r for r in sheet.regimes.get(gpu, [])}
    precision = next((r.precision for r in regimes.values()), sheet.options.precision or "bf16")
    weights = next((w.gib for w in sheet.weights if w.precision == precision), None)
    out = [
        Metric(id="score", label="score", unit="/100", value=sheet.score.total, better="higher"),
        Metric(id="params", label="parameters", unit="params", value=float(sheet.params.total), better="none"),
        Metric(id="active", label="active parameters per token", unit="params", value=float(sheet.params.active),
               better="none"),
        Metric(id="weights", label=f"weights at {precision}", unit="GiB", value=weights, better="lower"),
        Metric(id="kv", label=f"KV cache per token ({sheet.kv_cache.dtype})", unit="B/token",
               value=float(sheet.kv_cache.bytes_per_token), better="lower"),
    ]

    def pred(regime: str, field: str, label: str, unit: str, better: str) -> None:
        r = regimes.get(regime)
        p = r.prediction if r is not None else None
        value = getattr(p, field) if p is not None and p.fits else None
        out.append(Metric(id=f"{regime}.{field}", label=f"{label} on {gpu}", unit=unit, value=value, better=better,
                          layout=p.layout if p is not None and p.fits else None))

    pred("latency", "tpot_ms", "latency: TPOT", "ms", "lower")
    pred("latency", "tokens_per_s_per_user", "latency: tokens/s/user", "tokens/s", "higher")
    pred("throughput", "output_tokens_per_s_per_gpu", "throughput: output tokens/s/GPU", "tokens/s", "higher")
    pred("throughput", "usd_per_1m_output_tokens", "throughput: $ per 1M output tokens", "USD/1M tokens", "lower")
    pred("long_context", "ttft_ms", "long context: TTFT", "ms", "lower")
    pred("short_context", "ttft_ms", "short context: TTFT", "ms", "lower")
    return out


def _verdict(m: Metric, base: float | None, head: float | None) -> tuple[str, float | None]:
    if base is None and head is None:
        return "n/a", None
    if base is None:
        return "new", None
    if head is None:
        return "gone", None
    pct = (head - base) / base * 100.0 if base else None
    if pct is None:
        return ("same" if head == base else "n/a"), None
    if abs(pct) < TOLERANCE_PCT:
        return "same", pct
    if m.better == "none":
        return "n/a", pct
    up_is_good = m.better == "higher"
    return ("better" if (pct > 0) == up_is_good else "worse"), pct


def diff(base: Sheet, head: Sheet) -> SheetDiff:
    """Metric-by-metric comparison of ``head`` against ``base`` (same options assumed)."""
    bm = {m.id: m for m in key_metrics(base)}
    deltas = []
    for hm in key_metrics(head):
        b = bm.get(hm.id)
        verdict, pct = _verdict(hm, b.value if b else None, hm.value)
        both = b is not None and b.value is not None and hm.value is not None
        deltas.append(Delta(id=hm.id, label=hm.label, unit=hm.unit, base=b.value if b else None, head=hm.value,
                            change_pct=pct, change_abs=hm.value - b.value if both else None, verdict=verdict, base_layout=b.layout if b else None,
                            head_layout=hm.layout))
    brules = {f.rule for f in base.findings}
    hrules = {f.rule for f in head.findings}
    added, removed = sorted(hrules - brules), sorted(brules - hrules)
    changed = (base.score.grade != head.score.grade or bool(added or removed)
               or any(d.verdict in ("better", "worse", "new", "gone") or
                      (d.verdict == "n/a" and d.change_pct is not None) for d in deltas))
    titles = {f.rule: f.title for f in [*base.findings, *head.findings]}
    return SheetDiff(base_name=base.model.name, head_name=head.model.name, base_grade=base.score.grade,
                     head_grade=head.score.grade, deltas=deltas, findings_added=added, findings_removed=removed,
                     finding_titles={r: titles[r] for r in added + removed}, changed=changed)
