"""The deployment sheet: one pydantic object every output format renders (DESIGN principle 5).

:func:`build_sheet` runs the analyses in order — normalize, parameters, KV cache, GEMM inventory,
hardware fit, quantization readiness, serving regimes, findings, score, recommendations — and
collects the assumptions and sources behind every number.
"""

from __future__ import annotations

import datetime
import math
from typing import Any

from pydantic import BaseModel, Field

from . import SCHEMA_VERSION, __version__
from .architecture import AttentionSpec, MLASpec, ModelArch, MoEMLP, normalize
from .checkpoint import CheckpointCounts, analyze, mismatch_message, shapes_differ, stored_weight_bytes
from .costmodel import (CostModel, Layout, component_weight_bytes, fp8_block_label, fp8_block_of, load_calibration,
                        quantized_weight_bytes, unquantized_components)
from .errors import BadInputError
from .fit import HardwareFit, hardware_fit
from .gemms import Gemm, inventory, vision_inventory
from .hardware import GIB, catalog, catalog_price, get_gpu, get_precision, gpu_sources, precisions
from .kvcache import KV_DTYPES, POLICIES, KVCache, kv_cache
from .params import ParamCounts, count_params
from .quant import QuantReadiness, readiness
from .recommend import Recommendation, recommend
from .regimes import (SLA_CONCURRENCIES, Frontier, Prediction, RegimeResult, cheapest_meeting, pareto, refused_note,
                      run_regimes, sweep, to_prediction, valid_tp)
from .score import Finding, Score, compute_score, findings
from .sources import Provenance, RawModel

DEFAULT_GPU = "H100-SXM"
#: checkpoint quantization formats the cost model can run as-is
CHECKPOINT_PRECISIONS = {"fp8": "fp8", "fp8_channel": "fp8_channel", "fp8_block": "fp8_block", "nvfp4": "nvfp4",
                         "mxfp4": "mxfp4", "int4": "int4", "int8": "int8", "w8a16": "w8a16"}


class Options(BaseModel):
    gpus: list[str] = Field(default_factory=lambda: [DEFAULT_GPU])
    precision: str | None = Field(None, description="weight precision; None = the checkpoint's own (its 16-bit dtype "
                                                             "if unquantized)")
    kv_dtype: str = "auto"
    #: why the KV dtype is what it is, when --kv-dtype was left at auto (the framework's default)
    kv_dtype_source: str | None = None
    #: the KV dtype each scored GPU runs (resolved by build_sheet; an engine's auto may differ per GPU, e.g. SGLang
    #: caches DeepSeek sparse attention in fp8 from SM100 on, bf16 below); None before resolution
    kv_dtype_by_gpu: dict[str, str] | None = None
    #: why the weight precision is what it is, when --precision was not given (the checkpoint's format or dtype)
    precision_source: str | None = None
    kv_policy: str = "auto"
    speculative: str = "none"
    spec_tokens: int | None = None
    acceptance_rate: float | None = None
    tp: int | None = None
    framework: str = "vllm"
    usd_per_gpu_hour: float | None = None
    calibration: str | None = None
    recommendations: bool = True
    ttft_ms: float | None = Field(None, description="TTFT target for the SLA search, ms")
    itl_ms: float | None = Field(None, description="inter-token latency (TPOT) target for the SLA search, ms")
    isl: int = Field(1024, description="input tokens per request of the frontier and SLA-search workload")
    osl: int = Field(1024, description="output tokens per request of the frontier and SLA-search workload")


#: longest --isl / --osl accepted: beyond any model's context (Llama 4 Scout: 10M tokens)
MAX_WORKLOAD_TOKENS = 1 << 24


class ModelSummary(BaseModel):
    name: str
    provenance: Provenance
    model_type: str
    family: str
    architectures: list[str]
    config_class: str | None
    kind: str
    hidden_size: int
    num_layers: int
    layer_kinds: dict[str, int]
    num_heads: int | None
    num_kv_heads: int | None
    head_dim: int | None
    vocab_size: int
    max_positions: int | None
    tie_word_embeddings: bool
    moe: dict[str, Any] | None
    mla: dict[str, Any] | None
    quantization: dict[str, Any] | None
    custom_code: bool = Field(description="loading it runs the repository's own code (an auto_map and a model_type "
                                          "transformers has no class for; a known type's auto_map is not needed)")
    dtype: str | None
    rope: str | None
    vision_note: str | None
    guesses: list[str]
    generates: bool = Field(True, description="the checkpoint has a vocabulary lm_head and generates text (False: an "
                                              "encoder, or a reward / classification / embedding head)")
    arch: ModelArch


class WeightMemory(BaseModel):
    precision: str
    label: str
    bytes: int
    gib: float
    source: str = Field("config", description="'config' (params x bytes per weight) or 'checkpoint' (the "
                                              "safetensors headers' stored bytes of the language model)")
    vision_bytes: int = Field(0, description="bytes of the vision tower and projector, at 16 bits (engines do not "
                                             "quantize them), included in ``bytes`` as in the memory fit")


class SheetParams(ParamCounts):
    """The config-derived counts (:class:`~scorer.params.ParamCounts`) and, beside them, the checkpoint's."""

    exact: bool = Field(True, description="the counts are derived, not estimated: the family's layout is verified "
                                          "against transformers on the meta device, nothing was guessed and every "
                                          "shape key of the config was read")
    unmodelled_keys: list[str] = Field(default_factory=list, description="config keys that may change shapes and "
                                                                         "that no reader consumed")
    estimate_reasons: list[str] = Field(default_factory=list, description="why the counts are estimated (empty when "
                                                                          "exact)")

    checkpoint: CheckpointCounts | None = Field(
        None, description="what the safetensors headers store (null when there are none or they are unreadable: "
                          "the reason is in sources, id 'checkpoint')")


class Capacity(BaseModel):
    gpu: str
    precision: str
    tp: int
    weights_per_gpu_gib: float
    max_sequences: dict[int, int] = Field(description="context tokens -> concurrent sequences whose KV fits")
    engine_blocker: str | None = Field(None, description="why the framework refuses this precision at this TP "
                                                         "(readiness matrix), or null when it runs")
    pp: int = 1
    ep: int = Field(1, description="expert-parallel degree (EP = TP: each expert whole on a rank)")
    layout: str | None = Field(None, description="the layout's label where it is more than TP ``tp`` on one node "
                                                 "(TP16, TP8·PP2, TP8·EP8); null: TP ``tp`` on one node")
    num_gpus: int | None = Field(None, description="GPUs of the layout (null: ``tp``)")
    nodes: int = Field(1, description="servers the layout spans")


class HubParamCheck(BaseModel):
    stored_total: int = Field(description="elements in the Hub's safetensors metadata")
    by_dtype: dict[str, int]
    config_total: int = Field(description="params.total + MTP + vision counted from the config")
    delta_pct: float | None = Field(None, description="(stored - config) / config, when comparable")
    comparable: bool
    note: str


class SLAResult(BaseModel):
    ttft_ms: float | None
    itl_ms: float | None
    isl: int
    osl: int
    best: dict[str, Prediction | None] = Field(description="GPU -> cheapest layout meeting both targets (None: no "
                                                           "layout does)")


class Source(BaseModel):
    id: str
    text: str
    trusted: bool = Field(False, description="text from deploysheet's own data/ (rendered verbatim)")


class Sheet(BaseModel):
    schema_version: str = SCHEMA_VERSION
    generator: dict[str, str]
    options: Options
    model: ModelSummary
    params: SheetParams
    weights: list[WeightMemory]
    kv_cache: KVCache
    gemms: list[Gemm]
    vision_gemms: list[Gemm] = Field(default_factory=list)
    hardware_fit: HardwareFit
    quantization: QuantReadiness
    regimes: dict[str, list[RegimeResult]] = Field(description="GPU id -> regime results")
    frontier: dict[str, Frontier] = Field(default_factory=dict, description="GPU id -> throughput/interactivity "
                                                                            "Pareto frontier (1k/1k workload)")
    sla: SLAResult | None = None
    expected_error_pct: dict[str, float | None] = Field(
        default_factory=dict, description="metric -> leave-one-model-out MdAPE of the calibration, %")
    score: Score
    findings: list[Finding]
    recommendations: list[Recommendation]
    hub_params: HubParamCheck | None = None
    capacity: list[Capacity] = Field(default_factory=list, description="per valid TP on the primary GPU")
    engine_refusal: str | None = Field(None, description="options.framework cannot load the architecture at any "
                                                         "layout (rule S6): one line saying so, else None")
    engine_limit: str | None = Field(None, description="options.framework loads the architecture only without "
                                                       "tensor or pipeline parallelism (rule S6: a Transformers "
                                                       "backend that needs the config class's plans), else None")
    report_tps: list[int] = Field(default_factory=lambda: [1, 2, 4, 8],
                                  description="TP degrees the tables show (16 and 32 when one node is too small)")
    assumptions: list[str]
    sources: list[Source]

    @property
    def primary_gpu(self) -> str:
        return self.options.gpus[0]

    @property
    def checkpoint_refused(self) -> bool:
        """A HARD C1 finding: the checkpoint's tensor shapes differ from the config, so engines refuse to load it."""
        return any(f.rule == "C1" and f.severity == "HARD" for f in self.findings)

    @property
    def unsized_checkpoint(self) -> str | None:
        """The checkpoint's quantization format and method ("nf4 (bitsandbytes)") when the sheet does not size it (a
        Q9 finding: weights, fit and predictions are at the 16-bit dtype), else None."""
        q = self.model.quantization
        if q and any(f.rule == "Q9" and f.severity == "HARD" for f in self.findings):
            from .quant import _short
            return f"{q.get('format')} ({_short(str(q.get('method')))})"
        return None

    @property
    def smallest_fit(self) -> Capacity | None:
        """The lowest TP degree whose weights fit with room for one sequence of the shortest reported context."""
        return next((c for c in self.capacity if c.engine_blocker is None and c.max_sequences
                     and min(c.max_sequences.items())[1] >= 1), None)


def _engine_refusal(arch: ModelArch, framework: str, speculative: str | None = None) -> str | None:
    """The one-line S6 refusal of ``framework`` for ``arch`` (scorer.engine_models), or None when it loads it; with
    ``speculative`` "eagle3", also an implementation that cannot be an EAGLE-3 target (no layout changes that)."""
    from .engine_models import REFUSED, engine_support
    impl = engine_support(arch, framework)
    if impl is None:
        return None
    if impl.status in REFUSED:
        return f"{impl.label} cannot load {impl.architecture or 'the model'} (rule S6)"
    if speculative == "eagle3" and impl.no_eagle3:
        return f"{impl.label} cannot run EAGLE-3 speculative decoding on {impl.architecture or 'the model'} (rule S6)"
    return None


def _engine_limit(arch: ModelArch, framework: str) -> str | None:
    """One line when ``framework``'s Transformers backend refuses TP > 1 or PP > 1 for ``arch`` (rule S6), else
    None."""
    from .engine_models import engine_support
    impl = engine_support(arch, framework)
    if impl is None:
        return None
    no_tp, no_pp = impl.missing_plans
    if not (no_tp or no_pp):
        return None
    what = " or ".join(w for w, off in (("tensor", no_tp), ("pipeline", no_pp)) if off)
    return (f"{impl.label} runs {impl.architecture} on its Transformers backend without {what} parallelism "
            "(rule S6)")


def _model_name(prov: Provenance) -> str:
    if prov.label:
        return prov.label
    if prov.kind == "hub":
        return prov.repo_id or prov.source
    if prov.kind == "example":
        return prov.source
    return prov.path or prov.source


def _summary(arch: ModelArch, prov: Provenance) -> ModelSummary:
    kinds: dict[str, int] = {}
    for lay in arch.layers:
        k = lay.kind_label
        if isinstance(lay.ffn, MoEMLP):
            k += "+moe"
        kinds[k] = kinds.get(k, 0) + 1
    att = arch.first_attention()
    moe = next((lay.ffn for lay in arch.layers if isinstance(lay.ffn, MoEMLP)), None)
    moe_d = None
    if moe is not None:
        moe_d = {"experts": moe.num_experts, "top_k": moe.top_k, "expert_intermediate": moe.expert_intermediate,
                 "shared_intermediate": moe.shared.intermediate if moe.shared else 0,
                 "moe_layers": sum(isinstance(lay.ffn, MoEMLP) for lay in arch.layers)}
    mla = None
    if isinstance(att, MLASpec):
        mla = {"q_lora_rank": att.q_lora_rank, "kv_lora_rank": att.kv_lora_rank,
               "qk_nope_head_dim": att.qk_nope_head_dim, "qk_rope_head_dim": att.qk_rope_head_dim,
               "v_head_dim": att.v_head_dim}
    return ModelSummary(
        name=_model_name(prov), provenance=prov, model_type=arch.model_type, family=arch.family,
        architectures=arch.architectures, config_class=arch.config_class, kind=arch.kind,
        hidden_size=arch.hidden_size, num_layers=arch.num_layers, layer_kinds=kinds,
        num_heads=att.num_heads if att else None,
        num_kv_heads=(att.num_kv_heads if isinstance(att, AttentionSpec) else None) if att else None,
        head_dim=att.head_dim if att else None, vocab_size=arch.vocab_size, max_positions=arch.max_positions,
        tie_word_embeddings=arch.tie_word_embeddings, moe=moe_d, mla=mla,
        quantization=arch.quantization.model_dump() if arch.quantization else None, custom_code=arch.needs_remote_code,
        dtype=arch.dtype, rope=arch.rope, vision_note=arch.vision_note, guesses=arch.guesses,
        generates=arch.has_lm_head_gemm, arch=arch)


def default_precision(arch: ModelArch, framework: str = "vllm") -> str:
    """The weight precision a sheet or prediction assumes without ``--precision``: a quantized checkpoint's own
    format, else the 16-bit dtype ``framework`` runs the checkpoint in at ``--dtype auto`` (bf16 or fp16, see
    :func:`scorer.kvcache.served_dtype`)."""
    q = arch.quantization
    if q is not None and q.format in CHECKPOINT_PRECISIONS:
        return CHECKPOINT_PRECISIONS[q.format]
    from .kvcache import served_dtype
    return served_dtype(framework, arch.dtype, arch.model_type)[0]


def _sentence(note: str) -> str:
    """A note as a sentence: its first letter capitalised unless the note opens with a path, repo id or name that
    holds a slash or dot in its first word (model-controlled text keeps its case), and a closing period."""
    first = note.split(" ", 1)[0]
    head = note if ("/" in first or "." in first.rstrip(".:,;")) else note[:1].upper() + note[1:]
    return head if head.endswith(".") else head + "."


def _weights_table(arch: ModelArch, params: ParamCounts, gemms: list[Gemm],
                   ck: CheckpointCounts | None = None, serving: str | None = None) -> list[WeightMemory]:
    """Weight memory per precision from the config; the checkpoint's stored bytes at the precision it is stored at.
    The usual precisions, and the ``serving`` one (e.g. an FP8-block checkpoint's fp8_block) where it is another."""
    out = []
    from .costmodel import excluded_share, unquantized_components, unquantized_projections
    from .gemms import shared_weight_factor
    factor = shared_weight_factor(arch, params.total, params.by_component["embedding"], gemms)
    shown = ["bf16", "fp8", "nvfp4", "mxfp4", "int4"]
    if serving and serving not in shown and serving in precisions():
        shown.append(serving)
    vision = int((params.vision or 0) * 2)
    for pid in shown:
        p = precisions()[pid]
        # the components the checkpoint leaves unquantized at its own format stay 16-bit (as the memory fit has them)
        unq = unquantized_components(arch, pid)
        projs = unquantized_projections(arch, pid)
        per = component_weight_bytes(arch, p)  # a mixed checkpoint at its own format: each component at its own
        qb = quantized_weight_bytes(p, arch.quantization)
        label = p.label
        if pid == "fp8_block" and arch.quantization is not None and arch.quantization.format == "fp8_block":
            label = fp8_block_label(fp8_block_of(arch.quantization))  # the checkpoint's weight_block_size
        quantized = [(g, excluded_share(g, projs)) for g in gemms if g.quantizable and g.component not in unq]
        quantized = [(g, s) for g, s in quantized if s < 1.0]
        gemm_q = sum(g.params * (1.0 - s) for g, s in quantized) * factor
        rest = params.total - gemm_q  # norms, embeddings, unquantized GEMMs (a tied lm_head is counted once)
        b = sum(g.params * (1.0 - s) * per.get(g.component, qb) for g, s in quantized) * factor + rest * 2.0
        stored = stored_weight_bytes(ck, pid)
        if stored:
            out.append(WeightMemory(precision=pid, label=label, bytes=int(stored + vision),
                                    gib=round((stored + vision) / GIB, 2), source="checkpoint", vision_bytes=vision))
            continue
        out.append(WeightMemory(precision=pid, label=label, bytes=int(b + vision), gib=round((b + vision) / GIB, 2),
                                vision_bytes=vision))
    return out


def _capacity_row(build, gpu, prec_id: str, lay: Layout, kv: KVCache, policy: str) -> Capacity:
    """One capacity row: weights per GPU and the sequences whose KV fits at each reported context, on ``lay``."""
    cm = build(lay)
    nodes = cm.topology.nodes(lay.num_gpus)
    plain = lay.pp == 1 and lay.ep == 1 and lay.dp == 1 and nodes == 1  # TP ``tp`` on one node
    return Capacity(gpu=gpu.id, precision=prec_id, tp=lay.tp, pp=lay.pp, ep=lay.ep,
                    layout=None if plain else lay.label, num_gpus=None if plain else lay.num_gpus,
                    nodes=nodes, weights_per_gpu_gib=round(cm.weights_per_gpu() / GIB, 2),
                    max_sequences={c: cm.max_concurrency(c, policy) for c in kv.per_sequence_bytes},
                    engine_blocker=cm.engine_blocker())


def _multinode_capacity(arch: ModelArch, build, gpu, prec_id: str, kv: KVCache, policy: str) -> list[Capacity]:
    """Capacity rows of the layouts the regimes try when no single stage of one node holds the model
    (:func:`scorer.regimes.multinode_layouts`: one node's pipeline stages, TP across nodes, TP8 x PP stages, with EP
    for MoE experts), fewest GPUs first."""
    from .regimes import multinode_layouts, valid_tp
    from .resources import load_json
    lays = multinode_layouts(arch, [t for t in load_json("regimes.json")["tp_degrees"] if valid_tp(arch, t)],
                             arch.is_moe)
    return [_capacity_row(build, gpu, prec_id, lay, kv, policy)
            for lay in sorted(lays, key=lambda x: (x.num_gpus, x.tp, x.ep))]


def _lomo(cal) -> dict:
    val = cal.validation.get("leave_one_model_out") if isinstance(cal.validation, dict) else None
    return val if isinstance(val, dict) else {}  # a hand-edited file may hold anything here


def _mdape(entry: Any, min_n: int = 0) -> float | None:
    if not isinstance(entry, dict):
        return None
    m, n = entry.get("mdape"), entry.get("n", 0)
    ok = isinstance(m, (int, float)) and not isinstance(m, bool) and math.isfinite(m) and m >= 0
    return float(m) if ok and isinstance(n, (int, float)) and n >= min_n else None


def _table(val: dict, table: str) -> dict:
    got = val.get(table)
    return {k: v for k, v in got.items() if isinstance(v, dict)} if isinstance(got, dict) else {}


#: rows a GPU or framework group needs before its own error figure is used (an assumption: the median of
#: fewer rows is too noisy to stand for the group)
MIN_GROUP_ROWS = 10


ERROR_METRICS = ("ttft_ms", "tpot_ms", "output_tokens_per_s_per_gpu")


def _gpu_error(by_gpu: dict, gpu_id: str | None, metric: str) -> tuple[float | None, bool]:
    """(figure, own): the GPU's own LOMO MdAPE for ``metric`` when it rests on enough rows, else the
    widest figure among the GPUs that have one (own = False)."""
    own = _mdape((by_gpu.get(gpu_id or "") or {}).get(metric), MIN_GROUP_ROWS)
    if own is not None:
        return own, True
    others = [v for v in (_mdape(g.get(metric), MIN_GROUP_ROWS) for g in by_gpu.values()) if v is not None]
    return (max(others) if others else None), False


def _layout_group(val: dict, framework: str | None, layout) -> tuple[str, dict]:
    """(layout kind, the validation's by_layout entry of it) for ``framework`` on ``layout`` (measure.layout_kind);
    ("", {}) without a layout or a framework."""
    if layout is None or not framework:
        return "", {}
    from .measure import layout_kind
    kind = layout_kind(framework, layout.tp, layout.pp, layout.ep, layout.dp)
    return kind, _table(val, "by_layout").get(kind, {})


def expected_errors(cal, gpu_id: str | list[str] | None = None, framework: str | None = None, layout=None
                    ) -> dict[str, float | None]:
    """Expected error (%) per metric: the leave-one-model-out MdAPE of the calibration's validation.

    Conservative, per metric: the widest of the GPU's, the framework's and (given a ``layout``: a Layout with
    tp / pp / ep / dp) the framework's layout kind's own figures (each used when it rests on at least
    ``MIN_GROUP_ROWS`` rows of that metric); a GPU without enough rows of a metric takes the widest measured
    GPU's figure; several GPUs take the widest of theirs; the overall figure when no group has one. None where
    the calibration carries no validation.
    """
    val = _lomo(cal)
    by_gpu, by_fw = _table(val, "by_gpu"), _table(val, "by_framework")
    group = _layout_group(val, framework, layout)[1]
    gpu_ids = gpu_id if isinstance(gpu_id, list) else [gpu_id]
    out: dict[str, float | None] = {}
    for metric in ERROR_METRICS:
        cands = [_mdape(by_fw.get(framework or "", {}).get(metric), MIN_GROUP_ROWS),
                 _mdape(group.get(metric), MIN_GROUP_ROWS)]
        cands += [_gpu_error(by_gpu, g, metric)[0] for g in gpu_ids]
        cands = [c for c in cands if c is not None]
        out[metric] = max(cands) if cands else _mdape((val.get("metrics") or {}).get(metric)
                                                       if isinstance(val.get("metrics"), dict) else None)
    return out


_METRIC_NAMES = {"ttft_ms": "TTFT", "tpot_ms": "TPOT", "output_tokens_per_s_per_gpu": "tokens/s/GPU"}


def error_caveats(cal, gpu_id: str, framework: str) -> list[str]:
    """What the expected-error figures rest on, when it is thinner than the GPU's and framework's own rows."""
    val = _lomo(cal)
    if not val:
        return []
    out = []
    by_gpu, by_fw = _table(val, "by_gpu"), _table(val, "by_framework")
    lacking = [_METRIC_NAMES[m] for m in ERROR_METRICS if not _gpu_error(by_gpu, gpu_id, m)[1]]
    if lacking:
        out.append(f"the calibration has too few {', '.join(lacking)} measurements on {gpu_id} (under "
                   f"{MIN_GROUP_ROWS} rows): those error bars are the widest of the measured GPUs'")
    if framework not in by_fw:
        out.append(f"the calibration has no measurements with {framework}: its error bars are not its own")
    return out


#: a layout kind's held-out measurements ran this many times above (or below, its inverse) the model's
#: predictions in the median before a note says so (an assumption: a bias past the typical error bar)
BIAS_NOTE_RATIO = 1.5


def layout_bias_notes(cal, framework: str, layout) -> list[str]:
    """Notes where the calibration's held-out measurements of ``framework`` on ``layout``'s kind (attention DP,
    pipeline, expert or tensor parallel; at least ``MIN_GROUP_ROWS`` rows of a metric) ran a median
    ``BIAS_NOTE_RATIO`` times above or below the model's predictions: the figure is then a floor or a ceiling."""
    kind, group = _layout_group(_lomo(cal), framework, layout)
    out = []
    for metric in ERROR_METRICS:
        m = group.get(metric)
        if not isinstance(m, dict) or not isinstance(m.get("n"), int) or m["n"] < MIN_GROUP_ROWS:
            continue
        ratio = m.get("median_ratio")
        if not isinstance(ratio, (int, float)) or isinstance(ratio, bool) or not math.isfinite(ratio) or ratio <= 0:
            continue
        if ratio >= BIAS_NOTE_RATIO or ratio <= 1 / BIAS_NOTE_RATIO:
            out.append(f"on the calibration's held-out measurements of {kind} layouts ({m['n']} rows), measured "
                       f"{_METRIC_NAMES[metric]} ran a median {ratio:.2g}x the model's prediction: read this "
                       f"{_METRIC_NAMES[metric]} as {'a floor' if ratio > 1 else 'a ceiling'} (the engine's "
                       "scheduling of this layout is not fully modelled)")
    return out


def cost_model_factory(arch: ModelArch, params: ParamCounts, gemms: list[Gemm], prec, kv_dtype: str | dict[str, str],
                       framework: str,
                       calibration, unq: set[str], kv_policy: str = "vllm", stored_bytes: float | None = None,
                       speculative=None):
    """``make_cm(gpu)`` -> ``build(Layout) -> CostModel``: one cost model per (GPU, layout), shared by every caller
    of the factory (regimes, sweeps and capacity reuse their memoized steps). ``stored_bytes``: the checkpoint's
    stored weight bytes, which the memory fit uses instead of the modelled ones (CostModel.stored_weight_bytes).
    ``kv_dtype``: one KV dtype, or one per GPU id (Options.kv_dtype_by_gpu): an engine's auto may differ by GPU."""
    cms: dict[tuple, CostModel] = {}

    def make_cm(gpu):
        def build(layout: Layout) -> CostModel:
            key = (gpu.id, layout.tp, layout.pp, layout.ep, layout.dp)
            if key not in cms:
                kv = kv_dtype[gpu.id] if isinstance(kv_dtype, dict) else kv_dtype
                cms[key] = CostModel(arch, params, gpu, prec, layout, kv, framework, calibration, unq, gemms,
                                     kv_policy, stored_weight_bytes=stored_bytes, speculative=speculative)
            return cms[key]
        return build
    return make_cm


def validate_options(opts: Options) -> None:
    """Check GPUs, precision, KV dtype and policy, TP range and calibration file (BadInputError)."""
    seen: dict[str, str] = {}
    for g in opts.gpus or [DEFAULT_GPU]:
        gpu = get_gpu(g)
        if gpu.id in seen:  # as compare says: the sheet would show the same GPU twice
            raise BadInputError(f"GPU listed twice: {seen[gpu.id]} and {g} are both {gpu.id}"[:300])
        seen[gpu.id] = g
        from .launch import framework_gpu_problem
        if framework_gpu_problem(opts.framework, gpu):
            raise BadInputError(framework_gpu_problem(opts.framework, gpu))
    if opts.precision:
        get_precision(opts.precision)
    if opts.kv_dtype != "auto" and opts.kv_dtype not in KV_DTYPES:
        raise BadInputError(f"unknown KV dtype {opts.kv_dtype!r}; known: auto, {', '.join(KV_DTYPES)}")
    if opts.kv_policy != "auto" and opts.kv_policy not in POLICIES:
        raise BadInputError(f"unknown KV policy {opts.kv_policy!r}; known: auto (the framework's), {', '.join(POLICIES)}")
    if opts.speculative in (None, "", "none") and (opts.spec_tokens is not None or opts.acceptance_rate is not None):
        raise BadInputError("--spec-tokens and --acceptance-rate need --speculative mtp or eagle3")
    if opts.tp is not None and not 1 <= opts.tp <= 1024:
        raise BadInputError(f"--tp must be between 1 and 1024, got {opts.tp}")
    for name, val in (("isl", opts.isl), ("osl", opts.osl)):
        if not 1 <= val <= MAX_WORKLOAD_TOKENS:
            raise BadInputError(f"--{name} must be between 1 and {MAX_WORKLOAD_TOKENS:,} tokens, got {val:,}")
    load_calibration(opts.calibration)


def build_sheet(raw: RawModel, opts: Options | None = None) -> Sheet:
    """Run every analysis on a loaded config and assemble the sheet.

    Raises:
        ConfigError / BadInputError: unusable config, unknown GPU, precision, KV dtype or policy.
    """
    opts = opts or Options()
    validate_options(opts)
    gpus = [get_gpu(g) for g in (opts.gpus or [DEFAULT_GPU])]
    opts = opts.model_copy(update={"gpus": [g.id for g in gpus]})
    calibration = load_calibration(opts.calibration)

    arch = normalize(raw.config, raw.quant_config)
    prec_id = opts.precision or default_precision(arch, opts.framework)
    prec = get_precision(prec_id)
    from .kvcache import default_kv_dtype, model_dtype, served_dtype
    kv_note = None
    autos = {g.id: default_kv_dtype(opts.framework, prec.id, model_dtype(opts.framework, arch, prec.id), arch, g)
             for g in gpus}  # the engine's auto per GPU: it may differ by SM (kvcache.default_kv_dtype)
    auto_kv, auto_note = autos[gpus[0].id]
    if opts.kv_dtype == "auto":
        kv_note = auto_note + (f" (on {gpus[0].id})" if len(gpus) > 1 else "") + "".join(
            f"; {gid} takes {kv}: {why}" for gid, (kv, why) in autos.items() if kv != auto_kv)
        by_gpu = {gid: kv for gid, (kv, _) in autos.items()}
        opts = opts.model_copy(update={"kv_dtype": auto_kv, "kv_dtype_source": kv_note, "kv_dtype_by_gpu": by_gpu})
    else:
        opts = opts.model_copy(update={"kv_dtype_by_gpu": {g.id: opts.kv_dtype for g in gpus},
                                       "kv_dtype_source": "--kv-dtype"})  # as predict states it
    from .launch import kv_launch_problem  # only what the engine launches (as predict), on every GPU scored
    for gpu in gpus:
        why = kv_launch_problem(opts.framework, opts.kv_dtype_by_gpu[gpu.id], autos[gpu.id][0], arch, gpu)
        if why:
            from .errors import KVLaunchError
            raise KVLaunchError(why, gpu.id)
    prec_note = None
    if not opts.precision:
        q = arch.quantization
        prec_note = (f"the checkpoint's {q.format} quantization" if q is not None and q.format in CHECKPOINT_PRECISIONS
                     else served_dtype(opts.framework, arch.dtype, arch.model_type)[1])
    opts = opts.model_copy(update={"precision": prec.id, "precision_source": prec_note})
    config_params = count_params(arch)
    ck = analyze(raw.checkpoint, arch, config_params) if raw.checkpoint is not None else None
    reasons = estimate_reasons(arch)
    if ck is not None and not ck.matches:  # the weights themselves say the config-derived counts are off
        reasons.append(f"the checkpoint stores {ck.delta_pct:+.2f}% against the config-derived count (rule C1)")
    params = SheetParams(**config_params.model_dump(), checkpoint=ck, exact=arch.exact and not (
        ck is not None and not ck.matches), unmodelled_keys=arch.unmodelled_keys, estimate_reasons=reasons)
    stored = stored_weight_bytes(ck, prec.id)
    gemms = inventory(arch)
    contexts = tuple(sorted({min(c, arch.context_limit) if arch.context_limit else c for c in (4096, 32768, 131072)}))
    from .kvcache import engine_kv, resolve_policy
    opts = opts.model_copy(update={"kv_policy": resolve_policy(opts.kv_policy, opts.framework)})
    kv = kv_cache(arch, opts.kv_dtype, opts.kv_policy, contexts=contexts, engine=engine_kv(opts.framework, gpus[0]))
    from .score import relevant_tps
    report_tps = list(relevant_tps(params))
    fit = hardware_fit(arch, gemms, gpus[0], list(catalog().values()), tps=tuple(report_tps))
    quant = readiness(arch, gemms, valid_tp=fit.parallelism.valid_tp)
    unq = unquantized_components(arch, prec.id)
    if opts.tp is not None and not valid_tp(arch, opts.tp):
        from .regimes import layout_alternatives
        raise BadInputError(f"--tp {opts.tp} is not valid for this model: {arch.first_attention().num_heads} heads"
                            f" / {getattr(arch.first_attention(), 'num_kv_heads', '?')} KV heads (rules T1, T2); "
                            + layout_alternatives(arch, opts.tp, 1, 1, 1))

    from .costmodel import speculative_setting
    spec = speculative_setting(opts.speculative, arch, opts.spec_tokens, opts.acceptance_rate)
    make_cm = cost_model_factory(arch, params, gemms, prec, opts.kv_dtype_by_gpu, opts.framework, calibration, unq,
                                 opts.kv_policy, stored, spec)

    regimes: dict[str, list[RegimeResult]] = {}
    frontier: dict[str, Frontier] = {}
    best: dict[str, Prediction | None] = {}
    want_sla = opts.ttft_ms is not None or opts.itl_ms is not None
    too_long = bool(arch.context_limit) and opts.isl + opts.osl > arch.context_limit
    for gpu in gpus if arch.kind == "decoder" else []:
        price = opts.usd_per_gpu_hour or catalog_price(gpu)
        regimes[gpu.id] = run_regimes(make_cm(gpu), arch, gpu.id, prec.id, price, opts.tp)
        from .launch import launch_command
        for r in regimes[gpu.id]:
            x = r.prediction
            if x is not None and x.tpot_ms is not None:
                r.launch = launch_command(make_cm(gpu)(x.layout_spec), x, raw.provenance, raw.config)
        pts = [] if too_long else sweep(make_cm(gpu), arch, opts.isl, opts.osl, price, tp_fixed=opts.tp)
        refused = None if (too_long or pts) else refused_note(make_cm(gpu), arch, opts.tp)
        note = (f"context {opts.isl + opts.osl:,} tokens exceeds {arch.context_label}"
                if too_long else None if pts else refused or
                f"no layout fits {opts.isl:,} in / {opts.osl:,} out on {gpu.id}")
        # the regimes' own picks at the frontier's workload join the sweep (the throughput regime's engine-chosen
        # batch is no power of two): no point the sheet shows is dominated by another it shows
        swept = {(p.layout, p.concurrency) for p in pts}
        picks = [r.prediction for r in regimes[gpu.id] if pts and r.prediction is not None
                 and r.prediction.tpot_ms is not None and (r.prediction.isl, r.prediction.osl) == (opts.isl, opts.osl)
                 and (r.prediction.layout, r.prediction.concurrency) not in swept]
        front = pareto(pts + list({(x.layout, x.concurrency): x for x in picks}.values()))
        frontier[gpu.id] = Frontier(gpu=gpu.id, precision=prec.id, isl=opts.isl, osl=opts.osl, points=pts,
                                    pareto=[p if isinstance(p, Prediction) else
                                            to_prediction(make_cm(gpu), p, opts.isl, opts.osl, price)
                                            for p in front], note=note)
        if want_sla:
            fine = [] if too_long else sweep(make_cm(gpu), arch, opts.isl, opts.osl, price, SLA_CONCURRENCIES,
                                             tp_fixed=opts.tp)
            pick = cheapest_meeting(fine, opts.ttft_ms, opts.itl_ms)
            best[gpu.id] = to_prediction(make_cm(gpu), pick, opts.isl, opts.osl, price) if pick else None
    sla = (SLAResult(ttft_ms=opts.ttft_ms, itl_ms=opts.itl_ms, isl=opts.isl, osl=opts.osl, best=best)
           if want_sla and arch.kind == "decoder" else None)
    capacity: list[Capacity] = []
    if arch.kind == "decoder":
        for tp in (1, 2, 4, 8):
            if not valid_tp(arch, tp):
                continue
            row = _capacity_row(make_cm(gpus[0]), gpus[0], prec.id, Layout(tp=tp), kv, opts.kv_policy)
            capacity.append(row)
            if row.engine_blocker and arch.is_moe and tp > 1:
                # the regimes serve the experts whole (EP = TP) where splitting them is refused (candidate_layouts)
                capacity.append(_capacity_row(make_cm(gpus[0]), gpus[0], prec.id, Layout(tp=tp, ep=tp), kv,
                                              opts.kv_policy))
        if not any(c.engine_blocker is None and c.max_sequences and min(c.max_sequences.items())[1] >= 1
                   for c in capacity):
            capacity += _multinode_capacity(arch, make_cm(gpus[0]), gpus[0], prec.id, kv, opts.kv_policy)
    prim = regimes.get(gpus[0].id, [])
    fnd = findings(arch, params, fit, quant, kv, prim, gpus[0].id, raw.provenance)
    if ck is not None and not ck.matches:
        _insert_finding(fnd, _finding_c1(ck))
    from .hardware import compute_dtype as _cd
    from .score import finding as _finding
    for gpu in gpus:
        cdt = _cd(prec, gpu)
        if prec.compute != cdt and prec.id not in ("bf16", "fp16", "int4", "w8a16"):
            fnd.insert(0, _finding("Q8", f"{gpu.id} has no native {prec.label} kernels (native needs compute "
                                         f"capability {prec.native_cc}+): modelled as weight-only, {prec.id} "
                                         f"weights dequantized to {cdt} compute"))
    q = arch.quantization
    if q is not None and q.format not in CHECKPOINT_PRECISIONS and prec_note is not None:  # no --precision
        bits = f" ({q.weight_bits}-bit)" if q.weight_bits else ""
        fnd.insert(0, _finding("Q9", f"the checkpoint is quantized {q.format}{bits} ({q.method}), a format deploysheet "
                                     f"does not size: weights, fit and predictions here are at {prec.label}, not the "
                                     "checkpoint's storage (pass --precision to model a format)"))
    if q is not None and q.component_unread and prec.id == q.format:
        fnd.insert(0, _finding("Q9", f"the checkpoint mixes weight formats ({q.method}) in a way deploysheet does not break down per component ({q.component_unread}): "
                                     f"every quantized GEMM is sized at {q.format}, so weights and fit are estimated",
                               severity="FALLBACK"))
    if arch.layout_guessed:  # a finding read off a guessed layout is an estimate, not a fact of the model
        fnd = [f.model_copy(update={"message": "estimated, from a guessed layout: " + f.message})
               if f.category != "source" and f.rule not in ("Q9", "Q10") else f for f in fnd]
    from .hardware import compute_dtype
    score = compute_score(arch, params, fit, quant, kv, prim, gpus[0].peak_flops(compute_dtype(prec, gpus[0])))

    recs: list[Recommendation] = []
    refusal = _engine_refusal(arch, opts.framework, opts.speculative)  # rule S6: no change of shape runs it
    if opts.recommendations and arch.kind == "decoder" and refusal is None:
        thr = next((r for r in prim if r.id == "throughput" and r.prediction), None)
        lat = next((r for r in prim if r.id == "latency" and r.prediction), None)

        def perf(alt: ModelArch) -> tuple[float | None, float | None]:
            from .regimes import predict
            alt_params = count_params(alt)
            alt_gemms = inventory(alt)
            t = l_ = None
            if thr is not None:
                p = thr.prediction
                cm = CostModel(alt, alt_params, gpus[0], prec, p.layout_spec, opts.kv_dtype, opts.framework,
                               calibration, unq, alt_gemms)
                t = predict(cm, p.isl, p.osl, p.concurrency).output_tokens_per_s_per_gpu
            if lat is not None:
                p = lat.prediction
                cm = CostModel(alt, alt_params, gpus[0], prec, p.layout_spec, opts.kv_dtype, opts.framework,
                               calibration, unq, alt_gemms)
                l_ = predict(cm, p.isl, p.osl, 1).tpot_ms
            return t, l_

        lat_cache: dict = {}

        def latency(alt: ModelArch, fmt: str, tp: int) -> float | None:
            """Latency-regime TPOT (ms) of ``alt`` at precision ``fmt`` and TP ``tp`` on the primary GPU."""
            from .regimes import predict, regime_defs
            # what the what-ifs change: widths, vocabulary and head counts (a heads what-if keeps hidden_size)
            sig = (alt.hidden_size, alt.vocab_size, tuple(
                ((lay.ffn.intermediate if lay.ffn.kind == "dense" else lay.ffn.expert_intermediate)
                 if lay.ffn is not None else 0,
                 getattr(lay.mixer, "num_heads", None), getattr(lay.mixer, "num_kv_heads", None))
                for lay in alt.layers))
            key = (sig, fmt, tp)
            if key not in lat_cache:
                reg = next(r for r in regime_defs() if r["id"] == "latency")
                cm = CostModel(alt, count_params(alt), gpus[0], get_precision(fmt), Layout(tp=tp), opts.kv_dtype,
                               opts.framework, calibration, set(), inventory(alt))
                p = predict(cm, reg["isl"], reg["osl"], 1)
                lat_cache[key] = p.tpot_ms if p.fits else None
            return lat_cache[key]

        recs = recommend(arch, fit.dims, perf, latency)
        from .recommend import layout_recommendations
        recs += layout_recommendations(quant, arch)

    assumptions = _assumptions(arch, opts, kv, calibration, prec.id, unq, gpus)
    from .launch import kv_read_notes  # the caveats predict states for the same setup, per GPU scored
    for gpu in gpus:
        for n in kv_read_notes(opts.framework, opts.kv_dtype_by_gpu[gpu.id], gpu):
            assumptions.append((n if n.startswith("vLLM") else n[0].upper() + n[1:]) + ".")
    if spec is not None:
        assumptions.append(f"Speculative decoding ({spec.method}): {spec.tokens} drafted tokens per step, per-token "
                           f"acceptance {spec.acceptance:g} -> {spec.acceptance_length:.2f} tokens per draft-and-verify "
                           f"step ({spec.source}); the verify pass runs {spec.tokens + 1} query tokens per sequence, each "
                           f"drafted token costs {spec.draft_layers} average target layer(s) plus the lm_head.")
    zero = next((lay.ffn for lay in arch.layers if isinstance(lay.ffn, MoEMLP) and lay.ffn.zero_experts), None)
    if zero is not None:
        assumptions.append(f"Active parameters and per-token expert work are an average: the router picks top-"
                           f"{zero.top_k} of {zero.num_experts} experts and {zero.zero_experts} zero-compute ones, "
                           f"counted as {zero.expected_top_k:g} real experts a token (routing in proportion to the "
                           "slots, an assumption); a token's own share varies.")
    assumptions.append("TTFT is the steady-state mean of a closed loop of the regime's concurrency: no opening wave. "
                       "Benchmarks that start every user at once and average over a few waves (InferenceMAX: "
                       "10 x concurrency requests) measure more; 'deploysheet validate' models their protocol "
                       "(data/harnesses.json).")
    assumptions.append("tok/s/user is 1 / TPOT, the rate a user sees once tokens stream; tok/s/GPU counts whole "
                       "requests, TTFT included: concurrency x OSL / (TTFT + (OSL - 1) x TPOT) / GPUs (Little's law), "
                       "so it is below tok/s/user x concurrency / GPUs.")
    assumptions.insert(1, _checkpoint_assumption(ck, raw.checkpoint_note, prec.id, stored))
    assumptions[1:1] = [_sentence(n) for n in raw.source_notes]
    sources = [Source(id=k, text=v, trusted=True) for k, v in gpu_sources().items()]
    sources += [Source(id="rules", text="data/rules.json (each rule cites the engine or kernel source it comes from)",
                       trusted=True),
                Source(id="calibration", text=f"{calibration.path}" + (
                    f" fitted {calibration.fit_date}" if calibration.fit_date else " (uncalibrated defaults)")),
                Source(id="params", text="parameter layout of transformers' modeling code; checked against models "
                                         "instantiated on torch's meta device (scripts/meta_oracle.py)", trusted=True)]
    if ck is not None or raw.checkpoint_note:
        sources.append(Source(id="checkpoint", text=ck.source if ck is not None else
                              "safetensors headers not read: " + raw.checkpoint_note))
    return Sheet(generator={"name": "deploysheet", "version": __version__,
                            "date": datetime.date.today().isoformat()},
                 options=opts, model=_summary(arch, raw.provenance), params=params,
                 weights=_weights_table(arch, params, gemms, ck, prec.id), kv_cache=kv, gemms=gemms,
                 vision_gemms=vision_inventory(arch), hardware_fit=fit, quantization=quant, regimes=regimes,
                 score=score, findings=fnd, recommendations=recs,
                 hub_params=None if ck is not None else hub_param_check(arch, params, raw.provenance),
                 capacity=capacity, report_tps=report_tps, engine_refusal=refusal,
                 engine_limit=_engine_limit(arch, opts.framework),
                 frontier=frontier, sla=sla,
                 expected_error_pct=expected_errors(calibration, [g.id for g in gpus], opts.framework),
                 assumptions=assumptions, sources=sources)


def estimate_reasons(arch: ModelArch) -> list[str]:
    """Why ``arch``'s counts are estimated, one short phrase each (empty when they are exact)."""
    out = []
    if not arch.structure_verified:
        out.append("architecture guessed from raw keys" if arch.config_class is None else
                   f"layout of {arch.model_type!r} not yet verified against transformers on the meta device")
    if arch.unmodelled_keys:
        out.append("keys not modelled: " + ", ".join(arch.unmodelled_keys))
    if arch.guesses and arch.structure_verified:
        out.append(f"{len(arch.guesses)} guess(es)")
    return out


def _finding_c1(ck: CheckpointCounts):
    from .score import finding
    return finding("C1", mismatch_message(ck), severity="HARD" if shapes_differ(ck) else None)


def _insert_finding(fnd: list, f) -> None:
    """Insert ``f`` after the findings at least as severe (the list is most severe first)."""
    from .score import SEVERITY_ORDER
    rank = SEVERITY_ORDER[f.severity]
    at = next((i for i, x in enumerate(fnd) if SEVERITY_ORDER.get(x.severity, 9) > rank), len(fnd))
    fnd.insert(at, f)


def _checkpoint_assumption(ck: CheckpointCounts | None, note: str | None, prec: str, stored: int | None) -> str:
    """Which weight bytes the memory fit uses, and why."""
    if stored:
        return (f"Weight memory and fit use the checkpoint's stored bytes: {stored / GIB:,.2f} GiB for the language "
                f"model at {prec} (the safetensors headers' data_offsets, scales included; vision tower and MTP "
                "layers apart), split over GPUs in the modelled proportions; decode weight traffic is modelled from "
                "the config.")
    if ck is not None:
        why = (f"the checkpoint is stored at {ck.stored_precision}, not {prec}" if ck.stored_precision else
               "the checkpoint's dtypes are mixed or wider than 16 bits (e.g. F32)")
        return f"Weight memory and fit are modelled from the config at {prec}: {why}."
    if note:
        return f"Weight memory and fit are modelled from the config: the safetensors headers were not read ({note})."
    return "Weight memory and fit are modelled from the config (no safetensors headers were read)."


PACKED_FORMATS = {"int4", "nf4", "fp4_bnb", "mxfp4", "nvfp4", "int8", "w8a16"}


def hub_param_check(arch: ModelArch, params: ParamCounts, prov: Provenance) -> HubParamCheck | None:
    """Compare the Hub's stored element counts (``model_info``'s safetensors summary) with the config-derived count.

    Used only when the safetensors headers themselves were not read (``params.checkpoint`` supersedes it).

    Packed 4-bit formats store several weights per element (and int8 bitsandbytes adds state), so
    their element counts under-count: only the config-derived count is trusted for them.
    """
    if not prov.safetensors_total:
        return None
    config_total = params.total + (params.mtp or 0) + (params.vision or 0)
    q = arch.quantization
    packed = q is not None and q.format in PACKED_FORMATS
    if packed:
        return HubParamCheck(stored_total=prov.safetensors_total, by_dtype=prov.safetensors_parameters or {},
                             config_total=config_total, comparable=False,
                             note=f"{q.format} weights are packed: stored elements under-count parameters; the "
                                  "config-derived count is used")
    delta = (prov.safetensors_total - config_total) / config_total
    note = "agrees with the config" if abs(delta) < 0.01 else (
        "differs from the config: scale tensors, extra heads or a vision tower the config does not describe")
    return HubParamCheck(stored_total=prov.safetensors_total, by_dtype=prov.safetensors_parameters or {},
                         config_total=config_total, delta_pct=round(delta * 100, 3), comparable=True, note=note)


def _decode_steps_note(cal, framework: str) -> str:
    """The assumption sentence on the decode iterations in TTFT (κ = ``ttft_decode_steps``) for ``framework``."""
    k = float(cal.resolve(framework).get("ttft_decode_steps", 0.5))
    if abs(k - 0.5) < 1e-9:
        return ("At 2 or more concurrent requests TTFT also waits half a decode iteration (the one running when it "
                "arrives).")
    return (f"At 4 or more concurrent requests per engine TTFT also includes {k:.1f} decode iterations ({framework}: "
            "fitted on measured runs at 4 or more, whose TTFT floor follows the decode step time; an effective term, "
            "its mechanism is not established), interpolated to half an iteration at 1 request (not measured).")


def _memory_assumption(arch: ModelArch, opts: Options, cal, gpus) -> str:
    """How the framework's KV budget is sized: vLLM's gpu_memory_utilization, TensorRT-LLM's free-memory fraction,
    or SGLang's default mem_fraction_static, which depends on the GPU and the layout (examples at TP1 and TP8)."""
    reserve = f"runtime reserve {cal.params['runtime_reserve_gib']:g} GiB per GPU."
    from .costmodel import sglang_default_fraction
    p = cal.resolve(opts.framework)
    if opts.framework == "trtllm" and p.get("kv_free_fraction", 0) > 0:
        return f"KV cache {p['kv_free_fraction']:.0%} of the memory left after the weights and the {reserve}"
    if not sglang_default_fraction(cal, opts.framework):
        return f"GPU memory utilization {p['gpu_mem_util']:.0%}, {reserve}"
    from .kvcache import sglang_mem_fraction, uses_mla
    vision = (arch.vision.num_layers, arch.vision.hidden_size) if arch.vision is not None else None
    mla = uses_mla(arch)
    examples = "; ".join(f"{g.id}: {sglang_mem_fraction(g, 1, 1, 1, mla, vision):g} at TP1, "
                         f"{sglang_mem_fraction(g, 8, 1, 1, mla, vision):g} at TP8" for g in gpus)
    return (f"SGLang's default --mem-fraction-static, from the GPU's memory, the layout and its CUDA-graph and "
            f"activation reserve (sglang 0.5.23 memory_hook.py; {examples}); {reserve}")


def _assumptions(arch: ModelArch, opts: Options, kv: KVCache, cal, prec: str, unq: set[str], gpus) -> list[str]:
    from .kvcache import served_dtype
    half, why = served_dtype(opts.framework, arch.dtype, arch.model_type)
    also = set(unq) - {"lm_head", "router", "embedding"}  # those are 16-bit under every recipe (said first)
    out = [
        (f"Weights at {prec} ({precisions()[prec].label}): {why}." if prec in ("bf16", "fp16") and opts.precision_source
         else f"Weights at {prec} ({precisions()[prec].label})"
              + (f", {opts.precision_source}" if opts.precision_source else "")
              + f"; {'routers, ' if arch.is_moe else ''}lm_head and embeddings kept in {half.upper()} (rule Q7)"
              + (f"; the checkpoint also leaves {', '.join(sorted(also))} unquantized" if also else "") + "."),
        f"KV cache {opts.kv_dtype}" + (f" ({opts.kv_dtype_source})" if opts.kv_dtype_source else "") +
        f", policy '{kv.policy}': {kv.policy_description}",
        f"Serving framework profile: {opts.framework}. " + _memory_assumption(arch, opts, cal, gpus),
        "Cost model: roofline per operator with efficiencies from " + cal.path +
        (f" (fitted {cal.fit_date})" if cal.fit_date else " — uncalibrated defaults; predictions carry no validated "
                                                          "error bar yet") + ".",
        "Continuous batching steady state: TPOT includes other users' prefills (chunked prefill); TTFT includes "
        "a share of the other users' prefills (half a wave where the engine prefills apart from decode, as "
        "SGLang does) and a fixed per-request overhead fitted per framework "
        f"({opts.framework}: {1e3 * float(cal.resolve(opts.framework).get('prefill_overhead_s', 0.0)):.0f} ms) on "
        "closed-loop runs at 4 or more concurrent requests, mostly of large models: at concurrency 1 on a small "
        "model it may overstate TTFT. " + _decode_steps_note(cal, opts.framework),
        "Parameter counts follow transformers' module layout; bytes use 1 GiB = 2^30 B. GPU memory: "
        + "; ".join(f"{g.id} {g.memory_bytes / GIB:,.1f} GiB" + (" (the capacity its source states)" if
                    g.memory_capacity_bytes else f" ({g.memory_gb:g} vendor GB of 1e9 B: no source states it exactly)")
                    for g in gpus) + ".",
    ]
    caveats = dict.fromkeys(c for g in gpus for c in error_caveats(cal, g.id, opts.framework))
    out += [c[0].upper() + c[1:] + "." for c in caveats]
    if arch.mtp is not None:
        out.append(f"{arch.mtp.num_layers} MTP (next-n) layer(s) counted apart and not used for serving predictions.")
    if arch.vision is not None:
        out.append("Vision tower counted apart from the language model; its weights (bf16, split over TP as vLLM "
                   "does) count in memory and fit; serving predictions cover text tokens only (no image encoding).")
    if arch.vision_note:
        out.append(arch.vision_note + ".")
    if arch.mtp_note:
        out.append(arch.mtp_note[0].upper() + arch.mtp_note[1:] + ".")
    th = arch.pooling_head
    if th is not None:
        what = (f"a {th.num_labels}-output head (score/classification)" if th.num_labels else "no head (the bare "
                "decoder stack, an embedding model)")
        out.append(f"{th.head_class}: {what} in place of the vocabulary lm_head, so the checkpoint cannot generate; "
                   "engines serve it as a pooling (reward / embedding) model, not a generator. Prefill and TTFT describe its "
                   "forward pass; the decode regimes (TPOT, output tokens/s) cost the stack as if it generated, "
                   "without an lm_head.")
    for g in arch.guesses:
        out.append("Guess: " + g + ".")
    for gpu in gpus:
        if gpu.usd_per_hour is None and opts.usd_per_gpu_hour is None:
            out.append(f"No cited price for {gpu.id}: $/1M tokens not computed (pass --usd-per-gpu-hour).")
        elif opts.usd_per_gpu_hour is None and gpu.usd_per_hour is not None:
            pr = gpu.usd_per_hour
            out.append(f"{gpu.id} price ${pr.mid:.2f}/GPU-hour: midpoint of ${pr.low:.2f}-{pr.high:.2f} ({pr.tier}, "
                       f"source {pr.src}).")
        for note in gpu.notes:
            out.append(f"{gpu.id}: {note}.")
    return out
