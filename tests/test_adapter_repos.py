"""PEFT adapter repos and folders (adapter_config.json, no config.json) are read as their base model.

A LoRA adapter does not change the base model's architecture, so its sheet is the base model's sheet: the same
counts (derived by hand below for a small Llama), with the adapter named in the summary and the assumptions, under
the adapter's own provenance (the bot answers on the adapter repo, at the adapter's commit). The launch commands
serve the base model with the adapter on top, as vLLM 0.33.0 does: ``--enable-lora``, ``--max-lora-rank`` of the
smallest allowed value at or above the adapter's rank (vllm/config/lora.py MaxLoRARanks 1, 8, 16, 32, 64, 128, 256,
320, 512; default 16), ``--lora-modules name=path`` (vllm/entrypoints/common/cli_args.py); an adapter vLLM refuses
(vllm/lora/peft_helper.py PEFTHelper.validate_legal: DoRA, lora_bias, bias other than "none", a rank above 512, ...)
gets no LoRA flags and a note. Before, every adapter repo was refused ("has no config.json").
"""

from __future__ import annotations

import json

import pytest

from fakehub import FakeRepo
from scorer.cli import main
from scorer.sources import load_source

BASE = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 256, "num_hidden_layers": 2,
        "num_attention_heads": 4, "num_key_value_heads": 2, "intermediate_size": 512, "vocab_size": 1000,
        "max_position_embeddings": 4096, "tie_word_embeddings": False, "torch_dtype": "bfloat16"}
# per layer: q, o 256x256; k, v 256x128; gate, up, down 256x512; two norms. Embedding and lm_head 1000x256, final norm
TOTAL = 2 * (2 * 256 * 256 + 2 * 256 * 128 + 3 * 256 * 512 + 2 * 256) + 2 * 1000 * 256 + 256


def _adapter(base: str, **kw) -> dict:
    return {"base_model_name_or_path": base, "peft_type": "LORA", "r": 64, "lora_alpha": 128, "bias": "none",
            "target_modules": ["q_proj", "v_proj"], "task_type": "CAUSAL_LM", **kw}


def _folders(tmp_path, **kw):
    base = tmp_path / "base"
    base.mkdir()
    (base / "config.json").write_text(json.dumps(BASE))
    lora = tmp_path / "lora"
    lora.mkdir()
    (lora / "adapter_config.json").write_text(json.dumps(_adapter(str(base), **kw)))
    return base, lora


def _score(capsys, src: str) -> dict:
    assert main(["score", src, "--format", "json", "--no-recommendations"]) == 0
    return json.loads(capsys.readouterr().out)


def _commands(doc: dict) -> list[str]:
    return [r["launch"]["text"] for rs in doc["regimes"].values() for r in rs if (r.get("launch") or {}).get("text")]


def test_a_local_adapter_is_its_base_model_with_lora_flags(tmp_path, capsys):
    base, lora = _folders(tmp_path)
    doc = _score(capsys, str(lora))
    assert doc["params"]["total"] == TOTAL and doc["params"]["exact"]
    prov = doc["model"]["provenance"]
    assert prov["adapter_base"] == str(base) and prov["adapter_rank"] == 64 and prov["path"].endswith("adapter_config.json")
    assert any("PEFT LORA adapter of rank 64 on q_proj, v_proj" in a for a in doc["assumptions"])
    cmds = _commands(doc)
    assert cmds and all(c.startswith(f"vllm serve {base} ") for c in cmds)
    assert all("--enable-lora --max-lora-rank 64 --lora-modules adapter=" + str(lora) in c for c in cmds)
    main(["score", str(lora)])
    md = capsys.readouterr().out
    assert "| adapter | PEFT adapter of rank 64 on base" in md


@pytest.mark.parametrize("rank, flag", [(8, None), (16, None), (17, "32"), (320, "320"), (512, "512")])
def test_max_lora_rank_is_the_next_allowed_value(tmp_path, capsys, rank, flag):
    _, lora = _folders(tmp_path, r=rank)
    cmds = _commands(_score(capsys, str(lora)))
    assert all("--enable-lora" in c for c in cmds)
    assert all((f"--max-lora-rank {flag}" in c) if flag else ("--max-lora-rank" not in c) for c in cmds)


@pytest.mark.parametrize("rank, flag", [(64.0, "64"), (17.0, "32")])
def test_an_integral_float_rank_is_that_rank(tmp_path, capsys, rank, flag):
    """Breaker trial: "r": 64.0 (a writer's serialization of PEFT's int) lost the --max-lora-rank flag."""
    _, lora = _folders(tmp_path, r=rank)
    doc = _score(capsys, str(lora))
    assert doc["model"]["provenance"]["adapter_rank"] == int(rank)
    assert all(f"--max-lora-rank {flag}" in c for c in _commands(doc))


@pytest.mark.parametrize("extra", [{"r": -1}, {"r": 0}, {"r": "8"}, {"r": True}, {"r": 1.5}, {"r": float("nan")},
                                   {"rank_pattern": {"q_proj": 0}}, {"rank_pattern": [8]}])
def test_a_rank_that_is_not_a_positive_integer_is_refused_in_one_line(tmp_path, capsys, extra):
    """PEFT's LoraConfig and vLLM's PEFTHelper take r as an int: anything else was silently ignored."""
    _, lora = _folders(tmp_path, **extra)
    assert main(["score", str(lora)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "must be" in err and "Traceback" not in err


@pytest.mark.parametrize("extra, why", [({"use_dora": True}, "DoRA"), ({"bias": "all"}, "bias 'all'"),
                                        ({"r": 1024}, "rank 1024 above the largest --max-lora-rank 512"),
                                        ({"r": 1024.0}, "rank 1024 above the largest --max-lora-rank 512"),
                                        ({"lora_bias": True}, "lora_bias"),
                                        ({"modules_to_save": ["lm_head"]}, "modules_to_save"),
                                        ({"peft_type": "IA3"}, "peft_type 'IA3'")])
def test_an_adapter_vllm_refuses_gets_no_lora_flags(tmp_path, capsys, extra, why):
    _, lora = _folders(tmp_path, **extra)
    doc = _score(capsys, str(lora))
    assert why in doc["model"]["provenance"]["adapter_refused"]
    assert all("--enable-lora" not in c for c in _commands(doc))
    assert any("refuses it as a LoRA adapter" in a for a in doc["assumptions"])


def test_a_hub_adapter_repo_keeps_its_own_provenance(fakehub, capsys):
    fakehub.add("acme/base-llama", BASE)
    repo = FakeRepo(repo_id="acme/chat-lora", files={
        "adapter_config.json": json.dumps(_adapter("acme/base-llama", r=16)).encode(),
        "adapter_model.safetensors": b"\x08\x00\x00\x00\x00\x00\x00\x00{}      "})
    fakehub.repos[repo.repo_id] = repo
    raw = load_source("acme/chat-lora")
    assert raw.provenance.repo_id == "acme/chat-lora" and raw.provenance.commit_sha == repo.sha
    assert raw.provenance.adapter_base == "acme/base-llama" and raw.provenance.safetensors_total is None
    assert raw.provenance.files[0] == "adapter_config.json" and "acme/base-llama/config.json" in raw.provenance.files
    doc = _score(capsys, "acme/chat-lora")
    assert doc["params"]["total"] == TOTAL
    cmds = _commands(doc)
    assert cmds and all(c.startswith("vllm serve acme/base-llama ") and "--lora-modules adapter=acme/chat-lora" in c
                        and "--max-lora-rank" not in c for c in cmds)


def test_bad_adapter_sources_fail_in_one_line(tmp_path, capsys, fakehub):
    cases = {}
    for name, body in {"nobase": json.dumps({"peft_type": "LORA", "r": 8}), "notjson": "{not json",
                       "list": "[1, 2]", "odd": json.dumps(_adapter("no such thing at all"))}.items():
        d = tmp_path / name
        d.mkdir()
        (d / "adapter_config.json").write_text(body)
        cases[name] = d
    inner = tmp_path / "inner"  # a base that is itself an adapter folder: not followed
    inner.mkdir()
    (inner / "adapter_config.json").write_text(json.dumps(_adapter(str(tmp_path / "nobase"))))
    outer = tmp_path / "outer"
    outer.mkdir()
    (outer / "adapter_config.json").write_text(json.dumps(_adapter(str(inner))))
    cases["chain"] = outer
    self_ref = FakeRepo(repo_id="acme/self", files={"adapter_config.json": json.dumps(_adapter("acme/self")).encode()})
    fakehub.repos[self_ref.repo_id] = self_ref
    for name, src in list(cases.items()) + [("self", "acme/self"), ("missing", None)]:
        if src is None:
            missing = FakeRepo(repo_id="acme/orphan", files={
                "adapter_config.json": json.dumps(_adapter("acme/not-there")).encode()})
            fakehub.repos[missing.repo_id] = missing
            src = "acme/orphan"
        rc = main(["score", str(src)])
        err = capsys.readouterr().err
        assert rc in (2, 3), (name, rc)
        assert err.count("\n") == 1 and "Traceback" not in err, (name, err)
