"""Breaker round 7: the KV dtype per GPU in every output, only launchable KV in validate and compare, and KV
sources that name the engine's own setting."""

from __future__ import annotations

import csv
import io
import json

from scorer.cli import main
from scorer.resources import data_dir

LLAMA = json.loads((data_dir() / "examples" / "llama-3.1-8b" / "config.json").read_text())
#: DeepSeek-V3.2-style sparse attention (index_topk): SGLang 0.5.23 caches it in fp8 from SM100 on, bf16 below
#: (arg_groups/overrides.py _dsa_kv_cache_dtype_default, which reads torch's compute capability: 9.x on ROCm gfx9)
DSA = {"model_type": "deepseek_v32", "architectures": ["DeepseekV32ForCausalLM"], "hidden_size": 1024,
       "num_hidden_layers": 4, "num_attention_heads": 8, "num_key_value_heads": 8, "vocab_size": 32000,
       "intermediate_size": 4096, "moe_intermediate_size": 512, "n_routed_experts": 8, "num_experts_per_tok": 2,
       "n_shared_experts": 1, "first_k_dense_replace": 1, "kv_lora_rank": 128, "q_lora_rank": 256,
       "qk_rope_head_dim": 32, "qk_nope_head_dim": 64, "v_head_dim": 64, "index_n_heads": 16, "index_head_dim": 64,
       "index_topk": 256, "torch_dtype": "bfloat16"}
NVFP4_KV = {"quant_method": "modelopt", "quant_algo": "FP8", "kv_cache_quant_algo": "NVFP4"}
INT8_KV = {"quant_method": "modelopt", "quant_algo": "FP8", "kv_cache_quant_algo": "INT8"}
HEADER = ("id,model_id,config,gpu,num_gpus,tp,pp,ep,attention_dp,weight_precision,kv_precision,framework,"
          "framework_version,isl,osl,concurrency,metric,value,unit,source,notes,harness\n")


def _write(tmp_path, name, cfg) -> str:
    (tmp_path / name).mkdir(parents=True)
    (tmp_path / name / "config.json").write_text(json.dumps(cfg))
    return str(tmp_path / name)


def test_every_output_labels_each_gpu_with_its_own_kv_dtype(tmp_path, capsys):
    src = _write(tmp_path, "d", DSA)
    for order in (("H200-SXM", "B200"), ("B200", "H200-SXM")):
        gpus = [a for g in order for a in ("--gpu", g)]
        assert main(["score", src, "--framework", "sglang", "--no-recommendations", *gpus]) == 0
        md = capsys.readouterr().out
        assert "**H200-SXM, bf16 weights, bf16 KV, sglang profile**" in md
        assert "**B200, bf16 weights, fp8 KV, sglang profile**" in md
        assert main(["score", src, "--framework", "sglang", "--format", "html", *gpus]) == 0
        html = capsys.readouterr().out
        assert "<b>H200-SXM</b>, bf16 weights, bf16 KV" in html and "<b>B200</b>, bf16 weights, fp8 KV" in html
        assert main(["score", src, "--framework", "sglang", "--format", "csv", *gpus]) == 0
        rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
        assert {(r["gpu"], r["kv_dtype"]) for r in rows} == {("H200-SXM", "bf16"), ("B200", "fp8")}


def test_compare_marks_a_gpu_that_cannot_launch_the_checkpoints_kv_and_goes_on(tmp_path, capsys):
    """vLLM 0.33.0 reads NVFP4 KV only through FlashInfer (no AMD GPU): MI300X is refused for that model only."""
    src = _write(tmp_path, "nv", dict(LLAMA, quantization_config=NVFP4_KV))
    assert main(["compare", src, "example:qwen3-4b", "--isl", "1024", "--osl", "256", "--qps", "1",
                 "--gpus", "B200,MI300X", "--format", "json"]) == 0
    models = json.loads(capsys.readouterr().out)["models"]
    status = {m["name"]: {d["gpu"]: (d["status"], d["note"] or "") for d in m["deployments"]} for m in models}
    nv = next(v for k, v in status.items() if k != "example:qwen3-4b")
    assert nv["MI300X"][0] == "engine_refuses" and "FlashInfer" in nv["MI300X"][1]
    assert "(--kv-dtype)" not in nv["MI300X"][1] and nv["B200"][0] == "ok"
    assert status["example:qwen3-4b"]["MI300X"][0] == "ok"
    # the framework and the GPUs, not a model, are at fault: no model named
    assert main(["compare", "example:llama-3.1-8b", "example:qwen3-4b", "--isl", "1024", "--osl", "256", "--qps",
                 "1", "--framework", "trtllm", "--gpus", "H100-SXM,MI300X"]) == 2
    assert capsys.readouterr().err.strip() == ("deploysheet: error: TensorRT-LLM runs on NVIDIA GPUs only; "
                                                "MI300X is AMD")


def test_validate_skips_rows_whose_kv_the_engine_cannot_launch(tmp_path, capsys):
    corpus = tmp_path / "corpus"
    _write(corpus, "nv", dict(LLAMA, quantization_config=NVFP4_KV))
    _write(corpus, "llama", LLAMA)
    rows = [("a", "nv", "MI300X", "fp8", "", "vllm"),  # the checkpoint's NVFP4 KV: no FlashInfer on AMD
            ("b", "llama", "H100-SXM", "bf16", "fp16", "sglang"),  # SGLang 0.5.23 has no fp16 --kv-cache-dtype
            ("c", "llama", "H100-SXM", "bf16", "", "sglang")]
    path = tmp_path / "m.csv"
    path.write_text(HEADER + "".join(f"{i},m,{c},{g},1,1,1,1,1,{w},{k},{f},x,1000,200,8,tpot_ms,10,ms,s,,\n"
                                     for i, c, g, w, k, f in rows))
    assert main(["validate", str(path), "--corpus", str(corpus), "--format", "json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    why = {s["id"]: s["reason"] for s in rep["skipped"]}
    assert set(why) == {"a", "b"}
    assert "FlashInfer" in why["a"] and why["a"].endswith("(the row's kv_precision)")
    assert "fp16" in why["b"] and "--kv-dtype" not in why["b"]


def test_kv_sources_name_each_engines_own_setting(tmp_path, capsys):
    def source(src, fw, *more):
        assert main(["predict", src, "--framework", fw, "--isl", "1024", "--osl", "128", "--concurrency", "8",
                     "--format", "json", *more]) == 0
        out = json.loads(capsys.readouterr().out)
        return out["kv_dtype"], out["kv_dtype_source"]

    kv, why = source("example:llama-3.1-8b", "trtllm")
    assert kv == "bf16" and "(assumed)" in why and "KvCacheConfig" in why and "--kv-cache-dtype" not in why
    int8 = _write(tmp_path, "i8", dict(LLAMA, quantization_config=INT8_KV))
    kv, why = source(int8, "trtllm")
    assert kv == "bf16" and "INT8" in why and "estimated" in why and "names no" not in why
    kv, why = source(int8, "vllm")  # vLLM maps only FP8/NVFP4 and falls back to auto (torch_utils.py)
    assert kv == "bf16" and "INT8" in why and "get_kv_cache_quant_algo_string" in why
    kv, why = source(_write(tmp_path, "d", DSA), "sglang", "--gpu", "MI300X", "--tp", "1")
    assert kv == "bf16" and "SM100" not in why and "ROCm" in why
    assert main(["score", "example:llama-3.1-8b", "--kv-dtype", "fp8", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["options"]["kv_dtype_source"] == "--kv-dtype"


def test_score_states_the_nvfp4_kv_caveat_predict_states(capsys):
    assert main(["score", "example:llama-3.1-8b", "--framework", "trtllm", "--gpu", "L4", "--kv-dtype", "nvfp4",
                 "--format", "json"]) == 0
    assumptions = json.loads(capsys.readouterr().out)["assumptions"]
    assert any("FP4 tensor cores" in a and "L4 has 8.9" in a for a in assumptions)


def test_validate_reports_speculative_rows_alone(tmp_path, capsys):
    """Rows that ran MTP are validated in-sample only (never fitted); alone in a CSV they are still reported."""
    _write(tmp_path / "corpus", "dsa", dict(DSA, num_nextn_predict_layers=1))
    path = tmp_path / "m.csv"
    path.write_text(HEADER + "a,m,dsa,B200,1,1,1,1,1,bf16,,sglang,x,1000,200,4,tpot_ms,10,ms,s,"
                             "\"batch 4, MTP speculative decoding (1 next-n layer) ON\",\n")
    assert main(["validate", str(path), "--corpus", str(tmp_path / "corpus"), "--format", "json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["n_rows"] == 1 and rep["skipped"] == [] and rep["metrics"]["tpot_ms"]["n"] == 1
