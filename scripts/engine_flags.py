"""Read the command-line flags each serving engine accepts from its own wheel (data/engine_flags.json).

    pip download vllm==0.33.0 --no-deps -d /tmp/wheels
    pip download sglang==0.5.23 --no-deps -d /tmp/wheels
    python scripts/engine_flags.py /tmp/wheels/vllm-0.33.0-*.whl /tmp/wheels/sglang-0.5.23-*.whl \
        -o data/engine_flags.json

* vLLM: every ``add_argument("--flag", ...)`` of ``vllm/engine/arg_utils.py`` (EngineArgs.add_cli_args; the
  engine flags ``vllm serve`` takes) and of ``vllm/entrypoints/openai/cli_args.py`` (the server's own);
* SGLang: every field of ``sglang/srt/arg_groups/fields/*.py`` declared ``A[type, Arg(...)]`` or
  ``A[type, "help"]``, as ``add_cli_args_from_dataclass`` (``sglang/srt/arg_groups/arg_utils.py``) turns it into
  a flag: ``Arg.cli_name`` or ``--`` + the field name with ``_`` as ``-``, plus ``Arg.aliases``; ``no_cli``
  fields are skipped; and every literal ``add_argument("--flag"`` elsewhere under ``sglang/srt/``.

TensorRT-LLM is not read: its PyPI package is a stub that fetches the wheel from pypi.nvidia.com.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import zipfile
from pathlib import Path

ADD_ARGUMENT = re.compile(r'add_argument\(\s*((?:"-{1,2}[A-Za-z0-9-]+"\s*,\s*)+)')
FLAG = re.compile(r'"(-{1,2}[A-Za-z0-9-]+)"')


def _literal_flags(text: str) -> set[str]:
    out: set[str] = set()
    for m in ADD_ARGUMENT.finditer(text):
        out |= set(FLAG.findall(m.group(1)))
    return out


def vllm_flags(wheel: zipfile.ZipFile) -> tuple[set[str], list[str]]:
    files = [n for n in wheel.namelist() if n in ("vllm/engine/arg_utils.py", "vllm/entrypoints/openai/cli_args.py")]
    flags: set[str] = set()
    for n in files:
        flags |= _literal_flags(wheel.read(n).decode("utf-8"))
    return flags, files


def _arg_meta(node: ast.AST) -> dict | None:
    """The keywords of an ``Arg(...)`` call inside an ``A[...]`` annotation (a bare string: {}), else None."""
    if not (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "A"):
        return None
    elts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    for e in elts[1:]:
        if isinstance(e, ast.Constant) and isinstance(e.value, str):
            return {}
        if isinstance(e, ast.Call) and getattr(e.func, "id", None) == "Arg":
            meta = {}
            for kw in e.keywords:
                try:
                    meta[kw.arg] = ast.literal_eval(kw.value)
                except ValueError:
                    meta[kw.arg] = None
            return meta
    return None


def sglang_flags(wheel: zipfile.ZipFile) -> tuple[set[str], list[str]]:
    fields = sorted(n for n in wheel.namelist() if re.fullmatch(r"sglang/srt/arg_groups/fields/[a-z_]+\.py", n))
    flags: set[str] = set()
    for n in fields:
        tree = ast.parse(wheel.read(n).decode("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                meta = _arg_meta(node.annotation)
                if meta is None or meta.get("no_cli"):
                    continue
                flags.add(meta.get("cli_name") or "--" + node.target.id.replace("_", "-"))
                flags |= set(meta.get("aliases") or [])
    others = sorted(n for n in wheel.namelist() if n.startswith("sglang/srt/") and n.endswith(".py")
                    and "arg_groups/fields/" not in n)
    used = []
    for n in others:
        found = _literal_flags(wheel.read(n).decode("utf-8", errors="replace"))
        if found:
            flags |= found
            used.append(n)
    return flags, fields + used


def version_of(wheel_path: str) -> str:
    return Path(wheel_path).name.split("-")[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("vllm_wheel")
    ap.add_argument("sglang_wheel")
    ap.add_argument("-o", "--out", required=True)
    args = ap.parse_args()
    doc = {"about": "Flags each engine's CLI accepts, read from its wheel by scripts/engine_flags.py (see its "
                    "docstring); scorer/launch.py emits only these.",
           "command": "python scripts/engine_flags.py vllm-<v>.whl sglang-<v>.whl -o data/engine_flags.json",
           "engines": {}}
    for name, path, reader, cmd in (("vllm", args.vllm_wheel, vllm_flags, "vllm serve"),
                                    ("sglang", args.sglang_wheel, sglang_flags, "python -m sglang.launch_server")):
        with zipfile.ZipFile(path) as whl:
            flags, files = reader(whl)
        doc["engines"][name] = {"version": version_of(path), "command": cmd, "flags": sorted(flags),
                                "files": files if len(files) <= 12 else files[:12] + [f"... {len(files) - 12} more"]}
        print(f"{name} {version_of(path)}: {len(flags)} flags from {len(files)} files")
    doc["engines"]["trtllm"] = {"version": None, "command": "trtllm-serve", "flags": [],
                                "files": [], "note": "not read: the tensorrt-llm PyPI package is a stub that "
                                                     "downloads its wheel from pypi.nvidia.com, which the machine "
                                                     "that wrote this table could not reach"}
    Path(args.out).write_text(json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    main()
