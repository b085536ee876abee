"""Pipeline parallelism only where the engine's own implementation has it (issue 13: only what the engine runs).

* SGLang 0.5.23 sglang/srt/model_executor/model_runner.py: ``self.support_pp = "pp_proxy_tensors" in
  inspect.signature(self.model.forward).parameters`` and, at --pp-size > 1, ``assert self.support_pp, "Pipeline
  Parallel is not compatible with this model."``. models/falcon_mamba.py (which also serves MambaForCausalLM through
  models/mamba.py) has a forward without pp_proxy_tensors; models/llama.py's LlamaForCausalLM.forward takes it.
* vLLM 0.33.0 vllm/config/model.py verify_with_parallel_config: PP > 1 raises NotImplementedError ("Supported models
  implement the `SupportsPP` interface") unless registry.is_pp_supported_model. model_executor/models/mamba.py:
  ``class MambaForCausalLM(nn.Module, HasInnerState, IsAttentionFree, SupportsPP, ...)``; mamba2.py:
  ``class Mamba2ForCausalLM(nn.Module, HasInnerState, IsAttentionFree, SupportsMambaPrefixCaching)``: no SupportsPP.
"""

from __future__ import annotations

import json
import os
import re
import zipfile

import pytest
from transformers import Mamba2Config, MambaConfig

from scorer.architecture import normalize
from scorer.cli import main
from scorer.engine_models import engine_support
from scorer.resources import data_dir
from small_configs import small_deepseek_v3


def _mamba() -> dict:
    cfg = MambaConfig(hidden_size=768, num_hidden_layers=24, vocab_size=50280).to_dict()
    cfg.update(architectures=["MambaForCausalLM"], torch_dtype="bfloat16")
    return cfg


def _mamba2() -> dict:
    cfg = Mamba2Config(hidden_size=1024, num_hidden_layers=8, num_heads=32, head_dim=64, n_groups=1,
                       state_size=128, vocab_size=32000).to_dict()
    cfg.update(architectures=["Mamba2ForCausalLM"], torch_dtype="bfloat16")
    return cfg


def test_sglang_refuses_pp_for_mamba_and_runs_it_for_llama():
    s = engine_support(normalize(_mamba()), "sglang")
    assert s.status == "native"
    why = s.layout_blocker(1, 2)
    assert why and "PP 2" in why and "pp_proxy_tensors" in why
    assert s.layout_blocker(2, 1) is None
    llama = json.loads((data_dir() / "examples" / "llama-2-7b" / "config.json").read_text())
    assert engine_support(normalize(llama), "sglang").layout_blocker(1, 2) is None


def test_vllm_runs_pp_for_mamba_but_not_for_mamba2():
    assert engine_support(normalize(_mamba()), "vllm").layout_blocker(1, 2) is None
    why = engine_support(normalize(_mamba2()), "vllm").layout_blocker(1, 4)
    assert why and "SupportsPP" in why


def test_predict_exits_2_and_names_the_layouts_that_run(tmp_path, capsys):
    d = tmp_path / "mamba"
    d.mkdir()
    (d / "config.json").write_text(json.dumps(_mamba()))
    args = ["predict", str(d), "--framework", "sglang", "--isl", "1000", "--osl", "500", "--concurrency", "8"]
    assert main(args + ["--pp", "2"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "refuses PP 2" in err and "runs without PP at TP2" in err
    assert main(args) == 0
    capsys.readouterr()


def _pp_in_sheet(tmp_path, cfg: dict, capsys) -> list[int]:
    d = tmp_path / "m2"
    d.mkdir(exist_ok=True)
    (d / "config.json").write_text(json.dumps(cfg))
    out = tmp_path / "s.json"
    assert main(["score", str(d), "--format", "json", "-o", str(out)]) == 0
    capsys.readouterr()
    sheet = json.loads(out.read_text())
    text = json.dumps({k: sheet[k] for k in ("regimes", "frontier", "sla")})
    return [int(x) for x in re.findall(r'"pp": *(\d+)', text)]


def test_the_search_never_picks_a_refused_pp(tmp_path, capsys, monkeypatch):
    """An 81 B-parameter Mamba2 (192 layers of 8192) under vLLM: no regime, frontier point or SLA answer at PP > 1;
    with the refusal taken out of the table the same search does pick TP2·PP2 layouts."""
    cfg = Mamba2Config(hidden_size=8192, num_hidden_layers=192, num_heads=256, head_dim=64, n_groups=8,
                       state_size=128, vocab_size=32000).to_dict()
    cfg.update(architectures=["Mamba2ForCausalLM"], torch_dtype="bfloat16")
    assert max(_pp_in_sheet(tmp_path, cfg, capsys)) == 1
    import copy

    import scorer.engine_models as em
    table = copy.deepcopy(em._table())
    table["vllm"]["no_pp"] = []
    monkeypatch.setattr(em, "_table", lambda: table)
    assert max(_pp_in_sheet(tmp_path, dict(cfg, vocab_size=32001), capsys)) > 1  # another config: no cached sheet


@pytest.mark.skipif(not (os.environ.get("DEPLOYSHEET_VLLM_WHEEL") and os.environ.get("DEPLOYSHEET_SGLANG_WHEEL")),
                    reason="set DEPLOYSHEET_VLLM_WHEEL and DEPLOYSHEET_SGLANG_WHEEL to the engines' wheels "
                           "(pip download ... --no-deps) to re-read them")
def test_the_lists_agree_with_the_engine_source_as_text():
    """Independent of scripts/engine_registry.py's class walk: the class lines and forward signatures as text."""
    table = json.loads((data_dir() / "engine_models.json").read_text())
    with zipfile.ZipFile(os.environ["DEPLOYSHEET_VLLM_WHEEL"]) as z:
        m1 = z.read("vllm/model_executor/models/mamba.py").decode()
        m2 = z.read("vllm/model_executor/models/mamba2.py").decode()
    assert re.search(r"class MambaForCausalLM\([^)]*SupportsPP", m1)
    assert not re.search(r"class Mamba2ForCausalLM\([^)]*SupportsPP", m2)
    assert "MambaForCausalLM" not in table["vllm"]["no_pp"] and "Mamba2ForCausalLM" in table["vllm"]["no_pp"]
    with zipfile.ZipFile(os.environ["DEPLOYSHEET_SGLANG_WHEEL"]) as z:
        fm = z.read("sglang/srt/models/falcon_mamba.py").decode()
        ll = z.read("sglang/srt/models/llama.py").decode()
    assert "pp_proxy_tensors" not in fm and "pp_proxy_tensors: Optional[PPProxyTensors]" in ll
    assert {"MambaForCausalLM", "FalconMambaForCausalLM"} <= set(table["sglang"]["no_pp"])
    assert "LlamaForCausalLM" not in table["sglang"]["no_pp"]


# ------------------------------------------------------------------------------------- PP with speculative decoding
#: read by eye from sglang 0.5.23: arg_groups/model_overrides/gigachat35.py (GigaChat35ForCausalLM,
#: GigaChat35ForCausalLMNextN), model_overrides/mimo_v2.py (MiMoV2ForCausalLM, MiMoV2FlashForCausalLM) and
#: arg_groups/overrides.py _step3p_overrides (its predicate names Step3p5ForCausalLM, Step3p7ForConditionalGeneration)
#: set overrides["enable_multi_layer_eagle"] = True when the algorithm is EAGLE (NEXTN is an alias of it)
MULTI_LAYER_EAGLE = {"GigaChat35ForCausalLM", "GigaChat35ForCausalLMNextN", "MiMoV2ForCausalLM",
                     "MiMoV2FlashForCausalLM", "Step3p5ForCausalLM", "Step3p7ForConditionalGeneration"}


def test_sglang_pp_runs_only_single_layer_eagle():
    """validation_hook.py:119-138 check_pipeline_parallel_compat: at --pp-size > 1 a speculative algorithm must be
    EAGLE and not multi-layer EAGLE. deploysheet's mtp launches NEXTN (an alias of EAGLE), eagle3 launches EAGLE3."""
    table = json.loads((data_dir() / "engine_models.json").read_text())
    assert set(table["sglang"]["pp_speculative"]["multi_layer_eagle"]) == MULTI_LAYER_EAGLE
    assert table["sglang"]["pp_speculative"]["algorithms"] == ["EAGLE"]
    llama = engine_support(normalize(json.loads((data_dir() / "examples" / "llama-3.1-8b" / "config.json")
                                                .read_text())), "sglang")
    assert llama.layout_blocker(1, 2, "mtp") is None and llama.layout_blocker(1, 1, "eagle3") is None
    why = llama.layout_blocker(1, 2, "eagle3")
    assert why and "PP 2" in why and "eagle3" in why and "validation_hook.py" in why
    from scorer.engine_models import EngineSupport
    mimo = EngineSupport("sglang", "0.5.23", "MiMoV2FlashForCausalLM", "native", "")
    assert "multi-layer EAGLE" in (mimo.layout_blocker(1, 2, "mtp") or "")
    assert mimo.layout_blocker(1, 2) is None and mimo.layout_blocker(8, 1, "mtp") is None
    vllm = engine_support(normalize(json.loads((data_dir() / "examples" / "llama-3.1-8b" / "config.json")
                                               .read_text())), "vllm")
    assert vllm.layout_blocker(1, 2, "eagle3") is None  # the rule is SGLang's


def test_predict_refuses_sglang_pp_with_eagle3(capsys):
    args = ["predict", str(data_dir() / "examples" / "llama-3.1-8b"), "--framework", "sglang", "--isl", "1000",
            "--osl", "100", "--concurrency", "8", "--pp", "2"]
    assert main(args + ["--speculative", "eagle3"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "refuses PP 2 with eagle3" in err and "without PP" in err
    assert main(args + ["--speculative", "none", "--format", "json"]) == 0
    capsys.readouterr()


# ------------------------------------------------------------------------ the wheel readers on hand-written modules
def _wheel(tmp_path, files: dict[str, str]) -> str:
    path = tmp_path / "engine-0.0.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as z:
        for name, text in files.items():
            z.writestr(name, text)
    return str(path)


def _registry():
    import importlib.util
    from pathlib import Path
    spec = importlib.util.spec_from_file_location("engine_registry", Path(__file__).parents[1] / "scripts" /
                                                  "engine_registry.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_vllm_reader_accepts_a_var_kwargs_forward(tmp_path):
    """vllm 0.33.0 utils/func_utils.py _supports_kw (allow_var_kwargs=True, what supports_kw passes): a forward
    whose last parameter is ``**kwargs`` accepts intermediate_tensors, so a SupportsPP class with one runs PP."""
    src = ("class A(nn.Module, SupportsPP):\n    def forward(self, input_ids, positions, **kwargs):\n        pass\n"
           "class B(nn.Module, SupportsPP):\n    def forward(self, input_ids, positions):\n        pass\n"
           "class C(nn.Module, SupportsPP):\n    def forward(self, input_ids, intermediate_tensors=None):\n"
           "        pass\n")
    wheel = _wheel(tmp_path, {"vllm/model_executor/models/toy.py": src})
    refused = _registry().vllm_no_pp(wheel, {"A": ("toy", "A"), "B": ("toy", "B"), "C": ("toy", "C")})
    assert refused == ["B"]


def test_sglang_reader_follows_getattr_delegation(tmp_path):
    """sglang 0.5.23 models/minicpmv.py: MiniCPMV defines no forward and hands attribute look-ups to its inner model
    (``__getattr__``), whose forwards (input_ids, positions, forward_batch, **kwargs) take no pp_proxy_tensors; so
    inspect.signature(model.forward) has none and model_runner.py refuses PP."""
    wrap = ("class Inner(nn.Module):\n    def forward(self, input_ids, positions, forward_batch, **kwargs):\n"
            "        pass\n"
            "class Wrap:\n    def __getattr__(self, name):\n        return getattr(self.inner, name)\n"
            "class Sub(Wrap):\n    pass\n")
    ok = ("class Inner2(nn.Module):\n    def forward(self, input_ids, positions, forward_batch, pp_proxy_tensors=None):"
          "\n        pass\nclass Wrap2:\n    def __getattr__(self, name):\n        return getattr(self.inner, name)\n")
    wheel = _wheel(tmp_path, {"sglang/srt/models/w.py": wrap, "sglang/srt/models/w2.py": ok})
    where = {"Wrap": "sglang/srt/models/w.py", "Sub": "sglang/srt/models/w.py", "Wrap2": "sglang/srt/models/w2.py"}
    assert _registry().sglang_no_pp(wheel, set(where), where) == ["Sub", "Wrap"]
    table = json.loads((data_dir() / "engine_models.json").read_text())
    assert {"MiniCPMV", "MiniCPMV4_6ForConditionalGeneration",
            "MiniCPMV4_7ForConditionalGeneration"} <= set(table["sglang"]["no_pp"])


def _small_deepseek(tmp_path) -> str:
    d = tmp_path / "ds"
    d.mkdir(exist_ok=True)
    (d / "config.json").write_text(json.dumps(small_deepseek_v3(num_nextn_predict_layers=1)))
    return str(d)


def _launch(tmp_path, capsys, args) -> list[str]:
    out = tmp_path / "p.json"
    assert main(["predict", *args, "--isl", "1000", "--osl", "200", "--format", "json", "-o", str(out)]) == 0
    capsys.readouterr()
    return json.loads(out.read_text())["launch"]["argv"]


def test_sglang_speculative_launch_sets_topk_and_pp_env(tmp_path, capsys):
    """arg_groups/speculative_hook.py _handle_eagle_family chooses steps, topk and draft tokens together only when
    --speculative-num-steps is unset, then compares speculative_eagle_topk > 1: with steps given and topk not, SGLang
    stops with a TypeError, so the chain deploysheet predicts needs --speculative-eagle-topk 1. At PP > 1
    validation_hook.py check_pipeline_parallel_compat asks for SGLANG_ENABLE_PP_SPEC outside a PD prefill node
    (environ.py: EnvBool(False)) and, with it, refuses attention DP."""
    ds = _small_deepseek(tmp_path)
    argv = _launch(tmp_path, capsys, [ds, "--framework", "sglang", "--concurrency", "16", "--speculative", "mtp"])
    assert argv[argv.index("--speculative-eagle-topk") + 1] == "1" and argv[0] == "python"
    argv = _launch(tmp_path, capsys, [ds, "--framework", "sglang", "--concurrency", "16", "--speculative", "mtp",
                                      "--pp", "2"])
    assert argv[:2] == ["env", "SGLANG_ENABLE_PP_SPEC=1"] and "--pp-size" in argv
    assert main(["predict", ds, "--framework", "sglang", "--isl", "1000", "--osl", "200", "--concurrency", "16",
                 "--speculative", "mtp", "--pp", "2", "--tp", "2", "--dp", "2"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "attention DP" in err and "SGLANG_ENABLE_PP_SPEC" in err


def test_sglang_running_flag_is_a_multiple_of_dp(tmp_path, capsys):
    """kv_cache_configurator.py resolve_max_num_reqs gives each attention-DP worker --max-running-requests // DP:
    30 requests over 4 workers need the flag at 32 (8 each), not 30 (7 each, 28 in all)."""
    ds = _small_deepseek(tmp_path)
    argv = _launch(tmp_path, capsys, [ds, "--framework", "sglang", "--concurrency", "30", "--tp", "1", "--dp", "4",
                                      "--ep", "4"])
    assert argv[argv.index("--max-running-requests") + 1] == "32"


# ------------------------------------------------------------------------------------------- EAGLE-3 targets
def test_eagle3_readers_on_hand_written_modules(tmp_path):
    """vLLM 0.33.0: gpu_model_runner.py _setup_eagle3_aux_hidden_state_outputs raises unless supports_eagle3 (an
    isinstance of the runtime-checkable SupportsEagle3: in the MRO, or its flag set). SGLang 0.5.23:
    attention_backend_setup.py configure_aux_hidden_state_capture raises unless hasattr(model,
    "set_eagle3_layers_to_capture")."""
    vsrc = ("class A(nn.Module, SupportsPP, SupportsEagle3):\n    pass\n"
            "class B(nn.Module, SupportsPP):\n    pass\n"
            "class C(B):\n    supports_eagle3 = True\n")
    wheel = _wheel(tmp_path, {"vllm/model_executor/models/toy.py": vsrc})
    reg = _registry()
    assert reg.vllm_no_eagle3(wheel, {"A": ("toy", "A"), "B": ("toy", "B"), "C": ("toy", "C")}) == ["B"]
    ssrc = ("class Base(nn.Module):\n    def set_eagle3_layers_to_capture(self, ids):\n        pass\n"
            "class Sub(Base):\n    pass\nclass Plain(nn.Module):\n    pass\n")
    wheel = _wheel(tmp_path, {"sglang/srt/models/toy.py": ssrc})
    where = {n: "sglang/srt/models/toy.py" for n in ("Sub", "Plain")}
    assert reg.sglang_no_eagle3(wheel, set(where), where) == ["Plain"]


def test_no_eagle3_for_mixtral_and_gemma(capsys):
    """Read by eye: vLLM mixtral.py ``class MixtralForCausalLM(nn.Module, SupportsLoRA, SupportsPP, MixtureOfExperts)``
    and gemma.py's GemmaForCausalLM lack SupportsEagle3 (llama.py's LlamaForCausalLM has it); SGLang mixtral.py and
    gemma.py define no set_eagle3_layers_to_capture (llama.py does)."""
    table = json.loads((data_dir() / "engine_models.json").read_text())
    for engine in ("vllm", "sglang"):
        refused = set(table[engine]["no_eagle3"])
        assert {"MixtralForCausalLM", "GemmaForCausalLM"} <= refused and "LlamaForCausalLM" not in refused
    args = ["predict", "example:mixtral-8x7b", "--isl", "1000", "--osl", "200", "--concurrency", "16", "--tp", "2"]
    assert main(args + ["--speculative", "eagle3"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "cannot run EAGLE-3" in err
    assert main(args + ["--speculative", "none", "--format", "json"]) == 0
    capsys.readouterr()


def test_vllm_config_hooks_that_refuse_eagle3(tmp_path):
    """vllm 0.33.0 model_executor/models/config.py:1050-1058: Qwen4ExpForConditionalGenerationConfig raises unless
    the speculative method is in {"mtp", "ngram", "ngram_gpu"}; its subclasses inherit the hook."""
    src = ("class Base:\n    @staticmethod\n    def verify_and_update_config(vllm_config):\n"
           "        spec_config = vllm_config.speculative_config\n"
           "        if spec_config is not None and spec_config.method not in {\"mtp\", \"ngram\"}:\n"
           "            raise NotImplementedError('x')\n"
           "class Sub(Base):\n    pass\n"
           "class Other:\n    @staticmethod\n    def verify_and_update_config(vllm_config):\n        pass\n"
           "MODELS_CONFIG_MAP = {\"A\": Base, \"B\": Sub, \"C\": Other}\n")
    wheel = _wheel(tmp_path, {"vllm/model_executor/models/config.py": src})
    assert _registry().vllm_hook_no_eagle3(wheel) == ["A", "B"]
    table = json.loads((data_dir() / "engine_models.json").read_text())
    assert "Qwen4ExpForConditionalGeneration" in table["vllm"]["no_eagle3"]
