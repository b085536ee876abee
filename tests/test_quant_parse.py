"""Checkpoint quantization configs are recognized (config.json quantization_config and hf_quant_config.json)."""

import pytest

from scorer.architecture import parse_quantization

CASES = [
    ({"quant_method": "fp8", "weight_block_size": [128, 128], "activation_scheme": "dynamic"},
     dict(format="fp8_block", block=[128, 128], weight_bits=8)),
    ({"quant_method": "fp8", "activation_scheme": "static"}, dict(format="fp8", activations="fp8-static")),
    ({"quant_method": "mxfp4", "modules_to_not_convert": ["model.layers.*.self_attn", "lm_head"]},
     dict(format="mxfp4", group_size=32, excluded=["model.layers.*.self_attn", "lm_head"])),
    ({"quant_method": "awq", "bits": 4, "group_size": 128, "version": "gemm", "zero_point": True},
     dict(format="int4", group_size=128, weight_bits=4)),
    # GPTQ 8-bit is weight-only: vLLM 0.33.0 auto_gptq.py TYPE_MAP (8, sym) -> uint8b128 on the Marlin WNA16 kernels
    ({"quant_method": "gptq", "bits": 8, "group_size": 32, "desc_act": False}, dict(format="w8a16", group_size=32)),
    ({"quant_method": "bitsandbytes", "load_in_4bit": True, "bnb_4bit_quant_type": "nf4"}, dict(format="nf4")),
    ({"quant_method": "bitsandbytes", "load_in_8bit": True}, dict(format="int8")),
    ({"quant_method": "compressed-tensors", "format": "nvfp4-pack-quantized",
      "config_groups": {"group_0": {"weights": {"num_bits": 4, "type": "float", "group_size": 16,
                                                "strategy": "tensor_group"},
                                    "input_activations": {"num_bits": 4, "type": "float", "dynamic": "local"}}},
      "ignore": ["lm_head"]}, dict(format="nvfp4", group_size=16, excluded=["lm_head"])),
    ({"quant_method": "compressed-tensors", "format": "float-quantized",
      "config_groups": {"g": {"weights": {"num_bits": 8, "type": "float", "strategy": "block",
                                          "block_structure": [128, 128]}}}},
     dict(format="fp8_block", block=[128, 128])),
    ({"quant_method": "compressed-tensors", "format": "pack-quantized",
      "config_groups": {"g": {"weights": {"num_bits": 4, "type": "int", "group_size": 128, "strategy": "group"},
                              "input_activations": None}}}, dict(format="int4", group_size=128, activations=None)),
    ({"quant_method": "modelopt", "quant_algo": "NVFP4", "group_size": 16, "kv_cache_quant_algo": "FP8"},
     dict(format="nvfp4", kv_cache_dtype="fp8")),
    ({"quant_method": "hqq"}, dict(format="unknown", method="hqq")),
]


@pytest.mark.parametrize("qc,expected", CASES)
def test_quantization_config_is_recognized(qc, expected):
    q = parse_quantization(qc, None)
    for k, v in expected.items():
        assert getattr(q, k) == v, (k, getattr(q, k))


def test_modelopt_sidecar_wins():
    side = {"producer": {"name": "modelopt", "version": "0.29"},
            "quantization": {"quant_algo": "FP8", "kv_cache_quant_algo": "FP8", "exclude_modules": ["lm_head"]}}
    q = parse_quantization(None, side)
    assert q.format == "fp8" and q.source == "hf_quant_config.json" and q.excluded == ["lm_head"]


def test_no_quantization():
    assert parse_quantization(None, None) is None


def test_a_quantization_config_without_its_method_is_bad_input(tmp_path, capsys):
    """vLLM 0.33.0 config/model.py _verify_quantization reads quant_cfg["quant_method"]: a typo (quant_methd) is a
    checkpoint no engine loads; one line naming the keys it holds, exit 2, nothing written."""
    import json as _json

    from scorer.cli import main
    from scorer.resources import data_dir
    cfg = _json.loads((data_dir() / "examples" / "llama-3.1-8b" / "config.json").read_text())
    cfg["quantization_config"] = {"quant_methd": "fp8", "activation_scheme": "dynamic"}
    d = tmp_path / "m"
    d.mkdir()
    (d / "config.json").write_text(_json.dumps(cfg))
    out = tmp_path / "s.md"
    assert main(["score", str(d), "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "no quant_method" in err and "quant_methd" in err and not out.exists()
