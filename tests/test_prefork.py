"""The console script's forked normalizer (scorer.architecture.prefork) changes nothing but the wall time.

The oracle is the same command with ``DEPLOYSHEET_PREFORK=0`` (no child: the parent normalizes as the
library always does): stdout, stderr and exit code must be identical, for a config that normalizes, for
one transformers' config class rejects (the child fails and the parent reports it), and for one whose
JSON does not parse (no child at all). A direct check shows the child's answer is used when it succeeds.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "data" / "examples" / "qwen3-4b" / "config.json"

pytestmark = pytest.mark.slow


def _score(args: list[str], cache: Path, prefork: bool) -> subprocess.CompletedProcess:
    env = dict(os.environ, DEPLOYSHEET_CACHE_DIR=str(cache), DEPLOYSHEET_PREFORK="1" if prefork else "0")
    return subprocess.run([sys.executable, "-m", "scorer", *args], cwd=ROOT, env=env, capture_output=True,
                          timeout=180)


def _config(tmp_path: Path, name: str, edit) -> Path:
    cfg = json.loads(EXAMPLE.read_text())
    edit(cfg)
    folder = tmp_path / name
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps(cfg))
    return folder / "config.json"


@pytest.mark.skipif(not hasattr(os, "fork") or (os.cpu_count() or 1) < 2, reason="forks on POSIX with 2+ CPUs only")
@pytest.mark.parametrize("fmt", ["md", "json"])
def test_same_output_with_and_without_the_forked_normalizer(tmp_path, fmt):
    cfg = _config(tmp_path, "ok", lambda c: c.update(max_position_embeddings=40_961))  # not in the shipped cache
    runs = [_score(["score", str(cfg), "--format", fmt], tmp_path / f"cache{i}", prefork=bool(i)) for i in (0, 1)]
    assert runs[0].returncode == runs[1].returncode == 0, runs[1].stderr
    assert runs[0].stdout == runs[1].stdout and runs[0].stderr == runs[1].stderr == b""


@pytest.mark.skipif(not hasattr(os, "fork") or (os.cpu_count() or 1) < 2, reason="forks on POSIX with 2+ CPUs only")
def test_errors_are_the_parents_own(tmp_path):
    """A rejected config (the child fails, the parent normalizes and raises) and unparsable JSON (no child)."""
    rejected = _config(tmp_path, "rejected", lambda c: c.update(num_attention_heads=7))  # 2560 % 7 != 0 ...
    rejected.parent.joinpath("config.json").write_text(
        json.dumps({**json.loads(rejected.read_text()), "rope_parameters": {"rope_type": "no-such-rope"}}))
    broken = tmp_path / "broken.json"
    broken.write_text('{"model_type": "qwen3", ')
    for path in (rejected, broken):
        runs = [_score(["score", str(path)], tmp_path / f"c{path.stem}{i}", prefork=bool(i)) for i in (0, 1)]
        assert runs[0].returncode == runs[1].returncode == 2, (path, runs[0].stderr)
        assert runs[0].stderr == runs[1].stderr and runs[0].stderr.count(b"\n") == 1
        assert runs[0].stdout == runs[1].stdout == b""


CHILD_USED = r"""
import json, os, sys
from scorer import cache
from scorer.architecture import assemble, prefork
raw = json.load(open(sys.argv[1]))
prefork.allow()
assert prefork.start(raw, None), "no child started"
key = cache.arch_key(raw, None)
payload = prefork.take(key)
assert payload is not None, "the child gave no answer"
own = assemble._normalize(raw, None).model_dump_json()
print(json.dumps({"same": payload == own, "pending": len(prefork._PENDING)}))
"""


@pytest.mark.skipif(not hasattr(os, "fork") or (os.cpu_count() or 1) < 2, reason="forks on POSIX with 2+ CPUs only")
def test_the_childs_answer_is_the_normalizers(tmp_path):
    cfg = _config(tmp_path, "direct", lambda c: c.update(max_position_embeddings=40_962))
    env = dict(os.environ, DEPLOYSHEET_CACHE_DIR=str(tmp_path / "cache"))
    proc = subprocess.run([sys.executable, "-c", CHILD_USED, str(cfg)], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"same": True, "pending": 0}


def test_library_callers_never_fork(monkeypatch):
    """Without the console script's allow(), start() forks nothing (tests and servers call main in-process)."""
    from scorer.architecture import prefork
    monkeypatch.setattr(prefork, "_ALLOWED", False)
    assert not prefork.usable()
    assert prefork.start(json.loads(EXAMPLE.read_text()), None) is False
