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
"""

from __future__ import annotations

import json
import os
import random
import re
import stat
import time
from pathlib import Path
from typing import Any, Callable, Literal, TypeVar

from pydantic import BaseModel, Field

from . import __version__
from .errors import BadInputError, HubError
from .resources import data_dir

#: Largest config file read, in bytes. Real config.json files are a few KiB; the largest in the
#: wild (with big id2label tables) stay well under 1 MiB.
MAX_CONFIG_BYTES = 2 * 1024 * 1024
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


class RawModel(BaseModel):
    """A parsed config plus optional quantization sidecar and its provenance."""

    config: dict[str, Any]
    quant_config: dict[str, Any] | None = Field(None, description="hf_quant_config.json (ModelOpt), if present")
    provenance: Provenance


# --------------------------------------------------------------------------- local files

def _read_json_file(path: Path, what: str) -> dict[str, Any]:
    try:
        st = path.stat()
    except FileNotFoundError:
        raise BadInputError(f"{what}: file not found: {path}") from None
    except OSError as exc:
        raise BadInputError(f"{what}: cannot read {path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(st.st_mode):
        raise BadInputError(f"{what}: {path} is not a regular file")
    size = st.st_size
    if size > MAX_CONFIG_BYTES:
        raise BadInputError(f"{what}: {path} is {size:,} bytes, over the {MAX_CONFIG_BYTES:,}-byte cap for config files")
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_CONFIG_BYTES + 1)
    except OSError as exc:
        raise BadInputError(f"{what}: cannot read {path}: {exc.strerror or exc}") from None
    return parse_json_bytes(data, str(path))


def parse_json_bytes(data: bytes, name: str) -> dict[str, Any]:
    """Parse a config file's bytes into a dict.

    Raises:
        BadInputError: oversize, not UTF-8, not JSON, or not a JSON object.
    """
    if len(data) > MAX_CONFIG_BYTES:
        raise BadInputError(f"{name} is over the {MAX_CONFIG_BYTES:,}-byte cap for config files", "invalid_json")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise BadInputError(f"{name} is not UTF-8 text (byte {exc.start})", "invalid_json") from None
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadInputError(f"{name} is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})",
                            "invalid_json") from None
    except RecursionError:
        raise BadInputError(f"{name} is not usable JSON: nesting too deep", "invalid_json") from None
    if not isinstance(obj, dict):
        raise BadInputError(f"{name} must hold a JSON object, found {type(obj).__name__}", "invalid_json")
    try:  # "\ud800" escapes decode to lone surrogates that no output can encode
        json.dumps(obj, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise BadInputError(f"{name} holds invalid Unicode (a lone surrogate escape)", "invalid_json") from None
    except (ValueError, RecursionError):
        raise BadInputError(f"{name} is not usable JSON: nesting too deep", "invalid_json") from None
    return obj


def _load_local(source: str, path: Path, kind: Literal["local", "example"]) -> RawModel:
    if path.is_dir():
        folder, cfg_path = path, path / "config.json"
        if not cfg_path.exists():
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
    return RawModel(config=config, quant_config=quant,
                    provenance=Provenance(kind=kind, source=source, path=str(cfg_path), files=files))


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
        repo, _, rev = source.partition("@")
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
        return HubError(f"cannot reach the Hub at {endpoint} for {repo_id}", "network")
    if isinstance(exc, e.HfHubHTTPError):
        status = getattr(getattr(exc, "response", None), "status_code", "?")
        if status == 401:
            return HubError(f"{repo_id}: the Hub refused the token (401); check HF_TOKEN", "gated")
        if status == 403:
            return HubError(f"{repo_id}: access forbidden (403); the token lacks permission", "gated")
        return HubError(f"{repo_id}: the Hub answered HTTP {status}",
                        "rate_limited" if status == 429 else "network")
    return HubError(f"cannot reach the Hub at {endpoint} for {repo_id}: {type(exc).__name__}", "network")


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
    """The Hub's base URL from ``HF_ENDPOINT`` now (default https://huggingface.co), without a trailing slash."""
    return (os.environ.get("HF_ENDPOINT") or "https://huggingface.co").rstrip("/")


def license_from_tags(tags) -> str | None:
    """The license id of a Hub ``license:<id>`` tag (the Hub mirrors the card's license into one), or None."""
    return next((t.split(":", 1)[1] for t in (tags or []) if isinstance(t, str) and t.startswith("license:")), None)


def hub_cache_dir() -> str | None:
    """The huggingface_hub cache folder from the environment now (the library reads it at import time)."""
    return os.environ.get("HF_HUB_CACHE") or (
        os.path.join(os.environ["HF_HOME"], "hub") if os.environ.get("HF_HOME") else None)


def load_hub(source: str, repo_id: str, revision: str | None = None, token: str | None = None, *,
             attempts: int = 3, derivatives: bool = True, endpoint: str | None = None) -> RawModel:
    """Fetch ``config.json`` (and ``hf_quant_config.json``) of a Hub repo at a pinned commit.

    ``attempts`` bounds the tries of each Hub read on 429/5xx (:func:`with_backoff`); ``derivatives=False``
    skips the lookup of quantized derivatives (one listing call) as the batch crawl does.

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
        if names and "config.json" not in names:
            raise BadInputError(f"{repo_id} at commit {sha[:7]} has no config.json (files: {', '.join(sorted(names)[:8])})",
                                "missing_config")
        wanted = ["config.json"] + (["hf_quant_config.json"] if "hf_quant_config.json" in names else [])
        configs: dict[str, dict[str, Any]] = {}
        for fname in wanted:
            url = hf_hub_url(repo_id, fname, revision=sha, endpoint=endpoint)
            meta = with_backoff(attempts=attempts, call=lambda url=url: get_hf_file_metadata(url, token=token, endpoint=endpoint,
                                                                     timeout=HUB_TIMEOUT_S))
            if meta.size is not None and meta.size > MAX_CONFIG_BYTES:
                raise BadInputError(f"{repo_id}: {fname} is {meta.size:,} bytes, over the {MAX_CONFIG_BYTES:,}-byte cap",
                                    "invalid_json")
            local = with_backoff(attempts=attempts, call=lambda fname=fname: hf_hub_download(
                repo_id, fname, revision=sha, token=token, endpoint=endpoint, cache_dir=cache_dir))
            with open(local, "rb") as fh:
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
        return _hub_raw(source, repo_id, revision, endpoint, info, sha, names, configs, derived)
    except (ValueError, TypeError, AttributeError, KeyError) as exc:
        raise HubError(f"{repo_id}: the Hub at {redact(endpoint)} answered with malformed metadata "
                       f"({type(exc).__name__})") from None


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
    return RawModel(config=configs["config.json"], quant_config=configs.get("hf_quant_config.json"), provenance=prov)


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
        return load_example(source[len("example:"):])
    path = Path(source).expanduser()
    try:
        exists = path.exists()
    except OSError as exc:  # e.g. a component longer than NAME_MAX
        raise BadInputError(f"{source[:80]}: {exc.strerror or exc}") from None
    if exists:
        return _load_local(source, path, "local")
    hub = parse_hub_source(source)
    if hub is not None and not source.startswith((".", "/", "~")) and not source.endswith(".json"):
        repo_id, rev = hub
        return load_hub(source, repo_id, revision or rev, token)
    raise BadInputError(f"{source[:200]}: no such file or folder (and not a Hub repo id of the form org/name)")
