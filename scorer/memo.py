"""Process-wide memos bounded in bytes (issue 15).

The webhook server builds sheets for many models in one process, so any memo that outlives a request must
stop growing at a stated size, whatever the number of distinct keys. Two kinds are registered here, and
:func:`report` / :func:`total_bytes` sum what they hold by their own accounting:

* :class:`ByteLRU` — a least-recently-used map whose budget is bytes: each entry costs what the caller states
  (``put(key, value, cost=...)``) or, by default, :func:`deep_size` of key and value. Inserting past the budget
  evicts the least recently used entries first; an entry costing more than the whole budget is not stored.
* :func:`sized_lru_cache` — ``functools.lru_cache`` (C speed, for hot scalar functions) whose ``maxsize`` is
  ``budget // entry_bytes``, for functions whose entries all cost about the same (scalar arguments, a scalar
  result); ``entry_bytes`` is stated by the caller (see :func:`scalar_entry_bytes`).

Caches over static data (the GPU catalog, precision table, rules, templates) stay unbounded ``lru_cache`` in
their modules: their keys come from the packaged data files, so their size is that of the data. Per-object
memos (a CostModel's step features, its predictions) die with their object, which lives one request.
"""

from __future__ import annotations

import sys
import threading
import weakref
from collections import OrderedDict
from functools import lru_cache
from types import BuiltinFunctionType, FunctionType, MethodType, ModuleType
from typing import Any, Callable, Hashable

MIB = 1 << 20

#: name -> memo object (ByteLRU or a sized lru_cache wrapper); module-level memos live as long as the process
_REGISTRY: dict[str, Any] = {}

_ATOMIC = (int, float, complex, bool, str, bytes, type(None))
_SKIP = (type, ModuleType, FunctionType, BuiltinFunctionType, MethodType)


def deep_size(obj: Any, _seen: set[int] | None = None) -> int:
    """Estimated bytes held by ``obj`` and what it references: ``sys.getsizeof`` summed over tuples, lists,
    dicts, sets and the attributes (``__dict__`` and ``__slots__``) of objects, each object once. Classes,
    modules and functions are not counted (they are shared and static). An estimate, not an allocator figure:
    it omits allocator rounding and interned or cached small objects are counted as if owned."""
    seen = set() if _seen is None else _seen
    stack = [obj]
    total = 0
    while stack:
        o = stack.pop()
        i = id(o)
        if i in seen or isinstance(o, _SKIP):
            continue
        seen.add(i)
        total += sys.getsizeof(o)
        if isinstance(o, _ATOMIC):
            continue
        if isinstance(o, dict):
            stack.extend(o.keys())
            stack.extend(o.values())
        elif isinstance(o, (tuple, list, set, frozenset)):
            stack.extend(o)
        else:
            d = getattr(o, "__dict__", None)
            if d is not None:
                stack.append(d)
            for cls in type(o).__mro__:
                slots = cls.__dict__.get("__slots__", ())
                for slot in (slots,) if isinstance(slots, str) else slots:
                    if slot not in ("__dict__", "__weakref__"):
                        v = getattr(o, slot, None)
                        if v is not None:
                            stack.append(v)
    return total


def identity_ref(obj: Any) -> Callable[[], Any]:
    """A callable returning ``obj`` while it lives: a weak reference when ``obj`` takes one (a memo keyed by
    ``id(obj)`` checks ``ref() is obj`` without keeping ``obj`` alive), else a strong one (the entry then holds
    ``obj``, so its id is not reused while cached; :func:`deep_size` does not see through the closure, so
    such an entry's cost leaves ``obj`` out: only objects that take no weak reference, none in the scorer's
    memos today)."""
    try:
        return weakref.ref(obj)
    except TypeError:
        return lambda: obj


class ByteLRU:
    """A least-recently-used map bounded by ``budget`` bytes (see the module doc). Thread-safe for the
    get/put pairs of a memo; ``bytes`` is the sum of the costs of the entries held, always <= ``budget``."""

    def __init__(self, name: str, budget: int, sizer: Callable[[Hashable, Any], int] | None = None):
        self.name = name
        self.budget = int(budget)
        self._sizer = sizer or (lambda k, v: deep_size((k, v)))
        self._data: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self.bytes = 0
        self.evictions = 0
        self._lock = threading.Lock()
        _REGISTRY[name] = self

    def get(self, key: Hashable, default: Any = None) -> Any:
        with self._lock:
            hit = self._data.get(key)
            if hit is None:
                return default
            self._data.move_to_end(key)
            return hit[0]

    def put(self, key: Hashable, value: Any, cost: int | None = None) -> Any:
        """Store ``value`` under ``key`` at ``cost`` bytes (default: the sizer's estimate); returns ``value``."""
        cost = int(self._sizer(key, value) if cost is None else cost)
        with self._lock:
            old = self._data.pop(key, None)
            if old is not None:
                self.bytes -= old[1]
            if cost > self.budget:
                return value
            while self._data and self.bytes + cost > self.budget:
                _, (_, c) = self._data.popitem(last=False)
                self.bytes -= c
                self.evictions += 1
            self._data[key] = (value, cost)
            self.bytes += cost
        return value

    def get_for(self, owner: Any, key: Hashable, default: Any = None) -> Any:
        """The value :meth:`put_for` stored under ``key`` for ``owner`` (a memo keyed by ``id(owner)``), or
        ``default`` when there is none or the id now names another object."""
        hit = self.get(key)
        return hit[1] if hit is not None and hit[0]() is owner else default

    def put_for(self, owner: Any, key: Hashable, value: Any) -> Any:
        """Store ``value`` for ``owner`` under ``key`` beside an :func:`identity_ref` of ``owner`` (not keeping it
        alive); returns ``value``."""
        self.put(key, (identity_ref(owner), value))
        return value

    def clear(self) -> None:
        with self._lock:
            self._data.clear()
            self.bytes = 0

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._data

    def costs(self) -> list[int]:
        """The cost of every entry held, least recently used first."""
        with self._lock:
            return [c for _, c in self._data.values()]


def scalar_entry_bytes(*example_args: Any, result: Any = 0.0) -> int:
    """Bytes one ``lru_cache`` entry of a function of scalar arguments holds, from example arguments: the key
    tuple and its items, the result, the cache's link node (a 4-slot record with a GC header) and the dict
    slot (index, hash, key, value, at a 2/3 load factor)."""
    key = sys.getsizeof(example_args) + sum(sys.getsizeof(a) for a in example_args)
    node = sys.getsizeof([None] * 4)  # lru_list_elem: prev, next, hash, key, result ~ a 4-item list with header
    slot = (8 + 3 * 8) * 3 // 2
    return key + sys.getsizeof(result) + node + slot


class _SizedLru:
    """Accounting for an ``lru_cache`` whose entries all cost ``entry_bytes``."""

    def __init__(self, name: str, fn, entry_bytes: int, budget: int):
        self.name, self.fn, self.entry_bytes, self.budget = name, fn, entry_bytes, budget
        _REGISTRY[name] = self

    @property
    def bytes(self) -> int:
        return self.fn.cache_info().currsize * self.entry_bytes

    def __len__(self) -> int:
        return self.fn.cache_info().currsize

    def clear(self) -> None:
        self.fn.cache_clear()


def sized_lru_cache(name: str, budget: int, entry_bytes: int):
    """``lru_cache(maxsize=budget // entry_bytes)``, registered under ``name`` for :func:`report`."""
    def wrap(fn):
        cached = lru_cache(maxsize=max(1, budget // entry_bytes))(fn)
        _SizedLru(name, cached, entry_bytes, budget)
        return cached
    return wrap


def report() -> list[tuple[str, int, int]]:
    """(name, bytes held, budget) of every registered process-wide memo."""
    return [(name, m.bytes, m.budget) for name, m in sorted(_REGISTRY.items())]


def total_bytes() -> int:
    return sum(m.bytes for m in _REGISTRY.values())


def total_budget() -> int:
    return sum(m.budget for m in _REGISTRY.values())


def clear_all() -> None:
    for m in _REGISTRY.values():
        m.clear()
