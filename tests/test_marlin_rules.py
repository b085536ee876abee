"""INT4 / INT8 weight-only (W4A16, W8A16) readiness and bytes as vLLM 0.33.0 and SGLang 0.5.23 run them.

Every expected status is derived here from the engines' source, quoted beside each case:

* vLLM 0.33.0 kernels/linear/mixed_precision/marlin.py ``MarlinLinearKernel.can_implement``: group size in
  [-1, 32, 64, 128]; "A group straddling TP ranks cannot be fixed by padding" (K_p % group with group < K is
  refused; Triton W4A16's ``K % eff_gs`` refuses it too); "Tile misalignment is fixed by zero-padding at weight prep"
  (quantization/utils/marlin_utils.py ``marlin_padded_nk``: (N % 64, K % 128) or (N % 128, K % 64), else padded);
* vLLM 0.33.0 marlin_utils.py ``check_moe_marlin_supports_config(allow_tile_padding=True)``: hidden % 128 and
  I_p % group; ``marlin_moe_padded_intermediate`` pads I_p to a multiple of 64; else auto_gptq.py / auto_awq.py fall
  back to moe_wna16.py, whose ``create_weights`` halves the group while it does not divide I_p or hidden and
  ``assert group_size >= 32``;
* SGLang 0.5.23 srt/layers/quantization/marlin_utils.py ``verify_marlin_supports_shape``: N_p % 64, K_p % 128,
  K_p % group (no tile padding for dense layers);
* vLLM 0.33.0 auto_gptq.py ``AutoGPTQConfig.TYPE_MAP`` {(4, True): uint4b8, (8, True): uint8b128} ("Unsupported
  quantization config" otherwise), ``verify_marlin_supported`` (group sizes), auto_awq.py TYPE_MAP {4: uint4}.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from scorer.cli import main
from scorer.gemms import Gemm
from scorer.quant import check

GIB = 2 ** 30
EXAMPLE = Path(__file__).resolve().parents[1] / "data" / "examples" / "llama-3.1-8b" / "config.json"


def _dense(name: str, k: int, n: int, shard: str) -> Gemm:
    return Gemm(name=name, component="mlp", k=k, n=n, count=1, active=1, shard=shard)


def _expert(name: str, k: int, n: int, shard: str, parts=()) -> Gemm:
    return Gemm(name=name, component="routed_experts", k=k, n=n, count=8, active=2, shard=shard, expert=True,
                parts=list(parts))


@pytest.mark.parametrize("k, n, shard, tp, group, vllm, sglang", [
    # down_proj of Llama-3-8B at TP8: K_p = 14336 / 8 = 1792 = 14 x 128, N = 4096: every check passes
    (14336, 4096, "row", 8, 128, "ready", "ready"),
    # Llama-2-7B down_proj at TP8: K_p = 11008 / 8 = 1376, 1376 % 128 = 96: a group of 128 straddles two ranks
    (11008, 4096, "row", 8, 128, "not_ready", "not_ready"),
    # the same at group 32: 1376 % 32 = 0, whole groups; 1376 % 128 = 96 and 1376 % 64 = 32 (N 4096 % 128 = 0), so
    # neither Marlin tile family fits: vLLM zero-pads K to 1408 (padded), SGLang's min_thread_k 128 refuses
    (11008, 4096, "row", 8, 32, "padded", "not_ready"),
    # a column split to N_p = 3840 / 8 = 480 (480 % 64 = 32), K = 2560 (% 128 = 0): vLLM pads N to 512, SGLang
    # refuses (min_thread_n 64)
    (2560, 3840, "column", 8, 128, "padded", "not_ready"),
    # per channel (group -1): no group constraint; K_p = 1376 again: vLLM pads, SGLang refuses on K_p % 128
    (11008, 4096, "row", 8, -1, "padded", "not_ready"),
])
def test_dense_w4a16_status_per_engine(k, n, shard, tp, group, vllm, sglang):
    g = _dense("mlp.down_proj" if shard == "row" else "mlp.gate_up_proj", k, n, shard)
    assert check("int4", "vllm", g, tp, group=group)[0] == vllm
    assert check("int4", "sglang", g, tp, group=group)[0] == sglang
    # W8A16 (GPTQ 8-bit) runs the same Marlin kernels (uint8b128) under the same shape rules
    assert check("w8a16", "vllm", g, tp, group=group)[0] == vllm


@pytest.mark.parametrize("width, tp, status, why", [
    # Qwen3-235B's experts (1536) at TP8: I_p = 192, 192 % 128 = 64: Marlin MoE refuses; WNA16 halves 128 -> 64,
    # 192 % 64 = 0 and 4096 % 64 = 0: runs (padded: the slower fallback kernel)
    (1536, 8, "padded", "at group 64"),
    # TP4: I_p = 384 = 3 x 128: fused Marlin MoE, 384 % 64 = 0: ready
    (1536, 4, "ready", None),
    # DeepSeek-V2-Lite's 1408 at TP8: I_p = 176; 176 % 128 = 48, % 64 = 48, % 32 = 16: no group of 32 or more
    (1408, 8, "not_ready", "group_size >= 32"),
    # 1408 at TP2: I_p = 704, 704 % 128 = 64 -> WNA16 at group 64 (704 % 64 = 0)
    (1408, 2, "padded", "at group 64"),
    # 1344 at group 64, TP2: I_p = 672, 672 % 64 = 32: Marlin MoE refuses (I_p % group), WNA16 halves the group
    # to 32 (672 % 32 = 0, 4096 % 32 = 0) and runs
    (1344, 2, "padded", "at group 32"),
])
def test_routed_experts_w4a16_marlin_moe_or_wna16(width, tp, status, why):
    group = 64 if width == 1344 else 128
    hidden = 4096
    down = _expert("moe.experts.down_proj", width, hidden, "row")
    gate_up = _expert("moe.experts.gate_up_proj", hidden, 2 * width, "column", parts=(width, width))
    for g in (down, gate_up):
        got, reason = check("int4", "vllm", g, tp, group=group)
        assert got == status, (g.name, reason)
        if why:
            assert why in reason
    # expert parallelism keeps the expert whole: width % 128 == 0 (1536, 1408) runs fused Marlin MoE
    if width % 128 == 0:
        assert check("int4", "vllm", down, tp, ep=True, group=group)[0] == "ready"


def test_expert_width_tile_padding_without_a_group_straddle():
    """Experts 1600 wide at TP1, group 32: 1600 % 32 = 0 (whole groups, fused Marlin MoE takes it), 1600 % 64 = 0;
    at TP2 I_p = 800: 800 % 32 = 0 but 800 % 64 = 32: marlin_moe_padded_intermediate pads it to 832 (padded)."""
    down = _expert("moe.experts.down_proj", 1600, 4096, "row")
    assert check("int4", "vllm", down, 1, group=32)[0] == "ready"
    status, reason = check("int4", "vllm", down, 2, group=32)
    assert status == "padded" and "800 % 64 = 32" in reason


def _write(tmp_path: Path, name: str, qc: dict) -> str:
    cfg = json.loads(EXAMPLE.read_text())
    cfg = copy.deepcopy(cfg)
    cfg["quantization_config"] = qc
    p = tmp_path / f"{name}.json"
    p.write_text(json.dumps(cfg))
    return str(p)


def _sheet(capsys, src: str) -> dict:
    assert main(["score", src, "--format", "json", "--no-recommendations"]) == 0
    return json.loads(capsys.readouterr().out)


def _gemm_and_embedding_elements() -> tuple[int, int]:
    """Llama-3.1-8B from its config: GEMM weights of the 32 layers, and the embedding plus untied lm_head."""
    c = json.loads(EXAMPLE.read_text())
    h, i, layers, vocab = c["hidden_size"], c["intermediate_size"], c["num_hidden_layers"], c["vocab_size"]
    hd = h // c["num_attention_heads"]
    kv = c["num_key_value_heads"] * hd
    attn = h * h + 2 * h * kv + h * h  # q, k, v, o
    mlp = 3 * h * i
    return layers * (attn + mlp), 2 * vocab * h


def test_gptq_8bit_is_weight_only_w8a16_with_its_scales_and_zeros(tmp_path, capsys):
    """GPTQ 8-bit, group 128: weights 1 byte, an fp16 scale and an 8-bit zero (qzeros int32 packs 4) per 128 weights
    of a column: 1 + 3 / 128 bytes a weight; weight-only, so the sheet names W8A16, not W8A8 int8."""
    src = _write(tmp_path, "gptq8", {"quant_method": "gptq", "bits": 8, "group_size": 128, "sym": True,
                                     "desc_act": False})
    sheet = _sheet(capsys, src)
    assert sheet["quantization"]["checkpoint"]["format"] == "w8a16"
    assert sheet["quantization"]["checkpoint_row"] == "w8a16"
    gemm, emb = _gemm_and_embedding_elements()
    expected = (gemm * (1 + 3 / 128) + emb * 2) / GIB
    assert main(["predict", src, "--isl", "1024", "--osl", "128", "--concurrency", "1"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["precision"] == "w8a16"
    assert abs(out["weights_per_gpu_gib"] - expected) < 0.006, (out["weights_per_gpu_gib"], expected)


@pytest.mark.parametrize("bits, precision, per_weight", [
    # int8 weights, no input_activations: W8A16 (vLLM 0.33.0 compressed_tensors_wNa16), one byte a weight
    (8, "w8a16", 1.0),
    # int4 per channel: half a byte, not the catalog's group-128 rate (0.5195)
    (4, "int4", 0.5),
])
def test_compressed_tensors_per_channel_integer_weights(tmp_path, capsys, bits, precision, per_weight):
    """compressed-tensors symmetric integer weights, channel strategy: bits / 8 bytes a weight (the per-channel fp16
    scale, 2 / K bytes a weight, is not counted; a symmetric checkpoint stores no zero points)."""
    qc = {"quant_method": "compressed-tensors", "format": "pack-quantized", "ignore": ["lm_head"],
          "config_groups": {"group_0": {"targets": ["Linear"], "weights": {
              "num_bits": bits, "type": "int", "symmetric": True, "strategy": "channel"}}}}
    src = _write(tmp_path, f"ct{bits}", qc)
    assert main(["predict", src, "--isl", "1024", "--osl", "128", "--concurrency", "1"]) == 0
    out = json.loads(capsys.readouterr().out)
    gemm, emb = _gemm_and_embedding_elements()
    assert out["precision"] == precision
    assert abs(out["weights_per_gpu_gib"] - (gemm * per_weight + emb * 2) / GIB) < 0.006


@pytest.mark.parametrize("qc, needle", [
    ({"quant_method": "gptq", "bits": 4, "group_size": 128, "sym": False, "desc_act": False}, "sym=false"),
    ({"quant_method": "gptq", "bits": 3, "group_size": 128, "sym": True, "desc_act": False}, "bits=3"),
    ({"quant_method": "gptq", "bits": 4, "group_size": 256, "sym": True, "desc_act": False}, "group_size 256"),
    ({"quant_method": "awq", "bits": 8, "group_size": 128, "zero_point": True}, "8-bit"),
])
def test_vllm_refuses_gptq_and_awq_checkpoints_its_loaders_do_not_take(tmp_path, capsys, qc, needle):
    """The checkpoint as stored does not load (rule Q10): predict says so and predicts another export, the sheet's
    header names the blocker, and the checkpoint runs at no TP on vLLM."""
    src = _write(tmp_path, "q", qc)
    assert main(["predict", src, "--framework", "vllm", "--isl", "1024", "--osl", "128", "--concurrency", "1"]) == 0
    notes = json.loads(capsys.readouterr().out)["notes"]
    assert any("vllm 0.33.0 has no kernel for this" in n and needle in n and "another export" in n for n in notes)
    sheet = _sheet(capsys, src)
    assert "vllm" in sheet["quantization"]["checkpoint_refused_by"]
    assert needle in sheet["quantization"]["checkpoint_refused_by"]["vllm"]
    assert not sheet["quantization"]["checkpoint_tps"].get("vllm")
    # SGLang 0.5.23 falls back to its non-Marlin GPTQ / AWQ kernels: not refused on these grounds
    assert "sglang" not in sheet["quantization"]["checkpoint_refused_by"]


def test_vllm_loads_symmetric_gptq_4_and_8_bit(tmp_path, capsys):
    for bits in (4, 8):
        src = _write(tmp_path, f"g{bits}", {"quant_method": "gptq", "bits": bits, "group_size": 128, "sym": True,
                                            "desc_act": False})
        assert main(["predict", src, "--framework", "vllm", "--isl", "1024", "--osl", "128",
                     "--concurrency", "1"]) == 0
        capsys.readouterr()


def test_modelopt_int4_awq_stores_no_zero_points(tmp_path, capsys):
    """ModelOpt W4A16_AWQ (hf_quant_config.json quant_algo, group 128): packed int4 and an fp16 scale per group, no
    zero points: 0.5 + 2 / 128 bytes a weight (GPTQ / AWQ's qzeros would add 0.5 / 128)."""
    src = _write(tmp_path, "mo", {"quant_method": "modelopt", "quant_algo": "W4A16_AWQ", "group_size": 128,
                                  "exclude_modules": ["lm_head"]})
    assert main(["predict", src, "--isl", "1024", "--osl", "128", "--concurrency", "1"]) == 0
    out = json.loads(capsys.readouterr().out)
    gemm, emb = _gemm_and_embedding_elements()
    assert out["precision"] == "int4"
    assert abs(out["weights_per_gpu_gib"] - (gemm * (0.5 + 2 / 128) + emb * 2) / GIB) < 0.003


@pytest.mark.parametrize("dynamic, estimated", [
    # layers 10-15 at 8 bits (GPTQModel's documented example): not one format, sized at the base 4 bits: estimated
    ({r"+:.*\.(?:1[0-5])\..*": {"bits": 8}}, True),
    # a bare regex is a positive rule too; a group size override changes the scale bytes
    ({r".*\.mlp\..*": {"group_size": 32}}, True),
    # a skip ("-:") is an exclusion, read as such; a rule repeating the base bits changes nothing
    ({r"-:.*lm_head": {}, r"+:.*mlp.*": {"bits": 4}}, False),
])
def test_gptq_dynamic_per_module_overrides_are_labelled_estimated(tmp_path, capsys, dynamic, estimated):
    src = _write(tmp_path, "dyn", {"quant_method": "gptq", "bits": 4, "group_size": 128, "sym": True,
                                   "desc_act": False, "dynamic": dynamic})
    sheet = _sheet(capsys, src)
    q9 = [f for f in sheet["findings"] if f["rule"] == "Q9" and "GPTQ dynamic" in f["message"]]
    assert bool(q9) == estimated, q9
