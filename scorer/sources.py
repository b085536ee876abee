"""Read a model's configuration from a local path, a bundled example, or the Hugging Face Hub.

This is the only module of ``scorer`` that does I/O. Nothing here executes repository code: a
``config.json`` is parsed as JSON data, ``auto_map`` entries are recorded (so the sheet can say
the model needs custom code to run) and never imported.

SOURCE forms accepted by :func:`load_source`:

* a path to a ``config.json`` file, or to a folder holding one (``hf_quant_config.json`` beside
  it is read too);
* ``example:NAME`` — a config bundled in ``data/examples/NAME/config.json`` (``deploysheet
  examples`` lists them); the CLI uses :data:`DEFAULT_EXAMPLE` when no SOURCE is given;
* a Hub repo id ``org/name`` (optionally ``org/name@revision`` or a ``https://huggingface.co/org/name``
  URL). The revision is resolved to a commit sha first and every file is read at that sha.
  ``HF_ENDPOINT`` and ``HF_TOKEN`` are honoured (read at call time).

The checkpoint's safetensors headers are read too when the weights are there (:func:`read_local_checkpoint`,
:func:`read_hub_checkpoint`): only the 8-byte length and the JSON header of each file, never the tensor data. A
checkpoint that cannot be read does not stop the sheet: ``RawModel.checkpoint`` is None and
``RawModel.checkpoint_note`` says why (see :func:`read_local_checkpoint`).
"""

from __future__ import annotations

import json
import os
import random
import re
import stat
import struct
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable, Literal, TypeVar

from pydantic import BaseModel, Field

from . import __version__
from .adapters import ADAPTER_CONFIG
from .errors import BadInputError, HubError
from .resources import data_dir

#: Largest config file read, in bytes. Most config.json files are a few KiB, but a ModelOpt
#: mixed-precision checkpoint lists every layer's quantization in config.json / hf_quant_config.json
#: (several MB seen in the wild); 64 MiB holds those and still refuses a runaway file.
MAX_CONFIG_BYTES = 64 * 1024 * 1024
#: Example used when the CLI gets no SOURCE.
DEFAULT_EXAMPLE = "llama-3.1-8b"

_REPO_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]{0,95}/[A-Za-z0-9][A-Za-z0-9_.\-]{0,95}")
_REVISION = re.compile(r"[A-Za-z0-9][A-Za-z0-9_./\-]{0,199}")
_HUB_URL = re.compile(r"https?://(?:www\.)?huggingface\.co/([^/\s]+/[^/@?#\s]+)(?:/tree/([^/?#\s]+))?/?")
_SHA = re.compile(r"[0-9a-f]{40}")
HUB_TIMEOUT_S = 20.0


class Provenance(BaseModel):
    """Where a config came from; every field is shown in the sheet's sources section."""

    kind: Literal["local", "example", "hub"]
    source: str = Field(description="the SOURCE string the user gave")
    label: str | None = Field(None, description="the name to show for the model (compare --label), if any")
    path: str | None = Field(None, description="local file read (local/example)")
    repo_id: str | None = None
    revision: str | None = Field(None, description="revision requested (branch, tag or sha)")
    commit_sha: str | None = Field(None, description="commit the files were read at")
    endpoint: str | None = None
    files: list[str] = Field(default_factory=list, description="files read")
    safetensors_parameters: dict[str, int] | None = Field(
        None, description="element counts per stored dtype from the Hub's safetensors metadata")
    safetensors_total: int | None = None
    weight_formats: list[str] = Field(default_factory=list,
                                      description="weight file formats present: safetensors, pytorch-pickle, gguf, ...")
    gated: str | None = Field(None, description="gating mode ('auto', 'manual') or None")
    private: bool | None = None
    license: str | None = None
    tags: list[str] = Field(default_factory=list)
    quantized_derivatives: list[str] | None = Field(
        None, description="Hub repos declaring base_model:quantized:<this repo> (first 20); None = not looked up")
    adapter_base: str | None = Field(None, description="a PEFT adapter repo or folder: the base model it adapts (the "
                                                       "Hub id or folder the engine serves); None: not an adapter")
    adapter_rank: int | None = Field(None, description="the adapter's largest LoRA rank (r, rank_pattern)")
    adapter_refused: str | None = Field(None, description="why vLLM refuses the adapter as a LoRA adapter, if it does")


class StoredTensor(BaseModel):
    """One tensor of a safetensors header: its stored dtype and shape, and the bytes its data_offsets span."""

    name: str
    dtype: str
    shape: list[int]
    nbytes: int = Field(description="data_offsets end - begin: the bytes stored for this tensor")
    file: str


class CheckpointHeaders(BaseModel):
    """The tensor inventory of a checkpoint, read from its safetensors headers only."""

    kind: Literal["local", "hub"]
    source: str = Field(description="what was read, and how (shown in the sheet)")
    files: list[str] = Field(description="safetensors files whose headers were read")
    index: str | None = Field(None, description="model.safetensors.index.json, when the checkpoint is sharded")
    tensors: list[StoredTensor]


class RawModel(BaseModel):
    """A parsed config plus optional quantization sidecar and its provenance."""

    config: dict[str, Any]
    quant_config: dict[str, Any] | None = Field(None, description="hf_quant_config.json (ModelOpt), if present")
    provenance: Provenance
    checkpoint: CheckpointHeaders | None = Field(None, description="tensor inventory from the safetensors headers")
    checkpoint_note: str | None = Field(None, description="why the safetensors headers were not read, when there "
                                                          "are weights but they could not be read")
    source_notes: list[str] = Field(default_factory=list, description="how the repository's other files changed the "
                                                                      "reading of config.json (e.g. an embedding model)")


#: sentence-transformers' module list (modules.json): a Pooling module means the model embeds (pools the last hidden
#: states) and does not generate, whatever class config.json names (Qwen3-Embedding ships Qwen3ForCausalLM)
ST_MODULES = "modules.json"
#: set while a local adapter folder's base is read: a base that is itself adapter-only is refused, not followed
_ADAPTER_DEPTH = threading.local()
MAX_ST_MODULES_BYTES = 1024 * 1024


def _st_pooling(modules: Any) -> bool:
    """Whether a parsed ``modules.json`` lists sentence-transformers' Pooling module."""
    return isinstance(modules, list) and any(
        isinstance(m, dict) and isinstance(m.get("type"), str) and m["type"].endswith("models.Pooling")
        for m in modules)


def as_embedding_model(config: dict[str, Any], modules: Any, where: str) -> tuple[dict[str, Any], str | None]:
    """``config`` read as the bare model when ``modules`` (modules.json) pools it and config.json names a single
    ``*ForCausalLM`` class: the class with ``Model`` in place of ``ForCausalLM`` (transformers' naming), so no
    lm_head is counted or served; and the note saying so. Otherwise ``config`` unchanged and None."""
    archs = config.get("architectures")
    if not _st_pooling(modules) or not (isinstance(archs, list) and len(archs) == 1 and isinstance(archs[0], str)
                                        and archs[0].endswith("ForCausalLM") and len(archs[0]) <= 200):
        return config, None
    bare = archs[0][: -len("ForCausalLM")] + "Model"
    return {**config, "architectures": [bare]}, (
        f"{where} lists a sentence-transformers Pooling module: an embedding model, read as {bare} (config.json "
        f"names {archs[0]}); it does not generate, and no lm_head is counted or served")


# --------------------------------------------------------------------------- local files

def _read_json_file(path: Path, what: str, cap: int = MAX_CONFIG_BYTES) -> dict[str, Any]:
    try:
        st = path.stat()
    except FileNotFoundError:
        raise BadInputError(f"{what}: file not found: {path}") from None
    except OSError as exc:
        raise BadInputError(f"{what}: cannot read {path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(st.st_mode):
        raise BadInputError(f"{what}: {path} is not a regular file")
    size = st.st_size
    kind = "index" if what == "safetensors index" else "config"
    if size > cap:
        raise BadInputError(f"{what}: {path} is {size:,} bytes, over the {cap:,}-byte cap for {kind} files")
    try:
        with open(path, "rb") as fh:
            data = fh.read(cap + 1)
    except OSError as exc:
        raise BadInputError(f"{what}: cannot read {path}: {exc.strerror or exc}") from None
    return parse_json_bytes(data, str(path), cap, kind)


def read_text_file(path: str | Path, what: str, cap: int) -> str:
    """A small text input (a measurements CSV, an ids list) read whole: a regular file of at most ``cap`` bytes,
    UTF-8 (a byte-order mark dropped). A pipe, device or folder is refused before any read (a FIFO would block,
    ``/dev/zero`` never ends).

    Raises:
        FileNotFoundError: no such file (the caller words it).
        BadInputError: not a regular file, over ``cap``, unreadable, or not UTF-8.
    """
    p = Path(path)
    try:
        st = p.stat()
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise BadInputError(f"{what} {path}: cannot read ({exc.strerror or exc})") from None
    if not stat.S_ISREG(st.st_mode):
        raise BadInputError(f"{what} {path}: not a regular file (a folder, device or pipe)")
    if st.st_size > cap:
        raise BadInputError(f"{what} {path}: {st.st_size:,} bytes, over the {cap:,}-byte cap")
    try:
        with open(p, "rb") as fh:
            data = fh.read(cap + 1)
    except OSError as exc:
        raise BadInputError(f"{what} {path}: cannot read ({exc.strerror or exc})") from None
    if len(data) > cap:
        raise BadInputError(f"{what} {path}: over the {cap:,}-byte cap")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise BadInputError(f"{what} {path}: not UTF-8 text (byte {exc.start})") from None


def parse_json_bytes(data: bytes, name: str, cap: int = MAX_CONFIG_BYTES, what: str = "config") -> dict[str, Any]:
    """Parse a config file's bytes into a dict.

    Raises:
        BadInputError: oversize, a UTF-8 byte-order mark, not UTF-8, not JSON, or not a JSON object.
    """
    if len(data) > cap:
        raise BadInputError(f"{name} is over the {cap:,}-byte cap for {what} files", "invalid_json")
    if data.startswith(b"\xef\xbb\xbf"):
        # transformers (configuration_utils.py _dict_from_json_file: open(..., encoding="utf-8"), json.loads) and the
        # engines that load configs through it stop at "Unexpected UTF-8 BOM": no engine loads this file
        raise BadInputError(f"{name} starts with a UTF-8 byte-order mark, which transformers' JSON reader refuses: "
                            "save it without one", "invalid_json")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInputError(f"{name} is not UTF-8 text (byte {exc.start})", "invalid_json") from None
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadInputError(f"{name} is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})",
                            "invalid_json") from None
    except RecursionError:
        raise BadInputError(f"{name} is not usable JSON: nesting too deep", "invalid_json") from None
    except ValueError as exc:  # an integer literal over Python's int_max_str_digits (4,300 digits)
        if "integer string conversion" not in str(exc):
            raise
        raise BadInputError(f"{name} is not usable JSON: an integer literal with more than "
                            f"{sys.get_int_max_str_digits():,} digits", "invalid_json") from None
    if not isinstance(obj, dict):
        raise BadInputError(f"{name} must hold a JSON object, found {type(obj).__name__}", "invalid_json")
    try:  # "\ud800" escapes decode to lone surrogates that no output can encode
        json.dumps(obj, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise BadInputError(f"{name} holds invalid Unicode (a lone surrogate escape)", "invalid_json") from None
    except (ValueError, RecursionError):
        raise BadInputError(f"{name} is not usable JSON: nesting too deep", "invalid_json") from None
    if what == "config":
        _check_bulk(obj, name)
    return obj


#: keys of one config object handed to transformers' config classes (the top level, text_config, vision_config,
#: ...): real ones hold a few hundred; each is one strict setattr in the class's __init__, so 300,000 junk keys
#: cost half a minute there
MAX_CONFIG_KEYS = 10_000
#: JSON values in a whole config (objects, arrays, scalars): a 3 MB ModelOpt mixed-precision config holds about
#: 200,000; transformers deep-copies the config more than once, so 6,000,000 empty objects cost 20 s
MAX_CONFIG_VALUES = 2_000_000


def _check_bulk(obj: dict[str, Any], name: str) -> None:
    """Refuse a config whose bulk no real one has (see :data:`MAX_CONFIG_KEYS`, :data:`MAX_CONFIG_VALUES`) before
    it reaches transformers, naming the object or the count. Raises BadInputError."""
    stack: list[tuple[Any, str]] = [(obj, "")]
    values = 1  # every value met so far: the ones walked and the ones waiting on the stack
    while stack:
        node, where = stack.pop()
        if not isinstance(node, (dict, list)):
            continue
        if isinstance(node, dict) and len(node) > MAX_CONFIG_KEYS and (not where or where.endswith("_config")):
            raise BadInputError(f"{name}: {where or 'the top level'} has {len(node):,} keys, over the "
                                f"{MAX_CONFIG_KEYS:,} a config object may hold", "invalid_json")
        values += len(node)
        if values > MAX_CONFIG_VALUES:  # before the children are walked: a 6,000,000-item list is not copied
            raise BadInputError(f"{name} holds over {MAX_CONFIG_VALUES:,} JSON values; no model config is that "
                                "large (a padding list or object?)", "invalid_json")
        if isinstance(node, dict):
            stack.extend((v, k if isinstance(v, dict) else "") for k, v in node.items())
        else:
            stack.extend((v, "") for v in node)


def _load_local(source: str, path: Path, kind: Literal["local", "example"]) -> RawModel:
    try:
        return _load_local_files(source, path, kind)
    except PermissionError as exc:  # a folder without read / search permission (Path.exists raises, not False)
        raise BadInputError(f"{exc.filename or path}: permission denied") from None


def _load_local_adapter(source: str, folder: Path) -> RawModel:
    """A local PEFT adapter folder (``adapter_config.json``, no ``config.json``): its base model, a local folder
    (resolved against the adapter folder when relative) or a Hub repo, under the adapter folder's provenance."""
    from .adapters import adapter_note, base_model
    apath = folder / ADAPTER_CONFIG
    adapter = _read_json_file(apath, ADAPTER_CONFIG)
    base = base_model(adapter, str(apath))
    bpath = expand_user(base)
    if not bpath.is_absolute():
        bpath = folder / bpath if (folder / bpath).exists() else bpath
    if bpath.is_dir() and (bpath / "config.json").is_file():
        if bpath.resolve() == folder.resolve():
            raise BadInputError(f"{apath}: names its own folder as the base model", "missing_config")
        raw = _load_local_files(base, bpath, "local")
        where = str(bpath)
    else:
        hub = parse_hub_source(base)
        if hub is None or base.startswith((".", "/", "~")):
            raise BadInputError(f"{apath}: base model {base[:120]!r} is neither a folder with a config.json nor a "
                                "Hub repo id (org/name)", "missing_config")
        try:
            raw = load_hub(base, hub[0], hub[1], allow_adapter=False)
        except (HubError, BadInputError) as exc:
            raise type(exc)(f"{folder} is an adapter of {hub[0]}: {exc}", exc.reason) from None
        sha = (raw.provenance.commit_sha or "")[:7]
        where = f"{hub[0]}@{sha}" if sha else hub[0]
    from .adapters import adapter_rank, vllm_refusal
    base_served = raw.provenance.repo_id or str(bpath)
    raw.provenance = Provenance(kind="local", source=source, path=str(apath),
                                files=[ADAPTER_CONFIG] + [f"{where}/{f}" for f in raw.provenance.files],
                                adapter_base=base_served, adapter_rank=adapter_rank(adapter),
                                adapter_refused=vllm_refusal(adapter))
    raw.source_notes.insert(0, adapter_note(adapter, str(folder), where))
    return raw


def _load_local_files(source: str, path: Path, kind: Literal["local", "example"]) -> RawModel:
    if path.is_dir():
        folder, cfg_path = path, path / "config.json"
        if not cfg_path.exists() and kind == "local" and (path / ADAPTER_CONFIG).is_file() and source is not None \
                and not getattr(_ADAPTER_DEPTH, "inside", False):
            _ADAPTER_DEPTH.inside = True
            try:
                return _load_local_adapter(source, path)
            finally:
                _ADAPTER_DEPTH.inside = False
        if not cfg_path.exists():
            if cfg_path.is_symlink():  # exists() follows the link: a loop or a dangling target
                raise BadInputError(f"{cfg_path} is a link that does not resolve to a file (a loop or a missing "
                                    "target)")
            raise BadInputError(f"{path} is a folder without a config.json")
    else:
        folder, cfg_path = path.parent, path
    config = _read_json_file(cfg_path, "config")
    files = [cfg_path.name]
    quant = None
    qpath = folder / "hf_quant_config.json"
    if qpath.is_file() and qpath != cfg_path:
        quant = _read_json_file(qpath, "hf_quant_config.json")
        files.append(qpath.name)
    notes = []
    mpath = folder / ST_MODULES
    if kind == "local" and mpath.is_file():
        try:
            modules = json.loads(read_text_file(mpath, ST_MODULES, MAX_ST_MODULES_BYTES))
        except (BadInputError, ValueError, RecursionError):
            modules = None  # an unreadable module list: config.json alone decides, as without one
        config, st_note = as_embedding_model(config, modules, "the folder's modules.json")
        if st_note:
            notes.append(st_note)
            files.append(ST_MODULES)
    ckpt, note = read_local_checkpoint(folder) if kind == "local" else (None, None)
    return RawModel(config=config, quant_config=quant, checkpoint=ckpt, checkpoint_note=note, source_notes=notes,
                    provenance=Provenance(kind=kind, source=source, path=str(cfg_path), files=files))


# --------------------------------------------------------------------------- safetensors headers

#: Largest ``model.safetensors.index.json`` read, bytes: the largest real indexes (DeepSeek-V3, ~92k tensors) are
#: under 10 MB; 64 MiB leaves room without letting a hostile repo send gigabytes.
MAX_INDEX_BYTES = 64 * 1024 * 1024
#: Most shards read: real checkpoints have at most a few hundred (DeepSeek-V3: 163).
MAX_SHARDS = 2048
SAFETENSORS_INDEX = "model.safetensors.index.json"
SAFETENSORS_SINGLE = "model.safetensors"
#: bits per element of each safetensors dtype (safetensors' Dtype enum); F4/F6 shapes count elements, packed bytes
DTYPE_BITS = {"BOOL": 8, "U8": 8, "I8": 8, "F8_E4M3": 8, "F8_E5M2": 8, "F8_E4M3FNUZ": 8, "F8_E5M2FNUZ": 8,
              "F8_E8M0": 8, "I16": 16, "U16": 16, "F16": 16, "BF16": 16, "I32": 32, "U32": 32, "F32": 32,
              "I64": 64, "U64": 64, "F64": 64, "C64": 64, "F4": 4, "F6_E2M3": 6, "F6_E3M2": 6}
_SHARD_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]{0,199}\.safetensors")


class CheckpointUnreadable(Exception):
    """A safetensors header or index that cannot be used; ``str(exc)`` is the one-line reason."""


def header_max_bytes() -> int:
    """The header cap: huggingface_hub's ``SAFETENSORS_MAX_HEADER_LENGTH`` (25,000,000 bytes in 2.4), which its
    parsers enforce for local files and Hub range reads alike."""
    from huggingface_hub import constants
    return int(getattr(constants, "SAFETENSORS_MAX_HEADER_LENGTH", 25_000_000))


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def tensors_from_header(meta: Any, fname: str, data_len: int | None = None) -> list[StoredTensor]:
    """Validate a parsed header (huggingface_hub ``SafetensorsFileMetadata``) into :class:`StoredTensor` rows.

    Checks what the safetensors format requires: a shape of non-negative integers, ``data_offsets`` a pair
    0 <= begin <= end, the span equal to elements x bits of a known dtype (rounded up to whole bytes), and, when
    ``data_len`` (the file's bytes after the header) is known, every span inside the file.

    Raises:
        CheckpointUnreadable: the first violation, naming the file and tensor.
    """
    tensors = getattr(meta, "tensors", None)
    if not isinstance(tensors, dict):
        raise CheckpointUnreadable(f"{fname}: the safetensors header is not a JSON object of tensors")
    out, spans = [], []
    for name, t in tensors.items():
        where = f"{fname}: tensor {str(name)[:80]!r}"
        dtype, shape, offs = getattr(t, "dtype", None), getattr(t, "shape", None), getattr(t, "data_offsets", None)
        if not isinstance(dtype, str) or not isinstance(shape, list) or not all(_is_int(d) and d >= 0 for d in shape):
            raise CheckpointUnreadable(f"{where} has no valid dtype and shape")
        if not isinstance(offs, tuple) or len(offs) != 2 or not all(_is_int(o) for o in offs) \
                or not 0 <= offs[0] <= offs[1]:
            raise CheckpointUnreadable(f"{where}: data_offsets must be two integers 0 <= begin <= end")
        nbytes = offs[1] - offs[0]
        numel = 1
        for d in shape:
            numel *= d
        bits = DTYPE_BITS.get(dtype)
        if bits is None:  # safetensors' Dtype enum refuses any other name when it parses the header
            raise CheckpointUnreadable(f"{where}: dtype {str(dtype)[:20]!r} is not a safetensors dtype")
        if nbytes != -(-numel * bits // 8):
            raise CheckpointUnreadable(f"{where} is {dtype} {shape} but its data_offsets span {nbytes:,} bytes "
                                       f"(expected {-(-numel * bits // 8):,})")
        if data_len is not None and offs[1] > data_len:
            raise CheckpointUnreadable(f"{fname} is truncated: tensor {str(name)[:80]!r} ends at byte {offs[1]:,} of "
                                       f"the data, the file holds {data_len:,}")
        out.append(StoredTensor(name=str(name), dtype=dtype, shape=shape, nbytes=nbytes, file=fname))
        spans.append((offs[0], offs[1], str(name)))
    # safetensors' own rule (Metadata::validate in huggingface/safetensors safetensors/src/tensor.rs): sorted by
    # offset, each tensor starts where the previous one ended, from byte 0, so no two tensors share bytes and no
    # byte is unaccounted for (a key written twice in the JSON header loses one tensor and leaves such a gap)
    end = 0
    for begin, stop, name in sorted(spans):
        if begin != end:
            what = "overlaps the tensor before it" if begin < end else f"leaves bytes {end:,}-{begin:,} unaccounted for"
            raise CheckpointUnreadable(f"{fname}: tensor {name[:80]!r} at bytes {begin:,}-{stop:,} {what} (safetensors "
                                       "requires contiguous, non-overlapping data_offsets)")
        end = stop
    if data_len is not None and end != data_len:  # safetensors: MetadataIncompleteBuffer
        raise CheckpointUnreadable(f"{fname}: {data_len - end:,} bytes follow the last tensor (safetensors requires "
                                   "the data to end where the last tensor does)")
    if not out:
        raise CheckpointUnreadable(f"{fname}: the safetensors header holds no tensors")
    return out


def check_unique(tensors: list[StoredTensor]) -> None:
    """Refuse a tensor name stored in two files of one checkpoint (loaders would read one and silently drop the
    other). Raises CheckpointUnreadable naming the tensor and both files."""
    seen: dict[str, str] = {}
    for t in tensors:
        other = seen.setdefault(t.name, t.file)
        if other != t.file:
            raise CheckpointUnreadable(f"tensor {t.name[:80]!r} is stored twice, in {other} and in {t.file}")


def _local_header(path: Path) -> list[StoredTensor]:
    """Read one local file's header (never its data) with huggingface_hub's parser, after checking the length."""
    from huggingface_hub import parse_local_safetensors_file_metadata

    try:
        size = path.stat().st_size
        with open(path, "rb") as fh:
            head = fh.read(8)
    except OSError as exc:
        raise CheckpointUnreadable(f"{path.name}: cannot read ({exc.strerror or exc})") from None
    if head.startswith(b"version "):
        raise CheckpointUnreadable(f"{path.name} is a Git LFS pointer, not the weights (run git lfs pull)")
    if len(head) < 8:
        raise CheckpointUnreadable(f"{path.name} is too small ({size} bytes) to be a safetensors file")
    n = struct.unpack("<Q", head)[0]
    cap = header_max_bytes()
    if n > cap:
        raise CheckpointUnreadable(f"{path.name}: header length {n:,} bytes is over the {cap:,}-byte cap")
    if 8 + n > size:
        raise CheckpointUnreadable(f"{path.name} is truncated: its header needs {8 + n:,} bytes, the file has "
                                   f"{size:,}")
    try:
        meta = parse_local_safetensors_file_metadata(path)
    except Exception as exc:  # noqa: BLE001 - SafetensorsParsingError, or a header of the wrong JSON shapes
        from huggingface_hub.errors import SafetensorsParsingError
        why = _brief(exc) if isinstance(exc, SafetensorsParsingError) else \
            "its JSON is not an object of tensor name -> {dtype, shape, data_offsets}"
        raise CheckpointUnreadable(f"{path.name}: malformed safetensors header ({why})") from None
    return tensors_from_header(meta, path.name, size - 8 - n)


def _brief(exc: BaseException) -> str:
    msg = " ".join(str(exc).split())
    m = re.search(r"\): (.*)", msg)  # huggingface_hub: "Failed to parse ... for 'f' (context): <why>"
    return (m.group(1) if m else msg or type(exc).__name__)[:160]


def _index_shards(index: dict[str, Any], where: str) -> tuple[list[str], set[str]]:
    """(shard file names, tensor names) of a parsed ``model.safetensors.index.json``."""
    wm = index.get("weight_map")
    if not isinstance(wm, dict) or not wm or not all(isinstance(v, str) for v in wm.values()):
        raise CheckpointUnreadable(f"{where} has no weight_map of tensor -> shard file")
    shards = sorted(set(wm.values()))
    bad = [x for x in shards if not _SHARD_NAME.fullmatch(x) or ".." in x]
    if bad:
        raise CheckpointUnreadable(f"{where} names a shard outside the folder or of an odd name: {bad[0][:80]!r}")
    if len(shards) > MAX_SHARDS:
        raise CheckpointUnreadable(f"{where} lists {len(shards):,} shards, over the {MAX_SHARDS:,} read")
    return shards, set(wm)


def _check_index(tensors: list[StoredTensor], listed: set[str], where: str) -> None:
    missing = listed - {t.name for t in tensors}
    if missing:
        raise CheckpointUnreadable(f"{where} lists {len(missing):,} tensor(s) no shard header holds, e.g. "
                                   f"{sorted(missing)[0][:80]!r}")


def read_local_checkpoint(folder: Path) -> tuple[CheckpointHeaders | None, str | None]:
    """The tensor inventory of the safetensors weights in ``folder``: (headers, None), (None, reason) or (None, None).

    Which files: ``model.safetensors.index.json`` and the shards it names; else ``model.safetensors``; else every
    ``*.safetensors`` file of the folder except PEFT adapters (``adapter_*``). Only each file's 8-byte length and
    JSON header are read (huggingface_hub's ``parse_local_safetensors_file_metadata``, header cap
    :func:`header_max_bytes`), never the tensor data.

    Unreadable weights do not fail the sheet, by design: the config alone makes a complete sheet, and the usual
    causes are not the user's input mistakes — a CI checkout without Git LFS (pointer files), a download in
    progress (shards missing), a corrupt file. So a malformed, truncated or oversize header, an unusable index or a
    shard the index names but the folder lacks gives ``(None, reason)``: ``params.checkpoint`` is null and the
    sheet shows the reason beside the config-derived counts and in its sources. ``(None, None)``: no safetensors
    weights there at all.
    """
    try:
        index_path = folder / SAFETENSORS_INDEX
        if index_path.is_file():
            try:
                index = _read_json_file(index_path, "safetensors index", MAX_INDEX_BYTES)
            except BadInputError as exc:
                raise CheckpointUnreadable(str(exc)) from None
            shards, listed = _index_shards(index, SAFETENSORS_INDEX)
            missing = [x for x in shards if not (folder / x).is_file()]
            if missing:
                raise CheckpointUnreadable(f"{len(missing)} of {len(shards)} shards that {SAFETENSORS_INDEX} names "
                                           f"are missing locally: {', '.join(missing[:3])}"
                                           + (", ..." if len(missing) > 3 else ""))
            files, idx = shards, SAFETENSORS_INDEX
        elif (folder / SAFETENSORS_SINGLE).is_file():
            files, idx, listed = [SAFETENSORS_SINGLE], None, set()
        else:
            found = sorted((p for p in folder.glob("*.safetensors") if not p.name.startswith("adapter_")),
                           key=lambda p: p.name)
            # a shard that is no regular file (a dangling link of a download in progress, a folder) would leave
            # the counts short without a word: the checkpoint is unreadable instead
            odd = [p.name for p in found if not p.is_file()]
            if odd:
                raise CheckpointUnreadable(f"{len(odd)} of {len(found)} .safetensors entries are not readable files "
                                           f"(a dangling link or a folder): {', '.join(odd[:3])}"
                                           + (", ..." if len(odd) > 3 else ""))
            files = [p.name for p in found][:MAX_SHARDS]
            idx, listed = None, set()
            if not files:
                return None, None
        tensors: list[StoredTensor] = []
        for f in files:
            tensors += _local_header(folder / f)
        check_unique(tensors)
        if idx:
            _check_index(tensors, listed, idx)
    except CheckpointUnreadable as exc:
        return None, str(exc)
    except OSError as exc:
        return None, f"cannot list the weights in {folder.name or folder}: {exc.strerror or exc}"
    what = f"{idx} + {len(files)} shard(s)" if idx else ", ".join(files[:4]) + (", ..." if len(files) > 4 else "")
    return CheckpointHeaders(kind="local", source=f"{folder}: {what} (safetensors headers read, no tensor data)",
                             files=files, index=idx, tensors=tensors), None


def list_examples() -> list[str]:
    """Names of the example configs bundled in ``data/examples`` (sorted)."""
    root = data_dir() / "examples"
    return sorted(p.name for p in root.iterdir() if (p / "config.json").is_file())


def load_example(name: str) -> RawModel:
    """Load a bundled example config by name. Raises BadInputError for an unknown name."""
    names = list_examples()
    if name not in names:
        raise BadInputError(f"unknown example {name!r}; available: {', '.join(names)}")
    return _load_local(f"example:{name}", data_dir() / "examples" / name, "example")


# --------------------------------------------------------------------------- the Hub

def parse_hub_source(source: str) -> tuple[str, str | None] | None:
    """Return (repo_id, revision) when SOURCE names a Hub repo, else None."""
    m = _HUB_URL.fullmatch(source)
    if m:
        repo, rev = m.group(1), m.group(2)
    else:
        repo, at, rev = source.partition("@")
        if at and not rev:
            return None  # "org/name@": a revision left empty is not the main branch
    if not _REPO_ID.fullmatch(repo) or ".." in repo:
        return None
    if rev and not _REVISION.fullmatch(rev):
        return None
    return repo, (rev or None)


T = TypeVar("T")


#: retried statuses: those of huggingface_hub's ``http_backoff`` (hub-and-github.md section 1.6)
RETRY_STATUSES = (408, 429, 500, 502, 503, 504)
#: first backoff step and cap, s: huggingface_hub ``http_backoff`` uses 1 s and 8 s (section 1.6); we halve
#: them and add full jitter (AWS Architecture Blog, "Exponential Backoff And Jitter", 2015) because a
#: crawl runs many readers at once and a CLI user waits on each step
BACKOFF_BASE_S, BACKOFF_MAX_S = 0.5, 5.0


def retry_wait(exc: Any, attempt: int, base_s: float = BACKOFF_BASE_S, max_s: float = BACKOFF_MAX_S) -> float:
    """Seconds to wait before retry ``attempt`` (0-based) of a failed Hub read.

    The Hub's own answer first: a spent ``RateLimit`` quota (``r=0``) waits its reset ``t`` plus 1 s,
    as huggingface_hub's ``http_backoff`` does (parsed with ``huggingface_hub.utils.parse_ratelimit_headers``),
    else a numeric ``Retry-After``; otherwise exponential backoff with full jitter. Capped at ``max_s``.
    """
    headers = getattr(getattr(exc, "response", None), "headers", None) or {}
    try:
        from huggingface_hub.utils import parse_ratelimit_headers  # huggingface_hub >= 1.2
        limit = parse_ratelimit_headers(headers)
    except Exception:  # noqa: BLE001 - an older huggingface_hub or a proxy's malformed header: no hint
        limit = None
    if limit is not None and limit.remaining == 0:
        return min(max_s, float(limit.reset_in_seconds) + 1.0)
    retry_after = headers.get("Retry-After")
    if retry_after and retry_after.isdigit():
        return min(max_s, float(retry_after))
    return min(max_s, base_s * 2 ** attempt) * random.random()


def with_backoff(call: Callable[[], T], *, attempts: int = 3, base_s: float = BACKOFF_BASE_S,
                 max_s: float = BACKOFF_MAX_S, sleep: Callable[[float], None] = time.sleep) -> T:
    """Run a Hub read, retrying 408, 429 and 5xx answers (``RETRY_STATUSES``) after :func:`retry_wait`.

    Most huggingface_hub calls (``model_info`` among them) make a single attempt in 2.4.0
    (hub-and-github.md section 1.6), hence this wrapper. Only use it for idempotent reads.

    Raises:
        huggingface_hub.errors.HfHubHTTPError: the last failure, or the first that is not retried.
    """
    from huggingface_hub.errors import HfHubHTTPError

    for attempt in range(attempts):
        try:
            return call()
        except HfHubHTTPError as exc:
            status = getattr(getattr(exc, "response", None), "status_code", None)
            if status not in RETRY_STATUSES or attempt == attempts - 1:
                raise
            sleep(retry_wait(exc, attempt, base_s, max_s))
    raise AssertionError("unreachable")  # pragma: no cover


def redact(url: str) -> str:
    """The URL without credentials (``http://user:pass@host`` -> ``http://***@host``) for messages."""
    return re.sub(r"//[^/@\s]+@", "//***@", url)


_TIMEOUTS_SET = False


def install_hub_timeouts(read_s: float = 60.0) -> None:
    """Give huggingface_hub's shared HTTP client a timeout (its default has none, so one stalled Hub call
    would hang the CLI or the bot's worker for ever). Idempotent; a no-op if the library changes shape."""
    global _TIMEOUTS_SET
    if _TIMEOUTS_SET:
        return
    try:
        from huggingface_hub import set_client_factory
        from huggingface_hub.utils._http import default_client_factory
    except ImportError:  # pragma: no cover - other huggingface_hub versions
        return

    def factory():
        client = default_client_factory()
        client.timeout = read_s  # connect, read, write and pool timeouts, seconds
        return client

    set_client_factory(factory)
    _TIMEOUTS_SET = True


#: what a user can do when the Hub cannot be reached (appended to the one-line error)
_NETWORK_HINT = " (check the network and HF_ENDPOINT, or pass a local config.json or folder)"


def _hub_error(exc: BaseException, repo_id: str, revision: str | None, endpoint: str) -> HubError | BadInputError:
    """Map a huggingface_hub / network exception to a one-line typed error."""
    from huggingface_hub import errors as e

    endpoint = redact(endpoint)
    rev = f"@{revision}" if revision else ""
    if isinstance(exc, e.GatedRepoError):
        return HubError(f"{repo_id} is gated: accept its conditions on the Hub and set HF_TOKEN to a token that may read it",
                        "gated")
    if isinstance(exc, e.RevisionNotFoundError):
        return HubError(f"{repo_id}: revision {revision!r} not found on the Hub", "not_found")
    if isinstance(exc, e.DisabledRepoError):
        return HubError(f"{repo_id} is disabled on the Hub", "not_found")
    if isinstance(exc, e.RepositoryNotFoundError):
        return HubError(f"{repo_id}{rev} not found on the Hub (or private and HF_TOKEN cannot read it)", "not_found")
    if isinstance(exc, e.RemoteEntryNotFoundError):
        return BadInputError(f"{repo_id}{rev} has no config.json (not a transformers model, or GGUF/adapter only)",
                             "missing_config")
    if isinstance(exc, e.OfflineModeIsEnabled):
        return HubError(f"cannot reach the Hub for {repo_id}: HF_HUB_OFFLINE is set", "network")
    if isinstance(exc, e.LocalEntryNotFoundError):
        return HubError(f"cannot reach the Hub at {endpoint} for {repo_id}{_NETWORK_HINT}", "network")
    if isinstance(exc, e.HfHubHTTPError):
        status = getattr(getattr(exc, "response", None), "status_code", "?")
        if status == 401:
            return HubError(f"{repo_id}: the Hub refused the token (401); check HF_TOKEN", "gated")
        if status == 403:
            return HubError(f"{repo_id}: access forbidden (403); the token lacks permission", "gated")
        return HubError(f"{repo_id}: the Hub answered HTTP {status}",
                        "rate_limited" if status == 429 else "network")
    return HubError(f"cannot reach the Hub at {endpoint} for {repo_id}: {type(exc).__name__}{_NETWORK_HINT}",
                    "network")


def _network_errors() -> tuple[type[BaseException], ...]:
    from huggingface_hub.errors import HfHubHTTPError, LocalEntryNotFoundError, OfflineModeIsEnabled

    extra: list[type[BaseException]] = []
    for mod in ("httpx2", "httpx"):
        try:
            extra.append(__import__(mod).HTTPError)
        except (ImportError, AttributeError):
            pass
    return (HfHubHTTPError, LocalEntryNotFoundError, OfflineModeIsEnabled, ConnectionError, TimeoutError, OSError,
            *extra)


def _weight_formats(filenames: list[str]) -> list[str]:
    fmts = []
    checks = [("safetensors", (".safetensors",)), ("pytorch-pickle", (".bin", ".pt", ".pth", ".ckpt")),
              ("gguf", (".gguf",)), ("onnx", (".onnx",))]
    for name, suffixes in checks:
        if any(f.endswith(suffixes) and not f.endswith("training_args.bin") for f in filenames):
            fmts.append(name)
    return fmts


def hub_endpoint() -> str:
    """The Hub's base URL from ``HF_ENDPOINT`` now (default https://huggingface.co), without a trailing slash.

    Raises:
        BadInputError: HF_ENDPOINT is not an http(s) URL with a host (a user's setting: exit 2, not a Hub error).
    """
    endpoint = (os.environ.get("HF_ENDPOINT") or "https://huggingface.co").strip().rstrip("/")
    if not re.fullmatch(r"https?://[^\s/?#]+(/[^\s?#]*)?", endpoint):
        raise BadInputError(f"HF_ENDPOINT {endpoint[:80]!r} is not an http(s) URL (e.g. https://huggingface.co)")
    from urllib.parse import urlsplit
    try:  # a bracketed host that is no IPv6 address, or a port out of 0-65535 (huggingface_hub fails on import)
        parts = urlsplit(endpoint)
        ok = bool(parts.hostname)
        parts.port
    except ValueError as exc:
        raise BadInputError(f"HF_ENDPOINT {endpoint[:80]!r} is not a usable URL: {exc}") from None
    if not ok:
        raise BadInputError(f"HF_ENDPOINT {endpoint[:80]!r} names no host (e.g. https://huggingface.co)")
    return endpoint


def license_from_tags(tags) -> str | None:
    """The license id of a Hub ``license:<id>`` tag (the Hub mirrors the card's license into one), or None."""
    return next((t.split(":", 1)[1] for t in (tags or []) if isinstance(t, str) and t.startswith("license:")), None)


def hub_cache_dir() -> str | None:
    """The huggingface_hub cache folder from the environment now (the library reads it at import time)."""
    return os.environ.get("HF_HUB_CACHE") or (
        os.path.join(os.environ["HF_HOME"], "hub") if os.environ.get("HF_HOME") else None)


def load_hub(source: str, repo_id: str, revision: str | None = None, token: str | None = None, *,
             attempts: int = 3, derivatives: bool = True, endpoint: str | None = None,
             checkpoint: bool = True, allow_adapter: bool = True) -> RawModel:
    """Fetch ``config.json`` (and ``hf_quant_config.json``) of a Hub repo at a pinned commit.

    A PEFT adapter repo (``adapter_config.json``, no ``config.json``; ``allow_adapter``) is read as its base model
    (``base_model_name_or_path``, a Hub repo read at its main branch) under the adapter repo's own provenance, with
    a note (:mod:`scorer.adapters`).

    ``attempts`` bounds the tries of each Hub read on 429/5xx (:func:`with_backoff`); ``derivatives=False``
    skips the lookup of quantized derivatives (one listing call) as the batch crawl does; ``checkpoint=False``
    skips the safetensors headers (:func:`read_hub_checkpoint`: one range read per shard).

    Raises:
        HubError: not found, gated, private, revision missing, Hub unreachable (exit code 3).
        BadInputError: the repo has no config.json, or it is oversize or not JSON (exit code 2).
        Both carry a ``reason`` (see :class:`scorer.errors.DeploysheetError`).
    """
    endpoint = (endpoint or hub_endpoint()).rstrip("/")
    token = token or os.environ.get("HF_TOKEN") or None
    from huggingface_hub import HfApi, get_hf_file_metadata, hf_hub_download, hf_hub_url

    api = HfApi(endpoint=endpoint, token=token, library_name="deploysheet", library_version=__version__)
    cache_dir = hub_cache_dir()
    install_hub_timeouts()
    try:
        info = with_backoff(attempts=attempts, call=lambda: api.model_info(
            repo_id, revision=revision, timeout=HUB_TIMEOUT_S,
            expand=["sha", "siblings", "safetensors", "gated", "private", "cardData", "tags"]))
        sha = info.sha
        if not isinstance(sha, str) or not _SHA.fullmatch(sha):
            raise HubError(f"{repo_id}: the Hub gave no valid commit sha for revision {revision or 'main'}")
        names = [s.rfilename for s in (info.siblings or [])]
        if not all(isinstance(n, str) for n in names):
            raise HubError(f"{repo_id}: the Hub's file list is malformed")
        if names and "config.json" not in names and ADAPTER_CONFIG in names and allow_adapter:
            return _load_hub_adapter(source, repo_id, revision, token, attempts, derivatives, endpoint, checkpoint,
                                     info, sha, names)
        if names and "config.json" not in names:
            raise BadInputError(f"{repo_id} at commit {sha[:7]} has no config.json (files: {', '.join(sorted(names)[:8])})",
                                "missing_config")
        wanted = ["config.json"] + (["hf_quant_config.json"] if "hf_quant_config.json" in names else []) + (
            [ST_MODULES] if ST_MODULES in names else [])
        configs: dict[str, dict[str, Any]] = {}
        for fname in wanted:
            url = hf_hub_url(repo_id, fname, revision=sha, endpoint=endpoint)
            meta = with_backoff(attempts=attempts, call=lambda url=url: get_hf_file_metadata(url, token=token, endpoint=endpoint,
                                                                     timeout=HUB_TIMEOUT_S))
            if fname == ST_MODULES and meta.size is not None and meta.size > MAX_ST_MODULES_BYTES:
                continue  # not a sentence-transformers module list: config.json alone decides
            if meta.size is not None and meta.size > MAX_CONFIG_BYTES:
                raise BadInputError(f"{repo_id}: {fname} is {meta.size:,} bytes, over the {MAX_CONFIG_BYTES:,}-byte cap",
                                    "invalid_json")
            local = with_backoff(attempts=attempts, call=lambda fname=fname: hf_hub_download(
                repo_id, fname, revision=sha, token=token, endpoint=endpoint, cache_dir=cache_dir))
            with open(local, "rb") as fh:
                if fname == ST_MODULES:
                    try:
                        configs[fname] = json.loads(fh.read(MAX_ST_MODULES_BYTES + 1))
                    except (ValueError, RecursionError):
                        pass  # not JSON (or nested past the parser): config.json alone decides
                    continue
                configs[fname] = parse_json_bytes(fh.read(MAX_CONFIG_BYTES + 1), f"{repo_id}/{fname}")
    except (HubError, BadInputError):
        raise
    except _network_errors() as exc:
        raise _hub_error(exc, repo_id, revision, endpoint) from None
    except (ValueError, TypeError, AttributeError, KeyError) as exc:  # HTML captive portal, wrong JSON shapes
        raise HubError(f"{repo_id}: the Hub at {redact(endpoint)} answered with malformed data "
                       f"({type(exc).__name__})") \
            from None
    derived = quantized_derivatives(api, repo_id) if derivatives else None
    try:
        raw = _hub_raw(source, repo_id, revision, endpoint, info, sha, names, configs, derived)
    except (ValueError, TypeError, AttributeError, KeyError) as exc:
        raise HubError(f"{repo_id}: the Hub at {redact(endpoint)} answered with malformed metadata "
                       f"({type(exc).__name__})") from None
    if checkpoint:
        raw.checkpoint, raw.checkpoint_note = read_hub_checkpoint(api, repo_id, sha, names, token, endpoint,
                                                                  attempts=attempts)
    return raw


def _load_hub_adapter(source, repo_id, revision, token, attempts, derivatives, endpoint, checkpoint, info, sha,
                      names) -> RawModel:
    """A Hub PEFT adapter repo: its base model's config under the adapter repo's provenance (see :func:`load_hub`)."""
    from huggingface_hub import get_hf_file_metadata, hf_hub_download, hf_hub_url

    from .adapters import ADAPTER_CONFIG as name, adapter_note, base_model
    url = hf_hub_url(repo_id, name, revision=sha, endpoint=endpoint)
    meta = with_backoff(attempts=attempts, call=lambda: get_hf_file_metadata(url, token=token, endpoint=endpoint,
                                                                             timeout=HUB_TIMEOUT_S))
    if meta.size is not None and meta.size > MAX_CONFIG_BYTES:
        raise BadInputError(f"{repo_id}: {name} is {meta.size:,} bytes, over the {MAX_CONFIG_BYTES:,}-byte cap",
                            "invalid_json")
    local = with_backoff(attempts=attempts, call=lambda: hf_hub_download(
        repo_id, name, revision=sha, token=token, endpoint=endpoint, cache_dir=hub_cache_dir()))
    with open(local, "rb") as fh:
        adapter = parse_json_bytes(fh.read(MAX_CONFIG_BYTES + 1), f"{repo_id}/{name}")
    base = base_model(adapter, repo_id)
    hub = parse_hub_source(base)
    if hub is None or base.startswith((".", "/", "~")):
        raise BadInputError(f"{repo_id}: {name} names base model {base[:120]!r}, which is not a Hub repo id "
                            "(org/name): score the base model's folder instead", "missing_config")
    if hub[0] == repo_id:
        raise BadInputError(f"{repo_id}: {name} names the repo itself as its base model", "missing_config")
    try:
        raw = load_hub(base, hub[0], hub[1], token, attempts=attempts, derivatives=derivatives, endpoint=endpoint,
                       checkpoint=checkpoint, allow_adapter=False)
    except (HubError, BadInputError) as exc:
        raise type(exc)(f"{repo_id} is an adapter of {hub[0]}: {exc}", exc.reason) from None
    base_sha = (raw.provenance.commit_sha or "")[:7]
    gated = info.gated if isinstance(info.gated, str) else ("yes" if info.gated else None)
    from .adapters import adapter_rank, vllm_refusal
    raw.provenance = Provenance(
        kind="hub", source=source, repo_id=repo_id, revision=revision, commit_sha=sha, endpoint=endpoint,
        files=[name] + [f"{hub[0]}/{f}" for f in raw.provenance.files], weight_formats=_weight_formats(names),
        gated=gated, private=info.private, license=license_from_tags(info.tags), tags=list(info.tags or []),
        adapter_base=hub[0], adapter_rank=adapter_rank(adapter), adapter_refused=vllm_refusal(adapter))
    raw.source_notes.insert(0, adapter_note(adapter, repo_id, f"{hub[0]}@{base_sha}" if base_sha else hub[0]))
    return raw


def read_hub_checkpoint(api, repo_id: str, sha: str, names: list[str], token: str | None, endpoint: str, *,
                        attempts: int = 3, workers: int = 8) -> tuple[CheckpointHeaders | None, str | None]:
    """The tensor inventory of a Hub repo's safetensors weights at commit ``sha``, from their headers only.

    The same reads as huggingface_hub's ``get_safetensors_metadata`` and through its own parser,
    ``HfApi.parse_safetensors_file_metadata``: per file one GET with ``Range: bytes=0-100000`` and, when the header
    is longer, a second ``Range: bytes=8-{8+length-1}`` (header cap :func:`header_max_bytes`); no weight download.
    It differs in what it needs not ask: the file list of ``model_info`` (``names``) says whether
    ``model.safetensors`` or the index exists (no HEAD probes), and the index is downloaded with the same size
    cap (:data:`MAX_INDEX_BYTES`) and cache folder as the configs (``get_safetensors_metadata`` downloads it
    uncapped into the cache huggingface_hub fixed at import). Each read is retried on 429/5xx
    (:func:`with_backoff`; the library's range GETs make one attempt); shards are read ``workers`` at a time.

    Best effort, as :func:`read_local_checkpoint`: ``(None, reason)`` when a header or the index is unusable,
    a shard the index names is not in the repo, or the Hub fails these reads; ``(None, None)`` when the repo has
    no ``model.safetensors`` nor index.
    """
    from concurrent.futures import ThreadPoolExecutor

    from huggingface_hub import get_hf_file_metadata, hf_hub_download, hf_hub_url

    short = f"{repo_id}@{sha[:7]}"
    fname = SAFETENSORS_SINGLE
    try:
        if SAFETENSORS_SINGLE in names:
            files, idx, listed = [SAFETENSORS_SINGLE], None, set()
        elif SAFETENSORS_INDEX in names:
            fname = SAFETENSORS_INDEX
            url = hf_hub_url(repo_id, SAFETENSORS_INDEX, revision=sha, endpoint=endpoint)
            meta = with_backoff(attempts=attempts, call=lambda: get_hf_file_metadata(
                url, token=token, endpoint=endpoint, timeout=HUB_TIMEOUT_S))
            if meta.size is not None and meta.size > MAX_INDEX_BYTES:
                raise CheckpointUnreadable(f"{SAFETENSORS_INDEX} is {meta.size:,} bytes, over the "
                                           f"{MAX_INDEX_BYTES:,}-byte cap")
            local = with_backoff(attempts=attempts, call=lambda: hf_hub_download(
                repo_id, SAFETENSORS_INDEX, revision=sha, token=token, endpoint=endpoint, cache_dir=hub_cache_dir()))
            with open(local, "rb") as fh:
                try:
                    index = parse_json_bytes(fh.read(MAX_INDEX_BYTES + 1), SAFETENSORS_INDEX, MAX_INDEX_BYTES,
                                             "index")
                except BadInputError as exc:
                    raise CheckpointUnreadable(str(exc)) from None
            files, listed = _index_shards(index, SAFETENSORS_INDEX)
            idx = SAFETENSORS_INDEX
            absent = [x for x in files if x not in names]
            if absent:
                raise CheckpointUnreadable(f"{len(absent)} of {len(files)} shards that {SAFETENSORS_INDEX} names are "
                                           f"not in the repo at {sha[:7]}: {', '.join(absent[:3])}")
        else:
            return None, None

        def header(f: str) -> list[StoredTensor]:
            meta = with_backoff(attempts=attempts, call=lambda: api.parse_safetensors_file_metadata(
                repo_id, f, revision=sha, token=token, timeout=HUB_TIMEOUT_S))
            return tensors_from_header(meta, f)

        if len(files) == 1:
            per_file = [header(files[0])]
        else:
            with ThreadPoolExecutor(max_workers=min(workers, len(files))) as pool:
                per_file = list(pool.map(header, files))
        tensors = [t for chunk in per_file for t in chunk]
        check_unique(tensors)
        if idx:
            _check_index(tensors, listed, idx)
    except CheckpointUnreadable as exc:
        return None, str(exc)
    except Exception as exc:  # noqa: BLE001 - best effort: parsing errors, HTTP errors, network failures
        from huggingface_hub.errors import HfHubHTTPError, SafetensorsParsingError
        if isinstance(exc, SafetensorsParsingError):
            return None, f"malformed safetensors header on the Hub ({_brief(exc)})"
        if isinstance(exc, HfHubHTTPError):
            status = getattr(getattr(exc, "response", None), "status_code", "?")
            return None, f"the Hub answered HTTP {status} to the safetensors header reads of {short}"
        return None, f"the safetensors headers of {short} could not be read ({type(exc).__name__})"
    what = f"{idx} + {len(files)} shard(s)" if idx else fname
    return CheckpointHeaders(kind="hub", source=f"Hub {short}: {what}, headers read with HTTP Range requests "
                                                f"(bytes=0-100000, then the rest of a longer header); no weights "
                                                f"downloaded", files=files, index=idx, tensors=tensors), None


def quantized_derivatives(api, repo_id: str, limit: int = 20) -> list[str] | None:
    """Repos whose model card declares ``base_model: quantized: <repo_id>`` (the Hub's base_model relation).

    Best effort: a failure here never fails the sheet (returns None, meaning 'not looked up').
    """
    try:
        return with_backoff(lambda: [m.id for m in api.list_models(filter=f"base_model:quantized:{repo_id}",
                                                                    limit=limit)])
    except Exception:  # noqa: BLE001 - optional signal; any Hub or parsing failure just omits it
        return None


def _hub_raw(source, repo_id, revision, endpoint, info, sha, names, configs, derivatives=None) -> RawModel:
    st = info.safetensors
    card = info.card_data
    license_ = None
    if card is not None:
        license_ = getattr(card, "license", None) or (card.get("license") if hasattr(card, "get") else None)
    if not license_:
        license_ = license_from_tags(info.tags)
    gated = info.gated if isinstance(info.gated, str) else ("yes" if info.gated else None)
    prov = Provenance(
        kind="hub", source=source, repo_id=repo_id, revision=revision, commit_sha=sha, endpoint=endpoint,
        files=list(configs),
        safetensors_parameters=dict(st.parameters) if st is not None and st.parameters else None,
        safetensors_total=st.total if st is not None else None,
        weight_formats=_weight_formats(names), gated=gated, private=info.private,
        license=str(license_) if license_ else None, tags=list(info.tags or []),
        quantized_derivatives=derivatives,
    )
    config, st_note = as_embedding_model(configs["config.json"], configs.get(ST_MODULES), "the repository's modules.json")
    if st_note:
        prov.files = [f for f in configs]
    else:
        prov.files = [f for f in configs if f != ST_MODULES]
    return RawModel(config=config, quant_config=configs.get("hf_quant_config.json"), provenance=prov,
                    source_notes=[st_note] if st_note else [])


def expand_user(text: str) -> Path:
    """``Path(text).expanduser()``, or the path as written when ``~user`` names no user (or HOME is unknown):
    ``~tilde`` is then a folder of that name, not an internal error."""
    try:
        return Path(text).expanduser()
    except RuntimeError:
        return Path(text)


def load_source(source: str | None, revision: str | None = None, token: str | None = None) -> RawModel:
    """Resolve SOURCE (path, ``example:NAME``, Hub id or URL; None = default example).

    Raises:
        BadInputError: missing file, invalid JSON, oversize file, unknown example (exit 2).
        HubError: Hub failures (exit 3).
    """
    if revision is not None and not _REVISION.fullmatch(revision):
        raise BadInputError(f"--revision {revision[:80]!r} is not a branch, tag or commit name")
    if source is None or source == "":
        return load_example(DEFAULT_EXAMPLE)
    try:
        source.encode("utf-8")
    except UnicodeEncodeError:
        raise BadInputError("SOURCE is not valid UTF-8 text") from None
    if len(source) > 4096:
        raise BadInputError("SOURCE is longer than 4096 characters")
    if source.startswith("example:"):
        if revision is not None:
            raise BadInputError("--revision applies to Hub repos only; an example: source has no revisions")
        return load_example(source[len("example:"):])
    path = expand_user(source)
    try:
        exists = path.exists()
        # "corpus/org__name" where ./corpus is a folder: a local path with a typo, not a Hub repo id
        first = source.split("/", 1)[0]
        local_parent = "/" in source and not source.startswith(("http://", "https://")) and \
            first not in ("", ".", "..", "~") and expand_user(first).is_dir()
        # "/abs/path", "./x", "../x", "~/x": a Hub repo id never starts so; a missing one is a missing path
        spelled_local = first in ("", ".", "..") or first.startswith("~")
    except OSError as exc:  # e.g. a component longer than NAME_MAX
        raise BadInputError(f"{source[:80]}: {exc.strerror or exc}") from None
    if exists:
        if revision is not None:
            raise BadInputError(f"--revision applies to Hub repos only; {source[:200]} is a local "
                                f"{'folder' if path.is_dir() else 'file'}")
        return _load_local(source, path, "local")
    if spelled_local:
        raise BadInputError(f"{source[:200]}: no such file or folder")
    if local_parent:
        raise BadInputError(f"{source[:200]}: no such file or folder (the folder {first[:80]!r} "
                            "exists here, so this is read as a local path, not a Hub repo id)")
    hub = parse_hub_source(source)
    if hub is not None and not source.startswith((".", "/", "~")) and not source.endswith(".json"):
        repo_id, rev = hub
        return load_hub(source, repo_id, revision or rev, token)
    raise BadInputError(f"{source[:200]}: no such file or folder (and not a Hub repo id of the form org/name)")
