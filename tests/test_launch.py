"""Issue 14: the command that deploys each regime's layout, in each engine's own CLI spelling.

data/engine_flags.json holds the flags each engine accepts, read from its wheel by scripts/engine_flags.py
(vLLM 0.33.0: vllm/engine/arg_utils.py; SGLang 0.5.23: sglang/srt/arg_groups/fields/*.py and add_argument calls).
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from scorer.cli import main
from scorer.launch import engine_flags

EXAMPLES = sorted(p.name for p in (Path(__file__).resolve().parent.parent / "data" / "examples").iterdir()
                  if p.is_dir())


def _opts(argv: list[str]) -> dict[str, str | None]:
    out, i = {}, 0
    while i < len(argv):
        a = argv[i]
        if a.startswith("--"):
            nxt = argv[i + 1] if i + 1 < len(argv) else None
            if nxt is None or nxt.startswith("--"):
                out[a] = None
                i += 1
            else:
                out[a] = nxt
                i += 2
        else:
            i += 1
    return out


def test_flag_tables_come_from_the_wheels():
    doc = json.loads((Path(__file__).resolve().parent.parent / "data" / "engine_flags.json").read_text())
    assert doc["engines"]["vllm"]["version"] == "0.33.0" and doc["engines"]["sglang"]["version"] == "0.5.23"
    assert "vllm/engine/arg_utils.py" in doc["engines"]["vllm"]["files"]
    for f in ("--tensor-parallel-size", "--max-num-seqs", "--max-num-batched-tokens", "--kv-cache-dtype"):
        assert f in engine_flags("vllm")
    for f in ("--tp-size", "--attn-dp-size", "--max-running-requests", "--mem-fraction-static"):
        assert f in engine_flags("sglang")
    assert "--attn-dp-size" in engine_flags("sglang")  # 0.5.23 counts attention DP here (--dp-size: replicas)
    assert not engine_flags("trtllm")


@pytest.mark.parametrize("name", EXAMPLES)
@pytest.mark.parametrize("framework", ["vllm", "sglang"])
def test_every_command_parses_and_realizes_the_regimes_layout(name, framework, capsys):
    assert main(["score", f"example:{name}", "--gpu", "H100-SXM", "--gpu", "B200", "--framework", framework,
                 "--format", "json", "--no-recommendations"]) == 0
    doc = json.loads(capsys.readouterr().out)
    flags = engine_flags(framework)
    n = 0
    for regs in doc["regimes"].values():
        for r in regs:
            x, cmd = r["prediction"], r["launch"]
            if x is None:
                assert cmd is None
                continue
            argv = shlex.split(cmd["text"])
            assert argv == cmd["argv"]
            opts = _opts(argv)
            assert set(opts) <= flags, set(opts) - flags
            dp = x["num_gpus"] // (x["tp"] * x["pp"])
            running = x["concurrency"] - x["queued"]
            if framework == "vllm":
                assert argv[:2] == ["vllm", "serve"]
                assert int(opts["--tensor-parallel-size"]) == x["tp"]
                assert int(opts.get("--pipeline-parallel-size") or 1) == x["pp"]
                assert int(opts.get("--data-parallel-size") or 1) == dp
                assert ("--enable-expert-parallel" in opts) == (x["ep"] > 1)
                assert int(opts["--max-num-seqs"]) == running
                assert int(opts["--max-model-len"]) == x["isl"] + x["osl"]
            else:
                assert argv[:3] == ["python", "-m", "sglang.launch_server"]
                assert int(opts["--tp-size"]) == x["tp"] * dp
                assert int(opts.get("--attn-dp-size") or 1) == dp
                assert int(opts.get("--ep-size") or 1) == x["ep"]
                assert int(opts["--max-running-requests"]) == running
                assert int(opts["--context-length"]) == x["isl"] + x["osl"]
            n += 1
    assert n > 0


def test_multinode_fp8_and_speculative_commands(tmp_path, capsys):
    cfg = tmp_path / "config.json"
    cfg.write_text(json.dumps({"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 16384,
                               "intermediate_size": 53248, "num_hidden_layers": 126, "num_attention_heads": 128,
                               "num_key_value_heads": 8, "vocab_size": 128256, "max_position_embeddings": 131072}))
    assert main(["predict", str(cfg), "--gpu", "H100-SXM", "--tp", "16", "--precision", "fp8", "--kv-dtype", "fp8",
                 "--isl", "1024", "--osl", "256", "--concurrency", "16", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    opts = _opts(out["launch"]["argv"])
    assert set(opts) <= engine_flags("vllm")
    assert opts["--quantization"] == "fp8" and opts["--kv-cache-dtype"] == "fp8"
    assert opts["--nnodes"] == "2" and any("every node" in n for n in out["launch"]["notes"])
    assert main(["predict", "example:llama-3.1-8b", "--framework", "sglang", "--speculative", "eagle3", "--isl", "512",
                 "--osl", "64", "--concurrency", "4", "--format", "json"]) == 0
    opts = _opts(json.loads(capsys.readouterr().out)["launch"]["argv"])
    assert opts["--speculative-algorithm"] == "EAGLE3" and opts["--speculative-num-steps"] == "3"
    assert set(opts) <= engine_flags("sglang")
    # an NVFP4 prediction on a bf16 checkpoint: no online quantization flag, a note says a quantized checkpoint
    assert main(["predict", "example:llama-3.1-8b", "--gpu", "B200", "--precision", "nvfp4", "--isl", "512", "--osl",
                 "64", "--concurrency", "4", "--format", "json"]) == 0
    launch = json.loads(capsys.readouterr().out)["launch"]
    assert "--quantization" not in launch["argv"] and any("quantized to nvfp4" in n for n in launch["notes"])
    assert main(["predict", "example:llama-3.1-8b", "--framework", "trtllm", "--isl", "512", "--osl", "64",
                 "--concurrency", "4", "--format", "json"]) == 0
    launch = json.loads(capsys.readouterr().out)["launch"]
    assert launch["argv"] == [] and "could not be read" in launch["notes"][0]


def test_compare_gives_each_cheapest_deployment_its_command(capsys):
    assert main(["compare", "example:llama-3.1-8b", "example:mixtral-8x7b", "--isl", "512", "--osl", "128", "--qps",
                 "4", "--gpu", "H100-SXM", "--framework", "sglang", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    for m in doc["models"]:
        for d in m["deployments"]:
            if d["status"] != "ok":
                continue
            opts = _opts(d["launch"]["argv"])
            assert set(opts) <= engine_flags("sglang")
            x = d["prediction"]
            assert int(opts["--tp-size"]) == x["num_gpus"] // x["pp"]
            assert int(opts["--max-running-requests"]) == x["concurrency"] - x["queued"]
    assert main(["compare", "example:llama-3.1-8b", "example:qwen3-4b", "--isl", "512", "--osl", "128", "--qps", "2"]) == 0
    assert "Launch commands of each model's cheapest deployment" in capsys.readouterr().out
