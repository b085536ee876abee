"""Meta-device check of deploysheet's DeepSeek-family counts (issue 12); numbers in tests/data/deepseek_oracle.json.

For each model type: the default config and resized variants (depth, width, heads, kv_lora_rank / q_lora_rank,
experts and top-k, vocab, layer patterns), built through transformers' config class; the CausalLM class is
instantiated on torch's meta device and its parameters summed, and compared with count_params(normalize(d)),
d = json.loads(cfg.to_json_string(use_diff=False)) with architectures set to the class. Also the DeepSeek-family
configs of the shared corpus, if present. Needs torch (the oracle extra); the tests read the JSON without it:

    DEPLOYSHEET_NO_CACHE=1 python scripts/deepseek_oracle.py -o tests/data/deepseek_oracle.json [types...]
"""
import json, os, sys, platform, warnings, argparse
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
warnings.filterwarnings("ignore")
import torch, transformers
from transformers.models.auto.configuration_auto import CONFIG_MAPPING

CASES = {
    "deepseek_v2": ("DeepseekV2ForCausalLM", [
        {},
        dict(num_hidden_layers=5, hidden_size=1024, num_attention_heads=16, kv_lora_rank=128, q_lora_rank=None,
             n_routed_experts=16, num_experts_per_tok=3, n_shared_experts=1, first_k_dense_replace=2,
             moe_intermediate_size=256, intermediate_size=2048, vocab_size=1000, mlp_bias=True, attention_bias=True),
        dict(num_hidden_layers=4, hidden_size=768, num_attention_heads=12, kv_lora_rank=96, q_lora_rank=384,
             qk_nope_head_dim=32, qk_rope_head_dim=16, v_head_dim=48, n_routed_experts=8, num_experts_per_tok=2,
             first_k_dense_replace=1, moe_intermediate_size=128, intermediate_size=1536, vocab_size=5000),
    ]),
    "deepseek_v3": ("DeepseekV3ForCausalLM", [
        {},
        dict(num_hidden_layers=5, hidden_size=1024, num_attention_heads=16, kv_lora_rank=128, q_lora_rank=None,
             n_routed_experts=16, num_experts_per_tok=3, n_shared_experts=2, first_k_dense_replace=2, n_group=4,
             topk_group=2, moe_intermediate_size=256, intermediate_size=2048, vocab_size=1000, attention_bias=True,
             num_nextn_predict_layers=2),
        dict(num_hidden_layers=4, hidden_size=768, num_attention_heads=12, kv_lora_rank=96, q_lora_rank=384,
             qk_nope_head_dim=32, qk_rope_head_dim=16, v_head_dim=48, n_routed_experts=8, num_experts_per_tok=2,
             n_group=2, topk_group=1, first_k_dense_replace=1, moe_intermediate_size=128, intermediate_size=1536,
             vocab_size=5000, num_nextn_predict_layers=0),
    ]),
    "deepseek_v32": ("DeepseekV32ForCausalLM", [
        {},
        dict(num_hidden_layers=5, hidden_size=1024, num_attention_heads=16, kv_lora_rank=128, q_lora_rank=256,
             n_routed_experts=16, num_experts_per_tok=3, n_shared_experts=2, first_k_dense_replace=2, n_group=4,
             topk_group=2, moe_intermediate_size=256, intermediate_size=2048, vocab_size=1000, attention_bias=True,
             index_n_heads=8, index_head_dim=32, index_topk=64, num_nextn_predict_layers=1),
        dict(num_hidden_layers=4, hidden_size=768, num_attention_heads=12, kv_lora_rank=96, q_lora_rank=384,
             qk_nope_head_dim=32, qk_rope_head_dim=16, v_head_dim=48, n_routed_experts=8, num_experts_per_tok=2,
             n_group=2, topk_group=1, mlp_layer_types=["sparse", "dense", "sparse", "sparse"],
             moe_intermediate_size=128, intermediate_size=1536, vocab_size=5000, index_n_heads=4, index_head_dim=64),
    ]),
    "glm_moe_dsa": ("GlmMoeDsaForCausalLM", [
        {},
        dict(num_hidden_layers=6, hidden_size=1024, num_attention_heads=16, kv_lora_rank=128, q_lora_rank=256,
             n_routed_experts=16, num_experts_per_tok=3, n_shared_experts=1, first_k_dense_replace=2,
             moe_intermediate_size=256, intermediate_size=2048, vocab_size=1000, index_n_heads=8, index_head_dim=32,
             index_topk=64, index_topk_freq=3, index_skip_topk_offset=1, num_nextn_predict_layers=1),
        dict(num_hidden_layers=4, hidden_size=768, num_attention_heads=12, kv_lora_rank=96, q_lora_rank=384,
             qk_nope_head_dim=32, qk_rope_head_dim=16, v_head_dim=48, n_routed_experts=8, num_experts_per_tok=2,
             mlp_layer_types=["dense", "sparse", "sparse", "dense"], moe_intermediate_size=128,
             intermediate_size=1536, vocab_size=5000, indexer_types=["full", "shared", "full", "shared"],
             attention_bias=True),
    ]),
    "glm4_moe": ("Glm4MoeForCausalLM", [
        {},
        dict(num_hidden_layers=5, hidden_size=1024, num_attention_heads=16, num_key_value_heads=4, head_dim=128,
             n_routed_experts=16, num_experts_per_tok=3, n_shared_experts=2, first_k_dense_replace=2,
             moe_intermediate_size=256, intermediate_size=2048, vocab_size=1000, attention_bias=True,
             use_qk_norm=True, num_nextn_predict_layers=1),
        dict(num_hidden_layers=4, hidden_size=768, num_attention_heads=12, num_key_value_heads=12,
             n_routed_experts=8, num_experts_per_tok=2, first_k_dense_replace=0, moe_intermediate_size=128,
             intermediate_size=1536, vocab_size=5000, num_nextn_predict_layers=0),
    ]),
    "glm4_moe_lite": ("Glm4MoeLiteForCausalLM", [
        {},
        dict(num_hidden_layers=5, hidden_size=1024, num_attention_heads=16, kv_lora_rank=128, q_lora_rank=None,
             n_routed_experts=16, num_experts_per_tok=3, n_shared_experts=2, moe_intermediate_size=256,
             intermediate_size=2048, vocab_size=1000, attention_bias=True, num_nextn_predict_layers=1),
        dict(num_hidden_layers=4, hidden_size=768, num_attention_heads=12, kv_lora_rank=96, q_lora_rank=384,
             qk_nope_head_dim=32, qk_rope_head_dim=16, v_head_dim=48, n_routed_experts=8, num_experts_per_tok=2,
             mlp_layer_types=["dense", "dense", "sparse", "sparse"], moe_intermediate_size=128,
             intermediate_size=1536, vocab_size=5000),
    ]),
    "mistral4": ("Mistral4ForCausalLM", [
        {},
        dict(num_hidden_layers=5, hidden_size=1024, num_attention_heads=16, kv_lora_rank=128, q_lora_rank=None,
             n_routed_experts=16, num_experts_per_tok=3, n_shared_experts=2, first_k_dense_replace=2,
             moe_intermediate_size=256, intermediate_size=2048, vocab_size=1000, attention_bias=True),
        dict(num_hidden_layers=4, hidden_size=768, num_attention_heads=12, kv_lora_rank=96, q_lora_rank=384,
             qk_nope_head_dim=32, qk_rope_head_dim=16, v_head_dim=48, n_routed_experts=8, num_experts_per_tok=2,
             first_k_dense_replace=1, moe_intermediate_size=128, intermediate_size=1536, vocab_size=5000),
    ]),
    "mistral_large4": ("MistralLarge4ForConditionalGeneration", [
        {},
        dict(text_config=dict(num_hidden_layers=6, hidden_size=1024, num_attention_heads=16, kv_lora_rank=128,
                              n_routed_experts=16, num_experts_per_tok=3, n_shared_experts=2,
                              first_k_dense_replace=2, moe_intermediate_size=256, intermediate_size=2048,
                              vocab_size=1000, index_n_heads=8, index_head_dim=32, index_topk=64,
                              kv_source_layers=[0, 1, 1, 3, 3, 5], index_topk_freq=2, no_rope_layer_interval=3,
                              attention_bias=True)),
        dict(text_config=dict(num_hidden_layers=4, hidden_size=768, num_attention_heads=12, kv_lora_rank=96,
                              qk_nope_head_dim=32, qk_rope_head_dim=16, v_head_dim=48, n_routed_experts=8,
                              num_experts_per_tok=2, mlp_layer_types=["dense", "sparse", "sparse", "dense"],
                              moe_intermediate_size=128, intermediate_size=1536, vocab_size=5000,
                              no_rope_layers=[1, 0, 1, 0], kv_source_layers=[0, 0, 2, 2],
                              indexer_types=["full", "shared", "full", "full"])),
    ]),
    "longcat_flash": ("LongcatFlashForCausalLM", [
        {},
        dict(num_layers=3, hidden_size=1024, num_attention_heads=16, kv_lora_rank=128, q_lora_rank=256,
             n_routed_experts=16, moe_topk=3, zero_expert_num=4, expert_ffn_hidden_size=256, ffn_hidden_size=2048,
             vocab_size=1000, attention_bias=True),
        dict(num_layers=2, hidden_size=768, num_attention_heads=12, kv_lora_rank=96, q_lora_rank=384,
             qk_nope_head_dim=32, qk_rope_head_dim=16, v_head_dim=48, n_routed_experts=8, moe_topk=2,
             zero_expert_num=0, expert_ffn_hidden_size=128, ffn_hidden_size=1536, vocab_size=5000),
    ]),
    "deepseek_v4": ("DeepseekV4ForCausalLM", [
        {},
        dict(num_hidden_layers=6, hidden_size=1024, num_attention_heads=16, head_dim=128, q_lora_rank=256,
             n_routed_experts=16, num_experts_per_tok=3, moe_intermediate_size=256, vocab_size=1000,
             o_groups=4, o_lora_rank=128, index_n_heads=8, index_head_dim=32, index_topk=64, hc_mult=2,
             sliding_window=64, compress_rates={"compressed_sparse_attention": 8, "heavily_compressed_attention": 64},
             layer_types=["sliding_attention", "heavily_compressed_attention", "compressed_sparse_attention",
                          "sliding_attention", "compressed_sparse_attention", "heavily_compressed_attention"],
             mlp_layer_types=["hash_moe", "hash_moe", "moe", "moe", "moe", "moe"], num_nextn_predict_layers=2,
             mlp_bias=True),
        dict(num_hidden_layers=4, hidden_size=768, num_attention_heads=8, head_dim=256, q_lora_rank=384,
             n_routed_experts=8, num_experts_per_tok=2, moe_intermediate_size=128, vocab_size=5000, o_groups=2,
             o_lora_rank=256, hc_mult=3, partial_rotary_factor=0.25, num_nextn_predict_layers=0),
    ]),
}


def routed(model):
    n = 0
    for name, p in model.named_parameters():
        if ".experts." in name and "shared" not in name:
            n += p.numel()
    return n


def phantom(model):
    """LongcatFlashExperts allocates gate_up_proj for routed + zero (identity) experts, down_proj for the routed
    ones only: the rows past down_proj's are parameters no checkpoint holds."""
    n = 0
    for name, mod in model.named_modules():
        gu, dn = getattr(mod, "gate_up_proj", None), getattr(mod, "down_proj", None)
        if name.endswith("experts") and gu is not None and dn is not None and gu.ndim == 3 \
                and gu.shape[0] > dn.shape[0]:
            n += (gu.shape[0] - dn.shape[0]) * gu.shape[1] * gu.shape[2]
    return n


def meta_count(mt, cls_name, kwargs):
    cfg = CONFIG_MAPPING[mt](**kwargs)
    cls = getattr(transformers, cls_name)
    with torch.device("meta"):
        model = cls._from_config(cfg)
    vision = sum(p.numel() for n, p in model.named_parameters()
                 if any(m in n for m in ("vision_tower", "multi_modal_projector")))
    total = sum(p.numel() for p in model.parameters()) - vision  # the language model
    ph = phantom(model)
    r = routed(model)
    total, r = total - ph, r - ph  # see phantom(): LongCat only
    tc = cfg.get_text_config(decoder=True) if hasattr(cfg, "get_text_config") else cfg
    e = getattr(tc, "n_routed_experts", None)
    k = getattr(tc, "num_experts_per_tok", None)
    active = (total - r + r * k // e if (e and k) else None) if r else total  # top_k None (V2 default): undefined
    d = json.loads(cfg.to_json_string(use_diff=False))
    d["architectures"] = [cls_name]
    mtp_cls = [n for n, _ in model.named_modules() if "mtp" in n.lower() or "nextn" in n.lower()]
    return cfg, d, total, active, r, bool(mtp_cls), ph, vision


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("types", nargs="*")
    ap.add_argument("-o")
    args = ap.parse_args()
    from scorer.architecture import normalize
    from scorer.params import count_params
    out = {"command": "DEPLOYSHEET_NO_CACHE=1 python scripts/deepseek_oracle.py -o tests/data/deepseek_oracle.json "
                      "(torch CPU build, transformers; python of a venv with both)",
           "versions": {"torch": torch.__version__, "transformers": transformers.__version__,
                        "python": platform.python_version()},
           "note": "total = sum(p.numel()) of the CausalLM class (the language model: minus vision_tower and multi_modal_projector parameters, in 'vision') built with torch.device('meta') from the config "
                   "class with these kwargs; active = total - routed * (1 - top_k / n_routed_experts) where routed "
                   "= parameters under '.experts.' (not shared_experts); no class instantiates MTP layers. "
                   "longcat_flash: total and routed exclude phantom_zero_expert_params, the gate_up_proj rows "
                   "LongcatFlashExperts allocates for its identity (zero) experts (E + Z rows; down_proj and the "
                   "checkpoint have E)",
           "cases": []}
    bad = 0
    for mt in args.types or CASES:
        cls_name, variants = CASES[mt]
        for i, kw in enumerate(variants):
            cfg, d, total, active, r, has_mtp, ph, vision = meta_count(mt, cls_name, kw)
            row = {"model_type": mt, "class": cls_name, "variant": i, "kwargs": kw, "total": total, "active": active,
                   "routed": r, "vision": vision, "meta_has_mtp_modules": has_mtp, "config": d}
            if ph:
                row["phantom_zero_expert_params"] = ph
            try:
                a = normalize(d)
                c = count_params(a)
                row.update(ours_total=c.total, ours_active=c.active, ours_mtp=c.mtp, ours_vision=c.vision,
                           unmodelled=a.unmodelled_keys, guesses=a.guesses, exact_flag=a.exact)
                topk_guess = active is None and all("num_experts_per_tok absent" in g for g in a.guesses)
                ok = c.total == total and (active is None or c.active == active) and not a.unmodelled_keys \
                    and (c.vision or 0) == vision \
                    and (not a.guesses or topk_guess)
            except Exception as exc:
                row.update(error=repr(exc)[:300])
                ok = False
            row["ok"] = ok
            bad += not ok
            print(f"{'OK ' if ok else 'BAD'} {mt}[{i}] meta={total} ours={row.get('ours_total')} "
                  f"d={row.get('ours_total', 0) - total if 'ours_total' in row else None} "
                  f"active meta={active} ours={row.get('ours_active')} mtp={row.get('ours_mtp')} "
                  f"unmod={row.get('unmodelled')} exactflag={row.get('exact_flag')} {row.get('error', '')}"
                  + (f" vision meta={vision} ours={row.get('ours_vision')}" if vision else ""))
            out["cases"].append(row)
    if not args.types:
        import glob
        root = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "..", "shared", "corpus")
        out["corpus"] = [dict(r, config=os.path.relpath(r["config"], os.path.dirname(os.path.dirname(root))))
                         for r in corpus_check(sorted(glob.glob(os.path.join(root, "*", "config.json"))))]
    if args.o:
        with open(args.o, "w") as fh:
            json.dump(out, fh, indent=1, sort_keys=False)
            fh.write("\n")
    print("bad:", bad)



def corpus_check(paths):
    """Real configs: the raw config.json normalized as is; the meta count from the class the architectures hint
    names, built with that family's config class (kimi_k2 is unknown to transformers: DeepseekV3Config)."""
    from scorer.architecture import normalize
    from scorer.params import count_params
    rows = []
    for path in paths:
        raw = json.load(open(path))
        cls_name = (raw.get("architectures") or [""])[0]
        if not cls_name.startswith(("Deepseek", "Glm", "Longcat", "Mistral4")):
            continue
        mt = {"DeepseekV3ForCausalLM": "deepseek_v3"}.get(cls_name, raw["model_type"])
        data = {k: v for k, v in raw.items() if k not in ("auto_map", "quantization_config", "model_type")}
        cfg = CONFIG_MAPPING[mt](**data)
        with torch.device("meta"):
            model = getattr(transformers, cls_name)._from_config(cfg)
        total = sum(p.numel() for p in model.parameters())
        a = normalize(raw)
        c = count_params(a)
        rows.append({"config": path, "model_type": raw["model_type"], "class": cls_name, "total": total,
                     "ours_total": c.total, "ours_mtp": c.mtp, "ours_mtp_copies": c.mtp_copies,
                     "guesses": a.guesses, "unmodelled": a.unmodelled_keys, "exact_flag": a.exact})
        print(("OK " if total == c.total else "BAD"), path, total, c.total, c.mtp, a.guesses[:1], a.unmodelled_keys)
    return rows


if __name__ == "__main__":
    main()
