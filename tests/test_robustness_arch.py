"""Regressions from a bad-input hunt on the rewritten normalizer (scorer/architecture): per-layer lists, nested
configs, special float tags, transformers' own stderr output, local safetensors headers, determinism.

Every bad input is exit 2 with one line on stderr naming the key, never the catch-all "malformed value"."""

from __future__ import annotations

import json
import struct

import pytest

from conftest import run_cli
from scorer.cli import main

BASE = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 256,
        "intermediate_size": 512, "num_hidden_layers": 4, "num_attention_heads": 4, "num_key_value_heads": 2,
        "vocab_size": 1000}
DS = {"model_type": "deepseek_v3", "architectures": ["DeepseekV3ForCausalLM"], "hidden_size": 256,
      "intermediate_size": 512, "moe_intermediate_size": 64, "num_hidden_layers": 4, "num_attention_heads": 4,
      "num_key_value_heads": 4, "vocab_size": 1000, "n_routed_experts": 8, "num_experts_per_tok": 2,
      "n_shared_experts": 1, "first_k_dense_replace": 1, "kv_lora_rank": 64, "q_lora_rank": 96,
      "qk_rope_head_dim": 16, "qk_nope_head_dim": 32, "v_head_dim": 32, "num_nextn_predict_layers": 1}
ERNIE = {"model_type": "zzz", "architectures": ["ZzzForCausalLM"], "hidden_size": 256, "intermediate_size": 512,
         "num_hidden_layers": 4, "num_attention_heads": 4, "vocab_size": 1000, "moe_num_experts": 8,
         "moe_k": 2, "moe_intermediate_size": 64, "moe_layer_start_index": 1}
VLM = {"model_type": "zzz_vlm", "architectures": ["ZzzForConditionalGeneration"], "text_config": dict(BASE)}


def _deep(depth: int) -> str:
    return "[" * depth + "1" + "]" * depth


def _with(text: str, key: str, literal: str) -> str:
    return text[:-1] + f', "{key}": {literal}}}'


CASES = {
    # a 5,000-digit integer literal: json.loads raises ValueError (int_max_str_digits), not JSONDecodeError
    "int_literal_5000_digits": (_with(json.dumps(BASE), "hidden_size", "1" + "0" * 5000), "4,300 digits"),
    # architectures of the wrong type: was a TypeError / AttributeError caught by the catch-all
    "architectures_float": (dict(BASE, architectures=1.5), "architectures must be a list"),
    "architectures_non_strings": (dict(BASE, architectures=[1, None]), "architectures must be a list"),
    "architectures_string": (dict(BASE, architectures="LlamaForCausalLM"), "architectures must be a list"),
    # text_config.model_type not a string: a pydantic ValidationError / unhashable list before
    "text_config_model_type_float": (dict(VLM, text_config=dict(BASE, model_type=1e-300)),
                                     "config.text_config: model_type must be a string"),
    "text_config_model_type_list": (dict(VLM, text_config=dict(BASE, model_type=[["x"]])),
                                    "config.text_config: model_type must be a string"),
    "rope_type_nan": (dict(BASE, model_type="zzz", rope_scaling={"rope_type": float("nan"), "factor": 2.0}),
                      "rope_type must be a string"),
    # Ernie-style MoE placement: inf end index was an OverflowError
    "moe_layer_end_index_inf": (dict(ERNIE, moe_layer_end_index={"__float__": "Infinity"}), "moe_layer_end_index"),
    "moe_layer_start_index_str": (dict(ERNIE, moe_layer_start_index="1"), "moe_layer_start_index"),
    "first_k_dense_replace_inf": (dict(ERNIE, moe_layer_start_index=None, first_k_dense_replace=float("inf")),
                                  "first_k_dense_replace"),
    "mlp_only_layers_int": (dict(ERNIE, moe_layer_start_index=None, decoder_sparse_step=1, mlp_only_layers=5),
                            "mlp_only_layers"),
    # per-layer MoE lists of the wrong length or element type were silently ignored (a 671B MoE read as dense)
    # (a family transformers does not know: the generic reader reads the key; DeepseekV3 itself ignores it)
    "mlp_layer_types_short": (dict(DS, model_type="zzz", architectures=["ZzzForCausalLM"],
                                   mlp_layer_types=["dense", "sparse"]), "mlp_layer_types must be a list of 4"),
    "mlp_layer_types_ints": (dict(DS, model_type="zzz", architectures=["ZzzForCausalLM"],
                                  mlp_layer_types=[0, 1, 1, 1]), "mlp_layer_types must be a list of 4"),
    "layers_num_experts_short": (dict(ERNIE, moe_layer_start_index=None, layers_num_experts=[8, 8]),
                                 "layers_num_experts lists 2 layers"),
    # MTP depth was never bounded nor type-checked: 10**6 modules counted, "1" / -1 / 1.5 silently none
    "mtp_layers_huge": (dict(DS, num_nextn_predict_layers=10 ** 6), "num_nextn_predict_layers = 1000000"),
    "mtp_layers_negative": (dict(DS, num_nextn_predict_layers=-1), "num_nextn_predict_layers must be at least 0"),
    "mtp_layers_string": (dict(DS, num_nextn_predict_layers="1"), "num_nextn_predict_layers must be an integer"),
    "mtp_layers_inf_tag": (dict(DS, num_nextn_predict_layers={"__float__": "Infinity"}),
                           "num_nextn_predict_layers must be an integer"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_values_name_the_key(case, write_config, capsys):
    cfg, expect = CASES[case]
    path = write_config(cfg if isinstance(cfg, str) else json.dumps(cfg))
    rc = main(["score", str(path), "--format", "json", "--no-recommendations"])
    err = capsys.readouterr().err
    assert rc == 2, err
    assert err.count("\n") == 1 and "malformed value" not in err and "internal error" not in err, err
    assert expect in err, err


def test_deep_nesting_is_not_a_recursion_error(write_config, capsys):
    """decode_special_floats walked the config recursively: 500 nested lists anywhere were a RecursionError."""
    path = write_config(_with(json.dumps(dict(BASE, model_type="zzz")), "zz_unused", _deep(500)))
    rc = main(["score", str(path), "--format", "json", "--no-recommendations"])
    err = capsys.readouterr().err
    assert rc == 0 and "RecursionError" not in err, err


def test_special_float_tags_decode_without_touching_the_input():
    from scorer.architecture.assemble import decode_special_floats
    raw = {"a": [1, {"__float__": "-Infinity"}, {"b": {"__float__": "NaN"}}], "c": {"__float__": "bogus"}}
    out = decode_special_floats(raw)
    assert out["a"][1] == float("-inf") and out["a"][2]["b"] != out["a"][2]["b"] and out["c"] == {"__float__": "bogus"}
    assert raw["a"][1] == {"__float__": "-Infinity"}  # the input is untouched


def test_transformers_rejection_message_is_bounded(write_config, capsys):
    """transformers echoes the rejected value: a 100,000-entry layer_types list made a 600 kB error line."""
    path = write_config(dict(BASE, layer_types=[5] * 100_000))
    rc = main(["score", str(path), "--format", "json", "--no-recommendations"])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and len(err) < 600, len(err)


def test_transformers_warnings_and_logs_stay_off_stderr(write_config):
    """A FutureWarning (rope_scaling on BERT) and transformers' logger.error block ("Can't set layers_num_experts
    ... for JambaConfig {<40 lines>}") were printed on stderr: exit 0 must print nothing, exit 2 one line."""
    bert = {"model_type": "bert", "architectures": ["BertModel"], "hidden_size": 64, "num_hidden_layers": 2,
            "num_attention_heads": 4, "vocab_size": 100, "intermediate_size": 128,
            "rope_scaling": {"rope_type": "linear", "factor": 2.0}}
    jamba = {"model_type": "jamba", "architectures": ["JambaForCausalLM"], "hidden_size": 64, "num_hidden_layers": 2,
             "num_attention_heads": 4, "num_key_value_heads": 2, "vocab_size": 100, "intermediate_size": 128,
             "layers_num_experts": ["x", "x"]}
    ok = run_cli("score", str(write_config(bert, "bert.json")), "--format", "json", "--no-recommendations")
    assert ok.returncode == 0 and ok.stderr == "", ok.stderr
    bad = run_cli("score", str(write_config(jamba, "jamba.json")), "--format", "json", "--no-recommendations")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1, bad.stderr


def test_safetensors_shape_beyond_its_bytes_is_unreadable(tmp_path, capsys):
    """An unknown dtype skipped the span check: shape [10**30, 10**30] in 2 bytes was reported as 10**60
    stored parameters (finding C1 at +8e52 %). An unknown dtype is now unreadable itself, as safetensors' Dtype enum
    refuses it."""
    (tmp_path / "config.json").write_text(json.dumps(BASE))
    header = json.dumps({"w": {"dtype": "WEIRD", "shape": [10 ** 30, 10 ** 30], "data_offsets": [0, 2]}}).encode()
    (tmp_path / "model.safetensors").write_bytes(struct.pack("<Q", len(header)) + header + b"\0\0")
    rc = main(["score", str(tmp_path), "--format", "json", "--no-recommendations"])
    sheet = json.loads(capsys.readouterr().out)
    assert rc == 0 and sheet["params"]["checkpoint"] is None
    assert "dtype 'WEIRD' is not a safetensors dtype" in json.dumps(sheet)


def test_g4_tile_finding_does_not_depend_on_hash_seed(write_config):
    """Tied efficiencies in finding G4 were listed in set order: PYTHONHASHSEED changed the JSON bytes."""
    import transformers
    cfg = json.loads(transformers.Gemma4Config().to_json_string(use_diff=False))  # o_proj and down_proj tie at 0.87
    path = str(write_config(cfg))
    outs = set()
    for seed in ("0", "2"):
        res = run_cli("score", path, "--format", "json", "--no-recommendations", env={"PYTHONHASHSEED": seed})
        assert res.returncode == 0, res.stderr
        outs.add(res.stdout)
    assert len(outs) == 1


def test_mla_with_a_zero_latent_is_refused():
    """kv_lora_rank 0 beside qk_nope/qk_rope dims used to fall back to standard attention (a KV cache ~28x too big)."""
    from scorer.architecture import normalize
    from scorer.errors import ConfigError
    cfg = {"model_type": "deepseek_v3", "architectures": ["DeepseekV3ForCausalLM"], "hidden_size": 1024,
           "intermediate_size": 2048, "moe_intermediate_size": 256, "num_hidden_layers": 2, "num_attention_heads": 8,
           "n_routed_experts": 4, "num_experts_per_tok": 2, "kv_lora_rank": 0, "q_lora_rank": 256,
           "qk_rope_head_dim": 32, "qk_nope_head_dim": 64, "v_head_dim": 64, "vocab_size": 1000}
    with pytest.raises(ConfigError, match="kv_lora_rank must be at least 1"):
        normalize(cfg)


def test_an_implausible_total_is_refused(write_config, capsys):
    """Issue 15: 58 fuzzed sheets were scored for configs of more than 100 trillion parameters."""
    from scorer.cli import main
    cfg = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 131072,
           "intermediate_size": 524288, "num_hidden_layers": 512, "num_attention_heads": 1024,
           "num_key_value_heads": 8, "vocab_size": 32000, "max_position_embeddings": 4096}
    # per layer 4 x 131072^2 x (1 + ...) ~ 1.3e11 (attention ~ 3.5e10, MLP 3 x 131072 x 524288 = 2.1e11): 512 layers
    # hold ~1.2e14 parameters
    assert main(["score", str(write_config(cfg))]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "trillion parameters" in err and "plausibility bound of 100 trillion" in err
