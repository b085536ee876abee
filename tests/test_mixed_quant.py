"""Mixed-precision checkpoints are sized per component: compressed-tensors config groups of several formats (each
group's ``targets``; a module no group targets stays unquantized: compressed-tensors' apply_quantization_config
quantizes the modules a group's targets match) and ModelOpt MIXED_PRECISION (``quantized_layers`` names each module
with its own quant_algo). Before, every quantized GEMM was sized at the first group's format: a Qwen3-30B-A3B with
FP8 attention and NVFP4 experts read 29.0 GiB instead of 17.2 GiB.

The expected bytes are derived here from a small qwen3_moe shape, component by component, with the bytes per weight
of data/precisions.json (fp8_channel 1.0, fp8 1.0, nvfp4 0.5625: a 1-byte FP8 scale per 16 weights).
"""

from __future__ import annotations

import json
from pathlib import Path

from scorer.cli import main

SHAPE = {"architectures": ["Qwen3MoeForCausalLM"], "model_type": "qwen3_moe", "hidden_size": 1024,
         "num_hidden_layers": 4, "num_attention_heads": 8, "num_key_value_heads": 4, "head_dim": 128,
         "moe_intermediate_size": 256, "intermediate_size": 3072, "num_experts": 16, "num_experts_per_tok": 2,
         "decoder_sparse_step": 1, "mlp_only_layers": [], "vocab_size": 32000, "tie_word_embeddings": False,
         "max_position_embeddings": 4096, "torch_dtype": "bfloat16", "rms_norm_eps": 1e-6}
LAYERS = 4
ATTN = LAYERS * (1024 * 8 * 128 + 2 * 1024 * 4 * 128 + 8 * 128 * 1024)  # q, k, v, o
EXPERTS = LAYERS * 16 * 3 * 1024 * 256  # gate, up, down of 16 experts
ROUTER = LAYERS * 1024 * 16
EMBED = 2 * 32000 * 1024  # embedding and an untied lm_head
NORMS = LAYERS * (2 * 1024 + 2 * 128) + 1024  # two RMSNorms and q/k norms per layer, the final norm
BYTES = json.loads((Path(__file__).resolve().parent.parent / "data" / "precisions.json").read_text())["precisions"]
W = {k: v["weight_bytes"] for k, v in BYTES.items()}

FP8_CHANNEL = {"num_bits": 8, "type": "float", "strategy": "channel", "symmetric": True, "dynamic": False}
NVFP4 = {"num_bits": 4, "type": "float", "strategy": "tensor_group", "group_size": 16, "symmetric": True,
         "dynamic": False}


def _weights(tmp_path: Path, capsys, cfg: dict, sidecar: dict | None = None) -> tuple[dict, dict]:
    d = tmp_path / "m"
    d.mkdir(exist_ok=True)
    (d / "config.json").write_text(json.dumps(cfg))
    if sidecar is not None:
        (d / "hf_quant_config.json").write_text(json.dumps(sidecar))
    assert main(["score", str(d), "--format", "json", "--no-recommendations"]) == 0
    doc = json.loads(capsys.readouterr().out)
    return doc, {w["precision"]: w["bytes"] for w in doc["weights"]}


def _ct(groups: dict, ignore: list[str]) -> dict:
    return {**SHAPE, "quantization_config": {"quant_method": "compressed-tensors", "format": "mixed-precision",
                                             "config_groups": groups, "ignore": ignore}}


def test_compressed_tensors_groups_of_two_formats_are_sized_per_component(tmp_path, capsys):
    doc, w = _weights(tmp_path, capsys, _ct({
        "group_0": {"targets": ["re:.*self_attn.*"], "weights": FP8_CHANNEL},
        "group_1": {"targets": ["re:.*mlp.experts.*"], "weights": NVFP4}}, ["lm_head", "re:.*mlp.gate$"]))
    assert doc["params"]["total"] == ATTN + EXPERTS + ROUTER + EMBED + NORMS  # the shape is read as derived
    expect = ATTN * W["fp8_channel"] + EXPERTS * W["nvfp4"] + (ROUTER + EMBED + NORMS) * 2
    assert abs(w["nvfp4"] - expect) <= 1, (w["nvfp4"], expect)  # the main format: the experts'
    ck = doc["quantization"]["checkpoint"]
    assert ck["format"] == "nvfp4" and ck["component_formats"]["attention"] == "fp8_channel"
    # the memory fit uses the same bytes (predict's weights per GPU at TP 1)
    assert main(["predict", str(tmp_path / "m"), "--isl", "1024", "--osl", "128", "--concurrency", "1"]) == 0
    assert abs(json.loads(capsys.readouterr().out)["weights_per_gpu_gib"] - expect / 2**30) < 0.006


def test_a_module_no_group_targets_stays_at_16_bits(tmp_path, capsys):
    _, w = _weights(tmp_path, capsys, _ct({
        "group_0": {"targets": ["re:.*self_attn.*"], "weights": FP8_CHANNEL},
        "group_1": {"targets": ["re:.*mlp.experts.0.*", "re:.*mlp.experts.*"], "weights": NVFP4}}, ["lm_head"]))
    assert abs(w["nvfp4"] - (ATTN * W["fp8_channel"] + EXPERTS * W["nvfp4"] + (ROUTER + EMBED + NORMS) * 2)) <= 1
    _, w = _weights(tmp_path, capsys, _ct({  # the experts only: attention is left in BF16
        "group_0": {"targets": ["re:.*mlp.experts.*"], "weights": NVFP4},
        "group_1": {"targets": ["re:.*linear_attn.*"], "weights": FP8_CHANNEL}}, ["lm_head"]))  # no such layer
    assert abs(w["nvfp4"] - (EXPERTS * W["nvfp4"] + (ATTN + ROUTER + EMBED + NORMS) * 2)) <= 1


def test_groups_of_one_format_or_unrecognized_targets_keep_the_single_format(tmp_path, capsys):
    doc, w = _weights(tmp_path, capsys, _ct({
        "group_0": {"targets": ["re:.*self_attn.*"], "weights": NVFP4},
        "group_1": {"targets": ["re:.*mlp.experts.*"], "weights": NVFP4}}, ["lm_head", "re:.*mlp.gate$"]))
    assert not doc["quantization"]["checkpoint"]["component_formats"]
    assert abs(w["nvfp4"] - ((ATTN + EXPERTS) * W["nvfp4"] + (ROUTER + EMBED + NORMS) * 2)) <= 1
    doc, _ = _weights(tmp_path, capsys, _ct({
        "group_0": {"targets": ["QuantizableThing"], "weights": FP8_CHANNEL},
        "group_1": {"targets": ["re:.*mlp.experts.*"], "weights": NVFP4}}, ["lm_head"]))
    assert not doc["quantization"]["checkpoint"]["component_formats"]  # not read: the previous single format


def test_modelopt_mixed_precision_is_sized_per_component(tmp_path, capsys):
    layers = {}
    for i in range(LAYERS):
        for m in ("q_proj", "k_proj", "v_proj", "o_proj"):
            layers[f"model.layers.{i}.self_attn.{m}"] = {"quant_algo": "FP8"}
        for e in range(16):
            for m in ("gate_proj", "up_proj", "down_proj"):
                layers[f"model.layers.{i}.mlp.experts.{e}.{m}"] = {"quant_algo": "NVFP4", "group_size": 16}
    sidecar = {"producer": {"name": "modelopt", "version": "0.35.0"},
               "quantization": {"quant_algo": "MIXED_PRECISION", "kv_cache_quant_algo": None,
                                "quantized_layers": layers, "exclude_modules": ["lm_head"]}}
    doc, w = _weights(tmp_path, capsys, SHAPE, sidecar)
    ck = doc["quantization"]["checkpoint"]
    assert ck["format"] == "nvfp4" and ck["component_formats"]["attention"] == "fp8"
    assert abs(w["nvfp4"] - (ATTN * W["fp8"] + EXPERTS * W["nvfp4"] + (ROUTER + EMBED + NORMS) * 2)) <= 1
    # a dense layer's MLP that quantized_layers does not list stays in BF16 (ModelOpt quantizes the listed ones)
    assert ck["component_formats"]["mlp"] == "bf16"
