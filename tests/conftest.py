from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("DEPLOYSHEET_CORPUS", ROOT.parent / "shared" / "corpus"))

sys.path.insert(0, str(Path(__file__).resolve().parent))


@pytest.fixture(autouse=True, scope="session")
def _private_cache(tmp_path_factory):
    """Tests never read or write the user's ~/.cache/deploysheet."""
    os.environ["DEPLOYSHEET_CACHE_DIR"] = str(tmp_path_factory.mktemp("deploysheet-cache"))
    yield


@pytest.fixture
def corpus() -> Path:
    """../shared/corpus (CI has it; users of the project do not: those tests skip)."""
    if not (CORPUS / "INDEX.csv").is_file():
        pytest.skip("../shared/corpus not available")
    return CORPUS


@pytest.fixture
def write_config(tmp_path):
    def _write(cfg: dict | str, name: str = "config.json") -> Path:
        p = tmp_path / name
        p.write_text(cfg if isinstance(cfg, str) else json.dumps(cfg))
        return p
    return _write


@pytest.fixture
def fakehub(httpserver, monkeypatch, tmp_path):
    from fakehub import FakeHub
    hub = FakeHub(httpserver)
    monkeypatch.setenv("HF_ENDPOINT", hub.endpoint)
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf_home"))
    monkeypatch.setenv("HF_HUB_DISABLE_TELEMETRY", "1")
    monkeypatch.delenv("HF_TOKEN", raising=False)
    return hub


def run_cli(*args: str, env: dict | None = None, cwd: str | Path | None = None, timeout: int = 120):
    """Run the CLI in a fresh interpreter, as a user would; returns CompletedProcess."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    full_env.setdefault("PYTHONPATH", str(ROOT))
    return subprocess.run([sys.executable, "-m", "scorer.cli", *args], capture_output=True, text=True,
                          env=full_env, cwd=cwd or ROOT, timeout=timeout)
