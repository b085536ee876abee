"""Meta-device oracle: parameter counts of transformers models built from real config.json files.

For every ``config.json`` under CORPUS whose ``model_type`` this transformers version knows, the
class named in ``architectures[0]`` (or AutoModelForCausalLM) is instantiated on torch's meta
device — no weights, no repository code (configs are passed as data; ``auto_map`` is dropped) —
and its parameters are summed:

* ``total``: every parameter of the instantiated class;
* ``language_model``: ``total`` minus the vision tower / projector (names containing ``visual``,
  ``vision_model``, ``vision_tower`` or ``multi_modal_projector``);
* ``vision``: that difference;
* ``embedding``: the input embedding table(s); ``lm_head``: the output embedding when untied.

Run (needs torch; the numbers are committed in tests/data/meta_oracle.json and read by
tests/test_params_oracle.py):

    pip install -e '.[test,oracle]'
    python scripts/meta_oracle.py ../shared/corpus -o tests/data/meta_oracle.json
"""

from __future__ import annotations

import argparse
import datetime
import json
import platform
import sys
from pathlib import Path

VISION_MARKERS = ("visual", "vision_model", "vision_tower", "multi_modal_projector")


def count(config_path: Path) -> dict | None:
    import torch
    import transformers
    from transformers import AutoModelForCausalLM
    from transformers.models.auto.configuration_auto import CONFIG_MAPPING

    raw = json.loads(config_path.read_text())
    mt = raw.get("model_type")
    if mt not in CONFIG_MAPPING:
        return None
    data = {k: v for k, v in raw.items() if k not in ("auto_map", "quantization_config")}
    cfg = CONFIG_MAPPING[mt](**data)
    arch = (raw.get("architectures") or [None])[0]
    cls = getattr(transformers, arch, None) if arch else None
    with torch.device("meta"):
        model = cls._from_config(cfg) if cls is not None else AutoModelForCausalLM.from_config(cfg)
    total = vision = 0
    for name, p in model.named_parameters():
        total += p.numel()
        if any(m in name for m in VISION_MARKERS):
            vision += p.numel()
    emb = model.get_input_embeddings()
    out = model.get_output_embeddings()
    untied = out is not None and out.weight is not emb.weight  # meta tensors share data_ptr 0: compare objects
    return {
        "model_type": mt, "class": type(model).__name__, "total": total, "language_model": total - vision,
        "vision": vision, "embedding": emb.weight.numel(),
        "lm_head": out.weight.numel() if (out is not None and untied) else 0,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus", type=Path)
    ap.add_argument("-o", "--out", type=Path, required=True)
    args = ap.parse_args()
    import torch
    import transformers

    results = {}
    for cfg in sorted(args.corpus.glob("*/config.json")):
        res = count(cfg)
        if res is not None:
            results[cfg.parent.name] = res
            print(f"{cfg.parent.name:45s} {res['class']:40s} {res['language_model']:>16,d} vision {res['vision']:,d}")
    doc = {
        "command": "python scripts/meta_oracle.py ../shared/corpus -o tests/data/meta_oracle.json",
        "generated": datetime.date.today().isoformat(),
        "versions": {"transformers": transformers.__version__, "torch": torch.__version__,
                     "python": platform.python_version()},
        "models": results,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
