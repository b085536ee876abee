"""Decoders shipped with another head than the vocabulary lm_head (reward models, classifiers, embedding models):
helper trial of issue 12 found three published checkpoints counted exact and wrong by the lm_head they do not have.

Expected counts come from the published Llama-3.1-8B count (8,030,261,248 with its untied 128,256 x 4,096 lm_head;
Meta's model card) and Mistral-7B's (7,241,732,096 with a 32,000 x 4,096 lm_head), less that head, plus the head
transformers 5.x builds for the class (modeling_layers.py: GenericForSequenceClassification ``score`` =
Linear(hidden, num_labels, bias=False); GenericForTokenClassification ``score`` with a bias;
GenericForQuestionAnswering ``qa_outputs`` = Linear(hidden, 2) with a bias). The meta-device oracle (torch
2.13.0, transformers 5.24.0, ``AutoModelForSequenceClassification.from_config``) gave 7,504,932,864 for
Skywork-Reward-V2-Llama-3.1-8B (vocabulary 128,257) and 7,110,660,096 for e5-mistral-7b-instruct (MistralModel).
"""

from __future__ import annotations

import json

import pytest

from scorer.checkpoint import component_of
from scorer.cli import main
from scorer.sources import load_source

LLAMA_8B, LM_HEAD = 8_030_261_248, 128_256 * 4_096
H = 4_096


def _variant(tmp_path, arch: str, **extra) -> str:
    cfg = dict(load_source("example:llama-3.1-8b").config)
    cfg.update(architectures=[arch], **extra)
    p = tmp_path / f"{arch}.json"
    p.write_text(json.dumps(cfg))
    return str(p)


def _params(capsys, src: str) -> dict:
    assert main(["score", src, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("arch, extra, head", [
    ("LlamaForSequenceClassification", {"id2label": {"0": "LABEL_0"}, "label2id": {"LABEL_0": 0}}, H * 1),
    ("LlamaForSequenceClassification", {}, H * 2),  # id2label of the example: two labels
    ("LlamaForTokenClassification", {"id2label": {str(i): f"L{i}" for i in range(9)}}, H * 9 + 9),
    ("LlamaForTokenClassification", {"id2label": {str(i): f"L{i}" for i in range(9)},
                                     "token_classification_bias": False}, H * 9),
    ("LlamaForQuestionAnswering", {}, H * 2 + 2),
    ("LlamaModel", {}, 0),
])
def test_decoder_heads_replace_the_lm_head(tmp_path, capsys, arch, extra, head):
    sheet = _params(capsys, _variant(tmp_path, arch, **extra))
    p = sheet["params"]
    assert p["total"] == LLAMA_8B - LM_HEAD + head
    assert p["by_component"]["lm_head"] == 0 and p["by_component"]["task_head"] == head
    assert p["exact"] is True and sheet["model"]["guesses"] == []
    assert [g["name"] for g in sheet["gemms"]] == ["attn.qkv_proj", "attn.o_proj", "mlp.gate_up_proj",
                                                    "mlp.down_proj"]  # no lm_head GEMM is run or costed
    assert any(arch in a and "cannot generate" in a for a in sheet["assumptions"])


def test_a_causal_lm_and_a_repos_own_model_class_keep_the_lm_head(tmp_path, capsys):
    assert _params(capsys, _variant(tmp_path, "LlamaForCausalLM"))["params"]["total"] == LLAMA_8B
    # a class of the repo's own code named like a base model (ChatGLM's ChatGLMModel generates): no guess made
    custom = _variant(tmp_path, "LlamaModel", auto_map={"AutoModel": "modeling_x.LlamaModel"})
    assert _params(capsys, custom)["params"]["total"] == LLAMA_8B


def test_a_head_class_of_its_own_is_labelled_a_guess(tmp_path, capsys):
    """GPT2ForSequenceClassification is GPT-2's own class (not transformers' generic one): counted as a bias-free
    linear in place of the lm_head, and the guess says so."""
    cfg = dict(load_source("example:llama-3.1-8b").config)
    cfg.update(model_type="gpt2", architectures=["GPT2ForSequenceClassification"], n_embd=768, n_layer=2,
               n_head=12, vocab_size=50257, n_positions=1024)
    for k in ("hidden_size", "num_hidden_layers", "num_attention_heads", "num_key_value_heads", "intermediate_size",
              "head_dim", "max_position_embeddings", "rope_parameters", "rms_norm_eps", "mlp_bias",
              "attention_bias", "pretraining_tp", "hidden_act"):
        cfg.pop(k, None)
    p = tmp_path / "gpt2-cls.json"
    p.write_text(json.dumps(cfg))
    sheet = _params(capsys, str(p))
    assert any("GPT2ForSequenceClassification" in g and "not transformers' GenericForSequenceClassification" in g
               for g in sheet["model"]["guesses"])
    assert sheet["params"]["by_component"]["task_head"] == 768 * 2 and sheet["params"]["by_component"]["lm_head"] == 0


def test_checkpoint_tensors_of_the_score_head_are_the_task_head():
    assert component_of("score.weight", 32, False) == "task_head"
    assert component_of("lm_head.weight", 32, False) == "lm_head"
