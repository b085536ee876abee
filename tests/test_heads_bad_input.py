"""Breaker trial of the task heads and the sources (stop 23): labels as transformers counts them, the encoder depth
cap, folders without permission, structural keys of the wrong type, and models that cannot generate in compare and
the leaderboard."""

from __future__ import annotations

import json
import pathlib

import pytest

from scorer.cli import main
from scorer.sources import load_source


def _llama(**extra) -> dict:
    cfg = dict(load_source("example:llama-3.1-8b").config)
    cfg.update(hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4,
               num_key_value_heads=2, head_dim=16, vocab_size=1000, **extra)
    return cfg


def _score(capsys, path) -> dict:
    assert main(["score", str(path), "--format", "json", "--no-recommendations"]) == 0
    return json.loads(capsys.readouterr().out)


def test_num_labels_wins_over_id2label_as_in_pretrained_config(tmp_path, capsys):
    """transformers 5.24 (configuration_utils.py): num_labels given beside an id2label of another length rebuilds
    id2label to num_labels entries (a warning only); deploysheet counted len(id2label)."""
    p = tmp_path / "c.json"
    p.write_text(json.dumps(_llama(architectures=["LlamaForSequenceClassification"], num_labels=3,
                                   id2label={str(i): f"L{i}" for i in range(7)})))
    sheet = _score(capsys, p)
    assert sheet["params"]["by_component"]["task_head"] == 64 * 3  # score: Linear(64, 3, bias=False)


def test_encoder_layers_are_capped_like_decoder_layers(tmp_path, capsys):
    cfg = {"model_type": "bart", "architectures": ["BartForConditionalGeneration"], "d_model": 64,
           "encoder_layers": 4_000_000, "decoder_layers": 2, "encoder_attention_heads": 4,
           "decoder_attention_heads": 4, "encoder_ffn_dim": 128, "decoder_ffn_dim": 128, "vocab_size": 1000,
           "max_position_embeddings": 128}
    p = tmp_path / "bart.json"
    p.write_text(json.dumps(cfg))
    assert main(["score", str(p)]) == 2
    assert "encoder_layers = 4000000 is absurdly large (limit 4,096)" in capsys.readouterr().err


@pytest.mark.parametrize("key,value", [("quantization_config", [1]), ("auto_map", "x.Y"), ("text_config", [])])
def test_structural_keys_of_the_wrong_type_are_bad_input(tmp_path, capsys, key, value):
    p = tmp_path / "c.json"
    p.write_text(json.dumps(_llama(**{key: value})))
    assert main(["score", str(p)]) == 2
    err = capsys.readouterr().err
    assert f"{key} must be an object" in err and err.count("\n") == 1


def test_a_folder_without_permission_is_bad_input(tmp_path, capsys, monkeypatch):
    """Root ignores file modes, so the refusal is simulated: Path.exists raises PermissionError for a folder
    without search permission (as it does for a non-root user)."""
    folder = tmp_path / "m"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps(_llama()))
    real = pathlib.Path.exists

    def exists(self, *a, **k):
        if self == folder / "config.json":
            raise PermissionError(13, "Permission denied", str(self))
        return real(self, *a, **k)

    monkeypatch.setattr(pathlib.Path, "exists", exists)
    assert main(["score", str(folder)]) == 2
    assert "permission denied" in capsys.readouterr().err


def test_compare_never_calls_a_cheaper_classifier_the_same_cost(tmp_path, capsys):
    cls = tmp_path / "cls"
    cls.mkdir()
    (cls / "config.json").write_text(json.dumps(_llama(architectures=["LlamaForSequenceClassification"])))
    assert main(["compare", "example:llama-3.1-8b", str(cls), "--isl", "512", "--osl", "128", "--qps", "200",
                 "--format", "json"]) == 0
    rec = json.loads(capsys.readouterr().out)["recommendation"]
    assert "the same $/month" not in rec["headline"] and not any("cost the same" in c for c in rec["caveats"])
    assert "cls would cost" in rec["headline"] and "does not generate" in rec["headline"]
    assert rec["winner"] == "example:llama-3.1-8b"
    # where no generating model meets the targets, the classifier is not "the cheapest to serve" the workload
    assert main(["compare", "example:llama-3.1-8b", str(cls), "--isl", "512", "--osl", "128", "--qps", "5",
                 "--ttft-ms", "60", "--itl-ms", "2", "--format", "json"]) == 0
    rec = json.loads(capsys.readouterr().out)["recommendation"]
    assert rec["headline"].startswith("No model compared that engines load and that generates can serve")
    assert rec["winner"] is None


def test_the_leaderboard_gives_no_cost_rank_to_a_model_that_cannot_generate(tmp_path, capsys):
    for name, arch in (("gen", "LlamaForCausalLM"), ("rm", "LlamaForSequenceClassification")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "config.json").write_text(json.dumps(_llama(architectures=[arch])))
    assert main(["score", str(tmp_path / "rm"), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["model"]["generates"] is False
    assert main(["leaderboard", "--from", str(tmp_path), "--format", "csv"]) == 0
    import csv
    import io
    rows = {r["model"]: r for r in csv.DictReader(io.StringIO(capsys.readouterr().out))}
    assert rows["gen"]["cost_rank"] == "1" and rows["rm"]["cost_rank"] == ""


@pytest.mark.parametrize("arch,model_type", [("LlamaForMultipleChoice", "llama"), ("A" * 10_000, "llama"),
                                             ("LlamaForCausalLM", "bert")])
def test_a_class_transformers_does_not_define_for_the_type_is_a_guess(tmp_path, capsys, arch, model_type):
    """A made-up class, or another family's, was counted as the family's model and labelled exact."""
    cfg = _llama(architectures=[arch]) if model_type == "llama" else {
        "model_type": "bert", "architectures": [arch], "hidden_size": 64, "num_hidden_layers": 2,
        "num_attention_heads": 4, "intermediate_size": 128, "vocab_size": 1000}
    p = tmp_path / "c.json"
    p.write_text(json.dumps(cfg))
    sheet = _score(capsys, p)
    assert sheet["params"]["exact"] is False
    guess = next(g for g in sheet["model"]["guesses"] if g.startswith("architectures names"))
    assert len(guess) < 400  # a 10 kB name is shortened


def test_classes_transformers_maps_to_a_type_are_known():
    from scorer.architecture.kinds.heads import class_known
    assert class_known("exaone", "LlamaForCausalLM")  # its auto mapping, not its own file
    assert class_known("llama", "LlamaForSequenceClassification") and not class_known("llama", "LlamaForFooBar")


#: google/long-t5-tglobal-base's published config (transient-global encoder attention)
LONG_T5_TGLOBAL = {"architectures": ["LongT5ForConditionalGeneration"], "d_ff": 2048, "d_kv": 64, "d_model": 768,
                   "decoder_start_token_id": 0, "dropout_rate": 0.1, "encoder_attention_type": "transient-global",
                   "eos_token_id": 1, "feed_forward_proj": "gated-gelu", "global_block_size": 16,
                   "initializer_factor": 1.0, "is_encoder_decoder": True, "layer_norm_epsilon": 1e-06,
                   "local_radius": 127, "model_type": "longt5", "n_positions": 4096, "num_decoder_layers": 12,
                   "num_heads": 12, "num_layers": 12, "output_past": True, "pad_token_id": 0,
                   "relative_attention_max_distance": 128, "relative_attention_num_buckets": 32,
                   "tie_word_embeddings": False, "use_cache": True, "vocab_size": 32128}


def test_long_t5_transient_global_counts_its_global_bias_and_norms(tmp_path, capsys):
    """Oracle: LongT5ForConditionalGeneration._from_config(LongT5Config(**cfg)) on torch's meta device (torch 2.13.0,
    transformers 5.24.0; architectures / transformers_version dropped) = 222,913,152 parameters, lm_head tied
    (LongT5Config sets tie_word_embeddings True whatever the file says). deploysheet counts the untied lm_head the
    checkpoint stores (32,128 x 768, a guess says so); the rest must equal the oracle: the transient-global
    attention's second relative bias (32 x 12) and a global_input_layer_norm per encoder block (12 x 768) were
    missing (-9,600) and the whole model was read as a llama-like decoder before LongT5 had a reader."""
    p = tmp_path / "c.json"
    p.write_text(json.dumps(LONG_T5_TGLOBAL))
    sheet = _score(capsys, p)
    assert sheet["params"]["total"] - 32128 * 768 == 222_913_152
    assert any("LongT5Config sets True" in g for g in sheet["model"]["guesses"])


@pytest.mark.parametrize("qc,per_weight", [
    # GPTQ 4-bit, group 32: 0.5 B + an fp16 scale and a packed 4-bit zero (qzeros, stored even when sym) per 32
    ({"quant_method": "gptq", "bits": 4, "group_size": 32, "sym": True, "desc_act": True}, 0.5 + (2 + 0.5) / 32),
    # GPTQ per channel (group_size -1): the packed weights alone, per-row scales negligible
    ({"quant_method": "gptq", "bits": 4, "group_size": -1, "sym": True}, 0.5),
    # compressed-tensors W4A16 symmetric, group 32 (Kimi-K2-Thinking's): no zero points
    ({"quant_method": "compressed-tensors", "format": "pack-quantized", "config_groups": {"group_0": {
        "targets": ["Linear"], "weights": {"num_bits": 4, "type": "int", "symmetric": True, "strategy": "group",
                                           "group_size": 32}}}}, 0.5 + 2 / 32),
])
def test_int4_checkpoints_are_sized_at_their_own_group_size(tmp_path, capsys, qc, per_weight):
    """The trial of 131 published configs: INT4 checkpoints were all sized as group 128 with zero points (the catalog
    figure, 0.5195 B per weight): GPTQ group 32 9.4% low, Kimi-K2-Thinking 7.4% low (its KV room at 8 GPUs 0.7
    GiB per GPU instead of 5.8)."""
    cfg = _llama(quantization_config=qc)
    p = tmp_path / "c.json"
    p.write_text(json.dumps(cfg))
    sheet = _score(capsys, p)
    h, i, layers, kv = 64, 128, 2, 2 * 16
    gemm = layers * (2 * h * h + 2 * h * kv + 3 * h * i)  # q, o, k, v, gate, up, down; lm_head stays 16-bit (Q7)
    want = gemm * per_weight + (sheet["params"]["total"] - gemm) * 2
    got = next(w for w in sheet["weights"] if w["precision"] == "int4")["bytes"]
    assert got == int(want)
