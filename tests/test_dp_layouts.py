"""Attention data parallelism with expert parallelism in the layout search (issue 14 newcomer trial: "MLA DP not
costed in vLLM regimes"). vLLM (``--data-parallel-size N --enable-expert-parallel``) and SGLang
(``--enable-dp-attention``) run attention per DP rank over its own sequences while the experts are spread over all
N GPUs: each rank holds only its sequences' KV. Under TP an MLA latent (one per token, shared by all heads) is
stored whole on every rank, so DP N holds N times the sequences of TP N, less what the replicated attention
weights take."""

from __future__ import annotations

from transformers import DeepseekV3Config

from scorer.architecture import normalize
from scorer.costmodel import CostModel, Layout
from scorer.hardware import get_gpu, get_precision
from scorer.params import count_params
from scorer.regimes import candidate_layouts, run_regimes
from scorer.sources import load_source


def _deepseek_v3():
    cfg = DeepseekV3Config(hidden_size=7168, intermediate_size=18432, moe_intermediate_size=2048,
                           num_hidden_layers=61, num_attention_heads=128, num_key_value_heads=128,
                           n_routed_experts=256, n_shared_experts=1, num_experts_per_tok=8, first_k_dense_replace=3,
                           q_lora_rank=1536, kv_lora_rank=512, qk_rope_head_dim=64, qk_nope_head_dim=128,
                           v_head_dim=128, vocab_size=129280, n_group=8, topk_group=4, max_position_embeddings=163840)
    d = cfg.to_dict()
    d["architectures"] = ["DeepseekV3ForCausalLM"]
    return normalize(d)


def _maker(arch, gpu="H200-SXM", precision="fp8_block", framework="vllm"):
    params, g, p = count_params(arch), get_gpu(gpu), get_precision(precision)
    cms = {}

    def make(lay):
        key = (lay.tp, lay.pp, lay.ep, lay.dp)
        if key not in cms:
            cms[key] = CostModel(arch, params, g, p, lay, "bf16", framework)
        return cms[key]
    return make


def test_mla_moe_tries_attention_dp_and_holds_n_times_the_sequences():
    arch = _deepseek_v3()
    make = _maker(arch)
    layouts = {(lay.tp, lay.ep, lay.dp) for lay in candidate_layouts(make, arch)}
    assert (1, 8, 8) in layouts and (8, 8, 1) in layouts
    tp8, dp8 = make(Layout(tp=8, ep=8)), make(Layout(tp=1, ep=8, dp=8))
    ctx = 2048
    per_seq = 61 * (512 + 64) * 2 * ctx  # the latent and rope key, bf16: the same on every rank in both layouts
    assert tp8.kv_bytes_per_sequence(ctx) == per_seq == dp8.kv_bytes_per_sequence(ctx)
    assert tp8.max_concurrency(ctx) == int(tp8.kv_budget_bytes() // per_seq)
    assert dp8.max_concurrency(ctx) == int(dp8.kv_budget_bytes() // per_seq) * 8
    assert dp8.max_concurrency(ctx) > 4 * tp8.max_concurrency(ctx)
    # the attention weights are whole on every DP rank, sharded 8 ways under TP: DP's rank holds more weights
    assert dp8.weights_per_gpu() > tp8.weights_per_gpu()


def test_the_throughput_regime_can_pick_attention_dp():
    arch = _deepseek_v3()
    regimes = run_regimes(_maker(arch), arch, "H200-SXM", "fp8_block", 3.0)
    picked = {r.id: r.prediction for r in regimes if r.prediction is not None}
    assert picked["throughput"].dp == 8 and picked["throughput"].tp == 1
    assert picked["latency"].dp == 1  # one user: TP splits the step, DP would not


def test_no_attention_dp_where_tensor_parallelism_replicates_no_kv():
    for name in ("mixtral-8x7b", "llama-3.1-8b"):  # 8 KV heads: TP 8 splits them; a dense model has no EP
        raw = load_source(f"example:{name}")
        arch = normalize(raw.config, raw.quant_config)
        assert all(lay.dp == 1 for lay in candidate_layouts(_maker(arch, precision="bf16"), arch)), name


def test_every_sweep_point_is_a_layout_that_exists():
    """The frontier and the SLA search rebuild predictions from sweep points: a DP point must keep its DP ranks
    (a TP1 x EP8 point on one GPU does not exist: EP must divide the TP x DP GPUs)."""
    from scorer.regimes import layout_problem, sweep, to_prediction
    arch = _deepseek_v3()
    make = _maker(arch)
    points = sweep(make, arch, 1024, 1024, 3.0)
    assert any(p.dp == 8 for p in points)
    for p in points:
        assert layout_problem(arch, p.tp, p.pp, p.ep, p.dp) is None, p
    for p in [q for q in points if q.dp > 1][:3]:
        pred = to_prediction(make, p, 1024, 1024, 3.0)
        assert (pred.dp, pred.num_gpus) == (p.dp, p.tp * p.pp * p.dp)


def test_launch_batch_flags_under_attention_dp(tmp_path, capsys):
    """vLLM's --max-num-seqs caps each DP rank's engine (one engine core per rank): the running batch / DP.
    SGLang's --max-running-requests is the total, divided over the attention-DP workers (sglang 0.5.23
    kv_cache_configurator.resolve_max_num_reqs: max_running_requests // attn_dp_size)."""
    import json
    from scorer.cli import main
    folder = tmp_path / "ds"
    folder.mkdir()
    cfg = DeepseekV3Config(hidden_size=7168, intermediate_size=18432, moe_intermediate_size=2048,
                           num_hidden_layers=61, num_attention_heads=128, num_key_value_heads=128,
                           n_routed_experts=256, n_shared_experts=1, num_experts_per_tok=8, first_k_dense_replace=3,
                           q_lora_rank=1536, kv_lora_rank=512, qk_rope_head_dim=64, qk_nope_head_dim=128,
                           v_head_dim=128, vocab_size=129280, n_group=8, topk_group=4).to_dict()
    cfg["architectures"] = ["DeepseekV3ForCausalLM"]
    (folder / "config.json").write_text(json.dumps(cfg))
    common = ["predict", str(folder), "--gpu", "H200-SXM", "--precision", "fp8_block", "--tp", "1", "--dp", "8",
              "--ep", "8", "--isl", "1024", "--osl", "1024", "--concurrency", "512", "--format", "json"]
    assert main(common) == 0
    out = json.loads(capsys.readouterr().out)
    running = out["concurrency"] - out["queued"]
    argv = out["launch"]["argv"]
    assert argv[argv.index("--data-parallel-size") + 1] == "8"
    assert int(argv[argv.index("--max-num-seqs") + 1]) == -(-running // 8)
    assert main(common + ["--framework", "sglang"]) == 0
    out = json.loads(capsys.readouterr().out)
    argv = out["launch"]["argv"]
    assert int(argv[argv.index("--max-running-requests") + 1]) == out["concurrency"] - out["queued"]


def test_a_relative_folder_is_what_the_engine_is_pointed_at(tmp_path, monkeypatch, capsys):
    import json
    from scorer.cli import main
    from scorer.resources import data_dir
    (tmp_path / "models" / "m").mkdir(parents=True)
    (tmp_path / "models" / "m" / "config.json").write_text(
        (data_dir() / "examples" / "qwen3-4b" / "config.json").read_text())
    (tmp_path / "work").mkdir()
    monkeypatch.chdir(tmp_path / "work")
    assert main(["predict", "../models/m", "--isl", "128", "--osl", "64", "--concurrency", "4", "--format",
                 "json"]) == 0
    assert json.loads(capsys.readouterr().out)["launch"]["argv"][2] == "../models/m"


def test_a_model_too_big_for_one_node_gets_multinode_capacity_rows(tmp_path, capsys):
    """DeepSeek-V3 at fp8_block on H100-SXM: ~627 GiB of weights are ~78 GiB a GPU at TP8, over the 80 GiB x 0.92
    - 2 GiB vLLM leaves (vLLM 0.33.0 gpu_memory_utilization 0.92); TP8 x PP2 halves that. The capacity table adds
    the multi-node layouts the regimes try (data/regimes.json) and the header names the smallest that fits."""
    import json
    from scorer.cli import main
    cfg = DeepseekV3Config(hidden_size=7168, intermediate_size=18432, moe_intermediate_size=2048,
                           num_hidden_layers=61, num_attention_heads=128, num_key_value_heads=128,
                           n_routed_experts=256, n_shared_experts=1, num_experts_per_tok=8, first_k_dense_replace=3,
                           q_lora_rank=1536, kv_lora_rank=512, qk_rope_head_dim=64, qk_nope_head_dim=128,
                           v_head_dim=128, vocab_size=129280, n_group=8, topk_group=4).to_dict()
    cfg["architectures"] = ["DeepseekV3ForCausalLM"]
    (tmp_path / "config.json").write_text(json.dumps(cfg))
    args = ["score", str(tmp_path / "config.json"), "--precision", "fp8_block", "--no-recommendations"]
    assert main(args + ["--format", "json"]) == 0
    cap = json.loads(capsys.readouterr().out)["capacity"]
    single = [c for c in cap if c["nodes"] == 1]
    assert single and all(min(c["max_sequences"].values()) == 0 for c in single)
    tp8 = next(c for c in single if c["tp"] == 8)
    assert tp8["weights_per_gpu_gib"] > 80 * 0.92 - 2
    multi = [c for c in cap if c["nodes"] > 1]
    assert [c["num_gpus"] for c in multi] == sorted(c["num_gpus"] for c in multi)
    pp2 = next(c for c in multi if c["layout"] == "TP8·PP2")
    assert pp2["num_gpus"] == 16 and pp2["nodes"] == 2 and min(pp2["max_sequences"].values()) >= 1
    assert main(args) == 0
    head = capsys.readouterr().out.splitlines()[2]
    assert "fits 16× H100-SXM (TP8·PP2, 2 nodes) at fp8_block" in head.replace("\\_", "_")
