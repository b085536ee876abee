"""Rendering: model-controlled strings are neutralized; JSON is the pydantic sheet."""

from __future__ import annotations

import json

from scorer.render import md_escape, render
from scorer.sheet import build_sheet
from scorer.sources import RawModel, Provenance

HOSTILE = "<img src=x onerror=alert(1)> **bold** [link](http://evil.example) @everyone | `code` # head"


def hostile_raw() -> RawModel:
    cfg = {"model_type": HOSTILE, "architectures": [HOSTILE], "hidden_size": 512, "intermediate_size": 1536,
           "num_hidden_layers": 2, "num_attention_heads": 8, "num_key_value_heads": 8, "vocab_size": 1000,
           "auto_map": {HOSTILE: "x.y"}}
    return RawModel(config=cfg, provenance=Provenance(kind="local", source=HOSTILE, path=HOSTILE))


def test_md_escape_neutralizes_markup():
    s = md_escape(HOSTILE)
    assert "<img" not in s and "&lt;img" in s
    assert "**" not in s.replace("\\*", "")
    assert "](" not in s.replace("\\]", "")
    assert "@everyone" not in s and "@\u200beveryone" in s
    assert "http://" not in s
    assert "|" not in s.replace("\\|", "")
    assert "\n" not in md_escape("line1\nline2")


def test_hostile_config_strings_never_reach_markdown_raw():
    text = render(build_sheet(hostile_raw()), "md")
    assert "<img" not in text
    assert "@everyone" not in text
    assert "[link](http" not in text
    for line in text.splitlines():  # no table row is broken by an injected pipe
        if line.startswith("| model_type"):
            assert line.count("|") - line.count("\\|") == 3


def test_json_render_is_the_sheet():
    sheet = build_sheet(hostile_raw())
    data = json.loads(render(sheet, "json"))
    assert data["model"]["model_type"] == HOSTILE  # JSON carries the raw value; escaping is a rendering concern
    assert data["schema_version"] == sheet.schema_version


def test_html_autoescapes_and_is_well_formed():
    from html.parser import HTMLParser

    text = render(build_sheet(hostile_raw()), "html")
    assert "<img src=x" not in text and "&lt;img src=x" in text

    class Tags(HTMLParser):
        def __init__(self):
            super().__init__()
            self.tags = []

        def handle_starttag(self, tag, attrs):
            self.tags.append(tag)
            assert tag != "img" and tag != "script"

    parser = Tags()
    parser.feed(text)
    assert "table" in parser.tags and "html" in parser.tags


def test_packaged_compiled_templates_are_current_and_render_the_same(monkeypatch, tmp_path):
    """data/compiled_templates/ (scripts/make_examples.py) pins each template's SHA-256 and jinja2's version; a
    cold score imports them instead of compiling. They must match the sources and render byte for byte the same."""
    import jinja2

    from scorer import render
    from scorer.sheet import build_sheet
    from scorer.sources import load_source
    for kind in ("md", "html"):
        assert render._compiled_loader(kind) is not None, "run python scripts/make_examples.py"
        root = render.templates_dir()
        assert set(render.template_digests(kind)) == {f"{n}.{kind}.j2" for n in render.PRECOMPILED
                                                      if (root / f"{n}.{kind}.j2").exists()} | {
            f"sheet/{sec.id}.{kind}.j2" for sec in render.SHEET_SECTIONS}
    sheet = build_sheet(load_source("example:qwen3-4b"))
    monkeypatch.setenv("DEPLOYSHEET_CACHE_DIR", str(tmp_path))
    render._env.cache_clear()
    try:
        fast = (render.render_markdown(sheet), render.render_html(sheet))
        assert isinstance(render._env("md").loader, jinja2.ChoiceLoader)
        monkeypatch.setenv("DEPLOYSHEET_NO_CACHE", "1")  # compile from the sources
        render._env.cache_clear()
        slow = (render.render_markdown(sheet), render.render_html(sheet))
        assert isinstance(render._env("md").loader, jinja2.FileSystemLoader)
    finally:
        render._env.cache_clear()
    assert fast == slow


def test_a_stale_compiled_template_falls_back_to_the_source(monkeypatch, tmp_path):
    import shutil

    from scorer import render
    fake = tmp_path / "data"
    shutil.copytree(render.data_dir() / render.COMPILED_DIR, fake / render.COMPILED_DIR)
    manifest = fake / render.COMPILED_DIR / "md" / "manifest.json"
    doc = json.loads(manifest.read_text())
    doc["templates"]["sheet.md.j2"] = "0" * 64  # the source changed since the compile
    manifest.write_text(json.dumps(doc))
    monkeypatch.setattr(render, "data_dir", lambda: fake)
    assert render._compiled_loader("md") is None
    assert render._compiled_loader("html") is not None


def test_pareto_chart_has_ticks_gridlines_and_every_gpu_overlaid():
    """Issue 14: the chart had two bare axes and one GPU; now ticks, gridlines and one series per --gpu."""
    import xml.etree.ElementTree as ET

    from scorer.render import nice_ticks, render_html
    from scorer.sheet import Options, build_sheet
    from scorer.sources import load_source
    assert nice_ticks(330) == [0, 100, 200, 300]  # 330 / 5 = 66 -> step 100 (1, 2, 5 x 10^k) and nice_ticks(16800)[:3] == [0, 5000, 10000]
    sheet = build_sheet(load_source("example:llama-3.1-8b"),
                        Options(gpus=["H100-SXM", "B200", "MI300X"], recommendations=False))
    html = render_html(sheet)
    assert html.count("<svg") == 1  # one overlaid chart
    svg = ET.fromstring(html[html.index("<svg"):html.index("</svg>") + 6])
    ns = "{http://www.w3.org/2000/svg}"
    lines = svg.findall(f"{ns}polyline")
    assert len(lines) == 3 and len({ln.get("stroke") for ln in lines}) == 3
    labels = [t.text for t in svg.findall(f"{ns}text")]
    assert {"H100-SXM (bf16)", "B200 (bf16)", "MI300X (bf16)"} <= set(labels)
    assert "0" in labels and sum(1 for t in labels if t and t.rstrip("k").replace(".", "").isdigit()) >= 6
    grid = [ln for ln in svg.findall(f"{ns}line") if ln.get("stroke") == "#eaecf0"]
    assert len(grid) >= 6


def test_header_shows_a_tiny_model_in_mib_and_one_expert_in_the_singular(tmp_path):
    """A 2-layer Llama of width 64 (vocabulary 1,000, untied): embeddings 2 x 1,000 x 64 = 128,000, per layer
    q/k/v/o 4 x 64 x 64 = 16,384 + MLP 3 x 64 x 128 = 24,576 + two norms 128, final norm 64: 210,240 parameters,
    420,480 bytes at BF16 = 0.4 MiB (not "0.0 GiB"). A Mixtral of one expert, top-1: "1 expert"."""
    from transformers import LlamaConfig, MixtralConfig

    from scorer.cli import main
    import contextlib
    import io
    cfg = LlamaConfig(hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4,
                      num_key_value_heads=4, vocab_size=1000, tie_word_embeddings=False).to_dict()
    cfg["architectures"] = ["LlamaForCausalLM"]
    tiny = tmp_path / "tiny.json"
    tiny.write_text(json.dumps(cfg))
    moe = MixtralConfig(hidden_size=256, intermediate_size=512, num_hidden_layers=2, num_attention_heads=4,
                        num_key_value_heads=4, vocab_size=1000, num_local_experts=1, num_experts_per_tok=1).to_dict()
    moe["architectures"] = ["MixtralForCausalLM"]
    one = tmp_path / "one.json"
    one.write_text(json.dumps(moe))
    for fmt in ("md", "html"):
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            assert main(["score", str(tiny), "--format", fmt]) == 0
        out = buf.getvalue()
        assert "210,240" in out
        assert "weights 0.4 MiB at BF16" in out and "0.4 MiB bf16" in out  # header, parameters table
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            assert main(["score", str(one), "--format", fmt]) == 0
        out = buf.getvalue()
        assert "MoE (1 expert, top-1)" in out and "1 experts" not in out and "2 MoE layers · 1 expert ×" in out
