"""Rule Q10: an engine reads the checkpoint's quantization_config.quant_method and refuses one its version has no
loader for. Read from the engines' wheels (pip download vllm==0.33.0 / sglang==0.5.23 --no-deps):

* vLLM 0.33.0 vllm/config/model.py ModelConfig._verify_quantization raises "Unknown quantization method" for a
  quant_method outside vllm/model_executor/layers/quantization/__init__.py QuantizationMethods; bitsandbytes is not
  among them (the wheel has no bitsandbytes loader). fbgemm_fp8 and fp_quant are in DEPRECATED_QUANTIZATION_METHODS:
  they raise unless --allow-deprecated-quantization is passed.
* SGLang 0.5.23 has a bitsandbytes loader, but sglang/srt/model_loader/loader.py BitsAndBytesModelLoader raises
  "Prequant BitsAndBytes models with TP is not supported" at TP > 1; fbgemm_fp8 occurs nowhere in sglang/srt.

The configs below are written here (a Llama-3.1-8B shape with the quantization_config each exporter writes:
transformers' BitsAndBytesConfig.to_dict for bnb NF4, Meta's FP8 release for fbgemm_fp8, HqqConfig for HQQ).
The opt-in test at the end re-reads the two wheels when DEPLOYSHEET_VLLM_WHEEL / DEPLOYSHEET_SGLANG_WHEEL name them.
"""

from __future__ import annotations

import json
import os
import re
import zipfile
from pathlib import Path

import pytest

from scorer.cli import main

LLAMA_8B = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096,
            "intermediate_size": 14336, "num_attention_heads": 32, "num_key_value_heads": 8, "num_hidden_layers": 32,
            "vocab_size": 128256, "max_position_embeddings": 131072, "rope_theta": 500000.0,
            "torch_dtype": "bfloat16", "tie_word_embeddings": False, "rms_norm_eps": 1e-5}
BNB_NF4 = {"_load_in_4bit": True, "_load_in_8bit": False, "bnb_4bit_compute_dtype": "bfloat16",
           "bnb_4bit_quant_storage": "uint8", "bnb_4bit_quant_type": "nf4", "bnb_4bit_use_double_quant": True,
           "llm_int8_enable_fp32_cpu_offload": False, "llm_int8_has_fp16_weight": False,
           "llm_int8_skip_modules": None, "llm_int8_threshold": 6.0, "load_in_4bit": True, "load_in_8bit": False,
           "quant_method": "bitsandbytes"}
FBGEMM = {"activation_scale_ub": 1200.0, "modules_to_not_convert": ["lm_head"], "quant_method": "fbgemm_fp8"}
HQQ = {"quant_method": "hqq", "quant_config": {"weight_quant_params": {"nbits": 4, "group_size": 64}},
       "skip_modules": ["lm_head"]}


def _sheet(tmp_path: Path, qc: dict, capsys, *extra: str) -> dict:
    d = tmp_path / "m"
    d.mkdir(exist_ok=True)
    (d / "config.json").write_text(json.dumps({**LLAMA_8B, "quantization_config": qc}))
    assert main(["score", str(d), "--format", "json", "--no-recommendations", *extra]) == 0
    return json.loads(capsys.readouterr().out)


def _md(tmp_path: Path, *extra: str) -> str:
    out = tmp_path / "sheet.md"
    assert main(["score", str(tmp_path / "m"), "--no-recommendations", "-o", str(out), *extra]) == 0
    return out.read_text()


def _q10(doc: dict) -> list[dict]:
    return [f for f in doc["findings"] if f["rule"] == "Q10"]


def test_bitsandbytes_checkpoint_runs_as_stored_only_on_sglang_at_tp1(tmp_path, capsys):
    doc = _sheet(tmp_path, BNB_NF4, capsys)
    assert doc["quantization"]["checkpoint_tps"] == {"vllm": [], "sglang": [1]}  # trtllm: its loaders not read
    assert set(doc["quantization"]["checkpoint_refused_by"]) == {"vllm"}
    (f,) = _q10(doc)
    assert f["severity"] == "HARD" and "vllm 0.33.0 has no loader" in f["message"]
    assert "sglang 0.5.23 loads it at TP 1 only" in f["message"]
    # every vLLM launch command says it fails on the checkpoint as stored
    launches = [r["launch"] for regs in doc["regimes"].values() for r in regs if r.get("launch")]
    assert launches and all(any("fails on the checkpoint as stored" in n for n in la["notes"]) for la in launches)
    head = _md(tmp_path).splitlines()[2]
    assert "not the checkpoint's nf4 (bitsandbytes) storage: rule Q9" in head
    assert "vllm 0.33.0 has no loader for quant\\_method 'bitsandbytes'" in head and "re-exported, fits" in head


def test_sglang_commands_above_tp1_fail_on_a_bitsandbytes_checkpoint(tmp_path, capsys):
    doc = _sheet(tmp_path, BNB_NF4, capsys, "--framework", "sglang")
    assert doc["quantization"]["checkpoint_refused_by"] == {"vllm": doc["quantization"]["checkpoint_refused_by"]
                                                            ["vllm"]}
    seen = set()
    for regs in doc["regimes"].values():
        for r in regs:
            if not r.get("launch") or not r.get("prediction"):
                continue
            tp = r["prediction"]["tp"]
            failing = any("TP 1 only" in n for n in r["launch"]["notes"])
            assert failing == (tp > 1), (tp, r["launch"]["notes"])
            seen.add(tp > 1)
    assert seen == {True, False}  # both cases occur on the default sheet (latency TP8, throughput TP1)
    head = _md(tmp_path, "--framework", "sglang").splitlines()[2]
    assert "has no loader" not in head and "sglang loads the checkpoint as stored at TP 1 only (rule Q10)" in head
    # attention DP: SGLang is launched with --tp-size = TP x DP, so TP 1 x DP 2 is a TP-2 load
    assert main(["predict", str(tmp_path / "m"), "--framework", "sglang", "--tp", "1", "--dp", "2", "--isl", "1024",
                 "--osl", "1024", "--concurrency", "8"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert _opts_value(out["launch"]["argv"], "--tp-size") == "2"
    assert any("TP 1 only, not TP 2" in n for n in out["notes"]) and any("TP 1 only, not TP 2" in n
                                                                         for n in out["launch"]["notes"])
    assert main(["predict", str(tmp_path / "m"), "--framework", "sglang", "--tp", "1", "--isl", "1024",
                 "--osl", "1024", "--concurrency", "8"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert not any("rule Q10" in n for n in out["notes"] + out["launch"]["notes"])


def _opts_value(argv: list[str], flag: str) -> str | None:
    return argv[argv.index(flag) + 1] if flag in argv else None


def test_quant_method_is_read_as_the_engines_read_it(tmp_path, capsys):
    doc = _sheet(tmp_path, {**HQQ, "quant_method": " HQQ "}, capsys)  # spaces and case: still hqq
    assert doc["quantization"]["checkpoint_tps"] == {"vllm": [], "sglang": []}
    # vLLM refuses any quant_method outside its QuantizationMethods; SGLang's overrides are not modelled, so only
    # the methods its wheel does not name at all are claimed for it
    doc = _sheet(tmp_path, {"quant_method": "foobar", "bits": 4}, capsys)
    assert set(doc["quantization"]["checkpoint_refused_by"]) == {"vllm"}
    doc = _sheet(tmp_path, {"quant_method": "x" * 10_000}, capsys)
    (f,) = _q10(doc)
    assert len(f["message"]) < 400
    assert len(_md(tmp_path).splitlines()[2]) < 1000  # the header cuts the method too


def test_online_quantization_flag_is_not_put_on_an_already_quantized_checkpoint(tmp_path, capsys):
    doc = _sheet(tmp_path, BNB_NF4, capsys, "--precision", "fp8", "--framework", "sglang")
    launches = [r["launch"] for regs in doc["regimes"].values() for r in regs if r.get("launch")]
    assert launches and all("--quantization" not in la["argv"] for la in launches)
    assert all(any("already quantized" in n for n in la["notes"]) for la in launches)
    doc = _sheet(tmp_path, FBGEMM, capsys, "--precision", "fp8")
    launches = [r["launch"] for regs in doc["regimes"].values() for r in regs if r.get("launch")]
    assert launches and all("--quantization" not in la["argv"] for la in launches)
    d = tmp_path / "plain"
    d.mkdir()
    (d / "config.json").write_text(json.dumps(LLAMA_8B))  # a 16-bit checkpoint: vLLM quantizes it at load time
    assert main(["score", str(d), "--precision", "fp8", "--format", "json", "--no-recommendations"]) == 0
    plain = json.loads(capsys.readouterr().out)
    launches = [r["launch"] for regs in plain["regimes"].values() for r in regs if r.get("launch")]
    assert launches and all(_opts_value(la["argv"], "--quantization") == "fp8" for la in launches)


def test_fbgemm_fp8_needs_the_deprecation_flag_on_vllm_and_does_not_load_on_sglang(tmp_path, capsys):
    doc = _sheet(tmp_path, FBGEMM, capsys)
    launches = [r["launch"] for regs in doc["regimes"].values() for r in regs if r.get("launch")]
    assert launches and all("--allow-deprecated-quantization" in la["argv"] for la in launches)
    assert all(not any("fails on the checkpoint" in n for n in la["notes"]) for la in launches)
    sev = {f["severity"]: f["message"] for f in _q10(doc)}
    assert "sglang 0.5.23 has no loader" in sev["HARD"] and "--allow-deprecated-quantization" in sev["INFO"]
    assert doc["quantization"]["checkpoint_tps"]["sglang"] == []
    # fp8 per channel runs on the FP8 W8A8 kernels (rule Q1: K/TP and N/TP multiples of 16): 4,096 and 14,336 split 32
    # ways are 128 and 448, and a KV shard is at least one 128-wide head, so every TP of the matrix runs as stored
    assert doc["quantization"]["checkpoint_tps"]["vllm"] == [1, 2, 4, 8, 16, 32]
    doc = _sheet(tmp_path, FBGEMM, capsys, "--framework", "sglang")
    launches = [r["launch"] for regs in doc["regimes"].values() for r in regs if r.get("launch")]
    assert launches and all("--allow-deprecated-quantization" not in la["argv"] for la in launches)


def test_hqq_loads_in_neither_engine(tmp_path, capsys):
    doc = _sheet(tmp_path, HQQ, capsys)
    assert doc["quantization"]["checkpoint_tps"] == {"vllm": [], "sglang": []}
    (f,) = _q10(doc)
    assert "vllm 0.33.0, sglang 0.5.23 have no loader" in f["message"]


def test_formats_both_engines_load_get_no_q10(tmp_path, capsys):
    for qc in ({"quant_method": "fp8", "activation_scheme": "dynamic", "weight_block_size": [128, 128]},
               {"quant_method": "gptq", "bits": 4, "group_size": 128, "desc_act": False, "sym": True},
               {"quant_method": "awq", "bits": 4, "group_size": 128, "zero_point": True, "version": "gemm"}):
        doc = _sheet(tmp_path, qc, capsys)
        assert not _q10(doc) and not doc["quantization"]["checkpoint_refused_by"], qc


def _wheel_text(env: str, member: str) -> str:
    path = os.environ.get(env)
    if not path:
        pytest.skip(f"set {env} to the engine's wheel (pip download ... --no-deps) to re-read it")
    with zipfile.ZipFile(path) as z:
        return z.read(member).decode()


def test_vllm_wheel_has_no_refused_method():  # opt-in: DEPLOYSHEET_VLLM_WHEEL=.../vllm-0.33.0-*.whl
    src = _wheel_text("DEPLOYSHEET_VLLM_WHEEL", "vllm/model_executor/layers/quantization/__init__.py")
    rules = json.loads((Path(__file__).resolve().parent.parent / "data" / "engines.json").read_text())
    cm = rules["engines"]["vllm"]["checkpoint_methods"]
    listed = set(re.findall(r'^\s+"([a-z0-9_-]+)",', src.split("QuantizationMethods = Literal[")[1].split("]")[0],
                            re.M))
    assert listed and not listed & set(cm["refuses"])
    assert set(cm["loads"]) == listed | {"auto-round"}  # auto-round: mapped to inc by its override
    inc = _wheel_text("DEPLOYSHEET_VLLM_WHEEL", "vllm/model_executor/layers/quantization/inc/inc.py")
    assert '== "auto-round"' in inc
    deprecated = set(re.findall(r'"([a-z0-9_-]+)"', src.split("DEPRECATED_QUANTIZATION_METHODS = [")[1].split("]")[0]))
    assert deprecated == set(cm["deprecated"])


def test_sglang_wheel_has_no_refused_method():  # opt-in: DEPLOYSHEET_SGLANG_WHEEL=.../sglang-0.5.23-*.whl
    src = _wheel_text("DEPLOYSHEET_SGLANG_WHEEL", "sglang/srt/layers/quantization/__init__.py")
    loader = _wheel_text("DEPLOYSHEET_SGLANG_WHEEL", "sglang/srt/model_loader/loader.py")
    rules = json.loads((Path(__file__).resolve().parent.parent / "data" / "engines.json").read_text())
    cm = rules["engines"]["sglang"]["checkpoint_methods"]
    assert '"bitsandbytes": BitsAndBytesConfig' in src
    assert not any(f'"{m}"' in src for m in cm["refuses"])
    assert "Prequant BitsAndBytes models with TP is not supported" in loader and cm["max_tp"] == {"bitsandbytes": 1}


def test_compare_ranks_a_checkpoint_the_framework_cannot_load_after_one_it_can(tmp_path, capsys):
    d = tmp_path / "bnb"
    d.mkdir()
    (d / "config.json").write_text(json.dumps({**LLAMA_8B, "quantization_config": BNB_NF4}))
    # the same shape at 16 bits (example:llama-3.1-8b) costs the same, so only the risk can order them
    assert main(["compare", str(d), "example:llama-3.1-8b", "--label", f"bnb={d}", "--isl", "1024", "--osl", "1024",
                 "--qps", "2", "--format", "json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    col = next(m for m in rep["models"] if m["name"] == "bnb")
    risk = next(r for r in col["risks"] if r["kind"] == "checkpoint_not_loaded")
    assert risk["severity"] == "high" and "bitsandbytes" in risk["text"]
    assert rep["recommendation"]["ranking"][0].startswith("example:llama-3.1-8b"), rep["recommendation"]["ranking"]
    assert main(["compare", str(d), "example:llama-3.1-8b", "--label", f"bnb={d}", "--isl", "1024", "--osl", "1024",
                 "--qps", "2", "--framework", "sglang", "--format", "json"]) == 0
    col = next(m for m in json.loads(capsys.readouterr().out)["models"] if m["name"] == "bnb")
    assert not any(r["kind"] == "checkpoint_not_loaded" for r in col["risks"])  # sglang loads it at TP 1
    cap = next(r for r in col["risks"] if r["kind"] == "checkpoint_tp_cap")
    assert cap["severity"] == "medium" and "TP 1 only" in cap["text"]
