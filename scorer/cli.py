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

EPILOG = "exit codes: 0 ok, 2 bad input, 3 Hub/network failure, 4 quality gate failed (action), 1 internal error"


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


def _port(text: str) -> int:
    v = _positive_int(text)
    if v > 65535:
        raise argparse.ArgumentTypeError(f"not a TCP port (1-65535): {text!r}")
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
    sc.add_argument("--ttft-ms", type=_positive_float, help="TTFT target: report the cheapest layout meeting it")
    sc.add_argument("--itl-ms", type=_positive_float, help="inter-token latency target (TPOT), ms")

    pr = sub.add_parser("predict", help="predict TTFT, TPOT and throughput for one workload and layout",
                        epilog=EPILOG)
    pr.add_argument("source", metavar="SOURCE")
    pr.add_argument("--revision")
    pr.add_argument("--gpu", default="H100-SXM", metavar="ID")
    pr.add_argument("--tp", type=_positive_int, default=1)
    pr.add_argument("--pp", type=_positive_int, default=1)
    pr.add_argument("--ep", type=_positive_int, default=1)
    pr.add_argument("--dp", type=_positive_int, default=None, help="attention data-parallel ranks (default 1, or "
                                                                   "--num-gpus / (tp x pp))")
    pr.add_argument("--num-gpus", type=_positive_int, default=None)
    pr.add_argument("--precision", default=None)
    pr.add_argument("--kv-dtype", default="bf16")
    pr.add_argument("--framework", default="vllm", choices=["vllm", "sglang", "trtllm"])
    pr.add_argument("--isl", type=_positive_int, required=True)
    pr.add_argument("--osl", type=_positive_int, required=True)
    pr.add_argument("--concurrency", required=True, help="concurrent requests, or 'max'")
    pr.add_argument("--usd-per-gpu-hour", type=_positive_float)
    pr.add_argument("--calibration")
    pr.add_argument("--format", default="json", choices=["json", "md"])
    pr.add_argument("-o", "--output")

    va = sub.add_parser("validate", help="compare predictions with a measurements CSV (MdAPE, Spearman)",
                        epilog=EPILOG)
    va.add_argument("measurements", metavar="MEASUREMENTS.csv")
    va.add_argument("--corpus", required=True, help="folder holding <config>/config.json for the CSV's config column")
    va.add_argument("--calibration")
    va.add_argument("--cross-validate", choices=["model", "gpu", "framework"],
                    help="refit the calibration with each group left out and predict that group")
    va.add_argument("--max-iterations", type=_positive_int, default=40, help="optimizer evaluations per refit")
    va.add_argument("--format", default="md", choices=["md", "json"])
    va.add_argument("--out", help="write the report here (atomically)")

    ca = sub.add_parser("calibrate", help="fit the cost model's efficiencies to a measurements CSV", epilog=EPILOG)
    ca.add_argument("measurements", metavar="MEASUREMENTS.csv")
    ca.add_argument("--corpus", required=True)
    ca.add_argument("-o", "--output", required=True, help="calibration file to write (use with --calibration)")
    ca.add_argument("--calibration", help="start from this calibration (default: the packaged one)")
    ca.add_argument("--max-iterations", type=_positive_int, default=60)
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
                   recommendations=not args.no_recommendations, ttft_ms=args.ttft_ms, itl_ms=args.itl_ms)
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
        def tf(k, g=g):
            v = g.tflops.get(k)
            return f"{v:,.0f}" if v else "–"
        lines.append(f"| {g.id} | {tf('bf16')} | {tf('fp8')} | {tf('fp4')} | {g.memory_gb:,.0f} | {g.mem_bw_tbps:.2f} | "
                     f"{g.sms} | {g.scaleup_gbps:,.0f} | {price} |")
    write_output("\n".join(lines) + "\n", None)
    return 0


def cmd_predict(args) -> int:
    import json

    from .architecture import normalize
    from .costmodel import CostModel, Layout, excluded_components, load_calibration
    from .gemms import inventory
    from .hardware import get_gpu, get_precision
    from .kvcache import KV_DTYPES
    from .params import count_params
    from .regimes import predict, valid_tp
    from .sheet import default_precision, expected_errors
    from .sources import load_source

    gpu = get_gpu(args.gpu)
    if args.kv_dtype not in KV_DTYPES:
        raise BadInputError(f"unknown KV dtype {args.kv_dtype!r}; known: {', '.join(KV_DTYPES)}")
    if args.concurrency != "max" and not (args.concurrency.isdigit() and int(args.concurrency) >= 1):
        raise BadInputError(f"--concurrency must be a positive integer or 'max', got {args.concurrency!r}")
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
    cal = load_calibration(args.calibration)
    raw = load_source(args.source, revision=args.revision)
    arch = normalize(raw.config, raw.quant_config)
    if not valid_tp(arch, args.tp):
        raise BadInputError(f"--tp {args.tp} is not valid for this model (rules T1, T2)")
    prec = get_precision(args.precision or default_precision(arch))
    unq = excluded_components(arch.quantization.excluded) if (
        arch.quantization is not None and arch.quantization.format == prec.id) else set()
    params = count_params(arch)
    cm = CostModel(arch, params, gpu, prec, Layout(tp=args.tp, pp=args.pp, ep=args.ep, dp=dp or 1), args.kv_dtype,
                   args.framework, cal, unq, inventory(arch))
    conc = "max" if args.concurrency == "max" else int(args.concurrency)
    price = args.usd_per_gpu_hour or (gpu.usd_per_hour.mid if gpu.usd_per_hour else None)
    p = predict(cm, args.isl, args.osl, conc, price)
    out = {"model": raw.provenance.repo_id or raw.provenance.source, "gpu": gpu.id, "precision": prec.id,
           "kv_dtype": args.kv_dtype, "framework": args.framework, **p.model_dump(),
           "expected_error_pct": expected_errors(cal, gpu.id, args.framework),
           "calibration": cal.path + (f" (fitted {cal.fit_date})" if cal.fit_date else " (uncalibrated)")}
    if args.format == "json":
        text = json.dumps(out, indent=2) + "\n"
    else:
        keys = ("layout", "concurrency", "fits", "ttft_ms", "tpot_ms", "tokens_per_s_per_user",
                "output_tokens_per_s_per_gpu", "memory_per_gpu_gib", "bound", "usd_per_1m_output_tokens")
        text = "| " + " | ".join(keys) + " |\n|" + "---|" * len(keys) + "\n| " + \
            " | ".join(str(out[k]) for k in keys) + " |\n"
    write_output(text, args.output)
    return 0


def cmd_validate(args) -> int:
    import json

    from .calibrate import _samples, cross_validate, evaluate, summary_dict
    from .costmodel import load_calibration
    from .measure import Predictor, read_rows

    cal = load_calibration(args.calibration)
    rows, malformed = read_rows(args.measurements)
    pred = Predictor(args.corpus, cal)
    samples, skipped = _samples(pred, rows)
    skipped = malformed + skipped
    if args.cross_validate:
        results = cross_validate(samples, cal, args.cross_validate, args.max_iterations)
    else:
        results = evaluate(samples, cal)
    report = summary_dict(results, skipped)
    report["calibration"] = cal.path
    report["cross_validate"] = args.cross_validate
    if args.format == "json":
        text = json.dumps(report, indent=2) + "\n"
    else:
        text = render_validation_md(report)
    write_output(text, args.out)
    return 0


def render_validation_md(report: dict) -> str:
    lines = [f"# Validation ({'leave-one-' + report['cross_validate'] + '-out' if report.get('cross_validate') else 'in-sample'})",
             "", f"Calibration: {report.get('calibration')}; rows: {report['n_rows']}, predicted "
                 f"{report['n_rows'] - len(report['skipped'])}, skipped {len(report['skipped'])}.", "",
             "| metric | n | MdAPE % | p90 APE % | Spearman |", "|---|---:|---:|---:|---:|"]
    for m, v in report["metrics"].items():
        lines.append(f"| {m} | {v['n']} | {v['mdape']} | {v['p90_ape']} | {v['spearman']} |")
    for title, key in (("GPU", "by_gpu"), ("framework", "by_framework"), ("model", "by_model")):
        lines += ["", f"By {title}:", "", "| " + title + " | metric | n | MdAPE % | Spearman |", "|---|---|---:|---:|---:|"]
        for g, d in report[key].items():
            for m, v in d.items():
                lines.append(f"| {g} | {m} | {v['n']} | {v['mdape']} | {v['spearman']} |")
    if report["skipped_counts"]:
        lines += ["", "Skipped rows:", ""] + [f"- {n} × {r}" for r, n in report["skipped_counts"].items()]
    return "\n".join(lines) + "\n"


def cmd_calibrate(args) -> int:
    import sys as _sys

    from .calibrate import _samples, cross_validate, fit, summary_dict, write_calibration
    from .costmodel import load_calibration
    from .measure import Predictor, read_rows

    base = load_calibration(args.calibration)
    rows, malformed = read_rows(args.measurements)
    pred = Predictor(args.corpus, base)
    samples, skipped = _samples(pred, rows)
    if not samples:
        raise BadInputError(f"{args.measurements}: no row could be predicted, nothing to fit")
    cal = fit(samples, base, args.max_iterations)
    report: dict = {"fitted_on_rows": len(samples), "skipped_rows": len(malformed) + len(skipped)}
    if not args.no_cross_validate:
        lomo = summary_dict(cross_validate(samples, base, "model", args.max_iterations), malformed + skipped)
        report["leave_one_model_out"] = {"metrics": lomo["metrics"], "by_gpu": lomo["by_gpu"],
                                         "by_framework": lomo["by_framework"], "by_model": lomo["by_model"]}
    command = "deploysheet calibrate " + " ".join(_sys.argv[2:]) if len(_sys.argv) > 2 else "deploysheet calibrate"
    write_calibration(cal, report, args.output, command)
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
    from bot.card import post_card_pr
    from bot.post import post_discussion
    opts = Options(gpus=args.gpus or ["H100-SXM"])
    if args.revision is not None and parse_hub_source(f"{parsed[0]}@{args.revision}") is None:
        raise BadInputError(f"hub post: --revision {args.revision[:100]!r} is not a branch, tag or commit name")
    if args.dry_run is not None and not args.dry_run.strip():
        raise BadInputError("hub post: --dry-run needs a folder (an empty path would post for real)")
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


COMMANDS = {"action": cmd_action, "score": cmd_score, "predict": cmd_predict, "validate": cmd_validate, "calibrate": cmd_calibrate,
            "hub": cmd_hub,
            "rules": cmd_rules, "examples": cmd_examples, "gpus": cmd_gpus}


def main(argv: list[str] | None = None) -> int:
    if not os.environ.get("DEPLOYSHEET_DEBUG"):
        # huggingface_hub logs its own retries as warnings on stderr; errors stay ours, in one line
        os.environ.setdefault("HF_HUB_VERBOSITY", "error")
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
