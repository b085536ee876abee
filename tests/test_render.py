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
