"""Quantization readiness: for each format x TP degree, ready / padded / not_ready, with the reason.

Checks run per TP shard on every conventionally quantized GEMM of the inventory (routers,
lm_head and tiny gates stay in BF16, rule Q7), following the kernel constraints of rules Q1–Q5:

* ``fp8`` (Q1): K_p % 16 and N_p % 16 for CUTLASS scaled_mm, else Triton fallback (padded);
* ``fp8_block`` (Q2, vLLM ``validate_fp8_block_shape``): a row-parallel split needs K_p % 128,
  a column split checks every output partition % 128, an unsplit merged GEMM may leave its last
  partition unaligned (padded);
* ``nvfp4`` (Q4): K_p % 16 hard; K_p % 64 and N_p % 128 to avoid padding;
* ``mxfp4`` (Q5): K % 32 hard; hidden and I/TP % 256 to avoid padding;
* ``int4`` (Q3, AWQ/GPTQ group 128 on Marlin): K_p % 128 and N_p % 64 hard;
* ``int8`` (W8A8): K_p % 16 and N_p % 16, else fallback.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from .architecture import ModelArch
from .gemms import Gemm, shard

FORMATS = ("fp8", "fp8_block", "nvfp4", "mxfp4", "int4", "int8")
MIN_GPU = {"fp8": "sm89 (Ada)", "fp8_block": "sm90 (Hopper)", "nvfp4": "sm100 (Blackwell)",
           "mxfp4": "sm80 weight-only; sm100 native", "int4": "sm75 (Marlin)", "int8": "sm80"}
RULE = {"fp8": "Q1", "fp8_block": "Q2", "nvfp4": "Q4", "mxfp4": "Q5", "int4": "Q3", "int8": "Q1"}


class QuantEntry(BaseModel):
    format: str
    tp: int
    engine: str = "vllm"
    status: str = Field(description="ready, padded, not_ready")
    reason: str | None = None
    rule: str
    min_gpu: str


class QuantReadiness(BaseModel):
    checkpoint: dict | None = Field(None, description="the checkpoint's own quantization, if any")
    matrix: list[QuantEntry]
    unquantized_share: float = Field(description="share of GEMM weight elements conventionally left in BF16")


def _check(fmt: str, g: Gemm, tp: int) -> tuple[str, str | None]:
    s = shard(g, tp)
    split_k = g.shard == "row" and tp > 1
    split_n = g.shard == "column" and tp > 1
    name = g.name
    if not s.divisible:
        return "not_ready", f"{name}: {s.reason}"
    if fmt in ("fp8", "int8"):
        bad = s.k % 16 or s.n % 16
        return ("padded", f"{name} K_p={s.k} N_p={s.n} not multiples of 16 (Triton fallback)") if bad else ("ready",
                                                                                                          None)
    if fmt == "fp8_block":
        if split_k and s.k % 128:
            return "not_ready", f"{name} K/TP = {s.k} % 128 = {s.k % 128}"
        parts = s.parts
        if split_n or len(parts) > 1:
            to_check = parts if split_n else parts[:-1]
            for p in to_check:
                if p % 128:
                    return "not_ready", f"{name} output partition {p} % 128 = {p % 128}"
        if s.k % 128 or any(p % 128 for p in parts):
            return "padded", f"{name} K={s.k} N={s.n} not multiples of 128 (partial scale blocks)"
        return "ready", None
    if fmt == "nvfp4":
        if s.k % 16:
            return "not_ready", f"{name} K/TP = {s.k} % 16 = {s.k % 16}"
        if s.k % 64 or s.n % 128:
            return "padded", f"{name} K_p={s.k} (needs %64) N_p={s.n} (needs %128) are padded by swizzle"
        return "ready", None
    if fmt == "mxfp4":
        if s.k % 32:
            return "not_ready", f"{name} K/TP = {s.k} % 32 = {s.k % 32}"
        if s.k % 256 or s.n % 256:
            return "padded", f"{name} K_p={s.k} N_p={s.n} padded to multiples of 256 (FlashInfer SM100)"
        return "ready", None
    if fmt == "int4":
        if s.k % 128:
            return "not_ready", f"{name} K/TP = {s.k} % 128 = {s.k % 128} (group 128)"
        if s.n % 64:
            return "not_ready", f"{name} N/TP = {s.n} % 64 = {s.n % 64} (Marlin)"
        return "ready", None
    raise ValueError(fmt)


def readiness(arch: ModelArch, gemms: list[Gemm], tps=(1, 2, 4, 8), valid_tp: list[int] | None = None
              ) -> QuantReadiness:
    """The format x TP matrix (see module docstring)."""
    quantizable = [g for g in gemms if g.quantizable and g.component != "lm_head"]
    order = {"ready": 0, "padded": 1, "not_ready": 2}
    rows = []
    for fmt in FORMATS:
        for tp in tps:
            if valid_tp is not None and tp not in valid_tp:
                rows.append(QuantEntry(format=fmt, tp=tp, status="not_ready", reason=f"TP {tp} invalid for the "
                                       "attention heads (T1/T2)", rule="T1", min_gpu=MIN_GPU[fmt]))
                continue
            status, reason = "ready", None
            for g in quantizable:
                st, why = _check(fmt, g, tp)
                if order[st] > order[status]:
                    status, reason = st, why
                if status == "not_ready":
                    break
            rows.append(QuantEntry(format=fmt, tp=tp, status=status, reason=reason, rule=RULE[fmt],
                                   min_gpu=MIN_GPU[fmt]))
    total = sum(g.params for g in gemms) or 1
    unq = sum(g.params for g in gemms if not g.quantizable)
    ckpt = arch.quantization.model_dump() if arch.quantization else None
    return QuantReadiness(checkpoint=ckpt, matrix=rows, unquantized_share=round(unq / total, 4))
