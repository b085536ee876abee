"""transformers' config classes, imported light (no package scan) and instantiated from JSON as data."""

from __future__ import annotations

import logging
import sys
import threading
import warnings
from typing import Any

from ..errors import ConfigError

_TRANSFORMERS_LOCK = threading.RLock()
_STUBBED = ("transformers", "transformers.models")


def _quiet_transformers() -> None:
    """Before transformers is first imported: no advisories (e.g. "PyTorch was not found") on stderr."""
    logging.getLogger("transformers").setLevel(logging.ERROR)
    import os
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    os.environ.setdefault("TRANSFORMERS_NO_ADVISORY_WARNINGS", "1")


def _stub_packages() -> list[Any]:
    """Register ``transformers`` and ``transformers.models`` in ``sys.modules`` without running them.

    Both package ``__init__`` files scan the source of every model folder (about 450) to build
    transformers' lazy import table: 0.7-0.8 s of a 2-core machine's cold start, when deploysheet
    needs one config class. With each package's own spec registered but not executed, ``import
    transformers.models.llama.configuration_llama`` loads the same files through the ordinary import
    system, and only those it names. Packages already imported are left alone; returns the stubs
    put in place (removed again by :func:`_drop_stubs`).
    """
    import importlib.metadata
    import importlib.util

    stubs: list[Any] = []
    try:
        for name in _STUBBED:
            if name in sys.modules:
                continue
            spec = importlib.util.find_spec(name)
            if spec is None or spec.submodule_search_locations is None:  # pragma: no cover - packaging drift
                break
            module = importlib.util.module_from_spec(spec)
            if name == "transformers":
                module.__version__ = importlib.metadata.version("transformers")  # read by configuration_utils
            sys.modules[name] = module
            stubs.append(module)
    except Exception:  # pragma: no cover - any surprise: fall back to the ordinary import
        _drop_stubs(stubs)
        return []
    return stubs


def _drop_stubs(stubs: list[Any]) -> None:
    """Take the stubs out again: a later ``import transformers`` runs the real packages, which find
    the config modules loaded meanwhile in ``sys.modules`` and reuse them."""
    for module in stubs:
        if sys.modules.get(module.__name__) is module:
            del sys.modules[module.__name__]
    top = sys.modules.get("transformers")
    if top is not None and any(top.__dict__.get("models") is m for m in stubs):
        delattr(top, "models")


def _config_mapping():
    """transformers' ``CONFIG_MAPPING`` (call after :func:`_quiet_transformers`, as ``with_transformers`` does)."""
    from transformers.models.auto.configuration_auto import CONFIG_MAPPING
    try:
        from transformers.utils import logging as tlog
        tlog.set_verbosity_error()
    except Exception:  # pragma: no cover - logging API drift only
        pass
    return CONFIG_MAPPING


def instantiate(mapping: Any, model_type: str, raw: dict[str, Any]) -> Any:
    """Instantiate transformers' config class for model_type from the JSON dict (data only).

    Raises:
        ConfigError: the class rejects the values.
        ImportError: the class could not be imported (the caller retries with a plain import).
    """
    cls = mapping[model_type]
    kwargs = {k: v for k, v in raw.items() if k not in ("auto_map", "model_type", "transformers_version")}
    try:
        return cls(**kwargs)
    except ImportError:
        raise
    except Exception as exc:  # transformers' strict dataclass validators and __post_init__ checks
        text = _rejection(exc)
        key = _culprit(cls, kwargs, text)
        if key is not None:
            shown, value = key, kwargs[key]
            sub = _sub_culprit(cls, kwargs, key, text) if isinstance(value, dict) else None
            if sub is not None:  # a sub-config (text_config, vision_config): name the key inside it
                shown, value = f"{key}.{sub}", value[sub]
            value = repr(value)
            text = f"{shown} = {value[:60] + '...' if len(value) > 60 else value}: {text}"
        raise ConfigError(f"config rejected by transformers {cls.__name__}: {text}") from None


def _rejection(exc: BaseException) -> str:
    """The last line of a config class's complaint, at most 300 characters."""
    cause = exc.__cause__ or exc
    msg = str(cause).strip().splitlines()
    text = msg[-1] if msg else type(cause).__name__
    if len(text) > 300:  # transformers echoes the value: a 100,000-entry list would make a 600 kB line
        text = text[:297] + "..."
    return text


#: the most keys :func:`_culprit` tries (a config of 100,000 junk keys must not cost 100,000 instantiations)
_CULPRIT_KEYS = 256


def _sub_culprit(cls: Any, kwargs: dict[str, Any], key: str, text: str) -> str | None:
    """Inside the sub-config ``kwargs[key]`` the rejection was traced to, the first key without which the class
    no longer raises the same complaint (at most :data:`_CULPRIT_KEYS` tries; error path only)."""
    sub = kwargs[key]
    for name in list(sub)[:_CULPRIT_KEYS]:
        try:
            cls(**{**kwargs, key: {k: v for k, v in sub.items() if k != name}})
        except ImportError:
            return None
        except Exception as exc:
            if _rejection(exc) == text:
                continue
        return name
    return None


def _culprit(cls: Any, kwargs: dict[str, Any], text: str) -> str | None:
    """The key a rejection is about, when its message names none (``'str' object has no attribute 'items'``
    for ``"id2label": ""``): the first key without which the class no longer raises the same complaint.
    None when the message names a key already or no single key is to blame. Error path only: one more
    instantiation per key, for the first :data:`_CULPRIT_KEYS` keys."""
    import re
    if any(re.search(r"(?<![A-Za-z0-9_])" + re.escape(k) + r"(?![A-Za-z0-9_])", text) for k in kwargs):
        return None
    for key in list(kwargs)[:_CULPRIT_KEYS]:
        try:
            cls(**{k: v for k, v in kwargs.items() if k != key})
        except ImportError:
            return None
        except Exception as exc:
            if _rejection(exc) == text:
                continue
        return key
    return None


def with_transformers(model_type: str | None, raw: dict[str, Any], before: Any) -> tuple[Any, Any] | None:
    """transformers' config object for ``model_type`` built from ``raw`` and its decoder text config,
    or None when transformers has no class for it. ``before()`` runs first for a known type.

    Tries the light import of :func:`_stub_packages` first and, should that fail to import anything,
    the plain ``import transformers`` (same classes, same result). The light import swaps
    ``sys.modules`` entries, so it runs only while the process has a single thread (the one-shot CLI):
    another thread's ``import transformers`` during the swap would bind the stub. Multi-threaded
    callers (the crawl's pool, the bot server) pay the plain import once. Serialized by a lock; set
    ``DEPLOYSHEET_PLAIN_TRANSFORMERS=1`` to skip the light import.

    Raises:
        ConfigError: the config class rejects the values (or ``before()`` does).
    """
    import os

    if not model_type:
        return None
    with _TRANSFORMERS_LOCK:
        _quiet_transformers()
        light_ok = os.environ.get("DEPLOYSHEET_PLAIN_TRANSFORMERS") != "1" and threading.active_count() == 1
        for light in (light_ok, False):
            stubs = _stub_packages() if light else []
            try:
                mapping = _config_mapping()
                if model_type not in mapping:
                    return None
                before()
                tlogger = logging.getLogger("transformers")
                level = tlogger.level
                try:
                    with warnings.catch_warnings():
                        # transformers' deprecation notices (a FutureWarning for rope_scaling) and its error logs
                        # ("Can't set layers_num_experts with value ... for JambaConfig {<40 lines>}" before it
                        # raises) are not ours to print: stderr holds one line, an error, or nothing
                        warnings.simplefilter("ignore")
                        tlogger.setLevel(logging.CRITICAL)
                        top = instantiate(mapping, model_type, raw)
                        cfg = top.get_text_config(decoder=True) if hasattr(top, "get_text_config") else top
                finally:
                    tlogger.setLevel(level)
                return top, cfg
            except (ImportError, AttributeError):
                if not stubs:
                    raise
            finally:
                _drop_stubs(stubs)
    return None  # pragma: no cover - the plain pass returns or raises
