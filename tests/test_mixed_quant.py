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


MAIN_EXPECT = ATTN * W["fp8_channel"] + EXPERTS * W["nvfp4"] + (ROUTER + EMBED + NORMS) * 2


def test_overlapping_targets_follow_compressed_tensors_precedence_not_group_order(tmp_path, capsys):
    # compressed-tensors 0.20.1 (utils/match.py match_targets): exact names, then re: patterns alphabetically, then
    # the class name Linear; the first matching target's group quantizes the module
    for groups in ({"a": {"targets": ["Linear"], "weights": FP8_CHANNEL},
                    "b": {"targets": ["re:.*mlp.experts.*"], "weights": NVFP4}},
                   {"b": {"targets": ["re:.*mlp.experts.*"], "weights": NVFP4},
                    "a": {"targets": ["Linear"], "weights": FP8_CHANNEL}},
                   {"a": {"targets": ["re:.*mlp.*", "re:.*self_attn.*"], "weights": FP8_CHANNEL},  # experts: the
                    "b": {"targets": ["re:.*experts.*"], "weights": NVFP4}}):  # alphabetically first pattern
        doc, w = _weights(tmp_path, capsys, _ct(groups, ["lm_head", "re:.*mlp.gate$"]))
        assert abs(w["nvfp4"] - MAIN_EXPECT) <= 1, groups
        assert doc["quantization"]["checkpoint"]["component_formats"]["routed_experts"] == "nvfp4"


def test_a_target_two_groups_list_is_the_later_groups_whatever_the_cache_holds(tmp_path, capsys):
    a = {"targets": ["re:.*self_attn.*", "re:.*mlp.experts.*"], "weights": FP8_CHANNEL}
    b = {"targets": ["re:.*mlp.experts.*"], "weights": NVFP4}
    _, first = _weights(tmp_path, capsys, _ct({"a": a, "b": b}, ["lm_head"]))  # experts: b's NVFP4
    _, second = _weights(tmp_path, capsys, _ct({"b": b, "a": a}, ["lm_head"]))  # experts: a's FP8
    assert abs(first["nvfp4"] - MAIN_EXPECT) <= 1
    assert abs(second["fp8_channel"] - ((ATTN + EXPERTS) * W["fp8_channel"] + (ROUTER + EMBED + NORMS) * 2)) <= 1


def test_ignored_parts_stay_16_bit_in_the_size_and_the_line(tmp_path, capsys):
    groups = {"a": {"targets": ["re:.*self_attn.*"], "weights": FP8_CHANNEL},
              "b": {"targets": ["re:.*mlp.experts.*"], "weights": NVFP4}}
    doc, w = _weights(tmp_path, capsys, _ct(groups, ["lm_head", "re:.*self_attn.*"]))
    assert doc["quantization"]["checkpoint"]["component_formats"]["attention"] == "bf16"
    assert abs(w["nvfp4"] - (EXPERTS * W["nvfp4"] + (ATTN + ROUTER + EMBED + NORMS) * 2)) <= 1
    doc, w = _weights(tmp_path, capsys, _ct(groups, ["lm_head", "re:.*mlp.experts.*"]))
    ck = doc["quantization"]["checkpoint"]
    assert ck["format"] == "fp8_channel" and ck["component_formats"]["routed_experts"] == "bf16"
    assert abs(w["fp8_channel"] - (ATTN * W["fp8_channel"] + (EXPERTS + ROUTER + EMBED + NORMS) * 2)) <= 1


def test_a_breakdown_not_made_is_a_finding_and_keeps_the_experts_format(tmp_path, capsys):
    groups = {"a": {"targets": ["model.layers.0.self_attn.q_proj"], "weights": FP8_CHANNEL},
              "b": {"targets": ["re:.*mlp.experts.*"], "weights": NVFP4}}
    doc, _ = _weights(tmp_path, capsys, _ct(groups, ["lm_head"]))
    ck = doc["quantization"]["checkpoint"]
    assert ck["format"] == "nvfp4" and not ck["component_formats"] and "names one module" in ck["component_unread"]
    q9 = [f for f in doc["findings"] if f["rule"] == "Q9"]
    assert [f["severity"] for f in q9] == ["FALLBACK"] and "estimated" in q9[0]["message"]
    out = tmp_path / "s.md"
    assert main(["score", str(tmp_path / "m"), "--no-recommendations", "-o", str(out)]) == 0
    assert "not the checkpoint's" not in out.read_text().splitlines()[2]  # it is sized, at the main format


def test_modelopt_main_format_is_the_mlps_on_a_dense_model(tmp_path, capsys):
    dense = {**SHAPE, "model_type": "qwen3", "architectures": ["Qwen3ForCausalLM"], "intermediate_size": 3072}
    for k in ("moe_intermediate_size", "num_experts", "num_experts_per_tok", "decoder_sparse_step", "mlp_only_layers"):
        dense.pop(k)
    layers = {f"model.layers.{i}.self_attn.{m}": {"quant_algo": "FP8"}
              for i in range(LAYERS) for m in ("q_proj", "k_proj", "v_proj", "o_proj")}
    layers |= {f"model.layers.{i}.mlp.{m}": {"quant_algo": "NVFP4", "group_size": 16}
               for i in range(LAYERS) for m in ("gate_proj", "up_proj", "down_proj")}
    layers["lm_head"] = {"quant_algo": "FP8"}  # a part recipes keep in 16 bits: no reason to drop the breakdown
    sidecar = {"quantization": {"quant_algo": "MIXED_PRECISION", "quantized_layers": layers}}
    doc, w = _weights(tmp_path, capsys, dense, sidecar)
    ck = doc["quantization"]["checkpoint"]
    assert ck["format"] == "nvfp4"  # FP8 is on more modules (4 a layer against 3), the MLP holds more weights
    mlp = LAYERS * 3 * 1024 * 3072
    assert abs(w["nvfp4"] - (ATTN * W["fp8"] + mlp * W["nvfp4"] + (EMBED + NORMS) * 2)) <= 1
