"""Regressions from a bad-input hunt: every case is exit 2 (or 3 for the Hub), one line, nothing written."""

from __future__ import annotations

import json
import os

import pytest

from conftest import run_cli
from scorer.cli import main

BASE = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 1024,
        "intermediate_size": 2816, "num_hidden_layers": 4, "num_attention_heads": 8, "num_key_value_heads": 2,
        "vocab_size": 32000}
UNK = dict(BASE, model_type="zzz", architectures=["ZzzForCausalLM"])
T5 = {"model_type": "t5", "architectures": ["T5ForConditionalGeneration"], "d_model": 512, "d_kv": 64, "d_ff": 2048,
      "num_layers": 2, "num_heads": 8, "vocab_size": 32128}
VL = {"model_type": "qwen2_5_vl", "architectures": ["Qwen2_5_VLForConditionalGeneration"], "hidden_size": 1024,
      "intermediate_size": 2816, "num_hidden_layers": 2, "num_attention_heads": 8, "num_key_value_heads": 2,
      "vocab_size": 32000, "vision_config": {"depth": 2, "hidden_size": 256, "intermediate_size": 512,
                                             "num_heads": 4, "out_hidden_size": 1024}}
NAS = {"model_type": "nemotron-nas", "architectures": ["DeciLMForCausalLM"], "hidden_size": 1024,
       "num_hidden_layers": 2, "num_attention_heads": 8, "vocab_size": 32000,
       "block_configs": [{"attention": {"n_heads_in_group": 4}, "ffn": {"ffn_mult": 2.0}}] * 2}

CASES = {
    "t5_decoder_layers_huge": dict(T5, num_decoder_layers=10 ** 7),
    "vision_depth_huge": dict(VL, vision_config=dict(VL["vision_config"], depth=10 ** 7)),
    "vision_heads_not_dividing": dict(VL, vision_config=dict(VL["vision_config"], num_heads=7)),
    "nas_ffn_mult_huge": dict(NAS, block_configs=[{"attention": {"n_heads_in_group": 4}, "ffn": {"ffn_mult": 1e300}}]),
    "nas_attention_string": dict(NAS, block_configs=[{"attention": "x", "ffn": {"ffn_mult": 2.0}}]),
    "nas_empty": dict(NAS, block_configs=[]),
    "nas_all_noop": dict(NAS, block_configs=[{"attention": {"no_op": True}, "ffn": {"no_op": True}}]),
    "mla_rank_huge": {"model_type": "deepseek_v3", "architectures": ["DeepseekV3ForCausalLM"], "hidden_size": 1024,
                      "intermediate_size": 2048, "moe_intermediate_size": 256, "num_hidden_layers": 2,
                      "num_attention_heads": 8, "vocab_size": 1000, "kv_lora_rank": 2 ** 40, "q_lora_rank": 256,
                      "qk_rope_head_dim": 64, "qk_nope_head_dim": 64, "v_head_dim": 64},
    "block_size_strings": dict(BASE, quantization_config={"quant_method": "fp8", "weight_block_size": ["a", "b"]}),
    "bits_infinity": dict(BASE, quantization_config={"quant_method": "awq", "bits": float("inf")}),
    "ignore_not_list": dict(BASE, quantization_config={"quant_method": "fp8", "ignore": 5}),
    "ct_weights_string": dict(BASE, quantization_config={"quant_method": "compressed-tensors",
                                                         "config_groups": {"g": {"weights": "x"}}}),
    "architectures_int": dict(BASE, architectures=5),
    "unk_first_dense_string": dict(UNK, first_k_dense_replace="x", num_local_experts=4, num_experts_per_tok=2),
    "unk_mlp_only_int": dict(UNK, mlp_only_layers=5, num_experts=4, num_experts_per_tok=2, decoder_sparse_step=1),
    "missing_intermediate": {k: v for k, v in BASE.items() if k != "intermediate_size"},
    "unk_sliding_string": dict(UNK, sliding_window="4096"),
    "unk_layer_types_short": dict(UNK, layer_types=["full_attention"]),
    "shared_expert_huge": dict(UNK, num_experts=4, num_experts_per_tok=2, shared_expert_intermediate_size=2 ** 60),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_malformed_configs_exit_2(case, tmp_path, capsys):
    cfg_path = tmp_path / "config.json"
    cfg_path.write_text(json.dumps(CASES[case]))
    out = tmp_path / "out.md"
    rc = main(["score", str(cfg_path), "-o", str(out), "--no-recommendations"])
    err = capsys.readouterr().err
    assert rc == 2, err
    assert err.count("\n") == 1 and "internal error" not in err
    assert sorted(os.listdir(tmp_path)) == ["config.json"]


def test_lone_surrogate_is_bad_input(tmp_path, capsys):
    p = tmp_path / "config.json"
    p.write_text(json.dumps(BASE)[:-1] + ', "model_type": "zzz\\ud800"}')
    rc = main(["score", str(p), "-o", str(tmp_path / "o.md")])
    assert rc == 2 and "Unicode" in capsys.readouterr().err
    assert sorted(os.listdir(tmp_path)) == ["config.json"]


def test_control_and_bidi_characters_are_stripped(tmp_path, capsys):
    p = tmp_path / "config.json"
    p.write_text(json.dumps(dict(UNK, model_type="evil\u202egnp.exe\x1b[31m\x07")))
    for fmt in ("md", "html"):
        assert main(["score", str(p), "--format", fmt, "--no-recommendations"]) == 0
        out = capsys.readouterr().out
        assert "\u202e" not in out and "\x1b" not in out and "\x07" not in out


def test_output_through_symlink_and_refusing_special_files(tmp_path, capsys):
    cfg = tmp_path / "config.json"
    cfg.write_text(json.dumps(BASE))
    target = tmp_path / "real.md"
    target.write_text("old")
    link = tmp_path / "link.md"
    link.symlink_to(target)
    assert main(["score", str(cfg), "-o", str(link), "--no-recommendations"]) == 0
    assert link.is_symlink() and target.read_text().startswith("# Deployment sheet")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert main(["score", str(cfg), "-o", str(fifo), "--no-recommendations"]) == 2
    assert "not a regular file" in capsys.readouterr().err
    assert main(["score", str(fifo)]) == 2  # a pipe as SOURCE is refused, not read forever
    assert "regular file" in capsys.readouterr().err


@pytest.mark.parametrize("source", ["a" * 300, "org/name\n", "org/name@" + "x" * 5000])
def test_odd_sources_are_bad_input(source, capsys):
    assert main(["score", source]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "internal error" not in err


def test_long_output_name(tmp_path, capsys):
    cfg = tmp_path / "config.json"
    cfg.write_text(json.dumps(BASE))
    assert main(["score", str(cfg), "-o", str(tmp_path / ("x" * 300)), "--no-recommendations"]) == 2
    assert "cannot write" in capsys.readouterr().err


@pytest.mark.parametrize("bad", [{"mem_bw_eff": 0}, {"mem_bw_eff": float("nan")}, {"comm_bw_eff": -1}, {}])
def test_bad_calibration_file(tmp_path, capsys, bad):
    doc = json.loads((__import__("scorer.resources", fromlist=["x"]).data_dir() / "calibration.json").read_text())
    if bad:
        for k, v in bad.items():
            doc["params"][k]["value"] = v
    else:
        doc["params"] = {}
    p = tmp_path / "cal.json"
    p.write_text(json.dumps(doc))
    assert main(["score", "--calibration", str(p)]) == 2
    assert "calibration file" in capsys.readouterr().err


def test_options_checked_before_network():
    res = run_cli("score", "acme/x", "--kv-dtype", "bogus", env={"HF_ENDPOINT": "http://127.0.0.1:9"})
    assert res.returncode == 2 and "KV dtype" in res.stderr


@pytest.mark.parametrize("override", [{"sha": "/tmp/evil"}, {"sha": "../../x"}, {"sha": 123},
                                      {"siblings": "x"}, b"<html>captive portal</html>"])
def test_malformed_hub_answers_exit_3(fakehub, override, tmp_path, capsys):
    repo = fakehub.add("acme/evil", BASE)
    repo.info_override = override
    assert main(["score", "acme/evil", "-o", str(tmp_path / "o.md")]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "internal error" not in err
    assert not (tmp_path / "o.md").exists()
    assert not os.path.exists("/tmp/evil")
