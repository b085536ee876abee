"""The 16-bit dtype an engine serves a checkpoint in, and the names a launch command points at (issue 14 newcomer
frictions: a float16 checkpoint was labelled bf16; an absolute folder became a placeholder).

Expected values from the engines' own source:
* vLLM 0.33.0 vllm/config/model.py ``_resolve_auto_dtype``: ``--dtype auto`` keeps the checkpoint's dtype; float32
  (also what a config stating no dtype reads as) becomes the platform's first supported dtype, bfloat16 on CUDA.
* SGLang 0.5.23 sglang/srt/configs/model_config.py ``_get_and_verify_dtype``: keeps the checkpoint's dtype; float32
  (or none) becomes float16, except model types starting with "gemma" (bfloat16).
* both: ``--kv-cache-dtype auto`` = the model's dtype.
"""

from __future__ import annotations

import json

import pytest

from scorer.cli import main
from scorer.kvcache import served_dtype
from scorer.resources import data_dir


@pytest.mark.parametrize("framework,dtype,model_type,expected", [
    ("vllm", "float16", "llama", "fp16"), ("vllm", "bfloat16", "llama", "bf16"), ("vllm", "float32", "llama", "bf16"),
    ("vllm", None, "llama", "bf16"), ("sglang", "float16", "llama", "fp16"), ("sglang", "float32", "llama", "fp16"),
    ("sglang", None, "qwen2", "fp16"), ("sglang", "float32", "gemma2", "bf16"), ("sglang", "bfloat16", "llama", "bf16"),
])
def test_served_dtype_follows_the_engines(framework, dtype, model_type, expected):
    assert served_dtype(framework, dtype, model_type)[0] == expected


@pytest.fixture
def fp16_folder(tmp_path):
    cfg = json.loads((data_dir() / "examples" / "llama-3.1-8b" / "config.json").read_text())
    cfg.pop("dtype", None)
    cfg["torch_dtype"] = "float16"
    folder = tmp_path / "llama-fp16"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps(cfg))
    return folder


def test_a_float16_checkpoint_is_served_and_labelled_fp16(fp16_folder, capsys):
    assert main(["score", str(fp16_folder), "--format", "json"]) == 0
    sheet = json.loads(capsys.readouterr().out)
    assert sheet["options"]["precision"] == "fp16"
    assert sheet["kv_cache"]["dtype"] == "fp16"
    assert main(["score", str(fp16_folder)]) == 0
    head = capsys.readouterr().out.splitlines()[2]
    assert "GiB at FP16" in head and "BF16" not in head and "fits 1× H100-SXM at fp16" in head
    assert main(["predict", str(fp16_folder), "--isl", "1024", "--osl", "128", "--concurrency", "8",
                 "--format", "json"]) == 0
    pred = json.loads(capsys.readouterr().out)
    assert (pred["precision"], pred["kv_dtype"]) == ("fp16", "fp16")
    assert "--dtype" not in pred["launch"]["argv"]  # auto already runs it in float16


def test_launch_points_at_an_absolute_folder_and_states_a_dtype_auto_would_not_pick(fp16_folder, capsys):
    assert fp16_folder.is_absolute()
    assert main(["predict", str(fp16_folder), "--isl", "1024", "--osl", "128", "--concurrency", "8",
                 "--precision", "bf16", "--format", "json"]) == 0
    argv = json.loads(capsys.readouterr().out)["launch"]["argv"]
    assert argv[:3] == ["vllm", "serve", str(fp16_folder)]
    assert argv[argv.index("--dtype") + 1] == "bfloat16"
    assert main(["predict", str(fp16_folder / "config.json"), "--isl", "1024", "--osl", "128", "--concurrency", "8",
                 "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["launch"]["argv"][2] == str(fp16_folder)


def test_a_config_under_another_name_gets_the_placeholder(fp16_folder, tmp_path, capsys):
    other = tmp_path / "fp16.json"
    other.write_text((fp16_folder / "config.json").read_text())
    assert main(["predict", str(other), "--isl", "1024", "--osl", "128", "--concurrency", "8", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["launch"]["argv"][2] == "MODEL_REPO_OR_FOLDER"
