"""Gemma families: deploysheet's count_params vs the meta-device count of transformers' language model.

Needs torch (CPU is enough) and transformers; prints one line per case, exits 1 on any mismatch:

    PYTHONPATH=. python scripts/gemma_oracle.py [TYPE ...] [-v] [--json tests/data/gemma_oracle.json]

For each type: the default config and two resized variants built through the config class; the model
class on torch's meta device; total and active (routed x top_k / experts) parameters and the bf16 KV
bytes per token compared with normalize + count_params + kv_cache, also for the hub-style sparse form
of each variant (only the keys given). ``--json`` writes the oracle numbers read by
tests/test_gemma_family.py.
"""

from __future__ import annotations

import copy
import json
import re
import sys
import warnings

warnings.filterwarnings("ignore")

import torch  # noqa: E402
import transformers  # noqa: E402
from transformers.utils import logging as tlog  # noqa: E402

tlog.set_verbosity_error()

from scorer.architecture import normalize  # noqa: E402
from scorer.params import count_params  # noqa: E402
from scorer import kvcache  # noqa: E402

NONTEXT = re.compile(r"^(vision_tower|audio_tower|embed_vision|embed_audio|multi_modal_projector|vision_model)$")


def meta_count(cls, cfg) -> dict:
    with torch.device("meta"):
        m = cls._from_config(cfg)
    total = routed = 0
    for name, p in m.named_parameters():
        parts = name.split(".")
        if any(NONTEXT.match(x) for x in parts):
            continue
        total += p.numel()
        if "experts" in parts:
            routed += p.numel()
    return {"total": total, "routed": routed}


# type -> (config class, model class, text sub-config key or None, variants)
# a variant: kwargs for the (text) config; for multimodal types they go into text_config.
G4_MOE = {"enable_moe_block": True, "num_experts": 8, "top_k_experts": 2, "moe_intermediate_size": 256}
CASES = {
    "gemma": ("GemmaConfig", "GemmaForCausalLM", None, [
        {},
        {"num_hidden_layers": 5, "hidden_size": 512, "intermediate_size": 1024, "num_attention_heads": 8,
         "num_key_value_heads": 2, "head_dim": 64, "vocab_size": 1000},
        {"num_hidden_layers": 3, "hidden_size": 384, "intermediate_size": 768, "num_attention_heads": 6,
         "num_key_value_heads": 1, "head_dim": 32, "vocab_size": 777, "attention_bias": True,
         "tie_word_embeddings": False},
    ]),
    "gemma2": ("Gemma2Config", "Gemma2ForCausalLM", None, [
        {},
        {"num_hidden_layers": 6, "hidden_size": 512, "intermediate_size": 1024, "num_attention_heads": 8,
         "num_key_value_heads": 2, "head_dim": 64, "vocab_size": 1000, "sliding_window": 128},
        {"num_hidden_layers": 3, "hidden_size": 384, "intermediate_size": 768, "num_attention_heads": 6,
         "num_key_value_heads": 3, "head_dim": 48, "vocab_size": 777, "attention_bias": True,
         "layer_types": ["full_attention", "sliding_attention", "full_attention"], "tie_word_embeddings": False},
    ]),
    "gemma3_text": ("Gemma3TextConfig", "Gemma3ForCausalLM", None, [
        {},
        {"num_hidden_layers": 7, "hidden_size": 512, "intermediate_size": 1024, "num_attention_heads": 8,
         "num_key_value_heads": 2, "head_dim": 64, "vocab_size": 1000, "sliding_window": 64},
        {"num_hidden_layers": 4, "hidden_size": 384, "intermediate_size": 768, "num_attention_heads": 6,
         "num_key_value_heads": 1, "head_dim": 96, "vocab_size": 777, "attention_bias": True,
         "layer_types": ["sliding_attention", "full_attention", "sliding_attention", "full_attention"],
         "tie_word_embeddings": False},
    ]),
    "gemma3": ("Gemma3Config", "Gemma3ForConditionalGeneration", "text_config", [
        {},
        {"num_hidden_layers": 7, "hidden_size": 512, "intermediate_size": 1024, "num_attention_heads": 8,
         "num_key_value_heads": 2, "head_dim": 64, "vocab_size": 263000, "sliding_window": 64},
        {"num_hidden_layers": 4, "hidden_size": 384, "intermediate_size": 768, "num_attention_heads": 6,
         "num_key_value_heads": 1, "head_dim": 96, "vocab_size": 262300, "attention_bias": True,
         "layer_types": ["sliding_attention", "full_attention", "sliding_attention", "full_attention"]},
    ]),
    "vaultgemma": ("VaultGemmaConfig", "VaultGemmaForCausalLM", None, [
        {},
        {"num_hidden_layers": 5, "hidden_size": 512, "intermediate_size": 1024, "num_attention_heads": 8,
         "num_key_value_heads": 2, "head_dim": 64, "vocab_size": 1000},
        {"num_hidden_layers": 3, "hidden_size": 384, "intermediate_size": 768, "num_attention_heads": 6,
         "num_key_value_heads": 6, "head_dim": 32, "vocab_size": 777, "attention_bias": True,
         "layer_types": ["full_attention", "sliding_attention", "full_attention"], "tie_word_embeddings": False},
    ]),
    "gemma3n_text": ("Gemma3nTextConfig", "Gemma3nForCausalLM", None, [
        {},
        {"num_hidden_layers": 10, "hidden_size": 512, "intermediate_size": [1024] * 5 + [2048] * 5,
         "num_attention_heads": 8, "num_key_value_heads": 2, "head_dim": 64, "vocab_size": 1000,
         "vocab_size_per_layer_input": 500, "hidden_size_per_layer_input": 32, "num_kv_shared_layers": 5,
         "altup_num_inputs": 3, "laurel_rank": 16},
        {"num_hidden_layers": 6, "hidden_size": 384, "intermediate_size": 768, "num_attention_heads": 6,
         "num_key_value_heads": 3, "head_dim": 64, "vocab_size": 777, "attention_bias": True,
         "layer_types": ["sliding_attention", "sliding_attention", "full_attention"] * 2,
         "vocab_size_per_layer_input": 300, "hidden_size_per_layer_input": 16, "num_kv_shared_layers": 0,
         "altup_num_inputs": 2, "laurel_rank": 8, "activation_sparsity_pattern": [0.9, 0.9, 0.0, 0.0, 0.0, 0.0],
         "tie_word_embeddings": False},
    ]),
    "gemma4_text": ("Gemma4TextConfig", "Gemma4ForCausalLM", None, [
        {},
        {"num_hidden_layers": 12, "hidden_size": 512, "intermediate_size": 1024, "num_attention_heads": 8,
         "num_key_value_heads": 4, "head_dim": 64, "global_head_dim": 128, "num_global_key_value_heads": 1,
         "attention_k_eq_v": True, "vocab_size": 1000, "vocab_size_per_layer_input": 500,
         "hidden_size_per_layer_input": 32, "num_kv_shared_layers": 6, "use_double_wide_mlp": True, **G4_MOE},
        {"num_hidden_layers": 8, "hidden_size": 384, "intermediate_size": 768, "num_attention_heads": 6,
         "num_key_value_heads": 2, "head_dim": 64, "global_head_dim": 256, "vocab_size": 777,
         "layer_types": ["sliding_attention", "sliding_attention", "sliding_attention", "full_attention"] * 2,
         "hidden_size_per_layer_input": 0, "num_kv_shared_layers": 0, "attention_bias": True,
         "tie_word_embeddings": False},
    ]),
    "gemma4": ("Gemma4Config", "Gemma4ForConditionalGeneration", "text_config", [
        {},
        {"num_hidden_layers": 12, "hidden_size": 512, "intermediate_size": 1024, "num_attention_heads": 8,
         "num_key_value_heads": 4, "head_dim": 64, "global_head_dim": 128, "num_global_key_value_heads": 2,
         "attention_k_eq_v": True, "vocab_size": 263000, "vocab_size_per_layer_input": 500,
         "hidden_size_per_layer_input": 32, "num_kv_shared_layers": 4, **G4_MOE, "num_experts": 16,
         "top_k_experts": 4},
        {"num_hidden_layers": 8, "hidden_size": 384, "intermediate_size": 768, "num_attention_heads": 6,
         "num_key_value_heads": 2, "head_dim": 64, "global_head_dim": 256, "vocab_size": 262300,
         "layer_types": ["sliding_attention", "full_attention"] * 4, "hidden_size_per_layer_input": 0,
         "num_kv_shared_layers": 2, "use_double_wide_mlp": True,
         "__top__": {"vision_config": {"num_hidden_layers": 2}, "audio_config": {"num_hidden_layers": 2}}},
    ]),
}
CASES["gemma4_unified_text"] = ("Gemma4UnifiedTextConfig", "Gemma4UnifiedForCausalLM", None, [
    {},
    {"num_hidden_layers": 12, "hidden_size": 512, "intermediate_size": 1024, "num_attention_heads": 8,
     "num_key_value_heads": 4, "head_dim": 64, "global_head_dim": 128, "num_global_key_value_heads": 1,
     "attention_k_eq_v": True, "vocab_size": 1000, "num_kv_shared_layers": 6, "use_double_wide_mlp": True},
    {"num_hidden_layers": 8, "hidden_size": 384, "intermediate_size": 768, "num_attention_heads": 6,
     "num_key_value_heads": 2, "head_dim": 64, "global_head_dim": 256, "vocab_size": 777,
     "layer_types": ["sliding_attention", "sliding_attention", "sliding_attention", "full_attention"] * 2,
     "attention_bias": True, "tie_word_embeddings": False},
])
# gemma3n needs timm for its vision tower (Gemma3nForConditionalGeneration); its language model is
# Gemma3nTextModel + lm_head, i.e. Gemma3nForCausalLM built from the text config.
# (the wrapper's tie_word_embeddings is the top-level one: Gemma3nForConditionalGeneration ties by self.config)
CASES["gemma3n"] = ("Gemma3nConfig", "Gemma3nForCausalLM@text", "text_config", [
    {}, CASES["gemma3n_text"][3][1],
    {**{k: v for k, v in CASES["gemma3n_text"][3][2].items() if k != "tie_word_embeddings"},
     "__top__": {"tie_word_embeddings": False}}])


def kv_bytes_oracle(tcfg) -> int:
    """bf16 K+V bytes per token the modeling code caches: layers not in kv_sharing_modes 'reuse', each with
    its own per_layer_config head_dim / num_key_value_heads (the Cache is updated only by those layers)."""
    n = tcfg.num_hidden_layers
    modes = getattr(tcfg, "kv_sharing_modes", None) or [None] * n
    view = tcfg.per_layer_config
    total = 0
    for i in range(n):
        if modes[i] == "reuse":
            continue
        lc = view[i]
        total += 2 * lc.num_key_value_heads * lc.head_dim * 2
    return total


def build(mt: str, variant: dict):
    cfg_name, cls_name, sub, _ = CASES[mt]
    cfg_cls = getattr(transformers, cfg_name)
    if sub:
        tc = dict(variant)
        top = tc.pop("__top__", {})
        cfg = cfg_cls(**{sub: tc}, **top)
    else:
        cfg = cfg_cls(**variant)
    d = json.loads(cfg.to_json_string(use_diff=False))
    arch_name = cls_name.split("@")[0]
    d["architectures"] = [arch_name if not cls_name.endswith("@text") else "Gemma3nForConditionalGeneration"]
    cls = getattr(transformers, arch_name)
    model_cfg = cfg.text_config if cls_name.endswith("@text") else cfg
    if cls_name.endswith("@text"):
        model_cfg = copy.deepcopy(model_cfg)
        model_cfg.tie_word_embeddings = cfg.tie_word_embeddings
    return d, cls, model_cfg


def main() -> int:
    out = {}
    bad = 0
    only = [a for a in sys.argv[1:] if a in CASES]
    for mt, (_, _, _, variants) in CASES.items():
        if only and mt not in only:
            continue
        rows = []
        for vi, variant in enumerate(variants):
            d, cls, mcfg = build(mt, variant)
            oracle = meta_count(cls, mcfg)
            n_exp = None
            tcfg = mcfg.get_text_config(decoder=True) if hasattr(mcfg, "get_text_config") else mcfg
            if getattr(tcfg, "enable_moe_block", False):
                n_exp, k = tcfg.num_experts, tcfg.top_k_experts
                active = oracle["total"] - oracle["routed"] + oracle["routed"] * k // n_exp
            else:
                active = oracle["total"]
            try:
                arch = normalize(d)
                pc = count_params(arch)
                kv = kvcache.kv_cache(arch).bytes_per_token
                mine = {"total": pc.total, "active": pc.active, "unmodelled": arch.unmodelled_keys,
                        "guesses": arch.guesses, "verified": arch.structure_verified, "exact": arch.exact,
                        "by_component": pc.by_component, "kv_bytes_per_token": kv}
            except Exception as exc:  # report and go on
                mine = {"error": f"{type(exc).__name__}: {exc}"}
            kv_oracle = kv_bytes_oracle(tcfg)
            ok = mine.get("total") == oracle["total"] and mine.get("active") == active \
                and mine.get("kv_bytes_per_token") == kv_oracle
            if "hidden_size" in variant:
                # the same model as a hub-style config.json: only the keys given (e.g. global_head_dim, no
                # per_layer_config), read through the config class by normalize
                sparse = {k: v for k, v in variant.items() if k != "__top__"}
                top_type = d["model_type"]
                if CASES[mt][2]:
                    sparse = {"model_type": top_type, "architectures": d["architectures"],
                              "text_config": {"model_type": d["text_config"]["model_type"], **sparse},
                              **variant.get("__top__", {})}
                else:
                    sparse = {"model_type": top_type, "architectures": d["architectures"], **sparse}
                a2 = normalize(sparse)
                p2 = count_params(a2)
                ok2 = (p2.total, p2.active) == (oracle["total"], active) and \
                    kvcache.kv_cache(a2).bytes_per_token == kv_oracle
                if not ok2 or (a2.unmodelled_keys and not CASES[mt][2]):
                    print(f"    sparse form differs: {p2.total:,} {p2.active:,} {a2.unmodelled_keys}")
                ok = ok and ok2
            bad += not ok
            row = {"variant": vi, "overrides": variant, "oracle_total": oracle["total"], "oracle_active": active,
                   "oracle_routed": oracle["routed"], "oracle_kv_bytes_per_token_bf16": kv_oracle,
                   "class": cls.__name__, **{k: v for k, v in mine.items()
                                                                               if k != "by_component"}}
            rows.append(row)
            flag = "OK " if ok else "BAD"
            print(f"{flag} {mt:13s} v{vi} oracle total={oracle['total']:,} active={active:,} | mine "
                  f"total={mine.get('total', 0):,} active={mine.get('active', 0):,} "
                  f"diff={mine.get('total', 0) - oracle['total']:,} kv={mine.get('kv_bytes_per_token')}/{kv_oracle} unmodelled={mine.get('unmodelled')} "
                  f"guesses={mine.get('guesses')} {mine.get('error', '')}")
            if not ok and "by_component" in mine and "-v" in sys.argv:
                print("    ", mine["by_component"])
        out[mt] = rows
    if "--json" in sys.argv:
        path = sys.argv[sys.argv.index("--json") + 1]
        doc = {
            "command": "PYTHONPATH=. python scripts/gemma_oracle.py --json tests/data/gemma_oracle.json",
            "versions": {"torch": torch.__version__, "transformers": transformers.__version__,
                         "python": sys.version.split()[0]},
            "how": "config = <config class>(**overrides) (multimodal types: overrides go into text_config, "
                   "'__top__' into the wrapper); the model class is built with torch.device('meta') and "
                   "cls._from_config(config); oracle_total sums named_parameters() (tied weights once) except "
                   "those below a module named vision_tower, audio_tower, embed_vision, embed_audio, "
                   "multi_modal_projector or vision_model; oracle_routed: those below a module named 'experts'; "
                   "oracle_active = total - routed + routed * top_k_experts // num_experts; "
                   "oracle_kv_bytes_per_token_bf16 = sum over layers whose kv_sharing_modes is not 'reuse' of "
                   "2 * per_layer_config[i].num_key_value_heads * per_layer_config[i].head_dim * 2. gemma3n's "
                   "language model is Gemma3nForCausalLM built from the wrapper's text_config with the wrapper's "
                   "tie_word_embeddings (Gemma3nForConditionalGeneration needs timm for its vision tower).",
            "classes": {mt: {"config": c[0], "model": c[1].split("@")[0], "sub_config": c[2]}
                        for mt, c in CASES.items()},
            "cases": {mt: [{k: v for k, v in row.items() if k in (
                "variant", "overrides", "oracle_total", "oracle_active", "oracle_routed",
                "oracle_kv_bytes_per_token_bf16", "class")} for row in rows] for mt, rows in out.items()},
        }
        with open(path, "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
    print("mismatches:", bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
