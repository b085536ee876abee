"""Issue 13: the closed loop's steady-state wait for the engine's prefill work (costmodel.closed_loop_wait).

A closed loop of c users at one server (each needs D seconds of it, then "thinks" for Z seconds) is the classic
machine-repairman / closed-network model. The expected values here come from two oracles written in this file:

* exact mean-value analysis (MVA) of the closed network with exponential service, by its recursion over the
  population n = 1..c: R(n) = D · (1 + Q(n − 1)), X(n) = n / (R(n) + Z), Q(n) = X(n) · R(n);
* the Schweitzer-Bard approximation solved by fixed-point iteration (not the closed form the code uses):
  R = D · (1 + (c − 1) / c · Q), Q = c · R / (R + Z);

and the asymptotes of the closed network: no wait for one user, (c − 1) · D² / Z at light load, and
c · D − Z − D once the server is saturated (throughput 1 / D, so every cycle c · D long).
"""

from __future__ import annotations

import math

import pytest

from scorer.costmodel import closed_loop_wait, serve


def exact_mva_wait(d: float, z: float, c: int) -> float:
    q = 0.0
    r = d
    for n in range(1, c + 1):
        r = d * (1.0 + q)
        x = n / (r + z)
        q = x * r
    return r - d


def bard_fixed_point_wait(d: float, z: float, c: int) -> float:
    """The fixed point R = D · (1 + (c − 1) / c · c·R / (R + Z)) by bisection on [D, (c + 1)·D + Z]."""
    def f(r):
        return d * (1.0 + (c - 1) / c * (c * r / (r + z) if r + z > 0 else c)) - r
    lo, hi = d, (c + 1) * d + z
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if f(mid) > 0 else (lo, mid)
    return 0.5 * (lo + hi) - d


@pytest.mark.parametrize("d,z,c", [(0.05, 2.0, 8), (0.05, 2.0, 40), (0.05, 2.0, 64), (0.02, 0.5, 128),
                                   (0.1, 1.0, 100), (0.001, 10.0, 4)])
def test_matches_the_schweitzer_bard_fixed_point(d, z, c):
    assert closed_loop_wait(d, z, c) == pytest.approx(bard_fixed_point_wait(d, z, c), rel=1e-6, abs=1e-12)


def test_one_user_never_waits():
    assert closed_loop_wait(0.04, 3.0, 1) == pytest.approx(0.0, abs=1e-15)


def test_light_load_limit():
    d, z, c = 0.01, 20.0, 16  # c·D = 0.16 s against Z = 20 s
    assert closed_loop_wait(d, z, c) == pytest.approx((c - 1) * d * d / z, rel=0.02)


def test_saturated_limit():
    d, z, c = 0.1, 1.0, 200  # c·D = 20 s against Z = 1 s: the server is the bottleneck
    assert closed_loop_wait(d, z, c) == pytest.approx(c * d - z - d, rel=0.01)


@pytest.mark.parametrize("d,z,c", [(0.05, 2.0, 20), (0.05, 2.0, 40), (0.05, 2.0, 80), (0.02, 0.5, 64)])
def test_close_to_exact_mva(d, z, c):
    """The approximation overstates the exact closed-network wait most at the knee (c·D = Z: +25% here) and less
    away from it (Schweitzer's known error profile)."""
    exact = exact_mva_wait(d, z, c)
    assert closed_loop_wait(d, z, c) == pytest.approx(exact, rel=0.3)
    assert closed_loop_wait(d, z, c) >= exact


def test_negative_think_time_counts_as_zero():
    assert closed_loop_wait(0.1, -5.0, 10) == pytest.approx(closed_loop_wait(0.1, 0.0, 10))
    # Z = 0: every user queues the whole time: R = c·D, wait (c − 1)·D
    assert closed_loop_wait(0.1, 0.0, 10) == pytest.approx(0.9)


def test_serve_adds_the_wait_for_a_prefill_bound_loop():
    """serve() on a loop whose prompts fill the engine: 64 users, 8192-token prompts, 2 output tokens each.
    Terms as serve's docstring defines them, with λ = 0 so only the closed-loop wait queues."""
    t_dec, t_pre, t_marg, c, osl, isl = 0.010, 0.300, 0.250, 64, 2, 8192
    p = {"ttft_queue": 0.0, "ttft_decode_steps": 0.5, "prefill_chunk_tokens": 8192.0, "tpot_interference": 1.0}
    got = serve(t_dec, t_pre, t_marg, c, osl, 1, c, p, isl)
    tpot = t_dec + (c - 1) / osl * t_marg
    d = t_marg + isl / 8192.0 * t_dec  # the request's prefill work: its compute plus the iteration it rides
    base = t_pre + 0.5 * t_dec
    z = base - d + (osl - 1) * tpot
    want = base + bard_fixed_point_wait(d, z, c)
    assert got["ttft"] == pytest.approx(want, rel=1e-9)
    # prefill-bound: the cycle is about c·D (every user waits for the others' prompts)
    assert got["ttft"] + (osl - 1) * tpot == pytest.approx(c * d, rel=0.05)
    assert got["ttft"] > 10 * base


def test_serve_light_load_wait_is_small():
    """A decode-bound loop (1k prompts, 1k outputs, 8 users): the wait is a fraction of a millisecond."""
    t_dec, t_pre, t_marg, c, osl, isl = 0.010, 0.040, 0.030, 8, 1024, 1024
    p = {"ttft_queue": 0.0, "ttft_decode_steps": 0.5, "prefill_chunk_tokens": 8192.0}
    got = serve(t_dec, t_pre, t_marg, c, osl, 1, c, p, isl)
    base = t_pre + 0.5 * t_dec
    assert got["ttft"] - base < 1e-3
    assert got["ttft"] - base > 0.0


def test_separate_prefill_engines_keep_the_burst_model():
    """prefill_separate = 1 (SGLang's default scheduler): the wave model, no closed-loop wait added."""
    t_dec, t_pre, t_marg, c, osl = 0.010, 0.300, 0.250, 64, 2
    p = {"prefill_separate": 1.0, "ttft_decode_steps": 0.5}
    got = serve(t_dec, t_pre, t_marg, c, osl, 1, c, p, 8192)
    assert got["ttft"] == pytest.approx(t_pre + 0.5 * t_dec + 0.5 * (c - 1) * t_marg, rel=1e-12)
    assert math.isfinite(got["tpot"])
