"""Issue 13: the network beyond one node, and only what engines run.

* the catalog's topology (scale-up domain, scale-out NIC bandwidth and latency) carries a source for every GPU;
* a collective whose group spans scale-up domains is costed hierarchically; a test derives the TP16
  all-reduce time of one Llama-3.1-405B decode step across two 8-GPU H100 nodes in its own arithmetic;
* ``predict`` reports ``nodes`` and a per-step ``breakdown``;
* a (precision, TP, framework) that the readiness matrix refuses is never predicted: ``predict`` exits 2
  naming the blocker and the nearest layouts that run, and the regimes skip it.
"""

from __future__ import annotations

import json

import pytest

from scorer.architecture import normalize
from scorer.cli import main
from scorer.costmodel import CostModel, Layout, load_calibration
from scorer.gemms import inventory
from scorer.hardware import catalog, get_gpu, get_precision, gpu_sources
from scorer.params import count_params
from scorer.quant import readiness
from scorer.sources import load_source

#: Llama-3.1-405B's published architecture (Llama 3 paper, table 3; the config on the Hub)
LLAMA_405B = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 16384,
              "intermediate_size": 53248, "num_hidden_layers": 126, "num_attention_heads": 128,
              "num_key_value_heads": 8, "vocab_size": 128256, "max_position_embeddings": 131072,
              "rope_theta": 500000.0, "tie_word_embeddings": False, "torch_dtype": "bfloat16"}


def _cm(config: dict, gpu: str, precision: str, layout: Layout, framework: str = "vllm") -> CostModel:
    arch = normalize(dict(config))
    return CostModel(arch, count_params(arch), get_gpu(gpu), get_precision(precision), layout, framework=framework)


def test_every_gpu_has_a_sourced_topology():
    sources = gpu_sources()
    for g in catalog().values():
        assert g.scaleup_domain and g.scaleout_gbps and g.scaleout_latency_us is not None, g.id
        for key in ("scaleup_domain", "scaleout_gbps", "scaleout_latency_us", "node_gpus"):
            tags = g.src.get(key)
            assert tags, (g.id, key)
            assert all(t.split()[0] in sources for t in tags.split(",")), (g.id, key, tags)
    assert get_gpu("GB200").topology().domain == 72 and get_gpu("H100-SXM").topology().domain == 8


def test_tp16_allreduce_across_two_h100_nodes_is_derived_independently():
    """One decode step of Llama-3.1-405B at batch 1, TP16 over two 8-GPU H100 nodes.

    Per transformer block two all-reduces (attention output, MLP output) of one token's hidden state in bf16:
    S = 16384 x 2 B = 32,768 B, 126 blocks -> 252 all-reduces. Hierarchical (NCCL): within each node a
    reduce-scatter + all-gather over g = 8 GPUs, 2(g-1)/g S at NVLink's 450 GB/s plus one message latency
    (calibrated comm_latency_s); across the n = 2 nodes each GPU all-reduces its S/g shard over its own
    400 Gb/s NIC (50 GB/s), 2(n-1)/n S/g bytes plus 2(n-1) per-message latencies of 10 us. Bandwidths are
    divided by the calibrated comm_bw_eff.
    """
    cal = load_calibration().resolve("vllm", "hopper")
    h100 = get_gpu("H100-SXM")
    up, out, lat = h100.scaleup_gbps * 1e9, h100.scaleout_gbps * 1e9, h100.scaleout_latency_us * 1e-6
    assert (h100.scaleout_gbps, h100.scaleout_latency_us, h100.scaleup_domain) == (50, 10, 8)
    eta, l_up = cal["comm_bw_eff"], cal["comm_latency_s"]
    size, count, g, n = 16384 * 2, 2 * 126, 8, 2
    inter_ms = count * (2 * (n - 1) / n * (size / g) / out / eta + 2 * (n - 1) * lat) * 1e3
    intra_ms = count * (2 * (g - 1) / g * size / up / eta + l_up) * 1e3

    cm = _cm(LLAMA_405B, "H100-SXM", "fp8", Layout(tp=16))
    parts = cm.decode_step(1, 1024 + 64)
    assert parts["comm_inter"] * 1e3 == pytest.approx(inter_ms, rel=1e-9)
    assert parts["comm_intra"] * 1e3 == pytest.approx(intra_ms, rel=1e-9)
    # about 5 ms across the NICs, almost all of it the 2 x 10 us per all-reduce
    assert 4.5 < inter_ms < 5.5


#: Llama-3.1-8B's published architecture (the Hub config)
LLAMA_8B = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 4096,
            "intermediate_size": 14336, "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
            "vocab_size": 128256, "max_position_embeddings": 131072, "rope_theta": 500000.0,
            "tie_word_embeddings": False, "torch_dtype": "bfloat16"}


@pytest.mark.parametrize("tp", [2, 4, 8])
def test_xgmi_mesh_allreduce_uses_only_the_groups_links(tp):
    """MI300X's Infinity Fabric is a fully connected mesh of 7 x 64 GB/s peer links (ml-engineering
    network/README.md, S2n): a GPU of a TP group of t reaches its t - 1 peers over t - 1 links, so a ring
    all-reduce of S bytes moves 2(t-1)/t S at (t-1) x 64 GB/s (448 GB/s only at t = 8). One decode step of
    Llama-3.1-8B at batch 1: 2 all-reduces per block x 32 blocks of 4096 x 2 B, at the calibrated
    comm_bw_eff, plus one comm_latency_s each."""
    mi = get_gpu("MI300X")
    assert (mi.scaleup_link_gbps, mi.scaleup_gbps) == (64, 448)
    cal = load_calibration().resolve("vllm", mi.arch)
    size, count = 4096 * 2, 2 * 32
    bw = min(448, (tp - 1) * 64) * 1e9
    intra_ms = count * (2 * (tp - 1) / tp * size / bw / cal["comm_bw_eff"] + cal["comm_latency_s"]) * 1e3
    parts = _cm(LLAMA_8B, "MI300X", "bf16", Layout(tp=tp)).decode_step(1, 1088)
    assert parts["comm_intra"] * 1e3 == pytest.approx(intra_ms, rel=1e-9)
    assert parts["comm_inter"] == 0
    # NVSwitch is no mesh: H100's TP2 all-reduce runs at the full 450 GB/s
    h = _cm(LLAMA_8B, "H100-SXM", "bf16", Layout(tp=2)).decode_step(1, 1088)
    hcal = load_calibration().resolve("vllm", "hopper")
    assert h["comm_intra"] == pytest.approx(count * (size / 450e9 / hcal["comm_bw_eff"] + hcal["comm_latency_s"]),
                                            rel=1e-9)


def test_xgmi_pipeline_hop_uses_one_link():
    """A pipeline hop sends one GPU's activations to one GPU: one 64 GB/s XGMI link on MI300X."""
    cm = _cm(LLAMA_8B, "MI300X", "bf16", Layout(tp=1, pp=2))
    intra, n, inter, _ = cm._comm(3.0)
    assert intra == pytest.approx(3.0 * 4096 * 2 / 64e9, rel=1e-12) and n == 1 and inter == 0


def test_predict_json_reports_nodes_and_a_breakdown(tmp_path, capsys):
    cfg = tmp_path / "config.json"
    cfg.write_text(json.dumps(LLAMA_405B))
    assert main(["predict", str(cfg), "--gpu", "H100-SXM", "--precision", "fp8", "--tp", "16", "--isl", "1024",
                 "--osl", "128", "--concurrency", "1", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["nodes"] == 2 and out["scaleup_domains"] == 2
    for step in ("decode", "prefill"):
        b = out["breakdown"][step]
        assert b["comm_inter_node"] > 0 and b["comm_intra_node"] > 0
        assert b["gemm"] + b["attention"] + b["comm_intra_node"] + b["comm_inter_node"] + b["overhead"] == \
            pytest.approx(b["total"], abs=1e-3)
    assert out["breakdown"]["decode"]["total"] == pytest.approx(out["tpot_ms"], abs=1e-3)  # concurrency 1
    # the same layout inside one node: no inter-node term
    assert main(["predict", str(cfg), "--gpu", "H100-SXM", "--precision", "fp8", "--tp", "8", "--isl", "1024",
                 "--osl", "128", "--concurrency", "1", "--format", "json"]) == 0
    one = json.loads(capsys.readouterr().out)
    assert one["nodes"] == 1 and one["breakdown"]["decode"]["comm_inter_node"] == 0


def test_nvl72_keeps_tp16_on_nvlink_and_b300_nics_are_faster():
    gb = _cm(LLAMA_405B, "GB200", "fp8", Layout(tp=16)).decode_step(1, 1088)
    assert gb["comm_inter"] == 0  # 16 GPUs of one NVL72 domain (4 trays)
    h = _cm(LLAMA_405B, "H100-SXM", "fp8", Layout(tp=32)).decode_step(1, 1088)
    assert h["comm_inter"] > h["comm_intra"]  # 4 nodes: 6 latencies per all-reduce


def test_tp_across_nodes_is_not_costed_as_nvlink():
    """The issue's case: TP32 of the 405B at FP8 was 13 ms against TP8's 26.9 ms, bound "memory". Over four
    nodes the decode step is now communication-bound and no faster than one node."""
    t8 = _cm(LLAMA_405B, "H100-SXM", "fp8", Layout(tp=8)).decode_step(1, 1088)
    t32 = _cm(LLAMA_405B, "H100-SXM", "fp8", Layout(tp=32)).decode_step(1, 1088)
    assert t32["total"] > 0.9 * t8["total"]
    from scorer.costmodel import bound_of
    assert bound_of(t32) == "communication"


def test_pp_hops_across_nodes_use_the_nic():
    from scorer.costmodel import pp_hops_across
    assert pp_hops_across(2, 8, 8) == 1  # TP8 x PP2: the one hop leaves the node
    assert pp_hops_across(4, 2, 8) == 0  # TP2 x PP4: all four stages in one node
    assert pp_hops_across(8, 2, 8) == 1  # TP2 x PP8: stages 0-3 and 4-7
    cm = _cm(LLAMA_405B, "H100-SXM", "bf16", Layout(tp=8, pp=2))
    assert cm.decode_step(2, 1088)["comm_inter"] > 0


#: Mixtral-8x7B's published architecture (the Hub config): 32 blocks, hidden 4096, 8 experts, top-2
MIXTRAL = {"model_type": "mixtral", "architectures": ["MixtralForCausalLM"], "hidden_size": 4096,
           "intermediate_size": 14336, "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
           "num_local_experts": 8, "num_experts_per_tok": 2, "vocab_size": 32000, "max_position_embeddings": 32768,
           "rope_theta": 1000000.0, "tie_word_embeddings": False, "torch_dtype": "bfloat16"}


def test_moe_communication_is_the_engines_default_not_an_all_to_all():
    """The engines' default MoE paths (vLLM 0.33.0: FusedMoEParallelConfig.use_all2all_kernels needs dp_size > 1
    and the default all2all_backend is allgather_reducescatter; SGLang 0.5.23: moe_a2a_backend "none", its
    StandardDispatcher all-gathers the DP ranks' tokens) run no all-to-all.

    * Attention TP8 with EP8: every GPU holds every token, so a block costs the same two all-reduces of one
      token's hidden state as TP8 without EP: 2 x 32 all-reduces of B x 4096 x 2 bytes, each 2(8 - 1)/8 of it at
      NVLink's 450 GB/s (over comm_bw_eff) plus one latency.
    * Attention DP8 x EP8 (TP1): no attention all-reduce; per MoE block the gather of all 8 ranks' tokens and
      the reduce-scatter of the outputs: 2(8 - 1)/8 x (8 x B_rank x 4096 x 2) bytes plus one latency.
    """
    cal = load_calibration().resolve("vllm", "hopper")
    eta, lat = cal["comm_bw_eff"], cal["comm_latency_s"]
    up = get_gpu("H100-SXM").scaleup_gbps * 1e9
    batch, h = 64, 4096
    ring = 2 * 7 / 8
    tp_ms = 2 * 32 * (ring * batch * h * 2 / up / eta + lat) * 1e3
    ep = _cm(MIXTRAL, "H100-SXM", "bf16", Layout(tp=8, ep=8)).decode_step(batch, 1088)
    tp = _cm(MIXTRAL, "H100-SXM", "bf16", Layout(tp=8)).decode_step(batch, 1088)
    assert ep["comm_intra"] * 1e3 == pytest.approx(tp_ms, rel=1e-9)
    assert tp["comm_intra"] * 1e3 == pytest.approx(tp_ms, rel=1e-9)
    per_rank = batch / 8
    dp_ms = 32 * (ring * 8 * per_rank * h * 2 / up / eta + lat) * 1e3
    dp = _cm(MIXTRAL, "H100-SXM", "bf16", Layout(tp=1, ep=8, dp=8)).decode_step(batch, 1088)
    assert dp["comm_intra"] * 1e3 == pytest.approx(dp_ms, rel=1e-9)
    with pytest.raises(ValueError, match="unknown collective"):
        from scorer.costmodel import collective_time
        collective_time("a2a", 8, 1.0, get_gpu("H100-SXM").topology())


# ------------------------------------------------------------------ only what the engine runs

FORMAT_PRECISION = {"fp8": "fp8", "fp8_block": "fp8_block", "nvfp4": "nvfp4", "mxfp4": "mxfp4", "int4": "int4",
                    "int8": "int8"}
EXAMPLES = sorted(p.name for p in __import__("pathlib").Path(__file__).resolve().parent.parent.joinpath(
    "data", "examples").iterdir() if p.is_dir())


@pytest.mark.parametrize("name", EXAMPLES)
def test_predict_refuses_every_layout_the_matrix_refuses(name, capsys):
    """Walk the readiness matrix of each bundled example: every (format, TP, engine) marked not_ready gives
    exit 2 with the engine's reason; a ready or padded one at a TP of one node predicts."""
    raw = load_source(f"example:{name}")
    arch = normalize(raw.config, raw.quant_config)
    from scorer.regimes import valid_tp
    matrix = readiness(arch, inventory(arch), tps=(1, 2, 4, 8, 16)).matrix
    refused = ran = 0
    for e in matrix:
        if not valid_tp(arch, e.tp):
            continue
        gpu = "B200"  # every format has kernels there (nvfp4 needs sm100)
        rc = main(["predict", f"example:{name}", "--gpu", gpu, "--precision", FORMAT_PRECISION[e.format],
                   "--tp", str(e.tp), "--framework", e.engine, "--isl", "512", "--osl", "64", "--concurrency", "1",
                   "--format", "json"])
        cap = capsys.readouterr()
        if e.status == "not_ready":
            refused += 1
            assert rc == 2, (e.format, e.tp, e.engine)
            assert cap.err.count("\n") == 1 and "refuses" in cap.err and "nearest that run" in cap.err
            assert e.reason.split(":")[0] in cap.err
        else:
            ran += 1
            assert rc == 0, (e.format, e.tp, e.engine, cap.err)
    assert ran > 0
    if name in ("llama-2-7b", "gpt-oss-20b"):
        assert refused > 0  # the cases: fp8_block at TP8 of Llama-2-7B; int4 of gpt-oss


def test_regimes_and_fits_header_skip_refused_layouts(capsys):
    """gpt-oss-20b at int4: vLLM's Marlin refuses K = 2880 at every TP; the sheet said "fits 1x H100-SXM at
    int4" and predicted every regime there."""
    assert main(["score", "example:gpt-oss-20b", "--precision", "int4", "--format", "json",
                 "--no-recommendations"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert all(c["engine_blocker"] for c in doc["capacity"])
    for regs in doc["regimes"].values():
        for r in regs:
            assert r["prediction"] is None and "refuses int4" in (r["note"] or "")
    assert all(not f["points"] for f in doc["frontier"].values())
    assert main(["score", "example:gpt-oss-20b", "--precision", "int4", "--no-recommendations"]) == 0
    head = capsys.readouterr().out.splitlines()[2]
    assert "fits 1×" not in head and "refuses int4 at every TP" in head


def test_llama2_fp8_block_regimes_use_only_tps_vllm_runs(capsys):
    assert main(["score", "example:llama-2-7b", "--precision", "fp8_block", "--format", "json",
                 "--no-recommendations"]) == 0
    doc = json.loads(capsys.readouterr().out)
    for regs in doc["regimes"].values():
        for r in regs:
            assert r["prediction"] is None or r["prediction"]["tp"] in (1, 2), r
            for c in r["candidates"]:
                assert c["tp"] in (1, 2)
    for f in doc["frontier"].values():
        assert {p[1] for p in f["points"]} <= {1, 2}


def test_refused_format_is_not_reported_as_not_fitting(capsys):
    """gpt-oss-20b at int4 is refused, not too big: no M1 'weights do not fit' finding, and the frontier says why."""
    assert main(["score", "example:gpt-oss-20b", "--precision", "int4", "--format", "json",
                 "--no-recommendations"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert "M1" not in {f["rule"] for f in doc["findings"]}
    assert "Q3" in {f["rule"] for f in doc["findings"]}
    assert all("refuses int4" in f["note"] for f in doc["frontier"].values())


def test_nearest_layouts_that_run_also_fit(capsys):
    """gpt-oss-20b int4 at TP1: of the precisions that run at TP1 only those whose weights fit are offered."""
    rc = main(["predict", "example:gpt-oss-20b", "--gpu", "L4", "--precision", "int4", "--tp", "1", "--isl", "1024",
               "--osl", "128", "--concurrency", "1"])
    err = capsys.readouterr().err
    assert rc == 2 and "nearest that run" in err
    assert "bf16" not in err.split("nearest that run")[1]  # 41 GB of bf16 weights do not fit a 24 GB L4


def test_queue_note_names_the_admission_cap(capsys):
    assert main(["predict", "example:llama-3.1-8b", "--gpu", "A100-SXM-80GB", "--isl", "128", "--osl", "128",
                 "--concurrency", "2048", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["admission_cap"] == 256 and out["queued"] == 2048 - 256 and out["max_concurrency"] > 256
    assert any("admits 256 requests" in n for n in out["notes"])
    assert main(["predict", "example:llama-3.1-8b", "--gpu", "H100-SXM", "--tp", "1", "--isl", "128", "--osl", "128",
                 "--concurrency", "4", "--format", "md"]) == 0
    md = capsys.readouterr().out
    assert "| decode |" in md and "| prefill |" in md and "comm inter-node" in md
