"""Render a :class:`~scorer.sheet.Sheet` as Markdown, HTML (jinja2 templates) or JSON.

Escaping: every ``{{ expression }}`` in a Markdown template passes through :func:`md_escape`
(the environment's ``finalize``), so strings that come from a model's config — names,
model_type, architectures, auto_map keys, quantization patterns — cannot inject Markdown, HTML,
links or @mentions. Values the templates build themselves and mark safe (``Markup``) are left
as they are. HTML templates use jinja2's autoescaping.
"""

from __future__ import annotations

import json
import math
import re
from functools import lru_cache
from typing import NamedTuple

import jinja2
from markupsafe import Markup, escape

from .resources import data_dir, templates_dir
from .sheet import Sheet

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]#|~>])")
# C0/C1 controls (ESC sequences, NUL, BEL), bidi overrides/isolates and other invisible formatting
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]")


def strip_controls(value) -> str:
    """Drop control and bidi-override characters from model-controlled text."""
    if isinstance(value, Markup) or not isinstance(value, str):
        return value
    return _CONTROL.sub("", value)


def md_escape(value) -> str:
    """Neutralize Markdown/HTML control characters, @mentions and autolinks in a value."""
    if value is None:
        return ""
    if isinstance(value, Markup):
        return str(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float)):
        return str(value)
    s = " ".join(_CONTROL.sub("", str(value)).split())  # one line: no table breaks, no headings
    s = s.replace("&", "&amp;").replace("<", "&lt;")
    s = _MD_SPECIAL.sub(r"\\\1", s)
    s = s.replace("@", "@\u200b").replace("://", ":\u200b//").replace("www.", "www\u200b.")
    return s


def _n(x) -> str:
    return "–" if x is None else f"{int(x):,}"


def _f(x, digits: int = 1) -> str:
    return "–" if x is None else f"{x:,.{digits}f}"


def _gib(b) -> str:
    return "–" if b is None else f"{b / 1024 ** 3:,.2f} GiB"


def _wsize(w) -> str:
    """A weight-memory row's size for the header: its GiB to one decimal, MiB below 0.1 GiB (a tiny model is not
    "0.0 GiB")."""
    if w is None:
        return "–"
    return f"{w.gib:,.1f} GiB" if w.gib >= 0.1 else f"{w.bytes / 1024 ** 2:,.1f} MiB"


def _human_b(b) -> str:
    if b is None:
        return "–"
    b = float(b)
    for unit, scale in (("GiB", 1024 ** 3), ("MiB", 1024 ** 2), ("KiB", 1024)):
        if b >= scale:
            return f"{b / scale:,.2f} {unit}"
    return f"{int(b):,} B"


def _billions(x) -> str:
    return "–" if x is None else (f"{x / 1e9:,.2f} B" if x >= 1e8 else f"{x / 1e6:,.1f} M")


def _mark(ok: bool | None) -> Markup:
    return Markup("✔" if ok else ("✘" if ok is not None else "–"))


def _status(s: str) -> Markup:
    return Markup({"ready": "✔ ready", "padded": "◐ padded", "not_ready": "✘ not ready"}.get(s, s))


def _align(mult: int) -> Markup:
    if mult >= 128:
        return Markup(f"✔ {mult}")
    if mult >= 8:
        return Markup(f"◐ {mult}")
    return Markup(f"✘ {mult}")


def frontier_mermaid(front) -> Markup:
    """A Mermaid xychart (GitHub renders it in Markdown) of the Pareto frontier: tokens/s/GPU vs tokens/s/user."""
    pts = front.pareto
    if len(pts) < 2:
        return Markup("")
    xs = ", ".join(f'"{p.tokens_per_s_per_user:.0f}"' for p in pts)
    ys = ", ".join(f"{p.output_tokens_per_s_per_gpu:.0f}" for p in pts)
    top = max(p.output_tokens_per_s_per_gpu for p in pts) * 1.1
    return Markup("```mermaid\nxychart-beta\n"
                  f'    title "{front.gpu} {front.precision}: throughput vs interactivity (ISL {front.isl}, '
                  f'OSL {front.osl})"\n'
                  f'    x-axis "tokens/s/user" [{xs}]\n'
                  f'    y-axis "output tokens/s/GPU" 0 --> {top:.0f}\n'
                  f"    line [{ys}]\n```")


#: one colour per GPU of an overlaid chart (frontier line and its points)
SERIES_COLOURS = ("#175cd3", "#dc6803", "#039855", "#7a5af8", "#d92d20", "#0e9384", "#c11574", "#667085")


def nice_ticks(top: float, count: int = 5) -> list[float]:
    """Tick values 0, s, 2s, ... up to ``top`` with a step s of 1, 2 or 5 x 10^k giving about ``count`` ticks."""
    import math as _m
    if top <= 0:
        return [0.0]
    raw = top / count
    mag = 10 ** _m.floor(_m.log10(raw))
    step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)
    return [i * step for i in range(int(top // step) + 1)]


def _tick_label(v: float) -> str:
    return f"{v / 1000:g}k" if v >= 10000 else f"{v:g}"


def frontier_svg(fronts, width: int = 600, height: int = 340) -> Markup:
    """An inline SVG (no external assets) of every swept point and the Pareto frontier of one or several GPUs
    (``fronts``: a Frontier or a list of them, overlaid, one colour each, with a legend), with axis ticks and
    gridlines. x: tokens/s/user, y: output tokens/s/GPU, both from 0."""
    fronts = [f for f in (fronts if isinstance(fronts, (list, tuple)) else [fronts])
              if any(p.tokens_per_s_per_user and p.output_tokens_per_s_per_gpu for p in f.points)]
    if not fronts:
        return Markup("")
    pts_all = [p for f in fronts for p in f.points if p.tokens_per_s_per_user and p.output_tokens_per_s_per_gpu]
    left, right, top, bottom = 64, 16, 16 + 16 * len(fronts), 48
    xmax = max(p.tokens_per_s_per_user for p in pts_all) * 1.05
    ymax = max(p.output_tokens_per_s_per_gpu for p in pts_all) * 1.05
    pw, ph = width - left - right, height - top - bottom

    def xy(x, y):
        return left + pw * x / xmax, top + ph - ph * y / ymax

    parts = []
    for v in nice_ticks(xmax):
        x, _ = xy(v, 0)
        parts.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{top + ph}" stroke="#eaecf0"/>'
                     f'<text x="{x:.1f}" y="{top + ph + 16}" text-anchor="middle" font-size="11">{_tick_label(v)}'
                     "</text>")
    for v in nice_ticks(ymax):
        _, y = xy(0, v)
        parts.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + pw}" y2="{y:.1f}" stroke="#eaecf0"/>'
                     f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end" font-size="11">{_tick_label(v)}</text>')
    parts.append(f'<line x1="{left}" y1="{top + ph}" x2="{left + pw}" y2="{top + ph}" stroke="#475467"/>'
                 f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + ph}" stroke="#475467"/>'
                 f'<text x="{left + pw / 2:.0f}" y="{height - 8}" text-anchor="middle" font-size="12">'
                 "tokens/s/user</text>"
                 f'<text x="14" y="{top + ph / 2:.0f}" font-size="12" transform="rotate(-90 14 {top + ph / 2:.0f})" '
                 'text-anchor="middle">output tokens/s/GPU</text>')
    for i, f in enumerate(fronts):
        colour = SERIES_COLOURS[i % len(SERIES_COLOURS)]
        gpu = escape(f.gpu)
        for p in f.points:
            if not (p.tokens_per_s_per_user and p.output_tokens_per_s_per_gpu):
                continue
            x, y = xy(p.tokens_per_s_per_user, p.output_tokens_per_s_per_gpu)
            parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5" fill="{colour}" fill-opacity="0.35"><title>'
                         f"{gpu} {escape(p.layout)} C={p.concurrency}: {p.tokens_per_s_per_user:.0f} tok/s/user, "
                         f"{p.output_tokens_per_s_per_gpu:.0f} tok/s/GPU</title></circle>")
        line = " ".join(f"{x:.1f},{y:.1f}" for p in f.pareto
                        for x, y in [xy(p.tokens_per_s_per_user, p.output_tokens_per_s_per_gpu)])
        parts.append(f'<polyline points="{line}" fill="none" stroke="{colour}" stroke-width="2"/>'
                     f'<rect x="{left + 8}" y="{6 + 16 * i}" width="10" height="10" fill="{colour}"/>'
                     f'<text x="{left + 22}" y="{15 + 16 * i}" font-size="11">{gpu} ({escape(f.precision)})</text>')
    return Markup(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
                  f'aria-label="Pareto frontier">{"".join(parts)}</svg>')


def _num(x, unit: str = "") -> str:
    """A metric value with its unit, at a precision that suits the unit."""
    if x is None:
        return "–"
    if unit == "params":
        return _billions(x)
    if unit == "B/token":
        return f"{int(x):,} B"
    if unit == "USD/1M tokens":
        return f"${x:,.3f}"
    if unit == "/100":
        return f"{x:.1f}"
    digits = 2 if abs(x) < 10 else (1 if abs(x) < 100 else 0)
    return f"{x:,.{digits}f} {unit}"


def _pct(x) -> str:
    return "–" if x is None else f"{x:+.1f}%"


#: precompiled templates (scripts/make_examples.py writes them; a manifest pins the sources and jinja2's version)
COMPILED_DIR = "compiled_templates"


#: the templates a cold ``score`` renders, precompiled (the others compile on first use, then hit the bytecode cache)
PRECOMPILED = ("sheet", "report", "diff")


def template_digests(kind: str) -> dict[str, str]:
    """SHA-256 of the precompiled template sources (:data:`PRECOMPILED`): ``{name}.{kind}.j2`` and the sections it
    includes, ``{name}/*.{kind}.j2``, by template name (path relative to the templates folder)."""
    import hashlib
    root = templates_dir()
    out = {}
    for p in sorted(root.rglob(f"*.{kind}.j2")):
        rel = p.relative_to(root).as_posix()
        if rel.split("/")[0].split(".")[0] in PRECOMPILED:
            out[rel] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def _compiled_loader(kind: str):
    """A loader of the packaged precompiled ``kind`` templates when they match the sources and the installed
    jinja2 (else None: the sources are compiled, and cached in the bytecode cache). Compiling the Markdown sheet
    template costs about 0.6 s of a cold start on a 2-core machine; importing its compiled module a few ms."""
    import json as _json
    folder = data_dir() / COMPILED_DIR / kind
    try:
        manifest = _json.loads((folder / "manifest.json").read_text())
    except (OSError, ValueError):
        return None
    if manifest.get("jinja2") != jinja2.__version__ or manifest.get("templates") != template_digests(kind):
        return None
    return jinja2.ModuleLoader(str(folder))


def make_env(kind: str, loader, bytecode_cache=None) -> jinja2.Environment:
    """The ``md`` or ``html`` rendering environment (filters, escaping) over ``loader``."""
    if kind == "html":
        env = jinja2.Environment(loader=loader, autoescape=True, trim_blocks=True, lstrip_blocks=True,
                                 undefined=jinja2.StrictUndefined, finalize=strip_controls,
                                 bytecode_cache=bytecode_cache)
    else:
        env = jinja2.Environment(loader=loader, autoescape=False, finalize=md_escape, trim_blocks=True,
                                 lstrip_blocks=True, undefined=jinja2.StrictUndefined, keep_trailing_newline=True,
                                 bytecode_cache=bytecode_cache)
    env.filters.update(n=_n, f=_f, gib=_gib, wsize=_wsize, hb=_human_b, bn=_billions, mark=_mark, status=_status, align=_align,
                       md=lambda v: Markup(md_escape(v)), trusted=lambda v: Markup(" ".join(str(v).split())),
                       mermaid=frontier_mermaid, svg=frontier_svg, num=_num, pct=_pct)
    return env


#: one environment per kind ("md", "html"): bounded by the templates folder (compiled templates are cached
#: inside each environment, one per template file)
@lru_cache(maxsize=4)
def _env(kind: str) -> jinja2.Environment:
    from .cache import enabled, jinja_bytecode_cache
    source = jinja2.FileSystemLoader(str(templates_dir()))
    compiled = _compiled_loader(kind) if enabled() else None
    if compiled is not None:
        return make_env(kind, jinja2.ChoiceLoader([compiled, source]), jinja_bytecode_cache())
    return make_env(kind, source, jinja_bytecode_cache())


class Section(NamedTuple):
    """One section of the deployment sheet: ``templates/sheet/<id>.md.j2`` and ``<id>.html.j2`` render it, with the
    heading ``title`` (None: untitled, the summary table under the header), from the sheet's JSON ``fields``."""

    id: str
    title: str | None
    fields: tuple[str, ...]


#: the sheet's sections, in order: the Markdown and the HTML sheet both include exactly these (templates/sheet.*.j2),
#: so neither can show a section the other lacks; tests/test_sheet_parity.py checks each heading and field
SHEET_SECTIONS: tuple[Section, ...] = (
    Section("summary", None, ("params", "weights", "kv_cache", "model")),
    Section("architecture", "Architecture", ("model", "params")),
    Section("memory", "Memory and KV cache", ("kv_cache", "capacity")),
    Section("hardware_fit", "Hardware fit", ("hardware_fit",)),
    Section("quantization", "Quantization readiness", ("quantization",)),
    Section("serving", "Serving regimes", ("regimes", "frontier")),
    Section("findings", "Findings", ("findings",)),
    Section("recommendations", "Recommendations", ("recommendations",)),
    Section("score", "Score", ("score",)),
    Section("sources", "Assumptions and sources", ("assumptions", "sources")),
)


def render_markdown(sheet: Sheet) -> str:
    return _env("md").get_template("sheet.md.j2").render(s=sheet, sections=SHEET_SECTIONS)


def render_html(sheet: Sheet) -> str:
    return _env("html").get_template("sheet.html.j2").render(s=sheet, sections=SHEET_SECTIONS)


def _finite(obj):
    """Replace NaN/inf (not valid JSON) by null."""
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, dict):
        return {k: _finite(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_finite(v) for v in obj]
    return obj


def render_diff_markdown(d) -> str:
    """Markdown table of a :class:`~scorer.compare.SheetDiff` (templates/diff.md.j2)."""
    return _env("md").get_template("diff.md.j2").render(d=d)


def render_report_markdown(report) -> str:
    """Markdown of a :class:`~scorer.report.CompareReport` (templates/report.md.j2)."""
    return _env("md").get_template("report.md.j2").render(r=report)


def render_report_html(report) -> str:
    """Self-contained HTML of a :class:`~scorer.report.CompareReport` (templates/report.html.j2)."""
    return _env("html").get_template("report.html.j2").render(r=report)


#: CSV columns of ``compare --format csv`` (one row per model per GPU) and of ``score --format csv`` (one row per
#: regime per GPU); latencies are means of the steady state (the model gives no percentiles)
REPORT_CSV = ("model", "source", "gpu", "status", "layout", "num_gpus", "replicas", "concurrency", "ttft_ms_mean",
              "tpot_ms_mean", "output_tokens_per_s_per_gpu", "usd_per_gpu_hour", "usd_per_month",
              "usd_per_1m_tokens_load", "usd_per_1m_tokens_capacity", "note")
SHEET_CSV = ("model", "gpu", "regime", "isl", "osl", "concurrency", "layout", "nodes", "num_gpus", "fits",
             "ttft_ms_mean", "tpot_ms_mean", "tokens_per_s_per_user", "output_tokens_per_s_per_gpu",
             "memory_per_gpu_gib", "bound", "usd_per_1m_output_tokens", "precision", "kv_dtype", "framework", "note")


def _csv(header, rows) -> str:
    import csv
    import io

    from .leaderboard_output import csv_cell
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    for row in rows:
        w.writerow([csv_cell(row.get(k)) for k in header])
    return buf.getvalue()


def _round(x, digits: int):
    """Money in a CSV cell: cents per month, 1/100 cent per 1M tokens (as the Markdown report shows them)."""
    return None if x is None else round(x, digits)


def render_report_csv(report) -> str:
    """One row per model per GPU of a :class:`~scorer.report.CompareReport`; TTFT and TPOT are means."""
    rows = []
    for m in report.models:
        for d in m.deployments:
            p = d.prediction
            rows.append(dict(model=m.name, source=m.source, gpu=d.gpu, status=d.status, note=d.note,
                             layout=p.layout if p else None, num_gpus=d.num_gpus, replicas=d.replicas,
                             concurrency=p.concurrency if p else None, ttft_ms_mean=p.ttft_ms if p else None,
                             tpot_ms_mean=p.tpot_ms if p else None,
                             output_tokens_per_s_per_gpu=p.output_tokens_per_s_per_gpu if p else None,
                             usd_per_gpu_hour=d.usd_per_gpu_hour, usd_per_month=_round(d.usd_per_month, 2),
                             usd_per_1m_tokens_load=_round(d.usd_per_1m_tokens_load, 4),
                             usd_per_1m_tokens_capacity=_round(d.usd_per_1m_tokens_capacity, 4)))
    return _csv(REPORT_CSV, rows)


def render_sheet_csv(sheet: Sheet) -> str:
    """One row per serving regime per GPU of a sheet; TTFT and TPOT are steady-state means."""
    rows = []
    for gpu, results in sheet.regimes.items():
        for r in results:
            p = r.prediction
            rows.append(dict(model=sheet.model.name, gpu=gpu, regime=r.id, isl=r.isl, osl=r.osl,
                             concurrency=p.concurrency if p else r.concurrency, layout=p.layout if p else None,
                             nodes=p.nodes if p else None, num_gpus=p.num_gpus if p else None,
                             fits=p.fits if p else False, ttft_ms_mean=p.ttft_ms if p else None,
                             tpot_ms_mean=p.tpot_ms if p else None,
                             tokens_per_s_per_user=p.tokens_per_s_per_user if p else None,
                             output_tokens_per_s_per_gpu=p.output_tokens_per_s_per_gpu if p else None,
                             memory_per_gpu_gib=p.memory_per_gpu_gib if p else None, bound=p.bound if p else None,
                             usd_per_1m_output_tokens=p.usd_per_1m_output_tokens if p else None,
                             precision=sheet.options.precision,
                             kv_dtype=(sheet.options.kv_dtype_by_gpu or {}).get(gpu, sheet.options.kv_dtype),
                             framework=sheet.options.framework, note=r.note))
    return _csv(SHEET_CSV, rows)


def render_report(report, fmt: str) -> str:
    if fmt == "csv":
        return render_report_csv(report)
    if fmt == "json":
        data = _finite(report.model_dump(mode="json"))
        return json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    if fmt == "html":
        return render_report_html(report)
    return render_report_markdown(report)


def render_json(sheet: Sheet) -> str:
    data = _finite(sheet.model_dump(mode="json"))
    return json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def render(sheet: Sheet, fmt: str) -> str:
    if fmt == "csv":
        return render_sheet_csv(sheet)
    if fmt == "json":
        return render_json(sheet)
    if fmt == "html":
        return render_html(sheet)
    return render_markdown(sheet)
