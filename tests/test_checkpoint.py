"""The checkpoint as ground truth: safetensors headers read locally and from the (fake) Hub.

Every expected number here is derived in the test from the tensor shapes it writes (the state-dict layout of
transformers' LlamaForCausalLM, spelled out below), never from deploysheet's own counting.
"""

from __future__ import annotations

import json
import math
import struct

import numpy as np
import pytest

from scorer.cli import main

GIB = 2 ** 30
CFG = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 128, "intermediate_size": 256,
       "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 32,
       "vocab_size": 512, "tie_word_embeddings": False, "max_position_embeddings": 4096, "rms_norm_eps": 1e-5,
       "torch_dtype": "bfloat16"}
BITS = {"BF16": 16, "F16": 16, "F32": 32, "I32": 32, "U8": 8, "F8_E4M3": 8}


def llama_tensors(cfg: dict) -> dict[str, list[int]]:
    """LlamaForCausalLM's state dict (name -> shape, [out, in] for linears) for ``cfg``."""
    h, i, v = cfg["hidden_size"], cfg["intermediate_size"], cfg["vocab_size"]
    hd, nh, nkv = cfg["head_dim"], cfg["num_attention_heads"], cfg["num_key_value_heads"]
    out = {"model.embed_tokens.weight": [v, h]}
    for n in range(cfg["num_hidden_layers"]):
        p = f"model.layers.{n}."
        out |= {p + "self_attn.q_proj.weight": [nh * hd, h], p + "self_attn.k_proj.weight": [nkv * hd, h],
                p + "self_attn.v_proj.weight": [nkv * hd, h], p + "self_attn.o_proj.weight": [h, nh * hd],
                p + "mlp.gate_proj.weight": [i, h], p + "mlp.up_proj.weight": [i, h],
                p + "mlp.down_proj.weight": [h, i],
                p + "input_layernorm.weight": [h], p + "post_attention_layernorm.weight": [h]}
    out["model.norm.weight"] = [h]
    out["lm_head.weight"] = [v, h]
    return out


def numel(shape) -> int:
    return math.prod(shape)


def write_safetensors(path, tensors: dict[str, tuple[str, list[int]]], metadata: dict | None = None) -> int:
    """Write a safetensors file by hand (8-byte little-endian header length, JSON header, zero data); returns the
    bytes of tensor data."""
    header, off = {}, 0
    for name, (dtype, shape) in tensors.items():
        nbytes = -(-numel(shape) * BITS[dtype] // 8)
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [off, off + nbytes]}
        off += nbytes
    if metadata:
        header["__metadata__"] = metadata
    blob = json.dumps(header).encode()
    blob += b" " * (-len(blob) % 8)
    path.write_bytes(struct.pack("<Q", len(blob)) + blob + bytes(off))
    return off


def score(capsys, source: str, *extra: str) -> dict:
    assert main(["score", source, "--format", "json", "--no-recommendations", *extra]) == 0
    return json.loads(capsys.readouterr().out)


def folder(tmp_path, cfg: dict, name: str = "m"):
    d = tmp_path / name
    d.mkdir()
    (d / "config.json").write_text(json.dumps(cfg))
    return d


def c1(sheet: dict) -> list[dict]:
    return [f for f in sheet["findings"] if f["rule"] == "C1"]


# ------------------------------------------------------------------ local folders

def test_matching_checkpoint_written_by_safetensors(tmp_path, capsys):
    """A checkpoint written by the safetensors package itself: stored count = config count, no finding."""
    from safetensors.numpy import save_file
    d = folder(tmp_path, CFG)
    shapes = llama_tensors(CFG)
    save_file({k: np.zeros(s, dtype=np.float16) for k, s in shapes.items()}, str(d / "model.safetensors"))
    sheet = score(capsys, str(d))
    ck = sheet["params"]["checkpoint"]
    expected = sum(numel(s) for s in shapes.values())
    assert ck["total"] == expected == sheet["params"]["total"]
    assert ck["by_dtype"] == {"F16": expected}
    assert ck["bytes"] == 2 * expected
    assert ck["files"] == ["model.safetensors"] and "model.safetensors" in ck["source"]
    assert ck["matches"] and ck["differs"] == {} and not c1(sheet)
    mlp = sum(numel(s) for k, s in shapes.items() if ".mlp." in k)
    assert ck["by_component"]["mlp"] == mlp and ck["by_component"]["lm_head"] == 512 * 128
    # the stored bytes are the BF16 weight memory (F16 and BF16 are both 2 bytes)
    bf16 = next(w for w in sheet["weights"] if w["precision"] == "bf16")
    assert bf16["source"] == "checkpoint" and bf16["bytes"] == 2 * expected
    assert any("stored bytes" in a for a in sheet["assumptions"])


def test_widened_config_is_a_finding_naming_components(tmp_path, capsys):
    """Weights written for intermediate_size 256, config says 384: C1 names mlp and the checkpoint; memory uses the
    stored bytes."""
    wide = dict(CFG, intermediate_size=384)
    d = folder(tmp_path, wide)
    shapes = llama_tensors(CFG)
    data = write_safetensors(d / "model.safetensors", {k: ("BF16", s) for k, s in shapes.items()})
    sheet = score(capsys, str(d))
    ck = sheet["params"]["checkpoint"]
    stored = sum(numel(s) for s in shapes.values())
    config = sum(numel(s) for s in llama_tensors(wide).values())
    assert sheet["params"]["total"] == config
    assert ck["total"] == stored and ck["config_total"] == config and not ck["matches"]
    assert ck["differs"] == {"mlp": -(3 * 2 * 128 * (384 - 256))}
    [f] = c1(sheet)
    assert f["severity"] == "HARD"  # an MLP shape differs: engines refuse to load these weights
    # the weights contradict the config: its counts are not exact, and the sheet says why
    assert sheet["params"]["exact"] is False
    assert any("checkpoint stores" in r for r in sheet["params"]["estimate_reasons"])
    assert "mlp" in f["message"] and str(d) in f["message"] and f"{stored:,}" in f["message"]
    assert ck["bytes"] == data == 2 * stored
    bf16 = next(w for w in sheet["weights"] if w["precision"] == "bf16")
    assert bf16["source"] == "checkpoint" and bf16["bytes"] == 2 * stored
    tp1 = next(c for c in sheet["capacity"] if c["tp"] == 1)
    assert tp1["weights_per_gpu_gib"] == round(2 * stored / GIB, 2)
    # Markdown: config and stored side by side, the finding in the table
    assert main(["score", str(d), "--no-recommendations"]) == 0
    md = capsys.readouterr().out
    cfg_mlp, st_mlp = 2 * 3 * 128 * 384, 2 * 3 * 128 * 256
    assert f"| mlp | {cfg_mlp:,} | {st_mlp:,} ({st_mlp - cfg_mlp:+,}) |" in md
    assert "| C1 | HARD |" in md and "stored in the checkpoint" in md
    # the header does not claim a fit for weights engines refuse to load: it says so first
    head = next(line for line in md.splitlines() if line.startswith("**Score"))
    assert "engines refuse to load the checkpoint" in head and "as configured, fits" in head
    assert head.index("refuse to load") < head.index("as configured, fits")
    assert main(["score", str(d), "--no-recommendations", "--format", "html"]) == 0
    html = capsys.readouterr().out
    assert "engines refuse to load the checkpoint" in html and "as configured, fits" in html
    assert "stored in the checkpoint" in html and f"{st_mlp:,} ({st_mlp - cfg_mlp:+,})" in html


def test_sharded_folder_with_index(tmp_path, capsys):
    d = folder(tmp_path, CFG)
    shapes = llama_tensors(CFG)
    names = list(shapes)
    half = len(names) // 2
    shards = {"model-00001-of-00002.safetensors": names[:half], "model-00002-of-00002.safetensors": names[half:]}
    data = 0
    for fname, keys in shards.items():
        data += write_safetensors(d / fname, {k: ("BF16", shapes[k]) for k in keys})
    wm = {k: f for f, keys in shards.items() for k in keys}
    (d / "model.safetensors.index.json").write_text(json.dumps({"metadata": {"total_size": data}, "weight_map": wm}))
    sheet = score(capsys, str(d))
    ck = sheet["params"]["checkpoint"]
    assert ck["files"] == sorted(shards) and ck["tensors"] == len(names)
    assert ck["total"] == sum(numel(s) for s in shapes.values()) and ck["bytes"] == data and ck["matches"]
    assert "model.safetensors.index.json" in ck["source"]


def test_missing_shard_gives_null_with_reason(tmp_path, capsys):
    d = folder(tmp_path, CFG)
    shapes = llama_tensors(CFG)
    write_safetensors(d / "model-00001-of-00002.safetensors", {k: ("BF16", s) for k, s in shapes.items()})
    wm = {k: "model-00001-of-00002.safetensors" for k in shapes}
    wm["lm_head.weight"] = "model-00002-of-00002.safetensors"
    (d / "model.safetensors.index.json").write_text(json.dumps({"weight_map": wm}))
    sheet = score(capsys, str(d))
    assert sheet["params"]["checkpoint"] is None
    [src] = [s for s in sheet["sources"] if s["id"] == "checkpoint"]
    assert "missing locally" in src["text"] and "model-00002-of-00002.safetensors" in src["text"]
    assert all(w["source"] == "config" for w in sheet["weights"])


def test_a_dangling_shard_link_without_index_gives_null_with_reason(tmp_path, capsys):
    """Two shards and no index; the second is a dangling link (a download in progress in the Hub cache). Counting
    the first alone would be half the model without a word: the checkpoint is unreadable, the reason is shown."""
    d = folder(tmp_path, CFG)
    shapes = llama_tensors(CFG)
    names = list(shapes)
    write_safetensors(d / "model-00001-of-00002.safetensors",
                      {k: ("BF16", shapes[k]) for k in names[: len(names) // 2]})
    (d / "model-00002-of-00002.safetensors").symlink_to(tmp_path / "blob-not-downloaded-yet")
    sheet = score(capsys, str(d))
    assert sheet["params"]["checkpoint"] is None
    [src] = [s for s in sheet["sources"] if s["id"] == "checkpoint"]
    assert "not readable files" in src["text"] and "model-00002-of-00002.safetensors" in src["text"]
    assert sheet["params"]["total"] == sum(numel(x) for x in shapes.values())  # the config's count stands


def nvfp4_tensors(cfg: dict) -> tuple[dict[str, tuple[str, list[int]]], int, int]:
    """ModelOpt NVFP4 layout: each linear's ``weight`` U8 [out, in/2] (two FP4 per byte), ``weight_scale`` F8_E4M3
    [out, in/16], ``weight_scale_2`` and ``input_scale`` F32 scalars; embeddings, norms and lm_head BF16.
    Returns (tensors, logical parameters, scale tensors)."""
    out, params, scales = {}, 0, 0
    for name, shape in llama_tensors(cfg).items():
        params += numel(shape)
        if name.endswith("proj.weight"):
            o, i = shape
            base = name[: -len("weight")]
            out |= {name: ("U8", [o, i // 2]), base + "weight_scale": ("F8_E4M3", [o, i // 16]),
                    base + "weight_scale_2": ("F32", []), base + "input_scale": ("F32", [])}
            scales += 3
        else:
            out[name] = ("BF16", shape)
    return out, params, scales


def test_nvfp4_checkpoint_counts_elements_not_bytes(tmp_path, capsys):
    cfg = dict(CFG, quantization_config={"quant_method": "modelopt", "quant_algo": "NVFP4", "group_size": 16,
                                         "exclude_modules": ["lm_head"]})
    d = folder(tmp_path, cfg)
    tensors, params, n_scales = nvfp4_tensors(CFG)
    data = write_safetensors(d / "model.safetensors", tensors)
    sheet = score(capsys, str(d))
    ck = sheet["params"]["checkpoint"]
    assert ck["total"] == params == sheet["params"]["total"] and ck["matches"] and not c1(sheet)
    u8 = sum(numel(s) for dt, s in tensors.values() if dt == "U8")
    assert ck["by_dtype"]["U8"] == 2 * u8 and ck["packed"]["U8"] == {"bits": 4, "stored_elements": u8,
                                                                      "elements": 2 * u8}
    assert ck["scales"]["tensors"] == n_scales and "F8_E4M3" in ck["scales"]["by_dtype"]
    assert ck["bytes"] == data
    nv = next(w for w in sheet["weights"] if w["precision"] == "nvfp4")
    assert sheet["options"]["precision"] == "nvfp4" and nv["source"] == "checkpoint" and nv["bytes"] == data


def test_gptq_int4_checkpoint_counts_elements(tmp_path, capsys):
    """GPTQ: qweight I32 [in/8, out] (8 int4 per word), qzeros I32 [in/128, out/8], scales F16 [in/128, out],
    g_idx I32 [in]."""
    cfg = dict(CFG, quantization_config={"quant_method": "gptq", "bits": 4, "group_size": 128})
    d = folder(tmp_path, cfg)
    tensors, params, scale_bytes = {}, 0, 0
    for name, shape in llama_tensors(CFG).items():
        params += numel(shape)
        if name.endswith("proj.weight"):
            o, i = shape
            base = name[: -len("weight")]
            q = {base + "qweight": ("I32", [i // 8, o]), base + "qzeros": ("I32", [i // 128, o // 8]),
                 base + "scales": ("F16", [i // 128, o]), base + "g_idx": ("I32", [i])}
            tensors |= q
            scale_bytes += 4 * (i // 128) * (o // 8) + 2 * (i // 128) * o + 4 * i
        else:
            tensors[name] = ("F16", shape)
    data = write_safetensors(d / "model.safetensors", tensors)
    sheet = score(capsys, str(d))
    ck = sheet["params"]["checkpoint"]
    assert ck["total"] == params and ck["matches"] and not c1(sheet)
    assert ck["packed"]["I32"]["elements"] == 8 * ck["packed"]["I32"]["stored_elements"]
    assert ck["scales"]["bytes"] == scale_bytes and ck["bytes"] == data


def test_mxfp4_blocks_and_scales():
    """gpt-oss names: *_blocks U8 [E, out, in/32, 16] hold 2 FP4 per byte; *_scales U8 are scales."""
    from scorer.architecture import QuantSpec
    from scorer.checkpoint import component_of, elements, tensor_role
    from scorer.sources import StoredTensor

    q = QuantSpec(method="mxfp4", format="mxfp4", weight_bits=4, group_size=32)
    blocks = StoredTensor(name="model.layers.0.mlp.experts.gate_up_proj_blocks", dtype="U8",
                          shape=[32, 5760, 90, 16], nbytes=32 * 5760 * 90 * 16, file="x")
    assert elements(blocks, q) == (32 * 5760 * 2880, 32 * 5760 * 90 * 16)
    assert component_of(blocks.name, 24, False) == "routed_experts"
    assert tensor_role("model.layers.0.mlp.experts.gate_up_proj_scales", True) == "scale"
    assert tensor_role("model.layers.0.mlp.experts.gate_up_proj_bias", True) == "parameter"
    assert component_of("model.layers.0.mlp.router.weight", 24, False) == "router"
    assert component_of("model.layers.0.self_attn.sinks", 24, False) == "attention"


def test_f32_checkpoint_keeps_modelled_memory(tmp_path, capsys):
    d = folder(tmp_path, CFG)
    write_safetensors(d / "model.safetensors", {k: ("F32", s) for k, s in llama_tensors(CFG).items()})
    sheet = score(capsys, str(d))
    assert sheet["params"]["checkpoint"]["stored_precision"] is None
    assert all(w["source"] == "config" for w in sheet["weights"])
    assert any("wider than 16 bits" in a for a in sheet["assumptions"])


@pytest.mark.parametrize("blob,why", [
    (struct.pack("<Q", 19) + b'{"a": not json here', "malformed safetensors header"),
    (struct.pack("<Q", 2) + b'[]', "malformed safetensors header"),
    (struct.pack("<Q", 26) + b'{"w": {"dtype": "BF16"}}  ', "malformed safetensors header"),
    (b"version https://git-lfs.github.com/spec/v1\noid sha256:00\nsize 12\n", "Git LFS pointer"),
    (struct.pack("<Q", 10 ** 12) + b"{}", "over the"),
    (struct.pack("<Q", 4096) + b"{}", "truncated"),
    (b"\x01\x02", "too small"),
])
def test_malformed_header_null_with_reason(tmp_path, capsys, blob, why):
    """Documented behaviour: the sheet is still made from the config (exit 0), params.checkpoint is null and the
    reason is in the sources and beside the counts."""
    d = folder(tmp_path, CFG)
    (d / "model.safetensors").write_bytes(blob)
    sheet = score(capsys, str(d))
    assert sheet["params"]["checkpoint"] is None
    [src] = [s for s in sheet["sources"] if s["id"] == "checkpoint"]
    assert why in src["text"] and "\n" not in src["text"]
    assert main(["score", str(d), "--no-recommendations"]) == 0
    assert "| stored in the checkpoint | not read:" in capsys.readouterr().out


def test_inconsistent_data_offsets_and_truncated_data(tmp_path, capsys):
    d = folder(tmp_path, CFG)
    hdr = json.dumps({"model.norm.weight": {"dtype": "BF16", "shape": [128], "data_offsets": [0, 100]}}).encode()
    (d / "model.safetensors").write_bytes(struct.pack("<Q", len(hdr)) + hdr + bytes(100))
    sheet = score(capsys, str(d))
    [src] = [s for s in sheet["sources"] if s["id"] == "checkpoint"]
    assert "span 100 bytes (expected 256)" in src["text"]
    hdr = json.dumps({"model.norm.weight": {"dtype": "BF16", "shape": [128], "data_offsets": [0, 256]}}).encode()
    (d / "model.safetensors").write_bytes(struct.pack("<Q", len(hdr)) + hdr + bytes(10))
    sheet = score(capsys, str(d))
    [src] = [s for s in sheet["sources"] if s["id"] == "checkpoint"]
    assert "truncated" in src["text"]


def raw_header_file(path, entries: list[tuple[str, str, list[int], int, int]], data: int) -> None:
    """Write a safetensors file whose JSON header is spelled out entry by entry (a key may repeat, as a hand-made
    or corrupt header can, which a dict could not express)."""
    body = ", ".join(f'"{n}": {{"dtype": "{dt}", "shape": {json.dumps(sh)}, "data_offsets": [{b}, {e}]}}'
                     for n, dt, sh, b, e in entries)
    hdr = ("{" + body + "}").encode()
    path.write_bytes(struct.pack("<Q", len(hdr)) + hdr + bytes(data))


def test_overlapping_duplicate_or_gapped_tensors_are_unreadable(tmp_path, capsys):
    """safetensors requires each tensor to start where the previous ended (Metadata::validate): two tensors
    sharing bytes, a key written twice (the JSON parser keeps the last: a gap where the first was) and one tensor
    in two shards are refused with the reason, not counted."""
    d = folder(tmp_path, CFG)
    # two 256-byte norms over the same bytes 0-256
    raw_header_file(d / "model.safetensors", [("model.norm.weight", "BF16", [128], 0, 256),
                                              ("model.layers.0.input_layernorm.weight", "BF16", [128], 0, 256)], 256)
    sheet = score(capsys, str(d))
    assert sheet["params"]["checkpoint"] is None
    [src] = [s for s in sheet["sources"] if s["id"] == "checkpoint"]
    assert "overlaps" in src["text"] and "model.safetensors" in src["text"]
    # the same key twice: the parser keeps the second entry, bytes 0-256 belong to nobody
    raw_header_file(d / "model.safetensors", [("model.norm.weight", "BF16", [128], 0, 256),
                                              ("model.norm.weight", "BF16", [128], 256, 512)], 512)
    sheet = score(capsys, str(d))
    assert sheet["params"]["checkpoint"] is None
    [src] = [s for s in sheet["sources"] if s["id"] == "checkpoint"]
    assert "unaccounted" in src["text"] and "bytes 0-256" in src["text"]
    # one tensor stored in two shards (no index: every *.safetensors file is read)
    (d / "model.safetensors").unlink()
    for name in ("a.safetensors", "b.safetensors"):
        write_safetensors(d / name, {"model.norm.weight": ("BF16", [128])})
    sheet = score(capsys, str(d))
    assert sheet["params"]["checkpoint"] is None
    [src] = [s for s in sheet["sources"] if s["id"] == "checkpoint"]
    assert "stored twice" in src["text"] and "a.safetensors" in src["text"] and "b.safetensors" in src["text"]


def test_model_controlled_names_are_escaped(tmp_path, capsys):
    """A tensor name carrying Markdown/HTML ends up only in escaped form."""
    d = folder(tmp_path, CFG)
    tensors = {k: ("BF16", s) for k, s in llama_tensors(CFG).items()}
    write_safetensors(d / "model.safetensors", tensors)
    hdr = json.dumps({"<img src=x onerror=alert(1)>|**x**": {"dtype": "BF16", "shape": [128],
                                                              "data_offsets": [0, 100]}}).encode()
    (d / "model.safetensors").write_bytes(struct.pack("<Q", len(hdr)) + hdr + bytes(100))
    assert main(["score", str(d), "--no-recommendations"]) == 0
    md = capsys.readouterr().out
    assert "<img" not in md and "&lt;img" in md
    assert main(["score", str(d), "--no-recommendations", "--format", "html"]) == 0
    assert "<img src=x" not in capsys.readouterr().out


def test_bare_config_has_no_checkpoint(write_config, capsys):
    sheet = score(capsys, str(write_config(CFG)))
    assert sheet["params"]["checkpoint"] is None
    assert not [s for s in sheet["sources"] if s["id"] == "checkpoint"]


# ------------------------------------------------------------------ the Hub (real huggingface_hub client)

def _bytes(tensors: dict[str, tuple[str, list[int]]], tmp_path, metadata=None) -> bytes:
    p = tmp_path / "blob.safetensors"
    write_safetensors(p, tensors, metadata)
    return p.read_bytes()


def test_hub_checkpoint_read_with_range_requests(fakehub, tmp_path, capsys):
    shapes = llama_tensors(CFG)
    blob = _bytes({k: ("BF16", s) for k, s in shapes.items()}, tmp_path)
    assert len(blob) > 100_001  # the first range read does not cover the file: only the header is fetched
    repo = fakehub.add("acme/ckpt", CFG, more_files={"model.safetensors": blob})
    sheet = score(capsys, "acme/ckpt")
    ck = sheet["params"]["checkpoint"]
    assert ck["total"] == sum(numel(s) for s in shapes.values()) and ck["matches"]
    assert ck["bytes"] == len(blob) - 8 - struct.unpack("<Q", blob[:8])[0]
    assert "acme/ckpt" in ck["source"] and "model.safetensors" in ck["source"] and "Range" in ck["source"]
    path = f"/acme/ckpt/resolve/{repo.sha}/model.safetensors"
    assert fakehub.ranges == [(path, "bytes=0-100000")]
    # the weights were never downloaded whole
    assert all(p != path or (p, "bytes=0-100000") in fakehub.ranges for m, p in fakehub.requests if m == "GET")
    assert sum(1 for m, p in fakehub.requests if m == "GET" and p == path) == 1


def test_hub_long_header_takes_a_second_range_read(fakehub, tmp_path, capsys):
    shapes = llama_tensors(CFG)
    blob = _bytes({k: ("BF16", s) for k, s in shapes.items()}, tmp_path, metadata={"pad": "x" * 150_000})
    n = struct.unpack("<Q", blob[:8])[0]
    repo = fakehub.add("acme/long", CFG, more_files={"model.safetensors": blob})
    ck = score(capsys, "acme/long")["params"]["checkpoint"]
    assert ck["total"] == sum(numel(s) for s in shapes.values())
    path = f"/acme/long/resolve/{repo.sha}/model.safetensors"
    assert fakehub.ranges == [(path, "bytes=0-100000"), (path, f"bytes=8-{n + 7}")]


def test_hub_sharded_checkpoint(fakehub, tmp_path, capsys):
    shapes = llama_tensors(CFG)
    names = list(shapes)
    shards = {"model-00001-of-00002.safetensors": names[:5], "model-00002-of-00002.safetensors": names[5:]}
    files = {f: _bytes({k: ("BF16", shapes[k]) for k in keys}, tmp_path) for f, keys in shards.items()}
    files["model.safetensors.index.json"] = json.dumps(
        {"weight_map": {k: f for f, keys in shards.items() for k in keys}}).encode()
    repo = fakehub.add("acme/sharded", CFG, more_files=files)
    ck = score(capsys, "acme/sharded")["params"]["checkpoint"]
    assert ck["total"] == sum(numel(s) for s in shapes.values()) and ck["files"] == sorted(shards)
    assert sorted(fakehub.ranges) == sorted((f"/acme/sharded/resolve/{repo.sha}/{f}", "bytes=0-100000")
                                            for f in shards)


def test_hub_malformed_header_null_with_reason(fakehub, capsys):
    fakehub.add("acme/broken", CFG, more_files={"model.safetensors": struct.pack("<Q", 12) + b"{not json!!}"})
    sheet = score(capsys, "acme/broken")
    assert sheet["params"]["checkpoint"] is None
    [src] = [s for s in sheet["sources"] if s["id"] == "checkpoint"]
    assert "malformed safetensors header" in src["text"]


def test_hub_summary_kept_when_headers_absent(fakehub, capsys):
    """Listed but not served (the fake answers 404): no inventory, the reason, and model_info's summary stays."""
    fakehub.add("acme/listed", CFG, safetensors={"BF16": 123456}, extra_files=["model.safetensors"])
    sheet = score(capsys, "acme/listed")
    assert sheet["params"]["checkpoint"] is None and sheet["hub_params"]["stored_total"] == 123456
    [src] = [s for s in sheet["sources"] if s["id"] == "checkpoint"]
    assert "HTTP 404" in src["text"]


DSV3 = {"model_type": "deepseek_v3", "architectures": ["DeepseekV3ForCausalLM"], "hidden_size": 64,
        "intermediate_size": 128, "moe_intermediate_size": 32, "num_hidden_layers": 2, "first_k_dense_replace": 1,
        "n_routed_experts": 4, "n_shared_experts": 1, "num_experts_per_tok": 2, "num_attention_heads": 4,
        "num_key_value_heads": 4, "q_lora_rank": 32, "kv_lora_rank": 16, "qk_nope_head_dim": 16,
        "qk_rope_head_dim": 8, "v_head_dim": 16, "vocab_size": 256, "num_nextn_predict_layers": 1,
        "max_position_embeddings": 4096, "tie_word_embeddings": False, "n_group": 1, "topk_group": 1}


def dsv3_tensors(c: dict) -> dict[str, list[int]]:
    """DeepseekV3ForCausalLM's checkpoint layout, MTP layer (index num_hidden_layers) included as DeepSeek ships it:
    with its own embed_tokens and shared_head.head."""
    h, v, nh = c["hidden_size"], c["vocab_size"], c["num_attention_heads"]
    qk = c["qk_nope_head_dim"] + c["qk_rope_head_dim"]

    def layer(p: str, moe: bool) -> dict[str, list[int]]:
        d = {p + "self_attn.q_a_proj.weight": [c["q_lora_rank"], h], p + "self_attn.q_a_layernorm.weight":
             [c["q_lora_rank"]], p + "self_attn.q_b_proj.weight": [nh * qk, c["q_lora_rank"]],
             p + "self_attn.kv_a_proj_with_mqa.weight": [c["kv_lora_rank"] + c["qk_rope_head_dim"], h],
             p + "self_attn.kv_a_layernorm.weight": [c["kv_lora_rank"]],
             p + "self_attn.kv_b_proj.weight": [nh * (c["qk_nope_head_dim"] + c["v_head_dim"]), c["kv_lora_rank"]],
             p + "self_attn.o_proj.weight": [h, nh * c["v_head_dim"]],
             p + "input_layernorm.weight": [h], p + "post_attention_layernorm.weight": [h]}
        if not moe:
            i = c["intermediate_size"]
            return d | {p + "mlp.gate_proj.weight": [i, h], p + "mlp.up_proj.weight": [i, h],
                        p + "mlp.down_proj.weight": [h, i]}
        i, e = c["moe_intermediate_size"], c["n_routed_experts"]
        d |= {p + "mlp.gate.weight": [e, h], p + "mlp.gate.e_score_correction_bias": [e]}
        for j in range(e):
            d |= {p + f"mlp.experts.{j}.gate_proj.weight": [i, h], p + f"mlp.experts.{j}.up_proj.weight": [i, h],
                  p + f"mlp.experts.{j}.down_proj.weight": [h, i]}
        si = i * c["n_shared_experts"]
        return d | {p + "mlp.shared_experts.gate_proj.weight": [si, h], p + "mlp.shared_experts.up_proj.weight":
                    [si, h], p + "mlp.shared_experts.down_proj.weight": [h, si]}

    n = c["num_hidden_layers"]
    out = {"model.embed_tokens.weight": [v, h], "model.norm.weight": [h], "lm_head.weight": [v, h]}
    for k in range(n):
        out |= layer(f"model.layers.{k}.", k >= c["first_k_dense_replace"])
    m = f"model.layers.{n}."
    out |= layer(m, True) | {m + "embed_tokens.weight": [v, h], m + "enorm.weight": [h], m + "hnorm.weight": [h],
                             m + "eh_proj.weight": [h, 2 * h], m + "shared_head.norm.weight": [h],
                             m + "shared_head.head.weight": [v, h]}
    return out


def test_deepseek_mtp_copies_and_router_buffer(tmp_path, capsys):
    """params.mtp counts the MTP layer as DeepSeek-V3 checkpoints store it, its own embedding and head copies
    included (params.mtp_copies): the checkpoint matches as it is; e_score_correction_bias is a buffer."""
    d = folder(tmp_path, DSV3)
    shapes = dsv3_tensors(DSV3)
    write_safetensors(d / "model.safetensors", {k: ("BF16", s) for k, s in shapes.items()})
    sheet = score(capsys, str(d))
    ck = sheet["params"]["checkpoint"]
    n = DSV3["num_hidden_layers"]
    main_layers = {k: s for k, s in shapes.items() if not k.startswith(f"model.layers.{n}.")}
    params = sum(numel(s) for k, s in main_layers.items() if not k.endswith("e_score_correction_bias"))
    assert sheet["params"]["total"] == params
    mtp = sum(numel(s) for k, s in shapes.items() if k.startswith(f"model.layers.{n}.")
              and not k.endswith("e_score_correction_bias"))
    assert sheet["params"]["mtp"] == mtp and sheet["params"]["mtp_copies"] == 2 * 256 * 64
    assert ck["buffers"]["tensors"] == 2  # one MoE layer + the MTP layer
    assert ck["matches"] and not c1(sheet) and ck["differs"] == {} and ck["notes"] == []
    assert ck["by_component"]["routed_experts"] == 4 * 3 * 32 * 64


def test_deepseek_mtp_without_copies_is_a_note(tmp_path, capsys):
    """A DeepSeek-V3 checkpoint whose MTP layer leaves out the embedding and head copies: a note, not C1."""
    d = folder(tmp_path, DSV3)
    n = DSV3["num_hidden_layers"]
    shapes = {k: s for k, s in dsv3_tensors(DSV3).items()
              if k not in (f"model.layers.{n}.embed_tokens.weight", f"model.layers.{n}.shared_head.head.weight")}
    write_safetensors(d / "model.safetensors", {k: ("BF16", s) for k, s in shapes.items()})
    sheet = score(capsys, str(d))
    ck = sheet["params"]["checkpoint"]
    assert ck["matches"] and not c1(sheet) and ck["differs"] == {}
    assert ck["notes"] and "do not store" in ck["notes"][0] and f"{2 * 256 * 64:,}" in ck["notes"][0]


def test_modelopt_mixed_precision_packed_layers(tmp_path, capsys):
    """MIXED_PRECISION with mostly FP8 layers (F8_E4M3 weight) and an NVFP4 layer (U8 weight, 2 per byte)."""
    shapes = llama_tensors(CFG)
    linears = [k[: -len(".weight")] for k in shapes if k.endswith("proj.weight")]
    nv = {linears[0]}  # one NVFP4 layer, the rest FP8
    layers = {m: ({"quant_algo": "NVFP4", "group_size": 16} if m in nv else {"quant_algo": "FP8"}) for m in linears}
    cfg = dict(CFG, quantization_config={"quant_method": "modelopt", "quant_algo": "MIXED_PRECISION",
                                         "quantized_layers": layers})
    d = folder(tmp_path, cfg)
    tensors = {}
    for name, shape in shapes.items():
        mod = name[: -len(".weight")]
        if mod in nv:
            tensors |= {name: ("U8", [shape[0], shape[1] // 2]),
                        mod + ".weight_scale": ("F8_E4M3", [shape[0], shape[1] // 16])}
        elif mod in layers:
            tensors |= {name: ("F8_E4M3", shape), mod + ".weight_scale": ("F32", [])}
        else:
            tensors[name] = ("BF16", shape)
    write_safetensors(d / "model.safetensors", tensors)
    ck = score(capsys, str(d))["params"]["checkpoint"]
    assert ck["total"] == sum(numel(s) for s in shapes.values()) and ck["matches"]
    o, i = shapes[linears[0] + ".weight"]
    assert ck["packed"]["U8"] == {"bits": 4, "stored_elements": o * i // 2, "elements": o * i}


def test_headers_safetensors_itself_refuses_are_unreadable(tmp_path, capsys):
    """safetensors refuses a dtype outside its Dtype enum, data beyond the last tensor (MetadataIncompleteBuffer)
    and a header of no tensors; so does the reader, with the reason (not raw Python exception text)."""
    d = folder(tmp_path, CFG)
    cases = {
        "not a safetensors dtype": ([("model.norm.weight", "BF17", [128], 0, 256)], 256),
        "100 bytes follow the last tensor": ([("model.norm.weight", "BF16", [128], 0, 256)], 356),
        "holds no tensors": ([], 0),
    }
    for why, (entries, data) in cases.items():
        raw_header_file(d / "model.safetensors", entries, data)
        sheet = score(capsys, str(d))
        assert sheet["params"]["checkpoint"] is None
        [src] = [s for s in sheet["sources"] if s["id"] == "checkpoint"]
        assert why in src["text"], src["text"]
    hdr = b'{"model.norm.weight": "BF16"}'
    (d / "model.safetensors").write_bytes(struct.pack("<Q", len(hdr)) + hdr)
    sheet = score(capsys, str(d))
    [src] = [s for s in sheet["sources"] if s["id"] == "checkpoint"]
    assert "not an object of tensor name" in src["text"] and "indices" not in src["text"]


def test_any_gemm_shape_difference_is_c1_however_small(tmp_path, capsys):
    """One down_proj stored [h, i + 1] instead of [h, i]: 128 parameters of ~230 k (0.06%, under the 0.1%
    tolerance), but vLLM's default_weight_loader asserts the shape, so the checkpoint does not load."""
    d = folder(tmp_path, CFG)
    shapes = llama_tensors(CFG)
    shapes["model.layers.0.mlp.down_proj.weight"] = [128, 257]
    write_safetensors(d / "model.safetensors", {k: ("BF16", s) for k, s in shapes.items()})
    sheet = score(capsys, str(d))
    ck = sheet["params"]["checkpoint"]
    assert ck["differs"] == {"mlp": 128} and abs(ck["delta_pct"]) < 0.1 and not ck["matches"]
    [f] = c1(sheet)
    assert f["severity"] == "HARD"
    assert main(["predict", str(d), "--isl", "8", "--osl", "8", "--concurrency", "1"]) == 0
    notes = json.loads(capsys.readouterr().out)["notes"]
    assert any("engines refuse to load this checkpoint" in n for n in notes)
    assert main(["compare", str(d), "example:qwen3-4b", "--isl", "100", "--osl", "10", "--qps", "1",
                 "--format", "json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    col = next(m for m in rep["models"] if m["name"] != "example:qwen3-4b")
    assert any(r["kind"] == "checkpoint_refused" and r["severity"] == "high" for r in col["risks"])
    assert rep["recommendation"]["winner"] == "example:qwen3-4b"


@pytest.mark.parametrize("name,component", [
    ("classification_head.dense.weight", "task_head"),        # BartForSequenceClassification
    ("classification_head.out_proj.bias", "task_head"),       # T5ForSequenceClassification
    ("qa_classifier.intermediate.dense.weight", "task_head"), # BigBirdForQuestionAnswering's block
    ("qa_classifier.output.LayerNorm.weight", "task_head"),
    ("discriminator_predictions.dense_prediction.weight", "task_head"),  # ElectraForPreTraining
    ("cls.seq_relationship.weight", "task_head"),             # BertForPreTraining's NSP head
    ("electra.embeddings_project.weight", "embedding"),       # ELECTRA's factorized table projected to hidden
    ("model.encoder.layers.0.fc1.weight", "mlp"),
])
def test_head_tensors_are_filed_with_the_head(name, component):
    """The breaker trial's checkpoints (headers written from transformers' own parameter names) matched in total but
    filed these head tensors under other / mlp / norms: a false HARD C1 ('engines refuse to load')."""
    from scorer.checkpoint import component_of
    assert component_of(name, 12, False) == component
