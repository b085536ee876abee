"""Which implementation each serving engine runs an architecture with (data/engine_models.json).

The engines choose by the config's ``architectures`` class name. vLLM 0.33.0 (vllm/model_executor/models/registry.py
``_ModelRegistry.inspect_model_cls``) runs its own implementation of any listed name, the Transformers backend for
the names of ``_TRANSFORMERS_SUPPORTED_MODELS``, and for a name it does not register falls back to the Transformers
backend when transformers defines the class (or the repo's ``auto_map`` an ``AutoModel``) and the class is
``is_backend_compatible()`` (``_supports_attention_backend``) or ``_can_set_attn_implementation()`` (its module has no
``*Attention*(nn.Module)`` class, or calls ``ALL_ATTENTION_FUNCTIONS.get_interface(``); else it raises. SGLang 0.5.23
(sglang/srt/model_loader/utils.py ``resolve_transformers_arch``) falls back the same way but accepts only
``is_backend_compatible()``. Both engines try that fallback before they report a class they removed
(``_PREVIOUSLY_SUPPORTED_MODELS``) or do not know. Both checks of transformers are read from the modeling source as
text (transformers' modeling_utils.py evaluates the second on the source too), of the transformers installed here
(the engine's environment may hold another version); a repository's own code is never read, so its compatibility
is left open. The class is looked up where transformers defines it (its model_type's modeling files, else the module
transformers' lazy import map names), as the engines resolve ``getattr(transformers, name)``.

vLLM also serves an unregistered class by swapping its suffix (vllm/config/model.py ``_SUFFIX_TO_DEFAULTS``,
registry ``_normalize_arch``): LlamaForSequenceClassification runs as its LlamaForCausalLM with a classify adapter,
before the Transformers backend is tried; a generate suffix (ForCausalLM, ...) only after it. On the Transformers
backend the config class's parallelism plans matter (``backend_plans`` in the table, read from the wheels): SGLang
0.5.23 refuses --tp-size > 1 without a ``base_model_tp_plan`` and PP > 1 without a ``base_model_pp_plan`` (a
composite config's text_config counts, as ``_get_model_tp_plan`` reads it) and replicates the linears a plan omits;
vLLM 0.33.0 shards by graph fusion where a plan is missing and only warns (:meth:`EngineSupport.layout_blocker`).

The cost model assumes each engine's own kernels; a sheet whose engine would run the Transformers backend, a plugin,
or nothing says so (rule S6).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from .architecture import ModelArch
from .resources import load_json

#: native: the engine's own implementation; transformers_backend: the engine lists the class on its Transformers
#: backend; transformers_fallback: not registered, the backend takes transformers' compatible class (or, with
#: --trust-remote-code, the repository's); plugin: an out-of-tree package; removed: an earlier version had it;
#: incompatible: transformers defines the class, but not for the backend; unsupported: nothing defines it (a class
#: name transformers does not know and no auto_map); unknown: the config names no class
Status = Literal["native", "transformers_backend", "transformers_fallback", "plugin", "removed", "incompatible",
                 "unsupported", "unknown"]
#: the statuses under which the engine refuses to load the model whatever the layout (CostModel.engine_blocker)
REFUSED = ("removed", "incompatible")
ENGINE_NAMES = {"vllm": "vLLM", "sglang": "SGLang"}
#: rule S6's severity per status (scorer.score.engine_findings, compare's risks): HARD where the engine cannot load
#: the model, PERF where it falls back to its Transformers backend, INFO for a listed backend class or a plugin
S6_SEVERITY = {"unsupported": "HARD", "incompatible": "HARD", "removed": "HARD", "transformers_fallback": "PERF",
               "transformers_backend": "INFO", "plugin": "INFO"}


@dataclass(frozen=True)
class EngineSupport:
    """How ``engine`` (at ``version``) would load the model: ``status`` and a one-line ``detail`` citing the source.

    ``architecture``: the class name it was decided by (None when the config names none)."""

    engine: str
    version: str
    architecture: str | None
    status: Status
    detail: str
    #: on the Transformers backend: the patterns of the config class's ``base_model_tp_plan`` (empty: none) and
    #: whether it has a ``base_model_pp_plan``; None elsewhere
    tp_plan: tuple[str, ...] | None = None
    pp_plan: bool | None = None
    #: the engine's data/engine_models.json ``backend_plans``: "required" or "inferred" per "tp" / "pp", what becomes
    #: of the linears a plan omits ("unplanned": "replicated", or "fused" where graph fusion shards them), and "src"
    plans: dict | None = None
    #: the engine's own implementation refuses PP > 1 (data/engine_models.json ``no_pp``; its source in ``no_pp_src``)
    no_pp: str | None = None
    #: the engine's own implementation cannot be an EAGLE-3 target (data/engine_models.json ``no_eagle3``; its source
    #: in ``no_eagle3_src``)
    no_eagle3: str | None = None

    @property
    def label(self) -> str:
        return f"{ENGINE_NAMES.get(self.engine, self.engine)} {self.version}"

    @property
    def summary(self) -> str:
        """One plain line for a launch command's notes (the finding holds :attr:`detail` with its sources)."""
        name = self.architecture or "the model"
        if self.status in ("transformers_backend", "transformers_fallback"):
            return (f"{self.label} runs {name} on its Transformers backend, not its own kernels: expect slower "
                    "steps than predicted (rule S6)")
        if self.status == "plugin":
            return f"{self.label} runs {name} only with its out-of-tree plugin installed (rule S6)"
        if self.status in REFUSED:
            return f"{self.label} cannot load {name}: this command fails as it stands (rule S6)"
        if self.status == "unsupported":
            return (f"{self.label} has no implementation of {name} yet: this command fails until it gains one; the "
                    "timings assume its own kernels (rule S6)")
        return self.detail

    @property
    def missing_plans(self) -> tuple[bool, bool]:
        """(TP > 1 refused, PP > 1 refused): the parallelism plans the engine's Transformers backend requires and
        the config class lacks (SGLang 0.5.23); (False, False) off the backend."""
        if self.tp_plan is None or not self.plans:
            return False, False
        return (not self.tp_plan and self.plans.get("tp") == "required",
                not self.pp_plan and self.plans.get("pp") == "required")

    def layout_blocker(self, tp: int, pp: int, speculative: str | None = None, dp: int = 1) -> str | None:
        """Why the engine refuses its tensor-parallel size ``tp`` (SGLang's --tp-size: attention TP x DP,
        scorer.quant.engine_tp_size) / PP ``pp`` for this model: its implementation has no pipeline support
        (:attr:`no_pp`), its Transformers backend lacks the config class's plans (:attr:`missing_plans`), or PP with
        the speculative method ``speculative`` ("mtp" / "eagle3", None: none) it does not run (data/engine_models.json
        ``pp_speculative``, SGLang 0.5.23: under attention DP ``dp`` > 1 not at all) — or None."""
        no_tp, no_pp = self.missing_plans
        name = self.architecture or "the model"
        if speculative == "eagle3" and self.no_eagle3:
            return (f"{self.label} cannot run EAGLE-3 speculative decoding on {name}: its implementation does not "
                    f"expose the hidden states an EAGLE-3 head reads ({self.no_eagle3}); try --speculative mtp where "
                    "the checkpoint has MTP layers, or none")
        if pp > 1 and self.no_pp:
            return f"{self.label} refuses PP {pp} for {name}: its implementation has no pipeline support ({self.no_pp})"
        rule = _table().get(self.engine, {}).get("pp_speculative") if pp > 1 and speculative else None
        if rule is not None:
            algo = {"mtp": "EAGLE", "eagle3": "EAGLE3"}.get(speculative, speculative.upper())
            if algo not in rule["algorithms"]:
                return (f"{self.label} refuses PP {pp} with {speculative} speculative decoding: pipeline parallelism "
                        f"runs only {' / '.join(rule['algorithms'])} drafting ({rule['src']})")
            if self.architecture in rule["multi_layer_eagle"]:
                return (f"{self.label} refuses PP {pp} with {speculative} speculative decoding for {name}: its model "
                        f"override turns on multi-layer EAGLE, which pipeline parallelism does not run ({rule['src']})")
            if dp > 1 and rule.get("env_refuses_attention_dp"):
                return (f"{self.label} refuses PP {pp} with {speculative} speculative decoding under attention DP "
                        f"{dp}: {rule.get('env')}, which PP speculation needs, refuses attention DP ({rule['src']})")
        if tp > 1 and no_tp:
            return (f"{self.label}'s Transformers backend refuses a tensor-parallel size of {tp} for {name}: its "
                    f"config class defines no base_model_tp_plan ({self.plans.get('src')})")
        if pp > 1 and no_pp:
            return (f"{self.label}'s Transformers backend refuses PP {pp} for {name}: its config class defines no "
                    f"base_model_pp_plan ({self.plans.get('src')})")
        return None

    def plan_note(self) -> str | None:
        """What the backend does with the config class's parallelism plans, or None."""
        if self.tp_plan is None or not self.plans:
            return None
        no_tp, no_pp = self.missing_plans
        if no_tp or no_pp:
            return "the backend refuses " + " and ".join(m for m, off in (
                ("TP > 1 (no base_model_tp_plan)", no_tp), ("PP > 1 (no base_model_pp_plan)", no_pp)) if off) \
                + " for this config class"
        if not self.tp_plan and self.plans.get("tp") == "inferred":
            return ("the config class defines no base_model_tp_plan: the backend shards what its graph fusion finds "
                    "and replicates the rest, where the predictions shard every projection")
        if self.tp_plan and self.plans.get("unplanned") == "replicated" and not any(
                "attn" in p or "attention" in p for p in self.tp_plan):
            return ("the config class's base_model_tp_plan shards no attention projection: the backend replicates "
                    "attention on every TP rank, where the predictions shard it")
        return None


@lru_cache(maxsize=1)
def _table() -> dict:
    return load_json("engine_models.json")


@lru_cache(maxsize=4)
def _native(engine: str) -> frozenset[str]:
    """The class names ``engine`` implements itself (built once: engine_support runs for every cost model)."""
    return frozenset(_table()[engine]["native"])


_ATTN_CLASS = re.compile(r"^class \w*Attention\w*\(nn\.Module\):", re.M)


@lru_cache(maxsize=64)
def _config_plans(model_type: str, text_model_type: str | None = None) -> tuple[tuple[str, ...], bool]:
    """(the keys of ``base_model_tp_plan``, whether ``base_model_pp_plan`` is set) of transformers' config class for
    ``model_type`` (class attributes, inherited ones included; a composite config's sub-configs as SGLang 0.5.23
    looks them up, sglang/srt/models/transformers.py _get_model_tp_plan / _get_model_pp_plan); ``((), False)`` for
    a type transformers does not know."""
    from .architecture.loader import _quiet_transformers
    _quiet_transformers()
    try:
        from transformers import CONFIG_MAPPING
        cls = CONFIG_MAPPING[model_type]
    except Exception:  # noqa: BLE001 - an unknown type (KeyError) or a broken optional import: no plan read
        return (), False
    subs = [c for c in (getattr(cls, "sub_configs", None) or {}).values() if isinstance(c, type)]
    text = (getattr(cls, "sub_configs", None) or {}).get("text_config")
    if text_model_type and text_model_type in CONFIG_MAPPING:  # the file's own text_config (an AutoConfig slot)
        text = CONFIG_MAPPING[text_model_type]
        subs.append(text)
    # SGLang's _get_model_tp_plan: the model's plan, its config's, its text_config's, then its children's configs';
    # _get_model_pp_plan: the model's, its config's or its text_config's
    tps = [getattr(c, "base_model_tp_plan", None) for c in (cls, *subs)]
    tp = next((x for x in tps if isinstance(x, dict) and x), None)
    pp = any(getattr(c, "base_model_pp_plan", None) for c in (cls, text) if isinstance(c, type))
    return (tuple(tp) if tp else ()), pp


@lru_cache(maxsize=64)
def _class_source(name: str, model_type: str) -> str:
    """The modeling source that defines transformers' class ``name`` (the engines resolve it as
    ``getattr(transformers, name)``, whatever the model_type): the model_type's own modeling files when they define
    it, else the module transformers' lazy import map names for it; "" when neither has it. ``name`` must be a
    plain identifier."""
    own = _family_source(model_type)
    if re.search(rf"^class {name}\(", own, re.M):  # the usual case, read without importing transformers
        return own
    from .architecture.kinds.heads import _transformers_root
    from .architecture.loader import _quiet_transformers
    root = _transformers_root()
    _quiet_transformers()
    try:
        import transformers
        module = (getattr(transformers, "_class_to_module", None) or {}).get(name)
    except Exception:  # noqa: BLE001 - a broken optional import: read the model_type's files instead
        module = None
    if module and root is not None:
        path = root.joinpath(*module.split(".")).with_suffix(".py")
        try:
            return path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            pass
    return own


@lru_cache(maxsize=64)
def _family_source(model_type: str) -> str:
    """The text of transformers' modeling files for ``model_type`` ("" when it has none). Read from
    ``models/<model_type>/modeling_*.py`` when that folder exists (no import: a sheet whose architecture is cached
    imports no transformers module), else through transformers' own type-to-module mapping."""
    from .architecture.kinds.heads import _modeling_sources, _transformers_root
    root = _transformers_root()
    folder = root / "models" / model_type.replace("-", "_") if root is not None and model_type else None
    files = sorted(folder.glob("modeling_*.py")) if folder is not None and folder.is_dir() else None
    if not files:  # no folder, or one without a modeling file of its own (glmga: its classes live elsewhere)
        from .architecture.loader import _quiet_transformers
        _quiet_transformers()
        files = _modeling_sources(model_type)
    text = ""
    for f in files:
        try:
            text += f.read_text(encoding="utf-8", errors="replace") + "\n"
        except OSError:
            continue
    return text


def _backend_compatible(text: str) -> tuple[bool, bool]:
    """(``is_backend_compatible()``, ``_can_set_attn_implementation()``) of the modeling source ``text``:
    ``_supports_attention_backend = True`` anywhere in the family's modeling files (the flag sits on its
    PreTrainedModel class), and transformers modeling_utils.py's heuristic on the module source."""
    if not text:
        return False, False
    flag = re.search(r"^\s+_supports_attention_backend\s*=\s*True\b", text, re.M) is not None
    settable = ("ALL_ATTENTION_FUNCTIONS.get_interface(" in text) if _ATTN_CLASS.search(text) else True
    return flag, settable


def engine_support(arch: ModelArch, engine: str) -> EngineSupport | None:
    """The implementation ``engine`` ("vllm" or "sglang") loads ``arch`` with; None for an engine the table does not
    hold (TensorRT-LLM is not read) or a model that is not a decoder (rule S3 covers those)."""
    table = _table().get(engine)
    if table is None or arch.kind != "decoder":
        return None
    version = table["version"]
    name = ENGINE_NAMES[engine]
    names = [a for a in arch.architectures if isinstance(a, str) and a.strip()]
    if not names:
        return EngineSupport(engine, version, None, "unknown",
                             f"config.json names no architectures: {name} chooses its implementation by that class "
                             "name")
    native = _native(engine)
    hit = next((a for a in names if a in native), None)
    no_pp = set(table.get("no_pp", ()))
    no_e3 = set(table.get("no_eagle3", ()))
    if hit is not None:
        return EngineSupport(engine, version, hit, "native", f"{name} {version} implements {hit} ({table['source']})",
                             no_pp=table.get("no_pp_src") if hit in no_pp else None,
                             no_eagle3=table.get("no_eagle3_src") if hit in no_e3 else None)
    conv = _converted(names, native, table.get("suffix_conversions"))
    converted = None if conv is None else EngineSupport(
        engine, version, conv[0], "native", f"{name} {version} runs {conv[0]} as its own {conv[1]}, converted to a "
                                            f"{conv[2]} model ({conv[3]}; {table['suffix_conversions']['src']})",
        no_pp=table.get("no_pp_src") if conv[1] in no_pp else None,
        no_eagle3=table.get("no_eagle3_src") if conv[1] in no_e3 else None)
    if converted is not None and conv[3] != "none":
        # a pooling / classify conversion: inspect_model_cls tries it before the Transformers backend
        return converted
    first = names[0]
    if first in table.get("backend_classes", ()):  # the backend's own class names (TransformersForCausalLM)
        return _with_plans(EngineSupport(engine, version, first, "transformers_backend",
                                         f"{name} {version} runs {first}, its Transformers backend "
                                         f"({table['source']})"), arch, table)
    if first in table.get("transformers_backend", ()):
        return _with_plans(EngineSupport(engine, version, first, "transformers_backend",
                                         f"{name} {version} runs {first} on its Transformers backend (listed in "
                                         f"_TRANSFORMERS_SUPPORTED_MODELS, {table['source']})"), arch, table)
    src = table["fallback_src"].split(":")[0]
    removed = table.get("removed", {}).get(first)
    was = f" (it implemented it until {removed})" if removed else ""
    plain = re.fullmatch(r"\w{1,200}", first) is not None  # a class name, safe inside the pattern below
    text = _class_source(first, arch.model_type or "") if plain else ""
    why = None
    if plain and re.search(rf"^class {first}\(", text, re.M):
        # the engine tries its Transformers backend before it reports the class removed or unknown
        flag, settable = _backend_compatible(text)
        if flag or (settable and engine == "vllm"):
            how = "_supports_attention_backend" if flag else "its attention calls ALL_ATTENTION_FUNCTIONS"
            return _with_plans(EngineSupport(engine, version, first, "transformers_fallback",
                                             f"{name} {version} has no implementation of {first}{was} and falls back "
                                             f"to its Transformers backend (transformers' class is compatible: {how}; "
                                             f"{src})"), arch, table)
        why = ("neither _supports_attention_backend nor an attention interface it can set" if engine == "vllm"
               else "no _supports_attention_backend")
    if converted is not None:  # a generate-suffix swap: after the Transformers backend found nothing it can run
        return converted
    if removed:
        return EngineSupport(engine, version, first, "removed",
                             f"{name} {version} no longer implements {first} (last in {removed}, "
                             f"_PREVIOUSLY_SUPPORTED_MODELS, {table['source']})"
                             + (f", and transformers' class is not compatible with its Transformers backend ({why})"
                                if why else ""))
    if first in table.get("plugins", {}):
        return EngineSupport(engine, version, first, "plugin",
                             f"{name} {version} implements {first} only in a plugin ({table['plugins'][first]})")
    if why is not None:
        return EngineSupport(engine, version, first, "incompatible",
                             f"{name} {version} has no implementation of {first}, and transformers' class is not "
                             f"compatible with its Transformers backend ({why}; {src})")
    if isinstance(arch.auto_map, dict) and any(str(k).startswith("AutoModel") for k in arch.auto_map):
        return EngineSupport(engine, version, first, "transformers_fallback",
                             f"{name} {version} has no implementation of {first}; with --trust-remote-code it tries "
                             "its Transformers backend on the repository's auto_map AutoModel, whose compatibility "
                             f"deploysheet does not read ({src})", no_eagle3=_backend_no_eagle3(table))
    return EngineSupport(engine, version, first, "unsupported",
                         f"{name} {version} has no implementation of {first}, and neither transformers nor an "
                         f"auto_map defines the class for its Transformers backend ({table['source']})")


def _backend_no_eagle3(table: dict) -> str | None:
    """The engine's Transformers backend cannot be an EAGLE-3 target (its TransformersForCausalLM is in
    ``no_eagle3``: SGLang 0.5.23 models/transformers.py defines no set_eagle3_layers_to_capture; vLLM 0.33.0's
    backend Base has SupportsEagle3), as its source says, else None."""
    return table.get("no_eagle3_src") if "TransformersForCausalLM" in table.get("no_eagle3", ()) else None


def _with_plans(s: EngineSupport, arch: ModelArch, table: dict) -> EngineSupport:
    """``s`` on the Transformers backend with the config class's parallelism plans and the engine's rule for them."""
    from dataclasses import replace
    tp, pp = _config_plans(arch.model_type or "", arch.text_model_type)
    s = replace(s, tp_plan=tp, pp_plan=pp, plans=table.get("backend_plans"), no_eagle3=_backend_no_eagle3(table))
    note = s.plan_note()
    return replace(s, detail=s.detail + "; " + note) if note else s


def _converted(names: list[str], native: set[str], conv: dict | None) -> tuple[str, str, str, str] | None:
    """(name, registered base class, runner, convert) where the engine serves an unregistered class by swapping its
    suffix for another's (vLLM ``_normalize_arch``: LlamaForSequenceClassification -> LlamaForCausalLM with a
    classify adapter), else None."""
    if not conv:
        return None
    order = conv["order"]
    for name in names:
        match = next((row for row in order if name.endswith(row[0])), None)
        if match is None:
            continue
        for repl, *_ in order:
            base = name.replace(match[0], repl)  # str.replace, as _normalize_arch
            if base in native:
                return name, base, match[1], match[2]
    return None
