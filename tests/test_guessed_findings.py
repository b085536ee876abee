"""A model type neither transformers nor deploysheet knows is read by its keys as a llama-like decoder (a guessed
layout, score provisional). Its findings about that layout (alignment, KV size, quantization readiness, ...) are
estimates and say so; the findings about the source itself (S*: auto_map, the guess) are facts and do not."""

from __future__ import annotations

import json

from scorer.cli import main

KEYS = {"hidden_size": 4096, "intermediate_size": 11008, "num_attention_heads": 32, "num_hidden_layers": 32,
        "vocab_size": 32000, "max_position_embeddings": 4096}


def _findings(tmp_path, capsys, cfg):
    (tmp_path / "config.json").write_text(json.dumps(cfg))
    assert main(["score", str(tmp_path), "--format", "json", "--no-recommendations"]) == 0
    doc = json.loads(capsys.readouterr().out)
    return doc["findings"], doc["score"]["provisional"]


def test_findings_of_a_guessed_layout_are_labelled_estimated(tmp_path, capsys):
    cfg = {"model_type": "step3_text", "architectures": ["Step3TextForCausalLM"],
           "auto_map": {"AutoConfig": "configuration_step3.Step3Config"}, **KEYS}
    fnd, provisional = _findings(tmp_path, capsys, cfg)
    assert provisional
    layout = [f for f in fnd if f["category"] != "source"]
    assert any(f["rule"] == "R3" for f in layout)  # MHA, 32 KV heads: read off the guessed layout
    assert all(f["message"].startswith("estimated, from a guessed layout: ") for f in layout)
    assert all(not f["message"].startswith("estimated") for f in fnd if f["category"] == "source")


def test_findings_of_a_known_layout_are_stated_as_facts(tmp_path, capsys):
    fnd, provisional = _findings(tmp_path, capsys, {"model_type": "llama", "architectures": ["LlamaForCausalLM"],
                                                    **KEYS})
    assert not provisional and any(f["rule"] == "R3" for f in fnd)
    assert not any(f["message"].startswith("estimated") for f in fnd)
