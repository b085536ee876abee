"""Recurrent state dtypes and SGLang's token pool for models without attention, derived here from the engines' source.

Sources (wheels: sglang 0.5.23, vllm 0.33.0):

* sglang/srt/configs/mamba.py:27-38 ``_mamba1_cache_params``: Mamba-1 (MambaForCausalLM, FalconMambaForCausalLM) runs
  on the Mamba2 pool through ``Mamba2StateShape.create_full_rank`` (configs/mamba_utils.py:246-290): conv
  (d_inner / tp, conv_kernel - 1), SSM (d_inner / tp, 1, d_state). Its ``Mamba2CacheParams`` keeps the default
  dtype ``mamba2_state_dtype(None)`` (mamba_utils.py:111-112), which reads no config: conv bf16, SSM float32.
* sglang/srt/model_executor/pool_configurator.py:246-250: ``_zero_kv_max_tokens = max_total_tokens or
  context_len``; lines 641-645: with cell size 0 (no attention layer) the token pool holds that many tokens.
* sglang/srt/configs/model_config.py:1291-1318 ``_derive_context_length``: a --context-length above the derived
  one raises unless SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1; utils/hf_transformers/common.py:668-694: the
  derived one is the first of max_sequence_length, seq_length, max_seq_len, model_max_length,
  max_position_embeddings, else 2048.
* vllm/model_executor/layers/mamba/mamba_utils.py:64-110: Mamba-1's state at (conv, temporal) = (model dtype, the
  same under --mamba-ssm-cache-dtype auto); model_executor/models/config.py:953-977
  ``Qwen3_5ForConditionalGenerationConfig``: auto becomes the config's ``mamba_ssm_dtype`` where it has one.
"""

from __future__ import annotations

import pytest
from transformers import FalconMambaConfig, MambaConfig, Qwen3_5TextConfig

from scorer.architecture import normalize
from scorer.costmodel import CostModel, Layout
from scorer.hardware import get_gpu, get_precision
from scorer.kvcache import (kv_cache, max_sequences, per_sequence_bytes, sglang_mamba_pool, sglang_state_slot_bytes,
                            state_dtype_for, temporal_elements)
from scorer.params import count_params

D_INNER, D_STATE, K, LAYERS = 5120, 16, 4, 64  # state-spaces/mamba-2.8b-hf: hidden 2560, expand 2


def _mamba(**extra) -> dict:
    cfg = MambaConfig(hidden_size=2560, num_hidden_layers=LAYERS, vocab_size=50280, state_size=D_STATE, expand=2,
                      conv_kernel=K).to_dict()
    cfg.update(architectures=["MambaForCausalLM"], torch_dtype="bfloat16")
    cfg.update(extra)
    return cfg


def _cm(arch, framework: str, tp: int = 1) -> CostModel:
    return CostModel(arch, count_params(arch), get_gpu("H100-SXM"), get_precision("bf16"), Layout(tp=tp),
                     framework=framework)


def test_mamba1_temporal_state_is_d_inner_by_d_state():
    arch = normalize(_mamba())
    mixer = arch.layers[0].mixer
    assert temporal_elements(mixer) == D_INNER * D_STATE == 81_920


def test_sglang_keeps_mamba1_ssm_state_in_float32():
    """A slot: 64 layers x (5120 x 3 conv values x 2 B + 5120 x 16 SSM values x 4 B) = 22,937,600 B (all bf16 it
    would be 12,451,840 B: the old figure, 1.84x small)."""
    arch = normalize(_mamba())
    assert state_dtype_for(arch, "sglang") == "bf16+fp32"
    slot = LAYERS * (D_INNER * (K - 1) * 2 + D_INNER * D_STATE * 4)
    assert slot == 22_937_600 == sglang_state_slot_bytes(arch, 1)
    assert sglang_state_slot_bytes(arch, 2) == slot // 2  # create_full_rank splits d_inner over TP
    assert LAYERS * (D_INNER * (K - 1) + D_INNER * D_STATE) * 2 == 12_451_840  # the bf16-only size


def test_sglang_mamba1_ignores_the_configs_ssm_dtype():
    """_mamba1_cache_params never passes the config to mamba2_state_dtype: float32 even if the config says bf16."""
    arch = normalize(_mamba(mamba_ssm_dtype="bfloat16"))
    assert state_dtype_for(arch, "sglang") == "bf16+fp32"


def test_vllm_mamba1_state_stays_at_the_model_dtype():
    """vLLM reads no config key for MambaForCausalLM (MambaModelConfig sets none): conv and SSM at bf16, 12,451,840 B
    a sequence at any context."""
    for extra in ({}, {"mamba_ssm_cache_dtype": "float32"}):
        arch = normalize(_mamba(**extra))
        assert state_dtype_for(arch, "vllm") == "bf16"
        assert per_sequence_bytes(arch, 4096, "bf16", "vllm", 1, state_dtype_for(arch, "vllm")) == 12_451_840


def test_falcon_mamba_is_a_mamba1_model_too():
    cfg = FalconMambaConfig().to_dict()
    cfg.update(architectures=["FalconMambaForCausalLM"], torch_dtype="bfloat16")
    arch = normalize(cfg)
    d_inner = cfg["intermediate_size"]
    assert state_dtype_for(arch, "sglang") == "bf16+fp32"
    assert sglang_state_slot_bytes(arch, 1) == cfg["num_hidden_layers"] * (
        d_inner * (cfg["conv_kernel"] - 1) * 2 + d_inner * cfg["state_size"] * 4)


def _qwen35(**extra) -> dict:
    cfg = Qwen3_5TextConfig(hidden_size=256, num_hidden_layers=4, num_attention_heads=4, num_key_value_heads=2,
                            head_dim=64, linear_num_key_heads=4, linear_num_value_heads=8, linear_key_head_dim=32,
                            linear_value_head_dim=32, linear_conv_kernel_dim=4, intermediate_size=512,
                            vocab_size=1000, max_position_embeddings=8192).to_dict()
    cfg.update(architectures=["Qwen3_5ForCausalLM"], torch_dtype="bfloat16")
    cfg.update(extra)
    return cfg


def test_vllm_qwen3_5_takes_the_configs_mamba_ssm_dtype():
    """Qwen3_5ForConditionalGenerationConfig: --mamba-ssm-cache-dtype auto becomes the config's mamba_ssm_dtype; with
    none, auto stays the conv dtype."""
    assert state_dtype_for(normalize(_qwen35(mamba_ssm_dtype="float32")), "vllm") == "bf16+fp32"
    assert state_dtype_for(normalize(_qwen35()), "vllm") == "bf16"
    # another gated delta-net architecture does not read the key (Qwen3-Next has no such hook)
    other = _qwen35(mamba_ssm_dtype="float32", architectures=["Qwen3NextForCausalLM"])
    assert state_dtype_for(normalize(other), "vllm") == "bf16"


def test_sglang_capacity_without_attention_is_the_state_pools_requests():
    """No attention layer: the token pool is --max-total-tokens as the launch command sets it, so only the state
    pool binds: K = int((B x 0.9 / 1.9 - slot) // slot) slots, K // 3 requests (MambaForCausalLM is not an
    extra-buffer hybrid), the same at 4k and at 32k of context. Before, 4096 // context sequences (1 at 4k, 0 at 32k)
    as if the pool held the model's context."""
    arch = normalize(_mamba())
    cm = _cm(arch, "sglang")
    budget = cm.kv_budget_bytes()
    slot = 22_937_600
    k = int((budget * 0.9 / 1.9 - slot) // slot)
    assert cm.sglang_mamba_pool().slots == k
    assert cm.sglang_attention_free()
    assert cm.max_concurrency(5000) == cm.max_concurrency(32768) == k // 3 > 100
    assert max_sequences(budget, arch, 32768, "bf16", "sglang", 1) == k // 3
    assert sglang_mamba_pool(arch, budget, 1).max_requests == k // 3
    assert not _cm(arch, "vllm").sglang_attention_free()


def test_the_sheet_says_what_the_token_pool_holds():
    notes = kv_cache(normalize(_mamba()), "bf16", "sglang").notes
    assert any("No attention layer" in n and "--max-total-tokens" in n for n in notes)
    assert not any("No attention layer" in n for n in kv_cache(normalize(_qwen35()), "bf16", "sglang").notes)


def _predict(tmp_path, cfg: dict, isl: int, osl: int, concurrency: int) -> dict:
    import json
    import subprocess
    import sys
    d = tmp_path / "m"
    d.mkdir(exist_ok=True)
    (d / "config.json").write_text(json.dumps(cfg))
    out = subprocess.run([sys.executable, "-m", "scorer", "predict", str(d), "--gpu", "H100-SXM", "--framework",
                          "sglang", "--isl", str(isl), "--osl", str(osl), "--concurrency", str(concurrency),
                          "--format", "json"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


@pytest.mark.parametrize("isl,osl,env", [(4000, 1000, True), (1000, 500, False)])
def test_launch_sets_the_token_pool_and_the_context_override(tmp_path, isl, osl, env):
    """--max-total-tokens = running x (ISL + OSL); a context above SGLang's derived 2048 (the config names no
    length) needs SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1 or SGLang refuses to start."""
    out = _predict(tmp_path, _mamba(), isl, osl, 16)
    argv = out["launch"]["argv"]
    running = out["concurrency"] - out["queued"]
    assert running == 16
    assert int(argv[argv.index("--max-total-tokens") + 1]) == 16 * (isl + osl)
    assert int(argv[argv.index("--context-length") + 1]) == isl + osl
    assert (argv[:2] == ["env", "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1"]) is env
    assert argv[2 if env else 0:][:3] == ["python", "-m", "sglang.launch_server"]


def test_launch_of_an_attention_model_is_unchanged(tmp_path):
    out = _predict(tmp_path, _qwen35(), 4000, 1000, 16)
    argv = out["launch"]["argv"]
    assert argv[0] == "python" and "--max-total-tokens" not in argv


# --- review b19: SGLang derives the context length from the raw config (utils/hf_transformers/common.py
# get_context_length: max_sequence_length, seq_length, max_seq_len, model_max_length, max_position_embeddings, times a
# linear rope factor; none: 2048), whatever deploysheet's reader takes for the family

@pytest.mark.parametrize("extra,isl,osl,env", [
    ({"max_position_embeddings": 1024}, 1000, 500, True),      # 1,500 > 1,024: SGLang refuses without the variable
    ({"max_position_embeddings": 8192}, 4000, 1000, False),    # 5,000 <= 8,192: not needed
    ({}, 1024, 1024, False),                                   # 2,048 is not above the default 2,048
    ({}, 1024, 1025, True),
])
def test_env_prefix_follows_sglangs_derived_context(tmp_path, extra, isl, osl, env):
    argv = _predict(tmp_path, _mamba(**extra), isl, osl, 4)["launch"]["argv"]
    assert (argv[:2] == ["env", "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1"]) is env


def test_env_prefix_for_an_attention_model_whose_seq_length_is_shorter(tmp_path):
    """seq_length comes before max_position_embeddings in SGLang's order: 2,048 derived, --context-length 5,000."""
    cfg = _qwen35(max_position_embeddings=32768)
    cfg["seq_length"] = 2048
    argv = _predict(tmp_path, cfg, 4000, 1000, 4)["launch"]["argv"]
    assert argv[:2] == ["env", "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1"]


def test_max_total_tokens_is_per_attention_dp_worker(tmp_path):
    """Every attention-DP worker sizes its own token pool at --max-total-tokens and runs 64 // 2 = 32 requests."""
    import json
    import subprocess
    import sys
    d = tmp_path / "m"
    d.mkdir()
    (d / "config.json").write_text(json.dumps(_mamba()))
    out = json.loads(subprocess.run([sys.executable, "-m", "scorer", "predict", str(d), "--framework", "sglang",
                                     "--isl", "4000", "--osl", "1000", "--concurrency", "64", "--dp", "2",
                                     "--format", "json"], capture_output=True, text=True, check=True).stdout)
    argv = out["launch"]["argv"]
    assert int(argv[argv.index("--max-total-tokens") + 1]) == 32 * 5000


@pytest.mark.parametrize("arch", ["Mamba2ForCausalLM"])
def test_sglang_pure_mamba2_ignores_the_configs_ssm_dtype(arch):
    """configs/mamba2.py Mamba2Config.mamba2_cache_params builds Mamba2CacheParams without a dtype: float32."""
    from transformers import Mamba2Config
    cfg = Mamba2Config(hidden_size=1024, num_hidden_layers=4, num_heads=32, head_dim=64, n_groups=1,
                       state_size=128, vocab_size=32000).to_dict()
    cfg.update(architectures=[arch], torch_dtype="bfloat16", mamba_ssm_dtype="bfloat16")
    assert state_dtype_for(normalize(cfg), "sglang") == "bf16+fp32"


def test_sglang_reads_the_ssm_dtype_only_where_its_config_class_passes_itself():
    """A Kimi Linear (KDA, kimi_linear.py: KimiLinearCacheParams without a dtype) stays float32 under a bf16 key;
    Nemotron-H (nemotron_h.py: dtype=mamba2_state_dtype(self)) follows it."""
    from transformers import KimiLinearConfig, NemotronHConfig
    kimi = KimiLinearConfig(hidden_size=256, num_hidden_layers=4, num_attention_heads=4, num_key_value_heads=4,
                            vocab_size=1000).to_dict()
    kimi.update(architectures=["KimiLinearForCausalLM"], torch_dtype="bfloat16", mamba_ssm_dtype="bfloat16")
    assert state_dtype_for(normalize(kimi), "sglang") == "bf16+fp32"
    nh = NemotronHConfig(hidden_size=512, num_hidden_layers=4, hybrid_override_pattern="M*M*", mamba_num_heads=16,
                         mamba_head_dim=32, ssm_state_size=64, n_groups=2, conv_kernel=4, expand=1,
                         num_attention_heads=8, num_key_value_heads=2, head_dim=64, intermediate_size=1024,
                         vocab_size=1000, max_position_embeddings=4096).to_dict()
    nh.update(architectures=["NemotronHForCausalLM"], torch_dtype="bfloat16", mamba_ssm_dtype="bfloat16")
    assert state_dtype_for(normalize(nh), "sglang") == "bf16"


def test_sglang_wheel_lists_the_config_classes_that_read_the_ssm_dtype():
    """opt-in (DEPLOYSHEET_SGLANG_WHEEL): the config modules that pass dtype=mamba2_state_dtype(self) and their
    model types, re-read from the wheel, are the list's (lfm2.py's short convolution has no SSM state)."""
    import os
    import re
    import zipfile
    from scorer.kvcache import SGLANG_CONFIG_SSM_TYPES
    path = os.environ.get("DEPLOYSHEET_SGLANG_WHEEL")
    if not path:
        pytest.skip("set DEPLOYSHEET_SGLANG_WHEEL to the engine's wheel (pip download ... --no-deps) to re-read it")
    types = set()
    with zipfile.ZipFile(path) as z:
        for name in z.namelist():
            if not re.fullmatch(r"sglang/srt/configs/\w+\.py", name) or name.endswith(("/lfm2.py",)):
                continue
            src = z.read(name).decode()
            if "mamba2_state_dtype(self)" in src:
                types |= set(re.findall(r'model_type(?::\s*str)?\s*=\s*"(\w+)"', src))
        q35 = z.read("sglang/srt/configs/qwen3_5.py").decode() + z.read("sglang/srt/configs/qwen4_exp.py").decode()
    assert "(Qwen3NextConfig)" in q35  # their text configs inherit qwen3_next's cache params
    types |= {"qwen3_5_text", "qwen3_5_moe_text", "qwen4_exp_text"}
    assert types == set(SGLANG_CONFIG_SSM_TYPES)
