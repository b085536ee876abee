"""On-disk caches that keep a cold ``deploysheet score`` fast.

* normalized architectures, keyed by the SHA-256 of the config (and sidecar) and of the
  normalizer's own source, so a change to either misses; the user cache's entries also carry the installed
  transformers version, whose config classes (their defaults, the model types they know) decide the
  architecture, so an upgraded transformers misses too. Normalizing a known model type imports
  transformers (about 0.5 s with the light import of architecture._stub_packages); a cache hit does not. The bundled examples ship their entries in
  ``data/arch_cache/`` (written by ``scripts/make_examples.py``, checked by the tests);
* compiled jinja2 templates: the sheet, report and diff templates ship precompiled in ``data/compiled_templates/`` (scorer.render; used while their sources and jinja2 match), the others in a bytecode cache.

Location: ``$DEPLOYSHEET_CACHE_DIR``, else ``$XDG_CACHE_HOME/deploysheet``, else
``~/.cache/deploysheet``. ``DEPLOYSHEET_NO_CACHE=1`` disables both. A cache that cannot be written
is skipped silently: caching never fails a command.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any

from . import __version__
from .resources import data_dir

#: the normalizer's source: every module of the package (a change to any misses the cache)
_CODE_PACKAGE = "architecture"
#: modules outside it that the normalizer calls and whose results it stores (kinds/looped.py, hybrids2.py and
#: inkling.py keep counts of scorer.params.layer_params): a change to them misses too
_CODE_MODULES = ("params.py",)


def enabled() -> bool:
    return os.environ.get("DEPLOYSHEET_NO_CACHE", "") not in ("1", "true", "yes")


def cache_dir() -> Path | None:
    if not enabled():
        return None
    base = os.environ.get("DEPLOYSHEET_CACHE_DIR")
    if not base:
        xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        base = os.path.join(xdg, "deploysheet")
    return Path(base)


#: one string (no argument)
@lru_cache(maxsize=1)
def code_hash() -> str:
    h = hashlib.sha256(__version__.encode())
    pkg = Path(__file__).resolve().parent / _CODE_PACKAGE
    for path in sorted(pkg.rglob("*.py")):
        h.update(path.relative_to(pkg).as_posix().encode())
        h.update(path.read_bytes())
    for name in _CODE_MODULES:  # modules outside the package whose results the normalizer stores
        h.update(name.encode())
        h.update((pkg.parent / name).read_bytes())
    return h.hexdigest()[:16]


def arch_key(config: dict[str, Any], sidecar: dict[str, Any] | None) -> str:
    # key order kept: a config's order can carry meaning (compressed-tensors config groups: a target two groups list
    # is the later group's), so two orders are two entries
    blob = json.dumps([config, sidecar], ensure_ascii=False, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:32] + "-" + code_hash()


@lru_cache(maxsize=1)
def transformers_version() -> str:
    """The installed transformers distribution's version (read from its metadata, no import), or ``none``."""
    from importlib import metadata
    try:
        return metadata.version("transformers")
    except metadata.PackageNotFoundError:  # pragma: no cover - a dependency of the package
        return "none"


def _user_entry(key: str) -> str:
    """The user cache's file name of ``key``: the same architecture under another transformers version is another
    entry (a model type that version knows is read through its config class, exactly; one it does not know, from
    the raw keys). The packaged entries of the bundled examples are keyed without it: tests/test_examples.py checks
    them against a live normalization under the transformers version each run installs."""
    version = "".join(ch if ch.isalnum() or ch in ".+" else "_" for ch in transformers_version())
    return f"{key}-tf{version}.json"


def load_arch(key: str) -> str | None:
    """Cached ModelArch JSON for ``key`` (user cache, then the packaged example entries)."""
    if not enabled():
        return None
    user = cache_dir()
    for path in ((user / "arch" / _user_entry(key)) if user else None, data_dir() / "arch_cache" / f"{key}.json"):
        if path is None:
            continue
        try:
            return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):  # unreadable or not text: a miss, recomputed
            continue
    return None


def store_arch(key: str, payload: str) -> None:
    folder = cache_dir()
    if folder is None:
        return
    folder = folder / "arch"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".arch.")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(payload)
        os.replace(tmp, folder / _user_entry(key))
    except OSError:
        pass


def jinja_bytecode_cache():
    """A jinja2 FileSystemBytecodeCache under the cache dir, or None."""
    folder = cache_dir()
    if folder is None:
        return None
    try:
        (folder / "jinja").mkdir(parents=True, exist_ok=True)
        if not os.access(folder / "jinja", os.W_OK):
            return None
    except OSError:
        return None
    import jinja2
    return jinja2.FileSystemBytecodeCache(str(folder / "jinja"))
