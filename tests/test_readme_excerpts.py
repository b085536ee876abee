"""The README's excerpts are real output: each quoted line that the tool prints verbatim must still be printed by
the command the README names (a refit or a template change that moves a figure must update the README too)."""

from __future__ import annotations

import re
from pathlib import Path

from scorer.cli import main

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()


def _block_after(marker: str) -> list[str]:
    """The lines of the first fenced block after ``marker`` in the README."""
    i = README.index(marker)
    m = re.search(r"```[a-z]*\n(.*?)```", README[i:], re.S)
    assert m, marker
    return [ln for ln in m.group(1).splitlines() if ln.strip()]


def test_score_excerpt_header_lines_are_printed(capsys):
    assert main(["score", "example:llama-2-7b"]) == 0
    out = capsys.readouterr().out
    block = _block_after("`deploysheet score example:llama-2-7b`")
    for ln in block[:3]:  # the title, the headline and the best-layouts line are quoted unabridged
        assert ln in out, ln


def test_compare_excerpt_rows_are_printed(capsys):
    argv = ["compare", "example:llama-3.1-8b", "example:qwen3-4b", "example:mixtral-8x7b", "--isl", "1024",
            "--osl", "512", "--qps", "50", "--ttft-ms", "300", "--itl-ms", "20", "--gpus", "H100-SXM,H200-SXM"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    block = _block_after("`deploysheet compare example:llama-3.1-8b example:qwen3-4b example:mixtral-8x7b")
    rows = [ln for ln in block if ln.startswith("| ") or ln.startswith("**") or ln[:2] in ("1.", "2.", "3.")]
    assert len(rows) >= 10
    for ln in rows:
        assert ln in out, ln
