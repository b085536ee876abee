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


# --- breaker trial (issue 15): inputs a careless uploader or an attacker would try --------------------------------

def _llama() -> dict:
    from scorer.resources import data_dir
    return json.loads((data_dir() / "examples" / "llama-3.1-8b" / "config.json").read_text())


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_measurement_and_ids_inputs_that_never_end_are_refused_at_once(tmp_path, capsys):
    """validate/calibrate on a FIFO hung; on /dev/zero they grew without bound (4 GB in 15 s); crawl --ids too."""
    fifo = tmp_path / "m.fifo"
    os.mkfifo(fifo)
    corpus = tmp_path / "corp"
    (corpus / "llama").mkdir(parents=True)
    (corpus / "llama" / "config.json").write_text(json.dumps(_llama()))
    for args in (["validate", str(fifo), "--corpus", str(corpus)], ["validate", "/dev/zero", "--corpus", str(corpus)],
                 ["calibrate", str(fifo), "--corpus", str(corpus), "-o", str(tmp_path / "cal.json")],
                 ["crawl", "--db", str(tmp_path / "c.db"), "--ids", "/dev/zero"],
                 ["crawl", "--db", str(tmp_path / "c2.db"), "--ids", str(fifo)]):
        assert main(args) == 2, args
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "not a regular file" in err, err
    assert not (tmp_path / "c.db").exists() and not (tmp_path / "cal.json").exists()


@pytest.mark.parametrize("edit, message", [
    (lambda c: c.update({f"k{i}": i for i in range(10_001)}), "the top level has 10,"),
    (lambda c: c.update(model_type="llava", text_config=dict(c, **{f"k{i}": i for i in range(10_001)})),
     "text_config has 10,"),
    (lambda c: c.update(pad=[{}] * 2_000_001), "over 2,000,000 JSON values"),
])
def test_configs_of_absurd_bulk_are_refused_before_transformers(tmp_path, capsys, edit, message):
    """300,000 keys in text_config took 27 s inside transformers' config class (a strict setattr per key), six
    million empty objects 20 s (deep copies): under the byte cap, but no real config has that bulk."""
    cfg = _llama()
    edit(cfg)
    path = tmp_path / "config.json"
    path.write_text(json.dumps(cfg))
    assert main(["score", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err


@pytest.mark.parametrize("qc, message", [
    ({"quant_method": "gptq", "bits": 0, "group_size": 128}, "bits: weight bits must be an integer from 1 to 16"),
    ({"quant_method": "gptq", "bits": 4, "group_size": 0}, "group_size must be a positive integer or -1"),
    ({"quant_method": "awq", "w_bit": 99, "q_group_size": 128}, "w_bit: weight bits must be an integer from 1"),
])
def test_zero_quantization_bits_are_not_read_as_the_default(tmp_path, capsys, qc, message):
    """`bits: 0` was read as AWQ/GPTQ's default 4 (a falsy value fell through) while -4 was refused."""
    path = tmp_path / "config.json"
    path.write_text(json.dumps(dict(_llama(), quantization_config=qc)))
    assert main(["score", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err
    ok = dict(_llama(), quantization_config={"quant_method": "gptq", "bits": 4, "group_size": -1})
    path.write_text(json.dumps(ok))
    assert main(["score", str(path), "--format", "json", "--no-recommendations"]) == 0
    assert json.loads(capsys.readouterr().out)["model"]["quantization"]["weight_bits"] == 4
