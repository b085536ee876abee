"""Normalize a local config in a forked child while the parent imports the rest of ``score``.

A cold ``deploysheet score`` of a local config spends most of its time importing: transformers'
config machinery for the normalizer (0.6-0.9 s of a 2-core machine) and, independently, the analyses,
pydantic models, numpy and jinja2 of the sheet. On a machine with a second core the two can overlap:
:func:`start` forks a child that normalizes the config (transformers included) and sends the
:class:`~scorer.architecture.specs.ModelArch` back as JSON through a pipe, while the parent goes on;
:func:`normalize` then takes the child's answer (:func:`take`) instead of normalizing again.

The child is speculative and never decides anything: when it fails, is refused, raises, times out or
cannot be started, the parent normalizes as it always did and raises or returns exactly what it
would have. Its answer is the same JSON the on-disk cache stores (``ModelArch.model_dump_json``), read
back the same way, so a sheet made from it is byte for byte the one made without it (tested).

Only the console script enables it (:func:`allow`), and only where ``os.fork`` exists, the process has
a single thread and more than one CPU, and ``DEPLOYSHEET_PREFORK`` is not ``0``: library callers,
tests calling ``cli.main`` in-process, servers and thread pools never fork.
"""

from __future__ import annotations

import os
import select
import signal
import threading
import time
from typing import Any

_ALLOWED = False
#: cache key -> (child pid, read end of its pipe)
_PENDING: dict[str, tuple[int, int]] = {}
#: seconds the parent waits for a child before it normalizes itself
TAKE_TIMEOUT_S = 60.0


def allow() -> None:
    """Let :func:`start` fork (the console script calls this once, before ``main``)."""
    global _ALLOWED
    _ALLOWED = True


def usable() -> bool:
    """Whether :func:`start` may fork now (see the module docstring for the conditions)."""
    return (_ALLOWED and hasattr(os, "fork") and (os.cpu_count() or 1) > 1 and threading.active_count() == 1
            and os.environ.get("DEPLOYSHEET_PREFORK", "1") != "0")


def start(raw: dict[str, Any], sidecar: dict[str, Any] | None) -> bool:
    """Fork a child that normalizes ``raw`` (with its quantization ``sidecar``); True when one was started.

    Nothing is started when forking is not :func:`usable`, the config cannot be keyed, or the on-disk cache
    already holds its architecture. Raises nothing."""
    if not usable():
        return False
    from .. import cache
    try:
        key = cache.arch_key(raw, sidecar)
    except (TypeError, ValueError, RecursionError):
        return False
    if key in _PENDING or cache.load_arch(key) is not None:
        return False
    try:
        r, w = os.pipe()
    except OSError:
        return False
    try:
        pid = os.fork()
    except OSError:
        os.close(r)
        os.close(w)
        return False
    if pid == 0:  # the child: normalize, answer, exit without running the parent's exit handlers
        try:
            os.close(r)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
            payload = b"X"
            try:
                from .assemble import _normalize
                payload = b"A" + _normalize(raw, sidecar).model_dump_json().encode("utf-8")
            except BaseException:  # the parent normalizes again and reports whatever this was
                payload = b"X"
            view = memoryview(payload)
            while view:
                view = view[os.write(w, view):]
        finally:
            os._exit(0)
    os.close(w)
    _PENDING[key] = (pid, r)
    return True


def take(key: str, timeout: float = TAKE_TIMEOUT_S) -> str | None:
    """The ModelArch JSON the child started for ``key`` answered, or None (no child, or it failed or took
    longer than ``timeout`` seconds). Reaps the child. Raises nothing."""
    entry = _PENDING.pop(key, None)
    if entry is None:
        return None
    pid, r = entry
    chunks: list[bytes] = []
    ok = False
    try:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            ready, _, _ = select.select([r], [], [], left)
            if not ready:
                break
            chunk = os.read(r, 1 << 20)
            if not chunk:
                ok = True
                break
            chunks.append(chunk)
    except (OSError, ValueError, InterruptedError):
        ok = False
    finally:
        _reap(pid, r, kill=not ok)
    data = b"".join(chunks)
    if not ok or not data.startswith(b"A"):
        return None
    try:
        return data[1:].decode("utf-8")
    except UnicodeDecodeError:
        return None


def cancel_all() -> None:
    """Stop and reap every child not taken (a command that failed before it normalized)."""
    while _PENDING:
        _, (pid, r) = _PENDING.popitem()
        _reap(pid, r, kill=True)


def _reap(pid: int, r: int, kill: bool) -> None:
    try:
        os.close(r)
    except OSError:
        pass
    if kill:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    try:
        os.waitpid(pid, 0)
    except OSError:
        pass
