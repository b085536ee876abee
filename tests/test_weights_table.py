"""The sheet's weight-memory row at a checkpoint's own format counts what the checkpoint leaves unquantized at 16
bits, as the memory fit does (newcomer trial: gpt-oss at mxfp4 read 1.3 GiB below its capacity table)."""

from __future__ import annotations

import json

from scorer.cli import main


def test_mxfp4_row_keeps_the_unquantized_modules_at_16_bits(capsys):
    """gpt-oss-20b's quantization_config leaves self_attn, the router, the embeddings and lm_head unconverted, so
    only the experts' GEMMs are MXFP4 (4 bits + an 8-bit scale per 32 = 0.53125 bytes a weight):
    24 layers x 32 experts x (2880 x 5760 gate_up + 2880 x 2880 down) = 19,110,297,600 weights; the other
    20,914,757,184 - 19,110,297,600 parameters (expert biases included) at 2 bytes."""
    experts = 24 * 32 * (2880 * 2 * 2880 + 2880 * 2880)
    assert experts == 19_110_297_600
    total = 20_914_757_184  # the meta-device count (tests/data/meta_oracle.json, openai__gpt-oss-20b)
    expected = experts * 0.53125 + (total - experts) * 2
    assert main(["score", "example:gpt-oss-20b", "--format", "json"]) == 0
    s = json.loads(capsys.readouterr().out)
    assert s["params"]["total"] == total
    row = next(w for w in s["weights"] if w["precision"] == "mxfp4")
    assert row["bytes"] == int(expected)
    tp1 = next(c for c in s["capacity"] if c["tp"] == 1)
    assert abs(tp1["weights_per_gpu_gib"] - row["gib"]) < 0.01  # the same weights the fit uses


def test_compare_shows_the_same_weight_memory(capsys):
    """compare's weights row is the sheet's: 13,761,264,768 bytes for gpt-oss-20b at mxfp4 (derived above)."""
    assert main(["compare", "example:gpt-oss-20b", "example:qwen3-4b", "--gpus", "H100-SXM", "--isl", "1024",
                 "--osl", "512", "--qps", "5", "--format", "json"]) == 0
    models = json.loads(capsys.readouterr().out)["models"]
    gpt = next(m for m in models if m["name"] == "example:gpt-oss-20b")
    assert gpt["weights_gib"] == round(13_761_264_768 / 2 ** 30, 2)
