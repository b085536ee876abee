"""LongCat-Flash's router scores 512 FFN experts and 256 zero-compute (identity) experts and picks 12: the active
parameters and the per-token expert work are an average, counted at the 12 x 512 / 768 = 8 real experts a token uses
under routing in proportion to the slots (an assumption, stated on the sheet; the model card reports 18.6-31.3 B
activated, about 27 B on average). The config is transformers 5.24.0's LongcatFlashConfig defaults (the released
model's shape)."""

from __future__ import annotations

import json

from transformers import LongcatFlashConfig

from scorer.cli import main

PER_EXPERT = 3 * 6144 * 2048  # gate, up, down of one expert (expert_ffn_hidden_size 2048, hidden 6144)
LAYERS = 28


def _sheet(tmp_path, capsys, **over):
    d = tmp_path / ("z" + str(len(over)) + str(over.get("zero_expert_num", "")))
    d.mkdir()
    cfg = {**LongcatFlashConfig().to_dict(), "architectures": ["LongcatFlashForCausalLM"], **over}
    (d / "config.json").write_text(json.dumps(cfg))
    assert main(["score", str(d), "--format", "json", "--no-recommendations"]) == 0
    return json.loads(capsys.readouterr().out)


def test_zero_compute_experts_make_the_active_count_an_average(tmp_path, capsys):
    cfg = LongcatFlashConfig()
    assert (cfg.hidden_size, cfg.num_layers, cfg.moe_topk, cfg.n_routed_experts, cfg.zero_expert_num,
            cfg.expert_ffn_hidden_size) == (6144, LAYERS, 12, 512, 256, 2048)
    with_zero = _sheet(tmp_path, capsys)
    without = _sheet(tmp_path, capsys, zero_expert_num=0)  # the same model whose 12 picks are all real experts
    router_cols = 256 * 6144 * LAYERS  # the zero experts' router columns, the only weights they add
    assert with_zero["params"]["total"] - without["params"]["total"] == router_cols
    # 12 x 512 / 768 = 8 real experts a token instead of 12: four experts' weights fewer per MoE layer
    assert without["params"]["active"] - with_zero["params"]["active"] == 4 * PER_EXPERT * LAYERS - router_cols
    assert 27.0e9 < with_zero["params"]["active"] < 28.5e9  # the model card: about 27 B on average
    assert any("8 real experts a token" in a for a in with_zero["assumptions"])
    assert not any("zero-compute" in a for a in without["assumptions"])
    ups = [g for g in with_zero["gemms"] if g["name"].endswith("experts.gate_up_proj")]
    assert ups and all(abs(g["active"] / g["count"] - 8 / 512) < 1e-12 for g in ups)  # the cost model's expert work
