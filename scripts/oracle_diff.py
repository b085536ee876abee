"""Diagnostic: the normalizer's parameter counts against the meta-device sweep oracle.

Reads tests/data/meta_oracle_sweep.json (written by ``python scripts/meta_oracle.py --sweep``: every
text-generating transformers model type, default config plus resized variants, instantiated on
torch's meta device). For each variant, ``scorer.architecture.normalize(config)`` and
``scorer.params.count_params(arch)`` run on the recorded config.json dict and are compared:

* ``counts.total`` (language model; vision tower and MTP layers excluded) with the oracle's
  ``language_model - mtp`` (transformers builds no MTP layers, so the oracle's mtp is 0);
* ``counts.vision`` (None taken as 0) with the oracle's ``vision`` (every non-text tower and
  projector; the module-name patterns are in the oracle file's ``patterns``).

Components that differ (embedding, lm_head, routed experts, active) are listed as hints; they do
not decide the status. Runs in the project venv (no torch). Usage:

    python scripts/oracle_diff.py [-o /tmp/oracle_diff.json] [--only TYPE ...]

Exit status 0 whatever the comparison finds (a diagnostic, not a test).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = ROOT / "tests" / "data" / "meta_oracle_sweep.json"


def _import_scorer(retries: int, wait_s: float):
    """The stable entry points; the package may be mid-refactor, so retry a failing import."""
    os.environ.setdefault("DEPLOYSHEET_NO_CACHE", "1")  # compare the code as it is, write no cache
    sys.path.insert(0, str(ROOT))
    last: BaseException | None = None
    for attempt in range(retries + 1):
        try:
            for name in list(sys.modules):
                if name == "scorer" or name.startswith("scorer."):
                    del sys.modules[name]
            from scorer.architecture import normalize
            from scorer.params import count_params
            return normalize, count_params
        except Exception as e:  # noqa: BLE001
            last = e
            if attempt < retries:
                print(f"import failed ({type(e).__name__}: {e}); retrying in {wait_s:.0f}s", file=sys.stderr)
                time.sleep(wait_s)
    raise SystemExit(f"cannot import scorer: {type(last).__name__}: {last}")


def _rel(ours: int, oracle: int) -> float | None:
    if oracle == 0:
        return None if ours == 0 else float("inf")
    return (ours - oracle) / oracle


def _depth(cfg: dict) -> int | None:
    node = cfg
    for key in ("text_config", "llm_config", "language_config", "decoder"):
        if isinstance(node.get(key), dict):
            node = node[key]
            break
    for key in ("num_hidden_layers", "n_layer", "n_layers", "num_layers", "decoder_layers"):
        if isinstance(node.get(key), int):
            return node[key]
    return None


def _hints(v: dict, counts, arch, d_total: int) -> list[str]:
    """Cheap guesses at the cause of a total / vision difference."""
    o = v["counts"]
    hints = []
    ours_vision = counts.vision or 0
    if o["vision"] and not ours_vision:
        hints.append("vision tower not counted")
    elif ours_vision and not o["vision"]:
        hints.append("vision counted where the model has none")
    by = counts.by_component
    if by.get("embedding", 0) < o["embedding"]:
        hints.append(f"embedding {by.get('embedding', 0):,} < oracle input embedding {o['embedding']:,}")
    head = by.get("lm_head", 0) - (getattr(arch, "vocab_size", 0) if getattr(arch, "lm_head_bias", False) else 0)
    if head != o["lm_head"]:
        hints.append(f"lm_head {head:,} vs oracle {o['lm_head']:,} ({'tied' if o['tied'] else 'untied'} in model)")
    if by.get("routed_experts", 0) != o["routed_experts"]:
        hints.append(f"routed_experts {by.get('routed_experts', 0):,} vs oracle {o['routed_experts']:,}")
    if d_total:
        vocab = getattr(arch, "vocab_size", None)
        depth = _depth(v["config"])
        if vocab and d_total % vocab == 0 and abs(d_total // vocab) <= 4:
            hints.append(f"total off by {d_total // vocab} x vocab (embedding / head / bias)")
        elif depth and d_total % depth == 0:
            hints.append(f"total off by {d_total // depth:+,} per layer x {depth} layers")
    return hints


def compare(variants: list[dict], normalize, count_params) -> list[dict]:
    rows = []
    for v in variants:
        row = {"model_type": v["model_type"], "variant": v["variant"], "class": v["class"]}
        o = v["counts"]
        want_total = o["language_model"] - (o.get("mtp") or 0)
        try:
            arch = normalize(v["config"])
            counts = count_params(arch)
        except Exception as e:  # noqa: BLE001  (ConfigError and whatever else the normalizer raises)
            row.update(status="ERROR", error=f"{type(e).__name__}: {' '.join(str(e).split())[:300]}")
            rows.append(row)
            continue
        ours_vision = counts.vision or 0
        d_total, d_vision = counts.total - want_total, ours_vision - o["vision"]
        row.update(total=counts.total, oracle_total=want_total, vision=ours_vision, oracle_vision=o["vision"],
                   rel_total=_rel(counts.total, want_total), rel_vision=_rel(ours_vision, o["vision"]),
                   mtp=counts.mtp, oracle_mtp=o.get("mtp"), by_component=dict(counts.by_component))
        if o.get("num_experts") and o.get("top_k") and o["routed_experts"]:
            oracle_active = round(o["language_model"] - o["routed_experts"] * (1 - o["top_k"] / o["num_experts"]))
            row.update(active=counts.active, oracle_active=oracle_active)
        row["status"] = "OK" if d_total == 0 and d_vision == 0 else "MISMATCH"
        if row["status"] != "OK" or counts.by_component.get("routed_experts", 0) != o["routed_experts"]:
            row["hints"] = _hints(v, counts, arch, d_total)
        rows.append(row)
    return rows


def _pct(x: float | None) -> str:
    if x is None:
        return "n/a"
    if x == float("inf"):
        return "inf"
    return f"{x * 100:+.2f}%"


def summarize(rows: list[dict]) -> dict:
    by_type: dict[str, list[dict]] = collections.defaultdict(list)
    for r in rows:
        by_type[r["model_type"]].append(r)
    types = {}
    for mt, rs in sorted(by_type.items()):
        statuses = {r["status"] for r in rs}
        status = "ERROR" if "ERROR" in statuses else "MISMATCH" if "MISMATCH" in statuses else "OK"
        types[mt] = {"status": status, "variants": {r["variant"]: r["status"] for r in rs}}
    count_t = collections.Counter(t["status"] for t in types.values())
    count_v = collections.Counter(r["status"] for r in rows)
    return {"types": types, "type_counts": dict(count_t), "variant_counts": dict(count_v)}


def print_table(rows: list[dict], summary: dict) -> None:
    by_type: dict[str, list[dict]] = collections.defaultdict(list)
    for r in rows:
        by_type[r["model_type"]].append(r)
    print(f"{'model_type':30s} {'status':9s} detail")
    for mt, info in summary["types"].items():
        parts = []
        for r in by_type[mt]:
            if r["status"] == "OK":
                parts.append(f"{r['variant']}: ok")
            elif r["status"] == "ERROR":
                parts.append(f"{r['variant']}: {r['error'][:140]}")
            else:
                hint = f" [{'; '.join(r.get('hints', []))}]" if r.get("hints") else ""
                parts.append(f"{r['variant']}: total {_pct(r['rel_total'])} vision {_pct(r['rel_vision'])}{hint}")
        print(f"{mt:30s} {info['status']:9s} " + " | ".join(parts))
    tc, vc = summary["type_counts"], summary["variant_counts"]
    print()
    print(f"model types: {len(summary['types'])}  OK {tc.get('OK', 0)}  MISMATCH {tc.get('MISMATCH', 0)}  "
          f"ERROR {tc.get('ERROR', 0)}")
    print(f"variants:    {len(rows)}  OK {vc.get('OK', 0)}  MISMATCH {vc.get('MISMATCH', 0)}  ERROR {vc.get('ERROR', 0)}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the sweep oracle file")
    ap.add_argument("-o", "--out", type=Path, default=Path("/tmp/oracle_diff.json"))
    ap.add_argument("--only", nargs="*", help="compare only these model types")
    ap.add_argument("--retries", type=int, default=3, help="import retries while scorer is being refactored")
    ap.add_argument("--retry-wait", type=float, default=60.0, help="seconds between import retries")
    args = ap.parse_args()
    normalize, count_params = _import_scorer(args.retries, args.retry_wait)
    oracle = json.loads(args.data.read_text())
    variants = [v for v in oracle["variants"] if not args.only or v["model_type"] in args.only]
    rows = compare(variants, normalize, count_params)
    summary = summarize(rows)
    print_table(rows, summary)
    doc = {"oracle": str(args.data), "oracle_generated": oracle.get("generated"),
           "oracle_versions": oracle.get("versions"), "skipped_by_oracle": oracle.get("skipped", {}),
           "summary": summary, "rows": rows}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(doc, indent=1, sort_keys=True, default=str) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
