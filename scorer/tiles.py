"""Tile and wave quantization of a GEMM (hardware-fit-rules F3–F5).

For ``C[M,N] = A[M,K]·B[K,N]`` run with CTA tiles Tm×Tn×Tk on S SMs:

* tile quantization  η_tile = M·N / (⌈M/Tm⌉·Tm · ⌈N/Tn⌉·Tn)
* K tail             η_k = K / (⌈K/Tk⌉·Tk)
* wave quantization  C = ⌈M/Tm⌉·⌈N/Tn⌉ tiles, W = ⌈C/S⌉ waves, η_wave = C / (W·S)
* combined           η = η_tile · η_k · η_wave

The library picks its best tile, so :func:`gemm_efficiency` takes the best of the typical tile
shapes (cuBLAS 128×128, 128×256, 256×128; 64-row tiles for small M). These factors do **not**
predict the misalignment penalty (evidence E3), which :func:`misalignment_factor` adds.
"""

from __future__ import annotations

from .memo import MIB, scalar_entry_bytes, sized_lru_cache

#: (Tm, Tn, Tk) candidates; K tile 64 for 16-bit types (CUTLASS SM100: 4 x MMA-K 16), see F3-F6 notes.
TILES = ((128, 128, 64), (128, 256, 64), (256, 128, 64), (64, 128, 64), (64, 256, 64))

#: Measured throughput ratio of a GEMM whose K or N breaks 16-byte alignment vs a 64-aligned
#: neighbour: 272.73 / 398.38 TFLOPS on H100 for d_ff 10922 vs 10944 (evidence E3, stas00
#: swiglu-maf-bench).
MISALIGNED_RATIO = 272.73 / 398.38


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


def efficiency_for_tile(m: int, n: int, k: int, sms: int, tile: tuple[int, int, int]) -> float:
    tm, tn, tk = tile
    tiles_m, tiles_n = _ceil(m, tm), _ceil(n, tn)
    eta_tile = (m * n) / (tiles_m * tm * tiles_n * tn)
    eta_k = k / (_ceil(k, tk) * tk)
    ctas = tiles_m * tiles_n
    waves = _ceil(ctas, sms)
    eta_wave = ctas / (waves * sms)
    return eta_tile * eta_k * eta_wave


#: bytes one memo entry of :func:`gemm_efficiency` holds (four int arguments, a float; about 340, measured 300)
_EFF_ENTRY_BYTES = scalar_entry_bytes(4096, 14336, 4096, 132, result=0.5)


#: 4 MiB: about 12,000 shapes; a model's full leaderboard grid (every GPU x precision x TP x regime) asks ~1,500
@sized_lru_cache("tiles.gemm_efficiency", 4 * MIB, _EFF_ENTRY_BYTES)
def gemm_efficiency(m: int, n: int, k: int, sms: int) -> float:
    """Best η over the typical tiles (0 < η ≤ 1) for an M×N×K GEMM on ``sms`` SMs."""
    if m <= 0 or n <= 0 or k <= 0:
        return 1.0
    return max(efficiency_for_tile(m, n, k, sms, t) for t in TILES)


def element_alignment(dtype_bytes: float) -> int:
    """Elements per 16 bytes (rule G1): 8 for 16-bit, 16 for 8-bit, 32 for 4-bit types. ``dtype_bytes`` may include
    a format's scales (NVFP4 0.5625, INT4 group 128 0.52, FP8 block 1.008 bytes per weight): the element itself
    is the nearest storage width below it (4, 8, 16 or 32 bits)."""
    element = 0.5 if dtype_bytes < 0.75 else 1.0 if dtype_bytes < 1.5 else 2.0 if dtype_bytes < 3.0 else 4.0
    return int(16 / element)


#: (n, k, dtype bytes) -> factor: every cost model asks it for each inventory entry; ~300 bytes an entry
@sized_lru_cache("tiles.misalignment_factor", 1 * MIB, scalar_entry_bytes(14336, 4096, 0.5625, result=0.5))
def misalignment_factor(n: int, k: int, dtype_bytes: float = 2.0) -> float:
    """Throughput factor for compute-bound GEMMs whose N or K is not 16-byte aligned (G1, evidence E3)."""
    a = element_alignment(dtype_bytes)
    return MISALIGNED_RATIO if (n % a or k % a) else 1.0
