"""The buyer's comparison report (``deploysheet compare``, scorer.report): the cheapest layout per model and GPU
checked against an independent search over ``deploysheet predict``, the GPU and $ arithmetic written out, rendering,
escaping of model-controlled strings, and bad inputs."""

from __future__ import annotations

import json
import math
import re
import shutil
from pathlib import Path

import pytest

from scorer.cli import main
from scorer.report import Workload, build_report
from scorer.sources import Provenance, RawModel, load_source

ROOT = Path(__file__).resolve().parent.parent
MODELS = ["example:llama-3.1-8b", "example:qwen3-4b", "example:mixtral-8x7b"]
MOE = {"example:mixtral-8x7b"}  # num_local_experts in its config: EP = TP layouts are candidates too
# 50 requests/s of 1k in / 512 out under TTFT 300 ms and ITL 20 ms: neither TP1 nor the largest batch wins everywhere
WORKLOAD = ["--isl", "1024", "--osl", "512", "--qps", "50", "--ttft-ms", "300", "--itl-ms", "20"]
ISL, OSL, QPS, TTFT, ITL = 1024, 512, 50.0, 300.0, 20.0
GPUS = ["H100-SXM", "H200-SXM"]
H200_PRICE = 3.25  # override for the second GPU; H100-SXM keeps the catalog's midpoint


def run_cli(capsys, argv: list[str]) -> tuple[int, str, str]:
    rc = main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


def catalog_mid(gpu: str) -> float:
    doc = json.loads((ROOT / "data" / "gpus.json").read_text())
    g = next(x for x in doc["gpus"] if x["id"] == gpu)
    return (g["usd_per_hour"]["low"] + g["usd_per_hour"]["high"]) / 2


def grid_points(capsys, source: str, gpu: str, isl: int = ISL, osl: int = OSL) -> list[dict]:
    """Every point of the documented grid that fits, by brute force over ``deploysheet predict``: each TP of
    data/regimes.json the model accepts (predict exits 2 on the others), EP = TP for MoE, concurrency 1..1024 by
    powers of two and 1.5x between them (README: the compare search grid)."""
    tps = json.loads((ROOT / "data" / "regimes.json").read_text())["tp_degrees"]

    def predict(tp: int, ep: int, c: int) -> dict | None:
        rc, out, _ = run_cli(capsys, ["predict", source, "--gpu", gpu, "--tp", str(tp), "--ep", str(ep),
                                      "--concurrency", str(c), "--isl", str(isl), "--osl", str(osl), "--format",
                                      "json"])
        assert rc in (0, 2)
        return json.loads(out) if rc == 0 else None  # exit 2: TP not valid for this model (rules T1, T2)

    points = []
    for tp in tps:
        if predict(tp, 1, 1) is None:
            continue
        for ep in ([1, tp] if source in MOE and tp > 1 else [1]):
            for c in (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024):
                p = predict(tp, ep, c)
                if not p["fits"]:
                    break  # a larger batch needs more KV cache still
                points.append(p)
    return points


def gpus_needed(p: dict, qps: float, osl: int) -> tuple[int, float]:
    """(GPUs, requests/s per replica): Little's law on one request's latency, then whole replicas."""
    latency_s = (p["ttft_ms"] + (osl - 1) * p["tpot_ms"]) / 1000
    rps = p["concurrency"] / latency_s
    return math.ceil(qps / rps) * p["num_gpus"], rps


def cheapest(points: list[dict], qps: float, osl: int, ttft: float, itl: float) -> dict:
    """Among the points meeting both targets: the fewest GPUs for the load, then the most tokens/s/GPU."""
    ok = [p for p in points if p["ttft_ms"] <= ttft and p["tpot_ms"] <= itl]
    assert ok, "no point meets the targets: pick another workload"
    return min(ok, key=lambda p: (gpus_needed(p, qps, osl)[0], -p["output_tokens_per_s_per_gpu"]))


@pytest.fixture(scope="module")
def report_json():
    import io
    from contextlib import redirect_stdout
    buf = io.StringIO()
    with redirect_stdout(buf):
        rc = main(["compare", *MODELS, *WORKLOAD, "--gpu", GPUS[0], "--gpus", GPUS[1], "--usd-per-gpu-hour",
                   f"{catalog_mid(GPUS[0])},{H200_PRICE}", "--format", "json"])
    assert rc == 0
    return json.loads(buf.getvalue())


def test_cheapest_layout_matches_predict_grid_and_costs_add_up(capsys, report_json):
    rep = report_json
    assert [m["source"] for m in rep["models"]] == MODELS
    prices = {GPUS[0]: catalog_mid(GPUS[0]), GPUS[1]: H200_PRICE}
    assert {g["gpu"]: g["usd_per_hour"] for g in rep["gpus"]} == prices
    monthly = {}
    layouts = {}
    for m in rep["models"]:
        for d in m["deployments"]:
            exp = cheapest(grid_points(capsys, m["source"], d["gpu"]), QPS, OSL, TTFT, ITL)
            p = d["prediction"]
            assert d["status"] == "ok"
            assert (p["layout"], p["tp"], p["ep"], p["concurrency"]) == (
                exp["layout"], exp["tp"], exp["ep"], exp["concurrency"]), (m["source"], d["gpu"])
            for k in ("ttft_ms", "tpot_ms", "output_tokens_per_s_per_gpu"):
                assert p[k] == exp[k]
            layouts[(m["source"], d["gpu"])] = exp["layout"]
            # Little's law on the predicted latency of one request, then whole replicas
            latency_s = (exp["ttft_ms"] + (OSL - 1) * exp["tpot_ms"]) / 1000
            rps = exp["concurrency"] / latency_s
            replicas = math.ceil(QPS / rps)
            gpus = replicas * exp["num_gpus"]
            assert d["request_latency_s"] == pytest.approx(latency_s, abs=1e-4)
            usd_month = gpus * prices[d["gpu"]] * 730
            assert d["replicas"] == replicas and d["num_gpus"] == gpus
            assert d["gpus_per_replica"] == exp["tp"] * exp["pp"]
            assert d["usd_per_month"] == pytest.approx(usd_month, rel=1e-9)
            assert d["usd_per_1m_tokens_load"] == pytest.approx(gpus * prices[d["gpu"]] / (QPS * OSL * 3600) * 1e6)
            assert d["usd_per_1m_tokens_capacity"] == pytest.approx(
                gpus * prices[d["gpu"]] / (replicas * rps * OSL * 3600) * 1e6)
            # every prediction carries its error bar and calibration
            assert set(d["expected_error_pct"]) == {"ttft_ms", "tpot_ms", "output_tokens_per_s_per_gpu"}
            assert d["expected_error_pct"] == exp["expected_error_pct"]
            assert any(exp["calibration"].split(" ")[0] in a for a in d["assumptions"])
            monthly[(m["source"], d["gpu"])] = usd_month
        best_gpu = min(GPUS, key=lambda g: monthly[(m["source"], g)])
        assert m["best"]["gpu"] == best_gpu
    # the answer is not the trivial one: not every model's cheapest layout is TP1, nor all the same
    assert len(set(layouts.values())) > 1 and set(layouts.values()) != {"TP1"}
    winner = min(MODELS, key=lambda s: min(monthly[(s, g)] for g in GPUS))
    ranked = sorted({min(monthly[(s, g)] for g in GPUS) for s in MODELS})
    assert len(ranked) == 3  # no ties: the recommendation has one clear answer
    rec = rep["recommendation"]
    assert rec["winner"] == winner == "example:qwen3-4b"
    win = next(m for m in rep["models"] if m["source"] == winner)["best"]
    assert f"${win['usd_per_month']:,.0f}/month" in rec["headline"]
    gap = ranked[1] - ranked[0]
    assert f"${gap:,.0f}/month ({gap / ranked[1]:.0%}) less than the runner-up" in rec["headline"]
    assert [line.split(": ")[0] for line in rec["ranking"]] == sorted(
        MODELS, key=lambda s: min(monthly[(s, g)] for g in GPUS))
    assert any("730" in a for a in rep["assumptions"])


def test_low_load_takes_the_smallest_layout_that_suffices(capsys):
    """At 0.5 requests/s one small replica is enough: the layout with the most tokens/s/GPU would buy idle GPUs."""
    qps, ttft, itl = 0.5, 2000.0, 40.0
    argv = ["compare", "example:mixtral-8x7b", "example:qwen3-4b", "--isl", str(ISL), "--osl", str(OSL), "--qps",
            str(qps), "--ttft-ms", str(ttft), "--itl-ms", str(itl), "--format", "json"]
    rc, out, err = run_cli(capsys, argv)
    assert rc == 0, err
    d = json.loads(out)["models"][0]["deployments"][0]
    points = grid_points(capsys, "example:mixtral-8x7b", "H100-SXM")
    exp = cheapest(points, qps, OSL, ttft, itl)
    assert (d["prediction"]["layout"], d["prediction"]["concurrency"]) == (exp["layout"], exp["concurrency"])
    assert d["num_gpus"] == gpus_needed(exp, qps, OSL)[0] == exp["num_gpus"] and d["replicas"] == 1
    # the most-tokens/s/GPU point (the sheet's SLA pick) would need more GPUs here
    top = max((p for p in points if p["ttft_ms"] <= ttft and p["tpot_ms"] <= itl),
              key=lambda p: p["output_tokens_per_s_per_gpu"])
    assert gpus_needed(top, qps, OSL)[0] > d["num_gpus"]


def test_markdown_and_html_reports(capsys, tmp_path):
    rc, md, err = run_cli(capsys, ["compare", *MODELS, *WORKLOAD])
    assert rc == 0 and err == ""
    assert md.startswith("# Serving comparison — 3 models")
    for heading in ("## Recommendation", "## Side by side", "## Deployments by GPU", "## Risks", "## Assumptions"):
        assert heading in md
    side = [ln for ln in md.splitlines() if ln.startswith("| ") and "|---" not in ln]
    head = md.splitlines()[md.splitlines().index("## Side by side") + 2]
    assert head.count("|") == 5  # label column + 3 models
    assert all(ln.count("|") - ln.count("\\|") in (5, 15) for ln in side)  # side-by-side or deployments rows
    assert "**example:qwen3-4b is the cheapest" in md
    out = tmp_path / "report.html"
    rc, stdout, _ = run_cli(capsys, ["compare", *MODELS, *WORKLOAD, "--format", "html", "-o", str(out)])
    assert rc == 0 and stdout == ""
    html = out.read_text()
    assert html.startswith("<!doctype html>") and html.rstrip().endswith("</html>")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)  # self-contained
    assert "<script" not in html and "<link" not in html
    assert "example:qwen3-4b is the cheapest" in html


def test_hostile_model_names_are_escaped(capsys, tmp_path):
    folder = tmp_path / "evil<script>alert(1)<script>|x|[y](javascript:alert(1)) @admin"  # no "/" in a name
    folder.mkdir()
    cfg = json.loads((ROOT / "data" / "examples" / "llama-3.1-8b" / "config.json").read_text())
    cfg["_name_or_path"] = "<img src=x onerror=alert(1)>|a|b"
    (folder / "config.json").write_text(json.dumps(cfg))
    rc, md, err = run_cli(capsys, ["compare", str(folder), "example:qwen3-4b", *WORKLOAD])
    assert rc == 0, err
    assert "<script>" not in md and "<img" not in md and " @admin" not in md
    assert not re.search(r"(?<!\\)\]\(", md)  # no link: the bracket is escaped
    assert "&lt;script\\>alert(1)" in md and "\\|x\\|\\[y\\](javascript" in md
    head = md.splitlines()[md.splitlines().index("## Side by side") + 2]
    assert head.count("|") - head.count("\\|") == 4  # the name's pipes do not add columns
    rc, html, err = run_cli(capsys, ["compare", str(folder), "example:qwen3-4b", *WORKLOAD, "--format", "html"])
    assert rc == 0, err
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;script&gt;|x|" in html


def hub_raw(source: str, **prov) -> RawModel:
    base = load_source("example:qwen3-4b")
    # a model_type transformers does not know: its auto_map code is needed to load it
    cfg = dict(base.config, model_type="acme_qwen", auto_map={"AutoModelForCausalLM": "modeling_x.X"})
    return RawModel(config=cfg, provenance=Provenance(kind="hub", source=source, repo_id=source, commit_sha="a" * 40,
                                                      **prov))


def test_risks_from_hub_metadata_and_escaped_license():
    risky = hub_raw("acme/risky", gated="manual", weight_formats=["pytorch-pickle"],
                    license="<b>bad</b>|custom-license")
    clean = hub_raw("acme/clean", weight_formats=["safetensors"], license="apache-2.0")
    clean.config.pop("auto_map")
    clean.config["model_type"] = "qwen3"
    rep = build_report([risky, clean], Workload(isl=1024, osl=256, qps=5, ttft_ms=1000, itl_ms=50))
    kinds = {m.name: {r.kind for r in m.risks} for m in rep.models}
    # the unknown model_type is also read by keys: a guess
    assert kinds["acme/risky"] == {"custom_code", "gated", "no_safetensors", "license", "guess"}
    assert kinds["acme/clean"] == set()
    # same config, same cost: the clean one is recommended, the risky one's serious risks are caveats
    from scorer.render import render_report
    md, html = render_report(rep, "md"), render_report(rep, "html")
    assert "<b>bad</b>" not in md and "&lt;b\\>bad&lt;/b\\>\\|custom-license" in md
    assert "<b>bad</b>" not in html and "&lt;b&gt;bad&lt;/b&gt;|custom-license" in html
    caveats = " ".join(rep.recommendation.caveats)
    assert rep.recommendation.winner == "acme/clean"  # same cost: fewer risks wins
    assert "the same $/month as acme/risky with fewer risks (0 against 4)" in rep.recommendation.headline
    assert "trust_remote_code" in caveats and "pickle" in caveats


def test_license_from_the_hub_card(fakehub, capsys):
    cfg = json.loads((ROOT / "data" / "examples" / "qwen3-4b" / "config.json").read_text())
    fakehub.add("acme/llamaish", cfg, card_data={"license": "llama3.1"}, extra_files=["model.safetensors"])
    rc, out, err = run_cli(capsys, ["compare", "acme/llamaish", "example:llama-3.1-8b", *WORKLOAD, "--format", "json"])
    assert rc == 0, err
    m = json.loads(out)["models"][0]
    assert m["license"] == "llama3.1" and m["weight_formats"] == ["safetensors"]
    assert [r["kind"] for r in m["risks"]] == ["license"]


def test_models_that_miss_targets_or_do_not_fit_are_caveats():
    raws = [load_source(s) for s in MODELS]
    rep = build_report(raws, Workload(isl=1024, osl=256, qps=5, ttft_ms=1000, itl_ms=0.5))
    assert rep.recommendation.winner is None and rep.recommendation.headline.startswith("No model")
    assert all(d.status == "misses_targets" and d.best_itl_ms > 0.5 for m in rep.models for d in m.deployments)
    assert len(rep.recommendation.caveats) == 3
    # qwen3-4b's context is 40,960 tokens: a 40k-token prompt plus 1k out is beyond it; L4 holds no Mixtral
    rep = build_report(raws, Workload(isl=40_000, osl=1_024, qps=0.2), gpus=["L4"], usd_per_gpu_hour=0.8)
    st = {m.source: m.deployments[0].status for m in rep.models}
    assert st["example:qwen3-4b"] == "context_too_long"
    assert rep.recommendation.winner in {"example:llama-3.1-8b", "example:mixtral-8x7b", None}
    assert any("example:qwen3-4b cannot serve" in c for c in rep.recommendation.caveats)


def test_unpriced_gpu_ranks_by_gpu_count():
    raws = [load_source(s) for s in MODELS[:2]]
    rep = build_report(raws, Workload(isl=1024, osl=256, qps=5), gpus=["L40S"])
    assert all(m.best and m.best.usd_per_month is None and m.best.num_gpus for m in rep.models)
    assert "fewest GPUs" in rep.recommendation.headline
    assert any("No price for L40S" in c for c in rep.recommendation.caveats)


@pytest.mark.parametrize("argv,msg", [
    (["compare", "example:qwen3-4b", *WORKLOAD], "at least two"),
    (["compare", "example:qwen3-4b", "example:qwen3-4b", *WORKLOAD], "given twice"),
    (["compare", *MODELS, *WORKLOAD, "--gpu", "TPU-v9"], "TPU-v9"),
    (["compare", *MODELS, "--isl", "1024", "--osl", "512", "--qps", "-3"], "--qps"),
    (["compare", *MODELS, "--isl", "1024", "--osl", "512", "--qps", "nan"], "--qps"),
    (["compare", *MODELS, "--isl", "1024", "--osl", "512"], "--qps"),
    (["compare", "example:qwen3-4b", "/nonexistent/model/config.json", *WORKLOAD], "no such file"),
    (["compare", *MODELS, *WORKLOAD, "--gpus", "H100-SXM,H200-SXM", "--usd-per-gpu-hour", "1,2,3"],
     "one per GPU"),
    (["compare", *MODELS, *WORKLOAD, "--gpus", "h100,H100-SXM"], "twice"),
    (["compare", *MODELS, *WORKLOAD, "--gpus", "H100-SXM,"], "empty GPU"),
    (["compare", *MODELS, *WORKLOAD, "--precision", "int3"], "int3"),
    (["compare", *MODELS, *WORKLOAD, "--format", "pdf"], "pdf"),
])
def test_bad_inputs_exit_2_in_one_line(capsys, tmp_path, argv, msg):
    out_file = tmp_path / "r.md"
    rc, out, err = run_cli(capsys, [*argv, "-o", str(out_file)])
    assert rc == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("deploysheet: error:") and msg in err
    assert not out_file.exists()


def test_same_model_by_two_paths_is_refused(capsys, tmp_path):
    src = ROOT / "data" / "examples" / "qwen3-4b"
    shutil.copytree(src, tmp_path / "q")
    rc, _, err = run_cli(capsys, ["compare", str(tmp_path / "q"), str(tmp_path / "q" / "config.json"), *WORKLOAD])
    assert rc == 2 and "same model" in err


def test_license_from_the_hub_tag_and_unreadable_hub_models_are_listed(fakehub, capsys):
    """A license given only as the Hub's license:<id> tag counts; a gated or vanished Hub model is reported as
    not compared (with the reason) while the rest are compared; an unreadable custom-code config likewise."""
    cfg = json.loads((ROOT / "data" / "examples" / "qwen3-4b" / "config.json").read_text())
    fakehub.add("acme/tagged", cfg, tags=["transformers", "license:apache-2.0"], extra_files=["model.safetensors"])
    fakehub.add("acme/gated", cfg, gated=True)
    fakehub.add("acme/custom", {"model_type": "acme", "auto_map": {"AutoConfig": "x.AcmeConfig"}, "d_model": 8})
    rc, out, err = run_cli(capsys, ["compare", "acme/tagged", "acme/gated", "nobody/gone", "acme/custom",
                                    "example:llama-3.1-8b", *WORKLOAD, "--format", "json"])
    assert rc == 0, err
    rep = json.loads(out)
    assert [m["name"] for m in rep["models"]] == ["acme/tagged", "example:llama-3.1-8b"]
    assert rep["models"][0]["license"] == "apache-2.0" and rep["models"][0]["risks"] == []
    skipped = {k["source"]: k["reason"] for k in rep["skipped"]}
    assert set(skipped) == {"acme/gated", "nobody/gone", "acme/custom"}
    assert "gated" in skipped["acme/gated"] and "not found" in skipped["nobody/gone"]
    assert "custom code" in skipped["acme/custom"]
    assert any("acme/gated was not compared" in c for c in rep["recommendation"]["caveats"])
    rc, out, err = run_cli(capsys, ["compare", "acme/tagged", "acme/gated", *WORKLOAD])
    last = err.strip().splitlines()[-1]  # (the fake Hub's server thread logs requests to stderr too)
    assert rc == 2 and last.startswith("deploysheet: error: compare: fewer than two models could be compared")


def test_prices_follow_the_command_line_order_of_gpus(capsys):
    rc, out, err = run_cli(capsys, ["compare", *MODELS[:2], *WORKLOAD, "--gpus", "H100-SXM,A100-SXM-80GB", "--gpu",
                                    "H200", "--usd-per-gpu-hour", "3,1.2,10", "--format", "json"])
    assert rc == 0, err
    assert [(g["gpu"], g["usd_per_hour"]) for g in json.loads(out)["gpus"]] == [
        ("H100-SXM", 3.0), ("A100-SXM-80GB", 1.2), ("H200-SXM", 10.0)]


def test_report_never_overwrites_an_input(tmp_path, capsys):
    cfg = tmp_path / "a.json"
    cfg.write_text((ROOT / "data" / "examples" / "qwen3-4b" / "config.json").read_text())
    before = cfg.read_bytes()
    rc, out, err = run_cli(capsys, ["compare", str(cfg), "example:llama-3.1-8b", *WORKLOAD, "-o", str(cfg)])
    assert rc == 2 and "refusing to overwrite" in err and cfg.read_bytes() == before
