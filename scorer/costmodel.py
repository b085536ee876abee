"""Roofline cost model: speed of light per operator, divided by a calibrated efficiency.

Every operator's time is ``max(FLOPs / (peak · η_compute), bytes / (bandwidth · η_mem))`` plus a
fixed latency, where the η are ratios read from ``data/calibration.json`` (each with its
source). Operators:

* GEMMs from the inventory (:mod:`scorer.gemms`), per TP shard, with tile/wave efficiency and the
  16-byte misalignment penalty (:mod:`scorer.tiles`); MoE experts touched by a batch of B
  tokens: E·(1 − (1 − k/E)^B), which sets decode weight traffic;
* attention: causal prefill FLOPs per layer kind (full, sliding window, chunked, MLA); decode
  reads the KV cache (sliding layers read their window), MLA decode is also charged its FLOPs;
* recurrent layers: state read and write per decode step;
* TP all-reduce: latency + 2(t−1)/t · bytes / link bandwidth, twice per transformer block;
* fixed per-step overheads (decode step, prefill batch).

Units: seconds internally; bytes; FLOP. Public results are in ms and tokens/s.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from .architecture import AttentionSpec, GatedDeltaNetSpec, Mamba2Spec, MLASpec, ModelArch
from .errors import BadInputError
from .gemms import Gemm, inventory, shard
from .hardware import GIB, GPU, Precision, compute_dtype
from .kvcache import DTYPE_BYTES, kv_heads_per_gpu, per_sequence_bytes
from .params import ParamCounts
from .resources import load_json
from .tiles import gemm_efficiency, misalignment_factor

ACT_BYTES = 2.0  # activations in bf16/fp16
M_TILE_MIN = 256  # tokens: ~ the ridge-point M* of F2 (280-320 on H100/B200)


REQUIRED_PARAMS = {"gemm_compute_eff", "mem_bw_eff", "attn_compute_eff", "op_latency_s", "comm_latency_s",
                   "comm_bw_eff", "decode_step_overhead_s", "prefill_overhead_s", "gpu_mem_util",
                   "runtime_reserve_gib"}


class Calibration(BaseModel):
    """Efficiency ratios and overheads; ``frameworks`` override ``params`` per serving framework."""

    params: dict[str, float]
    sources: dict[str, str] = Field(default_factory=dict)
    frameworks: dict[str, dict[str, float]] = Field(default_factory=dict)
    fit_date: str | None = None
    command: str | None = None
    path: str = "data/calibration.json"
    validation: dict[str, Any] | None = None

    def for_framework(self, framework: str) -> dict[str, float]:
        out = dict(self.params)
        for k, v in (self.frameworks.get(framework) or {}).items():
            if isinstance(v, (int, float)):
                out[k] = float(v)
        return out


def load_calibration(path: str | Path | None = None) -> Calibration:
    """Read a calibration file (default: the packaged ``data/calibration.json``).

    Raises:
        BadInputError: unreadable or malformed file.
    """
    try:
        if path is None:
            doc = load_json("calibration.json")
            where = "data/calibration.json"
        else:
            where = str(path)
            with open(path, encoding="utf-8") as fh:
                doc = json.load(fh)
        params = {k: float(v["value"] if isinstance(v, dict) else v) for k, v in doc["params"].items()}
        sources = {k: (v.get("src", "") if isinstance(v, dict) else "") for k, v in doc["params"].items()}
        missing = sorted(REQUIRED_PARAMS - set(params))
        if missing:
            raise ValueError(f"missing parameters {', '.join(missing)}")
        for k, v in params.items():
            lo, hi = (0.0, 1e3) if k.endswith(("_s", "_gib", "_gbps")) else (1e-4, 2.0)
            if not (math.isfinite(v) and lo <= v <= hi) or (k.endswith("_gbps") and v <= 0):
                raise ValueError(f"{k} = {v} outside [{lo:g}, {hi:g}]")
        frameworks = doc.get("frameworks") or {}
        if not isinstance(frameworks, dict) or not all(isinstance(v, dict) for v in frameworks.values()):
            raise ValueError("frameworks must map a framework name to an object")
        for fw in frameworks.values():
            for k, v in fw.items():
                if not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v) or v < 0:
                    raise ValueError(f"framework override {k} must be a finite non-negative number")
        cal = Calibration(params=params, sources=sources, frameworks=frameworks, fit_date=doc.get("fit_date"),
                          command=doc.get("command"), path=where, validation=doc.get("validation"))
    except FileNotFoundError:
        raise BadInputError(f"calibration file not found: {path}") from None
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        detail = " ".join(str(exc).split())[:160]
        raise BadInputError(f"calibration file {where} is malformed: {detail}") from None
    return cal


class Layout(BaseModel):
    tp: int = 1
    pp: int = 1
    ep: int = 1

    @property
    def num_gpus(self) -> int:
        return self.tp * self.pp

    @property
    def label(self) -> str:
        parts = [f"TP{self.tp}"]
        if self.ep > 1:
            parts.append(f"EP{self.ep}")
        if self.pp > 1:
            parts.append(f"PP{self.pp}")
        return "·".join(parts)


_EXCLUDE_MAP = (("lm_head", "lm_head"), ("embed", "embedding"), ("router", "router"), ("mlp.gate", "router"),
                ("shared_expert_gate", "router"), ("self_attn", "attention"), ("attn", "attention"),
                ("shared_expert", "shared_experts"), ("mamba", "recurrent"), ("mixer", "recurrent"),
                ("linear_attn", "recurrent"), ("vision", "vision"), ("visual", "vision"))


def excluded_components(patterns: list[str]) -> set[str]:
    """Components a checkpoint leaves unquantized, from its ignore / modules_to_not_convert patterns."""
    out = set()
    for p in patterns:
        low = p.lower()
        for needle, comp in _EXCLUDE_MAP:
            if needle in low:
                out.add(comp)
                break
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

    def __post_init__(self) -> None:
        if self.calibration is None:
            self.calibration = load_calibration()
        self.p = self.calibration.for_framework(self.framework)
        if not self.gemms:
            self.gemms = inventory(self.arch)
        self.dtype = compute_dtype(self.precision, self.gpu)
        self.peak = self.gpu.peak_flops(self.dtype)
        self.peak_bf16 = self.gpu.peak_flops("bf16")
        mamf = self.gpu.mamf_tflops.get(self.dtype) or self.gpu.mamf_tflops.get("bf16")
        base = self.gpu.tflops.get(self.dtype) if self.dtype in self.gpu.mamf_tflops else self.gpu.tflops.get("bf16")
        self.eff_c = (mamf / base) if (mamf and base) else self.p["gemm_compute_eff"]
        self.eff_c *= self.p.get("gemm_eff_scale", 1.0)
        self.bw = self.gpu.bw_bytes_per_s * self.p["mem_bw_eff"]
        tp = self.layout.tp
        link = self.gpu.scaleup_gbps if tp <= self.gpu.node_gpus else min(self.gpu.scaleup_gbps,
                                                                           self.p.get("internode_gbps", 50.0))
        self.link_bw = link * 1e9 * self.p["comm_bw_eff"]
        self.ep = self.layout.ep > 1
        self._shards = [(g, shard(g, tp, ep=self.ep)) for g in self.gemms]
        self.kv_b = DTYPE_BYTES[self.kv_dtype]
        self.state_dtype = "fp32" if self.arch.dtype in ("float32",) else self.kv_dtype

    # ---------------------------------------------------------------- memory
    def weight_bytes(self, g: Gemm) -> float:
        if not g.quantizable or g.component in self.unquantized:
            return 2.0
        return self.precision.weight_bytes

    def weights_per_gpu(self) -> float:
        """Bytes of weights each GPU holds (GEMMs sharded; embedding vocab-parallel; the rest replicated)."""
        tp, ep, pp = self.layout.tp, self.layout.ep, self.layout.pp
        total = 0.0
        for g, s in self._shards:
            cnt = g.count / ep if (g.expert and ep > 1) else g.count
            total += self.weight_bytes(g) * s.k * s.n * cnt
        gemm_params = sum(g.k * g.n * g.count for g in self.gemms)
        if self.arch.tie_word_embeddings:
            gemm_params -= self.arch.vocab_size * self.arch.hidden_size  # lm_head shares the embedding table
        emb = self.params.by_component["embedding"]
        rest = max(0, self.params.total - gemm_params - emb)
        emb_bytes = 0.0 if self.arch.tie_word_embeddings else emb * 2.0 / tp
        return total / pp + emb_bytes + rest * 2.0

    def kv_bytes_per_sequence(self, context: int, policy: str = "vllm") -> float:
        """Per-GPU bytes of KV cache + recurrent state for one sequence (PP splits layers)."""
        return per_sequence_bytes(self.arch, context, self.kv_dtype, policy, self.layout.tp,
                                  self.state_dtype) / self.layout.pp

    def usable_bytes(self) -> float:
        return self.gpu.memory_bytes * self.p["gpu_mem_util"] - self.p["runtime_reserve_gib"] * GIB

    def max_concurrency(self, context: int, policy: str = "vllm") -> int:
        free = self.usable_bytes() - self.weights_per_gpu()
        per = self.kv_bytes_per_sequence(context, policy)
        if free <= 0 or per <= 0:
            return 0
        return int(free // per)

    # ---------------------------------------------------------------- operators
    def _gemm_time(self, g: Gemm, s, m_tokens: float, seqs: float) -> tuple[float, float, float]:
        """(compute_s, memory_s, latency_s) of one inventory entry for a batch of m_tokens tokens."""
        layers = max(1, len(g.layers))
        m = seqs if g.component == "lm_head" else m_tokens
        wb = self.weight_bytes(g)
        if g.expert:
            per_layer = g.count // layers
            top_k = g.active / layers
            touched = per_layer * (1.0 - (1.0 - top_k / per_layer) ** max(m, 0.0))
            if self.ep:
                touched /= self.layout.ep
            m_eff = m * top_k / per_layer  # tokens per expert
            flops = 2.0 * m * top_k * s.k * s.n * layers / (self.layout.ep if self.ep else 1)
            wbytes = wb * s.k * s.n * touched * layers
            abytes = ACT_BYTES * m * top_k * (s.k + s.n) * layers / (self.layout.ep if self.ep else 1)
        else:
            m_eff = m
            flops = 2.0 * m * s.k * s.n * g.count
            wbytes = wb * s.k * s.n * g.count
            abytes = ACT_BYTES * m * (s.k + s.n) * g.count
        # Below M_TILE_MIN tokens the GEMM is memory-bound and runs as GEMV/split-K: tile and wave
        # quantization (F3-F5) only shape the compute-bound regime.
        eta = gemm_efficiency(int(round(m_eff)), s.n, s.k, self.gpu.sms) if m_eff >= M_TILE_MIN else 1.0
        eta *= misalignment_factor(s.n, s.k, min(wb, 2.0))
        t_c = flops / (self.peak * self.eff_c * eta)
        t_m = (wbytes + abytes) / self.bw
        return t_c, t_m, self.p["op_latency_s"] * layers

    def _allreduce_time(self, m_tokens: float) -> float:
        tp = self.layout.tp
        if tp <= 1:
            return 0.0
        blocks = sum((1 if lay.mixer is not None else 0) + (1 if lay.ffn is not None else 0) for lay in self.arch.layers)
        size = m_tokens * self.arch.hidden_size * ACT_BYTES
        per = self.p["comm_latency_s"] + 2.0 * (tp - 1) / tp * size / self.link_bw
        return blocks * per / self.layout.pp

    def decode_step(self, batch: int, context: float) -> dict[str, float]:
        """Time (s) of one decode step for ``batch`` sequences at mean ``context`` tokens, by part."""
        tp = self.layout.tp
        comp = mem = lat = 0.0
        gemm_t = 0.0
        for g, s in self._shards:
            t_c, t_m, t_l = self._gemm_time(g, s, batch, batch)
            gemm_t += max(t_c, t_m) + t_l
            comp += t_c
            mem += t_m
            lat += t_l
        attn_t = 0.0
        for lay in self.arch.layers:
            m = lay.mixer
            if isinstance(m, AttentionSpec):
                ctx = min(context, m.window) if (m.span != "full" and m.window) else context
                heads = kv_heads_per_gpu(m.num_kv_heads, tp)
                byts = batch * ctx * heads * (m.head_dim + m.v_head_dim) * self.kv_b
                flops = 2.0 * batch * ctx * (m.num_heads / tp) * (m.head_dim + m.v_head_dim)
                attn_t += max(byts / self.bw, flops / (self.peak_bf16 * self.p["attn_compute_eff"]))
            elif isinstance(m, MLASpec):
                ctx = context
                lat_dim = m.kv_lora_rank + m.qk_rope_head_dim
                byts = batch * ctx * lat_dim * self.kv_b
                flops = 2.0 * batch * ctx * (m.num_heads / tp) * (lat_dim + m.kv_lora_rank)
                attn_t += max(byts / self.bw, flops / (self.peak_bf16 * self.p["attn_compute_eff"]))
            elif isinstance(m, (Mamba2Spec, GatedDeltaNetSpec)):
                from .kvcache import _state_bytes
                attn_t += 2.0 * batch * _state_bytes(m, DTYPE_BYTES[self.state_dtype]) / tp / self.bw
        attn_t /= self.layout.pp
        comm = self._allreduce_time(batch)
        pp_comm = (self.layout.pp - 1) * (self.p["comm_latency_s"] + batch * self.arch.hidden_size * ACT_BYTES /
                                          self.link_bw)
        overhead = self.p["decode_step_overhead_s"]
        total = gemm_t / self.layout.pp + attn_t + comm + pp_comm + overhead
        return {"total": total, "gemm": gemm_t / self.layout.pp, "gemm_compute": comp / self.layout.pp,
                "gemm_memory": mem / self.layout.pp, "attention": attn_t, "comm": comm + pp_comm,
                "overhead": overhead + lat / self.layout.pp}

    def prefill(self, seqs: int, length: int) -> dict[str, float]:
        """Time (s) to prefill ``seqs`` sequences of ``length`` tokens in one batch, by part."""
        tp = self.layout.tp
        tokens = float(seqs * length)
        gemm_t = 0.0
        for g, s in self._shards:
            t_c, t_m, t_l = self._gemm_time(g, s, tokens, seqs)
            gemm_t += max(t_c, t_m) + t_l
        attn_flops = 0.0
        rec_t = 0.0
        for lay in self.arch.layers:
            m = lay.mixer
            if isinstance(m, (AttentionSpec, MLASpec)):
                d = m.head_dim + m.v_head_dim
                w = m.window if (m.span != "full" and m.window) else None
                if m.span == "chunked" and w:
                    full, rem = divmod(length, w)
                    pairs = full * w * (w + 1) / 2 + rem * (rem + 1) / 2
                elif w and length > w:
                    pairs = w * (w + 1) / 2 + (length - w) * w
                else:
                    pairs = length * (length + 1) / 2
                attn_flops += 2.0 * seqs * (m.num_heads / tp) * d * pairs
            elif isinstance(m, Mamba2Spec):
                rec_t += 6.0 * tokens * m.n_heads * m.head_dim * m.d_state / tp / (self.peak_bf16 * 0.3)
            elif isinstance(m, GatedDeltaNetSpec):
                rec_t += 6.0 * tokens * m.num_v_heads * m.head_k_dim * m.head_v_dim / tp / (self.peak_bf16 * 0.3)
        attn_t = attn_flops / (self.peak_bf16 * self.p["attn_compute_eff"]) / self.layout.pp
        comm = self._allreduce_time(tokens)
        total = gemm_t / self.layout.pp + attn_t + rec_t / self.layout.pp + comm + self.p["prefill_overhead_s"]
        if self.layout.pp > 1:
            total += (self.layout.pp - 1) * (self.p["comm_latency_s"] + tokens * self.arch.hidden_size * ACT_BYTES /
                                             self.link_bw)
        return {"total": total, "gemm": gemm_t / self.layout.pp, "attention": attn_t + rec_t / self.layout.pp,
                "comm": comm, "overhead": self.p["prefill_overhead_s"]}


def bound_of(parts: dict[str, float]) -> str:
    """Which term dominates a decode step: memory, compute, communication or overhead."""
    mem = max(parts.get("gemm_memory", 0.0), 0.0) + parts.get("attention", 0.0)
    cand = {"memory": mem if parts.get("gemm_memory", 0) >= parts.get("gemm_compute", 0) else parts.get("attention", 0),
            "compute": parts.get("gemm_compute", 0.0) if parts.get("gemm_compute", 0) > parts.get("gemm_memory", 0)
            else 0.0, "communication": parts.get("comm", 0.0), "overhead": parts.get("overhead", 0.0)}
    return max(cand, key=cand.get)
