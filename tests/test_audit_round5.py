"""Audit round 5: predict states the KV occupancy its fit counts where that occupancy decides the fit."""

from __future__ import annotations

import json
import re

from scorer.cli import main


def _notes(capsys, *argv) -> tuple[dict, list[str]]:
    assert main(["predict", "example:llama-3.1-8b", "--format", "json", *argv]) == 0
    out = json.loads(capsys.readouterr().out)
    return out, out["notes"]


def test_the_mean_occupancy_is_stated_where_it_decides_the_fit(capsys):
    # 8,000 in / 8,000 out: the mean occupancy is 8,000 + 8,000/2 = 12,000 tokens, the full context 16,000
    out, notes = _notes(capsys, "--isl", "8000", "--osl", "8000", "--concurrency", "8")
    assert not any("mean occupancy" in n for n in notes)  # 8 fit either way
    m = out["max_concurrency"]
    out, notes = _notes(capsys, "--isl", "8000", "--osl", "8000", "--concurrency", str(m))
    note = next(n for n in notes if "mean occupancy" in n)
    assert "isl + osl/2 = 12,000 tokens" in note and "isl + osl = 16,000 tokens" in note
    full = int(re.search(r"only ([\d,]+) fit at once", note).group(1).replace(",", ""))
    # the same KV budget B over sequences of k bytes per token: m = floor(B / 12,000k), full = floor(B / 16,000k),
    # so full <= 12,000/16,000 (m + 1)
    assert 1 <= full < m and full <= 0.75 * (m + 1)


# ---------------------------------------------------------------- the engines' own --kv-cache-dtype auto
from scorer.architecture import normalize  # noqa: E402
from scorer.hardware import get_gpu  # noqa: E402
from scorer.kvcache import default_kv_dtype  # noqa: E402
from scorer.resources import data_dir  # noqa: E402

LLAMA = json.loads((data_dir() / "examples" / "llama-3.1-8b" / "config.json").read_text())
MODELOPT_FP8 = {"quant_method": "modelopt", "quant_algo": "FP8", "kv_cache_quant_algo": "FP8",
                "exclude_modules": ["lm_head"]}
CT_FP8_KV = {"quant_method": "compressed-tensors", "format": "float-quantized",
             "config_groups": {"group_0": {"targets": ["Linear"],
                                           "weights": {"num_bits": 8, "type": "float", "strategy": "channel",
                                                       "symmetric": True, "dynamic": False}}},
             "ignore": ["lm_head"],
             "kv_cache_scheme": {"num_bits": 8, "type": "float", "strategy": "tensor", "dynamic": False,
                                 "symmetric": True}}
HF_FP8_BLOCK = {"quant_method": "fp8", "activation_scheme": "dynamic", "weight_block_size": [128, 128]}


def _auto(framework, quant, precision, gpu="H100-SXM", **extra):
    arch = normalize(dict(LLAMA, quantization_config=quant, **extra) if quant else dict(LLAMA, **extra))
    return default_kv_dtype(framework, precision, "bf16", arch, get_gpu(gpu))


def test_a_modelopt_checkpoint_caches_kv_at_its_own_algorithm_in_vllm_and_sglang():
    """vLLM 0.33.0 utils/torch_utils.py resolve_kv_cache_dtype_string (auto -> the ModelOpt checkpoint's
    kv_cache_quant_algo, FP8 -> fp8_e4m3); SGLang 0.5.23 mem_cache/kv_cache_dtype.py configure_kv_cache_dtype
    (auto -> float8_e4m3fn when quant_config.kv_cache_quant_algo is FP8)."""
    for fw in ("vllm", "sglang", "trtllm"):
        kv, why = _auto(fw, MODELOPT_FP8, "fp8")
        assert kv == "fp8", (fw, why)
    assert "resolve_kv_cache_dtype_string" in _auto("vllm", MODELOPT_FP8, "fp8")[1]
    no_kv = {k: v for k, v in MODELOPT_FP8.items() if k != "kv_cache_quant_algo"}
    for fw in ("vllm", "sglang", "trtllm"):
        assert _auto(fw, no_kv, "fp8")[0] == "bf16", fw


def test_other_methods_differ_per_engine():
    # compressed-tensors kv_cache_scheme: vLLM's attention layer takes fp8 (model_executor/layers/attention/
    # attention.py); SGLang's configure_kv_cache_dtype reads only kv_cache_quant_algo
    assert _auto("vllm", CT_FP8_KV, "fp8_channel")[0] == "fp8"
    assert _auto("sglang", CT_FP8_KV, "fp8_channel")[0] == "bf16"
    # an HF fp8 block checkpoint names no KV algorithm: the model's dtype everywhere, TensorRT-LLM included
    for fw in ("vllm", "sglang", "trtllm"):
        assert _auto(fw, HF_FP8_BLOCK, "fp8_block")[0] == "bf16", fw
    # ... unless its config carries kv_cache_quant_algo, which SGLang's Fp8Config reads (layers/quantization/fp8.py)
    assert _auto("sglang", dict(HF_FP8_BLOCK, kv_cache_quant_algo="FP8"), "fp8_block")[0] == "fp8"
    assert _auto("vllm", dict(HF_FP8_BLOCK, kv_cache_quant_algo="FP8"), "fp8_block")[0] == "bf16"
    # FP8 weights a bf16 checkpoint does not hold: vLLM/SGLang quantize online (auto = bf16); TensorRT-LLM needs a
    # ModelOpt export, assumed with FP8 KV
    assert _auto("vllm", None, "fp8")[0] == "bf16" and _auto("trtllm", None, "fp8")[0] == "fp8"
    assert "assumed" in _auto("trtllm", None, "fp8")[1]


def test_sglang_deepseek_sparse_attention_defaults_by_gpu():
    """SGLang 0.5.23 arg_groups/overrides.py _dsa_kv_cache_dtype_default: fp8_e4m3 on SM100 and newer, bfloat16
    below, for is_deepseek_dsa architectures (configs/model_config.py) with index_topk."""
    base = {"model_type": "deepseek_v32", "architectures": ["DeepseekV32ForCausalLM"], "hidden_size": 1024,
            "num_hidden_layers": 4, "num_attention_heads": 8, "num_key_value_heads": 8, "vocab_size": 32000,
            "intermediate_size": 4096, "moe_intermediate_size": 512, "n_routed_experts": 8,
            "num_experts_per_tok": 2, "n_shared_experts": 1, "first_k_dense_replace": 1, "kv_lora_rank": 128,
            "q_lora_rank": 256, "qk_rope_head_dim": 32, "qk_nope_head_dim": 64, "v_head_dim": 64,
            "index_n_heads": 16, "index_head_dim": 64, "index_topk": 256, "torch_dtype": "bfloat16"}
    arch = normalize(base)
    assert default_kv_dtype("sglang", "bf16", "bf16", arch, get_gpu("B200"))[0] == "fp8"
    assert default_kv_dtype("sglang", "bf16", "bf16", arch, get_gpu("H100-SXM"))[0] == "bf16"
    assert default_kv_dtype("vllm", "bf16", "bf16", arch, get_gpu("B200"))[0] == "bf16"  # DeepseekV32: auto
    glm = normalize(dict(base, architectures=["GlmMoeDsaForCausalLM"]))
    # vLLM 0.33.0 model_executor/models/config.py GlmMoeDsaForCausalLM: fp8_e4m3 on SM10x only
    assert default_kv_dtype("vllm", "bf16", "bf16", glm, get_gpu("B200"))[0] == "fp8"
    assert default_kv_dtype("vllm", "bf16", "bf16", glm, get_gpu("H100-SXM"))[0] == "bf16"


def test_predict_launches_the_kv_dtype_it_predicts(tmp_path, capsys):
    """A ModelOpt FP8-KV checkpoint asked for a bf16 cache: auto would cache fp8, so the command says bfloat16."""
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "config.json").write_text(json.dumps(dict(LLAMA, quantization_config=MODELOPT_FP8)))
    out, _ = _notes_of(capsys, str(tmp_path / "m"))
    assert out["kv_dtype"] == "fp8" and "--kv-cache-dtype" not in out["launch"]["argv"]
    out, _ = _notes_of(capsys, str(tmp_path / "m"), "--kv-dtype", "bf16")
    argv = out["launch"]["argv"]
    assert argv[argv.index("--kv-cache-dtype") + 1] == "bfloat16"


def _notes_of(capsys, source, *argv):
    assert main(["predict", source, "--format", "json", "--isl", "1000", "--osl", "100", "--concurrency", "4",
                 *argv]) == 0
    out = json.loads(capsys.readouterr().out)
    return out, out["notes"]


# ---------------------------------------------------------------- a checkpoint's own KV must launch too (breaker 6)
MODELOPT_NVFP4_KV = {"quant_method": "modelopt", "quant_algo": "FP8", "kv_cache_quant_algo": "NVFP4",
                     "exclude_modules": ["lm_head"]}
DSA = {"model_type": "deepseek_v32", "architectures": ["DeepseekV32ForCausalLM"], "hidden_size": 1024,
       "num_hidden_layers": 4, "num_attention_heads": 8, "num_key_value_heads": 8, "vocab_size": 32000,
       "intermediate_size": 4096, "moe_intermediate_size": 512, "n_routed_experts": 8, "num_experts_per_tok": 2,
       "n_shared_experts": 1, "first_k_dense_replace": 1, "kv_lora_rank": 128, "q_lora_rank": 256,
       "qk_rope_head_dim": 32, "qk_nope_head_dim": 64, "v_head_dim": 64, "index_n_heads": 16, "index_head_dim": 64,
       "index_topk": 256, "torch_dtype": "bfloat16",
       "quantization_config": {"quant_method": "modelopt", "quant_algo": "NVFP4", "kv_cache_quant_algo": "NVFP4"}}


def _write(tmp_path, name, cfg) -> str:
    (tmp_path / name).mkdir()
    (tmp_path / name / "config.json").write_text(json.dumps(cfg))
    return str(tmp_path / name)


def test_a_checkpoints_nvfp4_kv_is_refused_where_the_engine_refuses_it(tmp_path, capsys):
    """vLLM 0.33.0 resolves auto to the checkpoint's kv_cache_quant_algo (engine/arg_utils.py
    resolve_kv_cache_dtype_string) before it validates the cache: NVFP4 only through FlashInfer, so not on AMD."""
    src = _write(tmp_path, "m", dict(LLAMA, quantization_config=MODELOPT_NVFP4_KV))
    for cmd in (["predict", src, "--isl", "1000", "--osl", "100", "--concurrency", "4"], ["score", src]):
        assert main([*cmd, "--gpu", "MI300X"]) == 2
        err = capsys.readouterr().err
        assert "FlashInfer" in err and "MI300X" in err and "checkpoint's own NVFP4" in err
        assert "launches KV at fp8" in err and "nvfp4" not in err.split("launches KV at")[1]
    out, _ = _notes_of(capsys, src, "--gpu", "B200")  # SM100 reads it: auto, no flag
    assert out["kv_dtype"] == "nvfp4" and "--kv-cache-dtype" not in out["launch"]["argv"]


def test_sparse_mla_nvfp4_kv_is_named_by_its_own_layout(tmp_path, capsys):
    """auto resolves to the plain "nvfp4", which config/vllm.py validate_nvfp4_kv_cache_with_mla refuses with MLA;
    the sparse MLA layout must be asked for by name (nvfp4_ds_mla, flashmla_sparse.py, SM100 only)."""
    src = _write(tmp_path, "d", DSA)
    out, _ = _notes_of(capsys, src, "--gpu", "B200")
    argv = out["launch"]["argv"]
    assert out["kv_dtype"] == "nvfp4" and argv[argv.index("--kv-cache-dtype") + 1] == "nvfp4_ds_mla"
    assert main(["predict", src, "--gpu", "H100-SXM", "--isl", "1000", "--osl", "100", "--concurrency", "4"]) == 2
    assert "only on SM100" in capsys.readouterr().err


def test_one_sequence_that_outgrows_the_kv_cache_does_not_fit(capsys):
    """8B bf16 on one L4 (24 GB): vLLM's 0.9 x 24 GB = 20.1 GiB less 15.0 GiB of weights leaves at most 5.1 GiB of
    KV at 128 KiB per token (32 layers x 8 KV heads x 128 x 2 x 2 bytes), under 42k tokens; a 1,024 + 60,000 token
    request fits by its mean (31k) but not at its end (61k); 1,024 + 20,000 (21k at its end) fits."""
    out, notes = _notes(capsys, "--gpu", "L4", "--isl", "1024", "--osl", "60000", "--concurrency", "1")
    assert out["fits"] is False and out["ttft_ms"] is None
    assert any(n.startswith("does not fit: the KV cache of one sequence") and "kv_cache_planning.py" in n
               for n in notes)
    out, _ = _notes(capsys, "--gpu", "L4", "--isl", "1024", "--osl", "20000", "--concurrency", "1")
    assert out["fits"] is True


# ---------------------------------------------------------------- validate and calibrate state the KV dtype
HEADER = ("id,model_id,config,gpu,num_gpus,tp,pp,ep,attention_dp,weight_precision,kv_precision,framework,"
          "framework_version,isl,osl,concurrency,metric,value,unit,source,notes,harness\n")


def test_validate_and_calibrate_state_each_rows_kv_dtype_and_refuse_trtllm_off_nvidia(tmp_path, capsys):
    """A row that leaves kv_precision empty is predicted at the engine default predict states (here vLLM reads the
    ModelOpt checkpoint's kv_cache_quant_algo FP8); a stated one at its own; TensorRT-LLM on an AMD GPU is skipped
    for the reason predict exits 2 with."""
    corpus = tmp_path / "corpus"
    for name, cfg in (("llama", LLAMA), ("llama_fp8", dict(LLAMA, quantization_config=MODELOPT_FP8))):
        (corpus / name).mkdir(parents=True)
        (corpus / name / "config.json").write_text(json.dumps(cfg))
    rows = [("a", "llama_fp8", "H100-SXM", "fp8", "", "vllm", "tpot_ms", "10"),
            ("b", "llama_fp8", "H100-SXM", "fp8", "", "vllm", "ttft_ms", "90"),
            ("c", "llama", "H100-SXM", "bf16", "bf16", "trtllm", "tpot_ms", "12"),
            ("d", "llama", "H100-SXM", "bf16", "bf16", "trtllm", "ttft_ms", "80"),
            ("e", "llama", "MI300X", "bf16", "", "trtllm", "tpot_ms", "12")]
    csv = tmp_path / "m.csv"
    csv.write_text(HEADER + "".join(f"{i},m,{c},{g},1,1,1,1,1,{w},{k},{f},x,1000,200,8,{m},{v},ms,s,,\n"
                                    for i, c, g, w, k, f, m, v in rows))
    assert main(["validate", str(csv), "--corpus", str(corpus), "--format", "json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    kv = rep["kv_dtypes"]
    assert kv.pop("trtllm bf16: the row's kv_precision") == 2
    (note, n), = kv.items()
    assert n == 2 and note.startswith("vllm fp8: ") and "ModelOpt" in note
    assert rep["skipped"] == [{"id": "e", "reason": "TensorRT-LLM runs on NVIDIA GPUs only; MI300X is AMD"}]
    assert main(["validate", str(csv), "--corpus", str(corpus)]) == 0
    assert "- 2 × trtllm bf16: the row's kv\\_precision" in capsys.readouterr().out
    out = tmp_path / "cal.json"
    assert main(["calibrate", str(csv), "--corpus", str(corpus), "-o", str(out), "--no-cross-validate",
                 "--max-iterations", "2"]) == 0
    assert "2 rows leave kv_precision empty" in capsys.readouterr().err
    assert json.loads(out.read_text())["validation"]["kv_dtypes"] == rep["kv_dtypes"] | {
        "trtllm bf16: the row's kv_precision": 2}


def test_each_scored_gpu_runs_its_own_engine_default_kv_whatever_the_gpu_order(tmp_path, capsys):
    """SGLang 0.5.23 caches DeepSeek sparse attention in fp8 from SM100 on and bf16 below
    (arg_groups/overrides.py _dsa_kv_cache_dtype_default): a sheet of H200 and B200 runs each at its own, so B200's
    regimes are those of a B200-only sheet, in either order; compare likewise."""
    cfg = {k: v for k, v in DSA.items() if k != "quantization_config"}
    src = _write(tmp_path, "d", cfg)

    def sheet(*gpus):
        argv = ["score", src, "--framework", "sglang", "--format", "json"]
        for g in gpus:
            argv += ["--gpu", g]
        assert main(argv) == 0
        return json.loads(capsys.readouterr().out)

    alone = {g: sheet(g) for g in ("B200", "H200-SXM")}
    assert alone["B200"]["options"]["kv_dtype"] == "fp8" and alone["H200-SXM"]["options"]["kv_dtype"] == "bf16"
    for order in (("H200-SXM", "B200"), ("B200", "H200-SXM")):
        both = sheet(*order)
        assert both["options"]["kv_dtype_by_gpu"] == {"B200": "fp8", "H200-SXM": "bf16"}
        other = order[1]
        assert f"{other} takes {alone[other]['options']['kv_dtype']}:" in both["options"]["kv_dtype_source"]
        for g in order:
            assert both["regimes"][g] == alone[g]["regimes"][g]

    def deployments(*gpus):
        other = tmp_path / f"e{len(gpus)}{gpus[0]}"
        argv = ["compare", src, str(other) if other.exists() else _write(tmp_path, other.name, cfg), "--framework",
                "sglang",
                "--isl", "1000", "--osl", "200", "--qps", "5", "--format", "json"]
        for g in gpus:
            argv += ["--gpu", g]
        assert main(argv) == 0
        col = json.loads(capsys.readouterr().out)["models"][0]
        return col, {d["gpu"]: d for d in col["deployments"]}

    col, both = deployments("H200-SXM", "B200")
    assert col["kv_dtype_by_gpu"] == {"H200-SXM": "bf16", "B200": "fp8"}
    by = col["kv_bytes_per_token_by_gpu"]  # fp8 halves the bf16 latent and rope cache (the indexer's keys are fp8
    assert by["H200-SXM"] == col["kv_bytes_per_token"] and by["B200"] < by["H200-SXM"]  # in both: not halved)
    b200_col, _ = deployments("B200")
    assert b200_col["kv_bytes_per_token"] == by["B200"]
    assert both["B200"] == deployments("B200")[1]["B200"]
