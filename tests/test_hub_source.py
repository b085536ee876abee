"""Hub sources through the real huggingface_hub client against a fake Hub on loopback."""

from __future__ import annotations

import json
import socket

import pytest

from conftest import run_cli
from scorer.cli import main
from scorer.errors import BadInputError, HubError
from scorer.sources import load_source, parse_hub_source

CFG = {"model_type": "qwen3", "architectures": ["Qwen3ForCausalLM"], "hidden_size": 1024, "intermediate_size": 3072,
       "num_hidden_layers": 4, "num_attention_heads": 16, "num_key_value_heads": 8, "head_dim": 128,
       "vocab_size": 151936, "tie_word_embeddings": True, "max_position_embeddings": 40960}


def test_parse_hub_source_forms():
    assert parse_hub_source("org/name") == ("org/name", None)
    assert parse_hub_source("org/name@v1.0") == ("org/name", "v1.0")
    assert parse_hub_source("https://huggingface.co/org/name") == ("org/name", None)
    assert parse_hub_source("https://huggingface.co/org/name/tree/dev") == ("org/name", "dev")
    assert parse_hub_source("not a repo") is None
    assert parse_hub_source("a/b/c") is None
    assert parse_hub_source("org/name@") is None  # an empty revision is not the main branch


@pytest.mark.parametrize("endpoint", ["not a url", "ftp://hub.example", "http://", "https://host name"])
def test_an_endpoint_that_is_not_a_url_is_bad_input(monkeypatch, capsys, endpoint):
    """Breaker trial: HF_ENDPOINT='not a url' exited 3 (the Hub's fault) instead of 2 (the user's setting)."""
    from scorer.cli import main
    monkeypatch.setenv("HF_ENDPOINT", endpoint)
    assert main(["score", "acme/tiny"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "HF_ENDPOINT" in err and "not an http(s) URL" in err


def test_reads_config_at_pinned_commit(fakehub):
    repo = fakehub.add("acme/tiny-qwen", CFG, safetensors={"BF16": 123456}, extra_files=["model.safetensors"],
                       card_data={"license": "apache-2.0"})
    raw = load_source("acme/tiny-qwen")
    assert raw.config == CFG
    prov = raw.provenance
    assert prov.kind == "hub" and prov.commit_sha == repo.sha
    assert prov.safetensors_parameters == {"BF16": 123456} and prov.safetensors_total == 123456
    assert prov.weight_formats == ["safetensors"]
    assert prov.license == "apache-2.0"
    # every file was fetched at the resolved sha, never at a moving branch
    gets = [p for m, p in fakehub.requests if "/resolve/" in p]
    assert gets and all(f"/resolve/{repo.sha}/" in p for p in gets)


def test_revision_is_resolved_to_a_sha(fakehub):
    repo = fakehub.add("acme/rev", CFG)
    repo.branches["dev"] = repo.sha
    raw = load_source("acme/rev", revision="dev")
    assert raw.provenance.revision == "dev" and raw.provenance.commit_sha == repo.sha


def test_quant_sidecar_is_read(fakehub):
    side = {"producer": {"name": "modelopt"}, "quantization": {"quant_algo": "NVFP4", "group_size": 16,
                                                                "kv_cache_quant_algo": "FP8",
                                                                "exclude_modules": ["lm_head"]}}
    fakehub.add("acme/nvfp4", CFG, more_files={"hf_quant_config.json": json.dumps(side).encode()})
    raw = load_source("acme/nvfp4")
    assert raw.quant_config == side
    assert "hf_quant_config.json" in raw.provenance.files


def test_sheet_from_hub_names_commit(fakehub, capsys):
    repo = fakehub.add("acme/tiny-qwen", CFG)
    assert main(["score", "acme/tiny-qwen", "--format", "json"]) == 0
    sheet = json.loads(capsys.readouterr().out)
    assert sheet["model"]["name"] == "acme/tiny-qwen"
    assert sheet["model"]["provenance"]["commit_sha"] == repo.sha


def test_repo_not_found_exit_3(fakehub, capsys, tmp_path):
    out = tmp_path / "x.md"
    assert main(["score", "acme/missing", "-o", str(out)]) == 3
    err = capsys.readouterr().err
    assert "not found" in err and err.count("\n") == 1
    assert not out.exists()


def test_gated_repo_exit_3(fakehub, capsys):
    fakehub.add("acme/gated", CFG, gated=True)
    assert main(["score", "acme/gated"]) == 3
    assert "gated" in capsys.readouterr().err


def test_missing_config_in_repo_exit_2(fakehub, capsys):
    repo = fakehub.add("acme/gguf", CFG)
    del repo.files["config.json"]
    repo.extra_files = ["model.gguf"]
    assert main(["score", "acme/gguf"]) == 2
    assert "no config.json" in capsys.readouterr().err


def test_oversize_remote_config_refused(fakehub):
    from scorer.sources import MAX_CONFIG_BYTES
    fakehub.add("acme/huge", json.dumps(dict(CFG, pad="x" * MAX_CONFIG_BYTES)).encode())
    with pytest.raises(BadInputError, match="cap"):
        load_source("acme/huge")


def test_retries_503_then_succeeds(fakehub):
    fakehub.add("acme/flaky", CFG)
    fakehub.fail_next = [503, 429]
    raw = load_source("acme/flaky")
    assert raw.config == CFG


def test_unreachable_hub_exit_3(monkeypatch, tmp_path):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there now
    res = run_cli("score", "acme/anything", env={"HF_ENDPOINT": f"http://127.0.0.1:{port}",
                                                 "HF_HOME": str(tmp_path / "hf"), "HF_HUB_ETAG_TIMEOUT": "2"})
    assert res.returncode == 3, res.stderr
    assert "Traceback" not in res.stderr and res.stderr.count("\n") == 1
    assert "reach the Hub" in res.stderr or "Hub" in res.stderr


def test_hub_error_type():
    assert HubError("x").exit_code == 3 and BadInputError("x").exit_code == 2


def test_quantized_derivatives_and_pickle_signal(fakehub, capsys):
    fakehub.add("acme/base", CFG, extra_files=["pytorch_model.bin"])
    fakehub.add("other/base-awq", CFG, tags=["transformers", "base_model:quantized:acme/base"])
    fakehub.add("other/base-fp8", CFG, tags=["transformers", "base_model:quantized:acme/base"])
    fakehub.add("other/unrelated", CFG, tags=["transformers", "base_model:quantized:acme/other"])
    raw = load_source("acme/base")
    assert sorted(raw.provenance.quantized_derivatives) == ["other/base-awq", "other/base-fp8"]
    assert raw.provenance.weight_formats == ["pytorch-pickle"]
    assert main(["score", "acme/base", "--format", "json", "--no-recommendations"]) == 0
    sheet = json.loads(capsys.readouterr().out)
    assert any(f["rule"] == "S4" for f in sheet["findings"])
    assert main(["score", "acme/base", "--no-recommendations"]) == 0
    assert "2 quantized derivatives" in capsys.readouterr().out


@pytest.mark.parametrize("headers,waits", [
    # the Hub's own quota header (hub-and-github.md 1.6): quota spent (r=0), resets in t=2 s -> wait t + 1 s
    ({"RateLimit": '"api";r=0;t=2', "RateLimit-Policy": '"fixed window";"api";q=1000;w=300'}, [3.0, 3.0]),
    # a reset beyond the cap waits the cap (5 s), never the Hub's 300 s window
    ({"RateLimit": '"api";r=0;t=299'}, [5.0, 5.0]),
    # Retry-After when there is no spent quota
    ({"Retry-After": "4"}, [4.0, 4.0]),
    ({"RateLimit": '"api";r=7;t=2', "Retry-After": "1"}, [1.0, 1.0]),
])
def test_backoff_waits_as_the_hub_says(fakehub, headers, waits):
    """Three model_info calls through the real client: two 429s then the answer."""
    from huggingface_hub import HfApi

    from scorer.sources import with_backoff
    fakehub.add("acme/limited", CFG)
    fakehub.busy_headers = headers
    fakehub.fail_next = [429, 429]
    slept: list[float] = []
    info = with_backoff(lambda: HfApi(endpoint=fakehub.endpoint).model_info("acme/limited"), sleep=slept.append)
    assert info.id == "acme/limited" and slept == waits


def test_backoff_without_hints_is_jittered_exponential(fakehub):
    from huggingface_hub import HfApi
    from huggingface_hub.errors import HfHubHTTPError

    from scorer.sources import with_backoff
    fakehub.add("acme/down", CFG)
    fakehub.busy_headers = {"RateLimit": "garbage;;"}  # malformed: ignored, not fatal
    fakehub.fail_next = [503, 503, 503]
    slept: list[float] = []
    with pytest.raises(HfHubHTTPError):
        with_backoff(lambda: HfApi(endpoint=fakehub.endpoint).model_info("acme/down"), attempts=3,
                     sleep=slept.append)
    # attempt k waits uniform(0, min(5, 0.5 * 2**k)): at most 0.5 s, then 1 s; no wait after the last
    assert len(slept) == 2 and 0 <= slept[0] <= 0.5 and 0 <= slept[1] <= 1.0


def _safetensors(tensors: dict[str, list[int]]) -> bytes:
    """A BF16 safetensors file written by hand: 8-byte little-endian header length, JSON header, zero data."""
    import struct
    header, off = {}, 0
    for name, shape in tensors.items():
        n = 2
        for d in shape:
            n *= d
        header[name] = {"dtype": "BF16", "shape": shape, "data_offsets": [off, off + n]}
        off += n
    blob = json.dumps(header).encode()
    return struct.pack("<Q", len(blob)) + blob + bytes(off)


def test_safetensors_headers_range_read_at_pinned_commit(fakehub):
    """The header reads go through the real client at the resolved sha, as Range GETs of the index's shards."""
    files = {"model-00001-of-00002.safetensors": _safetensors({"model.embed_tokens.weight": [151936, 8]}),
             "model-00002-of-00002.safetensors": _safetensors({"model.norm.weight": [1024]})}
    files["model.safetensors.index.json"] = json.dumps({"weight_map": {
        "model.embed_tokens.weight": "model-00001-of-00002.safetensors",
        "model.norm.weight": "model-00002-of-00002.safetensors"}}).encode()
    repo = fakehub.add("acme/sharded-src", CFG, more_files=files)
    raw = load_source("acme/sharded-src")
    ck = raw.checkpoint
    assert ck is not None and ck.kind == "hub" and ck.index == "model.safetensors.index.json"
    assert {(t.name, t.dtype, tuple(t.shape), t.nbytes) for t in ck.tensors} == {
        ("model.embed_tokens.weight", "BF16", (151936, 8), 151936 * 8 * 2),
        ("model.norm.weight", "BF16", (1024,), 2048)}
    assert sorted(fakehub.ranges) == [(f"/acme/sharded-src/resolve/{repo.sha}/{f}", "bytes=0-100000")
                                      for f in sorted(files) if f.endswith(".safetensors")]
    gets = [p for m, p in fakehub.requests if "/resolve/" in p]
    assert all(f"/resolve/{repo.sha}/" in p for p in gets)


def test_index_over_cap_and_missing_shard_are_reasons(fakehub, monkeypatch):
    import scorer.sources as src
    index = json.dumps({"weight_map": {"w": "model-00001-of-00002.safetensors",
                                       "v": "model-00002-of-00002.safetensors"}}).encode()
    fakehub.add("acme/partial", CFG, more_files={"model.safetensors.index.json": index,
                                                 "model-00001-of-00002.safetensors": _safetensors({"w": [4]})})
    raw = load_source("acme/partial")
    assert raw.checkpoint is None and "not in the repo" in raw.checkpoint_note
    assert "model-00002-of-00002.safetensors" in raw.checkpoint_note
    monkeypatch.setattr(src, "MAX_INDEX_BYTES", 10)
    raw = load_source("acme/partial")
    assert raw.checkpoint is None and "over the 10-byte cap" in raw.checkpoint_note


def test_header_read_failure_does_not_fail_the_sheet(fakehub, capsys):
    repo = fakehub.add("acme/flaky-weights", CFG, more_files={"model.safetensors": _safetensors({"w": [4]})})
    fakehub.fail_paths[f"/acme/flaky-weights/resolve/{repo.sha}/model.safetensors"] = 503
    assert main(["score", "acme/flaky-weights", "--format", "json", "--no-recommendations"]) == 0
    sheet = json.loads(capsys.readouterr().out)
    assert sheet["params"]["checkpoint"] is None
    assert any(s["id"] == "checkpoint" and "HTTP 503" in s["text"] for s in sheet["sources"])
    # retried as every other Hub read (3 attempts)
    assert sum(1 for m, p in fakehub.requests if p.endswith("/model.safetensors")) == 3
