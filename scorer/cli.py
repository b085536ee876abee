"""Command line: ``deploysheet score | rules | examples | gpus``.

Exit codes: 0 ok; 2 bad input (file, JSON, config dimensions, GPU, precision, arguments);
3 Hub or network failure; 1 internal error. Errors are one line on stderr, never a traceback
(set DEPLOYSHEET_DEBUG=1 to see one). Output files are written whole or not at all.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from . import __version__
from .errors import EXIT_BAD_INPUT, EXIT_INTERNAL, HUB_READ_FAILURES, BadInputError, DeploysheetError

EPILOG = "exit codes: 0 ok, 2 bad input, 3 Hub/network failure, 4 quality gate failed (action), 1 internal error"


class _StoreOnce(argparse._StoreAction):
    """The default store action, refusing an option given twice: argparse would silently keep the last value
    (``predict --gpu A --gpu B`` predicted B alone). Repeatable options use append actions and are unaffected."""

    def __call__(self, parser, namespace, values, option_string=None):
        given = namespace.__dict__.setdefault("_given_once", {})
        if self.dest in given:
            parser.error(f"{option_string} given twice ({str(given[self.dest])[:40]!r}, then {str(values)[:40]!r}); "
                         "it takes one value")
        given[self.dest] = values
        super().__call__(parser, namespace, values, option_string)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.register("action", None, _StoreOnce)
        self.register("action", "store", _StoreOnce)

    def error(self, message: str):  # one line, exit 2
        prog = self.prog.replace("deploysheet", "").strip()
        raise BadInputError(f"{prog + ': ' if prog else ''}{message}")


#: the most GPUs one layout may name (an assumption: 65,536, far past any deployment; one NVLink domain,
#: GB200 NVL72, has 72)
MAX_GPUS = 1 << 16


def refuse_overwrite(out: str | None, inputs) -> None:
    """BadInputError when ``-o out`` would replace one of the command's input files (a config, a folder's
    config.json, a database), directly or through a link."""
    if not out:
        return
    target = os.path.realpath(out)
    for src in inputs:
        if not src or not isinstance(src, str) or not os.path.exists(src):
            continue
        cands = [src, os.path.join(src, "config.json"), os.path.join(src, "hf_quant_config.json")] \
            if os.path.isdir(src) else [src]
        if any(os.path.realpath(c) == target for c in cands):
            raise BadInputError(f"-o {out[:200]}: is the input {src[:200]}; refusing to overwrite it")


def refuse_inside(out: str | None, folder: str | None, what: str, flag: str = "-o") -> None:
    """BadInputError when ``-o out`` lies inside ``folder`` (an input folder such as --corpus, whose files the
    command reads): an output must never replace one of them."""
    if not out or not folder or not os.path.isdir(folder):
        return
    root = os.path.realpath(folder)
    if os.path.commonpath([root, os.path.realpath(out)]) == root:
        raise BadInputError(f"{flag} {out[:200]}: is inside {what} {folder[:200]}, whose files this command reads; "
                            "refusing to write there")


def write_output(text: str, out: str | None) -> None:
    """Write to stdout (``out`` None, empty or ``-``, the usual spelling of stdout), or atomically to ``out`` (temp
    file in the same folder, then rename)."""
    if not out or out == "-":
        if sys.stdout is None:  # started with stdout closed (>&-)
            raise BadInputError("stdout is closed: give -o FILE")
        try:
            sys.stdout.write(text)
            sys.stdout.flush()
        except BrokenPipeError:
            raise
        except UnicodeEncodeError:  # a console whose encoding lacks the sheet's characters (PYTHONIOENCODING=ascii)
            enc = getattr(sys.stdout, "encoding", None) or "ascii"
            sys.stdout.write(text.encode(enc, errors="replace").decode(enc, errors="replace"))
            sys.stdout.flush()
        except OSError as exc:  # a full disk or a closed device behind the redirection: the user's environment
            raise BadInputError(f"cannot write the output to stdout: {exc.strerror or exc}") from None
        return
    try:
        data = text.encode("utf-8")
        path = Path(os.path.realpath(out))  # write through a symlink to its target
        if path.exists() and not path.is_file():
            raise BadInputError(f"-o {out}: not a regular file (a folder, device or pipe); refusing to replace it")
        folder = path.parent
        if not folder.is_dir():
            raise BadInputError(f"output folder does not exist: {Path(out).parent}")
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name[:64]}.", dir=folder)
    except UnicodeEncodeError:
        raise BadInputError("the sheet holds text that cannot be encoded as UTF-8") from None
    except OSError as exc:
        raise BadInputError(f"cannot write {out[:200]}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        umask = os.umask(0)
        os.umask(umask)
        try:  # a file replaced keeps its mode (a read-only 0444 sheet stays read-only)
            mode = path.stat().st_mode & 0o7777
        except FileNotFoundError:
            mode = 0o666 & ~umask  # mkstemp creates 0600; a new sheet is an ordinary file
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise BadInputError(f"cannot write {out[:200]}: {exc.strerror or exc}") from None
        raise


def _positive_float(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not v > 0 or v != v or v == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number: {text!r}")
    return v


def _bounded(lo: float, hi: float, unit: str):
    """argparse type: a positive number within [lo, hi] (absurd values are typos, and print badly)."""
    def parse(text: str) -> float:
        v = _positive_float(text)
        if not lo <= v <= hi:
            raise argparse.ArgumentTypeError(f"must be between {lo:g} and {hi:g} {unit}: {text[:40]!r}")
        return v
    return parse


#: bounds of prices and latency targets: $0.01-$10,000 per GPU-hour; 0.01 ms to 10^7 ms (2.8 h)
_PRICE = _bounded(0.01, 1e4, "$ per GPU-hour")
_MS = _bounded(0.01, 1e7, "ms")


def _positive_int(text: str) -> int:
    try:
        if not text.strip().isascii() or "_" in text:  # int() also takes "٣" and "1_0"; --concurrency does not
            raise ValueError(text)
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {text!r}")
    return v


def _precision(text: str) -> str:
    """--precision: a non-empty id (which ids exist is checked against the catalog where it is used)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("empty: name a weight precision (deploysheet gpus lists each GPU's formats)")
    return text


class _GpuAppend(argparse.Action):
    """--gpu ID and --gpus ID,ID into one list, in command-line order (prices follow that order)."""

    def __call__(self, parser, namespace, values, option_string=None):
        items = [g.strip() for g in str(values).split(",")] if option_string == "--gpus" else [values]
        if not all(items):
            raise BadInputError(f"compare: {option_string} {str(values)[:100]!r}: empty GPU id in the list")
        setattr(namespace, self.dest, [*(getattr(namespace, self.dest, None) or []), *items])


def _limit(text: str) -> int:
    from .crawl import MAX_LISTED
    v = _positive_int(text)
    if v > MAX_LISTED:
        raise argparse.ArgumentTypeError(f"at most {MAX_LISTED:,}: {text[:40]!r}")
    return v


def _price_list(text: str) -> list[float]:
    return [_PRICE(x.strip()) for x in text.split(",")]


def _port(text: str) -> int:
    v = _positive_int(text)
    if v > 65535:
        raise argparse.ArgumentTypeError(f"not a TCP port (1-65535): {text!r}")
    return v


def _speculative_args(parser) -> None:
    """--speculative / --spec-tokens / --acceptance-rate, shared by score and predict."""
    parser.add_argument("--speculative", default="none", choices=["none", "mtp", "eagle3"],
                        help="speculative decoding: the checkpoint's MTP layers or an EAGLE-3 draft head (default "
                             "none)")
    parser.add_argument("--spec-tokens", type=_positive_int, help="tokens drafted per step (default: mtp = the MTP "
                                                                  "layers, eagle3 = 3)")
    parser.add_argument("--acceptance-rate", type=float, help="per-token acceptance of drafted tokens (default: "
                                                              "mtp 0.875, eagle3 0.7; sources in the output)")


def build_parser() -> argparse.ArgumentParser:
    ap = _Parser(prog="deploysheet", description="Deployment sheets for LLMs from a Hugging Face config.",
                 epilog=EPILOG)
    ap.add_argument("--version", action="version", version=f"deploysheet {__version__}")
    sub = ap.add_subparsers(dest="cmd", metavar="COMMAND", parser_class=_Parser)

    sc = sub.add_parser("score", help="render the deployment sheet of a model", epilog=EPILOG,
                        description="SOURCE: a config.json, a folder holding one, example:NAME, or a Hub repo id "
                                    "org/name[@revision] (default: example:llama-3.1-8b).")
    sc.add_argument("source", nargs="?", default=None, metavar="SOURCE")
    sc.add_argument("--revision", help="Hub branch, tag or commit (resolved to a commit sha)")
    sc.add_argument("--gpu", action="append", dest="gpus", metavar="ID",
                    help="GPU id (repeatable; the first is primary). Default H100-SXM. See 'deploysheet gpus'.")
    sc.add_argument("--precision", type=_precision, help="weight precision: bf16, fp16, fp8, fp8_channel, fp8_block, int8, nvfp4, mxfp4, "
                                        "int4 (default: the checkpoint's own, else bf16)")
    sc.add_argument("--kv-dtype", default="auto", help="KV cache dtype: auto (default: what the framework's "
                                                      "--kv-cache-dtype auto caches: the checkpoint's KV quantization "
                                                      "where the engine reads it, else the model's dtype), bf16, fp16, "
                                                      "fp8, fp32, nvfp4; one the engine cannot launch exits 2")
    sc.add_argument("--kv-policy", default="auto",
                    help="KV allocation policy: auto (default: the --framework engine's own), vllm, vllm-unified, "
                         "sglang, trtllm, or window (llama.cpp-style)")
    sc.add_argument("--tp", type=_positive_int, help="fix the tensor-parallel degree for the serving regimes")
    sc.add_argument("--framework", default="vllm", choices=["vllm", "sglang", "trtllm"],
                    help="serving framework profile of the cost model (default vllm)")
    sc.add_argument("--usd-per-gpu-hour", type=_PRICE, help="GPU price override for $/1M tokens")
    _speculative_args(sc)
    sc.add_argument("--calibration", help="calibration file (default: the packaged data/calibration.json)")
    sc.add_argument("--format", default="md", choices=["md", "json", "html", "csv"],
                    help="md (default), json, html, or csv: one row per serving regime per GPU")
    sc.add_argument("-o", "--output", help="write to this file instead of stdout (atomically)")
    sc.add_argument("--no-recommendations", action="store_true", help="skip the what-if recommendations")
    sc.add_argument("--ttft-ms", type=_MS, help="TTFT target: report the cheapest layout meeting it")
    sc.add_argument("--itl-ms", type=_MS, help="inter-token latency target (TPOT), ms")
    sc.add_argument("--isl", type=_positive_int, default=1024,
                    help="input tokens per request of the Pareto frontier and the SLA search (default 1024)")
    sc.add_argument("--osl", type=_positive_int, default=1024,
                    help="output tokens per request of the Pareto frontier and the SLA search (default 1024)")

    pr = sub.add_parser("predict", help="predict TTFT, TPOT and throughput for one workload and layout",
                        epilog=EPILOG)
    pr.add_argument("source", metavar="SOURCE", help="a config.json, a folder holding one, example:NAME or a Hub "
                                                     "repo id (as for score)")
    pr.add_argument("--revision", help="Hub revision (branch, tag or commit) of a repo id")
    pr.add_argument("--gpu", default="H100-SXM", metavar="ID", help="GPU id of the catalog (default H100-SXM; an "
                                                                    "unknown id lists the known ones)")
    pr.add_argument("--tp", type=_positive_int, default=1, help="tensor-parallel degree (default 1)")
    pr.add_argument("--pp", type=_positive_int, default=1, help="pipeline stages (default 1)")
    pr.add_argument("--ep", type=_positive_int, default=1, help="expert-parallel degree of a MoE model (default 1; "
                    "vLLM takes 1 or TP x DP only)")
    pr.add_argument("--dp", type=_positive_int, default=None, help="attention data-parallel ranks (default 1, or "
                                                                   "--num-gpus / (tp x pp))")
    pr.add_argument("--num-gpus", type=_positive_int, default=None, help="GPUs of the layout (default tp x pp x dp)")
    pr.add_argument("--precision", type=_precision, default=None, help="weight format (bf16, fp16, fp8, fp8_block, int8, int4, nvfp4, "
                                                      "mxfp4, ...; default: the checkpoint's)")
    pr.add_argument("--kv-dtype", default="auto", help="auto (what the framework's --kv-cache-dtype auto caches), bf16, "
                    "fp16, fp8, fp32, nvfp4; one the engine cannot launch exits 2")
    pr.add_argument("--framework", default="vllm", choices=["vllm", "sglang", "trtllm"])
    pr.add_argument("--isl", type=_positive_int, required=True, help="input tokens per request")
    pr.add_argument("--osl", type=_positive_int, required=True, help="output tokens per request")
    pr.add_argument("--concurrency", required=True, help="concurrent requests, or 'max'")
    pr.add_argument("--usd-per-gpu-hour", type=_PRICE, help="price of one GPU-hour in USD (default: the catalog's)")
    _speculative_args(pr)
    pr.add_argument("--calibration", help="calibration file (default: the packaged data/calibration.json)")
    pr.add_argument("--format", default="json", choices=["json", "md"], help="output format (default json)")
    pr.add_argument("-o", "--output")

    cm = sub.add_parser("compare", help="compare models for one workload: cheapest layout, GPUs, $/month, risks",
                        epilog=EPILOG,
                        description="SOURCE: anything 'score' accepts (a config.json, a folder, example:NAME, a Hub "
                                    "repo id). For each model and GPU: the layout and concurrency meeting "
                                    "--ttft-ms/--itl-ms at --isl/--osl with the lowest $ per month for --qps "
                                    "(the fewest GPUs when no price is known), $ per month "
                                    "(730 h) and per 1M output tokens, risks, and a recommendation.")
    cm.add_argument("sources", nargs="*", metavar="SOURCE", help="two to 8 models (a --label NAME=SOURCE whose "
                                                                 "SOURCE is not listed adds it)")
    cm.add_argument("--label", action="append", dest="labels", metavar="NAME=SOURCE",
                    help="show SOURCE as NAME, adding SOURCE to the models when it is not listed (repeatable; "
                         "default name: the repo id, example name or folder name)")
    cm.add_argument("--isl", type=_positive_int, required=True, help="input tokens per request")
    cm.add_argument("--osl", type=_positive_int, required=True, help="output tokens per request")
    cm.add_argument("--qps", type=_positive_float, required=True, help="requests per second to serve")
    cm.add_argument("--ttft-ms", type=_MS, help="time-to-first-token target, ms")
    cm.add_argument("--itl-ms", type=_MS, help="inter-token latency (TPOT) target, ms")
    cm.add_argument("--gpu", action=_GpuAppend, dest="gpus", metavar="ID",
                    help="GPU to compare on (repeatable; default H100-SXM). See 'deploysheet gpus'.")
    cm.add_argument("--gpus", action=_GpuAppend, dest="gpus", metavar="ID,ID",
                    help="comma-separated GPUs (same as repeating --gpu; the order of all --gpu/--gpus on the "
                         "command line is the order of --usd-per-gpu-hour)")
    cm.add_argument("--max-utilization", type=_positive_float, default=1.0, metavar="U",
                    help="plan replicas for at most this share of their capacity (default 1: none; 0.8 leaves 20%% "
                         "headroom for bursty arrivals)")
    cm.add_argument("--usd-per-gpu-hour", type=_price_list, metavar="X[,X...]",
                    help="GPU price: one for every GPU, or a comma-separated one per GPU in --gpu/--gpus order "
                         "(default: the catalog's midpoint)")
    cm.add_argument("--precision", type=_precision, help="weight precision for every model (default: each checkpoint's own, else bf16)")
    cm.add_argument("--framework", default="vllm", choices=["vllm", "sglang", "trtllm"])
    cm.add_argument("--calibration", help="calibration file (default: the packaged data/calibration.json)")
    cm.add_argument("--format", default="md", choices=["md", "html", "json", "csv"],
                    help="md (default), html, json, or csv: one row per model per GPU (TTFT and TPOT are means)")
    cm.add_argument("-o", "--output", help="write to this file instead of stdout (atomically)")

    va = sub.add_parser("validate", help="compare predictions with a measurements CSV (MdAPE, Spearman)",
                        epilog=EPILOG)
    va.add_argument("measurements", metavar="MEASUREMENTS.csv")
    va.add_argument("--corpus", required=True, help="folder holding <config>/config.json for the CSV's config column")
    va.add_argument("--calibration", help="calibration file to predict with (default: the packaged one)")
    va.add_argument("--cross-validate", choices=["model", "gpu", "framework"],
                    help="refit the calibration with each group left out and predict that group")
    va.add_argument("--max-iterations", type=_positive_int, default=40, help="optimizer evaluations per refit")
    va.add_argument("--format", default="md", choices=["md", "json"], help="report format (default md)")
    va.add_argument("-o", "--out", "--output", dest="out", help="write the report here (atomically)")

    ca = sub.add_parser("calibrate", help="fit the cost model's efficiencies to a measurements CSV", epilog=EPILOG)
    ca.add_argument("measurements", metavar="MEASUREMENTS.csv")
    ca.add_argument("--corpus", required=True, help="folder holding <config>/config.json for the CSV's config column")
    ca.add_argument("-o", "--output", required=True, help="calibration file to write (use with --calibration)")
    ca.add_argument("--calibration", help="start from this calibration (default: the packaged one)")
    ca.add_argument("--max-iterations", type=_positive_int, default=60, help="optimizer evaluations per fit (default 60)")
    ca.add_argument("--no-cross-validate", action="store_true", help="skip the leave-one-model-out error report")

    hub = sub.add_parser("hub", help="Hub bot: post sheets as discussions or model-card pull requests",
                         epilog=EPILOG)
    hub_sub = hub.add_subparsers(dest="hub_cmd", metavar="HUBCOMMAND", parser_class=_Parser)
    hp = hub_sub.add_parser("post", help="post or update the sheet (discussion or model-card PR) on a Hub model repo",
                            epilog=EPILOG,
                            description="An explicit post by an operator is its own opt-in. Idempotent: one "
                                        "discussion (or model-card pull request) per repo, updated in place; a "
                                        "closed one is never reopened and means the bot stays away.")
    hp.add_argument("repo_id", metavar="REPO_ID")
    hp.add_argument("--revision")
    hp.add_argument("--as", dest="mode", default=os.environ.get("DEPLOYSHEET_BOT_MODE") or "discussion",
                    choices=["discussion", "pr"],
                    help="discussion (default), or pr: a pull request adding a 'Deployment sheet' section to the "
                         "model card between markers, the rest of the card left byte-for-byte intact")
    hp.add_argument("--dry-run", metavar="DIR", help="write what would be posted to DIR; no Hub writes")
    hp.add_argument("--gpu", action="append", dest="gpus", metavar="ID")
    hp.add_argument("--format", default="md", choices=["md", "json"], help="how to print the outcome")
    hs = hub_sub.add_parser("serve", help="run the webhook server (FastAPI + uvicorn)", epilog=EPILOG,
                            description="Needs WEBHOOK_SECRET (the Hub webhook's secret) and HF_TOKEN in the "
                                        "environment. Posts only for repos matching --allow.")
    hs.add_argument("--host", default="0.0.0.0", help="interface to listen on (default 0.0.0.0: all; use 127.0.0.1 "
                                                       "to try it locally)")
    hs.add_argument("--port", type=_port, default=7860)
    hs.add_argument("--db", default="deploysheet-bot.sqlite", help="SQLite queue file (survives restarts)")
    hs.add_argument("--allow", action="append", default=[], metavar="PATTERN",
                    help="repos the bot may post on: org/name or org/* (repeatable; also DEPLOYSHEET_BOT_ALLOW, "
                         "comma-separated)")
    hs.add_argument("--posts-per-hour", type=_positive_int, default=30)
    hs.add_argument("--as", dest="mode", default=os.environ.get("DEPLOYSHEET_BOT_MODE") or "discussion",
                    choices=["discussion", "pr"],
                    help="what to post for each allowed repo: a discussion (default) or a model-card pull request")

    sub.add_parser("action", help="GitHub Action entry point (reads its inputs from the environment)", epilog=EPILOG,
                   description="Run by action.yml. Scores DEPLOYSHEET_MODEL_PATH (or DEPLOYSHEET_HF_REPO_ID), writes "
                               "the sheet to $GITHUB_STEP_SUMMARY, posts a sticky pull-request comment or a release-"
                               "body block, writes score/grade/passed/sheet-path/comment-url to $GITHUB_OUTPUT, and "
                               "exits 4 when the score is below DEPLOYSHEET_THRESHOLD. See bot/action.py.")

    cr = sub.add_parser("crawl", help="score many Hub models into a SQLite database (resumable)", epilog=EPILOG,
                        description="Select models from a Hub listing (filters below) or from --ids FILE, fetch each "
                                    "config.json at its current commit, score it and store the result in DB keyed by "
                                    "repo and commit. A rerun fetches only repos whose commit changed; a killed crawl "
                                    "resumes where it stopped. Per-repo failures are recorded, never fatal.")
    cr.add_argument("--db", required=True, help="SQLite database file (created if missing; WAL mode)")
    cr.add_argument("--ids", metavar="FILE", help="file of repo ids (org/name[@revision] per line; # comments)")
    cr.add_argument("--task", help="Hub pipeline tag, e.g. text-generation")
    cr.add_argument("--author", help="Hub user or organization")
    cr.add_argument("--library", help="library tag, e.g. transformers")
    cr.add_argument("--tag", action="append", dest="tags", metavar="TAG", help="tag filter (repeatable; all must match)")
    cr.add_argument("--search", help="substring of the repo id")
    cr.add_argument("--sort", choices=["downloads", "likes", "trending", "created", "modified"],
                    help="listing order (descending)")
    cr.add_argument("--limit", type=_limit, help="at most this many repos from the listing (up to 5,000,000)")
    cr.add_argument("--gpu", action="append", dest="gpus", metavar="ID",
                    help="GPU to predict costs on (repeatable; default H100-SXM)")
    cr.add_argument("--precision", type=_precision, help="weight precision (default: each checkpoint's own, else bf16)")
    cr.add_argument("--framework", default="vllm", choices=["vllm", "sglang", "trtllm"])
    cr.add_argument("--calibration", help="calibration file (default: the packaged one)")
    cr.add_argument("--recommendations", action="store_true",
                    help="store full sheets with the what-if recommendations (slower; off by default)")
    cr.add_argument("--concurrency", type=_positive_int, default=8,
                    help="repos in flight at once (default 8; caps the Hub requests in flight)")
    cr.add_argument("--dask", metavar="ADDRESS",
                    help="run the per-repo work on a Dask cluster: a scheduler address (tcp://host:8786) or 'local'")
    cr.add_argument("--retry-errors", action="store_true",
                    help="also retry repos recorded as gated, missing config, invalid ... at their current commit")
    cr.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                    help="progress bar with rate and ETA on stderr (default: when stderr is a terminal)")

    lb = sub.add_parser("leaderboard", help="rank a crawl database's models by score and by $/1M tokens",
                        epilog=EPILOG,
                        description="DB: a crawl database (deploysheet crawl --db). Ranks the models at their current "
                                    "commit by score and by predicted $/1M output tokens on --gpu in --regime; repos "
                                    "that could not be scored are listed with their status and error. With --out DIR: "
                                    "writes leaderboard.md, leaderboard.csv and index.html (a self-contained sortable, "
                                    "filterable page) all-or-nothing; otherwise prints --format.")
    lb.add_argument("db", metavar="DB", nargs="?", help="crawl database file (or --from DIR...)")
    lb.add_argument("--from", dest="from_dirs", nargs="+", metavar="DIR",
                    help="rank local models instead of a crawl database: each DIR holding a config.json, or whose "
                         "subfolders do (no Hub needed)")
    lb.add_argument("--gpu", default="H100-SXM", metavar="ID", help="GPU of the cost ranking (default H100-SXM; "
                                                                    "must have costs in the database)")
    lb.add_argument("--regime", default="throughput", choices=["latency", "throughput", "long_context",
                                                               "short_context"],
                    help="serving regime of the cost ranking (default throughput)")
    lb.add_argument("--out", metavar="DIR", help="write leaderboard.md, leaderboard.csv, index.html (and sheets/) here")
    lb.add_argument("--format", choices=["md", "csv", "html"], help="format printed without --out (default md)")
    lb.add_argument("-o", "--output", help="write --format to this file instead of stdout (atomically)")
    lb.add_argument("--sheets", action="store_true",
                    help="also render each model's stored sheet as sheets/<name>.html and link to it (needs --out "
                         "or --push-to-hub)")
    lb.add_argument("--push-to-hub", metavar="DATASET_REPO_ID",
                    help="upload the folder to this Hub dataset repo (created if missing; HF_TOKEN, HF_ENDPOINT)")

    ru = sub.add_parser("rules", help="list the rules findings cite")
    ru.add_argument("--format", default="md", choices=["md", "json"])
    sub.add_parser("examples", help="list the bundled example configs")
    gp = sub.add_parser("gpus", help="list the GPU catalog")
    gp.add_argument("--format", default="md", choices=["md", "json"])
    return ap


def cmd_score(args) -> int:
    from .render import render
    from .sheet import Options, build_sheet, validate_options
    from .sources import load_source

    opts = Options(gpus=args.gpus or ["H100-SXM"], precision=args.precision, kv_dtype=args.kv_dtype.strip().lower(),
                   kv_policy=args.kv_policy.strip().lower(), tp=args.tp, framework=args.framework, speculative=args.speculative,
                   spec_tokens=args.spec_tokens, acceptance_rate=args.acceptance_rate,
                   usd_per_gpu_hour=args.usd_per_gpu_hour, calibration=args.calibration,
                   recommendations=not args.no_recommendations, ttft_ms=args.ttft_ms, itl_ms=args.itl_ms,
                   isl=args.isl, osl=args.osl)
    if args.source is not None and not args.source.strip():
        raise BadInputError("SOURCE is empty: give a config.json, a folder, example:NAME or a Hub repo id")
    validate_options(opts)  # every cheap check before any network access
    refuse_overwrite(args.output, [args.source, args.calibration])
    raw = load_source(args.source, revision=args.revision)
    sheet = build_sheet(raw, opts)
    at_tp = [c for c in sheet.capacity if c.tp == opts.tp and c.pp == 1] if opts.tp else []
    refused = at_tp if at_tp and all(c.engine_blocker for c in at_tp) else []
    if refused:  # as predict does: a sheet of a layout the engine refuses would predict nothing
        runs = [c.layout or f"TP{c.tp}" for c in sheet.capacity if not c.engine_blocker]
        raise BadInputError(f"--tp {opts.tp}: {refused[0].engine_blocker}; "
                            + (f"{sheet.options.precision} runs at {', '.join(runs)}" if runs else
                               f"no TP up to 8 runs {sheet.options.precision}") + " (or omit --tp)")
    write_output(render(sheet, args.format), args.output)
    return 0


def cmd_crawl(args) -> int:
    from .crawl import (CrawlOptions, CrawlStats, DaskBackend, ThreadBackend, list_hub, plan, read_ids_file, run_crawl,
                        selected_from, summary_line)
    from .crawldb import CrawlDB
    from .hardware import get_gpu, get_precision
    from .sources import hub_endpoint

    listing = any(v is not None for v in (args.task, args.author, args.library, args.tags, args.search, args.sort,
                                          args.limit))
    if args.ids and listing:
        raise BadInputError("crawl: give either --ids FILE or listing filters (--task, --author, ...), not both")
    if not args.ids and not listing:
        raise BadInputError("crawl: say which models: --ids FILE, or listing filters such as --task text-generation "
                            "--sort downloads --limit 100")
    gpus = [get_gpu(g).id for g in (args.gpus or ["H100-SXM"])]
    if args.precision:
        get_precision(args.precision)
    options = CrawlOptions(gpus=list(dict.fromkeys(gpus)), precision=args.precision, framework=args.framework,
                           calibration=args.calibration, recommendations=args.recommendations)
    digest = options.digest()  # reads the calibration file: a bad one fails here, before any network access
    ids = read_ids_file(args.ids) if args.ids else None
    endpoint = hub_endpoint()
    token = os.environ.get("HF_TOKEN") or None
    created = not os.path.exists(args.db)
    with CrawlDB(args.db) as db:
        listed = None
        try:
            if listing:
                listed = list_hub(endpoint, token, task=args.task, author=args.author, library=args.library,
                                  tags=args.tags, search=args.search, sort=args.sort, limit=args.limit)
                db.note_listed(listed)
            selected = selected_from(listed, ids)
            tasks, unchanged = plan(db, selected, options, digest, endpoint, token, retry_errors=args.retry_errors)
        except BaseException:
            if created:  # failed before its first result: leave no empty database behind
                db.close()
                for suffix in ("", "-wal", "-shm", "-journal"):
                    try:
                        os.unlink(args.db + suffix)
                    except OSError:
                        pass
            raise
        stats = CrawlStats(selected=len(selected), unchanged=unchanged)
        backend = DaskBackend(args.dask) if args.dask else ThreadBackend()
        try:
            run_crawl(db, tasks, backend, args.concurrency, progress=args.progress, stats=stats)
        finally:
            backend.close()
        print(summary_line(stats, args.db), file=sys.stderr)
        if stats.interrupted:  # every finished result is committed; do not wait for the Hub requests in flight
            print("deploysheet: interrupted; run the same command again to resume", file=sys.stderr)
            sys.stderr.flush()
            sys.stdout.flush()
            os._exit(130)
        if stats.crawled and stats.unreachable == stats.crawled:  # not one repo reached: the network, not the repos
            from .errors import HubError
            raise HubError(f"crawl: could not reach the Hub at {endpoint} for any of the {stats.crawled} repos tried "
                           "(check the network and HF_ENDPOINT); their errors are stored and the next run retries "
                           "them")
    return 0


def cmd_leaderboard(args) -> int:
    import shutil

    from .leaderboard_output import HUB_REPO_ID

    if args.out and args.output:
        raise BadInputError("leaderboard: give --out DIR (every format) or -o FILE (one --format), not both")
    if args.out and args.format:
        raise BadInputError("leaderboard: --out DIR writes every format; --format applies to stdout or -o FILE")
    args.format = args.format or "md"
    if args.sheets and not (args.out or args.push_to_hub):
        raise BadInputError("leaderboard: --sheets writes sheets/ beside index.html: give --out DIR or --push-to-hub")
    if args.push_to_hub is not None and not HUB_REPO_ID.fullmatch(args.push_to_hub):
        raise BadInputError(f"leaderboard: --push-to-hub {args.push_to_hub[:100]!r} is not a Hub repo id (org/name)")
    if (args.db is None) == (not args.from_dirs):
        raise BadInputError("leaderboard: give a crawl database DB or --from DIR..., one of the two")
    if args.push_to_hub is not None:
        from .sources import hub_endpoint
        hub_endpoint()  # a malformed HF_ENDPOINT is the user's setting (exit 2), before huggingface_hub loads
    for folder in args.from_dirs or []:  # the outputs never land among the configs being read
        refuse_inside(args.output, folder, "--from")
        refuse_inside(args.out, folder, "--from", "--out")
    tmp_db = None
    try:  # the scratch database goes whatever happens, bad input in a --from folder included
        if args.from_dirs:
            from .leaderboard import local_database
            tmp_db = tempfile.mkdtemp(prefix="deploysheet-local-")
            args.db = local_database(args.from_dirs, os.path.join(tmp_db, "local.db"), args.gpu)
        return _leaderboard(args)
    finally:
        if tmp_db:
            shutil.rmtree(tmp_db, ignore_errors=True)


def _leaderboard(args) -> int:
    import shutil

    from .leaderboard import build_leaderboard
    from .leaderboard_output import build_files, check_folder, push_to_hub, render, warn, write_folder

    refuse_overwrite(args.output, [args.db])
    if args.out:
        check_folder(args.out, [args.db])  # before the work
    board = build_leaderboard(args.db, args.gpu, args.regime)
    if args.from_dirs:
        from .leaderboard import localized
        board = localized(board, args.from_dirs)
    if not args.out and not args.push_to_hub:
        write_output(render(board, args.format), args.output)
        return 0
    files, problems = build_files(board, args.db, args.sheets)
    warn(problems)
    if args.out:
        folder = write_folder(args.out, files, [args.db])
        print(f"deploysheet: wrote {len(files)} files to {args.out} ({len(board.entries)} models scored, "
              f"{len(board.not_scored)} not scored)", file=sys.stderr)
        if args.push_to_hub:
            write_output(push_to_hub(folder, args.push_to_hub, board) + "\n", None)
        return 0
    tmp = tempfile.mkdtemp(prefix="deploysheet-leaderboard-")
    try:
        folder = write_folder(os.path.join(tmp, "leaderboard"), files)
        url = push_to_hub(folder, args.push_to_hub, board)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if args.output:  # only once the upload worked: a failed push leaves nothing written
        write_output(render(board, args.format), args.output)
    write_output(url + "\n", None)
    return 0


def cmd_rules(args) -> int:
    import json

    from .score import rules
    rs = rules()
    if args.format == "json":
        write_output(json.dumps([r.model_dump() for r in rs.values()], indent=2) + "\n", None)
        return 0
    lines = ["| id | severity | category | rule | threshold | source |", "|---|---|---|---|---|---|"]
    for r in rs.values():
        lines.append(f"| {r.id} | {r.severity} | {r.category} | {r.title}: {r.statement} | {r.threshold} | "
                     f"{r.source} |")
    write_output("\n".join(lines) + "\n", None)
    return 0


def cmd_examples(args) -> int:
    from .sources import DEFAULT_EXAMPLE, list_examples
    write_output("".join(f"example:{n}{' (default)' if n == DEFAULT_EXAMPLE else ''}\n" for n in list_examples()),
                 None)
    return 0


def cmd_gpus(args) -> int:
    import json

    from .hardware import catalog
    cat = catalog()
    if args.format == "json":
        write_output(json.dumps([g.model_dump() for g in cat.values()], indent=2) + "\n", None)
        return 0
    lines = ["| id | BF16 TFLOPS | FP8 | FP4 | memory GB (label) | GiB modelled | HBM TB/s | SMs | scale-up GB/s | "
             "$/GPU-h |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for g in cat.values():
        price = f"{g.usd_per_hour.low:.2f}-{g.usd_per_hour.high:.2f}" if g.usd_per_hour else "–"
        def tf(k, g=g):
            v = g.tflops.get(k)
            return f"{v:,.0f}" if v else "–"
        lines.append(f"| {g.id} | {tf('bf16')} | {tf('fp8')} | {tf('fp4')} | {g.memory_gb:,.0f} | "
                     f"{g.memory_bytes / 2 ** 30:,.1f}{'' if g.memory_capacity_bytes else ' *'} | {g.mem_bw_tbps:.2f} | "
                     f"{g.sms} | {g.scaleup_gbps:,.0f} | {price} |")
    if any(not g.memory_capacity_bytes for g in cat.values()):
        lines += ["", "GiB modelled: the capacity each GPU's source states (data/gpus.json memory_capacity_bytes, "
                      "binary-sized HBM where the source says GiB); * no source states it exactly: the label's vendor "
                      "GB x 1e9 B, the conservative reading (it may under-count binary-sized HBM by up to 7%)."]
    write_output("\n".join(lines) + "\n", None)
    return 0


def _runs_instead(cm, framework: str, context: int = 1) -> str:
    """The nearest layouts that do run, for a refused (precision, TP): the same precision at the closest TP
    degrees the engine accepts, and the precisions it accepts at the requested TP — each only where the weights
    and one sequence of ``context`` tokens fit."""
    from .costmodel import CostModel, Layout
    from .hardware import get_precision
    from .quant import DEFAULT_TPS
    from .regimes import layout_problem
    from .resources import load_json
    lay, arch = cm.layout, cm.arch

    def runs(prec, tp: int, ep: int | None = None, pp: int | None = None) -> bool:
        alt = Layout(tp=tp, pp=pp or lay.pp, ep=ep or (lay.ep if lay.ep <= tp * lay.dp and (tp * lay.dp) % lay.ep == 0
                                                       else 1), dp=lay.dp)
        if layout_problem(arch, alt.tp, alt.pp, alt.ep, alt.dp):
            return False
        alt_cm = CostModel(arch, cm.params, cm.gpu, prec, alt, cm.kv_dtype, framework, cm.calibration,
                           cm.unquantized, cm.gemms, cm.kv_policy,
                           stored_weight_bytes=cm.stored_weight_bytes if prec.id == cm.precision.id else None,
                           engine_args=dict(cm.engine_args), speculative=cm.speculative)  # the draft's weights too
        return alt_cm.engine_blocker() is None and alt_cm.max_concurrency(context) >= 1  # runs and fits

    import math
    tps = sorted((t for t in DEFAULT_TPS if t != lay.tp), key=lambda t: (abs(math.log2(t / lay.tp)), t))
    same = [f"TP{t}" for t in tps if runs(cm.precision, t)][:3]
    others = [p for p in ("fp8", "fp8_block", "nvfp4", "int4", "int8", "mxfp4", "bf16")
              if p != cm.precision.id and runs(get_precision(p), lay.tp)]
    parts = []
    whole = lay.tp * lay.dp  # experts whole on each rank: the candidate layouts' EP = TP (x DP)
    if arch.is_moe and lay.ep == 1 and whole > 1 and runs(cm.precision, lay.tp, whole):
        parts.append(f"{cm.precision.id} runs at TP{lay.tp} with --ep {whole} (each expert whole on a rank)")
    if same:
        parts.append(f"{cm.precision.id} runs at {', '.join(same)}")
    if others:
        q = arch.quantization
        stored = q is not None and q.format == cm.precision.id
        parts.append(f"TP{lay.tp} runs {', '.join(others)}" + (
            " (from the 16-bit weights: this checkpoint is stored at " + cm.precision.id + ")" if stored else ""))
    if lay.pp > 1:  # a refused PP (an implementation without pipeline support): the same GPUs in one stage
        flat = [t for t in dict.fromkeys((lay.tp * lay.pp, lay.tp)) if t in DEFAULT_TPS and runs(cm.precision, t,
                                                                                                    pp=1)]
        if flat:
            parts.append(f"{cm.precision.id} runs without PP at {', '.join(f'TP{t}' for t in flat)}"
                         + (f" (with --dp {lay.dp})" if lay.dp > 1 else ""))
    if not parts:  # nothing of one stage holds it: the same TP (experts whole where split is refused) in PP stages
        eps = [None] + ([whole] if arch.is_moe and lay.ep == 1 and whole > 1 else [])
        staged = next(((pp, ep) for pp in load_json("regimes.json")["pp_degrees_multinode"]
                       if lay.pp < pp <= arch.num_layers for ep in eps if runs(cm.precision, lay.tp, ep, pp)), None)
        if staged:
            pp, ep = staged
            parts.append(f"{cm.precision.id} runs at TP{lay.tp}{f'·EP{ep}' if ep else ''}·PP{pp} "
                         f"(--pp {pp}{f' --ep {ep}' if ep else ''})")
    return ("nearest that run: " + "; ".join(parts)) if parts else "no nearby layout runs"


def cmd_predict(args) -> int:
    import json

    from .architecture import normalize
    from .costmodel import CostModel, Layout, load_calibration, unquantized_components
    from .gemms import inventory
    from .hardware import catalog_price, compute_dtype, get_gpu, get_precision
    from .kvcache import KV_DTYPES
    from .params import count_params
    from .regimes import layout_alternatives, layout_problem, predict, with_breakdown
    from .sheet import default_precision, error_caveats, expected_errors, layout_bias_notes
    from .sources import load_source

    from .measure import MAX_CONCURRENCY
    from .sheet import MAX_WORKLOAD_TOKENS

    if not args.source.strip():
        raise BadInputError("SOURCE is empty: give a config.json, a folder, example:NAME or a Hub repo id")
    gpu = get_gpu(args.gpu)
    args.kv_dtype = args.kv_dtype.strip().lower()
    if args.kv_dtype != "auto" and args.kv_dtype not in KV_DTYPES:
        raise BadInputError(f"unknown KV dtype {args.kv_dtype!r}; known: auto, {', '.join(KV_DTYPES)}")
    conc_ok = args.concurrency.isascii() and args.concurrency.isdigit() and \
        1 <= int(args.concurrency) <= MAX_CONCURRENCY
    if args.concurrency != "max" and not conc_ok:
        raise BadInputError(f"--concurrency must be an integer from 1 to {MAX_CONCURRENCY:,} or 'max', "
                            f"got {args.concurrency[:40]!r}")
    for name, val in (("isl", args.isl), ("osl", args.osl)):
        if val > MAX_WORKLOAD_TOKENS:
            raise BadInputError(f"--{name} must be between 1 and {MAX_WORKLOAD_TOKENS:,} tokens, got {val:,}")
    for name, val in (("tp", args.tp), ("pp", args.pp), ("ep", args.ep), ("dp", args.dp or 1),
                      ("num-gpus", args.num_gpus or 1)):
        if val > MAX_GPUS:
            raise BadInputError(f"--{name} {val:,} is absurd (at most {MAX_GPUS:,} GPUs)")
    if args.precision:
        get_precision(args.precision)
    dp = args.dp
    if args.num_gpus is not None:
        if args.num_gpus % (args.tp * args.pp):
            raise BadInputError(f"--num-gpus {args.num_gpus} is not a multiple of tp x pp = {args.tp * args.pp}")
        implied = args.num_gpus // (args.tp * args.pp)
        if dp is not None and dp != implied:
            raise BadInputError(f"--dp {dp} disagrees with --num-gpus {args.num_gpus} / (tp x pp)")
        dp = implied
    if args.tp * args.pp * (dp or 1) > MAX_GPUS:
        raise BadInputError(f"tp x pp x dp = {args.tp * args.pp * (dp or 1):,} GPUs is absurd (at most {MAX_GPUS:,})")
    refuse_overwrite(args.output, [args.source, args.calibration])
    cal = load_calibration(args.calibration)
    raw = load_source(args.source, revision=args.revision)
    arch = normalize(raw.config, raw.quant_config)
    if arch.kind != "decoder":
        raise BadInputError(f"{arch.kind} model: decoder serving predictions do not apply (rule S3)")
    problem = layout_problem(arch, args.tp, args.pp, args.ep, dp or 1)
    if problem:
        raise BadInputError(problem + "; " + layout_alternatives(arch, args.tp, args.pp, args.ep, dp or 1))
    prec = get_precision(args.precision or default_precision(arch, args.framework))
    from .launch import framework_gpu_problem
    if framework_gpu_problem(args.framework, gpu):
        raise BadInputError(framework_gpu_problem(args.framework, gpu))
    unq = unquantized_components(arch, prec.id)
    kv_source = None
    from .kvcache import default_kv_dtype, model_dtype
    runs_in = model_dtype(args.framework, arch, prec.id)
    auto_kv, auto_source = default_kv_dtype(args.framework, prec.id, runs_in, arch, gpu)
    if args.kv_dtype == "auto":
        args.kv_dtype, kv_source = auto_kv, auto_source
    from .launch import kv_launch_problem  # only what the engine launches: its --kv-cache-dtype must exist and take it
    why = kv_launch_problem(args.framework, args.kv_dtype, auto_kv, arch, gpu)
    if why:
        raise BadInputError(why)
    if args.framework == "vllm" and args.ep > 1 and args.ep != args.tp * (dp or 1):
        raise BadInputError(f"vLLM 0.33.0 has no flag for EP {args.ep}: --enable-expert-parallel spreads the experts "
                            f"over all TP x DP = {args.tp * (dp or 1)} GPUs (fused_moe/config.py: ep_size = TP x DP); "
                            f"run --ep {args.tp * (dp or 1)} or --ep 1 (experts split by TP), or --framework sglang (its --ep-size takes it)")
    params = count_params(arch)
    from .checkpoint import analyze, stored_weight_bytes
    ck = analyze(raw.checkpoint, arch, params) if raw.checkpoint else None
    stored = stored_weight_bytes(ck, prec.id) if ck else None
    from .costmodel import speculative_setting
    if args.speculative == "none" and (args.spec_tokens is not None or args.acceptance_rate is not None):
        raise BadInputError("--spec-tokens and --acceptance-rate need --speculative mtp or eagle3")
    spec = speculative_setting(args.speculative, arch, args.spec_tokens, args.acceptance_rate)
    cm = CostModel(arch, params, gpu, prec, Layout(tp=args.tp, pp=args.pp, ep=args.ep, dp=dp or 1), args.kv_dtype,
                   args.framework, cal, unq, inventory(arch), stored_weight_bytes=stored, speculative=spec)
    blocker = cm.engine_blocker()
    if blocker:
        raise BadInputError(blocker + "; " + _runs_instead(cm, args.framework, args.isl + args.osl))
    conc = "max" if args.concurrency == "max" else int(args.concurrency)
    price = args.usd_per_gpu_hour or catalog_price(gpu)
    p = with_breakdown(cm, predict(cm, args.isl, args.osl, conc, price))
    too_long = bool(arch.context_limit) and args.isl + args.osl > arch.context_limit
    full = cm.max_concurrency(args.isl + args.osl) if p.max_concurrency >= 1 and args.osl > 1 else None
    one_short = full is not None and full < 1  # one full-length sequence does not fit: the engine does not start
    if too_long or one_short:  # no engine serves it as configured: no latency figures, a note says why
        p = p.model_copy(update={"fits": False, "ttft_ms": None, "tpot_ms": None, "tokens_per_s_per_user": None,
                                 "output_tokens_per_s_per_gpu": None, "usd_per_1m_output_tokens": None,
                                 "bound": None, "breakdown": None, "queued": 0})
    out = {"model": raw.provenance.repo_id or raw.provenance.source, "gpu": gpu.id, "precision": prec.id,
           "kv_dtype": args.kv_dtype, "kv_dtype_source": kv_source or "--kv-dtype", "kv_policy": cm.kv_policy,
           "admission_cap": cm.admission_cap(), "framework": args.framework, **p.model_dump(),
           "expected_error_pct": expected_errors(cal, gpu.id, args.framework, cm.layout),
           "calibration": cal.path + (f" (fitted {cal.fit_date})" if cal.fit_date else " (uncalibrated)")}
    notes = error_caveats(cal, gpu.id, args.framework) + layout_bias_notes(cal, args.framework, cm.layout)
    if not arch.exact:
        from .sheet import estimate_reasons
        notes.append("parameter counts are estimated (" + "; ".join(estimate_reasons(arch)) + "): weights, KV "
                     "cache and latencies inherit that uncertainty")
    if arch.pooling_head is not None:
        notes.append(f"{arch.pooling_head.head_class} has no lm_head: the checkpoint cannot generate (engines serve it "
                     "as a pooling model); TTFT is its forward pass over the prompt, the decode numbers cost the "
                     "stack as if it generated")
    from .checkpoint import mismatch_message, shapes_differ
    if ck is not None and not ck.matches and shapes_differ(ck):
        notes.append("engines refuse to load this checkpoint: its tensor shapes differ from config.json (rule C1: "
                     + mismatch_message(ck) + "); the prediction is of the model as configured")
    if stored:
        notes.append(f"weight memory from the checkpoint's stored bytes ({stored / 2 ** 30:,.2f} GiB, safetensors "
                     "headers), not the config-derived estimate")
    if price is None:
        notes.append(f"{gpu.id} has no sourced price in the catalog: pass --usd-per-gpu-hour for $ per 1M tokens")
    experts = max((lay.ffn.num_experts for lay in arch.layers if getattr(lay.ffn, "kind", "") == "moe"), default=0)
    if args.ep > 1 and experts % args.ep:
        notes.append(f"EP {args.ep} does not divide the {experts} experts: ranks hold {experts // args.ep} or "
                     f"{-(-experts // args.ep)} experts per layer (vLLM 0.33.0 fused_moe/expert_map_manager.py "
                     "determine_expert_map); weight memory and step times are the fullest rank's")
    math_dtype = compute_dtype(prec, gpu)
    if math_dtype != prec.compute:
        notes.append(f"{gpu.id} has no native {prec.id} GEMM kernels (its tensor cores lack "
                     f"{' / '.join(prec.native)}): modelled as {prec.id} weights dequantized to {math_dtype} math "
                     "(weight-only kernels)")
    from .launch import kv_read_notes
    notes += kv_read_notes(args.framework, args.kv_dtype, gpu)
    if one_short:
        notes.append(f"does not fit: the KV cache of one sequence at its full isl + osl = {args.isl + args.osl:,} "
                     "tokens exceeds this layout's KV memory (fits by mean occupancy, isl + osl/2, but the request "
                     "grows to its full length); "
                     + ("vLLM 0.33.0 refuses to start ('To serve at least one request with the model's max seq len', "
                        "v1/core/kv_cache_planning.py)" if args.framework == "vllm" else
                        "the engine cannot hold the request at its full length")
                     + "; " + _runs_instead(cm, args.framework, args.isl + args.osl))
    elif full is not None and full < p.concurrency <= p.max_concurrency:  # where the occupancy decides the fit
        notes.append(f"fits and max_concurrency count each running sequence at its mean occupancy, isl + osl/2 = "
                     f"{args.isl + (args.osl + 1) // 2:,} tokens of KV (a steady closed loop's sequences are spread "
                     f"over their decode; engines page KV as tokens arrive and preempt when they run out): at the "
                     f"full isl + osl = {args.isl + args.osl:,} tokens only {full:,} fit at once")
    if args.osl == 1 and not too_long and p.tpot_ms is not None:
        notes.append("osl = 1: a request ends at its first token, so no engine measures a TPOT here; tpot_ms is "
                     "the decode step the model would run, for reference")
    if too_long:
        notes.append(f"isl + osl = {args.isl + args.osl:,} tokens exceeds the model's {arch.context_label}: no "
                     "engine serves this request as configured")
    if too_long:
        pass  # the max_position_embeddings note above says why
    elif not p.fits and p.max_concurrency < 1:
        notes.append("does not fit: the weights plus the KV cache of one sequence exceed this layout's memory"
                     + (f" (SGLang's default --mem-fraction-static for this GPU and layout is {cm.mem_fraction():g}: "
                        "weights and KV pool share that fraction of the memory)" if cm.sglang_default_fraction() else "")
                     + "; " + _runs_instead(cm, args.framework, args.isl + args.osl))
    elif p.queued:
        cap = cm.admission_cap()
        running = p.concurrency - p.queued
        if cap is not None and running >= cap and cap < p.max_concurrency:
            flag = {"vllm": "max-num-seqs", "sglang": "max-running-requests", "trtllm": "max_batch_size"}.get(
                args.framework, "batch cap")
            why = (f"its own --{flag} of 48 under speculative decoding when the flag is unset, data/engines.json "
                   "speculative_max_running_requests; set the flag higher for more"
                   if args.framework == "sglang" and cm.speculative is not None
                   else f"its default {flag} on {gpu.id}, data/engines.json")
            notes.append(f"{args.framework} admits {cap:,} requests at once ({why}): the other {p.queued:,} wait in "
                         f"the engine's queue (TTFT includes the wait); the KV cache would hold {p.max_concurrency:,}")
        else:
            notes.append(f"the KV cache holds {p.max_concurrency:,} sequences: the other {p.queued:,} requests wait "
                         "in the engine's queue (TTFT includes the wait)")
    if cm.admission_cap() is None and p.max_concurrency >= 1:
        notes.append(f"{args.framework} sets no cap on running requests by default (data/engines.json): the running "
                     "batch is what its KV pool holds")
    notes += raw.source_notes
    from .quant import checkpoint_blocker, engine_tp_size
    blk = checkpoint_blocker(arch, args.framework, engine_tp_size(args.framework, cm.layout.tp, cm.layout.dp))
    if blk:
        notes.append(f"{blk}: this predicts another export of the model (16-bit, or a format {args.framework} "
                     "loads), not the checkpoint as stored")
    if p.tpot_ms is not None:
        from .launch import launch_command
        out["launch"] = launch_command(cm, p, raw.provenance, raw.config).model_dump()
    out["breakdown_scope"] = ("one decode step at the running batch (per emitted token under speculative decoding) "
                              "and one request's prefill; tpot_ms adds the other users' prefill chunks riding in "
                              "decode steps, ttft_ms the queueing behind them")
    if spec is not None:
        out["speculative"] = {"method": spec.method, "tokens": spec.tokens, "acceptance_rate": spec.acceptance,
                              "acceptance_length": round(spec.acceptance_length, 3), "source": spec.source}
        notes.append(f"speculative decoding ({spec.method}): {spec.tokens} drafted token(s) per step, acceptance "
                     f"{spec.acceptance:g} per token → {spec.acceptance_length:.2f} tokens per step; TPOT is the "
                     "draft-and-verify step over the tokens it emits")
    out["notes"] = notes
    if args.format == "json":
        text = json.dumps(out, indent=2) + "\n"
    else:
        from .render import md_escape
        cols = (("layout", "layout", None), ("concurrency", "concurrency", None), ("fits", "fits", None),
                ("TTFT ms", "ttft_ms", 1), ("TPOT ms", "tpot_ms", 2), ("tok/s/user", "tokens_per_s_per_user", 1),
                ("tok/s/GPU", "output_tokens_per_s_per_gpu", 0), ("memory/GPU GiB", "memory_per_gpu_gib", 1),
                ("bound", "bound", None), ("$/1M out", "usd_per_1m_output_tokens", 3))

        def cell(v, digits):
            if v is None:
                return "–"
            if isinstance(v, bool):
                return "yes" if v else "no"
            return f"{v:,.{digits}f}" if digits is not None else md_escape(v)

        span = f" ({out['nodes']} nodes)" if out["nodes"] > 1 else ""
        b = out["breakdown"]
        text = (f"{md_escape(out['model'])} on {out['num_gpus']}× {gpu.id}{span}, {prec.id} weights, "
                f"{args.kv_dtype} KV ({md_escape(out['kv_dtype_source'])}), {args.framework}, {args.isl:,} in / "
                f"{args.osl:,} out\n\n"
                "| " + " | ".join(c[0] for c in cols) + " |\n|" + "---|" * len(cols) + "\n| "
                + " | ".join(cell(out[k], d) for _, k, d in cols) + " |\n")
        if b:
            text += ("\n| step (ms) | GEMM | attention | comm intra-node | comm inter-node | overhead | draft | total |\n"
                     "|---|---:|---:|---:|---:|---:|---:|---:|\n")
            for step in ("decode", "prefill"):
                x = b[step]
                text += (f"| {step} | {x['gemm']:.3f} | {x['attention']:.3f} | {x['comm_intra_node']:.3f} | "
                         f"{x['comm_inter_node']:.3f} | {x['overhead']:.3f} | {x['draft']:.3f} | {x['total']:.3f} |\n")
            text += f"\nThe breakdown is {out['breakdown_scope']}.\n"
        launch = out.get("launch")
        if launch and launch["argv"]:
            text += f"\nLaunch ({launch['engine']} {launch['version']}):\n\n```\n{launch['text']}\n```\n"
        for n in (launch or {}).get("notes", []):
            notes.append(n)
        ee = out["expected_error_pct"]
        if ee.get("tpot_ms") is not None:
            text += (f"\nExpected error (leave-one-model-out MdAPE): TTFT ±{ee['ttft_ms']:.0f}%, TPOT "
                     f"±{ee['tpot_ms']:.0f}%, tokens/s/GPU ±{ee['output_tokens_per_s_per_gpu']:.0f}%.\n")
        text += "".join(f"\n- {md_escape(n)}" for n in notes) + ("\n" if notes else "")
    write_output(text, args.output)
    return 0


def _default_label(prov, src: str) -> str:
    """A model's name in a comparison: the repo id, the example's name, or the folder's name (the folder holding
    config.json, never the path to it)."""
    if prov.kind == "hub":
        return prov.repo_id or src
    if prov.kind == "example":
        return src
    p = Path(prov.path or src)
    folder = p.parent if p.name == "config.json" or p.is_file() else p
    return folder.resolve().name or src


def cmd_compare(args) -> int:
    from . import report as report_mod
    from .costmodel import load_calibration
    from .hardware import get_precision
    from .render import render_report
    from .report import MAX_MODELS, Workload, build_report
    from .sources import load_source, parse_hub_source

    labels: dict[str, str] = {}
    for item in args.labels or []:
        name, sep, src = item.partition("=")
        if not sep or not name.strip() or not src.strip():
            raise BadInputError(f"compare: --label {item[:100]!r} is not NAME=SOURCE")
        if len(name) > 100 or any(c in name for c in "\n\r|<>`"):
            raise BadInputError(f"compare: --label name {name[:100]!r} must be one short line without | < > `")
        if src.strip() in labels and labels[src.strip()] != name.strip():
            raise BadInputError(f"compare: --label gives {src.strip()[:100]!r} two names "
                                f"({labels[src.strip()][:40]!r} and {name.strip()[:40]!r}); give it one")
        labels[src.strip()] = name.strip()
    sources = [s.strip() for s in args.sources]
    sources += [src for src in labels if src not in sources]  # --label NAME=SOURCE alone names a model too
    refuse_overwrite(args.output, [*sources, args.calibration])
    if len(sources) < 2:
        raise BadInputError("compare: give at least two models to compare")
    if len(sources) > MAX_MODELS:
        raise BadInputError(f"compare: at most {MAX_MODELS} models, got {len(sources)}")
    dup = sorted({s for s in sources if sources.count(s) > 1})
    if dup:
        raise BadInputError(f"compare: model given twice: {', '.join(x[:100] for x in dup)}")
    gpus = list(args.gpus or [])
    workload = Workload(isl=args.isl, osl=args.osl, qps=args.qps, ttft_ms=args.ttft_ms, itl_ms=args.itl_ms,
                        max_utilization=args.max_utilization)
    # every cheap check before any network access
    report_mod.validate_workload(workload)
    report_mod.resolve_prices(gpus or None, args.usd_per_gpu_hour)
    if args.precision:
        get_precision(args.precision)
    load_calibration(args.calibration)
    raws, seen, skipped = [], {}, []
    for src in sources:
        try:
            raw = load_source(src)
        except DeploysheetError as exc:
            # a Hub model that cannot be read (gated, gone, no config) is a finding of the comparison, not a
            # failure of it; a local path that does not exist is a typo: stop
            if exc.reason in HUB_READ_FAILURES \
                    and parse_hub_source(src) is not None and not os.path.exists(src):
                skipped.append(report_mod.Skipped(source=src, reason=str(exc)))
                continue
            raise
        prov = raw.provenance
        key = (prov.repo_id, prov.commit_sha) if prov.kind == "hub" else os.path.realpath(prov.path or src)
        if key in seen:
            raise BadInputError(f"compare: {src[:100]!r} and {seen[key][:100]!r} are the same model")
        seen[key] = src
        raw.provenance.label = labels.get(src) or _default_label(raw.provenance, src)
        raws.append(raw)
    names = [r.provenance.label for r in raws]
    clash = sorted({n for n in names if names.count(n) > 1})
    if clash:
        raise BadInputError(f"compare: two models would both be called {clash[0][:100]!r}; name them with "
                            "--label NAME=SOURCE")
    report = build_report(raws, workload, gpus or None, args.usd_per_gpu_hour, precision=args.precision,
                          framework=args.framework, calibration=args.calibration, skipped=skipped)
    write_output(render_report(report, args.format), args.output)
    return 0


def cmd_validate(args) -> int:
    import json
    from collections import Counter

    from .calibrate import _samples, cross_validate, cv_groups, evaluate, summary_dict
    from .costmodel import load_calibration
    from .measure import Predictor, read_rows

    refuse_overwrite(args.out, [args.measurements, args.calibration])
    refuse_inside(args.out, args.corpus, "--corpus")
    cal = load_calibration(args.calibration)
    rows, malformed = read_rows(args.measurements)
    pred = Predictor(args.corpus, cal)
    speculative: list = []
    samples, skipped = _samples(pred, rows, None if args.cross_validate else speculative)
    skipped = malformed + skipped
    if not samples and not speculative:  # speculative rows alone are still reported in-sample
        why = "; ".join(f"{n} x {r}" for r, n in Counter(s["reason"] for s in skipped).most_common(3))
        raise BadInputError(f"{args.measurements}: no row could be predicted ({why or 'no rows'})"[:400])
    if args.cross_validate:
        groups = cv_groups(samples, args.cross_validate)
        if len(groups) < 2:
            raise BadInputError(f"--cross-validate {args.cross_validate} needs rows of at least two "
                                f"{args.cross_validate}s to leave one out; these rows have {len(groups)}")
        results = cross_validate(samples, cal, args.cross_validate, args.max_iterations)
    else:
        results = evaluate(samples, cal) + speculative  # speculative rows: the Predictor's own answer
    report = summary_dict(results, skipped)
    report["calibration"] = cal.path
    report["cross_validate"] = args.cross_validate
    if args.format == "json":
        text = json.dumps(report, indent=2, allow_nan=False) + "\n"
    else:
        text = render_validation_md(report)
    write_output(text, args.out)
    return 0


def render_validation_md(report: dict) -> str:
    """The validation report as Markdown; names and reasons from the CSV are escaped (md_escape)."""
    from .render import md_escape

    def e(v) -> str:
        return "–" if v is None else md_escape(v)

    lines = [f"# Validation ({'leave-one-' + report['cross_validate'] + '-out' if report.get('cross_validate') else 'in-sample'})",
             "", f"Calibration: {e(report.get('calibration'))}; rows: {report['n_rows']}, predicted "
                 f"{report['n_rows'] - len(report['skipped'])}, skipped {len(report['skipped'])}.", "",
             "| metric | n | MdAPE % | p90 APE % | Spearman |", "|---|---:|---:|---:|---:|"]
    for m, v in report["metrics"].items():
        lines.append(f"| {e(m)} | {v['n']} | {e(v['mdape'])} | {e(v['p90_ape'])} | {e(v['spearman'])} |")
    for title, key in (("GPU", "by_gpu"), ("framework", "by_framework"), ("model", "by_model")):
        lines += ["", f"By {title}:", "", "| " + title + " | metric | n | MdAPE % | Spearman |", "|---|---|---:|---:|---:|"]
        for g, d in report[key].items():
            for m, v in d.items():
                lines.append(f"| {e(g)} | {e(m)} | {v['n']} | {e(v['mdape'])} | {e(v['spearman'])} |")
    if report.get("kv_dtypes"):
        lines += ["", "KV cache dtype per row (framework, dtype: where it came from; a row without kv_precision "
                      "takes the engine default that predict and score state):", ""]
        lines += [f"- {n} × {e(k)}" for k, n in report["kv_dtypes"].items()]
    if report["skipped_counts"]:
        lines += ["", "Skipped rows:", ""] + [f"- {n} × {e(r)}" for r, n in report["skipped_counts"].items()]
    return "\n".join(lines) + "\n"


def cmd_calibrate(args) -> int:

    from .calibrate import (_samples, at_bounds, cross_validate, cv_groups, fit, kv_dtype_counts, summary_dict,
                            write_calibration)
    from .costmodel import load_calibration
    from .measure import Predictor, read_rows

    refuse_overwrite(args.output, [args.measurements, args.calibration])
    refuse_inside(args.output, args.corpus, "--corpus")
    base = load_calibration(args.calibration)
    rows, malformed = read_rows(args.measurements)
    pred = Predictor(args.corpus, base)
    samples, skipped = _samples(pred, rows)
    if not samples:
        raise BadInputError(f"{args.measurements}: no row could be predicted, nothing to fit")
    cal = fit(samples, base, args.max_iterations)
    kv_dtypes = kv_dtype_counts(samples)
    report: dict = {"fitted_on_rows": len(samples), "skipped_rows": len(malformed) + len(skipped),
                    "kv_dtypes": kv_dtypes}
    if not args.no_cross_validate and len(cv_groups(samples, "model")) < 2:
        print("deploysheet: warning: the rows cover one model, so no leave-one-model-out error can be computed; "
              "the file carries no error bars", file=sys.stderr)
    elif not args.no_cross_validate:
        lomo = summary_dict(cross_validate(samples, base, "model", args.max_iterations), malformed + skipped)
        report["leave_one_model_out"] = {"metrics": lomo["metrics"], "by_gpu": lomo["by_gpu"],
                                         "by_framework": lomo["by_framework"], "by_model": lomo["by_model"],
                                         "by_layout": lomo["by_layout"]}
    command = "deploysheet calibrate " + " ".join(sys.argv[2:]) if len(sys.argv) > 2 else "deploysheet calibrate"
    write_calibration(cal, report, args.output, command)
    lomo_m = report.get("leave_one_model_out", {}).get("metrics", {})
    errs = ", ".join(f"{m} {v['mdape']:g}%" for m, v in lomo_m.items() if v.get("mdape") is not None)
    print(f"deploysheet: fitted {len(samples):,} rows ({report['skipped_rows']:,} skipped) -> {args.output}"
          + (f"; leave-one-model-out MdAPE: {errs}" if errs else ""), file=sys.stderr)
    defaults = sum(n for k, n in kv_dtypes.items() if not k.endswith(": the row's kv_precision"))
    if defaults:
        print(f"deploysheet: {defaults:,} rows leave kv_precision empty and were fitted at the engine's default KV "
              f"dtype (counts per framework, dtype and source: kv_dtypes in {args.output})", file=sys.stderr)
    pinned = at_bounds(cal)
    if pinned:
        print("deploysheet: warning: the rows do not pin these parameters, which ended on a bound: "
              + "; ".join(pinned) + ". Check the fit with 'deploysheet validate --cross-validate model' before "
              "relying on it.", file=sys.stderr)
    return 0


def cmd_hub(args) -> int:
    import json
    from dataclasses import asdict

    from .sheet import Options
    from .sources import parse_hub_source

    if args.hub_cmd == "serve":
        secret = os.environ.get("WEBHOOK_SECRET")
        if not secret:
            raise BadInputError("hub serve: set WEBHOOK_SECRET to the Hub webhook's secret")
        try:
            from bot.server import Settings, serve
        except ImportError as exc:
            raise BadInputError(f"hub serve needs the webhook server's packages ({exc.name}): "
                                "pip install 'deploysheet[bot]'") from None
        allow = list(args.allow) + [p.strip() for p in os.environ.get("DEPLOYSHEET_BOT_ALLOW", "").split(",")
                                    if p.strip()]
        serve(Settings(secret=secret, db=args.db, allow=allow, posts_per_hour=args.posts_per_hour, mode=args.mode),
              args.host, args.port)
        return 0
    if args.hub_cmd != "post":
        raise BadInputError("hub: choose a subcommand: post, serve")
    parsed = parse_hub_source(args.repo_id)
    if parsed is None:
        raise BadInputError(f"hub post: {args.repo_id!r} is not a Hub repo id of the form org/name")
    if parsed[1]:
        if args.revision and args.revision != parsed[1]:
            raise BadInputError(f"hub post: two revisions given ({parsed[1]!r} in the repo id and --revision "
                                f"{args.revision!r})")
        args.revision = parsed[1]
    from .hardware import get_gpu
    from .sources import hub_endpoint
    opts = Options(gpus=[get_gpu(g).id for g in (args.gpus or ["H100-SXM"])])  # bad input before any network
    if args.revision is not None and parse_hub_source(f"{parsed[0]}@{args.revision}") is None:
        raise BadInputError(f"hub post: --revision {args.revision[:100]!r} is not a branch, tag or commit name")
    if args.dry_run is not None and not args.dry_run.strip():
        raise BadInputError("hub post: --dry-run needs a folder (an empty path would post for real)")
    if args.dry_run and os.path.exists(args.dry_run) and not os.path.isdir(args.dry_run):
        raise BadInputError(f"hub post: --dry-run {args.dry_run[:200]} is a file, not a folder")
    hub_endpoint()  # a malformed HF_ENDPOINT is the user's setting (exit 2), before huggingface_hub loads
    from bot.card import post_card_pr
    from bot.post import post_discussion
    poster = post_card_pr if args.mode == "pr" else post_discussion
    from json import JSONDecodeError

    from .errors import HubError
    from .sources import _hub_error, _network_errors
    try:
        out = poster(parsed[0], args.revision, options=opts, dry_run=args.dry_run)
    except DeploysheetError:
        raise
    except RuntimeError as exc:
        raise HubError(str(exc)) from None
    except (JSONDecodeError, *_network_errors()) as exc:  # a Hub call of the bot failed after its retries
        raise _hub_error(exc, parsed[0], args.revision, os.environ.get("HF_ENDPOINT") or "https://huggingface.co") \
            from None
    if args.format == "json":
        write_output(json.dumps(asdict(out), indent=2) + "\n", None)
    else:
        kind = "pull request" if args.mode == "pr" else "discussion"
        where = f" {kind} #{out.discussion}" if out.discussion else ""
        write_output(f"{out.repo_id}: {out.action}{where} (commit {out.sha[:7]}, grade {out.grade}, "
                     f"{out.score:.1f}/100){' ' + out.url if out.url else ''}\n", None)
    return 0


def cmd_action(args) -> int:
    from bot.action import annotate, run
    try:
        return run()
    except DeploysheetError as exc:
        annotate("error", str(exc))
        raise


COMMANDS = {"action": cmd_action, "score": cmd_score, "predict": cmd_predict, "compare": cmd_compare, "validate": cmd_validate, "calibrate": cmd_calibrate,
            "hub": cmd_hub, "crawl": cmd_crawl,
            "rules": cmd_rules, "examples": cmd_examples, "gpus": cmd_gpus,
            "leaderboard": cmd_leaderboard}


def main(argv: list[str] | None = None) -> int:
    if not os.environ.get("DEPLOYSHEET_DEBUG"):
        # huggingface_hub logs its own retries as warnings on stderr; errors stay ours, in one line
        os.environ.setdefault("HF_HUB_VERBOSITY", "error")
    try:
        args = build_parser().parse_args(argv)
        if not args.cmd:
            build_parser().print_help()
            return EXIT_BAD_INPUT
        for dest in ("output", "out"):  # before any work: "-o ''" names no file (stdout is "-" or no -o)
            if getattr(args, dest, None) == "":
                raise BadInputError("-o: empty file name (omit -o, or give -, for stdout)")
        return COMMANDS[args.cmd](args)
    except DeploysheetError as exc:
        print(f"deploysheet: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("deploysheet: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # a bug: one line unless debugging
        if os.environ.get("DEPLOYSHEET_DEBUG"):
            raise
        print(f"deploysheet: internal error: {type(exc).__name__}: {' '.join(str(exc).split())[:300]} "
              "(set DEPLOYSHEET_DEBUG=1 for a traceback)", file=sys.stderr)
        return EXIT_INTERNAL


def entry() -> None:
    """The ``deploysheet`` console script: :func:`main`, then a prompt exit.

    A one-shot command's work is done when :func:`main` returns; what is left is the interpreter's
    teardown of every module transformers, huggingface_hub, numpy and pydantic loaded, 0.3-0.4 s of
    a 2-core machine's cold ``score`` (``bench/bench_costmodel.py``). With a single thread left, the
    exit handlers run, both streams are flushed, and the process ends through ``os._exit`` with the
    same status; with other threads still alive it exits the ordinary way, which joins them.

    Two process-wide settings, each only where the user has not set it: numpy (which transformers'
    config module imports; deploysheet computes nothing with it) starts OpenBLAS with one thread
    instead of one per core, about 0.1 s of CPU on 2 cores (``OPENBLAS_NUM_THREADS``); pydantic does
    not scan every installed package's entry points for its plugins, which the command line has no
    use for (``PYDANTIC_DISABLE_PLUGINS``, 40-50 ms; a library caller keeps its plugins).
    """
    import atexit
    import threading

    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "1")
    code = main()
    code = code if isinstance(code, int) else (0 if code is None else 1)
    if threading.active_count() != 1:
        sys.exit(code)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:  # None: the process started with the stream closed
                stream.flush()
        except (BrokenPipeError, OSError, ValueError):  # a closed pipe or stream: nothing left to say
            pass
    os._exit(code)


if __name__ == "__main__":
    entry()
