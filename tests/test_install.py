"""Templates and data load from a checkout and from a non-editable install (wheel)."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile

import pytest

from conftest import ROOT


def _score(env: dict, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scorer.cli", "score", "example:qwen3-4b"], capture_output=True,
                          text=True, env=env, cwd=cwd, timeout=300)


def test_checkout_layout(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    res = _score(env, tmp_path)  # run from elsewhere: resources must not depend on the cwd
    assert res.returncode == 0, res.stderr
    assert "# Deployment sheet — example:qwen3-4b" in res.stdout


@pytest.mark.slow
def test_wheel_install_carries_templates_and_data(tmp_path):
    wheel_dir = tmp_path / "wheel"
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                            "-w", str(wheel_dir), str(ROOT)], capture_output=True, text=True, timeout=300)
    assert build.returncode == 0, build.stderr
    wheel = next(wheel_dir.glob("deploysheet-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "scorer/_templates/sheet.md.j2" in names
    assert "scorer/_data/gpus.json" in names and "scorer/_data/examples/llama-3.1-8b/config.json" in names
    target = tmp_path / "site"
    inst = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target),
                           str(wheel)], capture_output=True, text=True, timeout=300)
    assert inst.returncode == 0, inst.stderr
    env = dict(os.environ, PYTHONPATH=str(target))
    res = _score(env, tmp_path)
    assert res.returncode == 0, res.stderr
    assert "# Deployment sheet — example:qwen3-4b" in res.stdout
    check = subprocess.run([sys.executable, "-c", "import scorer.resources as r; print(r.data_dir())"],
                           capture_output=True, text=True, env=env, cwd=tmp_path)
    assert str(target) in check.stdout  # data came from the installed package, not the checkout
