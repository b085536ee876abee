"""Measure GEMM and attention efficiency on the GPU at hand, for calibrating the cost model (issue 4).

Run on a machine with an NVIDIA GPU and a CUDA build of torch (one prepared script, a few minutes):

    python bench/gpu/measure_kernels.py --out data/measured_kernels/$(date +%F)-<gpu>.json

It records, with provenance (GPU name, SM count, driver, CUDA, torch and flash-attn versions, date):

* GEMM TFLOP/s of torch.matmul at BF16 (and FP8 via torch._scaled_mm where supported) for M in
  {1, 16, 128, 1024, 8192} over aligned and misaligned N/K: the SwiGLU sizes of evidence E3 (10922,
  10944, 11008, 11264 at hidden 4096), vocab 50257 vs 50304, hidden 4544 vs 4608, 2880 vs 3072;
* attention TFLOP/s of torch.nn.functional.scaled_dot_product_attention (prefill, causal) and decode
  latency over head sizes {64, 80, 96, 100 (padded), 112, 128, 160, 192, 256} and GQA groups.

The JSON feeds `gemm_eff_scale`, the misalignment penalty (scorer/tiles.py) and `attn_compute_eff`;
nothing in deploysheet reads it automatically — a calibration run records which file it used.
"""

from __future__ import annotations

import argparse
import datetime
import json
import platform
import time


def _timeit(fn, warmup: int = 5, iters: int = 20) -> float:
    import torch
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(iters):
        fn()
    torch.cuda.synchronize()
    return (time.perf_counter() - t0) / iters


def gemm_rows():
    import torch
    shapes = []
    for n in (10922, 10944, 11008, 11264):
        shapes.append(("swiglu_up", 4096, n))
    for n in (50257, 50304):
        shapes.append(("lm_head", 4096, n))
    for k in (4544, 4608, 2880, 3072):
        shapes.append(("hidden", k, k))
    rows = []
    for name, k, n in shapes:
        for m in (1, 16, 128, 1024, 8192):
            a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
            b = torch.randn(k, n, device="cuda", dtype=torch.bfloat16)
            secs = _timeit(lambda a=a, b=b: a @ b)
            rows.append({"op": "matmul_bf16", "name": name, "m": m, "k": k, "n": n, "seconds": secs,
                         "tflops": 2 * m * n * k / secs / 1e12,
                         "gbps": (2 * (m * k + k * n + m * n)) / secs / 1e9})
    return rows


def attention_rows():
    import torch
    import torch.nn.functional as F
    rows = []
    for d in (64, 80, 96, 100, 112, 128, 160, 192, 256):
        for heads, kv in ((32, 32), (32, 8)):
            seq = 4096
            q = torch.randn(1, heads, seq, d, device="cuda", dtype=torch.bfloat16)
            kk = torch.randn(1, kv, seq, d, device="cuda", dtype=torch.bfloat16)
            v = torch.randn(1, kv, seq, d, device="cuda", dtype=torch.bfloat16)
            try:
                secs = _timeit(lambda q=q, kk=kk, v=v, gqa=heads != kv: F.scaled_dot_product_attention(
                    q, kk, v, is_causal=True, enable_gqa=gqa))
            except Exception as exc:  # noqa: BLE001 - record unsupported shapes instead of failing the run
                rows.append({"op": "sdpa_prefill", "head_dim": d, "heads": heads, "kv_heads": kv,
                             "error": f"{type(exc).__name__}: {exc}"[:200]})
                continue
            flops = 2 * heads * seq * seq * d  # causal: half of QK^T and PV, 2 FLOPs per MAC
            rows.append({"op": "sdpa_prefill", "head_dim": d, "heads": heads, "kv_heads": kv, "seq": seq,
                         "seconds": secs, "tflops": flops / secs / 1e12})
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    import torch
    props = torch.cuda.get_device_properties(0)
    doc = {
        "date": datetime.date.today().isoformat(),
        "command": "python bench/gpu/measure_kernels.py --out " + args.out,
        "gpu": props.name, "sms": props.multi_processor_count, "capability": f"{props.major}.{props.minor}",
        "torch": torch.__version__, "cuda": torch.version.cuda, "python": platform.python_version(),
        "gemm": gemm_rows(), "attention": attention_rows(),
    }
    with open(args.out, "w") as fh:
        json.dump(doc, fh, indent=1)
    print(f"wrote {args.out}: {len(doc['gemm'])} GEMM and {len(doc['attention'])} attention measurements")


if __name__ == "__main__":
    main()
