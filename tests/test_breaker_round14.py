"""Breaker round 14: FP8 block, MXFP4 dense and compressed-tensors INT8 MoE as vLLM 0.33.0 and SGLang 0.5.23 load
and run them. Expected values are derived here from the engines' source, quoted beside each case:

* vLLM 0.33.0 quantization/utils/fp8_utils.py ``validate_fp8_block_shape``: ``block_n, block_k = block_size``
  (the checkpoint's ``weight_block_size``); a row split needs K_p % block_k, a column split or merged GEMM every
  output partition % block_n; quantization/fp8.py: activations in (1, block_n) groups; kernels/linear/scaled_mm/
  cutlass.py and deep_gemm.py ``can_implement``: "Supports only ... group_shape=(1,128)" (else Triton);
  ``create_fp8_scale_parameter``: one float32 scale per block;
* vLLM 0.33.0 and SGLang 0.5.23 ``Fp8Config.__init__``: "The block-wise quantization only supports dynamic
  activation scheme";
* vLLM 0.33.0 quantization/online/mxfp4.py ``Mxfp4OnlineLinearMethod.create_weights``: input_size_per_partition
  % 32 or it raises; config/quantization.py: the ``mxfp4`` shorthand quantizes ``linear`` and ``moe``;
* vLLM 0.33.0 compressed_tensors_moe.py: INT8 MoE only through ``_is_dynamic_token_w8a8`` (token, dynamic input)
  and compressed_tensors_moe_w8a8_int8.py (CHANNEL weights), else "Unsupported FusedMoe scheme"; SGLang 0.5.23
  compressed_tensors.py: "The W8A8Int8 Fused MoE scheme is implemented only for NPU for now."
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorer.cli import main

EXAMPLES = Path(__file__).resolve().parents[1] / "data" / "examples"


def _score(tmp_path: Path, name: str, quant: dict | None, capsys, *extra: str, **over) -> dict:
    cfg = json.loads((EXAMPLES / name / "config.json").read_text())
    cfg.update(over)
    if quant is not None:
        cfg["quantization_config"] = quant
    d = tmp_path / name
    d.mkdir(exist_ok=True)
    (d / "config.json").write_text(json.dumps(cfg))
    out = tmp_path / f"{name}.json"
    assert main(["score", str(d), "--format", "json", "-o", str(out), *extra]) == 0
    capsys.readouterr()
    return json.loads(out.read_text())


def _status(sheet: dict, fmt: str, engine: str, tp: int) -> tuple[str, str]:
    e = next(e for e in sheet["quantization"]["matrix"] if e["format"] == fmt and e["engine"] == engine
             and e["tp"] == tp)
    return e["status"], e.get("reason") or ""


def _fp8(block, scheme="dynamic") -> dict:
    return {"quant_method": "fp8", "weight_block_size": block, "activation_scheme": scheme}


def test_fp8_block_checks_use_the_checkpoints_block(tmp_path, capsys):
    # Qwen3-4B: intermediate 9728; gate_up at TP8 is a column split to 9728 / 8 = 1216 per part:
    # 1216 % 128 = 64 refuses 128x128, 1216 % 64 = 0 passes 64x64 (which then misses CUTLASS / DeepGEMM: Triton)
    b128 = _score(tmp_path, "qwen3-4b", _fp8([128, 128]), capsys)
    b64 = _score(tmp_path, "qwen3-4b", _fp8([64, 64]), capsys)
    st, why = _status(b128, "fp8_block", "vllm", 8)
    assert st == "not_ready" and "1216 % 128 = 64" in why
    st, why = _status(b64, "fp8_block", "vllm", 8)
    assert st == "padded" and "64x64" in why
    assert 8 in b64["quantization"]["checkpoint_tps"]["vllm"] and 8 not in b128["quantization"]["checkpoint_tps"]["vllm"]
    # online fp8_block (no checkpoint block) stays at 128x128
    online = _score(tmp_path, "qwen3-4b", None, capsys)
    assert _status(online, "fp8_block", "vllm", 8)[0] == "not_ready"


def _quantized_params_qwen3_4b() -> int:
    # Qwen3-4B: 36 layers, hidden 2560, 32 query heads and 8 KV heads of 128, MLP 9728 (gate, up, down); the tied
    # embedding / lm_head is not quantized
    h, q, kv, i, layers = 2560, 32 * 128, 8 * 128, 9728, 36
    return layers * (h * q + 2 * h * kv + q * h + 3 * h * i)


def test_fp8_block_bytes_follow_the_block(tmp_path, capsys):
    # one float32 scale per block: 1 + 4 / (block_n * block_k) bytes a weight
    wide = _score(tmp_path, "qwen3-4b", _fp8([128, 128]), capsys)
    row = _score(tmp_path, "qwen3-4b", _fp8([1, 128]), capsys)

    def weights(sheet):
        return next(w for w in sheet["weights"] if w["precision"] == "fp8_block")
    a, b = weights(wide), weights(row)
    want = _quantized_params_qwen3_4b() * (4 / 128 - 4 / (128 * 128))
    assert b["bytes"] - a["bytes"] == pytest.approx(want, rel=1e-6)
    assert a["label"] == "FP8 block 128x128" and b["label"] == "FP8 block 1x128"


def test_block_fp8_with_static_activations_is_refused(tmp_path, capsys):
    s = _score(tmp_path, "qwen3-4b", _fp8([128, 128], "static"), capsys)
    refused = s["quantization"]["checkpoint_refused_by"]
    assert set(refused) == {"vllm", "sglang"}  # TensorRT-LLM's loader is not read: nothing said of it
    assert "static activation" in refused["vllm"] and "Q10" in refused["vllm"]
    assert s["quantization"]["checkpoint_tps"]["vllm"] == [] and s["quantization"]["checkpoint_tps"]["sglang"] == []


def _ct_int8(w_strategy: str, a_strategy: str, dynamic: bool) -> dict:
    return {"quant_method": "compressed-tensors", "format": "int-quantized", "ignore": ["lm_head"],
            "config_groups": {"group_0": {
                "targets": ["Linear"],
                "weights": {"num_bits": 8, "type": "int", "symmetric": True, "strategy": w_strategy,
                            "dynamic": False},
                "input_activations": {"num_bits": 8, "type": "int", "symmetric": True, "strategy": a_strategy,
                                      "dynamic": dynamic}}}}


@pytest.mark.parametrize("w, a, dyn, vllm_loads", [
    ("channel", "token", True, True),     # the one scheme vLLM's INT8 fused MoE takes
    ("channel", "tensor", False, False),  # static per-tensor activations: "Unsupported FusedMoe scheme"
    ("tensor", "token", True, False),     # per-tensor weights: CompressedTensorsW8A8Int8MoEMethod raises
])
def test_compressed_tensors_int8_moe(tmp_path, capsys, w, a, dyn, vllm_loads):
    s = _score(tmp_path, "mixtral-8x7b", _ct_int8(w, a, dyn), capsys)
    refused = s["quantization"]["checkpoint_refused_by"]
    assert "sglang" in refused and "NPU" in refused["sglang"]  # SGLang: no INT8 fused MoE on GPUs
    assert ("vllm" not in refused) == vllm_loads
    assert (s["quantization"]["checkpoint_tps"]["vllm"] != []) == vllm_loads


def test_compressed_tensors_int8_dense_model_is_not_refused(tmp_path, capsys):
    # the MoE rule is about routed experts: a dense model at the same (static per-tensor) scheme loads
    s = _score(tmp_path, "llama-3.1-8b", _ct_int8("channel", "tensor", False), capsys)
    assert "vllm" not in s["quantization"]["checkpoint_refused_by"]


def test_dense_mxfp4_runs_online(tmp_path, capsys):
    # Llama-3.1-8B at online MXFP4: K_p of every linear at TP1-8 is a multiple of 32 (4096, 14336 / 8 = 1792) and
    # every N_p a multiple of 128: ready
    s = _score(tmp_path, "llama-3.1-8b", None, capsys)
    assert [_status(s, "mxfp4", "vllm", tp)[0] for tp in (1, 2, 4, 8)] == ["ready"] * 4
    # intermediate 14352 (= 32 x 448 + 16): down_proj's K = 14352, 14352 % 32 = 16 even at TP1
    odd = _score(tmp_path, "llama-3.1-8b", None, capsys, intermediate_size=14352)
    st, why = _status(odd, "mxfp4", "vllm", 1)
    assert st == "not_ready" and "14352 % 32 = 16" in why


def test_gpt_oss_mxfp4_checkpoint_still_quantizes_experts_only(tmp_path, capsys):
    # gpt-oss's Mxfp4Config leaves attention 16-bit: no dense check applies to the checkpoint as stored; its
    # experts (hidden 2880, not a multiple of 256) are padded
    s = _score(tmp_path, "gpt-oss-20b", None, capsys)
    st, why = _status(s, "mxfp4", "vllm", 1)
    assert st == "padded" and "attn" not in why
    assert s["quantization"]["checkpoint_tps"]["vllm"]


def _exit(tmp_path: Path, name: str, capsys, quant: dict | None = None, sidecar: dict | None = None, **over) -> tuple[int, str]:
    cfg = json.loads((EXAMPLES / name / "config.json").read_text())
    cfg.update(over)
    if quant is not None:
        cfg["quantization_config"] = quant
    d = tmp_path / "bad"
    d.mkdir(exist_ok=True)
    (d / "config.json").write_text(json.dumps(cfg))
    if sidecar is not None:
        (d / "hf_quant_config.json").write_text(json.dumps(sidecar))
    out = tmp_path / "bad.json"
    rc = main(["score", str(d), "--format", "json", "-o", str(out)])
    err = capsys.readouterr().err
    assert rc != 0 or out.exists()
    if rc:
        assert not out.exists()  # nothing written half-way
    return rc, err


@pytest.mark.parametrize("block", [[128.5, 128], [127.9, 128.9], [True, True], "128", [128, 128, 128], [0, 128]])
def test_weight_block_size_must_be_two_integers(tmp_path, capsys, block):
    # vLLM / SGLang Fp8Config: "The quantization block size of weight must have 2 dimensions"; a float or a bool
    # is no block size: bad input (exit 2), never truncated or dropped to per-tensor FP8
    rc, err = _exit(tmp_path, "qwen3-4b", capsys, _fp8(block))
    assert rc == 2 and "weight_block_size" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("gs", [16.9, True, 0])
def test_modelopt_group_size_is_validated_not_truncated(tmp_path, capsys, gs):
    side = {"quantization": {"quant_algo": "NVFP4", "group_size": gs, "exclude_modules": ["lm_head"]}}
    rc, err = _exit(tmp_path, "qwen3-4b", capsys, sidecar=side)
    assert rc == 2 and "group_size" in err


def test_modelopt_fp8_block_three_dims_is_refused(tmp_path, capsys):
    side = {"quantization": {"quant_algo": "FP8", "weight_block_size": [128, 128, 128]}}
    rc, err = _exit(tmp_path, "qwen3-4b", capsys, sidecar=side)
    assert rc == 2 and "weight_block_size" in err


def test_mixtral_with_zero_experts_is_refused(tmp_path, capsys):
    # MixtralDecoderLayer builds MixtralSparseMoeBlock whatever num_local_experts says (transformers 5.24.0
    # modeling_mixtral.py): zero experts are no dense model (it would be counted 7.24 B "exact")
    rc, err = _exit(tmp_path, "mixtral-8x7b", capsys, num_local_experts=0)
    assert rc == 2 and "num_local_experts = 0" in err


def test_gpt_oss_mxfp4_experts_are_sized_at_vllms_rounded_shapes(tmp_path, capsys):
    """vLLM 0.33.0 rounds a gpt-oss MXFP4 checkpoint's expert sizes up before allocating them
    (fused_moe/oracle/mxfp4.py mxfp4_round_up_hidden_size_and_intermediate_size): on SM100 its first backend,
    FlashInfer TRTLLM, takes I to a multiple of 128 and hidden to 256; on SM90 Triton takes I to 64 only.
    gpt-oss-20b: hidden 2880, expert width 2880, 32 experts, 24 layers, 0.53125 B a weight (4 bits + an E8M0
    scale per 32). At TP1 the H100 adds nothing (2880 = 45 x 64); the B200's extra bytes, per expert per layer:
    gate_up 3072 x (2 x 2944) - 2880 x 5760, down 2944 x 3072 - 2880 x 2880."""
    b200 = _score(tmp_path, "gpt-oss-20b", None, capsys, "--gpu", "B200")
    h100 = _score(tmp_path, "gpt-oss-20b", None, capsys, "--gpu", "H100-SXM")
    per_expert = (3072 * 2 * 2944 - 2880 * 5760) + (2944 * 3072 - 2880 * 2880)
    extra_gib = per_expert * 32 * 24 * 0.53125 / 2 ** 30

    def tp1(sheet):
        return next(c["weights_per_gpu_gib"] for c in sheet["capacity"] if c["tp"] == 1)
    assert tp1(b200) - tp1(h100) == pytest.approx(extra_gib, abs=0.011)
    assert extra_gib > 0.8


def test_predict_follows_the_checkpoints_block(tmp_path, capsys):
    """predict's engine blocker runs the matrix's checks: Qwen3-4B at 64x64 blocks runs at TP8 (1216 % 64 = 0),
    at 128x128 it is refused (exit 2, 1216 % 128 = 64)."""
    for block, rc in (([64, 64], 0), ([128, 128], 2)):
        cfg = json.loads((EXAMPLES / "qwen3-4b" / "config.json").read_text())
        cfg["quantization_config"] = _fp8(block)
        d = tmp_path / f"q{block[0]}"
        d.mkdir()
        (d / "config.json").write_text(json.dumps(cfg))
        got = main(["predict", str(d), "--gpu", "H100-SXM", "--tp", "8", "--precision", "fp8_block", "--isl", "128",
                    "--osl", "128", "--concurrency", "4"])
        err = capsys.readouterr().err
        assert got == rc, err
        if rc:
            assert "1216 % 128 = 64" in err


def test_config_json_quantization_wins_over_the_sidecar(tmp_path, capsys):
    """vLLM 0.33.0 model_loader/weight_utils.py get_quant_config reads config.json's quantization_config first and
    hf_quant_config.json only where config.json names none (or names ModelOpt without its algorithm)."""
    side = {"quantization": {"quant_algo": "NVFP4", "group_size": 16}}
    for qc, fmt, src in ((_fp8([128, 128]), "fp8_block", "config.json quantization_config"),
                         ({"quant_method": "modelopt"}, "nvfp4", "hf_quant_config.json"),
                         (None, "nvfp4", "hf_quant_config.json")):
        cfg = json.loads((EXAMPLES / "qwen3-4b" / "config.json").read_text())
        cfg.pop("quantization_config", None)
        if qc is not None:
            cfg["quantization_config"] = qc
        d = tmp_path / f"c{fmt}{src[:4]}{qc is None}"
        d.mkdir()
        (d / "config.json").write_text(json.dumps(cfg))
        (d / "hf_quant_config.json").write_text(json.dumps(side))
        out = tmp_path / "o.json"
        assert main(["score", str(d), "--format", "json", "-o", str(out)]) == 0
        capsys.readouterr()
        ck = json.loads(out.read_text())["quantization"]["checkpoint"]
        assert (ck["format"], ck["source"]) == (fmt, src)


@pytest.mark.parametrize("text", ["٣", "1_0", "３"])
def test_token_counts_are_ascii_digits(capsys, text):
    # int() reads Arabic-Indic and full-width digits and underscores; --concurrency refuses them, so do --isl / --osl
    assert main(["predict", "example:qwen3-4b", "--isl", text, "--osl", "10", "--concurrency", "1"]) == 2
    assert "not an integer" in capsys.readouterr().err


def test_empty_calibration_path_is_named(capsys):
    assert main(["predict", "example:qwen3-4b", "--isl", "3", "--osl", "3", "--concurrency", "1",
                 "--calibration", ""]) == 2
    assert "empty path" in capsys.readouterr().err


def test_dry_run_does_not_create_missing_parents(tmp_path):
    from bot.post import write_dry_run
    from scorer.errors import BadInputError
    with pytest.raises(BadInputError, match="does not exist"):
        write_dry_run(tmp_path / "missing" / "out", {"a.md": b"x"})
    assert not (tmp_path / "missing").exists()
    write_dry_run(tmp_path / "out", {"a.md": b"x"})  # the folder itself is made, inside an existing one
    assert (tmp_path / "out" / "a.md").read_bytes() == b"x"


def test_assumptions_keep_a_paths_case():
    from scorer.sheet import _sentence
    assert _sentence("fs/adapter holds a PEFT adapter") == "fs/adapter holds a PEFT adapter."
    assert _sentence("the weights are read") == "The weights are read."


def test_fp8_block_moe_block_k_is_checked_under_ep():
    """vLLM 0.33.0 validate_fp8_block_shape_moe checks I_p % block_k whenever its TP world size is above 1, whole
    experts under EP included: Qwen3-30B-A3B's expert width 768 at [256, 512] blocks, TP2 EP2: I_p = 768,
    768 % 256 = 0 but 768 % 512 = 256 -> refused; at TP1 (world size 1) only block_n is checked."""
    from scorer.gemms import Gemm
    from scorer.quant import check
    down = Gemm(name="moe.experts.down_proj", component="routed_experts", k=768, n=2048, count=128, active=8,
                shard="row", expert=True)
    st, why = check("fp8_block", "vllm", down, 2, ep=True, block=(256, 512))
    assert st == "not_ready" and "768 % 512 = 256" in why
    assert check("fp8_block", "vllm", down, 1, ep=True, block=(256, 512))[0] != "not_ready"


@pytest.mark.parametrize("gpu", ["A100-SXM-80GB", "MI300X"])
def test_gpt_oss_expert_padding_on_marlin_and_rocm(tmp_path, capsys, gpu):
    """SM80: vLLM's gpt-oss MXFP4 MoE runs Marlin (TRITON needs SM90): I to 128, hidden to 256, the B200's rounding;
    ROCm: Triton in the is_rocm() branch rounds I and hidden to 256 (swigluoai is not SiTU / SiLU). gpt-oss-20b at
    TP1, extra elements per expert per layer (hidden 2880, width 2880), 32 experts, 24 layers, 0.53125 B each."""
    rounded = {"A100-SXM-80GB": (2944, 3072), "MI300X": (3072, 3072)}[gpu]
    i, h = rounded
    per_expert = (h * 2 * i - 2880 * 5760) + (i * h - 2880 * 2880)
    sheet = _score(tmp_path, "gpt-oss-20b", None, capsys, "--gpu", gpu)
    h100 = _score(tmp_path, "gpt-oss-20b", None, capsys, "--gpu", "H100-SXM")

    def tp1(s):
        return next(c["weights_per_gpu_gib"] for c in s["capacity"] if c["tp"] == 1)
    assert tp1(sheet) - tp1(h100) == pytest.approx(per_expert * 32 * 24 * 0.53125 / 2 ** 30, abs=0.011)


@pytest.mark.parametrize("gpu,rounded", [("B200", (2944, 3072)), ("A100-SXM-80GB", None)])
def test_gpt_oss_expert_padding_under_sglang(tmp_path, capsys, gpu, rounded):
    """SGLang 0.5.23 (arg_groups/model_overrides/gpt_oss.py): flashinfer_mxfp4 on SM100 for an MXFP4 checkpoint;
    FusedMoE rounds hidden 2880 to 256 (3072, fused_moe_triton/layer.py) and Mxfp4MoEMethod.create_weights I_p 2880
    to 128 (2944). On SM80 the backend is triton_kernel only with the optional triton_kernels package: no rounding
    modelled, so the A100 matches the H100. gpt-oss-20b at TP1: 32 experts, 24 layers, 0.53125 B a weight."""
    sheet = _score(tmp_path, "gpt-oss-20b", None, capsys, "--gpu", gpu, "--framework", "sglang")
    h100 = _score(tmp_path, "gpt-oss-20b", None, capsys, "--gpu", "H100-SXM", "--framework", "sglang")
    extra = 0.0
    if rounded:
        i, h = rounded
        extra = ((h * 2 * i - 2880 * 5760) + (i * h - 2880 * 2880)) * 32 * 24 * 0.53125 / 2 ** 30

    def tp1(s):
        return next(c["weights_per_gpu_gib"] for c in s["capacity"] if c["tp"] == 1)
    assert tp1(sheet) - tp1(h100) == pytest.approx(extra, abs=0.011)
