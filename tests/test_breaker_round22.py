"""Breaker round 22: the Transformers backend as an EAGLE-3 target, ModelOpt's embedded quantization layout,
compressed-tensors' compression_config, every MTP layer's KV, vLLM's legacy RoPE names."""

from __future__ import annotations

import json

from scorer.architecture import normalize
from scorer.cli import main
from scorer.resources import data_dir


def _llama() -> dict:
    return json.loads((data_dir() / "examples" / "llama-3.1-8b" / "config.json").read_text())


def _predict(tmp_path, capsys, cfg: dict, *flags) -> tuple[int, dict | str]:
    d = tmp_path / "m"
    d.mkdir(exist_ok=True)
    (d / "config.json").write_text(json.dumps(cfg))
    out = tmp_path / "p.json"
    rc = main(["predict", str(d), "--isl", "1024", "--osl", "256", "--concurrency", "8", "--format", "json",
               "-o", str(out), *flags])
    err = capsys.readouterr().err
    return rc, (json.loads(out.read_text()) if rc == 0 else err)


def test_sglang_transformers_backend_is_no_eagle3_target(tmp_path, capsys):
    """SmolLM3 has no SGLang class: it runs on the Transformers backend, whose classes (sglang 0.5.23
    models/transformers.py) define no set_eagle3_layers_to_capture, so attention_backend_setup.py raises; vLLM
    0.33.0's backend Base lists SupportsEagle3 (model_executor/models/transformers/base.py)."""
    cfg = {"architectures": ["SmolLM3ForCausalLM"], "model_type": "smollm3", "hidden_size": 1024,
           "intermediate_size": 2816, "num_attention_heads": 16, "num_key_value_heads": 4, "num_hidden_layers": 8,
           "vocab_size": 32000, "max_position_embeddings": 8192, "torch_dtype": "bfloat16",
           "no_rope_layer_interval": 4, "tie_word_embeddings": True}
    rc, err = _predict(tmp_path, capsys, cfg, "--framework", "sglang", "--speculative", "eagle3")
    assert rc == 2 and "cannot run EAGLE-3" in err
    rc, _ = _predict(tmp_path, capsys, cfg, "--framework", "vllm", "--speculative", "eagle3")
    assert rc == 0


def test_modelopt_layout_embedded_in_config_json():
    """vLLM 0.33.0 model_arch_config_convertor.py _normalize_quantization_config: a quantization_config with
    producer.name "modelopt" gets quant_method from quantization.quant_algo (FP8 -> modelopt)."""
    cfg = _llama()
    cfg["quantization_config"] = {"producer": {"name": "modelopt", "version": "0.29"},
                                  "quantization": {"quant_algo": "FP8", "kv_cache_quant_algo": "FP8"}}
    q = normalize(cfg).quantization
    assert q is not None and q.format == "fp8" and q.method == "modelopt"


def test_compression_config_is_the_quantization_config_when_it_is_absent():
    """vLLM 0.33.0 (same function): "compressed-tensors uses a 'compression_config' key" where quantization_config
    is None; SGLang 0.5.23 configs/model_config.py likewise. FP8 per channel weights."""
    cfg = _llama()
    cfg["compression_config"] = {
        "quant_method": "compressed-tensors", "format": "float-quantized",
        "config_groups": {"group_0": {"targets": ["Linear"],
                                      "weights": {"num_bits": 8, "type": "float", "strategy": "channel",
                                                  "symmetric": True, "dynamic": False},
                                      "input_activations": {"num_bits": 8, "type": "float", "strategy": "token",
                                                            "dynamic": True, "symmetric": True}}},
        "ignore": ["lm_head"]}
    q = normalize(cfg).quantization
    assert q is not None and q.format == "fp8_channel"


def test_every_mtp_layer_caches_kv():
    """SGLang 0.5.23 spec_aux_hidden_state.py sets eagle_draft_num_layers = num_nextn_predict_layers and
    pool_configurator.py adds a layer's cell per draft layer; vLLM deepseek_mtp.py builds every MTP layer. Three
    MTP layers of an MLA model: three latents (kv_lora 128 + rope 32 = 160 values, 2 B) a token."""
    from scorer.costmodel import CostModel, Layout, speculative_setting
    from scorer.hardware import get_gpu, get_precision
    from scorer.params import count_params
    from small_configs import small_deepseek_v3
    base = small_deepseek_v3()
    got = {}
    for n in (1, 3):
        arch = normalize(dict(base, num_nextn_predict_layers=n))
        cm = CostModel(arch, count_params(arch), get_gpu("H200-SXM"), get_precision("bf16"), Layout(tp=2),
                       framework="sglang", speculative=speculative_setting("mtp", arch, 1))
        plain = CostModel(arch, count_params(arch), get_gpu("H200-SXM"), get_precision("bf16"), Layout(tp=2),
                          framework="sglang")
        got[n] = cm.kv_bytes_per_sequence(1000, "window") - plain.kv_bytes_per_sequence(1000, "window")
    assert got == {1: 160 * 2 * 1000, 3: 3 * 160 * 2 * 1000}


def test_vllms_legacy_rope_names():
    """vLLM 0.33.0 transformers_utils/config.py rewrites telechat3-yarn to yarn (and su to longrope) before get_rope:
    no guess, and yarn's factor is not applied to max_model_len."""
    cfg = _llama()
    cfg.pop("rope_scaling", None)
    cfg["rope_parameters"] = {"rope_type": "telechat3-yarn", "factor": 4.0, "original_max_position_embeddings": 8192,
                              "rope_theta": 500000.0}
    arch = normalize(cfg)
    assert not any("rope_type" in g for g in arch.guesses)
    assert arch.context_limit == cfg["max_position_embeddings"]
