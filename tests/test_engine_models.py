"""Which implementation vLLM 0.33.0 and SGLang 0.5.23 load an architecture with (rule S6, data/engine_models.json).

Expected statuses are read from the engines' sources by hand (the line is quoted beside each case):
vllm-0.33.0 vllm/model_executor/models/registry.py and sglang-0.5.23 sglang/srt/models/*.py; transformers' side from
its modeling files (``_supports_attention_backend``). ``DEPLOYSHEET_VLLM_WHEEL`` / ``DEPLOYSHEET_SGLANG_WHEEL``
re-derive the whole table from the wheels (``scripts/engine_registry.py``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from scorer.architecture import normalize
from scorer.engine_models import engine_support
from scorer.resources import data_dir
from scorer.score import engine_findings

ROOT = Path(__file__).resolve().parent.parent


def _cfg(config_class: str, arch: str, **kw) -> dict:
    import transformers
    d = getattr(transformers, config_class)(**kw).to_dict()
    d["architectures"] = [arch]
    return json.loads(json.dumps(d, default=str))


def test_native_classes():
    # registry.py _TEXT_GENERATION_MODELS: "LlamaForCausalLM": ("llama", "LlamaForCausalLM");
    # sglang/srt/models/llama.py: EntryClass = [LlamaForCausalLM]
    arch = normalize(json.loads((data_dir() / "examples" / "llama-2-7b" / "config.json").read_text()))
    for engine in ("vllm", "sglang"):
        s = engine_support(arch, engine)
        assert s.status == "native" and s.architecture == "LlamaForCausalLM"
    assert engine_findings(arch) == []


def test_phi_runs_on_vllms_transformers_backend():
    # registry.py _TRANSFORMERS_SUPPORTED_MODELS: "PhiForCausalLM": ("transformers", "TransformersForCausalLM")
    arch = normalize(_cfg("PhiConfig", "PhiForCausalLM", hidden_size=256, intermediate_size=1024,
                          num_hidden_layers=2, num_attention_heads=4, vocab_size=1000))
    s = engine_support(arch, "vllm")
    assert s.status == "transformers_backend" and "_TRANSFORMERS_SUPPORTED_MODELS" in s.detail
    f = [x for x in engine_findings(arch) if x.rule == "S6"]
    assert [x.severity for x in f] == ["INFO"] and "vLLM 0.33.0" in f[0].message


def test_falcon_is_refused_by_sglang_and_predict_exits_2(tmp_path):
    # sglang 0.5.23 ships falcon_h1.py and falcon_mamba.py, no FalconForCausalLM; transformers' FalconPreTrainedModel
    # sets no _supports_attention_backend, so resolve_transformers_arch raises ("has no SGlang implementation and the
    # Transformers implementation is not compatible"); vLLM implements it (registry.py "FalconForCausalLM")
    cfg = _cfg("FalconConfig", "FalconForCausalLM", hidden_size=256, num_hidden_layers=2, num_attention_heads=4,
               vocab_size=1000, new_decoder_architecture=True, num_kv_heads=2)
    arch = normalize(cfg)
    assert engine_support(arch, "vllm").status == "native"
    s = engine_support(arch, "sglang")
    assert s.status == "incompatible" and "no _supports_attention_backend" in s.detail
    assert [(x.severity, x.message.split(" ")[0]) for x in engine_findings(arch)] == [("HARD", "SGLang")]
    path = tmp_path / "config.json"
    path.write_text(json.dumps(cfg))
    args = [sys.executable, "-m", "scorer", "predict", str(path), "--gpu", "H100-SXM", "--isl", "512", "--osl", "64",
            "--concurrency", "4"]
    bad = subprocess.run([*args, "--framework", "sglang"], capture_output=True, text=True, cwd=ROOT)
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.count("\n") == 1 and "FalconForCausalLM" in bad.stderr and "Traceback" not in bad.stderr
    ok = subprocess.run(args, capture_output=True, text=True, cwd=ROOT)
    assert ok.returncode == 0, ok.stderr


def test_removed_class_without_a_compatible_transformers_class():
    # registry.py _PREVIOUSLY_SUPPORTED_MODELS: "MptForCausalLM": "0.28.0"; transformers' MptAttention(nn.Module)
    # neither sets _supports_attention_backend nor calls ALL_ATTENTION_FUNCTIONS, so the fallback returns None and
    # vLLM raises for the removed class
    arch = normalize(_cfg("MptConfig", "MptForCausalLM", d_model=256, n_heads=4, n_layers=2, vocab_size=1000))
    s = engine_support(arch, "vllm")
    assert s.status == "removed" and "0.28.0" in s.detail
    from scorer.costmodel import CostModel, Layout
    from scorer.gemms import inventory
    from scorer.hardware import get_gpu, get_precision
    from scorer.params import count_params
    cm = CostModel(arch, count_params(arch), get_gpu("H100-SXM"), get_precision("bf16"), Layout(tp=1), "bf16", "vllm",
                   None, set(), inventory(arch))
    assert cm.engine_blocker() == s.detail  # regimes, the frontier and predict skip it


def test_new_architecture_falls_back_or_is_unknown():
    # Ergo: no vLLM / SGLang implementation; transformers 5.25.0's ErgoPreTrainedModel sets
    # _supports_attention_backend = True, so both fall back to their Transformers backend; a transformers without
    # the class leaves the engines nothing to load
    from transformers import CONFIG_MAPPING
    raw = {"model_type": "ergo", "architectures": ["ErgoForCausalLM"], "vocab_size": 1000, "hidden_size": 96,
           "num_hidden_layers": 2, "num_attention_heads": 6, "num_key_value_heads": 2,
           "first_dense_intermediate_size": 320, "moe_intermediate_size": 48, "shared_intermediate_size": 64,
           "num_experts": 8, "num_experts_per_tok": 2, "layer_types": ["sliding_attention", "full_attention"],
           "mlp_layer_types": ["dense", "sparse"], "sliding_window": 64}
    arch = normalize(raw)
    known = "ergo" in CONFIG_MAPPING
    for engine in ("vllm", "sglang"):
        assert engine_support(arch, engine).status == ("transformers_fallback" if known else "unsupported")
    assert {f.severity for f in engine_findings(arch)} == {"PERF" if known else "HARD"}


def test_no_architectures_named():
    raw = json.loads((data_dir() / "examples" / "llama-2-7b" / "config.json").read_text())
    raw.pop("architectures")
    s = engine_support(normalize(raw), "vllm")
    assert s.status == "unknown" and s.architecture is None


@pytest.mark.skipif(not (os.environ.get("DEPLOYSHEET_VLLM_WHEEL") and os.environ.get("DEPLOYSHEET_SGLANG_WHEEL")),
                    reason="set DEPLOYSHEET_VLLM_WHEEL and DEPLOYSHEET_SGLANG_WHEEL to the engines' wheels "
                           "(pip download ... --no-deps) to re-read them")
def test_table_matches_the_wheels(tmp_path):
    out = tmp_path / "engine_models.json"
    subprocess.run([sys.executable, str(ROOT / "scripts" / "engine_registry.py"), os.environ["DEPLOYSHEET_VLLM_WHEEL"],
                    os.environ["DEPLOYSHEET_SGLANG_WHEEL"], str(out)], check=True, capture_output=True)
    assert json.loads(out.read_text()) == json.loads((data_dir() / "engine_models.json").read_text())


ERGO_SMALL = {"model_type": "ergo", "architectures": ["ErgoForCausalLM"], "vocab_size": 1000, "hidden_size": 96,
              "num_hidden_layers": 2, "num_attention_heads": 6, "num_key_value_heads": 2,
              "first_dense_intermediate_size": 320, "moe_intermediate_size": 48, "shared_intermediate_size": 64,
              "num_experts": 8, "num_experts_per_tok": 2, "layer_types": ["sliding_attention", "full_attention"],
              "mlp_layer_types": ["dense", "sparse"], "sliding_window": 64, "torch_dtype": "bfloat16"}


def test_sglang_backend_needs_the_config_classs_parallel_plans(tmp_path):
    # sglang-0.5.23 sglang/srt/models/transformers.py recursive_replace: `if not tp_plan and tp_size > 1: raise
    # ValueError(f"{type(self.model)} does not support tensor parallel yet!")`, pipeline_parallel likewise without a
    # pp plan; vllm-0.33.0 vllm/model_executor/models/transformers/base.py only warns ("does not define a tensor
    # parallel plan") and shards by graph fusion. transformers 5.25.0's ErgoConfig sets neither plan; LlamaConfig both.
    transformers = pytest.importorskip("transformers")
    if "ergo" not in transformers.CONFIG_MAPPING:
        pytest.skip("this transformers has no Ergo")
    ergo_cls = transformers.CONFIG_MAPPING["ergo"]
    assert not getattr(ergo_cls, "base_model_tp_plan", None) and not getattr(ergo_cls, "base_model_pp_plan", None)
    arch = normalize(ERGO_SMALL)
    sg, vl = engine_support(arch, "sglang"), engine_support(arch, "vllm")
    assert sg.layout_blocker(1, 1) is None and vl.layout_blocker(8, 4) is None
    assert "base_model_tp_plan" in sg.layout_blocker(2, 1) and "base_model_pp_plan" in sg.layout_blocker(1, 2)
    assert "refuses TP > 1" in sg.detail and "graph fusion" in vl.detail
    path = tmp_path / "config.json"
    path.write_text(json.dumps(ERGO_SMALL))
    args = [sys.executable, "-m", "scorer", "predict", str(path), "--gpu", "H100-SXM", "--isl", "512", "--osl", "64",
            "--concurrency", "4"]
    for extra, rc in ((["--framework", "sglang", "--tp", "2"], 2), (["--framework", "sglang", "--pp", "2"], 2),
                      (["--framework", "sglang"], 0), (["--tp", "2"], 0)):
        run = subprocess.run([*args, *extra], capture_output=True, text=True, cwd=ROOT)
        assert run.returncode == rc, (extra, run.stderr)
        if rc == 2:
            assert run.stderr.count("\n") == 1 and "plan" in run.stderr and "Traceback" not in run.stderr


def test_partial_plan_replicates_attention_on_sglang_only():
    # transformers 5.25.0 Kolibri1_1Config.base_model_tp_plan names only the MLP / shared-expert projections;
    # SGLang replaces a linear no pattern matches with a replicated one (`prefixed_plan.get(pattern, "replicate")`),
    # vLLM first fuses q/k/v by tracing the module (Fusers), so only SGLang's note says attention is replicated
    transformers = pytest.importorskip("transformers")
    if "kolibri1_1" not in transformers.CONFIG_MAPPING:
        pytest.skip("this transformers has no Kolibri 1.1")
    plan = transformers.CONFIG_MAPPING["kolibri1_1"].base_model_tp_plan
    assert plan and not any("attn" in k for k in plan)
    cfg = _cfg("Kolibri1_1Config", "Kolibri1_1ForCausalLM")
    arch = normalize(cfg)
    assert "replicates attention" in engine_support(arch, "sglang").detail
    assert "replicates attention" not in engine_support(arch, "vllm").detail


def test_sheet_names_the_engine_refusal_not_memory(tmp_path):
    # Falcon on SGLang 0.5.23 (no implementation, incompatible transformers class): the header says SGLang cannot
    # load it, and no M1 finding blames memory for a 7B model the engine refuses at every layout
    cfg = _cfg("FalconConfig", "FalconForCausalLM", hidden_size=256, num_hidden_layers=2, num_attention_heads=4,
               vocab_size=1000, new_decoder_architecture=True, num_kv_heads=2)
    path = tmp_path / "config.json"
    path.write_text(json.dumps(cfg))
    run = subprocess.run([sys.executable, "-m", "scorer", "score", str(path), "--framework", "sglang"],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    header = run.stdout.splitlines()[2]
    assert "SGLang 0.5.23 cannot load FalconForCausalLM (rule S6)" in header and "refuses bf16" not in header
    assert "| M1 |" not in run.stdout and "| S6 | HARD |" in run.stdout


def test_vllm_converts_a_sequence_classifier_of_a_class_it_implements():
    # vllm-0.33.0 vllm/model_executor/models/registry.py _normalize_arch swaps the suffix of an unregistered class
    # (vllm/config/model.py _SUFFIX_TO_DEFAULTS: "ForSequenceClassification" -> pooling/classify) for "ForCausalLM"
    raw = json.loads((data_dir() / "examples" / "llama-2-7b" / "config.json").read_text())
    raw["architectures"] = ["LlamaForSequenceClassification"]
    s = engine_support(normalize(raw), "vllm")
    assert s.status == "native" and "LlamaForCausalLM" in s.detail and "classify" in s.detail


def test_an_empty_architecture_name_names_nothing():
    raw = json.loads((data_dir() / "examples" / "llama-2-7b" / "config.json").read_text())
    raw["architectures"] = [""]
    arch = normalize(raw)
    assert engine_support(arch, "vllm").status == "unknown" and engine_findings(arch) == []


def test_sglang_reads_a_vlms_text_config_plans():
    # sglang-0.5.23 _get_model_tp_plan / _get_model_pp_plan fall back to self.text_config.base_model_tp_plan (and
    # _pp_plan): VideoLlavaConfig's text_config is an AutoConfig slot, here a LlamaConfig, which has both plans
    transformers = pytest.importorskip("transformers")
    assert transformers.LlamaConfig.base_model_tp_plan and transformers.LlamaConfig.base_model_pp_plan
    assert not getattr(transformers.VideoLlavaConfig, "base_model_tp_plan", None)
    d = transformers.VideoLlavaConfig().to_dict()
    d["architectures"] = ["VideoLlavaForConditionalGeneration"]
    arch = normalize(json.loads(json.dumps(d, default=str)))
    assert arch.text_model_type == "llama"
    s = engine_support(arch, "sglang")
    assert s.status == "transformers_fallback" and s.layout_blocker(2, 1) is None and s.layout_blocker(1, 2) is None


def test_sglang_attention_dp_counts_in_its_tp_size(tmp_path):
    # SGLang's --tp-size spans the attention-DP ranks (--attn-dp-size divides it): TP1 x DP2 launches --tp-size 2,
    # which its Transformers backend refuses without a tensor-parallel plan as TP2 is
    path = tmp_path / "config.json"
    path.write_text(json.dumps(ERGO_SMALL))
    run = subprocess.run([sys.executable, "-m", "scorer", "predict", str(path), "--framework", "sglang", "--dp", "2",
                          "--ep", "2", "--isl", "512", "--osl", "64", "--concurrency", "4"],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 2 and "tensor-parallel size of 2" in run.stderr, run.stderr


def test_vllm_tries_its_transformers_backend_before_a_generate_suffix_swap():
    # registry.py inspect_model_cls: with every listed class unregistered and convert_type "none" (a generate suffix,
    # "ForCausalLM"), _try_resolve_transformers runs before _normalize_arch; transformers 5.25.0's
    # Gemma4UnifiedForCausalLM is backend-compatible, so vLLM falls back rather than convert it
    transformers = pytest.importorskip("transformers")
    if "gemma4_unified_text" not in transformers.CONFIG_MAPPING:
        pytest.skip("this transformers has no Gemma 4 unified")
    from scorer.engine_models import _table
    assert "Gemma4UnifiedForCausalLM" not in _table()["vllm"]["native"]
    d = transformers.CONFIG_MAPPING["gemma4_unified_text"]().to_dict()
    d["architectures"] = ["Gemma4UnifiedForCausalLM"]
    s = engine_support(normalize(json.loads(json.dumps(d, default=str))), "vllm")
    assert s.status == "transformers_fallback"


def test_the_backends_own_class_name_runs_on_the_backend():
    # registry.py _TRANSFORMERS_BACKEND_MODELS: "TransformersForCausalLM" is the backend itself
    raw = json.loads((data_dir() / "examples" / "llama-2-7b" / "config.json").read_text())
    raw["architectures"] = ["TransformersForCausalLM"]
    assert engine_support(normalize(raw), "vllm").status == "transformers_backend"


def test_compare_names_the_engine_risks(tmp_path):
    falcon = tmp_path / "falcon" / "config.json"
    falcon.parent.mkdir()
    falcon.write_text(json.dumps(_cfg("FalconConfig", "FalconForCausalLM", hidden_size=256, num_hidden_layers=2,
                                      num_attention_heads=4, vocab_size=1000, new_decoder_architecture=True,
                                      num_kv_heads=2)))
    run = subprocess.run([sys.executable, "-m", "scorer", "compare", str(falcon.parent), "example:llama-2-7b",
                          "--isl", "512", "--osl", "64", "--qps", "1", "--framework", "sglang", "--format", "json"],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    models = {m["name"]: m for m in json.loads(run.stdout)["models"]}
    assert [r["kind"] for r in models["falcon"]["risks"] if r["kind"].startswith("engine")] == ["engine_cannot_load"]
    assert not [r for r in models["example:llama-2-7b"]["risks"] if r["kind"].startswith("engine")]
