"""Issue 14: one sheet, every format. What the Markdown sheet shows — the fits verdict, KV per sequence, the
concurrent-sequences table, the vocabulary padding, the layout grid, the launch commands, every regime,
finding and recommendation — the HTML sheet shows too, and the JSON carries as data; and a real browser
shows the verdict and the command.
"""

from __future__ import annotations

import json
import re

import pytest

from scorer.render import render
from scorer.sheet import Options, build_sheet
from scorer.sources import load_source


@pytest.fixture(scope="module", params=["gpt-oss-20b", "llama-2-7b"])
def sheet(request):
    return build_sheet(load_source(f"example:{request.param}"), Options(gpus=["H100-SXM", "B200"]))


def _text(html: str) -> str:
    import html as h
    return h.unescape(re.sub(r"<[^>]+>", " ", html))


def test_every_markdown_section_is_in_the_html(sheet):
    md, html = render(sheet, "md"), render(sheet, "html")
    text = " ".join(_text(html).split())
    fit = sheet.smallest_fit
    assert fit is not None and f"fits {fit.tp}× {fit.gpu} at {fit.precision}" in md
    assert f"fits {fit.tp}× {fit.gpu} at {fit.precision}" in text
    for marker in ("Per sequence:", "Concurrent sequences that fit", "Layouts on one 8-GPU node",
                   f"Vocabulary {sheet.hardware_fit.vocab.vocab_size:,}", "Attention kernels",
                   "Quantization readiness", "Serving regimes", "Findings", "Assumptions and sources"):
        assert marker in md, marker
        assert marker in text, marker
    for cap in sheet.capacity:  # every row of the capacity table, every number
        for c, n in cap.max_sequences.items():
            if not (sheet.model.max_positions and c > sheet.model.max_positions):
                assert f"{n:,}" in text
    for gpu, regs in sheet.regimes.items():
        for r in regs:
            assert r.title in text
            if r.launch is not None and r.launch.argv:
                assert r.launch.text in md and r.launch.text in text
    for f in sheet.findings:
        assert f.rule in text
    for rec in sheet.recommendations:
        assert rec.summary.split(";")[0][:40] in text


def test_both_formats_render_the_one_section_list(sheet):
    """The Markdown and the HTML sheet are both the sections of render.SHEET_SECTIONS, in that order: each has a
    template per format, its heading in both (in order), and its data in the JSON."""
    from scorer.render import SHEET_SECTIONS, templates_dir
    md, html = render(sheet, "md"), render(sheet, "html")
    doc = json.loads(render(sheet, "json"))
    for top in ("sheet.md.j2", "sheet.html.j2"):  # the templates include the list, they do not spell sections out
        src = (templates_dir() / top).read_text()
        assert "{% for sec in sections %}{% include" in src and "<h2>" not in src and "\n## " not in src
    md_at, html_at = -1, -1
    for sec in SHEET_SECTIONS:
        for kind in ("md", "html"):
            assert (templates_dir() / "sheet" / f"{sec.id}.{kind}.j2").is_file(), (sec.id, kind)
        for field in sec.fields:
            assert field in doc, (sec.id, field)
        if sec.title is None:
            continue
        m = re.search(r"^## " + re.escape(sec.title) + r"\b", md, re.M)
        h = re.search(r"<h2>" + re.escape(sec.title) + r"\b", html)
        assert m and h, sec.title
        assert m.start() > md_at and h.start() > html_at, f"{sec.title} out of order"
        md_at, html_at = m.start(), h.start()
    assert md.count("\n## ") == html.count("<h2>") == sum(1 for x in SHEET_SECTIONS if x.title)
    assert re.findall(r"^### (.+)$", md, re.M) == re.findall(r"<h3>(.+?)</h3>", html)  # subsections too


def test_the_header_line_is_the_same_in_both(sheet):
    """The header's figures: weights at BF16 and at the serving precision, the KV bytes over all layers, the fits
    verdict and the best layouts read the same in Markdown and HTML."""
    md, html = render(sheet, "md"), render(sheet, "html")
    head_md = " ".join(md.split("\n## ")[0].split())
    card = " ".join(_text(html.split('<div class="card">')[1].split("</div>")[0]).split())
    kv = f"KV {sheet.kv_cache.bytes_per_token_all_layers:,} B/token"
    assert kv in head_md and kv in card
    for w in sheet.weights:
        if w.precision in ("bf16", sheet.options.precision):
            assert f"{w.gib:.1f} GiB at" in head_md and f"{w.gib:.1f} GiB at" in card, w.precision
    best = re.search(r"best on [^:]+: [^·|>]+", head_md)
    assert best and best.group(0).strip() in card


def test_the_json_carries_the_same_data(sheet):
    doc = json.loads(render(sheet, "json"))
    assert doc["capacity"] and all("max_sequences" in c and "engine_blocker" in c for c in doc["capacity"])
    assert doc["kv_cache"]["per_sequence_bytes"] and doc["hardware_fit"]["vocab"]["vllm_padded"]
    assert doc["hardware_fit"]["parallelism"]["layouts"]
    assert any(r["launch"] and r["launch"]["argv"] for regs in doc["regimes"].values() for r in regs)


def test_a_browser_shows_the_verdict_and_the_command(tmp_path):
    """Headless Chromium (as the leaderboard's browser test): the rendered page's visible text holds the fits
    verdict and a launch command, and a screenshot is taken."""
    from test_leaderboard_browser import CHROMEDRIVER, CHROMIUM, _need_browser
    _need_browser()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By

    sheet = build_sheet(load_source("example:llama-3.1-8b"), Options(recommendations=False))
    page = tmp_path / "sheet.html"
    page.write_text(render(sheet, "html"))
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                 "--window-size=1400,4000", f"--user-data-dir={tmp_path / 'profile'}"):
        opts.add_argument(flag)
    drv = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    try:
        drv.get(page.as_uri())
        verdict = drv.find_element(By.CSS_SELECTOR, ".verdict").text
        assert verdict.startswith("fits ") and "H100-SXM" in verdict and verdict.endswith("bf16")
        codes = [e.text for e in drv.find_elements(By.CSS_SELECTOR, "pre code")]
        assert any(c.startswith("vllm serve") and "--tensor-parallel-size" in c for c in codes)
        shot = tmp_path / "sheet.png"
        assert drv.save_screenshot(str(shot)) and shot.stat().st_size > 10_000
    finally:
        drv.quit()


def test_encoders_get_no_kv_figure_and_no_serving_score():
    cfg = {"model_type": "bert", "architectures": ["BertModel"], "hidden_size": 768, "num_hidden_layers": 12,
           "num_attention_heads": 12, "intermediate_size": 3072, "vocab_size": 30522, "max_position_embeddings": 512}
    from scorer.sources import RawModel, Provenance
    sheet = build_sheet(RawModel(config=cfg, provenance=Provenance(kind="local", source="bert")),
                        Options(recommendations=False))
    head = render(sheet, "md").splitlines()[2]
    assert "encoder" in head and "KV" not in head and "B/token" not in head
    serving = next(c for c in sheet.score.components if c.name == "serving_economics")
    assert serving.weight == 0 and serving.points == 0
    assert abs(sum(c.weight for c in sheet.score.components) - 100) < 0.1
    assert sheet.score.total == round(sum(c.points for c in sheet.score.components), 1)


@pytest.mark.parametrize("name", ["qwen3-4b", "mixtral-8x7b"])
def test_no_frontier_point_is_dominated_by_a_regime_the_sheet_shows(name):
    """Newcomer trial: the throughput regime (an engine-chosen batch, no power of two) beat the frontier's best point
    at the same workload in 9 of 30 sheets. Domination is checked here by hand on every pair."""
    sheet = build_sheet(load_source(f"example:{name}"), Options(gpus=["H100-SXM"], recommendations=False))
    fr = sheet.frontier["H100-SXM"]
    shown = [r.prediction for r in sheet.regimes["H100-SXM"] if r.prediction is not None and r.prediction.fits
             and r.prediction.tpot_ms is not None and (r.prediction.isl, r.prediction.osl) == (fr.isl, fr.osl)]
    assert shown and fr.pareto
    for f in fr.pareto:
        for x in shown + fr.pareto:
            better = (x.tokens_per_s_per_user >= f.tokens_per_s_per_user
                      and x.output_tokens_per_s_per_gpu >= f.output_tokens_per_s_per_gpu
                      and (x.tokens_per_s_per_user, x.output_tokens_per_s_per_gpu)
                      != (f.tokens_per_s_per_user, f.output_tokens_per_s_per_gpu))
            assert not better, (x.layout, x.concurrency, f.layout, f.concurrency)


def test_the_checkpoints_quantization_line_is_in_the_html(sheet):
    md, html = render(sheet, "md"), _text(render(sheet, "html"))
    line = next((ln for ln in md.splitlines() if ln.startswith("Checkpoint: ")), None)
    if sheet.quantization.checkpoint is None:
        assert line is None and "Checkpoint: " not in html
        return
    assert line and "Checkpoint: " + sheet.quantization.checkpoint["format"] in html  # gpt-oss-20b: mxfp4
    assert "Runs as stored at TP" in line and "Runs as stored at TP" in html
