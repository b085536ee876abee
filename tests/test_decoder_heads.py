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
    assert main(["score", _variant(tmp_path, arch, **extra)]) == 0
    md = capsys.readouterr().out
    assert "embedding rows per rank" in md and "lm_head rows per rank" not in md


def test_a_causal_lm_and_a_repos_own_model_class_keep_the_lm_head(tmp_path, capsys):
    assert _params(capsys, _variant(tmp_path, "LlamaForCausalLM"))["params"]["total"] == LLAMA_8B
    # the class the repo's own code maps as its causal LM keeps the lm_head, whatever its name
    custom = _variant(tmp_path, "LlamaModel", auto_map={"AutoModelForCausalLM": "modeling_x.LlamaModel"})
    assert _params(capsys, custom)["params"]["total"] == LLAMA_8B
    # the repo's own AutoModel class of that name: bare by convention (DeepSeek-V3's repo: DeepseekV3Model beside
    # DeepseekV3ForCausalLM), and a guess says the repo's code defines it
    own = _params(capsys, _variant(tmp_path, "LlamaModel", auto_map={"AutoModel": "modeling_x.LlamaModel"}))
    assert own["params"]["total"] == LLAMA_8B - 128256 * 4096 and own["params"]["exact"] is False
    assert any("auto_map" in g for g in own["model"]["guesses"])
    # a checkpoint saved from transformers' bare class keeps the base repo's auto_map, which maps another class
    # as the LM: bare, exact (the helper's trial: NemotronHModel, MiniMaxM2Model counted an lm_head)
    saved = _params(capsys, _variant(tmp_path, "LlamaModel", auto_map={"AutoModelForCausalLM": "modeling_x.XForLM"}))
    assert saved["params"]["total"] == LLAMA_8B - 128256 * 4096 and saved["params"]["exact"] is True


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


# ---------------------------------------------------------------- breaker trial of the heads (bad input)

@pytest.mark.parametrize("extra, err", [
    ({"num_labels": 10 ** 8}, "num_labels must be an integer from 0 to 1,048,576, got 100000000"),
    ({"num_labels": 2_000_000}, "got 2000000"),
    ({"num_labels": -3}, "got -3"),
    ({"num_labels": True}, "got True"),
    ({"id2label": ["a", "b"]}, "id2label must be an object"),
])
def test_absurd_label_counts_are_refused_before_transformers_builds_them(tmp_path, capsys, extra, err):
    """transformers builds an id2label entry per label (range(num_labels)): 10**8 labels took minutes and ~18 GB
    before any shape was read. Refused in one line, exit 2."""
    src = _variant(tmp_path, "LlamaForSequenceClassification", **extra)
    cfg = json.loads(open(src).read())
    if "num_labels" in extra:
        cfg.pop("id2label", None), cfg.pop("label2id", None)
        open(src, "w").write(json.dumps(cfg))
    assert main(["score", src]) == 2
    e = capsys.readouterr().err
    assert err in e and len(e.strip().splitlines()) == 1


@pytest.mark.parametrize("extra, labels", [({"num_labels": 0}, 0), ({"id2label": {}, "label2id": {}}, 0),
                                           ({"num_labels": 500_000}, 500_000)])
def test_label_counts_as_pretrained_config_reads_them(tmp_path, capsys, extra, labels):
    """PretrainedConfig: len(id2label) when the file has one (even empty), else num_labels."""
    src = _variant(tmp_path, "LlamaForSequenceClassification")
    cfg = json.loads(open(src).read())
    cfg.pop("id2label"), cfg.pop("label2id")
    cfg.update(extra)
    open(src, "w").write(json.dumps(cfg))
    p = _params(capsys, src)["params"]
    assert p["by_component"]["task_head"] == H * labels and p["total"] == LLAMA_8B - LM_HEAD + H * labels


@pytest.mark.parametrize("flag", [0, None, False])
def test_a_false_token_classification_bias_builds_no_bias(tmp_path, capsys, flag):
    """nn.Linear(bias=getattr(config, "token_classification_bias", True)): 0 and null are false too."""
    src = _variant(tmp_path, "LlamaForTokenClassification", id2label={str(i): f"L{i}" for i in range(5)},
                   token_classification_bias=flag)
    assert _params(capsys, src)["params"]["by_component"]["task_head"] == H * 5


def test_double_heads_and_custom_reward_classes_are_not_taken_for_bare_stacks(tmp_path, capsys):
    """GPT2DoubleHeadsModel keeps its (tied) lm_head and adds a multiple-choice head the count leaves out (a
    guess says so); Qwen2ForRewardModel (Qwen2.5-Math-RM, the repo's own code) has no lm_head and a head whose
    shape is not read: counted without the lm_head, labelled estimated."""
    from transformers import GPT2Config
    cfg = GPT2Config(n_layer=2, n_embd=256, n_head=4, vocab_size=1000).to_dict()
    cfg["architectures"] = ["GPT2DoubleHeadsModel"]
    p = tmp_path / "gpt2.json"
    p.write_text(json.dumps(cfg))
    sheet = _params(capsys, str(p))
    assert any(g["name"] == "lm_head" for g in sheet["gemms"])
    assert any("multiple-choice head" in g for g in sheet["model"]["guesses"]) and not sheet["params"]["exact"]
    rm = _variant(tmp_path, "Qwen2ForRewardModel", auto_map={"AutoModel": "modeling_qwen2_rm.Qwen2ForRewardModel"})
    sheet = _params(capsys, rm)
    assert sheet["params"]["by_component"]["lm_head"] == 0 and not sheet["params"]["exact"]
    assert any("Qwen2ForRewardModel" in g for g in sheet["model"]["guesses"])


def test_a_score_head_of_another_shape_is_a_hard_c1(tmp_path, capsys):
    """The score head is what a reward model loads in place of the lm_head, and its shape is checked on load like
    any GEMM: a checkpoint storing 5 labels for a config of 3 (or no head at all) is refused (HARD C1)."""
    from test_checkpoint import CFG, folder, llama_tensors, write_safetensors
    cfg = dict(CFG, architectures=["LlamaForSequenceClassification"], id2label={"0": "a", "1": "b", "2": "c"})
    base = {k: ("BF16", v) for k, v in llama_tensors(cfg).items() if k != "lm_head.weight"}
    for name, head, hard in (("ok", [3, 128], False), ("five", [5, 128], True), ("none", None, True)):
        d = folder(tmp_path, cfg, name)
        write_safetensors(d / "model.safetensors", base | ({"score.weight": ("BF16", head)} if head else {}))
        sheet = _params(capsys, str(d))
        c1 = [f for f in sheet["findings"] if f["rule"] == "C1"]
        assert sheet["params"]["checkpoint"]["matches"] is (not hard), name
        assert bool(c1 and c1[0]["severity"] == "HARD") is hard, (name, c1)


def test_predict_compare_and_speculation_say_a_pooling_model_does_not_generate(tmp_path, capsys):
    rm = _variant(tmp_path, "LlamaForSequenceClassification")
    assert main(["predict", rm, "--isl", "1024", "--osl", "256", "--concurrency", "16"]) == 0
    assert any("has no lm_head" in n for n in json.loads(capsys.readouterr().out)["notes"])
    assert main(["predict", rm, "--speculative", "eagle3", "--isl", "1024", "--osl", "256",
                 "--concurrency", "16"]) == 2
    assert "does not generate" in capsys.readouterr().err
    emb = _variant(tmp_path, "LlamaModel")
    assert main(["compare", emb, "example:llama-3.1-8b", "--label", f"emb={emb}", "--isl", "1024", "--osl", "1024",
                 "--qps", "2", "--format", "json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    emb_col = next(m for m in rep["models"] if m["name"] == "emb")
    assert any(r["kind"] == "cannot_generate" and r["severity"] == "high" for r in emb_col["risks"])
    # a model that generates ranks first, whatever the cost
    assert rep["recommendation"]["ranking"][0].startswith("example:llama-3.1-8b"), rep["recommendation"]["ranking"]
