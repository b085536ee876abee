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


#: base classes that add nothing to the question (torch's module, typing's generics)
_NEUTRAL_BASES = {"Module", "object", "Protocol", "Generic", "ABC"}


class _Classes:
    """Class definitions of an engine's model modules, read with ast from the wheel: each module's classes and the
    names it imports (``from .x import Y as Z``), so a class's bases resolve to the module that defines them."""

    def __init__(self, wheel: str, pattern: str):
        self.mods: dict[str, tuple[dict[str, ast.ClassDef], dict[str, tuple[str, str]]]] = {}
        with zipfile.ZipFile(wheel) as z:
            for info in z.infolist():
                if not re.fullmatch(pattern, info.filename):
                    continue
                tree = ast.parse(z.read(info).decode())
                classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
                imports = {}
                for n in ast.walk(tree):
                    if isinstance(n, ast.ImportFrom):
                        base = self._module_path(info.filename, n.module or "", n.level)
                        for a in n.names:
                            imports[a.asname or a.name] = (base, a.name)
                self.mods[info.filename] = (classes, imports)

    @staticmethod
    def _module_path(current: str, module: str, level: int) -> str:
        if level:
            parts = current.split("/")[:-level]
            return "/".join(parts + ([*module.split(".")] if module else [])) + ".py"
        return module.replace(".", "/") + ".py"

    def find(self, name: str, path: str, depth: int = 0) -> tuple[str, ast.ClassDef] | None:
        """(module path, class) of ``name`` as module ``path`` sees it, or None where it is defined elsewhere."""
        mod = self.mods.get(path) or self.mods.get(path[:-3] + "/__init__.py")
        if mod is None or depth > 8:
            return None
        classes, imports = mod
        if name in classes:
            return path if path in self.mods else path[:-3] + "/__init__.py", classes[name]
        if name in imports:
            target, orig = imports[name]
            return self.find(orig, target, depth + 1)
        return None

    def walk(self, name: str, path: str):
        """The classes of ``name``'s MRO that resolve, depth-first left to right (C3 for the single-line
        hierarchies of model classes), as (base names, class); a base that does not resolve yields (name, None)."""
        seen: set[tuple[str, str]] = set()

        def visit(n: str, p: str):
            hit = self.find(n, p)
            if hit is None:
                yield n, None
                return
            mp, cls = hit
            if (mp, cls.name) in seen:
                return
            seen.add((mp, cls.name))
            yield n, cls
            for b in cls.bases:
                b = b.value if isinstance(b, ast.Subscript) else b
                bn = b.id if isinstance(b, ast.Name) else b.attr if isinstance(b, ast.Attribute) else None
                if bn and bn not in _NEUTRAL_BASES:
                    yield from visit(bn, mp)
        yield from visit(name, path)


def _forward_params(cls: ast.ClassDef) -> list[str] | None:
    """The named parameters of ``cls``'s own ``forward`` (``**name`` last, as ``**name``, where it has one), or
    None where the class defines none."""
    for node in cls.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == "forward":
            a = node.args
            return [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs] + ([f"**{a.kwarg.arg}"] if a.kwarg else [])
    return None


def _defines(cls: ast.ClassDef, method: str) -> bool:
    return any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == method for n in cls.body)


def _interface(name: str) -> bool:
    """A capability mix-in (SupportsLoRA, HasInnerState, IsHybrid ...): it decides nothing about PP but SupportsPP."""
    return re.fullmatch(r"(Supports|Has|Is)[A-Z]\w*", name) is not None


VLLM_MODELS = r"vllm/(model_executor/)?models/.+\.py"
SGLANG_MODELS = r"sglang/srt/models/.+\.py"


def _vllm_own(models: dict[str, object]):
    """(architecture, class name, module path) of each vLLM registry entry it implements itself."""
    for arch, (module, cls) in models.items():
        if module != "transformers":
            yield arch, cls, (module.replace(".", "/") + ".py") if "." in module \
                else f"vllm/model_executor/models/{module}.py"


def vllm_no_pp(wheel: str, models: dict[str, object], cl: _Classes | None = None) -> list[str]:
    """vLLM's own architectures that refuse PP > 1: vllm/config/model.py verify_with_parallel_config raises
    NotImplementedError where registry.is_pp_supported_model is False, i.e. where interfaces.py supports_pp fails:
    SupportsPP is not in the class's MRO, or its forward takes no ``intermediate_tensors``. An architecture whose
    bases do not all resolve in the model modules is left out (not known)."""
    cl = cl or _Classes(wheel, VLLM_MODELS)
    out = []
    for arch, cls, path in _vllm_own(models):
        iface, fwd, unknown = False, None, False
        for n, c in cl.walk(cls, path):
            if n == "SupportsPP":
                iface = True
            elif c is None:
                unknown = unknown or not _interface(n)
            elif fwd is None:
                fwd = _forward_params(c)
        # vllm/utils/func_utils.py _supports_kw (allow_var_kwargs=True): a named parameter, or a **kwargs last
        if iface and fwd is not None and ("intermediate_tensors" in fwd or (fwd and fwd[-1].startswith("**"))):
            continue
        if not unknown and (fwd is not None or not iface):
            out.append(arch)
    return sorted(out)


def sglang_no_pp(wheel: str, names: set[str], where: dict[str, str], cl: _Classes | None = None) -> list[str]:
    """SGLang's own architectures that refuse PP > 1: model_executor/model_runner.py asserts "Pipeline Parallel is
    not compatible with this model" where ``pp_proxy_tensors`` is not a parameter of the model's forward (a
    ``**kwargs`` one does not count, as inspect.signature reads it). A class with no forward that hands attribute
    look-ups to an inner model (``__getattr__``, as minicpmv.py's MiniCPMV does) is judged by the model forwards of
    its module (those taking ``forward_batch``): refused where none takes ``pp_proxy_tensors``. Left out where no
    forward resolves."""
    cl = cl or _Classes(wheel, SGLANG_MODELS)
    out = []
    for name in names:
        fwd, delegates = None, False
        for _n, c in cl.walk(name, where[name]):
            if c is None:
                continue
            if (fwd := _forward_params(c)) is not None:
                break
            delegates = delegates or _defines(c, "__getattr__")
        if fwd is None and delegates:
            inner = [f for c in cl.mods[where[name]][0].values() if (f := _forward_params(c)) and "forward_batch" in f]
            if inner and not any("pp_proxy_tensors" in f for f in inner):
                fwd = inner[0]
        if fwd is not None and "pp_proxy_tensors" not in fwd:
            out.append(name)
    return sorted(out)


SGLANG_PP_CHECK = "sglang/srt/arg_groups/validation_hook.py"
_MULTI_LAYER = 'overrides["enable_multi_layer_eagle"] = True'


def sglang_pp_speculative(wheel: str) -> dict:
    """What SGLang runs under PP > 1 with speculative decoding: validation_hook.py check_pipeline_parallel_compat
    accepts only the EAGLE algorithm (NEXTN resolves to EAGLE) without multi-layer EAGLE; the architectures whose
    model overrides switch multi-layer EAGLE on (arg_groups/overrides.py and arg_groups/model_overrides/*.py:
    the class names in the decorator of a function that sets ``enable_multi_layer_eagle``) are read here."""
    with zipfile.ZipFile(wheel) as z:
        check = z.read(SGLANG_PP_CHECK).decode()
        if 'cfg.speculative_algorithm.upper() == "EAGLE"\n            and not cfg.enable_multi_layer_eagle' not in check:
            raise SystemExit(f"{wheel}: {SGLANG_PP_CHECK} no longer limits PP speculation to EAGLE; read it again")
        # outside a PD prefill node the environment variable is required, and it refuses attention DP
        env = re.search(r"if envs\.(SGLANG_\w+)\.get\(\):\n(?:.*\n){0,30}?\s+assert not attn_dp_enabled_of\(cfg\)",
                        check)
        environ = z.read("sglang/srt/environ.py").decode()
        if env is None or f"{env.group(1)} = EnvBool(False)" not in environ or \
                "PP + speculative decoding (MTP) is only supported on prefill nodes" not in check:
            raise SystemExit(f"{wheel}: {SGLANG_PP_CHECK} no longer gates PP speculation on an environment variable "
                             "that refuses attention DP; read it again")
        archs: set[str] = set()
        for info in z.infolist():
            if not re.fullmatch(r"sglang/srt/arg_groups/(overrides|model_overrides/[^/]+)\.py", info.filename):
                continue
            src = z.read(info).decode()
            if _MULTI_LAYER not in src:
                continue
            for node in ast.parse(src).body:
                if isinstance(node, ast.FunctionDef) and _MULTI_LAYER in (ast.get_source_segment(src, node) or ""):
                    for d in node.decorator_list:
                        archs |= {c.value for c in ast.walk(d) if isinstance(c, ast.Constant)
                                  and isinstance(c.value, str) and re.fullmatch(r"[A-Z]\w+", c.value)}
    v = _version(wheel)
    return {"algorithms": ["EAGLE"], "multi_layer_eagle": sorted(archs), "env": env.group(1),
            "env_refuses_attention_dp": True,
            "src": f"{SGLANG_PP_CHECK} check_pipeline_parallel_compat (sglang=={v}): at --pp-size > 1 the speculative "
                   "algorithm must be EAGLE (NEXTN is an alias of it, arg_groups/speculative_hook.py; EAGLE3 is "
                   "refused) without --enable-multi-layer-eagle, which the model overrides of multi_layer_eagle set "
                   f"for EAGLE; outside a disaggregated prefill node only with {env.group(1)}=1 (sglang/srt/"
                   "environ.py, default False), which refuses attention DP (read by scripts/engine_registry.py)"}


def _assigns(cls: ast.ClassDef, name: str) -> bool:
    return any(isinstance(n, (ast.Assign, ast.AnnAssign)) and any(
        isinstance(t, ast.Name) and t.id == name for t in (n.targets if isinstance(n, ast.Assign) else [n.target]))
        for n in cls.body)


def vllm_no_eagle3(wheel: str, models: dict[str, object], cl: _Classes | None = None) -> list[str]:
    """vLLM's own architectures that cannot be EAGLE-3 targets: v1/worker/gpu_model_runner.py
    _setup_eagle3_aux_hidden_state_outputs raises "Model does not support EAGLE3 interface" unless
    interfaces.py supports_eagle3 (isinstance of the runtime-checkable SupportsEagle3): SupportsEagle3 in the MRO
    or a class of it setting ``supports_eagle3``. Left out where a base does not resolve."""
    cl = cl or _Classes(wheel, VLLM_MODELS)
    out = []
    for arch, cls, path in _vllm_own(models):
        found, unknown = False, False
        for n, c in cl.walk(cls, path):
            if n == "SupportsEagle3" or (c is not None and _assigns(c, "supports_eagle3")):
                found = True
                break
            if c is None and not _interface(n):
                unknown = True
        if not found and not unknown:
            out.append(arch)
    return sorted(out)


VLLM_CONFIG_HOOKS = "vllm/model_executor/models/config.py"


def vllm_hook_no_eagle3(wheel: str) -> list[str]:
    """Architectures whose vLLM config hook (model_executor/models/config.py MODELS_CONFIG_MAP: a
    VerifyAndUpdateConfig class; its bases' hooks count where it inherits or calls them) raises for a speculative
    method outside a set without eagle3 (``spec_config.method not in {...}``: Qwen4Exp takes mtp and n-gram only)."""
    with zipfile.ZipFile(wheel) as z:
        src = z.read(VLLM_CONFIG_HOOKS).decode()
    tree = ast.parse(src)
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    mapping: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Dict):
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            if isinstance(target, ast.Name) and target.id == "MODELS_CONFIG_MAP":
                for k, v in zip(node.value.keys, node.value.values):
                    if isinstance(k, ast.Constant) and isinstance(v, ast.Name):
                        mapping[k.value] = v.id
    if not mapping:
        raise SystemExit(f"{wheel}: {VLLM_CONFIG_HOOKS} has no MODELS_CONFIG_MAP; read it again")

    def refuses(name: str, depth: int = 0) -> bool:
        cls = classes.get(name)
        if cls is None or depth > 8:
            return False
        for fn in cls.body:
            if isinstance(fn, ast.FunctionDef) and fn.name == "verify_and_update_config":
                m = re.search(r"spec_config\.method not in \{([^}]*)\}", ast.get_source_segment(src, fn) or "")
                if m and "eagle3" not in m.group(1):
                    return True
        return any(refuses(b.id, depth + 1) for b in cls.bases if isinstance(b, ast.Name))
    return sorted(a for a, c in mapping.items() if refuses(c))


def sglang_no_eagle3(wheel: str, names: set[str], where: dict[str, str],
                     cl: _Classes | None = None) -> list[str]:
    """SGLang's own architectures that cannot be EAGLE-3 targets: model_executor/model_runner_components/
    attention_backend_setup.py configure_aux_hidden_state_capture raises unless the model has
    ``set_eagle3_layers_to_capture``. Left out where a base does not resolve or attributes are delegated
    (``__getattr__``)."""
    cl = cl or _Classes(wheel, SGLANG_MODELS)
    out = []
    for name in names:
        found, unknown = False, False
        for _n, c in cl.walk(name, where[name]):
            if c is None or _defines(c, "__getattr__"):
                unknown = True
                continue
            if _defines(c, "set_eagle3_layers_to_capture"):
                found = True
                break
        if not found and not unknown:
            out.append(name)
    return sorted(out)


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
    classes = _Classes(wheel, VLLM_MODELS)  # the model modules, parsed once for the PP and EAGLE-3 readers
    with zipfile.ZipFile(wheel) as z:
        check = z.read("vllm/config/model.py").decode()
    with zipfile.ZipFile(wheel) as z:
        runner = z.read("vllm/v1/worker/gpu_model_runner.py").decode()
    if "if not supports_eagle3(self.get_model()):" not in runner:
        raise SystemExit(f"{wheel}: gpu_model_runner.py no longer checks supports_eagle3; read it again")
    if "is_pp_supported_model" not in check or "Pipeline parallelism is not supported for this model" not in check:
        raise SystemExit(f"{wheel}: vllm/config/model.py no longer refuses PP for models without SupportsPP; read it")
    return {"version": _version(wheel), "source": f"{VLLM_REGISTRY} (vllm=={_version(wheel)})",
            "native": native, "no_pp": vllm_no_pp(wheel, models, classes),
            "no_eagle3": sorted(set(vllm_no_eagle3(wheel, models, classes)) | set(vllm_hook_no_eagle3(wheel))),
            "no_eagle3_src": f"v1/worker/gpu_model_runner.py _setup_eagle3_aux_hidden_state_outputs raises \"Model "
                             "does not support EAGLE3 interface\" unless model_executor/models/interfaces.py "
                             "supports_eagle3 (SupportsEagle3 in the MRO), or the architecture's config hook "
                             "(model_executor/models/config.py MODELS_CONFIG_MAP) refuses eagle3 "
                             f"(vllm=={_version(wheel)}; read with ast by scripts/engine_registry.py)",
            "no_pp_src": f"vllm/config/model.py verify_with_parallel_config raises NotImplementedError at PP > 1 "
                         f"where model_executor/models/interfaces.py supports_pp fails: SupportsPP not in the "
                         f"class's MRO or no intermediate_tensors in its forward (vllm=={_version(wheel)}; read "
                         "with ast by scripts/engine_registry.py)",
            "transformers_backend": sorted(via_tf),
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
    where: dict[str, str] = {}
    with zipfile.ZipFile(wheel) as z:
        runner = z.read("sglang/srt/model_executor/model_runner.py").decode()
        setup = z.read("sglang/srt/model_executor/model_runner_components/attention_backend_setup.py").decode()
        if 'if not hasattr(model, "set_eagle3_layers_to_capture"):' not in setup:
            raise SystemExit(f"{wheel}: attention_backend_setup.py no longer checks set_eagle3_layers_to_capture")
        if '"pp_proxy_tensors" in inspect.signature(self.model.forward).parameters' not in runner or \
                "Pipeline Parallel is not compatible with this model." not in runner:
            raise SystemExit(f"{wheel}: model_runner.py no longer tests forward for pp_proxy_tensors; read it again")
        for info in z.infolist():
            if not re.fullmatch(r"sglang/srt/models/[^/]+\.py", info.filename):
                continue
            tree = ast.parse(z.read(info).decode())
            for node in tree.body:
                if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "EntryClass"
                                                        for t in node.targets):
                    vals = node.value.elts if isinstance(node.value, (ast.List, ast.Tuple)) else [node.value]
                    for v in vals:
                        if isinstance(v, ast.Name):
                            names.add(v.id)
                            where.setdefault(v.id, info.filename)
    v = _version(wheel)
    classes = _Classes(wheel, SGLANG_MODELS)  # parsed once for the PP and EAGLE-3 readers
    tf = "sglang/srt/models/transformers.py"
    plans = _plans(wheel, tf, {"tp": "does not support tensor parallel yet", "pp": "does not support pipeline parallel yet"},
                   {})
    return {"version": v, "source": f"sglang/srt/models/*.py EntryClass (sglang=={v}; registered by class name in "
                                    "sglang/srt/models/registry.py import_model_classes)",
            "native": sorted(names), "no_pp": sglang_no_pp(wheel, names, where, classes),
            "pp_speculative": sglang_pp_speculative(wheel),
            "no_eagle3": sglang_no_eagle3(wheel, names, where, classes),
            "no_eagle3_src": f"sglang/srt/model_executor/model_runner_components/attention_backend_setup.py "
                             f"(sglang=={v}) configure_aux_hidden_state_capture raises unless the model has "
                             "set_eagle3_layers_to_capture (read with ast by scripts/engine_registry.py)",
            "no_pp_src": f"sglang/srt/model_executor/model_runner.py (sglang=={v}) asserts \"Pipeline Parallel is not "
                         "compatible with this model.\" at --pp-size > 1 where the model's forward has no "
                         "pp_proxy_tensors parameter (read with ast by scripts/engine_registry.py)",
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
