"""The header, the capacity rows, ``--tp`` and ``predict`` name only layouts the engine runs, and cost them as it
lays them out (bad-input trial of issue 13's "only what the engine runs").

Expected values are derived here from the configs written in each test and the engines' rules quoted beside them.
"""

from __future__ import annotations

import json

from transformers import LlamaConfig, Qwen3MoeConfig

from scorer.cli import main

GIB = 2 ** 30


#: DeepSeek-V2-Lite's published expert width (moe_intermediate_size 1408 = 11 x 128): whole it is a multiple of
#: Marlin's group 128; split 8 ways it is 176, and 176 % 128, 176 % 64 and 176 % 32 are all non-zero
NARROW_EXPERTS = 1408


def _qwen3_235b(tmp_path, experts_width: int = 1536):
    """Qwen3-235B-A22B's published shape (hidden 4096, 94 layers, 128 experts x 1536, top-8, 64/4 heads); with
    ``experts_width`` another expert width."""
    cfg = Qwen3MoeConfig(hidden_size=4096, intermediate_size=12288, moe_intermediate_size=experts_width,
                         num_hidden_layers=94,
                         num_attention_heads=64, num_key_value_heads=4, head_dim=128, num_experts=128,
                         num_experts_per_tok=8, vocab_size=151936, max_position_embeddings=40960,
                         tie_word_embeddings=False).to_dict()
    cfg["architectures"] = ["Qwen3MoeForCausalLM"]
    p = tmp_path / ("qwen3-235b.json" if experts_width == 1536 else f"qwen3-235b-x{experts_width}.json")
    p.write_text(json.dumps(cfg))
    return p


def _score(capsys, *args) -> tuple[int, str, str]:
    rc = main(["score", *args])
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_moe_fit_counts_expert_parallel_where_tp_splits_are_refused(tmp_path, capsys):
    """int4 at TP8 splits each expert's width 1408 into 176 columns: vLLM 0.33.0's fused Marlin MoE needs the width
    per rank % group 128 (176 % 128 = 48), and its MoE WNA16 fallback halves the group while it does not divide
    the width, down to 32 (176 % 64 = 48, 176 % 32 = 16: no group of 32 or more, refused). With EP8 every expert
    stays whole (1408 % 128 = 0, 1408 % 64 = 0: Marlin runs it). The regimes use TP8·EP8, so the header's fit and
    the capacity rows must say so, not "does not fit one node"."""
    src = str(_qwen3_235b(tmp_path, NARROW_EXPERTS))
    rc, out, _ = _score(capsys, src, "--gpu", "L4", "--precision", "int4", "--format", "json", "--no-recommendations")
    assert rc == 0
    sheet = json.loads(out)
    rows = {(c["tp"], c["ep"]): c for c in sheet["capacity"]}
    assert rows[(8, 1)]["engine_blocker"] and "176 % 128 = 48" in rows[(8, 1)]["engine_blocker"]
    ep8 = rows[(8, 8)]
    assert ep8["engine_blocker"] is None and ep8["layout"] == "TP8·EP8" and ep8["nodes"] == 1
    # the same bytes spread over the same 8 GPUs either way
    assert ep8["weights_per_gpu_gib"] == rows[(8, 1)]["weights_per_gpu_gib"]
    assert min(ep8["max_sequences"].values()) >= 1
    lat = next(r for r in sheet["regimes"]["L4"] if r["id"] == "latency")
    assert lat["prediction"]["layout"] == "TP8·EP8"
    rc, md, _ = _score(capsys, src, "--gpu", "L4", "--precision", "int4", "--no-recommendations")
    head = next(line for line in md.splitlines() if line.startswith("**Score"))
    assert "fits 8× L4 (TP8·EP8) at int4" in head and "does not fit" not in head
    # --tp 8 runs the experts whole too instead of refusing the sheet
    rc, out, err = _score(capsys, src, "--gpu", "L4", "--precision", "int4", "--tp", "8", "--format", "json",
                          "--no-recommendations")
    assert rc == 0, err
    lat = next(r for r in json.loads(out)["regimes"]["L4"] if r["id"] == "latency")
    assert lat["prediction"]["layout"] == "TP8·EP8"
    # predict at the refused TP8 names the EP layout that runs, and runs it when asked
    work = ["--gpu", "L4", "--precision", "int4", "--tp", "8", "--isl", "1000", "--osl", "100", "--concurrency", "4"]
    assert main(["predict", src, *work]) == 2
    err = capsys.readouterr().err
    assert "176 % 128 = 48" in err and "int4 runs at TP8 with --ep 8" in err
    assert main(["predict", src, *work, "--ep", "8"]) == 0
    assert json.loads(capsys.readouterr().out)["layout"] == "TP8·EP8"


def test_fixed_tp_keeps_the_pipeline_stages_the_header_names(tmp_path, capsys):
    """Llama-3.1-405B at bf16 (about 756 GiB) fits no 8x H100 node (8 x 80 GiB = 640 GiB): the header names TP8·PP2
    over two nodes, and ``--tp 8`` must serve that layout rather than predict nothing."""
    cfg = LlamaConfig(hidden_size=16384, intermediate_size=53248, num_hidden_layers=126, num_attention_heads=128,
                      num_key_value_heads=8, vocab_size=128256, max_position_embeddings=131072).to_dict()
    cfg["architectures"] = ["LlamaForCausalLM"]
    p = tmp_path / "405b.json"
    p.write_text(json.dumps(cfg))
    rc, out, err = _score(capsys, str(p), "--tp", "8", "--format", "json", "--no-recommendations")
    assert rc == 0, err
    sheet = json.loads(out)
    preds = [r["prediction"] for r in sheet["regimes"]["H100-SXM"] if r["prediction"]]
    assert preds and all(x["tp"] == 8 and x["pp"] >= 2 and x["nodes"] >= 2 for x in preds)


def test_ep_that_does_not_divide_the_experts_is_costed_at_the_fullest_rank(capsys):
    """Mixtral-8x7B, TP1·DP3·EP3: vLLM 0.33.0's determine_expert_map gives 8 // 3 = 2 experts per rank and one more
    to the first 8 % 3 = 2 ranks, so the fullest GPU holds 3 of 8 experts per layer (not the mean 8/3)."""
    assert main(["predict", "example:mixtral-8x7b", "--tp", "1", "--dp", "3", "--ep", "3", "--isl", "1024", "--osl",
                 "256", "--concurrency", "12"]) == 0
    d = json.loads(capsys.readouterr().out)
    h, inter, vocab, layers, experts = 4096, 14336, 32000, 32, 8
    expert = 3 * h * inter  # gate, up, down of one expert
    attn = 2 * h * h + 2 * h * 1024  # q, o and the 8-KV-head k, v (head_dim 128)
    rest = 2 * vocab * h + layers * (attn + 2 * h + h * experts) + h  # embeddings, attention, norms, routers
    fullest = 2 * (rest + layers * 3 * expert)  # bf16
    assert d["weights_per_gpu_gib"] == round(fullest / GIB, 2)
    assert any("does not divide the 8 experts" in n and "2 or 3" in n for n in d["notes"])


def test_single_valued_option_given_twice_is_refused(capsys):
    """argparse keeps the last of a repeated option: ``predict --gpu A --gpu B`` used to predict B alone."""
    assert main(["predict", "example:llama-2-7b", "--gpu", "H100-SXM", "--gpu", "B200", "--isl", "8", "--osl", "8",
                 "--concurrency", "1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--gpu given twice" in err[0] and "B200" in err[0]
    # score's --gpu is repeatable by design
    assert main(["score", "example:llama-2-7b", "--gpu", "H100-SXM", "--gpu", "B200", "--format", "json",
                 "--no-recommendations"]) == 0
    assert json.loads(capsys.readouterr().out)["options"]["gpus"] == ["H100-SXM", "B200"]


def test_dash_output_is_stdout(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["score", "example:llama-2-7b", "-o", "-", "--no-recommendations"]) == 0
    assert capsys.readouterr().out.startswith("# Deployment sheet")
    assert not (tmp_path / "-").exists()


def test_empty_output_name_is_refused(capsys):
    assert main(["score", "example:llama-2-7b", "-o", ""]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "empty file name" in err[0]


def test_readiness_matrix_claims_no_ep_beyond_the_expert_count(capsys):
    """Mixtral has 8 experts: EP 16 or 32 would leave ranks without an expert (layout_problem refuses it), so the
    matrix has no EP status there, while TP 1-8 keep theirs."""
    assert main(["score", "example:mixtral-8x7b", "--format", "json", "--no-recommendations"]) == 0
    rows = json.loads(capsys.readouterr().out)["quantization"]["matrix"]
    ep = {(e["tp"], e["ep_status"] is None) for e in rows}
    assert {(16, True), (32, True)} <= ep and (8, False) in ep and (16, False) not in ep


def test_compare_says_the_engine_refuses_not_that_weights_do_not_fit(capsys):
    """gpt-oss-20b at int4 on vLLM: attn.qkv_proj K = 2880 splits into no Marlin group of 128 (2880 % 128 = 64)
    at any TP, so no layout is tried; its ~12 GiB of weights fit an L4, so 'does not fit' would be the wrong
    reason."""
    assert main(["compare", "example:gpt-oss-20b", "example:qwen3-4b", "--gpu", "L4", "--precision", "int4",
                 "--isl", "1024", "--osl", "256", "--qps", "2", "--usd-per-gpu-hour", "0.8", "--format", "json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    col = next(m for m in rep["models"] if m["name"] == "example:gpt-oss-20b")
    [dep] = col["deployments"]
    assert dep["status"] == "engine_refuses" and "2880 % 128 = 64" in dep["note"]


def test_compare_quantization_row_keeps_expert_parallel_degrees_apart(tmp_path, capsys):
    """Qwen3-235B with 1408-wide experts at int4 on vLLM 0.33.0: split by TP the width per rank is 1408 / TP. TP1
    1408 (% 128 = 0, % 64 = 0) runs fused Marlin MoE; TP2 704 and TP4 352 miss group 128 (704 % 128 = 64,
    352 % 128 = 96) and run the MoE WNA16 kernels at group 64 and 32 (padded, ◐); TP8 176 has no group of 32 or
    more (refused). With EP8 each expert stays whole. The ready row lists TP 1, the padded one 2 and 4, and no
    row headed "(vllm, TP)" lists 8 as a TP degree."""
    src = str(_qwen3_235b(tmp_path, NARROW_EXPERTS))
    assert main(["compare", src, "example:qwen3-4b", "--gpu", "H100-SXM", "--precision", "int4", "--isl", "1024",
                 "--osl", "256", "--qps", "2", "--usd-per-gpu-hour", "2", "--format", "json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    col = next(m for m in rep["models"] if m["source"] == src or m["name"].endswith("qwen3-235b.json"))
    assert col["quant_ready"]["int4"] == [1]
    assert col["quant_padded"]["int4"] == [2, 4]
    assert col["quant_ep_ready"]["int4"] == [8]
    assert main(["compare", src, "example:qwen3-4b", "--gpu", "H100-SXM", "--precision", "int4", "--isl", "1024",
                 "--osl", "256", "--qps", "2", "--usd-per-gpu-hour", "2"]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("| quantization ready"))
    assert "int4 1 EP 8 padded 2,4 ·" in row


def test_predict_refusal_names_pipeline_stages_when_no_single_stage_holds_it(tmp_path, capsys):
    """Qwen3-235B with 1664-wide experts (13 x 128) int4 on 8x L4 under SGLang: TP8 is refused (the width per rank
    1664 / 8 = 208 misses Marlin MoE's group 128, 208 % 128 = 80, and the MoE WNA16 fallback finds no group of 32
    or more: 208 % 64 = 16, 208 % 32 = 16); TP8·EP8 runs but its weights per GPU (more than the 1536-wide
    model's ~14.6 GiB) exceed SGLang's static pool on a 24 GB L4 (so it does not fit); two pipeline stages halve
    the weights per GPU. The refusal must name that layout, and the layout it names must predict (exit 0, fits)."""
    src = str(_qwen3_235b(tmp_path, 1664))
    base = ["predict", src, "--gpu", "L4", "--precision", "int4", "--framework", "sglang", "--isl", "1024",
            "--osl", "256", "--concurrency", "8"]
    assert main([*base, "--tp", "8"]) == 2
    err = capsys.readouterr().err
    assert "no nearby layout runs" not in err and "TP8·EP8·PP2 (--pp 2 --ep 8)" in err, err
    assert main([*base, "--tp", "8", "--ep", "8"]) == 0
    assert json.loads(capsys.readouterr().out)["fits"] is False
    assert main([*base, "--tp", "8", "--ep", "8", "--pp", "2"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["fits"] is True and out["num_gpus"] == 16


def test_best_layout_of_a_whole_node_model_weighs_pipeline_stages_on_that_node(tmp_path, capsys):
    """Qwen3-235B at BF16 (~438 GiB of weights) fits no fewer than 8 H100s, so one node's layouts are TP8, TP8·EP8
    and, spreading the same weights over the same 8 GPUs, TP4·PP2 and TP4·EP4·PP2 (vLLM runs pipeline stages on one
    node). The throughput regime's best must be at least what predict gives each of them for the same workload
    (breaker report: the header's best missed the staged layouts once an EP layout fitted)."""
    src = str(_qwen3_235b(tmp_path))
    assert main(["score", src, "--format", "json"]) == 0
    sheet = json.loads(capsys.readouterr().out)
    reg = next(r for r in sheet["regimes"]["H100-SXM"] if r["id"] == "throughput")
    best = reg["prediction"]["output_tokens_per_s_per_gpu"]
    for lay in (["--tp", "8"], ["--tp", "8", "--ep", "8"], ["--tp", "4", "--pp", "2"],
                ["--tp", "4", "--ep", "4", "--pp", "2"]):
        assert main(["predict", src, "--gpu", "H100-SXM", "--precision", "bf16", *lay, "--isl", str(reg["isl"]),
                     "--osl", str(reg["osl"]), "--concurrency", "max"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["num_gpus"] == 8
        if out["fits"]:
            assert best >= out["output_tokens_per_s_per_gpu"] * 0.999, (lay, best, out["output_tokens_per_s_per_gpu"])


def _llama_70b(tmp_path):
    """Llama-3.1-70B's published shape (hidden 8192, 80 layers, 64/8 heads, FFN 28672, vocabulary 128256)."""
    cfg = LlamaConfig(hidden_size=8192, intermediate_size=28672, num_hidden_layers=80, num_attention_heads=64,
                      num_key_value_heads=8, vocab_size=128256, max_position_embeddings=131072,
                      tie_word_embeddings=False).to_dict()
    cfg["architectures"] = ["LlamaForCausalLM"]
    p = tmp_path / "llama-70b.json"
    p.write_text(json.dumps(cfg))
    return str(p)


def test_a_model_needing_four_gpus_also_tries_two_stages_of_tp4_on_the_node(tmp_path, capsys):
    """Llama-3.1-70B at BF16 (~131 GiB) fits 4 L40S (48 GB each) and up; on the 8 GPUs of TP8, two stages of TP4
    all-reduce over 4 ranks instead of 8. The throughput regime's best is at least what predict gives every 8-GPU
    layout of the node for the same workload (breaker report: TP8 133.5 tok/s/GPU chosen over TP4·PP2 143.3)."""
    src = _llama_70b(tmp_path)
    assert main(["score", src, "--gpu", "L40S", "--format", "json"]) == 0
    reg = next(r for r in json.loads(capsys.readouterr().out)["regimes"]["L40S"] if r["id"] == "throughput")
    for lay in (["--tp", "8"], ["--tp", "4", "--pp", "2"]):
        assert main(["predict", src, "--gpu", "L40S", *lay, "--isl", str(reg["isl"]), "--osl", str(reg["osl"]),
                     "--concurrency", "max"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert reg["prediction"]["output_tokens_per_s_per_gpu"] >= out["output_tokens_per_s_per_gpu"] * 0.999, lay


def test_tp_fixed_keeps_the_expert_parallel_and_staged_choices_at_that_tp(tmp_path, capsys):
    """`score --tp 4` of Qwen3-235B (BF16, H100): TP4 alone does not hold ~438 GiB, so the regimes run TP4 in two
    stages; with the experts whole (EP4) as the unfixed search tries. The --tp 4 throughput equals the unfixed
    search's when that picked a TP4 layout (breaker report: 639 against 832 tok/s/GPU)."""
    src = str(_qwen3_235b(tmp_path))
    best = {}
    for extra in ([], ["--tp", "4"]):
        assert main(["score", src, "--format", "json", *extra]) == 0
        reg = next(r for r in json.loads(capsys.readouterr().out)["regimes"]["H100-SXM"] if r["id"] == "throughput")
        best[tuple(extra)] = reg["prediction"]
    unfixed, fixed = best[()], best[("--tp", "4")]
    assert fixed["tp"] == 4
    if unfixed["tp"] == 4:
        assert fixed["layout"] == unfixed["layout"]
        assert fixed["output_tokens_per_s_per_gpu"] == unfixed["output_tokens_per_s_per_gpu"]


def test_multinode_moe_search_tries_tp16_with_experts_whole(tmp_path, capsys):
    """Qwen3-235B at fp8_block on L4 (24 GB): no node of 8 holds it; TP16·EP16 is one of the 16-GPU layouts
    engines run (vLLM's --enable-expert-parallel over the TP group). The latency regime's TPOT is at most what
    predict gives TP16·EP16 at concurrency 1 on the same lengths."""
    src = str(_qwen3_235b(tmp_path))
    assert main(["score", src, "--gpu", "L4", "--precision", "fp8_block", "--format", "json"]) == 0
    reg = next(r for r in json.loads(capsys.readouterr().out)["regimes"]["L4"] if r["id"] == "latency")
    assert main(["predict", src, "--gpu", "L4", "--precision", "fp8_block", "--tp", "16", "--ep", "16", "--isl",
                 str(reg["isl"]), "--osl", str(reg["osl"]), "--concurrency", "1"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["fits"] and reg["prediction"]["tpot_ms"] <= out["tpot_ms"] * 1.001


def test_compare_lists_padded_degrees_as_padded_not_expert_parallel(tmp_path, capsys):
    """Qwen3-235B at mxfp4: TP4 and TP8 split the experts into shards the kernels pad (◐), and run; they are
    'padded', not degrees that need EP."""
    src = str(_qwen3_235b(tmp_path))
    assert main(["compare", src, "example:qwen3-4b", "--isl", "1024", "--osl", "1024", "--qps", "5",
                 "--format", "json"]) == 0
    col = next(m for m in json.loads(capsys.readouterr().out)["models"] if m["source"] == src)
    assert main(["score", src, "--format", "json"]) == 0
    matrix = [e for e in json.loads(capsys.readouterr().out)["quantization"]["matrix"]
              if e["format"] == "mxfp4" and e["engine"] == "vllm" and e["tp"] <= 8]
    padded = sorted(e["tp"] for e in matrix if e["status"] == "padded")
    assert padded and set(padded) <= set(col["quant_padded"].get("mxfp4", []))
    assert not set(padded) & set(col["quant_ep_ready"].get("mxfp4", []))
