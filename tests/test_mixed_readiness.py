"""The kernel checks of a checkpoint served as stored follow each component's own stored format (rule Q1-Q5 per
GEMM): a component the checkpoint leaves 16-bit runs no quantized kernel and cannot refuse a TP degree, and a mixed
checkpoint's attention is checked at its format, not at the experts'. Before, every quantized GEMM was checked at the
checkpoint's main format: an NVFP4 checkpoint with BF16 attention was refused at TP 8 over an attention shape, and an
FP8-block attention beside NVFP4 experts passed a TP whose KV shard the block-FP8 kernels refuse.

Shapes and the divisibility each check needs are derived in the tests (vLLM 0.33.0 rules, scorer/quant.py docstring).
"""

from __future__ import annotations

import json
from pathlib import Path

from scorer.cli import main

# o_proj K = 16 heads x 68 = 1088; at TP 8 each rank's K is 136, and 136 % 16 = 8: ModelOptNvFp4LinearMethod raises
LLAMA = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 1088, "num_hidden_layers": 2,
         "num_attention_heads": 16, "num_key_value_heads": 8, "head_dim": 68, "intermediate_size": 4096,
         "vocab_size": 32000, "max_position_embeddings": 4096, "torch_dtype": "bfloat16", "rms_norm_eps": 1e-5}


def _modelopt_nvfp4(exclude):
    return {"producer": {"name": "modelopt", "version": "0.35.0"},
            "quantization": {"quant_algo": "NVFP4", "kv_cache_quant_algo": None, "group_size": 16,
                             "exclude_modules": exclude}}


def _sheet(tmp_path: Path, capsys, cfg: dict, sidecar: dict | None = None, name: str = "m") -> dict:
    d = tmp_path / name
    d.mkdir()
    (d / "config.json").write_text(json.dumps(cfg))
    if sidecar is not None:
        (d / "hf_quant_config.json").write_text(json.dumps(sidecar))
    assert main(["score", str(d), "--format", "json", "--no-recommendations"]) == 0
    return json.loads(capsys.readouterr().out)


def _predict(path: Path, capsys, *args: str) -> tuple[int, str]:
    rc = main(["predict", str(path), "--precision", "nvfp4", "--gpu", "B200", "--isl", "1024", "--osl", "128",
               "--concurrency", "1", *args])
    out = capsys.readouterr()
    return rc, out.out + out.err


def test_bf16_attention_of_an_nvfp4_checkpoint_does_not_refuse_a_tp(tmp_path, capsys):
    doc = _sheet(tmp_path, capsys, LLAMA, _modelopt_nvfp4(["lm_head", "model.layers.*.self_attn*"]), "excl")
    q = doc["quantization"]
    assert q["checkpoint"]["format"] == "nvfp4"
    assert 8 in q["checkpoint_tps"]["vllm"]  # only the MLP runs NVFP4 kernels: K 1088 and 4096 / 8 = 512, % 16 = 0
    row = next(e for e in q["matrix"] if e["format"] == "nvfp4" and e["tp"] == 8 and e["engine"] == "vllm")
    assert row["status"] != "not_ready"  # the matrix's row of the checkpoint's own format is the checkpoint as stored
    assert not [f for f in doc["findings"] if f["rule"] == "Q4" and f["severity"] == "HARD"]
    rc, _ = _predict(tmp_path / "excl", capsys, "--tp", "8")
    assert rc == 0

    doc = _sheet(tmp_path, capsys, LLAMA, _modelopt_nvfp4(["lm_head"]), "all")  # attention quantized too
    assert 8 not in doc["quantization"]["checkpoint_tps"]["vllm"]
    row = next(e for e in doc["quantization"]["matrix"] if e["format"] == "nvfp4" and e["tp"] == 8
               and e["engine"] == "vllm")
    assert row["status"] == "not_ready" and "o_proj" in row["reason"] and "136" in row["reason"]
    assert [f for f in doc["findings"] if f["rule"] == "Q4" and f["severity"] == "HARD"]
    rc, err = _predict(tmp_path / "all", capsys, "--tp", "8")
    assert rc == 2 and "o_proj" in err and "136" in err


# qwen3_moe with 4 KV heads of 64: at TP 4 each rank holds one KV head, a k/v output partition of 64; block FP8 needs
# every output partition % 128 (validate_fp8_block_shape), NVFP4 only N_p % 128 for its swizzle (q 256 + 64 + 64 = 384)
MOE = {"architectures": ["Qwen3MoeForCausalLM"], "model_type": "qwen3_moe", "hidden_size": 1024,
       "num_hidden_layers": 2, "num_attention_heads": 16, "num_key_value_heads": 4, "head_dim": 64,
       "moe_intermediate_size": 256, "intermediate_size": 3072, "num_experts": 8, "num_experts_per_tok": 2,
       "decoder_sparse_step": 1, "mlp_only_layers": [], "vocab_size": 32000, "tie_word_embeddings": False,
       "max_position_embeddings": 4096, "torch_dtype": "bfloat16", "rms_norm_eps": 1e-6}
FP8_BLOCK = {"num_bits": 8, "type": "float", "strategy": "block", "block_structure": [128, 128], "symmetric": True,
             "dynamic": False}
NVFP4 = {"num_bits": 4, "type": "float", "strategy": "tensor_group", "group_size": 16, "symmetric": True,
         "dynamic": False}


def _ct(attn_weights: dict) -> dict:
    return {**MOE, "quantization_config": {
        "quant_method": "compressed-tensors", "format": "mixed-precision", "ignore": ["lm_head", "re:.*mlp.gate$"],
        "config_groups": {"group_0": {"targets": ["re:.*self_attn.*"], "weights": attn_weights},
                          "group_1": {"targets": ["re:.*mlp.experts.*"], "weights": NVFP4}}}}


def test_fp8_block_attention_beside_nvfp4_experts_is_checked_at_fp8_block(tmp_path, capsys):
    doc = _sheet(tmp_path, capsys, _ct(FP8_BLOCK), name="mixed")
    row = next(e for e in doc["quantization"]["matrix"] if e["format"] == "nvfp4" and e["tp"] == 4
               and e["engine"] == "vllm")
    assert row["status"] == "not_ready" and row["reason"].endswith("(fp8_block weights, rule Q2)")
    ck = doc["quantization"]["checkpoint"]
    assert ck["format"] == "nvfp4" and ck["component_formats"]["attention"] == "fp8_block"
    tps = doc["quantization"]["checkpoint_tps"]["vllm"]
    assert 2 in tps and 4 not in tps  # TP 2: two KV heads a rank, partitions of 128; TP 4: one, 64 % 128 = 64
    rc, err = _predict(tmp_path / "mixed", capsys, "--tp", "4")
    assert rc == 2 and "64 % 128" in err and "fp8_block" in err

    doc = _sheet(tmp_path, capsys, _ct(NVFP4), name="nvfp4")  # the same checkpoint with NVFP4 attention runs at TP 4
    assert 4 in doc["quantization"]["checkpoint_tps"]["vllm"]


# Exclusion patterns name modules, not components: one that pins layers leaves the others quantized (and checked); one
# that names a projection in every layer leaves that projection 16-bit; "*" leaves everything 16-bit. A breaker trial
# found each read as something else (substring matching: "linear_attn" as attention, "mlp.gate_proj" as the router).

def test_exclusions_that_pin_a_layer_or_name_a_projection(tmp_path, capsys):
    def run(name, exclude):
        _sheet(tmp_path, capsys, LLAMA, _modelopt_nvfp4(exclude), name)
        return _predict(tmp_path / name, capsys, "--tp", "8")[0]
    assert run("layer0", ["lm_head", "model.layers.0.self_attn*"]) == 2  # layer 1's o_proj: K/TP 136, 136 % 16 = 8
    assert run("oproj", ["lm_head", "*o_proj*"]) == 0  # the blocker itself left 16-bit in every layer
    assert run("regex", ["lm_head", r"re:.*layers\.\d+\.self_attn.*"]) == 0  # a wildcard layer index: every layer


def test_exclude_everything_is_sized_at_16_bits(tmp_path, capsys):
    doc = _sheet(tmp_path, capsys, LLAMA, _modelopt_nvfp4(["*"]), "star")
    w = {x["precision"]: x["bytes"] for x in doc["weights"]}
    assert w["nvfp4"] == w["bf16"]
    o = _sheet(tmp_path, capsys, LLAMA, _modelopt_nvfp4(["lm_head", "*down_proj*"]), "down")
    w2 = {x["precision"]: x["bytes"] for x in o["weights"]}
    base = _sheet(tmp_path, capsys, LLAMA, _modelopt_nvfp4(["lm_head"]), "base")
    w3 = {x["precision"]: x["bytes"] for x in base["weights"]}
    down = 2 * 4096 * 1088  # two layers' down_proj weights, at 2 bytes instead of 0.5625 (data/precisions.json)
    assert abs(w2["nvfp4"] - w3["nvfp4"] - down * (2 - 0.5625)) <= 2


def test_exclusion_patterns_map_to_the_right_component():
    from scorer.costmodel import excluded_components as comps, excluded_projections as projs
    assert comps(["*linear_attn*"]) == {"recurrent"}
    # one projection named leaves only it unquantized (breaker round 10: o_proj excluded sized all attention
    # 16-bit); Nemotron-H's attention is a "mixer"
    assert comps(["backbone.layers.*.mixer.q_proj"]) == set()
    assert projs(["backbone.layers.*.mixer.q_proj"]) == {"attention/q_proj"}
    assert projs(["model.layers.*.mlp.experts.*.down_proj"]) == {"routed_experts/down_proj"}
    assert comps(["model.layers.*.mlp.gate"]) == {"router"} and comps(["re:.*mlp.gate$"]) == {"router"}
    assert comps(["*mlp.gate_proj*"]) == set() and projs(["*mlp.gate_proj*"]) == {"mlp/gate_proj"}
    assert projs(["*down_proj*"]) == {"down_proj"}  # no module path: every down_proj
    assert comps(["model.layers.*.mlp.*"]) == {"mlp", "routed_experts", "shared_experts"}
    assert comps(["model.layers.0.self_attn*"]) == set() and projs(["model.layers.0.mlp.down_proj"]) == set()
