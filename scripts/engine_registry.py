"""Write data/engine_models.json: the model classes each serving engine implements, read from its wheel.

    pip download vllm==0.33.0 sglang==0.5.23 --no-deps -d /tmp/wheels
    python scripts/engine_registry.py /tmp/wheels/vllm-0.33.0-*.whl /tmp/wheels/sglang-0.5.23-*.whl data/engine_models.json

vLLM: the dict literals of vllm/model_executor/models/registry.py (parsed with ast, nothing imported):
``_VLLM_MODELS`` entries whose module is not ``transformers`` are vLLM's own implementations,
``_TRANSFORMERS_SUPPORTED_MODELS`` run on its Transformers backend, ``_PREVIOUSLY_SUPPORTED_MODELS`` were removed
(the last version that had them), ``_OOT_SUPPORTED_MODELS`` live in plugins. SGLang: the ``EntryClass`` of every
module of sglang/srt/models (sglang/srt/models/registry.py ``import_model_classes`` registers them by class name).
"""

from __future__ import annotations

import ast
import json
import re
import sys
import zipfile
from pathlib import Path

VLLM_REGISTRY = "vllm/model_executor/models/registry.py"


def _version(wheel: str) -> str:
    return Path(wheel).name.split("-")[1]


def _dicts(tree: ast.Module) -> dict[str, ast.Dict]:
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and isinstance(node.value, ast.Dict):
            out[node.targets[0].id] = node.value
    return out


def _entries(d: ast.Dict, dicts: dict[str, ast.Dict]) -> dict[str, object]:
    out: dict[str, object] = {}
    for k, v in zip(d.keys, d.values):
        if k is None and isinstance(v, ast.Name):  # **_OTHER
            out.update(_entries(dicts[v.id], dicts))
        elif k is None:  # **{k: v for k, v in _TEXT_GENERATION_MODELS.items() if ...}: keys already listed there
            continue
        else:
            out[ast.literal_eval(k)] = ast.literal_eval(v)
    return out


def _plans(wheel: str, path: str, needs: dict[str, str], infers: dict[str, str]) -> dict[str, str]:
    """What the engine's Transformers backend does with a model whose config class has no tensor- / pipeline-parallel
    plan (``base_model_tp_plan`` / ``base_model_pp_plan``): "required" where ``path`` raises the ``needs`` message,
    "inferred" where it logs the ``infers`` warning and goes on (each read from the wheel's source)."""
    with zipfile.ZipFile(wheel) as z:
        src = z.read(path).decode()
    out = {}
    for kind in ("tp", "pp"):
        if needs.get(kind) and needs[kind] in src:
            out[kind] = "required"
        elif infers.get(kind) and infers[kind] in src:
            out[kind] = "inferred"
        else:
            raise SystemExit(f"{wheel}: {path} has neither message for the {kind} plan; read it again")
    if 'get(pattern, "replicate")' not in src:
        raise SystemExit(f"{wheel}: {path} no longer replicates the linears its plan omits; read it again")
    # linears the plan omits: replicated, unless the backend first fuses them by tracing the module (vLLM's Fusers)
    out["unplanned"] = "fused" if "Fusers(" in src else "replicated"
    return out


VLLM_SUFFIXES = "vllm/config/model.py"


def _suffix_defaults(wheel: str) -> list[list[str]]:
    """vLLM's ``_SUFFIX_TO_DEFAULTS``: (class-name suffix, runner, convert) in priority order; ``_normalize_arch``
    swaps a matched suffix for each in turn to find a registered base class to convert."""
    with zipfile.ZipFile(wheel) as z:
        tree = ast.parse(z.read(VLLM_SUFFIXES).decode())
    for node in tree.body:
        target = node.target if isinstance(node, ast.AnnAssign) else (
            node.targets[0] if isinstance(node, ast.Assign) else None)
        if isinstance(target, ast.Name) and target.id == "_SUFFIX_TO_DEFAULTS":
            return [[e.elts[0].value, *(x.value for x in e.elts[1].elts)] for e in node.value.elts]
    raise SystemExit(f"{wheel}: {VLLM_SUFFIXES} has no _SUFFIX_TO_DEFAULTS; read it again")


def vllm(wheel: str) -> dict:
    with zipfile.ZipFile(wheel) as z:
        src = z.read(VLLM_REGISTRY).decode()
    base = "vllm/model_executor/models/transformers/base.py"
    plans = _plans(wheel, base, {"tp": "does not support tensor parallel", "pp": "does not support pipeline parallel"},
                   {"tp": "does not define a tensor parallel plan", "pp": "does not define a pipeline parallel plan"})
    dicts = _dicts(ast.parse(src))
    models = _entries(dicts["_VLLM_MODELS"], dicts)
    via_tf = _entries(dicts["_TRANSFORMERS_SUPPORTED_MODELS"], dicts)
    backend = _entries(dicts["_TRANSFORMERS_BACKEND_MODELS"], dicts)
    native = sorted(a for a, (module, _cls) in models.items() if module != "transformers")
    return {"version": _version(wheel), "source": f"{VLLM_REGISTRY} (vllm=={_version(wheel)})",
            "native": native, "transformers_backend": sorted(via_tf),
            "backend_classes": sorted(backend),
            "removed": dict(sorted(_entries(dicts["_PREVIOUSLY_SUPPORTED_MODELS"], dicts).items())),
            "plugins": dict(sorted(_entries(dicts["_OOT_SUPPORTED_MODELS"], dicts).items())),
            "suffix_conversions": {"order": _suffix_defaults(wheel),
                                   "src": f"{VLLM_SUFFIXES} _SUFFIX_TO_DEFAULTS, {VLLM_REGISTRY} _normalize_arch "
                                          f"(vllm=={_version(wheel)})"},
            "backend_plans": {**plans, "src": f"{base} tensor_parallel / pipeline_parallel (vllm=={_version(wheel)}): "
                                               "without a plan it warns, shards what its graph fusion finds and "
                                               "replicates the rest; a linear neither a plan nor a fusion covers is "
                                               "replicated"},
            "fallback_src": f"{VLLM_REGISTRY} _ModelRegistry.inspect_model_cls / _try_resolve_transformers: an "
                            "architecture vLLM does not register runs on the Transformers backend when transformers "
                            "defines the class (or the repo's auto_map an AutoModel) and the class "
                            "is_backend_compatible() (_supports_attention_backend) or _can_set_attn_implementation(); "
                            "otherwise vLLM raises"}


def sglang(wheel: str) -> dict:
    names: set[str] = set()
    with zipfile.ZipFile(wheel) as z:
        for info in z.infolist():
            if not re.fullmatch(r"sglang/srt/models/[^/]+\.py", info.filename):
                continue
            tree = ast.parse(z.read(info).decode())
            for node in tree.body:
                if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "EntryClass"
                                                        for t in node.targets):
                    vals = node.value.elts if isinstance(node.value, (ast.List, ast.Tuple)) else [node.value]
                    names.update(v.id for v in vals if isinstance(v, ast.Name))
    v = _version(wheel)
    tf = "sglang/srt/models/transformers.py"
    plans = _plans(wheel, tf, {"tp": "does not support tensor parallel yet", "pp": "does not support pipeline parallel yet"},
                   {})
    return {"version": v, "source": f"sglang/srt/models/*.py EntryClass (sglang=={v}; registered by class name in "
                                    "sglang/srt/models/registry.py import_model_classes)",
            "native": sorted(names),
            "backend_plans": {**plans, "src": f"{tf} recursive_replace / pipeline_parallel (sglang=={v}): raises "
                                               "ValueError at TP > 1 without a tensor-parallel plan and at PP > 1 "
                                               "without a pipeline plan; linears a plan omits are replicated"},
            "fallback_src": "sglang/srt/model_loader/utils.py resolve_transformers_arch: an architecture SGLang does "
                            "not implement falls back to its Transformers backend when transformers defines the class "
                            "(or the repo's auto_map an AutoModel) and the class is_backend_compatible(), else raises "
                            "(\"Some features may not be supported and performance may not be optimal\")"}


def main() -> int:
    vw, sw, out = sys.argv[1:4]
    data = {"about": "Model classes each serving engine implements, read from its wheel by scripts/engine_registry.py "
                     "(command in its docstring). scorer/engine_models.py decides per architecture: the engine's own "
                     "implementation, its Transformers backend, a plugin, removed, or none.",
            "vllm": vllm(vw), "sglang": sglang(sw)}
    Path(out).write_text(json.dumps(data, indent=1) + "\n")
    print(f"vllm {data['vllm']['version']}: {len(data['vllm']['native'])} native, "
          f"{len(data['vllm']['transformers_backend'])} on the Transformers backend; "
          f"sglang {data['sglang']['version']}: {len(data['sglang']['native'])} native; wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
