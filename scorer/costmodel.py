"""Roofline cost model: speed of light per operator, divided by a calibrated efficiency.

Every operator's time is ``max(FLOPs / (peak · η_compute), bytes / (bandwidth · η_mem))`` plus a
fixed latency, where the η are ratios read from ``data/calibration.json`` (each with its
source). Operators:

* GEMMs from the inventory (:mod:`scorer.gemms`), per TP shard, with tile/wave efficiency and the
  16-byte misalignment penalty (:mod:`scorer.tiles`); MoE experts touched by a batch of B
  tokens: E·(1 − (1 − k/E)^B), which sets decode weight traffic;
* attention: causal prefill FLOPs per layer kind (full, sliding window, chunked, MLA); decode
  reads the KV cache (sliding layers read their window), MLA decode is also charged its FLOPs;
  DeepSeek sparse attention reads ``index_topk`` latents per query and its indexer scores every cached
  token; DeepSeek-V4 layers read their window plus their compressed entries (CSA: the ``index_topk``
  the indexer picks, after scoring every compressed index key; HCA: all of them);
* recurrent layers: state read and write per decode step;
* TP all-reduce: latency + 2(t−1)/t · bytes / link bandwidth, twice per transformer block;
* fixed per-step overheads (decode step, prefill batch), a fixed latency per GEMM (``op_latency_s``) and, in
  prefill only, ``prefill_op_latency_s`` more per GEMM: prefill batches run outside CUDA graphs, so their
  kernels pay eager launch overhead (data/calibration.json states the value and how it was chosen).

Units: seconds internally; bytes; FLOP. Public results are in ms and tokens/s.
"""

from __future__ import annotations

import json
import math
import os
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, NamedTuple

from pydantic import BaseModel, Field

from .architecture import (AttentionSpec, CompressedAttentionSpec, GatedDeltaNetSpec, Mamba2Spec, MLASpec, ModelArch,
                           MoEMLP, ShortConvSpec)
from .errors import BadInputError
from .gemms import Gemm, inventory, shard
from .hardware import GIB, GPU, Precision, Topology, compute_dtype
from .memo import MIB, ByteLRU, identity_ref
from .kvcache import (DTYPE_BYTES, INDEX_KEY_BYTES, _state_bytes, engine_kv, kv_heads_per_gpu, mixer_groups, per_sequence_bytes,
                      recurrent_state_dtype, resolve_policy, state_dtype_for, state_pair)
from .params import ParamCounts
from .resources import load_json
from .tiles import gemm_efficiency, misalignment_factor

ACT_BYTES = 2.0  # activations in bf16/fp16
#: chunked scans of Mamba2 / gated delta-net run well below tensor-core peak (assumption: ~30% of peak)
RECURRENT_PREFILL_SLOWDOWN = 1 / 0.3
M_TILE_MIN = 256  # tokens: ~ the ridge-point M* of F2 (280-320 on H100/B200)
#: TTFT queueing of a synchronized burst: each of c users waits on average for half of the other c - 1 prefills
BURST_QUEUE = 0.5


REQUIRED_PARAMS = {"gemm_compute_eff", "mem_bw_eff", "attn_compute_eff", "op_latency_s", "comm_latency_s",
                   "comm_bw_eff", "decode_step_overhead_s", "prefill_overhead_s", "gpu_mem_util",
                   "runtime_reserve_gib"}


#: accepted ranges of parameters that are not efficiency ratios (seconds, GiB and GB/s allow 0-1000)
PARAM_RANGES = {"ttft_decode_steps": (0.0, 100.0), "adp_wait_steps": (0.0, 1000.0), "ttft_queue": (0.0, 10.0),
                "prefill_chunk_tokens": (1.0, 1e6),
                "tpot_interference": (0.0, 10.0), "prefill_eff_scale": (1e-3, 10.0), "prefill_separate": (0.0, 1.0),
                "gemm_eff_scale": (1e-3, 10.0), "kv_free_fraction": (0.0, 1.0),
                # shares of a physical peak or of the GPU's memory: above 1 would beat the hardware
                "gpu_mem_util": (0.05, 1.0), "mem_bw_eff": (0.01, 1.0), "comm_bw_eff": (0.01, 1.0),
                "attn_compute_eff": (0.01, 1.0), "gemm_compute_eff": (0.01, 1.0)}


def _check_param(k: str, v: Any, where: str) -> float:
    """A calibration number within its range (``PARAM_RANGES``, else a default by unit suffix).

    Raises:
        ValueError: not a number (booleans and strings included) or out of range.
    """
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ValueError(f"{where}{k} must be a number, got {type(v).__name__}")
    v = float(v)
    lo, hi = PARAM_RANGES.get(k, (0.0, 1e3) if k.endswith(("_s", "_gib", "_gbps")) else (1e-4, 2.0))
    if not (math.isfinite(v) and lo <= v <= hi) or (k.endswith("_gbps") and v <= 0):
        raise ValueError(f"{where}{k} = {v:g} outside [{lo:g}, {hi:g}]")
    return v


class Calibration(BaseModel):
    """Efficiency ratios and overheads; ``frameworks`` override ``params`` per serving framework."""

    params: dict[str, float]
    sources: dict[str, str] = Field(default_factory=dict)
    frameworks: dict[str, dict[str, float]] = Field(default_factory=dict)
    fit_date: str | None = None
    command: str | None = None
    path: str = "data/calibration.json"
    validation: dict[str, Any] | None = None

    def resolve(self, framework: str, family: str | None = None) -> dict[str, float]:
        """Parameters for a framework on a GPU family: global < family < framework < framework/family."""
        out = dict(self.params)
        for key in ([family] if family else []) + [framework] + ([f"{framework}/{family}"] if family else []):
            for k, v in (self.frameworks.get(key) or {}).items():
                if isinstance(v, (int, float)):
                    out[k] = float(v)
        return out



#: the largest calibration file read (the packaged one is about 60 KB)
MAX_CALIBRATION_BYTES = 4 * 1024 * 1024


#: parsed calibrations by (resolved path, size, mtime); a process that reads many calibration files (a calibrate
#: loop) keeps the most recent within 16 MiB (the packaged one costs about 30 KiB by deep_size; a file at
#: MAX_CALIBRATION_BYTES parses to well under the budget)
_CAL_CACHE = ByteLRU("costmodel.calibration", 16 * MIB)


def load_calibration(path: str | Path | None = None) -> Calibration:
    """Read a calibration file (default: the packaged ``data/calibration.json``).

    Memoized per (resolved path, size, mtime): callers along one command (options check, sheet, report,
    per-repo crawl) share one parsed, validated object; treat it as read-only.

    Raises:
        BadInputError: unreadable or malformed file.
    """
    key: tuple = ("default",)
    if path is not None:
        try:
            st = os.stat(path)
            key = (os.path.realpath(path), st.st_size, st.st_mtime_ns)
        except OSError:
            key = ()  # missing or unreadable: let the reader below raise the right error
    hit = _CAL_CACHE.get(key) if key else None
    if hit is not None:
        return hit
    cal = _load_calibration(path)
    if key:
        _CAL_CACHE.put(key, cal)
    return cal


def _load_calibration(path: str | Path | None) -> Calibration:
    try:
        if path is None:
            doc = load_json("calibration.json")
            where = "data/calibration.json"
        else:
            where = str(path)
            if not where.strip():
                raise ValueError("--calibration names no file (an empty path)")
            if not Path(path).exists():
                raise FileNotFoundError(path)
            if not Path(path).is_file():
                raise ValueError("not a regular file")
            with open(path, "rb") as fh:
                data = fh.read(MAX_CALIBRATION_BYTES + 1)
            if len(data) > MAX_CALIBRATION_BYTES:
                raise ValueError(f"over the {MAX_CALIBRATION_BYTES:,}-byte cap for calibration files")
            doc = json.loads(data.decode("utf-8"))
        if not isinstance(doc, dict) or not isinstance(doc.get("params"), dict):
            raise ValueError("expected an object with a 'params' object ({name: {value, src}})")
        params = {k: _check_param(k, v.get("value") if isinstance(v, dict) else v, "")
                  for k, v in doc["params"].items()}
        sources = {k: str(v.get("src", "")) if isinstance(v, dict) else "" for k, v in doc["params"].items()}
        missing = sorted(REQUIRED_PARAMS - set(params))
        if missing:
            raise ValueError(f"missing parameters {', '.join(missing)}")
        frameworks = doc.get("frameworks") or {}
        if not isinstance(frameworks, dict) or not all(isinstance(v, dict) for v in frameworks.values()):
            raise ValueError("frameworks must map a framework name to an object")
        frameworks = {fw: {k: _check_param(k, v, f"frameworks.{fw}.") for k, v in over.items()}
                      for fw, over in frameworks.items()}
        if doc.get("validation") is not None and not isinstance(doc["validation"], dict):
            raise ValueError("validation must be an object")
        cal = Calibration(params=params, sources=sources, frameworks=frameworks, fit_date=doc.get("fit_date"),
                          command=doc.get("command"), path=where, validation=doc.get("validation"))
    except FileNotFoundError:
        raise BadInputError(f"calibration file not found: {path}") from None
    except RecursionError:
        raise BadInputError(f"calibration file {where} is malformed: nested too deeply") from None
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        detail = " ".join(str(exc).split())[:160]
        raise BadInputError(f"calibration file {where} is malformed: {detail}") from None
    return cal


def expert_share(value: float, experts: int, ep: int) -> float:
    """``value`` (a layer's sum over its ``experts`` experts) on the fullest of ``ep`` expert-parallel ranks. vLLM
    0.33.0 spreads experts as evenly as it can and gives the remainder to the first ranks
    (``fused_moe/expert_map_manager.py`` determine_expert_map: base E // ep, +1 on the first E % ep ranks), so the
    fullest rank holds ceil(E / ep) and every rank waits for it. value / ep when ep divides E."""
    if ep <= 1 or experts <= 0 or experts % ep == 0:
        return value / ep
    return value * (-(-experts // ep)) / experts


class Layout(BaseModel):
    """Parallel layout. GPUs = tp x pp x dp. Attention and dense layers are split by ``tp`` and replicated over
    ``dp`` attention data-parallel ranks (each holds C/dp sequences). Experts are spread over ``ep`` ranks and
    each expert is split over the remaining moe_tp = tp x dp / ep GPUs of a pipeline stage (ep = 1, dp = 1: experts
    split like dense layers; ep = 1 with DP attention: experts split over all tp x dp GPUs, as TensorRT-LLM and
    SGLang shard the MoE over the whole attention-DP group)."""

    tp: int = Field(1, ge=1)
    pp: int = Field(1, ge=1)
    ep: int = Field(1, ge=1)
    dp: int = Field(1, ge=1)

    @property
    def num_gpus(self) -> int:
        return self.tp * self.pp * self.dp

    @property
    def moe_tp(self) -> int:
        return max(1, self.tp * self.dp // self.ep)

    @property
    def label(self) -> str:
        parts = [f"TP{self.tp}"]
        if self.dp > 1:
            parts.append(f"DP{self.dp}")
        if self.ep > 1:
            parts.append(f"EP{self.ep}")
        if self.pp > 1:
            parts.append(f"PP{self.pp}")
        return "·".join(parts)


#: (pattern, component) tried in order on a lower-cased exclusion pattern: the first that matches names the
#: component the pattern leaves unquantized. Recurrent mixers before attention ("linear_attn" holds "attn"); a
#: mixer's attention projections (Nemotron-H "mixer.q_proj") are attention; "mlp.gate" is a router only when no
#: "_proj" follows it (mlp.gate_proj is the MLP's)
_EXCLUDE_MAP = ((r"lm_head", "lm_head"), (r"embed", "embedding"), (r"router", "router"),
                (r"mlp\.gate($|[^_a-z])", "router"), (r"shared_expert_gate", "router"),
                (r"linear_attn|mamba|ssm|conv1d", "recurrent"),
                (r"self_attn|attn|attention|mixer\.(q|k|v|o|qkv)_proj", "attention"),
                (r"shared_expert", "shared_experts"), (r"experts", "routed_experts"), (r"mixer", "recurrent"),
                (r"vision|visual", "vision"), (r"(^|[.*])mlp(\.?\*)*$", "mlp"))
#: a pattern that excludes everything ("*", ".*", "re:.*")
_EXCLUDE_ALL = re.compile(r"^(re:)?\.?\*$")
#: the layer index part of a pattern: excluded in every layer only when it is a wildcard
_LAYER_INDEX = re.compile(r"(layers|\.h|blocks)(\\?\.|_)(?P<index>[^.\\]*)")
#: components every recipe leaves 16-bit anyway, and those an exclusion of everything adds
_ALL_QUANTIZED = frozenset({"attention", "mlp", "routed_experts", "shared_experts", "recurrent"})
#: single projections an exclusion may name in every layer (GEMM names end in them)
_PROJECTIONS = ("down_proj", "up_proj", "gate_proj", "gate_up_proj", "o_proj", "q_proj", "k_proj", "v_proj",
                "qkv_proj", "out_proj", "in_proj")


def _every_layer(pattern: str) -> bool:
    """Whether an exclusion pattern covers its modules in every layer: no layer index, or a wildcard one
    ("layers.*.self_attn", "re:.*layers\\.\\d+\\.mlp"); "model.layers.0.self_attn*" covers layer 0 only."""
    m = _LAYER_INDEX.search(pattern)
    if m is None:
        return True
    idx = m.group("index")
    return idx in ("*", ".*", "") or idx.startswith(("*", ".*", r"\d+", r"\d*", "[0-9]+", "[0-9]*"))


def _component_of(pattern: str) -> str | None:
    """The component an exclusion pattern (or the module path before a projection) names (:data:`_EXCLUDE_MAP`)."""
    return next((comp for needle, comp in _EXCLUDE_MAP if re.search(needle, pattern)), None)


def _projection_component(pattern: str, proj: str) -> str | None:
    """The component whose ``proj`` a projection pattern names: the whole pattern's (Nemotron-H "mixer.q_proj" is
    attention), else its module path's ("layers.*.mlp.down_proj" -> mlp), else None (a bare "*down_proj*")."""
    return _component_of(pattern) or _component_of(pattern[:pattern.rfind(proj)].rstrip(".*\\"))


#: a pattern's last name when it is one of :data:`_PROJECTIONS` (wildcards / regex punctuation may follow it)
_PROJECTION_END = re.compile(r"(?:^|[^a-z_])(" + "|".join(sorted(_PROJECTIONS, key=len, reverse=True))
                             + r")[^a-z_0-9]*$")


def _projection_of(pattern: str) -> str | None:
    """The single projection an exclusion pattern ends in ("layers.*.self_attn.o_proj", "*down_proj*"), else None."""
    m = _PROJECTION_END.search(pattern)
    return m.group(1) if m else None


def _layer_counts(layers) -> dict[str, int]:
    """Layers holding each component, for reading explicit per-layer exclusion lists."""
    from .architecture import AttentionSpec, CompressedAttentionSpec, DenseMLP, MLASpec, MoEMLP
    att = sum(1 for lay in layers if isinstance(lay.mixer, (AttentionSpec, MLASpec, CompressedAttentionSpec)))
    moe = sum(1 for lay in layers if isinstance(lay.ffn, MoEMLP))
    shared = sum(1 for lay in layers if isinstance(lay.ffn, MoEMLP) and lay.ffn.shared is not None)
    dense = sum(1 for lay in layers if isinstance(lay.ffn, DenseMLP))
    rec = sum(1 for lay in layers if lay.mixer is not None and getattr(lay.mixer, "kind", None) not in (
        "attention", "mla", "compressed_attention"))
    return {"attention": att, "routed_experts": moe, "shared_experts": shared, "mlp": dense, "recurrent": rec,
            "router": moe}


def _with_layer_lists(patterns: list[str], layers) -> list[str]:
    """``patterns`` (lower-cased) plus, for an explicit per-layer list (llm-compressor writes one entry per layer:
    "model.layers.0.mlp.down_proj", "model.layers.1.mlp.down_proj", ...), the wildcard pattern it amounts to
    ("model.layers.*.mlp.down_proj") when its layer indices cover every layer holding the component it names."""
    lows = [p.lower().strip() for p in patterns if isinstance(p, str)]
    groups: dict[str, set[str]] = {}
    for low in lows:
        m = _LAYER_INDEX.search(low)
        if m is not None and m.group("index").isdigit():
            key = low[:m.start("index")] + "*" + low[m.end("index"):]
            groups.setdefault(key, set()).add(m.group("index"))
    if not groups or not layers:
        return lows  # no pinned entries (the usual case): nothing to count
    counts = _layer_counts(layers)
    for key, idx in groups.items():
        proj = _projection_of(key)
        comp = _component_of(key) if proj is None else _projection_component(key, proj)
        if comp is None and proj is not None:  # a bare "layers.N.q_proj" / "layers.N.down_proj"
            comp = "attention" if proj in ("q_proj", "k_proj", "v_proj", "o_proj", "qkv_proj") else "mlp"
        if comp in counts and counts[comp] and len(idx) >= counts[comp]:
            lows.append(key)
    return lows


def excluded_components(patterns: list[str], layers=None) -> set[str]:
    """Components a checkpoint leaves unquantized in every layer, from its ignore / exclude_modules /
    modules_to_not_convert patterns (:data:`_EXCLUDE_MAP`). A pattern that pins some layers (``layers.0.``) leaves
    the component quantized elsewhere, so the component counts as quantized (sized and kernel-checked at its format:
    one layer's weights are then over-counted by the difference of bytes), unless the pinned entries list every
    layer holding it (``layers``: the model's LayerSpecs; :func:`_with_layer_lists`); "*" excludes every component.
    A pattern ending in one projection ("self_attn.o_proj") leaves only that projection
    (:func:`excluded_projections`)."""
    out: set[str] = set()
    for low in _with_layer_lists(patterns, layers):
        if _EXCLUDE_ALL.fullmatch(low):
            out |= _ALL_QUANTIZED
            continue
        if not _every_layer(low) or _projection_of(low) is not None:
            continue
        for needle, comp in _EXCLUDE_MAP:
            if re.search(needle, low):
                # a whole MLP block ("layers.*.mlp.*") holds a MoE layer's experts too
                out |= {"mlp", "routed_experts", "shared_experts"} if comp == "mlp" else {comp}
                break
    return out


def excluded_projections(patterns: list[str], layers=None) -> set[str]:
    """Single projections a checkpoint leaves unquantized in every layer: "down_proj" for a pattern naming only the
    projection ("*down_proj*"), "component/projection" for one naming its module path too
    ("layers.*.self_attn.o_proj" -> "attention/o_proj", "mlp.experts.*.down_proj" -> "routed_experts/down_proj");
    explicit per-layer lists as :func:`excluded_components` reads them. :func:`projection_excluded` tests a GEMM."""
    out: set[str] = set()
    for low in _with_layer_lists(patterns, layers):
        proj = _projection_of(low)
        if proj is None or not _every_layer(low):
            continue
        comp = _projection_component(low, proj)
        if comp in ("lm_head", "embedding", "router", "vision"):
            continue  # not a decoder GEMM projection of ours
        out.add(f"{comp}/{proj}" if comp else proj)
    return out


def projection_excluded(g: Gemm, projections: set[str]) -> bool:
    """Whether GEMM ``g`` is one of the :func:`excluded_projections`: its name ends in an excluded projection named
    alone or with ``g``'s component."""
    if not projections:
        return False
    proj = g.name.rsplit(".", 1)[-1]
    return proj in projections or f"{g.component}/{proj}" in projections


#: fused GEMMs (vLLM naming) -> the checkpoint projections they hold, in the order of ``Gemm.parts``
FUSED_PARTS = {"qkv_proj": ("q_proj", "k_proj", "v_proj"), "gate_up_proj": ("gate_proj", "up_proj")}


def excluded_share(g: Gemm, projections: set[str]) -> float:
    """The share of GEMM ``g``'s weights a checkpoint leaves 16-bit by naming projections (:func:`excluded_projections`):
    1 for the whole GEMM; for a fused one (qkv_proj, gate_up_proj) the output parts whose own projection is named
    (``mlp.gate_proj`` alone: gate's half of gate_up_proj, as transformers keeps that module unconverted); else 0."""
    if not projections:
        return 0.0
    if projection_excluded(g, projections):
        return 1.0
    proj = g.name.rsplit(".", 1)[-1]
    names = FUSED_PARTS.get(proj)
    if not names or len(g.parts) != len(names) or not g.n:
        return 0.0
    hit = sum(size for size, name in zip(g.parts, names)
              if name in projections or f"{g.component}/{name}" in projections)
    return hit / g.n


def partly_excluded(projections: set[str]) -> str | None:
    """A fused projection some but not all of whose parts the exclusions name ("q_proj" without k_proj and v_proj),
    as ``"self_attn.q_proj of qkv_proj"``; None when every named part comes with its siblings. Components attention,
    mlp and shared_experts (routed experts are matched per expert by the engines)."""
    for fused, names in FUSED_PARTS.items():
        for comp in ("attention", "mlp", "shared_experts", ""):
            named = [n for n in names if (f"{comp}/{n}" if comp else n) in projections]
            if named and len(named) < len(names):
                return f"{', '.join(named)} of {fused}"
    return None


#: bytes of one FP8 block's scale: float32 (vLLM 0.33.0 quantization/utils/fp8_utils.py create_fp8_scale_parameter,
#: one per block_n x block_k weights)
FP8_BLOCK_SCALE_BYTES = 4.0


def fp8_block_of(quant) -> tuple[int, int]:
    """(block_n, block_k) of an FP8 block checkpoint's ``weight_block_size``; 128 x 128 when it names no usable
    one (two positive integers)."""
    b = getattr(quant, "block", None)
    if b and len(b) == 2 and all(isinstance(x, int) and not isinstance(x, bool) and 0 < x <= 1 << 20 for x in b):
        return int(b[0]), int(b[1])
    return 128, 128


def fp8_block_label(block) -> str:
    """The catalog label of FP8 block weights with the checkpoint's (block_n, block_k), e.g. "FP8 block 64x64"."""
    return f"FP8 block {block[0]}x{block[1]}"


#: compute-capability major -> (I_p, hidden) multiples vLLM 0.33.0 rounds a gpt-oss MXFP4 checkpoint's routed
#: experts up to (layers/fused_moe/oracle/mxfp4.py mxfp4_round_up_hidden_size_and_intermediate_size, for the first
#: backend of _get_priority_backends_for_gpt_oss that runs there): SM100 FLASHINFER_TRTLLM_MXFP4_BF16 (TRTLLM
#: backends: I to 128, hidden to 256); SM90 TRITON (the final else: I to 64); SM120 MARLIN (Triton moved after
#: BATCHED_MARLIN: I to 128, hidden to 256); SM80-SM89 MARLIN (TRITON needs SM90, experts/
#: gpt_oss_triton_kernels_moe.py; FlashInfer CUTLASS SM90+: I to 128, hidden to 256); ROCm (key "rocm") TRITON in
#: the is_rocm() branch: gpt-oss's swigluoai is not SiTU / SiLU, so I and hidden to 256
MXFP4_MOE_ROUNDING = {"10": (128, 256), "9": (64, 1), "12": (128, 256), "8": (128, 256), "rocm": (256, 256)}
#: the same for SGLang 0.5.23 at its default --moe-runner-backend auto: arg_groups/model_overrides/gpt_oss.py
#: _gpt_oss_overrides picks flashinfer_mxfp4 on SM100 and SM120 for an MXFP4 checkpoint; FusedMoE then rounds the
#: hidden size to 256 (layers/moe/fused_moe_triton/layer.py, before MoeRunnerConfig) and Mxfp4MoEMethod.create_weights
#: (layers/quantization/mxfp4.py) I_p to 128 (SM100: the FlashInfer branch; SM120: the cutlass_sm120 buffer rebuilt
#: after loading at I_p and hidden rounded to 128). Elsewhere the backend is triton_kernel only where the optional
#: triton_kernels package is installed (it is no dependency of the wheel; then I_p rounds to 64) and ROCm's depends on
#: SGLANG_USE_AITER: not modelled (at most I_p to 64 on SM80-SM90, e.g. gpt-oss-120b at TP2 1,440 -> 1,472)
MXFP4_MOE_ROUNDING_SGLANG = {"10": (128, 256), "12": (128, 256)}


def _round_up(x: int, m: int) -> int:
    return -(-x // m) * m


def quantized_weight_bytes(prec, quant) -> float:
    """Bytes per weight of a checkpoint served at its own format where the layout sets them. FP8 block weights: one
    byte and a float32 scale per block, 1 + 4 / (block_n · block_k) (the catalog's 1.00024 is 128 x 128).
    Integer weight-only (INT4, INT8 W8A16): bits / 8, an fp16 scale per group
    and, where the checkpoint stores them (``QuantSpec.zero_points``, or not stated), a zero point of the same bits
    per group (GPTQ / AWQ packing: scales [K / g, N] fp16, qzeros [K / g, N x bits / 32] int32; a symmetric
    compressed-tensors checkpoint stores no zeros). Per-channel (no group size: GPTQ / AWQ group_size -1, a
    compressed-tensors ``channel`` or ``tensor`` strategy; one scale per output channel, 2 / K bytes a weight, is
    left out): bits / 8. Any other case (a method whose group is not stated): the
    precision's catalog ``weight_bytes`` (data/precisions.json: INT4 / W8A16 at group 128 with zero points)."""
    if quant is not None and prec.id == "fp8_block" and quant.format == "fp8_block":
        bn, bk = fp8_block_of(quant)
        return 1.0 + FP8_BLOCK_SCALE_BYTES / (bn * bk)
    if quant is None or prec.id not in ("int4", "w8a16") or quant.format != prec.id or (
            quant.group_size is None and quant.method not in ("gptq", "awq", "compressed-tensors")):
        return prec.weight_bytes
    bits = quant.weight_bits or (4 if prec.id == "int4" else 8)
    g = quant.group_size
    if not g:
        return bits / 8
    zero = 0.0 if quant.zero_points is False else bits / 8
    return bits / 8 + (2.0 + zero) / g



#: (id(gemms), tp, moe_tp) -> (gemms, per-GPU shards); the entry holds the inventory so its id is not reused while
#: cached, and costs the deep size of both (15-40 KiB an entry, ~20 entries a model's sheet); 8 MiB keeps about
#: the last 20 models
_SHARDS = ByteLRU("costmodel.shards", 8 * MIB)
#: (id(arch), tp, pp, ep, dp) -> (weak reference to the arch, collective plan): the weak reference checks the id
#: still names that arch without keeping the arch alive (a stale entry is a miss and ages out); 400-800 bytes an entry
_COMM = ByteLRU("costmodel.comm", 2 * MIB)
#: (id(calibration), framework, id(gpu), id(precision)) -> (weak references to the three, device constants of
#: CostModel._device): cost models of one GPU and precision share them; 3-4 KiB an entry (the GPU's topology and
#: the resolved parameters), a leaderboard grid holds ~120
_DEVICE = ByteLRU("costmodel.device", 2 * MIB)


def component_weight_bytes(arch, prec) -> dict[str, float]:
    """Bytes per weight of each component of a mixed checkpoint (``QuantSpec.component_formats``) served at its own
    main format ``prec``: each component at its own format's catalog bytes (data/precisions.json; the main format at
    :func:`quantized_weight_bytes`), 2.0 where no group quantizes it. Empty for other checkpoints and precisions: every
    quantized GEMM is then at ``prec``. A component's format deploysheet has no precision for keeps ``prec``'s bytes."""
    q = arch.quantization
    if q is None or not q.component_formats or q.format != prec.id:
        return {}
    from .hardware import precisions
    cat = precisions()
    main = quantized_weight_bytes(prec, q)
    out = {}
    for comp, fmt in q.component_formats.items():
        if fmt in ("bf16", "fp16"):
            out[comp] = 2.0
        elif fmt == q.format:
            out[comp] = main
        else:
            out[comp] = cat[fmt].weight_bytes if fmt in cat else main
    return out


def gemm_eff(gpu: GPU, dtype: str, p: dict[str, float]) -> float:
    """Achieved share of ``gpu``'s dense ``dtype`` peak for large GEMMs (a ratio ≤ 1): the measured MAMF / peak
    (gpu-specs.md section 3; the BF16 ratio where the dtype has no MAMF figure), else the calibration's
    ``gemm_compute_eff``, times its fitted ``gemm_eff_scale``."""
    mamf = gpu.mamf_tflops.get(dtype) or gpu.mamf_tflops.get("bf16")
    base = gpu.tflops.get(dtype) if dtype in gpu.mamf_tflops else gpu.tflops.get("bf16")
    e = (mamf / base) if (mamf and base) else p["gemm_compute_eff"]
    return min(1.0, e * p.get("gemm_eff_scale", 1.0))


def unquantized_projections(arch, prec_id: str) -> set[str]:
    """Projection names ("down_proj") the checkpoint leaves unquantized in every layer, when serving at its own
    quantization format (:func:`excluded_projections`); a GEMM's projection is the last part of its name."""
    q = arch.quantization
    return excluded_projections(q.excluded, arch.layers) if (q is not None and q.format == prec_id) else set()


def unquantized_components(arch, prec_id: str) -> set[str]:
    """Components the checkpoint itself leaves unquantized, when serving at its own quantization format."""
    q = arch.quantization
    return excluded_components(q.excluded, arch.layers) if (q is not None and q.format == prec_id) else set()


def _shards_for(gemms: list[Gemm], tp: int, moe_tp: int) -> list:
    """(gemm, per-GPU shard) pairs for a TP degree (experts split over moe_tp), memoized per inventory."""
    key = (id(gemms), tp, moe_tp)
    hit = _SHARDS.get(key)
    if hit is not None and hit[0] is gemms:
        return hit[1]
    out = [(g, shard(g, moe_tp if g.expert else tp)) for g in gemms]
    _SHARDS.put(key, (gemms, out))  # the reference keeps the id from being reused while cached
    return out


@dataclass
class Features:
    """Speed-of-light seconds of one step, before efficiencies: per GEMM entry a compute time at 100% of the
    dtype's peak (tile/wave and misalignment included) and a memory time at 100% of HBM bandwidth; attention
    and recurrent compute/memory; communication bytes time at 100% link bandwidth and collective counts."""

    gemm_compute: list[float]
    gemm_memory: list[float]
    gemm_ops: int
    attn_compute: float
    attn_memory: float
    comm_s: float
    comm_n: int
    kind: str  # "decode" or "prefill"
    #: inter-node part of the collectives: bytes time at 100% of the scale-out NIC bandwidth, and the fixed
    #: per-message latencies of the inter-node hops (seconds; the catalog's, not fitted)
    comm_inter_s: float = 0.0
    comm_inter_lat: float = 0.0


def step_time(f: Features, p: dict[str, float], eff_c: float) -> dict[str, float]:
    """Seconds of a step from its features and efficiency parameters (see module docstring)."""
    eff_m = p["mem_bw_eff"]
    if f.kind == "prefill":  # large-M prefill GEMMs and attention run at their own achieved efficiency
        eff_c = eff_c * p.get("prefill_eff_scale", 1.0)
    comp = mem = gemm = 0.0
    inv_c, inv_m = 1.0 / eff_c, 1.0 / eff_m
    for c, m in zip(f.gemm_compute, f.gemm_memory):
        tc, tm = c * inv_c, m * inv_m
        comp += tc
        mem += tm
        gemm += tc if tc > tm else tm
    attn_eff = p["attn_compute_eff"] * (p.get("prefill_eff_scale", 1.0) if f.kind == "prefill" else 1.0)
    attn = max(f.attn_compute / attn_eff, f.attn_memory / eff_m)
    intra = f.comm_s / p["comm_bw_eff"] + f.comm_n * p["comm_latency_s"]
    inter = f.comm_inter_s / p["comm_bw_eff"] + f.comm_inter_lat
    comm = intra + inter
    lat = f.gemm_ops * (p["op_latency_s"] + (p.get("prefill_op_latency_s", 0.0) if f.kind == "prefill" else 0.0))
    over = p["decode_step_overhead_s"] if f.kind == "decode" else p["prefill_overhead_s"]
    return {"total": gemm + attn + comm + lat + over, "gemm": gemm, "gemm_compute": comp, "gemm_memory": mem,
            "attention": attn, "comm": comm, "comm_intra": intra, "comm_inter": inter, "overhead": over + lat}


#: speculative methods: default drafted tokens, per-token acceptance, draft layers, and the source of the numbers
SPECULATIVE = {
    "mtp": {"tokens": None, "acceptance": 0.875, "draft_layers": 1,
            "src": "DeepSeek-V3 technical report (arXiv 2412.19437) section 5.4.3: the second token predicted by MTP is "
                   "accepted 85-90% of the time (midpoint 0.875), about 1.8x tokens per second; drafted tokens default "
                   "to the checkpoint's MTP layers (num_nextn_predict_layers); beyond one, geometric acceptance is an "
                   "assumption"},
    "eagle3": {"tokens": 3, "acceptance": 0.7, "draft_layers": 1,
               "src": "assumption (no measured source in hand): EAGLE-3 draft head of one decoder layer at the target's "
                      "width, chain drafting of 3 tokens, per-token acceptance 0.7 (acceptance length 2.53); pass "
                      "--acceptance-rate for your model and data"},
}


@dataclass(frozen=True)
class Speculative:
    """A speculative-decoding setting: method, drafted tokens per step k, per-token acceptance a, draft layers."""

    method: str
    tokens: int
    acceptance: float
    draft_layers: int
    source: str

    @property
    def acceptance_length(self) -> float:
        """Mean tokens emitted per draft-and-verify step: 1 + a + a² + … + a^k."""
        return sum(self.acceptance ** i for i in range(self.tokens + 1))


def speculative_setting(method: str, arch: ModelArch, tokens: int | None = None,
                        acceptance: float | None = None) -> Speculative | None:
    """The :class:`Speculative` for ``--speculative METHOD`` (None for ``none``).

    Raises:
        BadInputError: unknown method, MTP on a model without MTP layers, k outside 1-16, a outside (0, 1).
    """
    if method in (None, "", "none"):
        return None
    spec = SPECULATIVE.get(method)
    if spec is None:
        raise BadInputError(f"unknown --speculative {method!r}; known: none, {', '.join(SPECULATIVE)}")
    if arch.pooling_head is not None:
        raise BadInputError(f"--speculative {method}: {arch.pooling_head.head_class} has no lm_head (a reward / classification / embedding "
                            "model): it does not generate tokens to draft")
    if method == "mtp" and arch.mtp is None:
        raise BadInputError("--speculative mtp: this model has no MTP (next-n) layers; try eagle3 with a draft head")
    k = tokens or spec["tokens"] or (arch.mtp.num_layers if arch.mtp is not None else 1)
    if not 1 <= k <= 16:
        given = "--spec-tokens" if tokens else "the checkpoint's MTP layers (num_nextn_predict_layers)"
        raise BadInputError(f"speculative tokens per step must be between 1 and 16, got {k} from {given}"
                            + ("" if tokens else "; pass --spec-tokens"))
    a = spec["acceptance"] if acceptance is None else acceptance
    if not 0.0 < a < 1.0:
        raise BadInputError(f"--acceptance-rate must be between 0 and 1 (exclusive), got {a:g}")
    src = spec["src"] if acceptance is None else f"--acceptance-rate {a:g} (given)"
    if tokens is not None and acceptance is None:
        src = f"--spec-tokens {k} (given); acceptance per token {a:g}: " + spec["src"]
    if method == "mtp" and arch.mtp is not None and k > arch.mtp.num_layers:
        n = arch.mtp.num_layers
        src += (f"; {k} drafted tokens from {n} MTP layer(s): the layer(s) are run again for the tokens beyond "
                f"{n} (estimated: the same acceptance {a:g} is assumed at every depth, which the source does not "
                "measure past the first; pass --acceptance-rate for your data)")
    return Speculative(method, k, a, spec["draft_layers"], src)


def sglang_default_fraction(calibration: Calibration, framework: str) -> bool:
    """Whether ``framework`` sizes its KV pool by SGLang's default ``--mem-fraction-static``
    (:func:`scorer.kvcache.sglang_mem_fraction`): SGLang, unless the calibration sets ``gpu_mem_util`` for it."""
    return framework == "sglang" and "gpu_mem_util" not in (calibration.frameworks.get("sglang") or {})


def _causal_pairs(length: int, window: int) -> float:
    """(query, key) pairs of a causal pass over ``length`` tokens in which a query sees at most ``window`` keys."""
    if length <= window:
        return length * (length + 1) / 2
    return window * (window + 1) / 2 + (length - window) * window


def _selection_decode_terms(sel, head_dim: int, n: int, kv_b: float) -> list[tuple[int | None, float, float, float]]:
    """Decode terms of a :class:`~scorer.architecture.specs.SparseSelection` (``_decode_attention_terms`` format:
    window, bytes and FLOPs per context token, state bytes), as transformers 5.25.0's ``Kolibri1_1Indexer`` computes
    it (no engine kernel is published): the ``scoring_heads`` query heads score KV head 0's key of every pool token
    (at most ``pool_size``), and a pool source also averages KV head 0's key of every cached token into blocks of
    ``compression`` and scores the block summaries. The selection must agree on every TP rank, so each rank scores
    all of it (unsharded, as DeepSeek sparse attention's indexer here)."""
    out = [(sel.pool_size, n * head_dim * kv_b, n * 2.0 * sel.scoring_heads * head_dim, 0.0)]
    if sel.pool_source:
        out.append((None, n * head_dim * kv_b, n * (head_dim + 2.0 * sel.scoring_heads * head_dim / sel.compression),
                    0.0))
    return out


def selection_prefill_flops(sel, head_dim: int, local_seqs: float, length: int) -> float:
    """Scoring FLOPs of a :class:`~scorer.architecture.specs.SparseSelection` prefilling ``local_seqs`` sequences of
    ``length`` tokens (unsharded): every query scores its pool (at most ``pool_size`` keys) with ``scoring_heads``
    heads; a pool source also scores the block summaries (one per ``compression`` keys)."""
    per = 2.0 * local_seqs * sel.scoring_heads * head_dim
    out = per * _causal_pairs(length, sel.pool_size)
    if sel.pool_source:
        out += per * length * (length + 1) / 2 / sel.compression
    return out


@dataclass
class CostModel:
    """A model on a GPU at a precision and layout; answers prefill, decode-step and memory questions."""

    arch: ModelArch
    params: ParamCounts
    gpu: GPU
    precision: Precision
    layout: Layout
    kv_dtype: str = "bf16"
    framework: str = "vllm"
    calibration: Calibration | None = None
    unquantized: set[str] = field(default_factory=set)
    gemms: list[Gemm] = field(default_factory=list)
    kv_policy: str = "auto"
    #: the checkpoint's stored bytes of the language model (safetensors data_offsets, scales included) when they
    #: are the weights served at ``precision`` (scorer.checkpoint.stored_weight_bytes); None = modelled
    stored_weight_bytes: float | None = None
    #: engine flags that override its defaults (``max_num_seqs``, ``max_num_batched_tokens``): what a benchmark
    #: harness launched the server with (data/harnesses.json) or a user's command
    engine_args: dict[str, int] = field(default_factory=dict)
    #: speculative decoding (None: off); see :meth:`speculative_step`
    speculative: Speculative | None = None

    def __post_init__(self) -> None:
        if self.calibration is None:
            self.calibration = load_calibration()
        if not self.gemms:
            self.gemms = inventory(self.arch)
        p, self.dtype, self.peak, self.peak_bf16, self.eff_c, self.bw_peak, self.topology = self._device()
        self.p = dict(p)  # each cost model its own copy, as resolve() gives
        lay = self.layout
        if not adp_wait_applies(lay.dp):
            self.p[ADP_WAIT] = 0.0
        self._unq_proj = unquantized_projections(self.arch, self.precision.id)  # "*down_proj*" left 16-bit
        self._qb = quantized_weight_bytes(self.precision, self.arch.quantization)  # bytes per quantized weight
        self._comp_qb = component_weight_bytes(self.arch, self.precision)  # a mixed checkpoint's, per component
        tp = lay.tp
        self._shards = _shards_for(self.gemms, tp, lay.moe_tp)
        self.kv_policy = resolve_policy(self.kv_policy, self.framework)
        self.engine_kv = engine_kv(self.framework, self.gpu, lay.pp,
                                   self.engine_args.get("max_num_batched_tokens"))
        self.kv_b = DTYPE_BYTES[self.kv_dtype]
        # the recurrent state ignores the KV dtype; its conv window and SSM state at the engine's dtypes (kvcache)
        self.state_dtype = state_dtype_for(self.arch, self.kv_policy)
        key = (id(self.arch), lay.tp, lay.pp, lay.ep, lay.dp)
        blocks = _COMM.get_for(self.arch, key)
        self._blocks = blocks if blocks is not None else _COMM.put_for(self.arch, key, self._comm_plan())
        self._mixers = mixer_groups(self.arch)  # identical mixers are evaluated once, weighted by layer count
        self._kv_cache: dict[tuple, float] = {}
        self._pre_cache: dict[int, tuple[float, float]] = {}
        self._feat_cache: dict[tuple, Features] = {}
        self._dec_parts: dict[tuple, tuple] = {}
        self._dec_gemm: dict[float, tuple] = {}
        self._max_c: dict[tuple, int] = {}
        self._kit: tuple | None = None
        self._evaluations: dict[tuple, dict] = {}  # scorer.regimes: workload points and predictions
        self._predictions: dict[tuple, Any] = {}
        self._serve_k: tuple | None = None  # scorer.regimes: per-cost-model constants of its points
        self._pred_k: tuple | None = None

    def _device(self) -> tuple:
        """(parameters, compute dtype, its peak, the bf16 peak, GEMM compute efficiency, HBM bytes/s, topology) of
        this calibration, framework, GPU and precision; memoized (cost models of one GPU and precision differ only
        in layout). Treats the calibration, GPU and precision as read-only, as the rest of the scorer does."""
        cal, gpu, prec = self.calibration, self.gpu, self.precision
        key = (id(cal), self.framework, id(gpu), id(prec))
        hit = _DEVICE.get(key)
        if hit is not None and hit[0]() is cal and hit[1]() is gpu and hit[2]() is prec:
            return hit[3]
        p = cal.resolve(self.framework, gpu.arch)
        dtype = compute_dtype(prec, gpu)
        peak = gpu.peak_flops(dtype)
        peak_bf16 = gpu.peak_flops("bf16")
        out = (p, dtype, peak, peak_bf16, gemm_eff(gpu, dtype, p), gpu.bw_bytes_per_s, gpu.topology())
        _DEVICE.put(key, (identity_ref(cal), identity_ref(gpu), identity_ref(prec), out))
        return out

    @cached_property
    def _wb(self) -> list[float]:
        """Bytes per weight of each inventory entry (in :attr:`_shards` order)."""
        return [self.weight_bytes(g) for g, _ in self._shards]

    @cached_property
    def _mis(self) -> list[float]:
        """Misalignment factor of each inventory entry's shard (:func:`scorer.tiles.misalignment_factor`)."""
        return [misalignment_factor(s.n, s.k, min(wb, 2.0)) for (g, s), wb in zip(self._shards, self._wb)]

    def engine_blocker(self) -> str | None:
        """Why the framework refuses this (precision, layout) — an architecture the engine cannot load
        (:data:`scorer.engine_models.REFUSED`, rule S6) or not at this TP / PP (a Transformers backend that requires
        the config class's parallelism plans, :meth:`~scorer.engine_models.EngineSupport.layout_blocker`), or the readiness matrix's ``not_ready``
        (:func:`scorer.quant.engine_blocker`) — or None when it runs."""
        if "_blocker" in self.__dict__:  # memoized per cost model (regimes and sweeps ask each layout several times)
            return self._blocker
        from .engine_models import REFUSED, engine_support
        impl = engine_support(self.arch, self.framework)
        if impl is not None and impl.status in REFUSED:  # the engine cannot load the architecture at all (rule S6)
            self._blocker = impl.detail
            return self._blocker
        from .quant import engine_tp_size  # SGLang's --tp-size spans the attention-DP ranks too
        spec = self.speculative.method if self.speculative is not None else None
        if impl is not None and (why := impl.layout_blocker(engine_tp_size(self.framework, self.layout.tp,
                                                                           self.layout.dp), self.layout.pp, spec,
                                                            self.layout.dp)):
            self._blocker = why
            return self._blocker
        from .quant import engine_blocker
        lay = self.layout
        self._blocker = engine_blocker(self.arch, self.gemms, self.precision.id, lay.tp, self.framework, lay.ep,
                                       lay.moe_tp)
        return self._blocker

    # ---------------------------------------------------------------- memory
    def weight_bytes(self, g: Gemm) -> float:
        if not g.quantizable or g.component in self.unquantized:
            return 2.0
        # a mixed checkpoint's component at its own format; else the checkpoint's group size and zero points at its
        # own format (quantized_weight_bytes); the share of it the checkpoint leaves 16-bit at 2 bytes
        share = excluded_share(g, self._unq_proj) if self._unq_proj else 0.0
        return share * 2.0 + (1.0 - share) * self._comp_qb.get(g.component, self._qb)

    def weights_per_gpu(self) -> float:
        """Bytes of weights each GPU holds (GEMMs sharded; embedding vocab-parallel; the rest replicated)."""
        if getattr(self, "_weights", None) is None:
            self._weights = self._weights_per_gpu() + self.draft_weight_bytes() + self.vision_weight_bytes()
        return self._weights

    def vision_weight_bytes(self) -> float:
        """Per-GPU bytes of the vision tower and projector (``params.vision``), 0 for a text model: in bf16 (quantization
        recipes leave it unquantized) and split over TP, as vLLM's encoders shard it by default (vllm 0.33.0
        model_executor/models/qwen2_5_vl.py: QKVParallelLinear / RowParallelLinear unless mm_encoder_tp_mode is
        "data"). Loaded with the model, so it counts in weight memory and fit; its compute per image is not modelled."""
        return (self.params.vision or 0) * 2.0 / self.layout.tp

    def draft_weight_bytes(self) -> float:
        """Per-GPU bytes of the speculative draft, 0 without one. MTP: the checkpoint's MTP layers (``params.mtp``
        less the embedding / lm_head copies engines share with the main model) at the serving precision; EAGLE-3:
        a draft head of ``draft_layers`` dense decoder layers (the target's attention and its dense MLP, or for a
        model without one the MLP of its active experts: EAGLE-3 heads are dense, e.g. LlamaForCausalLMEagle3) plus an
        lm_head in bf16 (assumption: the head's own vocabulary is not known from the target's config). The MTP
        layers are sharded as the main model's decoder layers are (experts over EP, the rest over attention TP:
        :meth:`_layer_shard_share`); the head over attention TP."""
        sp = self.speculative
        if sp is None:
            return 0.0
        tp = self.layout.tp
        if sp.method == "mtp":
            mtp = (self.params.mtp or 0) - (self.params.mtp_copies or 0)
            return mtp * self.precision.weight_bytes * self._layer_shard_share()
        emb = self.params.by_component.get("embedding", 0)
        head = self.params.by_component.get("lm_head", 0) or emb
        return (sp.draft_layers * self._dense_layer_params() + head) * 2.0 / tp

    def _layer_shard_share(self) -> float:
        """The share of the decoder layers' GEMM parameters one GPU holds under this layout (experts over EP, the
        rest as sharded over attention TP); 1 / TP where the model has no layer GEMM."""
        held = full = 0.0
        for g, s in self._shards:
            if g.component == "lm_head":
                continue
            cnt = expert_share(g.count, g.count // max(1, len(g.layers)), self.layout.ep) if g.expert else g.count
            held += s.k * s.n * cnt
            full += g.k * g.n * g.count
        return held / full if full else 1.0 / self.layout.tp

    def _dense_layer_params(self) -> float:
        """Parameters of one dense decoder layer of the target's shapes: attention per attention layer plus the
        dense MLP per dense layer, or (no dense MLP) the active routed and shared experts per MoE layer."""
        def per_layer(comps, attr="count") -> float:
            groups = [g for g in self.gemms if g.component in comps]
            layers = {i for g in groups for i in g.layers}
            return sum(g.k * g.n * getattr(g, attr) for g in groups) / max(1, len(layers)) if groups else 0.0
        ffn = per_layer(("mlp",)) or per_layer(("routed_experts", "shared_experts"), "active")
        return per_layer(("attention",)) + ffn

    def _weights_per_gpu(self) -> float:
        """Modelled per-GPU bytes; with ``stored_weight_bytes`` the checkpoint's total wins and is split over the
        GPUs in the modelled proportions (per-GPU = modelled per-GPU x stored / modelled unsharded total)."""
        tp, ep, pp = self.layout.tp, self.layout.ep, self.layout.pp
        total = full = 0.0
        for (g, s), wb in zip(self._shards, self._wb):
            cnt = expert_share(g.count, g.count // max(1, len(g.layers)), ep) if g.expert else g.count
            total += wb * s.k * s.n * cnt
            full += wb * g.k * g.n * g.count
        gemm_params = sum(g.k * g.n * g.count for g in self.gemms)
        if self.arch.tie_word_embeddings and self.arch.has_lm_head_gemm:
            gemm_params -= self.arch.head_vocab * self.arch.hidden_size  # lm_head shares the embedding table
        emb = self.params.by_component["embedding"]
        from .gemms import shared_weight_factor
        share = shared_weight_factor(self.arch, self.params.total, emb, self.gemms)
        if share < 1.0:  # weights shared by several layers are stored once
            total, full, gemm_params = total * share, full * share, gemm_params * share
        rest = max(0, self.params.total - gemm_params - emb)
        emb_full = 0.0 if self.arch.tie_word_embeddings else emb * 2.0
        per_gpu = total / pp + emb_full / tp + rest * 2.0
        if self.stored_weight_bytes:
            modelled = full + emb_full + rest * 2.0
            if modelled > 0:
                per_gpu = per_gpu * self.stored_weight_bytes / modelled
        return per_gpu + self.mxfp4_expert_padding_bytes() * share / pp

    def mxfp4_expert_padding_bytes(self) -> float:
        """Per-GPU bytes vLLM adds to a gpt-oss MXFP4 checkpoint's routed experts by rounding their sizes up before
        allocating them (0 elsewhere): vllm 0.33.0 layers/fused_moe/routed_experts.py calls
        ``maybe_roundup_sizes`` before ``create_weights``, with the sizes of
        layers/fused_moe/oracle/mxfp4.py ``mxfp4_round_up_hidden_size_and_intermediate_size`` for the backend
        ``_get_priority_backends_for_gpt_oss`` picks (:data:`MXFP4_MOE_ROUNDING`); SGLang 0.5.23 likewise on SM100 /
        SM120 (:data:`MXFP4_MOE_ROUNDING_SGLANG`). The per-rank expert width I_p and the hidden size are rounded; a
        GPU whose backend is not modelled adds nothing."""
        from .quant import gpt_oss_mxfp4
        table = {"vllm": MXFP4_MOE_ROUNDING, "sglang": MXFP4_MOE_ROUNDING_SGLANG}.get(self.framework)
        if table is None or self.precision.id != "mxfp4" or not gpt_oss_mxfp4(self.arch, True):
            return 0.0
        cc = "rocm" if self.gpu.vendor == "amd" else (self.gpu.compute_capability or "").split(".")[0]
        align = table.get(cc)
        if align is None:
            return 0.0
        a_i, a_h = align
        extra = 0.0
        for (g, sh), wb in zip(self._shards, self._wb):
            if not g.expert:
                continue
            cnt = expert_share(g.count, g.count // max(1, len(g.layers)), self.layout.ep)
            if g.shard == "row":  # down: K = I_p, N = hidden
                k, n = _round_up(sh.k, a_i), _round_up(sh.n, a_h)
            else:  # gate/up: K = hidden, N = the parts of I_p each
                parts = sh.parts or [sh.n]
                k, n = _round_up(sh.k, a_h), sum(_round_up(p, a_i) for p in parts)
            extra += wb * (k * n - sh.k * sh.n) * cnt
        return extra

    def kv_bytes_per_sequence(self, context: int, policy: str | None = None) -> float:
        """Per-GPU bytes of KV cache + recurrent state for one sequence held by a GPU's DP rank
        (PP splits the layers; each sequence lives on one DP rank), plus a speculative draft's layers
        (:func:`scorer.kvcache.draft_layer_bytes`)."""
        policy = resolve_policy(policy, self.framework) if policy else self.kv_policy
        key = (context, policy)
        if key not in self._kv_cache:
            self._kv_cache[key] = per_sequence_bytes(self.arch, context, self.kv_dtype, policy, self.layout.tp,
                                                     self.state_dtype, self.engine_kv) / self.layout.pp
            if self.speculative is not None:  # the draft's own layers cache KV too, all on the last stage
                from .kvcache import draft_layer_bytes
                sp = self.speculative
                # MTP: every layer of the checkpoint's (SGLang 0.5.23 spec_aux_hidden_state.py eagle_draft_num_layers
                # = num_nextn_predict_layers; vLLM deepseek_mtp.py builds them all), whichever one drafts a token
                layers = self.arch.mtp.num_layers if sp.method == "mtp" and self.arch.mtp is not None \
                    else sp.draft_layers
                self._kv_cache[key] += layers * draft_layer_bytes(self.arch, context, self.kv_dtype, self.layout.tp)
        return self._kv_cache[key]

    def kv_budget_bytes(self) -> float:
        """Bytes per GPU left for KV cache. Frameworks size it differently (calibration ``kv_free_fraction``):
        a fraction of the memory left after weights (TensorRT-LLM's kv_cache_free_gpu_mem_fraction), or a
        fraction of total memory minus weights (vLLM's gpu_memory_utilization, SGLang's mem_fraction_static)."""
        w = self.weights_per_gpu()
        reserve = self.p["runtime_reserve_gib"] * GIB
        free_frac = self.p.get("kv_free_fraction", 0.0)
        if free_frac > 0:
            return (self.gpu.memory_bytes - w - reserve) * free_frac
        if self.sglang_default_fraction():
            # SGLang: the free memory after the weights minus the pre-load free memory x (1 - fraction)
            # (kv_cache_configurator._profile_available_bytes); the pre-load free memory is the GPU's less the
            # runtime reserve (CUDA context, communicator buffers)
            return (self.gpu.memory_bytes - reserve) * self.mem_fraction() - w
        return self.gpu.memory_bytes * self.p["gpu_mem_util"] - reserve - w

    def sglang_default_fraction(self) -> bool:
        """SGLang at its default ``--mem-fraction-static`` (:func:`sglang_default_fraction`)."""
        return sglang_default_fraction(self.calibration, self.framework)

    def mem_fraction(self) -> float:
        """The share of GPU memory the engine's static pools (weights + KV cache) may take, as its flag says it:
        vLLM's ``--gpu-memory-utilization`` (calibration ``gpu_mem_util``), SGLang's default
        ``--mem-fraction-static`` for this GPU and layout (:func:`scorer.kvcache.sglang_mem_fraction`)."""
        if not self.sglang_default_fraction():
            return self.p["gpu_mem_util"]
        if "_mem_fraction" not in self.__dict__:
            from .kvcache import sglang_mem_fraction, uses_mla
            a, lay = self.arch, self.layout
            mla = uses_mla(a)
            vision = (a.vision.num_layers, a.vision.hidden_size) if a.vision is not None else None
            self._mem_fraction = sglang_mem_fraction(self.gpu, lay.tp, lay.pp, lay.dp, mla, vision)
        return self._mem_fraction

    def admission_cap(self) -> int | None:
        """Requests the engine runs at once by default (vLLM's ``max_num_seqs`` tier for the GPU, TensorRT-LLM's
        max_batch_size, SGLang's per-worker default from its KV pool), over all DP ranks; data/engines.json.
        None = no cap (SGLang where no token fits)."""
        if "_admission" in self.__dict__:
            return self._admission
        from .kvcache import engine_default
        from .resources import load_json
        eng = load_json("engines.json")["engines"].get(self.framework) or {}
        if self.engine_args.get("max_num_seqs"):
            per_rank = self.engine_args["max_num_seqs"]
        elif self.framework == "vllm":
            per_rank = engine_default(eng["max_num_seqs"], self.gpu)
        elif self.framework == "sglang" and not eng.get("max_running_requests"):
            per_rank = self._sglang_running_cap()
        else:
            per_rank = eng.get("max_batch_size") or eng.get("max_running_requests")
        self._admission = int(per_rank) * self.layout.dp if per_rank else None
        return self._admission

    def _sglang_running_cap(self) -> int | None:
        """:meth:`_sglang_default_cap`, at most the --max-running-requests SGLang sets itself under speculative
        decoding (:meth:`_sglang_requested`: resolve_max_num_reqs takes min(requested // DP, tokens // 2, the state
        pool's requests), kv_cache_configurator.py:3125-3150)."""
        cap = self._sglang_default_cap()
        req = self._sglang_requested() if self.speculative is not None else None
        return cap if cap is None or req is None else max(1, min(cap, req))

    def _sglang_default_cap(self) -> int | None:
        """SGLang's default requests per attention-DP worker: min(clamp(pool tokens / context length x 512, 2048,
        4096), pool tokens // 2) (kv_cache_configurator.resolve_max_num_reqs), the pool's tokens being the KV
        budget over one token's KV bytes; the context length is the model's. A Mamba / linear-attention model's
        KV pool is what its state pool leaves (:meth:`sglang_mamba_pool`) and the cap is also at most the state
        slots // slots a request (resolve_max_num_reqs, kv_cache_configurator.py:3134-3150). With no attention
        layer the token pool holds what deploysheet's launch command sets, --max-total-tokens = the running batch x
        its context (:meth:`sglang_attention_free`), so int(tokens / context x 512) is at least 4,096 from 8
        requests on and the cap is min(4096, the state pool's requests). None where no token fits."""
        ctx = max(1, self.arch.context_limit or 4096)
        pool = self.sglang_mamba_pool()
        if pool is not None:
            per_token = self._sglang_kv_only_bytes(1)
            if pool.kv_bytes <= 0:
                return None
            if per_token <= 0:
                return max(1, min(4096, pool.max_requests))
            tokens = int(pool.kv_bytes // per_token)
            return max(1, min(max(min(int(tokens / ctx * 512), 4096), 2048), tokens // 2, pool.max_requests))
        per_token = self.kv_bytes_per_sequence(1)
        budget = self.kv_budget_bytes()
        if per_token <= 0 or budget <= 0:
            return None
        tokens = int(budget // per_token)
        return max(1, min(max(min(int(tokens / ctx * 512), 4096), 2048), tokens // 2))

    def _sglang_requested(self) -> int | None:
        """SGLang's --max-running-requests per attention-DP worker as it resolves it: max(1, flag // DP) of the
        engine argument, else of 48 under speculative decoding (every method deploysheet models is of the EAGLE
        family, which sets 48 when the flag is unset: data/engines.json ``speculative_max_running_requests``), else
        None (resolve_max_num_reqs derives its own)."""
        if self.engine_args.get("max_num_seqs"):
            return int(self.engine_args["max_num_seqs"])  # already per rank
        if self.speculative is not None:
            from .resources import load_json
            total = load_json("engines.json")["engines"]["sglang"]["speculative_max_running_requests"]
            return max(1, int(total) // max(1, self.layout.dp))
        return None

    def sglang_mamba_pool(self, policy: str | None = None, running: int | None = None):
        """SGLang 0.5.23's state-pool / KV-pool split of this GPU's KV budget (:func:`scorer.kvcache.
        sglang_mamba_pool`) under the ``sglang`` KV policy for a model with recurrent state; None otherwise. Under
        speculative decoding the intermediate states are reserved for ``running`` requests per attention-DP worker
        (the launch's --max-running-requests // DP; None: the engine's own resolution, :meth:`_sglang_requested`)."""
        policy = resolve_policy(policy, self.framework) if policy else self.kv_policy
        if policy != "sglang":
            return None
        draft = self.speculative.tokens + 1 if self.speculative is not None else 0  # --speculative-num-draft-tokens
        if running is None:
            running = self._sglang_requested() if draft else None
        elif not draft:
            running = None  # no intermediate states to size
        pools = self.__dict__.setdefault("_sg_pools", {})
        if running not in pools:
            from .kvcache import sglang_mamba_pool
            pools[running] = sglang_mamba_pool(self.arch, self.kv_budget_bytes(), self.layout.tp, self.layout.pp,
                                               self.state_dtype, draft, running)
        return pools[running]

    def sglang_attention_free(self) -> bool:
        """Whether this is SGLang serving a model with recurrent state and no attention layer (no KV per token).
        SGLang 0.5.23 then sizes its token pool at --max-total-tokens, else at the context length
        (model_executor/pool_configurator.py:246-250 ``_zero_kv_max_tokens``, used at 641-645 where the cell size
        is 0): at deploysheet's --context-length (ISL + OSL) one sequence at a time. deploysheet's launch command
        sets --max-total-tokens to the running batch x its context for such a model, and capacity assumes it."""
        return self.sglang_mamba_pool() is not None and self._sglang_kv_only_bytes(1) <= 0

    def _sglang_kv_only_bytes(self, context: int) -> float:
        """Per-GPU bytes one sequence of ``context`` tokens takes from SGLang's KV pool: its KV, its recurrent
        state (which lives in the state pool) taken out."""
        from .kvcache import recurrent_state_bytes
        state = recurrent_state_bytes(self.arch, self.layout.tp, self.state_dtype) / self.layout.pp
        return max(0.0, self.kv_bytes_per_sequence(context, "sglang") - state)

    def running(self, concurrency: int, max_c: int) -> int:
        """Sequences the engine runs of ``concurrency`` in flight: what its KV cache holds (``max_c``, when at
        least one fits) and its admission cap allow; the rest wait in its queue."""
        run = min(concurrency, max_c) if max_c >= 1 else concurrency
        cap = self.admission_cap()
        return max(1, min(run, cap)) if cap else run

    def max_concurrency(self, context: int, policy: str | None = None) -> int:
        """Sequences of ``context`` tokens the whole layout holds (all DP ranks); memoized per cost model."""
        key = (context, policy)
        hit = self._max_c.get(key)
        if hit is None:
            hit = self._max_c[key] = self._max_concurrency(context, policy)
        return hit

    def _max_concurrency(self, context: int, policy: str | None) -> int:
        free = self.kv_budget_bytes()
        pool = self.sglang_mamba_pool(policy)
        if pool is not None:  # SGLang: the KV pool's sequences, at most the state pool's requests
            if free <= 0:
                return 0
            per = self._sglang_kv_only_bytes(context)

            def held(p) -> int:  # sequences one worker's pools hold
                if p.kv_bytes <= 0:
                    return 0
                # no attention layer: the token pool holds --max-total-tokens as launched (sglang_attention_free)
                return min(int(p.kv_bytes // per) if per > 0 else p.max_requests, p.max_requests)
            fit = held(pool)
            if self.speculative is not None and per > 0 and fit < (self._sglang_requested() or pool.max_requests):
                # the launch sets --max-running-requests to the running batch, and SGLang reserves intermediate
                # states for that many requests (kv_cache_configurator.py:3368-3375): the largest r whose pools,
                # reserved for r, hold r (held(r) falls as r grows, so r - held(r) rises: bisect)
                lo, hi = fit, held(self.sglang_mamba_pool(policy, max(1, fit)))
                while lo < hi:
                    mid = (lo + hi + 1) // 2
                    lo, hi = (mid, hi) if held(self.sglang_mamba_pool(policy, mid)) >= mid else (lo, mid - 1)
                fit = lo
            return fit * self.layout.dp
        per = self.kv_bytes_per_sequence(context, policy)
        if free <= 0 or per <= 0:
            return 0
        return int(free // per) * self.layout.dp

    # ---------------------------------------------------------------- features
    def _comm_plan(self) -> list[tuple[str, int, float, int]]:
        """(kind, group size, bytes per local token, count) of the collectives of a forward pass (all-reduces:
        the engines' default paths, attention TP and MoE under attention DP included)."""
        lay = self.layout
        h = self.arch.hidden_size
        plan: list[tuple[str, int, float]] = []
        for layer in self.arch.layers:
            if layer.mixer is not None and lay.tp > 1:
                plan.append(("allreduce", lay.tp, h * ACT_BYTES))
            if isinstance(layer.ffn, MoEMLP) and lay.dp > 1:
                # experts over the whole TP x DP group, EP or not: the engines' default MoE communication gathers
                # every DP rank's tokens and reduce-scatters the outputs (vLLM 0.33.0 all2all_backend default
                # "allgather_reducescatter", vllm/config/parallel.py; SGLang 0.5.23 moe_a2a_backend default "none":
                # StandardDispatcher all-gathers the DP ranks' tokens, sglang/srt/layers/moe/token_dispatcher/
                # standard.py): an all-reduce's volume of the gathered tokens
                plan.append(("allreduce", lay.tp * lay.dp, lay.dp * h * ACT_BYTES))
            elif layer.ffn is not None and lay.tp > 1:
                # dense or MoE under attention TP (EP or not): every GPU holds every token, computes its experts'
                # (or its shards') share and the output is all-reduced over the TP group; no all-to-all (vLLM
                # 0.33.0 FusedMoEParallelConfig.use_all2all_kernels needs dp_size > 1, fused_moe/config.py)
                plan.append(("allreduce", lay.tp, h * ACT_BYTES))
        counts: dict[tuple[str, int, float], int] = {}
        for item in plan:
            counts[item] = counts.get(item, 0) + 1
        return [(k, g, b, n) for (k, g, b), n in counts.items()]

    def _comm(self, local_tokens: float) -> tuple[float, int, float, float]:
        """Collectives of one forward pass over ``local_tokens`` tokens per GPU, split by fabric (see
        :func:`collective_time`): (intra-domain bytes seconds at 100% of scale-up bandwidth, intra-domain
        collective count, inter-domain bytes seconds at 100% of scale-out bandwidth, inter-domain latency
        seconds)."""
        topo = self.topology
        intra = inter = inter_lat = 0.0
        n = 0
        for kind, group, per_tok, count in self._blocks:
            c = collective_time(kind, group, local_tokens * per_tok, topo)
            intra += count * c.intra_bytes_s
            inter += count * c.inter_bytes_s
            inter_lat += count * c.inter_latency_s
            n += count * c.intra_messages
        pp = self.layout.pp
        if pp > 1:  # activations hop between consecutive stages
            byts = local_tokens * self.arch.hidden_size * ACT_BYTES
            crossing = pp_hops_across(pp, self.layout.tp * self.layout.dp, topo.domain)
            intra += (pp - 1 - crossing) * byts / topo.scaleup_bw(2)  # one GPU to one GPU
            n += pp - 1 - crossing
            inter += crossing * byts / topo.scaleout_bytes_per_s
            inter_lat += crossing * topo.scaleout_latency_s
        return intra, n, inter, inter_lat

    def _gemm_plan(self) -> list[tuple]:
        """Per inventory entry, the constants of its time formulas (computed once per cost model)."""
        ep = self.layout.ep
        plan = []
        own = self._gemm_peaks()
        for (g, s), wb, mis in zip(self._shards, self._wb, self._mis):
            layers = max(1, len(g.layers))
            kn = s.k * s.n
            peak, eff_ratio = own.get(self._gemm_dtype(g, wb), (self.peak, 1.0))
            c_scale = eff_ratio / (peak * mis)
            m_scale = 1.0 / self.bw_peak
            if g.expert:
                per_layer = g.count // layers
                top_k = g.active / layers
                # the fullest EP rank sets the step: ceil(E / ep) of a layer's E experts (expert_share)
                plan.append((True, g.component == "lm_head", s.n, s.k, c_scale, m_scale,
                             expert_share(2.0 * top_k * kn * layers, per_layer, ep),  # FLOPs per token
                             expert_share(wb * kn * layers * per_layer, per_layer, ep),  # bytes, every expert touched
                             expert_share(ACT_BYTES * top_k * (s.k + s.n) * layers, per_layer, ep),  # activations
                             top_k / per_layer, top_k / per_layer))
            else:
                plan.append((False, g.component == "lm_head", s.n, s.k, c_scale, m_scale, 2.0 * kn * g.count,
                             wb * kn * g.count, ACT_BYTES * (s.k + s.n) * g.count, 0.0, 0.0))
        self._gemm_ops = sum(max(1, len(g.layers)) for g, _ in self._shards)
        return plan

    def _gemm_dtype(self, g: Gemm, wb: float) -> str | None:
        """The compute dtype of a GEMM that does not run at the precision's own (None: it does): a 16-bit weight
        (router, lm_head, what the checkpoint leaves unquantized) runs BF16 GEMMs; a mixed checkpoint's component
        at another format (FP8 attention beside NVFP4 experts) runs that format's."""
        if wb >= 2.0:
            return "bf16" if self.dtype != "bf16" else None
        q = self.arch.quantization
        fmt = q.component_formats.get(g.component) if (q is not None and q.format == self.precision.id) else None
        if fmt and fmt != self.precision.id:
            from .hardware import precisions
            cat = precisions()
            if fmt in cat:
                d = compute_dtype(cat[fmt], self.gpu)
                return d if d != self.dtype else None
        return None

    def _gemm_peaks(self) -> dict[str, tuple[float, float]]:
        """dtype -> (its peak FLOP/s on this GPU, its GEMM efficiency / the precision's) for :meth:`_gemm_dtype`'s
        dtypes: a GEMM's compute seconds are flops x eff_ratio / (peak x misalignment) / eff_c."""
        gpu, p = self.gpu, self.p
        main = gemm_eff(gpu, self.dtype, p)
        return {d: (gpu.peak_flops(d), main / gemm_eff(gpu, d, p)) for d in ("bf16", "fp8", "fp4", "int8")
                if d != self.dtype and gpu.tflops.get(d)}

    def _gemm_features(self, m_tokens: float, seqs: float) -> tuple[list[float], list[float], int]:
        """Per inventory entry: compute seconds at 100% of peak (tile/wave and misalignment included) and memory
        seconds at 100% of HBM bandwidth, for a step of ``m_tokens`` tokens (``seqs`` sequences) over the layout.

        Experts see the tokens of every DP rank; a batch of T tokens touches E·(1 − (1 − k/E)^T) of the E
        experts of a layer. Below M_TILE_MIN tokens a GEMM is memory-bound and runs as GEMV/split-K, so
        tile and wave quantization (F3–F5) only shape the compute-bound regime."""
        plan = self.__dict__.get("_plan")
        if plan is None:
            plan = self._plan = self._gemm_plan()
        dp = self.layout.dp
        sms = self.gpu.sms
        eff, m_min = gemm_efficiency, M_TILE_MIN
        tokens = max(m_tokens, 0.0)
        per_rank, seqs_rank = m_tokens / dp, seqs / dp
        rank_int, seqs_int = int(round(per_rank)), int(round(seqs_rank))
        comp, mem = [], []
        for expert, lm_head, n, k, c_scale, m_scale, flops_tok, wbytes, abytes_tok, frac, _ in plan:
            if expert:
                m_eff = tokens * frac
                flops = flops_tok * tokens
                byts = wbytes * (1.0 - (1.0 - frac) ** tokens) + abytes_tok * tokens
                m_int = int(round(m_eff))
            else:
                m_eff, m_int = (seqs_rank, seqs_int) if lm_head else (per_rank, rank_int)
                flops = flops_tok * m_eff
                byts = wbytes + abytes_tok * m_eff
            comp.append(flops * c_scale / eff(m_int, n, k, sms) if m_eff >= m_min else flops * c_scale)
            mem.append(byts * m_scale)
        return comp, mem, self._gemm_ops

    def _memo(self, key: tuple, compute, *args) -> Features:
        hit = self._feat_cache.get(key)
        if hit is None:
            hit = self._feat_cache[key] = compute(*args)
        return hit

    def decode_features(self, batch: float, context: float, q: int = 1) -> Features:
        """Features of one decode step: ``batch`` sequences over the layout at mean ``context`` tokens, ``q``
        query tokens each (1; k + 1 when a speculative step verifies k drafted tokens)."""
        return self._memo(("d", batch, context, q), self._decode_features, batch, context, q)

    def _decode_features(self, batch: float, context: float, q: int = 1) -> Features:
        # Pipeline parallelism: the batch runs as pp micro-batches, and each sequence's token passes through
        # every stage in turn, so one step costs the whole model's time at batch/pp (weights are read once per
        # micro-batch by the stage holding them).
        dp, pp = self.layout.dp, self.layout.pp
        # a micro-batch holds at least one sequence: below pp sequences the step is one sequence's pass through
        # every stage (a token still touches top_k experts in each stage's MoE layers)
        batch = max(batch / pp, min(batch, 1.0))
        comp, mem, ops = self._gemm_features(batch * q, batch * q)
        local = batch / dp
        a_c = a_m = 0.0
        for window, per_ctx_m, per_ctx_c, fixed_m in self._decode_attention_terms():
            ctx = min(context, window) if window else context
            a_m += local * (ctx * per_ctx_m + fixed_m)  # the q queries of a sequence read its cache once
            a_c += local * q * ctx * per_ctx_c
        comm_s, comm_n, inter_s, inter_lat = self._comm(local * q)
        return Features(comp, mem, ops, a_c / self.peak_bf16, a_m / self.bw_peak, comm_s, comm_n,
                        "decode", inter_s, inter_lat)

    def decode_total(self, batch: float, context: float) -> float:
        """``decode_step(batch, context)["total"]``: the regimes and sweeps need only the total of most of the steps
        they evaluate (see :meth:`decode_parts`)."""
        return self.decode_parts(batch, context)[0]

    def decode_parts(self, batch: float, context: float) -> tuple[float, ...]:
        """(total, gemm_compute, gemm_memory, attention, comm, overhead) of ``decode_step(batch, context)``,
        memoized per cost model. Without speculative decoding it runs :meth:`_decode_parts`: the same floating-point
        operations in the same order as decode_features + step_time (so the same values, bit for bit) without
        building the per-GEMM lists, the Features and the breakdown dict."""
        memo = self._dec_parts
        key = (batch, context)
        hit = memo.get(key)
        if hit is None:
            if self.speculative is not None:
                d = self.decode_step(batch, context)
                hit = (d["total"], d["gemm_compute"], d["gemm_memory"], d["attention"], d["comm"], d["overhead"])
            else:
                hit = self._decode_parts(batch, context)
            memo[key] = hit
        return hit

    def decode_bound(self, batch: float, context: float) -> str:
        """:func:`bound_of` the decode step of ``batch`` sequences at mean ``context`` tokens."""
        _, comp, mem, attn, comm, over = self.decode_parts(batch, context)
        # = bound_of({...}) without the dicts (a prediction each): the first of the largest terms, in its order
        name, top = "memory", (mem if mem >= comp else 0.0) + attn
        for n, v in (("compute", comp if comp > mem else 0.0), ("communication", comm), ("overhead", over)):
            if v > top:
                name, top = n, v
        return name

    def _decode_parts(self, batch: float, context: float) -> tuple[float, ...]:
        """step_time(_decode_features(batch, context), p, eff_c) at q = 1, fused; keep in step with both. The GEMM
        and collective terms depend on the batch only, so they are memoized per batch (:meth:`_decode_gemm`) and
        shared by the contexts of a cost model's regimes and sweeps."""
        g = self._dec_gemm.get(batch)
        if g is None:
            g = self._decode_gemm(batch)
        gemm, comp, mem, comm, lat, local = g
        kit = self._kit or self._make_kit()
        a_c = a_m = 0.0
        for window, per_ctx_m, per_ctx_c, fixed_m in kit[8]:
            ctx = (window if window < context else context) if window else context  # = min(context, window)
            a_m += local * (ctx * per_ctx_m + fixed_m)
            a_c += local * ctx * per_ctx_c
        tc, tm = (a_c / kit[2]) / kit[4], (a_m / kit[3]) / kit[5]
        attn = tm if tm > tc else tc  # max(tc, tm)
        over = kit[6]
        return (gemm + attn + comm + lat + over, comp, mem, attn, comm, over + lat)

    def _make_kit(self) -> tuple:
        """Per-cost-model constants of the fused decode step (:meth:`_decode_parts`, :meth:`_decode_gemm`)."""
        kit = self._kit
        if kit is None:
            p = self.p
            plan = self.__dict__.get("_plan")
            if plan is None:
                plan = self._plan = self._gemm_plan()
            kit = self._kit = (1.0 / self.eff_c, 1.0 / p["mem_bw_eff"], self.peak_bf16, self.bw_peak,
                                p["attn_compute_eff"], p["mem_bw_eff"], p["decode_step_overhead_s"],
                                self._gemm_ops * p["op_latency_s"], tuple(self._decode_attention_terms()), plan,
                                # no experts: the terms of the memory-bound case (below M_TILE_MIN), in plan order
                                None if any(e[0] for e in plan) else
                                tuple((e[6], e[4], e[7], e[8], e[5]) for e in plan),
                                self._fast_comm())
        return kit

    def _fast_comm(self) -> tuple | None:
        """When every collective of the plan is an all-reduce inside one scale-up domain (and PP is 1): per block
        (count, 2(g − 1)/g, bytes per local token) and the messages, so :meth:`_decode_gemm` can add up what
        :meth:`_comm` would (the same operations in the same order); None otherwise."""
        if self.layout.pp > 1 or not self._blocks:
            return None
        d = max(1, self.topology.domain)
        out, n = [], 0
        for kind, group, per_tok, count in self._blocks:
            if kind != "allreduce" or not 1 < group <= d or not per_tok > 0:
                return None
            out.append((count, 2.0 * (group - 1) / group, per_tok, self.topology.scaleup_bw(group)))
            n += count
        return tuple(out), n

    def _decode_gemm(self, batch: float) -> tuple[float, ...]:
        """(GEMM seconds, their compute and memory sums, collective seconds, launch latency, sequences per DP rank)
        of a decode step of ``batch`` sequences (q = 1), memoized per cost model; see :meth:`_decode_parts`."""
        memo = self._dec_gemm
        hit = memo.get(batch)
        if hit is not None:
            return hit
        kit = self._kit or self._make_kit()
        dp, pp = self.layout.dp, self.layout.pp
        b = max(batch / pp, min(batch, 1.0))
        m_tokens = b  # decode_features' batch * q at q = 1
        sms = self.gpu.sms
        eff, m_min = gemm_efficiency, M_TILE_MIN
        tokens = max(m_tokens, 0.0)
        per_rank = m_tokens / dp  # = seqs / dp: a decode step runs one token per sequence
        rank_int = int(round(per_rank))
        inv_c, inv_m = kit[0], kit[1]
        comp = mem = gemm = 0.0
        if per_rank < m_min and kit[10] is not None:  # dense entries only, every one memory-bound (no tile terms)
            m_eff = per_rank
            for flops_tok, c_scale, wbytes, abytes_tok, m_scale in kit[10]:
                tc = flops_tok * m_eff * c_scale * inv_c
                tm = (wbytes + abytes_tok * m_eff) * m_scale * inv_m
                comp += tc
                mem += tm
                gemm += tc if tc > tm else tm
        else:
            for expert, _lm_head, n, k, c_scale, m_scale, flops_tok, wbytes, abytes_tok, frac, _ in kit[9]:
                if expert:
                    m_eff = tokens * frac
                    flops = flops_tok * tokens
                    byts = wbytes * (1.0 - (1.0 - frac) ** tokens) + abytes_tok * tokens
                    m_int = int(round(m_eff))
                else:
                    m_eff, m_int = per_rank, rank_int
                    flops = flops_tok * m_eff
                    byts = wbytes + abytes_tok * m_eff
                tc = (flops * c_scale / eff(m_int, n, k, sms) if m_eff >= m_min else flops * c_scale) * inv_c
                tm = (byts * m_scale) * inv_m
                comp += tc
                mem += tm
                gemm += tc if tc > tm else tm
        local = b / dp
        memo[batch] = hit = (gemm, comp, mem, self._comm_seconds(local), kit[7], local)
        return hit

    def _comm_seconds(self, local_tokens: float) -> float:
        """step_time's ``comm`` (intra + inter) of the collectives of one pass over ``local_tokens`` tokens per GPU:
        :meth:`_comm` at the calibrated efficiencies, with a fast path for all-reduces inside one domain that
        adds up the same terms in the same order."""
        kit = self._kit or self._make_kit()
        p = self.p
        fast = kit[11]
        if fast is not None and local_tokens > 0:  # collective_time's (f · size / up, 1, 0, 0) per all-reduce
            comm_s = 0.0
            for count, f, per_tok, up in fast[0]:
                comm_s += count * (f * (local_tokens * per_tok) / up)
            comm_n, inter_s, inter_lat = fast[1], 0.0, 0.0
        elif self._blocks or self.layout.pp > 1:
            comm_s, comm_n, inter_s, inter_lat = self._comm(local_tokens)
        else:  # no collective
            comm_s, comm_n, inter_s, inter_lat = 0.0, 0, 0.0, 0.0
        return (comm_s / p["comm_bw_eff"] + comm_n * p["comm_latency_s"]) + (inter_s / p["comm_bw_eff"] + inter_lat)

    def _decode_attention_terms(self) -> list[tuple[int | None, float, float, float]]:
        """Per mixer group, per local sequence: (window or None, KV bytes and attention FLOPs per context
        token, fixed state bytes read and written) of one decode step; memoized per cost model."""
        terms = self.__dict__.get("_dec_terms")
        if terms is not None:
            return terms
        tp = self.layout.tp
        sb = state_pair(self.state_dtype)
        terms = []
        for m, n in self._mixers:
            if isinstance(m, AttentionSpec):
                window = m.window if (m.span != "full" and m.window) else None
                d = m.head_dim + m.v_head_dim
                sel = m.selection
                if sel is not None:  # Kolibri 1.1: the query attends its selected keys only
                    window = sel.attended
                terms.append((window, n * kv_heads_per_gpu(m.num_kv_heads, tp) * d * self.kv_b,
                              n * 2.0 * (m.num_heads / tp) * d, 0.0))
                if sel is not None:
                    terms += _selection_decode_terms(sel, m.head_dim, n, self.kv_b)
                if m.index_kv_heads:  # Qwen4-Exp QSA: the indexer scores every cached index key
                    terms.append((None, n * kv_heads_per_gpu(m.index_kv_heads, tp) * m.index_head_dim * self.kv_b,
                                  n * 2.0 * m.index_heads * m.index_head_dim, 0.0))
            elif isinstance(m, MLASpec):
                lat_dim = m.kv_lora_rank + m.qk_rope_head_dim
                # DeepSeek sparse attention: the latent attention reads only the index_topk selected tokens,
                # the indexer scores every cached token with its own key
                window = m.indexer.top_k if m.indexer is not None else None
                terms.append((window, n * lat_dim * self.kv_b,
                              n * 2.0 * (m.num_heads / tp) * (lat_dim + m.kv_lora_rank), 0.0))
                if m.indexer is not None and not m.indexer.shared:  # a GLM-5 "shared" layer reuses the top-k
                    ix = m.indexer
                    terms.append((None, n * ix.head_dim * INDEX_KEY_BYTES, n * 2.0 * ix.num_heads * ix.head_dim, 0.0))
            elif isinstance(m, CompressedAttentionSpec):
                terms += self._compressed_decode_terms(m, n)
            elif isinstance(m, (Mamba2Spec, GatedDeltaNetSpec, ShortConvSpec)) or hasattr(m, "state_elements"):
                terms.append((None, 0.0, 0.0, n * 2.0 * _state_bytes(m, sb) / tp))
        self._dec_terms = terms
        return terms

    def _compressed_decode_terms(self, m: CompressedAttentionSpec, n: int) -> list[tuple]:
        """Decode terms of ``n`` DeepSeek-V4 layers: the shared K=V window (``head_dim`` bytes read per token,
        QK and PV FLOPs over 2 x head_dim), the compressed entries (one per ``compress_rate`` tokens; CSA attends
        the ``index_topk`` the indexer picks, so its window is index_topk x compress_rate source tokens) and
        CSA's indexer, which scores every compressed index key (unsharded, as DSA's)."""
        tp, d, b = self.layout.tp, m.head_dim, self.kv_b
        flops = n * 2.0 * (m.num_heads / tp) * 2 * d
        terms = [(m.window, n * d * b, flops, 0.0)]
        if m.compress_rate:
            rate = m.compress_rate
            window = m.indexer.top_k * rate if m.indexer is not None else None
            terms.append((window, n * d * b / rate, flops / rate, 0.0))
            if m.indexer is not None:
                ix = m.indexer
                terms.append((None, n * ix.head_dim * b / rate, n * 2.0 * ix.num_heads * ix.head_dim / rate, 0.0))
        return terms

    def prefill_features(self, seqs: float, length: int) -> Features:
        """Features of prefilling ``seqs`` sequences of ``length`` tokens in one batch over the layout."""
        return self._memo(("p", seqs, length), self._prefill_features, seqs, length)

    def _prefill_features(self, seqs: float, length: int) -> Features:
        dp = self.layout.dp  # a prefill passes through every pipeline stage: the whole model's time
        tokens = float(seqs * length)
        comp, mem, ops = self._gemm_features(tokens, seqs)
        local_seqs = seqs / dp
        a_c = 0.0
        for m, n in self._mixers:
            a_c += n * self._prefill_attention(m, local_seqs, length)
        comm_s, comm_n, inter_s, inter_lat = self._comm(tokens / dp)
        return Features(comp, mem, ops, a_c / self.peak_bf16, 0.0, comm_s, comm_n, "prefill", inter_s, inter_lat)

    def _prefill_total(self, seqs: float, length: int) -> float:
        """step_time(_prefill_features(seqs, length), p, eff_c)["total"], fused: the same floating-point operations
        in the same order (the same value, bit for bit); keep in step with both."""
        dp = self.layout.dp
        tokens = float(seqs * length)
        plan = self.__dict__.get("_plan")
        if plan is None:
            plan = self._plan = self._gemm_plan()
        sms = self.gpu.sms
        eff, m_min = gemm_efficiency, M_TILE_MIN
        m_tokens = tokens
        tokens = max(m_tokens, 0.0)
        per_rank, seqs_rank = m_tokens / dp, seqs / dp
        rank_int, seqs_int = int(round(per_rank)), int(round(seqs_rank))
        p = self.p
        eff_m = p["mem_bw_eff"]
        scale = p.get("prefill_eff_scale", 1.0)
        inv_c, inv_m = 1.0 / (self.eff_c * scale), 1.0 / eff_m
        gemm = 0.0
        for expert, lm_head, n, k, c_scale, m_scale, flops_tok, wbytes, abytes_tok, frac, _ in plan:
            if expert:
                m_eff = tokens * frac
                flops = flops_tok * tokens
                byts = wbytes * (1.0 - (1.0 - frac) ** tokens) + abytes_tok * tokens
                m_int = int(round(m_eff))
            else:
                m_eff, m_int = (seqs_rank, seqs_int) if lm_head else (per_rank, rank_int)
                flops = flops_tok * m_eff
                byts = wbytes + abytes_tok * m_eff
            tc = (flops * c_scale / eff(m_int, n, k, sms) if m_eff >= m_min else flops * c_scale) * inv_c
            tm = (byts * m_scale) * inv_m
            gemm += tc if tc > tm else tm
        local_seqs = seqs / dp
        a_c = 0.0
        for m, n in self._mixers:
            a_c += n * self._prefill_attention(m, local_seqs, length)
        attn = max((a_c / self.peak_bf16) / (p["attn_compute_eff"] * scale), 0.0)  # prefill reads no KV
        lat = self._gemm_ops * (p["op_latency_s"] + p.get("prefill_op_latency_s", 0.0))  # as step_time
        return gemm + attn + self._comm_seconds(m_tokens / dp) + lat + p["prefill_overhead_s"]

    def _prefill_attention(self, m, local_seqs: float, length: int) -> float:
        """Attention / scan FLOPs of one layer prefilling ``local_seqs`` sequences of ``length`` tokens."""
        tp = self.layout.tp
        if isinstance(m, CompressedAttentionSpec):
            return compressed_prefill_flops(m, local_seqs, length, tp)
        if isinstance(m, (AttentionSpec, MLASpec)):
            d = m.head_dim + m.v_head_dim
            w = m.window if (m.span != "full" and m.window) else None
            extra = 0.0
            if isinstance(m, MLASpec) and m.indexer is not None:  # sparse: top-k keys per query, indexer dense
                w = m.indexer.top_k
                ix = m.indexer
                if not ix.shared:  # a GLM-5 "shared" layer reuses the previous layer's selection
                    extra = 2.0 * local_seqs * ix.num_heads * ix.head_dim * length * (length + 1) / 2
            if isinstance(m, AttentionSpec) and m.index_kv_heads:  # Qwen4-Exp QSA indexer scoring, unsharded
                extra = 2.0 * local_seqs * m.index_heads * m.index_head_dim * length * (length + 1) / 2
            sel = m.selection if isinstance(m, AttentionSpec) else None
            if sel is not None:  # Kolibri 1.1: the selected keys, and the scoring (unsharded, as DSA's indexer)
                w = sel.attended
                extra = selection_prefill_flops(sel, m.head_dim, local_seqs, length)
            if m.span == "chunked" and w:
                full, rem = divmod(length, w)
                pairs = full * w * (w + 1) / 2 + rem * (rem + 1) / 2
            elif w and length > w:
                pairs = w * (w + 1) / 2 + (length - w) * w
            else:
                pairs = length * (length + 1) / 2
            return 2.0 * local_seqs * (m.num_heads / tp) * d * pairs + extra
        if isinstance(m, ShortConvSpec):  # depthwise convolution: kernel multiply-adds per channel and token
            return 2.0 * local_seqs * length * m.channels * m.kernel / tp
        if isinstance(m, Mamba2Spec):
            return 6.0 * local_seqs * length * m.n_heads * m.head_dim * m.d_state / tp * RECURRENT_PREFILL_SLOWDOWN
        if isinstance(m, GatedDeltaNetSpec):
            return (6.0 * local_seqs * length * m.num_v_heads * m.head_k_dim * m.head_v_dim / tp *
                    RECURRENT_PREFILL_SLOWDOWN)
        if hasattr(m, "scan_elements"):  # other recurrent kinds (Mamba1Spec, ...): their state update per token
            return 6.0 * local_seqs * length * m.scan_elements / tp * RECURRENT_PREFILL_SLOWDOWN
        return 0.0

    # ---------------------------------------------------------------- times
    def decode_step(self, batch: float, context: float) -> dict[str, float]:
        """Seconds per output token of decoding ``batch`` sequences at mean ``context`` tokens, by part: one decode
        step, or with speculative decoding (:attr:`speculative`) one draft-and-verify step divided by the mean
        tokens it emits (:meth:`speculative_step`)."""
        if self.speculative is not None:
            return self.speculative_step(batch, context)
        return step_time(self.decode_features(batch, context), self.p, self.eff_c)

    def speculative_step(self, batch: float, context: float) -> dict[str, float]:
        """Draft k tokens, verify them in one target pass of k + 1 query tokens per sequence, emit on average
        τ = 1 + a + a² + … + a^k tokens (per-token acceptance a, chain drafting); seconds per emitted token by part.

        Draft cost per drafted token (assumption): ``draft_layers`` decoder layers at the target's width — the
        average layer of the target's own decode step (GEMMs, attention, collectives) — plus a full lm_head;
        its part is ``draft``. Rejection sampling is not charged.
        """
        sp = self.speculative
        k = sp.tokens
        verify = step_time(self.decode_features(batch, context, q=k + 1), self.p, self.eff_c)
        draft = k * self._draft_token_time(batch, context, sp.draft_layers)
        tau = sp.acceptance_length
        out = {key: v / tau for key, v in verify.items()}
        out["draft"] = draft / tau
        out["total"] = (verify["total"] + draft) / tau
        return out

    def _draft_token_time(self, batch: float, context: float, layers: int) -> float:
        """Seconds to draft one token for ``batch`` sequences: ``layers`` average target layers plus the lm_head."""
        f = self.decode_features(batch, context)
        plan = self.__dict__.get("_plan") or self._gemm_plan()
        eff_c, eff_m = self.eff_c, self.p["mem_bw_eff"]
        body = head = 0.0
        for entry, c, m in zip(plan, f.gemm_compute, f.gemm_memory):
            t = max(c / eff_c, m / eff_m)
            if entry[1]:
                head += t
            else:
                body += t
        attn = max(f.attn_compute / self.p["attn_compute_eff"], f.attn_memory / eff_m)
        comm = (f.comm_s + f.comm_inter_s) / self.p["comm_bw_eff"] + f.comm_n * self.p["comm_latency_s"] \
            + f.comm_inter_lat
        n = max(1, self.arch.num_layers)
        ops = f.gemm_ops * self.p["op_latency_s"]
        return (body + attn + comm + ops) * layers / n + head

    def prefill(self, seqs: float, length: int) -> dict[str, float]:
        """Seconds to prefill ``seqs`` sequences of ``length`` tokens in one batch, by part."""
        return step_time(self.prefill_features(seqs, length), self.p, self.eff_c)

    def prefill_times(self, length: int) -> tuple[float, float]:
        """(one request's prefill, the marginal prefill of one more request in a batch), seconds."""
        if length not in self._pre_cache:
            dp = self.layout.dp
            one = self._prefill_total(dp, length)  # one request on each DP rank; = self.prefill(dp, length)["total"]
            four = self._prefill_total(4 * dp, length)
            self._pre_cache[length] = (one, max((four - one) / 3, 0.0))
        return self._pre_cache[length]


class CollectiveTime(NamedTuple):
    """One collective split by fabric: bytes seconds at 100% of each link's peak, messages, latency seconds."""

    intra_bytes_s: float
    intra_messages: int
    inter_bytes_s: float
    inter_latency_s: float


def collective_time(kind: str, group: int, size: float, topo: Topology) -> CollectiveTime:
    """Cost terms of one collective of ``size`` bytes per GPU over ``group`` consecutive GPUs.

    ``allreduce``: within one scale-up domain a ring, 2(t − 1)/t · S at the scale-up bandwidth
    (:meth:`~scorer.hardware.Topology.scaleup_bw`: on a fully connected mesh such as XGMI only the t − 1 links
    to the group's peers, t − 1 per-peer links at most) and one
    message latency (the calibrated ``comm_latency_s``). A group over n domains of g GPUs each runs
    hierarchically (NCCL's scheme): reduce-scatter and all-gather inside each domain (2(g − 1)/g · S at
    the scale-up bandwidth, one latency), and between them an all-reduce across the n domains of each
    GPU's S/g shard over its own NIC (rail-aligned): 2(n − 1)/n · S/g at the scale-out bandwidth plus
    2(n − 1) per-message scale-out latencies (a ring's steps).

    (No all-to-all: none of the engines' default MoE paths runs one; see :meth:`CostModel._comm_plan`.)

    Units: bytes, seconds. Raises ValueError for another ``kind``; a group of 1 costs nothing.
    """
    if kind != "allreduce":
        raise ValueError(f"unknown collective {kind!r}")
    if group <= 1 or size <= 0:
        return CollectiveTime(0.0, 0, 0.0, 0.0)
    d = max(1, topo.domain)
    if group <= d:
        g, n = group, 1
    else:
        n = -(-group // d)
        g = group // n
    up, out = topo.scaleup_bw(g), topo.scaleout_bytes_per_s
    intra = 2.0 * (g - 1) / g * size / up if g > 1 else 0.0
    if n == 1:
        return CollectiveTime(intra, 1, 0.0, 0.0)
    inter = 2.0 * (n - 1) / n * (size / g) / out
    return CollectiveTime(intra, 1 if g > 1 else 0, inter, 2.0 * (n - 1) * topo.scaleout_latency_s)


def pp_hops_across(pp: int, stage_gpus: int, domain: int) -> int:
    """Of the pp − 1 hops between consecutive pipeline stages of ``stage_gpus`` GPUs each, those that
    leave a scale-up domain of ``domain`` GPUs (stages packed in order)."""
    if pp <= 1:
        return 0
    if stage_gpus >= domain:
        return pp - 1
    per_domain = max(1, domain // stage_gpus)
    return -(-pp // per_domain) - 1



def compressed_prefill_flops(m: CompressedAttentionSpec, seqs: float, length: int, tp: int) -> float:
    """Attention FLOPs of one DeepSeek-V4 layer prefilling ``seqs`` sequences of ``length`` tokens: query t
    attends the last ``window`` tokens and min(t / rate, index_topk) compressed entries (CSA) or all t / rate
    of them (HCA); CSA's indexer scores t / rate compressed keys per query."""
    d, w = m.head_dim, m.window
    per_pair = 2.0 * seqs * (m.num_heads / tp) * 2 * d
    pairs = w * (w + 1) / 2 + (length - w) * w if length > w else length * (length + 1) / 2
    out = per_pair * pairs
    if m.compress_rate:
        rate = m.compress_rate
        full = length * (length + 1) / (2 * rate)  # sum over queries of t / rate
        comp = full
        if m.indexer is not None:
            span = m.indexer.top_k * rate  # queries past it attend index_topk entries
            comp = full if length <= span else span * (span + 1) / (2 * rate) + (length - span) * m.indexer.top_k
            out += 2.0 * seqs * m.indexer.num_heads * m.indexer.head_dim * full
        out += per_pair * comp
    return out


#: parameter: decode iterations a new request waits before its prefill under attention data parallelism (zero on
#: layouts without it); see :func:`serve`
ADP_WAIT = "adp_wait_steps"


def adp_wait_applies(dp) -> Any:
    """Whether the attention-DP wait (``ADP_WAIT``) applies to a layout of ``dp`` attention ranks (an int, or a
    numpy array of them: an array of bools): only under attention data parallelism."""
    return dp > 1


#: concurrency per DP rank from which the fitted κ (``ttft_decode_steps``) applies in full: the lowest concurrency of
#: the closed-loop TTFT rows it was fitted on (measured.csv: 4); below, κ is interpolated to the physical ½ at one
KAPPA_FULL_AT = 4.0


def serve(t_dec: float, t_pre: float, t_pre_marginal: float, c_local: float, osl: int, num_gpus: int,
          concurrency: int, p: dict[str, float], isl: int = 0, wave_share: float = 0.0) -> dict[str, float]:
    """Closed-loop continuous batching from step times (seconds): TTFT, TPOT, tokens/s.

    A closed loop of c users cycles through one prefill and OSL decode steps each, so while one user decodes
    OSL tokens the engine also prefills the other c − 1 users' prompts, chunk by chunk inside its decode
    iterations (a per-iteration token budget B = ``prefill_chunk_tokens``):

    * TPOT = t_dec + μ · (c − 1) / OSL · t_pre_marginal — each decode step also carries (c − 1) / OSL prompts'
      worth of prefill compute (μ = ``tpot_interference``, 1 = all of it, the physical value);
    * TTFT = t_pre + κ · t_dec + λ · (c − 1) · (t_pre_marginal + ISL / B · t_dec) — the request's own prefill,
      the rest of the iteration running when it arrives (κ = ``ttft_decode_steps``, ½ = half a step on average,
      the physical value kept for vLLM; fitted for TensorRT-LLM and SGLang, whose measured TTFT carries a floor of
      about 16-18 decode steps — an effective term, see :mod:`scorer.calibrate`; the fitted κ applies from
      :data:`KAPPA_FULL_AT` requests per rank, the lowest measured, and is interpolated linearly to ½ at one), and
      queueing behind prefills that arrived before it: each costs its compute plus the decode iterations
      its ISL / B chunks ride with (λ = ``ttft_queue``: 0 = never, ½ = every user arrives in one burst;
      closed-loop benchmarks start with such a burst and then spread out), plus the closed loop's own steady-state
      wait for the prefill work of the others, W = R − D from the Schweitzer-Bard mean-value approximation of a
      single FCFS server with c users (:func:`closed_loop_wait`): D = the request's share of the engine's prefill
      work (t_pre_marginal + ISL / B · t_dec), Z = the rest of its cycle (TTFT + (OSL − 1) · TPOT − D). W is small
      while c · D ≪ Z and grows to c · D − Z once the prompts alone fill the engine (prefill-bound);
    * engines that run prefill batches on their own, ahead of decode (``prefill_separate`` = 1: SGLang's
      default scheduler, no mixed chunks), keep the burst: the users that were prefilled together decode in
      lockstep, finish together and send their next requests together, so every wave of c requests is prefilled
      back to back before the wave decodes. A request waits for the batches before its own (in its TTFT) and for
      those after it (before its second token, in its TPOT): half of the wave's prefill each, on average.
      TTFT = t_pre + κ · t_dec + ½ · (c − 1) · t_pre_marginal (λ = :data:`BURST_QUEUE`, not fitted; no decode
      iterations ride with the chunks) and TPOT = t_dec + ½ · μ · (c − 1) / OSL · t_pre_marginal;
    * under attention data parallelism a new request also waits ``adp_wait_steps`` decode iterations before its
      prefill (TTFT + adp_wait_steps · t_dec in the steady state; fitted where measurements show it, TensorRT-LLM's
      context balancing across the DP ranks, an assumed mechanism; the cost model sets it to 0 on other layouts);
    * tokens/s/GPU by Little's law: concurrency · OSL / (TTFT + (OSL − 1) · TPOT) / GPUs;
    * a benchmark's mean TTFT over N requests whose first c arrive together (``wave_share`` = c / N, e.g.
      InferenceMAX's client: N = 10 c): the opening wave is prefilled back to back with nobody decoding,
      TTFT_wave = t_pre + ½ · (c − 1) · t_pre_marginal, and the mean is wave_share · TTFT_wave +
      (1 − wave_share) · TTFT (the steady state above). ``wave_share`` = 0 (the default, and what the sheet
      shows) is the steady-state mean.

    ``c_local`` is the concurrency one DP rank serves; ``t_pre_marginal`` the extra prefill time of one more
    request in a batch. :func:`serve_arrays` is the same arithmetic over numpy arrays (the calibration fit).
    """
    return serve_arrays(t_dec, t_pre, t_pre_marginal, c_local, osl, num_gpus, concurrency, p.get, _SCALAR, isl,
                        wave_share)


class _ScalarMath:
    """The two numpy functions :func:`serve_arrays` uses, for plain floats (so :func:`serve` shares its code)."""

    maximum = staticmethod(max)
    sqrt = staticmethod(math.sqrt)

    @staticmethod
    def where(cond, a, b):
        return a if cond else b


_SCALAR = _ScalarMath()


def serve_arrays(t_dec, t_pre, t_pre_marginal, c_local, osl, num_gpus, concurrency, param, np, isl=0,
                 wave_share=0.0) -> dict:
    """The arithmetic of :func:`serve`, over numpy arrays (the calibration fit) or floats (``np`` = a namespace
    with ``maximum`` and ``where``); ``param(name, default)`` gives a parameter (float or array)."""
    extra = np.maximum(c_local - 1.0, 0.0)
    mixed = 1.0 - param("prefill_separate", 0.0)  # 1: prefill chunks ride in decode iterations
    share = mixed + (1.0 - mixed) * (1.0 - BURST_QUEUE)
    tpot = t_dec + param("tpot_interference", 1.0) * share * extra / np.maximum(osl, 1) * t_pre_marginal
    ahead = t_pre_marginal + mixed * isl / param("prefill_chunk_tokens", 8192.0) * t_dec
    queue = mixed * param("ttft_queue", 0.0) + (1.0 - mixed) * BURST_QUEUE
    # κ: the physical ½ at one request, the fitted value from KAPPA_FULL_AT requests (the lowest measured), linear
    # between (no measurement below): 0.5 + (κ − 0.5) · ramp, exactly ½ where κ is ½
    ramp = np.where(c_local >= KAPPA_FULL_AT, 1.0, (c_local - 1.0) / (KAPPA_FULL_AT - 1.0))
    kappa = 0.5 + (param("ttft_decode_steps", 0.5) - 0.5) * ramp
    ttft = t_pre + queue * extra * ahead + np.where(c_local > 1, kappa * t_dec, 0.0) \
        + param(ADP_WAIT, 0.0) * t_dec
    ttft = ttft + mixed * closed_loop_wait(ahead, ttft - ahead + np.maximum(osl - 1, 0) * tpot, c_local, np)
    latency = ttft + np.maximum(osl - 1, 0) * tpot
    # the benchmark's opening wave (its share of the requests): prefilled back to back, nobody decoding yet
    ttft = ttft + wave_share * (t_pre + BURST_QUEUE * extra * t_pre_marginal - ttft)
    return {"ttft": ttft, "tpot": tpot, "tokens_per_s_per_gpu": concurrency * osl / latency / num_gpus,
            "tokens_per_s_per_user": 1.0 / tpot, "latency": latency}


def closed_loop_wait(d, z, c, np=None):
    """Mean queueing delay (seconds) of a closed loop of ``c`` users at one FCFS server: each user needs ``d``
    seconds of the server, then spends ``z`` seconds elsewhere before its next request (think time; negative
    values count as 0). Schweitzer-Bard mean-value approximation of the closed network, solved in closed form:
    R = D · (1 + (c − 1) / c · Q) with Q = c · R / (R + Z) gives R² + (Z − c·D) · R − D · Z = 0, so
    R = ½ · (c·D − Z + √((c·D − Z)² + 4·D·Z)) and the wait is R − D. Limits: 0 for one user; ≈ D · (c − 1) · D / Z
    while c · D ≪ Z; → c · D − Z once the server is saturated (c · D ≫ Z). Works on floats or numpy arrays
    (``np`` a namespace with ``maximum`` and ``sqrt``)."""
    np = np or _SCALAR
    z = np.maximum(z, 0.0)
    cd = c * d
    r = 0.5 * ((cd - z) + np.sqrt((cd - z) * (cd - z) + 4.0 * d * z))
    return np.maximum(r - d, 0.0)


def serve_constants(p: dict[str, float]) -> tuple[float, ...]:
    """The parameter terms of :func:`serve_arrays` that do not depend on the workload, for :func:`serve_point`."""
    mixed = 1.0 - p.get("prefill_separate", 0.0)
    share = mixed + (1.0 - mixed) * (1.0 - BURST_QUEUE)
    return (p.get("tpot_interference", 1.0) * share, mixed, p.get("prefill_chunk_tokens", 8192.0),
            mixed * p.get("ttft_queue", 0.0) + (1.0 - mixed) * BURST_QUEUE, p.get("ttft_decode_steps", 0.5),
            p.get(ADP_WAIT, 0.0))


def serve_point(k: tuple[float, ...], t_dec: float, t_pre: float, t_pre_marginal: float, c_local: float, osl: int,
                num_gpus: int, concurrency: int, isl: int = 0, wave_share: float = 0.0) -> tuple[float, float, float]:
    """(ttft, tpot, tokens/s/GPU) of :func:`serve` on floats, with ``k`` = :func:`serve_constants` of its
    parameters: the same floating-point operations in the same order (the same values, bit for bit)."""
    mu_share, mixed, chunk, queue, kappa, adp_wait = k
    extra = c_local - 1.0  # max(...) spelled out below: max(a, b) is b if b > a, else a
    if 0.0 > extra:
        extra = 0.0
    tpot = t_dec + mu_share * extra / (1 if 1 > osl else osl) * t_pre_marginal
    ahead = t_pre_marginal + mixed * isl / chunk * t_dec
    ramp = 1.0 if c_local >= KAPPA_FULL_AT else (c_local - 1.0) / (KAPPA_FULL_AT - 1.0)
    kappa = 0.5 + (kappa - 0.5) * ramp
    ttft = t_pre + queue * extra * ahead + (kappa * t_dec if c_local > 1 else 0.0) + adp_wait * t_dec
    ttft = ttft + mixed * closed_loop_wait(ahead, ttft - ahead + (0 if 0 > osl - 1 else osl - 1) * tpot, c_local)
    latency = ttft + (0 if 0 > osl - 1 else osl - 1) * tpot
    ttft = ttft + wave_share * (t_pre + BURST_QUEUE * extra * t_pre_marginal - ttft)
    return ttft, tpot, concurrency * osl / latency / num_gpus


def bound_of(parts: dict[str, float]) -> str:
    """Which term dominates a decode step: memory (weights and KV), compute, communication or overhead."""
    gemm_mem, gemm_comp = parts.get("gemm_memory", 0.0), parts.get("gemm_compute", 0.0)
    terms = {"memory": (gemm_mem if gemm_mem >= gemm_comp else 0.0) + parts.get("attention", 0.0),
             "compute": gemm_comp if gemm_comp > gemm_mem else 0.0,
             "communication": parts.get("comm", 0.0), "overhead": parts.get("overhead", 0.0)}
    return max(terms, key=terms.get)
