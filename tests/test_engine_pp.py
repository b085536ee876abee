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
