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


# --- breaker trial: dtype sources, KV flags, EP, paths, sub-config culprits, duplicate GPUs ---------------------

LLAVA = {"architectures": ["LlavaForConditionalGeneration"], "model_type": "llava", "tie_word_embeddings": False,
         "text_config": {"model_type": "llama", "hidden_size": 4096, "intermediate_size": 11008,
                         "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 32,
                         "vocab_size": 32064, "max_position_embeddings": 4096},
         "vision_config": {"hidden_size": 1024, "image_size": 336, "intermediate_size": 4096,
                           "model_type": "clip_vision_model", "num_attention_heads": 16, "num_hidden_layers": 24,
                           "patch_size": 14, "projection_dim": 768}}


@pytest.mark.parametrize("top,text,vision,expected", [
    ({"dtype": "float16"}, {}, {}, "float16"),  # the top level's dtype (transformers 5 spelling)
    ({"dtype": "float16"}, {"torch_dtype": "bfloat16"}, {}, "float16"),  # the top level wins over text_config
    ({}, {"torch_dtype": "bfloat16"}, {"torch_dtype": "float16"}, "bfloat16"),  # then text_config
    ({}, {}, {"torch_dtype": "float16"}, "float16"),  # then vision_config
    ({"torch_dtype": 16}, {}, {}, None),  # not a dtype name: none stated
    ({"torch_dtype": "x" * 10000}, {}, {}, None),
])
def test_the_checkpoint_dtype_is_read_in_vllms_order(top, text, vision, expected):
    """vLLM 0.33.0 vllm/transformers_utils/model_arch_config_convertor.py get_torch_dtype: the root config's dtype,
    then get_text_config()'s, then vision_config's."""
    import copy
    from scorer.architecture import normalize
    raw = copy.deepcopy(LLAVA)
    raw.update(top)
    raw["text_config"].update(text)
    raw["vision_config"].update(vision)
    assert normalize(raw).dtype == expected


def _predict(capsys, source, *extra) -> dict:
    assert main(["predict", str(source), "--isl", "1000", "--osl", "100", "--concurrency", "4", "--format", "json",
                 *extra]) == 0
    return json.loads(capsys.readouterr().out)


def test_kv_flags_say_what_auto_would_not_do(fp16_folder, capsys):
    """--kv-cache-dtype auto caches KV in the model's dtype. vLLM 0.33.0 CacheDType has float16, bfloat16, fp8 (no
    float32); SGLang 0.5.23's kv_cache_dtype choices have bf16/bfloat16, fp8_e4m3, nvfp4 (no float16)."""
    out = _predict(capsys, fp16_folder, "--precision", "bf16")
    assert out["kv_dtype"] == "bf16"  # the model runs in bf16 (--dtype bfloat16): auto caches bf16
    assert "--kv-cache-dtype" not in out["launch"]["argv"]
    out = _predict(capsys, fp16_folder, "--kv-dtype", "bf16")  # an fp16 model, a bf16 cache: the flag says so
    argv = out["launch"]["argv"]
    assert argv[argv.index("--kv-cache-dtype") + 1] == "bfloat16"
    # a KV dtype the engine's CLI has no value for is not predicted: exit 2, one line, what it launches instead
    _refused(capsys, [str(fp16_folder), "--kv-dtype", "fp32"],
             "vLLM 0.33.0 has no --kv-cache-dtype value for a KV cache in fp32; it launches KV at fp16, fp8, bf16")
    _refused(capsys, [str(fp16_folder), "--framework", "sglang", "--precision", "bf16", "--kv-dtype", "fp16"],
             "SGLang 0.5.23 has no --kv-cache-dtype value for a KV cache in fp16")
    out = _predict(capsys, fp16_folder, "--framework", "sglang", "--kv-dtype", "fp16")  # the model's own: auto
    assert out["kv_dtype"] == "fp16" and "--kv-cache-dtype" not in out["launch"]["argv"]


def _refused(capsys, argv, needle):
    assert main(["predict", *argv, "--isl", "100", "--osl", "10", "--concurrency", "4"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("deploysheet: error:") and needle in err, err


def test_nvfp4_kv_only_where_the_engine_reads_it(capsys):
    """vLLM 0.33.0 v1/attention/backends/flashinfer.py: NVFP4 KV on SM100 (TRT-LLM attention) or SM80/90/120 (FA2,
    refusing head size 64 and sinks); config/vllm.py refuses nvfp4 with MLA (nvfp4_ds_mla: sparse MLA, SM100 only).
    SGLang 0.5.23 arg_groups/kv_cache_hook.py: SM100/SM120 only, CUDA only."""
    out = _predict(capsys, "example:qwen3-4b", "--kv-dtype", "nvfp4")  # head_dim 128, no sinks, H100 (9.0): FA2
    argv = out["launch"]["argv"]
    assert argv[argv.index("--kv-cache-dtype") + 1] == "nvfp4"
    _refused(capsys, ["example:gpt-oss-20b", "--kv-dtype", "nvfp4"], "head size 64 on compute capability 9.0")
    out = _predict(capsys, "example:gpt-oss-20b", "--kv-dtype", "nvfp4", "--gpu", "B200")  # SM100: TRT-LLM attention
    assert out["kv_dtype"] == "nvfp4"
    _refused(capsys, ["example:qwen3-4b", "--kv-dtype", "nvfp4", "--gpu", "MI300X"], "FlashInfer backend")
    _refused(capsys, ["example:qwen3-4b", "--kv-dtype", "nvfp4", "--framework", "sglang"],
             "needs Blackwell SM100 or SM120 (arg_groups/kv_cache_hook.py); it launches KV at bf16, fp8")
    assert _predict(capsys, "example:qwen3-4b", "--kv-dtype", "nvfp4", "--framework", "sglang", "--gpu",
                    "B200")["kv_dtype"] == "nvfp4"
    # the sheet refuses the same, for any GPU it lists
    assert main(["score", "example:qwen3-4b", "--kv-dtype", "nvfp4", "--gpu", "B200", "--gpu", "MI300X"]) == 2
    assert "FlashInfer backend" in capsys.readouterr().err


def test_vllm_expert_parallel_below_tp_x_dp_is_refused(tmp_path, capsys):
    """vLLM 0.33.0 fused_moe/config.py FusedMoEParallelConfig.make: with --enable-expert-parallel, ep_size = TP x DP;
    any other EP has no flag, so predict refuses it (SGLang's --ep-size takes it)."""
    cfg = json.loads((data_dir() / "examples" / "mixtral-8x7b" / "config.json").read_text())
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "config.json").write_text(json.dumps(cfg))
    _refused(capsys, [str(tmp_path / "m"), "--tp", "8", "--ep", "2"], "vLLM 0.33.0 has no flag for EP 2")
    _refused(capsys, [str(tmp_path / "m"), "--tp", "4", "--dp", "2", "--ep", "4"], "run --ep 8 or --ep 1")
    out = _predict(capsys, tmp_path / "m", "--tp", "8", "--ep", "2", "--framework", "sglang")
    assert out["launch"]["argv"][out["launch"]["argv"].index("--ep-size") + 1] == "2"
    assert "--enable-expert-parallel" in _predict(capsys, tmp_path / "m", "--tp", "4", "--dp", "2", "--ep",
                                                  "8")["launch"]["argv"]
    assert not _predict(capsys, tmp_path / "m", "--tp", "8", "--ep", "8")["launch"]["notes"]


def test_a_folder_named_like_a_user_home_is_a_folder(tmp_path, monkeypatch, capsys):
    (tmp_path / "~tilde").mkdir()
    (tmp_path / "~tilde" / "config.json").write_text((data_dir() / "examples" / "qwen3-4b" / "config.json").read_text())
    monkeypatch.chdir(tmp_path)
    out = _predict(capsys, "~tilde")
    assert out["launch"]["argv"][2] == "MODEL_REPO_OR_FOLDER"  # a shell would expand ~tilde: not put on the line
    assert main(["score", "~nosuchuser-deploysheet/config.json"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no such file or folder" in err


def test_a_relative_folder_keeps_its_dot_slash(tmp_path, monkeypatch, capsys):
    (tmp_path / "org" / "model").mkdir(parents=True)
    (tmp_path / "org" / "model" / "config.json").write_text(
        (data_dir() / "examples" / "qwen3-4b" / "config.json").read_text())
    monkeypatch.chdir(tmp_path)
    assert _predict(capsys, "./org/model")["launch"]["argv"][2] == "./org/model"  # never read as a Hub repo id


def test_a_rejection_inside_a_sub_config_names_its_key(tmp_path, capsys):
    import copy
    raw = copy.deepcopy(LLAVA)
    raw["text_config"]["torch_dtype"] = ["float16"]
    (tmp_path / "config.json").write_text(json.dumps(raw))
    code = main(["score", str(tmp_path / "config.json")])
    err = capsys.readouterr().err
    if code == 0:
        pytest.skip("this transformers version accepts a list dtype")
    assert code == 2 and "text_config.torch_dtype" in err and err.count("\n") == 1


def test_score_refuses_a_gpu_listed_twice(capsys):
    assert main(["score", "example:qwen3-4b", "--gpu", "H200", "--gpu", "h200-sxm"]) == 2
    assert "GPU listed twice" in capsys.readouterr().err
