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
from .errors import EXIT_BAD_INPUT, EXIT_INTERNAL, BadInputError, DeploysheetError

EPILOG = "exit codes: 0 ok, 2 bad input, 3 Hub/network failure, 1 internal error"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, exit 2
        prog = self.prog.replace("deploysheet", "").strip()
        raise BadInputError(f"{prog + ': ' if prog else ''}{message}")


def write_output(text: str, out: str | None) -> None:
    """Write to stdout, or atomically to ``out`` (temp file in the same folder, then rename)."""
    if not out:
        sys.stdout.write(text)
        sys.stdout.flush()
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
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp creates 0600; a sheet is an ordinary file
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


def _positive_int(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {text!r}")
    return v


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
    sc.add_argument("--precision", help="weight precision: bf16, fp16, fp8, fp8_channel, fp8_block, int8, nvfp4, mxfp4, "
                                        "int4 (default: the checkpoint's own, else bf16)")
    sc.add_argument("--kv-dtype", default="bf16", help="KV cache dtype: bf16, fp16, fp8, fp32, nvfp4 (default bf16)")
    sc.add_argument("--kv-policy", default="vllm", help="KV allocation policy: vllm (default) or window")
    sc.add_argument("--tp", type=_positive_int, help="fix the tensor-parallel degree for the serving regimes")
    sc.add_argument("--framework", default="vllm", choices=["vllm", "sglang", "trtllm"],
                    help="serving framework profile of the cost model (default vllm)")
    sc.add_argument("--usd-per-gpu-hour", type=_positive_float, help="GPU price override for $/1M tokens")
    sc.add_argument("--calibration", help="calibration file (default: the packaged data/calibration.json)")
    sc.add_argument("--format", default="md", choices=["md", "json", "html"])
    sc.add_argument("-o", "--output", help="write to this file instead of stdout (atomically)")
    sc.add_argument("--no-recommendations", action="store_true", help="skip the what-if recommendations")

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

    opts = Options(gpus=args.gpus or ["H100-SXM"], precision=args.precision, kv_dtype=args.kv_dtype.lower(),
                   kv_policy=args.kv_policy, tp=args.tp, framework=args.framework,
                   usd_per_gpu_hour=args.usd_per_gpu_hour, calibration=args.calibration,
                   recommendations=not args.no_recommendations)
    validate_options(opts)  # every cheap check before any network access
    raw = load_source(args.source, revision=args.revision)
    sheet = build_sheet(raw, opts)
    write_output(render(sheet, args.format), args.output)
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
    lines = ["| id | BF16 TFLOPS | FP8 | FP4 | memory GB | HBM TB/s | SMs | scale-up GB/s | $/GPU-h |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for g in cat.values():
        price = f"{g.usd_per_hour.low:.2f}-{g.usd_per_hour.high:.2f}" if g.usd_per_hour else "–"
        def tf(k):
            v = g.tflops.get(k)
            return f"{v:,.0f}" if v else "–"
        lines.append(f"| {g.id} | {tf('bf16')} | {tf('fp8')} | {tf('fp4')} | {g.memory_gb:,.0f} | {g.mem_bw_tbps:.2f} | "
                     f"{g.sms} | {g.scaleup_gbps:,.0f} | {price} |")
    write_output("\n".join(lines) + "\n", None)
    return 0


COMMANDS = {"score": cmd_score, "rules": cmd_rules, "examples": cmd_examples, "gpus": cmd_gpus}


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        if not args.cmd:
            build_parser().print_help()
            return EXIT_BAD_INPUT
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


if __name__ == "__main__":
    sys.exit(main())
