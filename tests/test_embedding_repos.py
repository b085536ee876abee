"""Embedding models shipped with a *ForCausalLM config: Qwen3-Embedding's config.json names Qwen3ForCausalLM, but its
repository's modules.json (sentence-transformers) pools the last hidden states and its weights hold no lm_head. The
module list decides: the model is read as the bare Qwen3Model (no lm_head counted, does not generate), and the sheet
and predict say why. Counted by hand here for a Qwen3-Embedding-8B shape (hidden 4096, 36 layers, 32 heads of 128,
8 KV heads, intermediate 12288, vocab 151665, untied): the lm_head would add 151665 x 4096 = 621,219,840 (8.2%).
Local folders and Hub repositories (the real huggingface_hub client against the fake Hub on loopback) alike."""

from __future__ import annotations

import json

from scorer.cli import main
from scorer.sources import load_source

CFG = {"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "hidden_size": 4096, "intermediate_size": 12288,
       "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 128, "num_hidden_layers": 36,
       "vocab_size": 151665, "max_position_embeddings": 40960, "tie_word_embeddings": False,
       "torch_dtype": "bfloat16", "rms_norm_eps": 1e-6, "rope_theta": 1000000}
MODULES = [{"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
           {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
           {"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"}]
H, L, I, V = 4096, 36, 12288, 151665
LAYER = H * 32 * 128 + 2 * H * 8 * 128 + 32 * 128 * H + 3 * H * I + 2 * H + 2 * 128  # attn, MLP, 2 norms, q/k norms
STACK = V * H + L * LAYER + H  # embedding, layers, final norm: no lm_head
LM_HEAD = V * H


def _score(capsys, src: str) -> dict:
    assert main(["score", src, "--format", "json", "--no-recommendations"]) == 0
    return json.loads(capsys.readouterr().out)


def test_a_local_embedding_model_is_read_as_its_bare_stack(tmp_path, capsys):
    (tmp_path / "config.json").write_text(json.dumps(CFG))
    assert _score(capsys, str(tmp_path))["params"]["total"] == STACK + LM_HEAD  # without modules.json: a generator
    (tmp_path / "modules.json").write_text(json.dumps(MODULES))
    doc = _score(capsys, str(tmp_path))
    assert doc["params"]["total"] == STACK and doc["params"]["exact"]
    assert doc["model"]["generates"] is False and doc["model"]["architectures"] == ["Qwen3Model"]
    assert any("sentence-transformers Pooling module" in a and "Qwen3ForCausalLM" in a for a in doc["assumptions"])
    assert not any(g["component"] == "lm_head" for g in doc["gemms"])
    assert main(["predict", str(tmp_path), "--isl", "512", "--osl", "16", "--concurrency", "4"]) == 0
    assert any("Pooling module" in n for n in json.loads(capsys.readouterr().out)["notes"])


def test_a_module_list_without_pooling_or_unreadable_changes_nothing(tmp_path, capsys):
    (tmp_path / "config.json").write_text(json.dumps(CFG))
    for body in (json.dumps(MODULES[:1]), "not json", json.dumps({"type": "sentence_transformers.models.Pooling"}),
                 "[" * 100_000):  # nested past json's recursion limit
        (tmp_path / "modules.json").write_text(body)
        doc = _score(capsys, str(tmp_path))
        assert doc["params"]["total"] == STACK + LM_HEAD and doc["model"]["generates"] is True, body
    (tmp_path / "modules.json").write_text(json.dumps(MODULES))
    (tmp_path / "config.json").write_text(json.dumps({**CFG, "architectures": ["Qwen3ForSequenceClassification"]}))
    doc = _score(capsys, str(tmp_path))  # only a *ForCausalLM class is re-read; another head is its own evidence
    assert doc["model"]["architectures"] == ["Qwen3ForSequenceClassification"]


def test_a_hub_embedding_repo_is_read_as_its_bare_stack(fakehub, capsys):
    fakehub.add("acme/embed-8b", CFG, more_files={"modules.json": json.dumps(MODULES).encode()})
    raw = load_source("acme/embed-8b")
    assert raw.config["architectures"] == ["Qwen3Model"] and "modules.json" in raw.provenance.files
    doc = _score(capsys, "acme/embed-8b")
    assert doc["params"]["total"] == STACK and doc["model"]["generates"] is False
    fakehub.add("acme/gen-8b", CFG, more_files={"modules.json": b"[]"})
    raw = load_source("acme/gen-8b")
    assert raw.config["architectures"] == ["Qwen3ForCausalLM"] and "modules.json" not in raw.provenance.files
