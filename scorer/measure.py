"""Measurements: read a measured-performance CSV, predict every row, and score the predictions.

CSV columns (``../shared/measurements/README.md``): id, model_id, config, gpu, num_gpus, tp, pp,
ep, attention_dp, weight_precision, kv_precision, framework, framework_version, isl, osl,
concurrency, metric, value, unit, source, notes. ``config`` names a folder under ``--corpus``
holding the model's ``config.json``.

Errors are reported as MdAPE (median absolute percentage error) per metric, overall and by GPU,
framework and model, and as Spearman rank correlation per metric. Rows that cannot be predicted
are counted with the reason, never silently dropped.
"""

from __future__ import annotations

import csv
import math
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from statistics import median
from typing import Any, NamedTuple

from pydantic import BaseModel, Field, ValidationError

from .errors import BadInputError, DeploysheetError

METRICS = ("ttft_ms", "tpot_ms", "itl_ms", "output_tokens_per_s_per_gpu", "tokens_per_s_per_user")
REQUIRED_COLUMNS = ("model_id", "config", "gpu", "num_gpus", "tp", "pp", "ep", "attention_dp", "weight_precision",
                    "kv_precision", "framework", "isl", "osl", "concurrency", "metric", "value")
PRECISION_MAP = {"bf16": "bf16", "fp16": "fp16", "fp8": "fp8", "fp8_block": "fp8_block", "nvfp4": "nvfp4",
                 "mxfp4": "mxfp4", "w4a16": "int4", "int4": "int4", "int8": "int8",
                 "w8a16": "w8a16"}


class Row(BaseModel):
    """One measured metric of one serving setup."""

    id: str = ""
    model_id: str
    config: str
    gpu: str
    num_gpus: int = Field(ge=1)
    tp: int = Field(ge=1)
    pp: int = Field(1, ge=1)
    ep: int = Field(1, ge=0)  # 0: not stated (read as 1)
    attention_dp: int = Field(1, ge=1)
    weight_precision: str
    kv_precision: str = ""
    framework: str
    framework_version: str = ""
    isl: int | None = Field(None, ge=1)
    osl: int | None = Field(None, ge=1)
    concurrency: str
    metric: str
    value: float = Field(ge=1e-6, le=1e12, allow_inf_nan=False)  # ms or tokens/s: anything outside is a typo
    notes: str = ""
    harness: str = ""
    num_prompts: int | None = Field(None, ge=1, le=10_000_000)
    range_ratio: float | None = Field(None, ge=0.0, le=1.0, allow_inf_nan=False)



@dataclass
class RowResult:
    row: Row
    predicted: float | None
    skipped: str | None = None
    cost_model: Any = None  # the CostModel the prediction came from (None when skipped)
    prediction: Any = None  # the regimes.Prediction behind ``predicted``
    kv_note: str | None = None  # "<framework> <kv dtype>: <where the dtype came from>" (summary_dict counts them)

    @property
    def ape(self) -> float | None:
        if self.predicted is None or not self.row.value:
            return None
        return abs(self.predicted - self.row.value) / abs(self.row.value) * 100


#: concurrency above this is not a closed-loop benchmark anyone ran (and would overflow the model's sums)
MAX_CONCURRENCY = 1 << 20
#: frameworks with a calibrated profile (data/calibration.json)
FRAMEWORKS = ("vllm", "sglang", "trtllm")
KV_PRECISIONS = ("", "bf16", "fp16", "fp8")


def _int_or_none(text: str | None) -> int | None:
    """An integer cell: empty -> None; ``"8"`` and ``"8.0"`` -> 8.

    Raises:
        ValueError: not a finite integral number (``"inf"``, ``"1e400"``, ``"2.5"``, ``"x"``).
    """
    text = (text or "").strip()
    if not text:
        return None
    val = float(text)
    if not math.isfinite(val) or val != int(val):
        raise ValueError(f"not an integer: {text!r}")
    return int(val)


def _cell_int(rec: dict[str, str], col: str) -> int | None:
    try:
        return _int_or_none(rec.get(col) or "")
    except (ValueError, OverflowError):
        raise ValueError(f"{col}: not an integer ({rec[col][:20]!r})") from None


def _or(val: int | None, default: int) -> int:
    return default if val is None else val


_SAME_SETUP = ("model_id", "config", "gpu", "num_gpus", "tp", "pp", "ep", "attention_dp", "weight_precision",
               "kv_precision", "framework", "framework_version", "isl", "osl", "concurrency", "metric", "value")


#: the largest measurements CSV read (about 500,000 rows of measured.csv's width)
MAX_CSV_BYTES = 256 << 20


def read_rows(path: str | Path) -> tuple[list[Row], list[dict[str, Any]]]:
    """Parse a measurements CSV. Returns (rows, skipped) where skipped lists malformed lines with the reason.

    A UTF-8 byte-order mark is ignored. A row whose id repeats an earlier row's is skipped (counted once):
    as a "duplicate" when setup and value are the same (the source recorded one run twice), else as a
    conflicting duplicate.

    Raises:
        BadInputError: missing file, not a CSV, or missing required columns.
    """
    import io

    from .sources import read_text_file
    try:
        text = read_text_file(path, "measurements", MAX_CSV_BYTES)
    except FileNotFoundError:
        raise BadInputError(f"measurements file not found: {path}") from None
    fh = io.StringIO(text, newline="")
    rows, skipped = [], []
    seen: dict[str, tuple] = {}
    with fh:
        try:
            reader = csv.DictReader(fh)
            header = reader.fieldnames or []
            missing = [c for c in REQUIRED_COLUMNS if c not in header]
            if missing:
                raise BadInputError(f"{path}: missing columns {', '.join(missing)}")
            twice = sorted({c for c in header if header.count(c) > 1})
            if twice:  # csv.DictReader would keep the last copy's cells, silently
                raise BadInputError(f"{path}: column {twice[0][:60]!r} appears {header.count(twice[0])} times in the "
                                    "header; which one holds the values is ambiguous")
            for i, rec in enumerate(reader, start=2):
                extra = rec.get(None)  # csv.DictReader's restkey: the fields beyond the header's columns
                rec = {k: (v if isinstance(v, str) else "") for k, v in rec.items() if k is not None}  # short rows
                rid = rec.get("id") or f"line{i}"
                if extra:
                    skipped.append({"id": rid, "line": i, "reason": f"malformed row: {len(header) + len(extra)} "
                                                                    f"fields, the header has {len(header)} columns"})
                    continue
                try:
                    ints = {c: _cell_int(rec, c) for c in ("num_gpus", "tp", "pp", "ep", "attention_dp", "isl", "osl",
                                                           "num_prompts")}
                    ratio_text = (rec.get("range_ratio") or "").strip()
                    try:
                        ratio = float(ratio_text) if ratio_text else None
                    except ValueError:
                        raise ValueError(f"range_ratio: not a number ({ratio_text[:20]!r})") from None
                    try:
                        value = float(rec["value"])
                    except ValueError:
                        raise ValueError(f"value: not a number ({rec['value'][:20]!r})") from None
                    row = Row(
                        id=rid, model_id=rec["model_id"], config=rec["config"], gpu=rec["gpu"],
                        num_gpus=_or(ints["num_gpus"], 1), tp=_or(ints["tp"], 1), pp=_or(ints["pp"], 1),
                        ep=_or(ints["ep"], 1), attention_dp=_or(ints["attention_dp"], 1),
                        weight_precision=rec["weight_precision"].strip().lower(),
                        kv_precision=(rec.get("kv_precision") or "").strip().lower(),
                        framework=rec["framework"].strip().lower(),
                        framework_version=rec.get("framework_version") or "", isl=ints["isl"], osl=ints["osl"],
                        concurrency=(rec["concurrency"] or "").strip(), metric=rec["metric"].strip(), value=value,
                        notes=rec.get("notes") or "", harness=(rec.get("harness") or "").strip().lower(),
                        num_prompts=ints["num_prompts"], range_ratio=ratio)
                except ValidationError as exc:
                    err = exc.errors()[0]
                    where = ".".join(str(x) for x in err.get("loc", ())) or "row"
                    skipped.append({"id": rid, "line": i, "reason": f"malformed row: {where}: {err.get('msg', '')}"})
                    continue
                except (ValueError, TypeError, OverflowError) as exc:
                    skipped.append({"id": rid, "line": i, "reason": f"malformed row: {str(exc)[:120]}"})
                    continue
                setup = tuple(getattr(row, k) for k in _SAME_SETUP)
                if rid in seen:
                    same = seen[rid] == setup
                    why = ("duplicate of an earlier row with the same id, setup and value" if same
                           else "duplicate id with another setup or value than an earlier row")
                    skipped.append({"id": rid, "line": i, "reason": why})
                    continue
                seen[rid] = setup
                rows.append(row)
        except (csv.Error, UnicodeDecodeError) as exc:
            raise BadInputError(f"{path} is not a readable CSV: {exc}") from None
    return rows, skipped


def spearman(x: list[float], y: list[float]) -> float | None:
    """Spearman rank correlation (average ranks for ties); None for fewer than 3 pairs."""
    if len(x) < 3:
        return None

    def ranks(v):
        order = sorted(range(len(v)), key=lambda i: v[i])
        r = [0.0] * len(v)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]:
                j += 1
            avg = (i + j) / 2 + 1
            for k in range(i, j + 1):
                r[order[k]] = avg
            i = j + 1
        return r

    rx, ry = ranks(x), ranks(y)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    vx = math.sqrt(sum((a - mx) ** 2 for a in rx))
    vy = math.sqrt(sum((b - my) ** 2 for b in ry))
    if vx == 0 or vy == 0:
        return None
    return cov / (vx * vy)


class MetricSummary(BaseModel):
    n: int
    mdape: float | None = Field(description="median absolute percentage error, %")
    spearman: float | None
    p90_ape: float | None = None
    median_ratio: float | None = Field(None, description="median of measured / predicted (above 1: the model "
                                                         "predicts low)")


def layout_kind(framework: str, tp: int, pp: int, ep: int, attention_dp: int) -> str:
    """The group a layout's errors are reported under: '<framework> <kind>', kind one of 'attention-dp' (attention
    data parallelism > 1), 'pp' (pipeline stages), 'tp+ep' (expert parallelism > 1) or 'tp'."""
    kind = "attention-dp" if attention_dp > 1 else "pp" if pp > 1 else "tp+ep" if ep > 1 else "tp"
    return f"{framework} {kind}"


@dataclass
class Report:
    results: list[RowResult]
    skipped: list[dict[str, Any]] = field(default_factory=list)

    def summarize(self, key=None) -> dict[str, dict[str, MetricSummary]]:
        groups: dict[str, dict[str, list[RowResult]]] = defaultdict(lambda: defaultdict(list))
        for r in self.results:
            if r.predicted is None:
                continue
            g = key(r.row) if key else "all"
            groups[g][r.row.metric].append(r)
        out = {}
        for g, by_metric in groups.items():
            out[g] = {m: _summary(rs) for m, rs in sorted(by_metric.items())}
        return out


def _summary(rs: list[RowResult]) -> MetricSummary:
    apes = sorted(r.ape for r in rs if r.ape is not None)
    sp = spearman([r.row.value for r in rs], [r.predicted for r in rs])
    ratios = [r.row.value / r.predicted for r in rs if r.predicted]
    return MetricSummary(n=len(rs), mdape=round(median(apes), 2) if apes else None,
                         spearman=round(sp, 4) if sp is not None else None,
                         p90_ape=round(apes[math.ceil(0.9 * len(apes)) - 1], 2) if apes else None,  # nearest rank
                         median_ratio=round(median(ratios), 3) if ratios else None)


_CONFIG_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,199}")
_REQUESTS = re.compile(r"\b(\d[\d,]*) requests\b")
#: "MTP speculative decoding (3 next-n layers) ON": the row ran MTP drafting that many tokens per step
_MTP = re.compile(r"\bMTP speculative decoding \((\d{1,2}) next-n layers?\)")


def speculative_of(notes: str):
    """The speculative-decoding setting a row's notes state, as (method, drafted tokens per step); None when
    they state none. Raises nothing; a row that names speculative decoding in another form is skipped."""
    m = _MTP.search(notes or "")
    return ("mtp", int(m.group(1))) if m else None


class Protocol(NamedTuple):
    """How a row's benchmark client ran it: mean lengths, the opening wave's share of the requests, and the
    server flags it set (data/harnesses.json)."""

    isl: int
    osl: int
    wave_share: float
    engine_args: dict


def harness_protocol(row: Row, conc) -> Protocol:
    """The :class:`Protocol` of a row: its ``harness`` from data/harnesses.json, with the row's own
    ``num_prompts`` and ``range_ratio`` where given. Lengths drawn uniformly from [r x L, L] average
    (1 + r) / 2 x L; N requests whose first ``concurrency`` arrive together put c / N of them in the wave.
    Rows without a known harness (or ``max`` rows) are the steady state at their stated lengths."""
    from .resources import load_json
    h = load_json("harnesses.json")["harnesses"].get(row.harness) or {}
    ratio = row.range_ratio if row.range_ratio is not None else h.get("range_ratio")
    isl, osl = row.isl, row.osl
    if ratio is not None:
        isl, osl = max(1, round(isl * (1 + ratio) / 2)), max(1, round(osl * (1 + ratio) / 2))
    wave, args = 0.0, {}
    if conc != "max":
        n = row.num_prompts or (h.get("prompts_per_concurrency") or 0) * conc
        if h.get("opening_wave") and n:
            wave = min(1.0, conc / n)
        for k, v in (h.get("engine_args") or {}).items():
            if row.framework == "vllm":
                args[k] = conc if v == "concurrency" else int(v)
    return Protocol(isl, osl, wave, args)


def requests_issued(notes: str) -> int | None:
    """The number of requests a benchmark issued in all, where the source states it ("500 requests"): a
    max-throughput run of N requests never holds more than N at once. A row's ``num_prompts`` column, when
    given, takes precedence over its notes (:meth:`Predictor.predict_row`); a closed-loop row whose
    ``num_prompts`` is below its concurrency is predicted at ``num_prompts`` simultaneous requests."""
    m = _REQUESTS.search(notes or "")
    if not m:
        return None
    n = int(m.group(1).replace(",", ""))
    return n if n >= 1 else None


class Predictor:
    """Predicts measurement rows with a calibration; caches architectures per config folder."""

    def __init__(self, corpus: str | Path, calibration=None):
        from .costmodel import load_calibration
        self.corpus = Path(corpus)
        if not self.corpus.is_dir():
            raise BadInputError(f"--corpus {corpus}: not a folder")
        self.calibration = calibration or load_calibration()
        self._arch: dict[str, Any] = {}
        self._cms: dict[tuple, Any] = {}

    def arch(self, config: str):
        if config not in self._arch:
            from .architecture import normalize
            from .gemms import inventory
            from .params import count_params
            from .sources import load_source
            path = self.corpus / config
            if not (path / "config.json").is_file():
                self._arch[config] = None
            else:
                raw = load_source(str(path))
                a = normalize(raw.config, raw.quant_config)
                self._arch[config] = (a, count_params(a), inventory(a))
        return self._arch[config]

    def predict_row(self, row: Row) -> RowResult:
        from .costmodel import CostModel, Layout, unquantized_components
        from .hardware import get_gpu, get_precision
        from .regimes import predict

        if row.metric not in METRICS:
            return RowResult(row, None, f"unknown metric {row.metric[:40]} (known: {', '.join(METRICS)})")
        if row.isl is None or row.osl is None:
            return RowResult(row, None, "ISL/OSL not fixed in the source")
        if row.concurrency != "max" and not (row.concurrency.isascii() and row.concurrency.isdigit()):
            return RowResult(row, None, f"open-loop load ({row.concurrency[:40]}) is not modelled")
        if row.concurrency != "max" and not 1 <= int(row.concurrency) <= MAX_CONCURRENCY:
            return RowResult(row, None, f"concurrency must be between 1 and {MAX_CONCURRENCY:,}")
        if row.framework not in FRAMEWORKS:
            return RowResult(row, None, f"framework {row.framework[:40]} has no profile (known: "
                                        f"{', '.join(FRAMEWORKS)})")
        if row.kv_precision not in KV_PRECISIONS:
            return RowResult(row, None, f"KV precision {row.kv_precision[:40]} not modelled")
        if not _CONFIG_NAME.fullmatch(row.config) or row.config in (".", ".."):
            return RowResult(row, None, "config must name a folder directly under --corpus")
        spec_of = speculative_of(row.notes)
        if spec_of is None and "speculative" in row.notes.lower():
            return RowResult(row, None, "speculative decoding in a form the notes do not state (method and "
                                        "drafted tokens) is not modelled")
        try:
            gpu = get_gpu(row.gpu)
        except DeploysheetError:
            return RowResult(row, None, f"GPU {row.gpu[:40]} not in the catalog")
        row.gpu = gpu.id  # an alias ("H100") is reported under the catalog id
        from .launch import framework_gpu_problem  # as predict and score refuse it
        if framework_gpu_problem(row.framework, gpu):
            return RowResult(row, None, framework_gpu_problem(row.framework, gpu))
        prec_id = PRECISION_MAP.get(row.weight_precision)
        if prec_id is None:
            return RowResult(row, None, f"precision {row.weight_precision} not modelled")
        try:
            got = self.arch(row.config)
        except DeploysheetError as exc:
            return RowResult(row, None, f"config {row.config}: {exc}")
        if got is None:
            return RowResult(row, None, f"config {row.config} not in the corpus")
        arch, params, gemms = got
        if arch.kind != "decoder":
            return RowResult(row, None, f"{arch.kind} model: decoder serving is not modelled (rule S3)")
        if row.tp * row.pp * row.attention_dp != row.num_gpus:
            return RowResult(row, None, "num_gpus != tp x pp x attention_dp")
        from .regimes import layout_problem
        problem = layout_problem(arch, row.tp, row.pp, max(1, row.ep), row.attention_dp)
        if problem:
            return RowResult(row, None, problem)
        from .kvcache import default_kv_dtype, model_dtype
        auto_kv, auto_source = default_kv_dtype(row.framework, prec_id, model_dtype(row.framework, arch, prec_id),
                                                arch, gpu)
        if row.kv_precision in ("fp8", "bf16", "fp16"):
            kv, kv_source = row.kv_precision, "the row's kv_precision"
        else:  # empty: the framework's default, the one predict and score take (kvcache.default_kv_dtype)
            kv, kv_source = auto_kv, auto_source.replace("pass --kv-dtype", "set the row's kv_precision to")
        from .launch import kv_launch_problem  # only what the engine launches, as predict and score
        why = kv_launch_problem(row.framework, kv, auto_kv, arch, gpu, "the row's kv_precision")
        if why:
            return RowResult(row, None, why)
        prec = get_precision(prec_id)
        unq = unquantized_components(arch, prec_id)
        key = (row.config, gpu.id, prec_id, row.tp, row.pp, max(1, row.ep), row.attention_dp, kv, row.framework)
        conc = "max" if row.concurrency == "max" else int(row.concurrency)
        if conc != "max" and row.num_prompts is not None and row.num_prompts < conc:
            conc = row.num_prompts  # a client that issues N requests never holds more than N at once
        from .resources import load_json
        known = load_json("harnesses.json")["harnesses"]
        if row.harness and row.harness not in known:
            return RowResult(row, None, f"unknown harness {row.harness[:40]!r} (known: {', '.join(known)}; "
                                        "data/harnesses.json)")
        proto = harness_protocol(row, conc)
        spec = None
        if spec_of is not None:
            from .costmodel import speculative_setting
            try:  # the method's default acceptance (costmodel.SPECULATIVE), the row's drafted tokens
                spec = speculative_setting(spec_of[0], arch, tokens=spec_of[1])
            except DeploysheetError as exc:
                return RowResult(row, None, f"speculative decoding: {exc}")
        key += (tuple(sorted(proto.engine_args.items())), spec)
        cm = self._cms.get(key)
        if cm is None:
            layout = Layout(tp=row.tp, pp=row.pp, ep=max(1, row.ep), dp=row.attention_dp)
            cm = self._cms[key] = CostModel(arch, params, gpu, prec, layout, kv, row.framework, self.calibration,
                                            unq, gemms, engine_args=proto.engine_args, speculative=spec)
        p = predict(cm, proto.isl, proto.osl, conc,
                    max_requests=(row.num_prompts or requests_issued(row.notes)) if conc == "max" else None,
                    engine_choice=True,
                    wave_share=proto.wave_share)
        if p.tpot_ms is None:
            free = cm.p.get("kv_free_fraction", 0.0)
            share = (f"KV cache in {free:g} of the memory left after the weights (kv_free_fraction)" if free > 0 else
                     ("SGLang default --mem-fraction-static" if cm.sglang_default_fraction()
                      else "memory share (vLLM --gpu-memory-utilization)") + f" {cm.mem_fraction():g} for weights and KV cache")
            return RowResult(row, None, "the weights plus one sequence's KV cache do not fit in the modelled memory "
                                        f"({share}, on {row.gpu}'s {cm.gpu.memory_bytes / 2 ** 30:.0f} GiB less the "
                                        "runtime reserve)")
        val = {"ttft_ms": p.ttft_ms, "tpot_ms": p.tpot_ms, "itl_ms": p.tpot_ms,
               "output_tokens_per_s_per_gpu": p.output_tokens_per_s_per_gpu,
               "tokens_per_s_per_user": p.tokens_per_s_per_user}[row.metric]
        return RowResult(row, val, cost_model=cm, prediction=p, kv_note=f"{row.framework} {kv}: {kv_source}")

    def run(self, rows: list[Row]) -> Report:
        return Report([self.predict_row(r) for r in rows])
