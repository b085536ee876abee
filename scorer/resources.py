"""Locate the packaged ``data/`` and ``templates/`` folders.

From a checkout (or an editable install) they are the repository's top-level ``data/`` and
``templates/``; a wheel carries them as ``scorer/_data`` and ``scorer/_templates`` (see the
``force-include`` table in pyproject.toml). Both layouts are tested.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

_PKG = Path(__file__).resolve().parent


def _find(installed: str, checkout: str) -> Path:
    for candidate in (_PKG / installed, _PKG.parent / checkout):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"deploysheet resources missing: neither {_PKG / installed} nor {_PKG.parent / checkout}")


#: data_dir / templates_dir take no argument: one path each
@lru_cache(maxsize=None)
def data_dir() -> Path:
    """Folder holding the GPU catalog, rules, calibration and example configs."""
    return _find("_data", "data")


@lru_cache(maxsize=None)
def templates_dir() -> Path:
    """Folder holding the jinja2 templates."""
    return _find("_templates", "templates")


#: unbounded: keyed by the names of the packaged data files (code constants), so it holds at most the data folder
@lru_cache(maxsize=None)
def load_json(name: str) -> Any:
    """Parse ``data/<name>`` (cached; callers must not mutate the result)."""
    with open(data_dir() / name, encoding="utf-8") as fh:
        return json.load(fh)
