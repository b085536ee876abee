"""Issue 15: memos that outlive a request are bounded in bytes (scorer.memo)."""

from __future__ import annotations

import copy
import gc
import sys
import tracemalloc

import pytest

from scorer import memo
from scorer.memo import ByteLRU, deep_size, scalar_entry_bytes, sized_lru_cache

EXAMPLES = ("llama-2-7b", "qwen3-4b", "mixtral-8x7b", "gpt-oss-20b")


def _expected_cost(key: tuple[str, int], value: bytes) -> int:
    """deep_size((key, value)) computed by hand: the pair, the key tuple, its two items, the value."""
    return (sys.getsizeof((key, value)) + sys.getsizeof(key) + sys.getsizeof(key[0]) + sys.getsizeof(key[1])
            + sys.getsizeof(value))


def test_deep_size_matches_a_hand_count():
    key, value = ("entry", 1000), b"x" * 500
    assert deep_size((key, value)) == _expected_cost(key, value)
    shared = [1.5] * 3  # the same float three times: counted once
    assert deep_size(shared) == sys.getsizeof(shared) + sys.getsizeof(1.5)


def test_byte_lru_evicts_least_recent_when_over_budget():
    sizes = [300, 700, 1200, 500, 900, 2000, 100]
    costs = [_expected_cost(("entry", 1000 + i), b"x" * n) for i, n in enumerate(sizes)]
    budget = sum(costs[:3]) + 10  # room for the first three entries, not a fourth
    lru = ByteLRU("test.lru", budget)
    try:
        for i in range(3):
            lru.put(("entry", 1000 + i), b"x" * sizes[i])
        assert lru.bytes == sum(costs[:3]) and len(lru) == 3 and lru.evictions == 0
        assert lru.get(("entry", 1000)) == b"x" * 300  # now the most recent: 1001 goes first
        held = {0: costs[0], 1: costs[1], 2: costs[2]}
        order = [1, 2, 0]
        for i in range(3, len(sizes)):
            lru.put(("entry", 1000 + i), b"x" * sizes[i])
            order.append(i)
            held[i] = costs[i]
            while sum(held.values()) > budget:  # the independent model of the LRU
                del held[order.pop(0)]
            assert lru.bytes == sum(held.values()) <= budget
            assert sorted(k[1] - 1000 for k in lru._data) == sorted(held)
        assert lru.evictions > 0
        assert lru.costs() == [held[i] for i in order]
        # an entry over the whole budget is not stored (and what was stored stays)
        before = lru.bytes
        lru.put(("big", 0), b"x" * (budget + 1))
        assert ("big", 0) not in lru and lru.bytes == before
        # a stated cost is used as is
        lru.clear()
        lru.put("a", object(), cost=budget // 2)
        lru.put("b", object(), cost=budget // 2)
        lru.put("c", object(), cost=budget // 2)
        assert lru.bytes == 2 * (budget // 2) and "a" not in lru and "c" in lru
    finally:
        memo._REGISTRY.pop("test.lru", None)


def test_sized_lru_cache_holds_at_most_its_budget():
    entry = scalar_entry_bytes(4096, 14336, 4096, 132, result=0.5)

    @sized_lru_cache("test.sized", 100 * entry + entry // 2, entry)
    def f(m, n, k, s):
        return m / (n + k + s)

    try:
        assert f.cache_info().maxsize == 100
        for i in range(250):
            f(5000 + i, 14336, 4096, 132)
        reg = memo._REGISTRY["test.sized"]
        assert len(reg) == 100 and reg.bytes == 100 * entry <= reg.budget
    finally:
        memo._REGISTRY.pop("test.sized", None)


def test_scalar_entry_estimate_covers_what_lru_cache_allocates():
    """The stated per-entry cost of the tile memo is not below what an entry costs the allocator."""
    from functools import lru_cache

    @lru_cache(maxsize=1 << 20)
    def g(m, n, k, s):
        return m * 0.5

    g(1, 2, 3, 4)
    gc.collect()
    tracemalloc.start()
    try:
        s0 = tracemalloc.take_snapshot()
        n = 20000
        for i in range(n):
            g(5000 + i, 14336 + i, 4096 + i, 132)
        s1 = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    measured = sum(s.size_diff for s in s1.compare_to(s0, "filename")) / n
    assert measured <= scalar_entry_bytes(5000, 14336, 4096, 132, result=0.5) * 1.1


def _jobs(n: int):
    from scorer.sheet import Options
    from scorer.sources import load_source
    raws = [load_source(f"example:{name}") for name in EXAMPLES]
    gpus = ("H100-SXM", "A100-SXM-80GB", "L40S", "B200")
    for i in range(n):
        raw = raws[i % len(raws)]
        v = i // len(raws)
        cfg = copy.deepcopy(raw.config)
        for sub in (cfg, cfg.get("text_config")):
            if isinstance(sub, dict) and isinstance(sub.get("vocab_size"), int):
                sub["vocab_size"] += 64 * v  # a new architecture: new GEMM shapes, new memo keys
        yield raw.model_copy(update={"config": cfg}), Options(gpus=[gpus[i % len(gpus)]], isl=512 * (1 + i % 3))


def _build(raw, opts) -> str:
    from scorer.render import render
    from scorer.sheet import build_sheet
    return render(build_sheet(raw, opts), "json")


@pytest.fixture
def tmp_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("DEPLOYSHEET_CACHE_DIR", str(tmp_path))


def test_builds_in_one_process_stay_within_the_memo_budgets(tmp_cache, monkeypatch):
    import scorer.costmodel  # noqa: F401 - registers its memos
    import scorer.regimes  # noqa: F401
    import scorer.tiles  # noqa: F401
    names = {name for name, _, _ in memo.report()}
    assert {"costmodel.calibration", "costmodel.shards", "costmodel.comm", "regimes.valid_tp",
            "tiles.gemm_efficiency"} <= names
    jobs = list(_jobs(24))
    reference = [_build(raw, opts) for raw, opts in jobs]
    assert memo.total_bytes() <= memo.total_budget()
    for name, held, budget in memo.report():
        assert held <= budget, name
    # the same builds with the byte-bounded memos shrunk so they evict all along: bounds hold after every build
    # and the sheets do not change
    memo.clear_all()
    small = {}
    for name, m in memo._REGISTRY.items():
        if isinstance(m, ByteLRU) and not name.startswith("test."):
            monkeypatch.setattr(m, "budget", 48 * 1024)
            small[name] = m
    for (raw, opts), want in zip(jobs, reference):
        assert _build(raw, opts) == want
        for name, m in small.items():
            assert m.bytes <= m.budget, name
            assert m.bytes == sum(m.costs()), name
        assert memo.total_bytes() <= memo.total_budget()
    assert small["costmodel.shards"].evictions > 0
