"""The light import of transformers' config classes (scorer.architecture._stub_packages) gives the
same normalized architecture as the plain ``import transformers`` for every config we have, and
leaves transformers importable as usual afterwards.

Each side runs in a fresh interpreter (the light path is only taken while transformers is not yet
imported); DEPLOYSHEET_PLAIN_TRANSFORMERS=1 forces the plain import. The oracle is the plain import:
the result must not depend on how the class was imported.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

NORMALIZE_ALL = r"""
import json, sys
from pathlib import Path
from scorer.architecture import normalize
from scorer.errors import DeploysheetError
out = {}
for p in sys.argv[1:]:
    raw = json.loads(Path(p).read_text())
    try:
        out[p] = normalize(raw, None).model_dump(mode="json")
    except DeploysheetError as exc:
        out[p] = "error: " + str(exc)
light = "transformers" not in sys.modules
print(json.dumps({"arch": out, "transformers_left_imported": light}))
"""


def _normalize_all(paths: list[str], plain: bool) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "DEPLOYSHEET_PLAIN_TRANSFORMERS"}
    env["DEPLOYSHEET_NO_CACHE"] = "1"  # normalize every config, never answer from the architecture cache
    if plain:
        env["DEPLOYSHEET_PLAIN_TRANSFORMERS"] = "1"
    proc = subprocess.run([sys.executable, "-c", NORMALIZE_ALL, *paths], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "PyTorch was not found" not in proc.stderr  # transformers' advisories stay quiet either way
    return json.loads(proc.stdout)


def _configs(tmp_path: Path) -> list[str]:
    paths = sorted(str(p) for p in (ROOT / "data" / "examples").glob("*/config.json"))
    corpus = Path(os.environ.get("DEPLOYSHEET_CORPUS", ROOT.parent / "shared" / "corpus"))
    paths += sorted(str(p) for p in corpus.glob("*/config.json"))
    # the generated Hub corpus: eight families through transformers' own config classes, plus an
    # encoder and a custom-code config (errors must match too)
    from hubcorpus import _make
    for i, (_repo, cfg, _meta, _status) in enumerate(_make(48, seed=3)):
        if isinstance(cfg, dict):
            p = tmp_path / f"gen{i}.json"
            p.write_text(json.dumps(cfg))
            paths.append(str(p))
    return paths


def test_light_import_normalizes_exactly_like_the_plain_import(tmp_path):
    paths = _configs(tmp_path)
    assert len(paths) >= 40
    light = _normalize_all(paths, plain=False)
    plain = _normalize_all(paths, plain=True)
    assert light["arch"] == plain["arch"]
    # the configs cover known model types and at least one rejected/unknown one
    assert any(isinstance(v, dict) and v.get("config_class") for v in plain["arch"].values())
    # neither run leaves a half-imported transformers behind as the package
    assert light["transformers_left_imported"] is True


def test_transformers_imports_normally_after_a_light_normalize():
    script = r"""
import json
from scorer.architecture import normalize
raw = json.load(open("data/examples/qwen3-4b/config.json"))
arch = normalize(raw, None)
import sys
assert "transformers" not in sys.modules and "transformers.models" not in sys.modules
import transformers
assert type(transformers).__name__ == "_LazyModule", type(transformers)
from transformers import AutoConfig, PreTrainedConfig, Qwen3Config
from transformers.models.qwen3.configuration_qwen3 import Qwen3Config as Direct
assert Qwen3Config is Direct
cfg = AutoConfig.for_model("qwen3", hidden_size=256, num_attention_heads=4, num_key_value_heads=2)
assert isinstance(cfg, PreTrainedConfig) and cfg.head_dim == 128
assert transformers.models.llama.LlamaConfig().hidden_size == 4096
print(arch.config_class)
"""
    env = dict(os.environ, DEPLOYSHEET_NO_CACHE="1")
    env.pop("DEPLOYSHEET_PLAIN_TRANSFORMERS", None)
    proc = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "Qwen3Config"
