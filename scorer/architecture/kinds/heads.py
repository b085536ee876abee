"""The output head of a decoder checkpoint, from its ``architectures`` class name.

Most decoder checkpoints are ``*ForCausalLM`` / ``*ForConditionalGeneration``: a vocabulary-wide ``lm_head``
(tied or not). Reward models, classifiers and embedding models ship the same decoder stack with another head,
and their safetensors hold no ``lm_head``:

* ``*ForSequenceClassification`` (reward models): transformers 5.x's ``GenericForSequenceClassification``
  (``modeling_layers.py``) builds ``score = nn.Linear(hidden, num_labels, bias=False)``;
* ``*ForTokenClassification``: ``GenericForTokenClassification`` builds ``score = nn.Linear(hidden, num_labels,
  bias=config.token_classification_bias (default True))``;
* ``*ForQuestionAnswering``: ``GenericForQuestionAnswering`` builds ``qa_outputs = nn.Linear(hidden, 2)`` with a
  bias;
* ``<Family>Model`` (an embedding model such as e5-mistral's ``MistralModel``): the bare stack, no head — when
  it is the class transformers' AutoModel builds for the family (``MODEL_MAPPING_NAMES``; GPT2DoubleHeadsModel is
  not a bare stack) and the repo's own code, if any (``auto_map``), maps AutoModel to it and not its causal LM;
* a repo's own reward class (``Qwen2ForRewardModel``, ``...ForProcessRewardModel``): no lm_head, a head whose
  shape is not read (counted as a 1-output linear, a guess).

A family's class is known to be the generic one when its modeling source says ``class <Name>(Generic...``;
a class of its own (GPT-2, BLOOM, ...) is counted the same way and labelled estimated. ``num_labels`` is
the config's ``num_labels`` when given, else the length of ``id2label``, else 2 (as ``PretrainedConfig`` reads
them: :func:`config_labels`).
"""

from __future__ import annotations

import functools
import importlib.util
import re
import sys
from pathlib import Path
from typing import Any

from ..specs import TaskHead

#: class-name suffix -> transformers' generic class of that head (modeling_layers.py)
_HEADS = {"ForSequenceClassification": "GenericForSequenceClassification",
          "ForTokenClassification": "GenericForTokenClassification",
          "ForQuestionAnswering": "GenericForQuestionAnswering"}


def _transformers_root() -> Path | None:
    """transformers' package folder, found without running its ``__init__`` (the light import of the config
    classes, :mod:`scorer.architecture.loader`, leaves it unimported: a full import costs most of a cold start)."""
    mod = sys.modules.get("transformers")
    if mod is not None and getattr(mod, "__file__", None):
        return Path(mod.__file__).parent
    try:
        spec = importlib.util.find_spec("transformers")  # locates a top-level package, executes nothing
    except (ImportError, ValueError):  # pragma: no cover - a dependency
        return None
    return Path(spec.submodule_search_locations[0]) if spec and spec.submodule_search_locations else None


def _modeling_sources(model_type: str) -> list[Path]:
    """transformers' modeling files of ``model_type``'s folder (models/<module>: llama4_text lives in models/llama4),
    or none."""
    ca = sys.modules.get("transformers.models.auto.configuration_auto")
    try:
        if ca is None:  # off the light path: the ordinary import
            from transformers.models.auto import configuration_auto as ca
        if model_type not in ca.CONFIG_MAPPING_NAMES:
            return []
        folder = ca.model_type_to_module_name(model_type)
    except (ImportError, AttributeError):  # pragma: no cover - a dependency
        return []
    root = _transformers_root()
    if root is None:
        return []
    root = root.joinpath("models", *folder.split("."))
    # modular_*.py: families whose modeling file transformers generates from the modular one (Exaone, InternLM3)
    return sorted([*root.glob("modeling_*.py"), *root.glob("modular_*.py")]) if root.is_dir() else []


@functools.lru_cache(maxsize=128)
def _source_has(model_type: str, pattern: str) -> bool:
    """Whether a modeling file of ``model_type`` matches the regular expression ``pattern`` (read as text: no
    torch, no import of the modeling code)."""
    pat = re.compile(pattern, re.M)
    for f in _modeling_sources(model_type):
        try:
            if pat.search(f.read_text(encoding="utf-8", errors="replace")):
                return True
        except OSError:
            continue
    return False


def _is_generic(class_name: str, generic: str, model_type: str) -> bool:
    """Whether transformers defines ``class_name`` on ``generic``, directly or (a modular file) on another family's
    class of the same kind (``class ExaoneForSequenceClassification(LlamaForSequenceClassification)``)."""
    kind = generic.removeprefix("Generic")
    return _source_has(model_type, rf"^class {re.escape(class_name)}\(\s*({generic}|\w+{kind})\b")


@functools.lru_cache(maxsize=1)
def _modeling_auto() -> str:
    """The text of transformers' models/auto/modeling_auto.py ("" when unreadable): its mappings are read as text
    (importing the module needs torch)."""
    root = _transformers_root()
    try:
        return (root / "models" / "auto" / "modeling_auto.py").read_text(encoding="utf-8", errors="replace")
    except (TypeError, OSError):  # pragma: no cover - a dependency
        return ""


_PAIR = re.compile(r'\(\s*"([^"]+)",\s*"([^"]+)"\s*\)')


@functools.lru_cache(maxsize=16)
def auto_mapping(name: str) -> dict[str, str]:
    """One of transformers' auto mappings (``MODEL_MAPPING_NAMES``, ``MODEL_FOR_CAUSAL_LM_MAPPING_NAMES``, ...):
    model_type -> class name."""
    src = _modeling_auto()
    start = src.find(f"{name} = OrderedDict(")
    return dict(_PAIR.findall(src[start:src.find("\n)", start)])) if start >= 0 else {}


def _bare_models() -> dict[str, str]:
    """transformers' AutoModel mapping (model_type -> bare model class)."""
    return auto_mapping("MODEL_MAPPING_NAMES")


@functools.lru_cache(maxsize=1)
def _auto_classes() -> dict[str, frozenset[str]]:
    """model_type -> every class any of transformers' auto mappings names for it (Exaone's causal LM is
    LlamaForCausalLM)."""
    out: dict[str, set[str]] = {}
    for mt, cls in _PAIR.findall(_modeling_auto()):
        out.setdefault(mt, set()).add(cls)
    return {k: frozenset(v) for k, v in out.items()}


def mapped_types(mapping: str) -> frozenset[str]:
    """The model types of one of transformers' auto mappings (:func:`auto_mapping`)."""
    return frozenset(auto_mapping(mapping))


def class_known(model_type: str, name: str) -> bool:
    """Whether transformers defines class ``name`` for ``model_type`` (in the family's modeling files) or maps the
    type to it (its auto mappings)."""
    if name in _auto_classes().get(model_type, ()):
        return True
    return len(name) <= 200 and re.fullmatch(r"\w+", name) is not None and _source_has(
        model_type, rf"^class {name}\(")


def _instantiated(class_name: str, model_type: str) -> bool:
    """Whether ``class_name`` is the family's bare model (what AutoModel builds for ``model_type``: Exaone's is
    LlamaModel), not a model with heads of its own (GPT2DoubleHeadsModel)."""
    return _bare_models().get(model_type) == class_name


def _bare_in_repo(raw: dict[str, Any], name: str) -> bool:
    """Whether the repo's own code (``auto_map``), if any, leaves ``name`` the bare model: it is not the class the
    repo maps its causal or seq2seq LM to (a checkpoint saved from AutoModel keeps the base repo's auto_map, whose
    AutoModelForCausalLM is another class; a custom ``XModel`` that generates is mapped as the LM). No auto_map:
    transformers' class, bare by its name."""
    amap = raw.get("auto_map")
    if not isinstance(amap, dict):
        return True
    return not any(isinstance(v, str) and v.rsplit(".", 1)[-1] == name  # "module.Class" or "repo--module.Class"
                   for k in ("AutoModelForCausalLM", "AutoModelForSeq2SeqLM") for v in [amap.get(k)])


def config_labels(raw: dict[str, Any]) -> int:
    """Labels as PretrainedConfig counts them (transformers 5.24 configuration_utils.py): ``num_labels`` when the
    config gives it (its setter rebuilds id2label to that length, a mismatch is only a warning), else
    ``len(id2label)`` (even empty), else 2 (values were checked by ``assemble._check_labels``)."""
    n = raw.get("num_labels")
    if isinstance(n, int) and not isinstance(n, bool):
        return n
    labels = raw.get("id2label")
    return len(labels) if isinstance(labels, dict) else 2


#: class names of a repo's own reward / classification heads (custom code): no lm_head, an unknown head
_CUSTOM_POOLING = re.compile(r"(RewardModel|ForReward\w*|ForProcessReward\w*|ForRM|ForEmbedding\w*)$")


def decoder_head(raw: dict[str, Any], archs: list[str], model_type: str | None,
                 guesses: list[str]) -> TaskHead | None:
    """The head that replaces a decoder's ``lm_head`` (see the module docstring), else None (a generating model).
    Appends a guess when the class is not transformers' generic one (its head is then an estimate)."""
    name = next((a for a in archs if isinstance(a, str)), "")
    if not name:
        return None
    for suffix, generic in _HEADS.items():
        if name.endswith(suffix) or suffix == "ForQuestionAnswering" and name.endswith(suffix + "Simple"):
            qa = suffix == "ForQuestionAnswering"
            n = 2 if qa else config_labels(raw)
            # nn.Linear(bias=getattr(config, "token_classification_bias", True)): any false value, null included
            bias = qa or (suffix == "ForTokenClassification" and bool(raw.get("token_classification_bias", True)))
            if not _is_generic(name, generic, model_type or ""):
                guesses.append(f"{name}: its head is not transformers' {generic}; counted as one "
                               f"(a {n}-output linear{' with bias' if bias else ', no bias'}) in place of the lm_head")
            return TaskHead(num_labels=n, label_bias=bias, replaces_lm_head=True, head_class=name)
    if name.endswith("ForMultipleChoice"):  # XLM / XLNet: a SequenceSummary and a 1-output projection
        guesses.append(f"{name}: its multiple-choice head (a sequence summary and a 1-output linear) is counted as "
                       "the 1-output linear with a bias, in place of the lm_head")
        return TaskHead(num_labels=1, label_bias=True, replaces_lm_head=True, head_class=name)
    if name.endswith("DoubleHeadsModel"):  # GPT-2 / OpenAI-GPT: the lm_head and a multiple-choice summary head
        guesses.append(f"{name}: its multiple-choice head (SequenceSummary, hidden + 1 parameters) is not counted")
        return None
    if _CUSTOM_POOLING.search(name):
        # the config's labels where it gives them (ArmoRM: 19 reward objectives), else one score
        n = config_labels(raw) if "num_labels" in raw or "id2label" in raw else 1
        guesses.append(f"{name}: a reward / pooling head of the repo's own code; counted without the lm_head and "
                       f"with a {n}-output linear (its real head is not read)")
        return TaskHead(num_labels=n, label_bias=False, replaces_lm_head=True, head_class=name)
    if name.endswith("Model") and "For" not in name and not name.endswith(("LMHeadModel", "PreTrainedModel")) \
            and _bare_in_repo(raw, name) and _instantiated(name, model_type or ""):
        # the bare decoder stack AutoModel builds for the family (embedding models); a class the repo maps as its
        # causal LM keeps its lm_head; one its code defines otherwise (its AutoModel) is bare by convention, a guess
        amap = raw.get("auto_map")
        if isinstance(amap, dict) and any(isinstance(v, str) and v.rsplit(".", 1)[-1] == name
                                          for v in amap.values()):
            guesses.append(f"{name}: the repo's own code (auto_map) defines it; counted as transformers' bare "
                           f"{name} (no lm_head), as an AutoModel class is by convention")
        return TaskHead(replaces_lm_head=True, head_class=name)
    return None


def qa_labels(raw: dict[str, Any], model_type: str | None) -> int:
    """qa_outputs' width of an encoder or encoder-decoder ``*ForQuestionAnswering``: 2 where the family's class
    forces it (``config.num_labels = 2`` in BartForQuestionAnswering, BigBird, RoFormer, ...), else the config's
    labels (BertForQuestionAnswering reads ``config.num_labels``, default 2)."""
    return 2 if _source_has(model_type or "", r"^\s+config\.num_labels = 2\b") else config_labels(raw)


def encoder_decoder_head(raw: dict[str, Any], archs: list[str], model_type: str | None
                         ) -> tuple[TaskHead | None, bool]:
    """(the head, encoder only) of an encoder-decoder checkpoint by its class: ``*ForSequenceClassification`` a
    dense + out_proj classification head on the decoder's last token (BartClassificationHead,
    T5ClassificationHead), ``*ForQuestionAnswering`` qa_outputs, both without the lm_head; the bare
    ``<Family>Model`` neither; ``*EncoderModel`` and ``*ForTokenClassification`` (T5EncoderModel plus a
    classifier) the encoder alone. (None, False) for a generating class."""
    name = next((a for a in archs if isinstance(a, str)), "")
    if name.endswith("ForSequenceClassification"):
        return TaskHead(dense=True, num_labels=config_labels(raw), replaces_lm_head=True, head_class=name), False
    if name.endswith("ForQuestionAnswering"):
        return TaskHead(num_labels=qa_labels(raw, model_type), replaces_lm_head=True, head_class=name), False
    if name.endswith("ForTokenClassification"):
        return TaskHead(num_labels=config_labels(raw), head_class=name), True
    if name.endswith("EncoderModel"):
        return TaskHead(head_class=name), True
    if name.endswith("Model") and "For" not in name and _bare_in_repo(raw, name) \
            and _instantiated(name, model_type or ""):
        return TaskHead(replaces_lm_head=True, head_class=name), False
    return None, False



#: bases whose ``_tied_weights_keys`` is transformers' default ``None`` (modeling_utils.py ``PreTrainedModel``:
#: ``_tied_weights_keys: dict[str, str] = None``; GenerationMixin and torch's Module declare none)
_UNTIED_BASES = frozenset({"PreTrainedModel", "GenerationMixin", "nn.Module", "Module", "object"})
_CLASS_HEAD = re.compile(r"^class (\w+)\(([^)]*)\):", re.M)
_TIED_ASSIGN = re.compile(r"^\s+(?:self\.)?_tied_weights_keys\s*(?::[^=\n]*)?=\s*(.*)$", re.M)


def _folder_of(config_module: str) -> list[Path]:
    """The modeling files beside a config class's module (``transformers.models.llama.configuration_llama`` ->
    models/llama/modeling_*.py), found without importing transformers' auto mappings (the light import of the
    config classes leaves them unimported: importing them costs seconds of a cold start)."""
    parts = config_module.split(".")
    root = _transformers_root()
    if root is None or len(parts) < 4 or parts[:2] != ["transformers", "models"]:
        return []
    folder = root.joinpath("models", *parts[2:-1])
    return sorted(folder.glob("modeling_*.py")) if folder.is_dir() else []


def modeling_files_near(config_module: str) -> bool:
    """Whether :func:`_folder_of` finds any modeling file beside ``config_module``."""
    return bool(_folder_of(config_module))


@functools.lru_cache(maxsize=1024)
def source_near(config_module: str, pattern: str) -> bool:
    """Whether a modeling file beside ``config_module`` (:func:`_folder_of`) matches ``pattern`` (multi-line)."""
    pat = re.compile(pattern, re.M)
    return any(pat.search(text) for text in _texts_near(config_module))


@functools.lru_cache(maxsize=16)
def _texts_near(config_module: str) -> tuple[str, ...]:
    """The texts of the modeling files beside ``config_module``, read once (a few hundred KiB a family)."""
    out = []
    for f in _folder_of(config_module):
        try:
            out.append(f.read_text(encoding="utf-8", errors="replace"))
        except OSError:
            continue
    return tuple(out)


@functools.lru_cache(maxsize=128)
def _class_bodies(config_module: str) -> dict[str, tuple[tuple[str, ...], str]]:
    """class name -> (its bases, its body's text) for every top-level class of the generated ``modeling_*.py``
    files beside ``config_module`` (the modular ones are templates: a modular file may ``del`` an attribute the
    generated file never writes)."""
    out: dict[str, tuple[tuple[str, ...], str]] = {}
    for f in _folder_of(config_module):
        if not f.name.startswith("modeling_"):
            continue
        try:
            text = f.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        heads = list(_CLASS_HEAD.finditer(text))
        for m in heads:
            end = re.search(r"^\S", text[m.end():], re.M)  # the body runs to the next top-level statement
            body = text[m.end():m.end() + end.start()] if end else text[m.end():]
            bases = tuple(b.strip().split("[")[0] for b in m.group(2).split(",") if b.strip())
            out.setdefault(m.group(1), (bases, body))
    return out


def _model_class(bodies: dict, archs: list[str], suffixes: tuple[str, ...]) -> str | None:
    """The class of ``bodies`` (:func:`_class_bodies`) a model is built as: the first of ``archs`` defined there, else
    the one class ending in the first of ``suffixes`` that has exactly one (PreTrained bases aside); None otherwise."""
    name = next((a for a in archs if a in bodies), None)
    for suffix in suffixes:
        if name is None:
            found = [c for c in bodies if c.endswith(suffix) and "PreTrained" not in c]
            name = found[0] if len(found) == 1 else None
    return name


def lm_head_holder(config_module: str | None, archs: list[str]) -> str | None:
    """Which config ties a composite model's lm_head, read from the modeling source (transformers ties each
    PreTrainedModel module by its own config: modeling_utils.py ``get_expanded_tied_weights_keys``): "top" when the
    class (the first of ``archs`` the files define, else their one ``*ForConditionalGeneration``) builds
    ``self.lm_head`` itself (Gemma3nForConditionalGeneration, MuseGlimmer), "text" when it builds its language
    model as a causal LM of ``config.text_config`` (Llama 4's ``Llama4ForCausalLM(config.text_config)``,
    InstructBLIP's ``AutoModelForCausalLM.from_config(config.text_config)``) and declares no ties of its own; None
    when the source does not say (no such class, both, or another construction)."""
    if not config_module:
        return None
    bodies = _class_bodies(config_module)
    name = _model_class(bodies, archs, ("ForConditionalGeneration",))
    if name is None:
        return None
    body = bodies[name][1]
    own = re.search(r"^\s+self\.lm_head\s*=", body, re.M)
    text_lm = re.search(r"=\s*(\w+ForCausalLM|AutoModelForCausalLM\.from_config)\(\s*config\.text_config\b", body)
    ties = re.search(r"^\s+_tied_weights_keys\s*=\s*(?!\{\}|None|\[\])", body, re.M)
    if own and not text_lm:
        return "top"
    if text_lm and not own and not ties:
        return "text"
    return None


def ties_nothing(config_module: str | None, archs: list[str], text_module: str | None = None) -> bool:
    """Whether transformers' language-model class of ``model_type`` ties no weights whatever the config's
    ``tie_word_embeddings`` says: the class builds its own ``lm_head`` and neither it nor any base declares a
    non-empty ``_tied_weights_keys`` (transformers 5.x ties only what that attribute names:
    modeling_utils.py ``get_expanded_tied_weights_keys``; ``PreTrainedModel._tied_weights_keys`` defaults to None).
    NemotronHForCausalLM, KimiLinearForCausalLM, Cosmos3EdgeForConditionalGeneration and CpmAntForCausalLM set
    ``_tied_weights_keys = {}``; ErgoForCausalLM declares none.

    ``config_module``: the module of the config class (its folder holds the modeling files). The class is the first
    of ``archs`` those files define, else their one ``*ForCausalLM`` (then ``*ForConditionalGeneration``) class; a
    wrapper that builds its language model with ``AutoModelForCausalLM.from_config`` answers for the class beside
    ``text_module``, the text config's module. False whenever
    the answer is not read from the source: no such class, an ``lm_head`` built elsewhere (an omni model's thinker),
    a base defined in another module, or any assignment that is not an empty literal."""
    if not config_module:
        return False
    bodies = _class_bodies(config_module)
    name = _model_class(bodies, archs, ("ForCausalLM", "ForConditionalGeneration"))
    if name is None:
        return False
    if not re.search(r"^\s+self\.(lm_head|cls)\s*=", bodies[name][1], re.M):  # cls: RemBERT's MLM head
        # a wrapper whose language model is the text config's own causal LM (NemotronH_Omni_Reasoning_V3:
        # AutoModelForCausalLM.from_config(config.text_config)) ties as that class does
        wraps = re.search(r"^\s+self\.language_model\s*=\s*AutoModelForCausalLM\.from_config\(", bodies[name][1], re.M)
        return bool(wraps and text_module and text_module != config_module and ties_nothing(text_module, []))
    seen: set[str] = set()
    todo = [name]
    while todo:
        cls = todo.pop()
        if cls in seen or cls in _UNTIED_BASES:
            continue
        seen.add(cls)
        if cls not in bodies:
            return False  # a base from another module: not read here
        bases, body = bodies[cls]
        for value in _TIED_ASSIGN.findall(body):
            if value.strip().split("#")[0].strip() not in ("{}", "None", "[]", "dict()"):
                return False
        todo.extend(bases)
    return True
