"""The Gemma text families count exactly like transformers' modeling code (issue 12): gemma, gemma2,
gemma3_text (and gemma3's language model), vaultgemma, gemma3n_text (and gemma3n's), gemma4_text (and
gemma4's), gemma4_unified_text.

Expected numbers: the meta-device oracle in tests/data/gemma_oracle.json, written by
scripts/gemma_oracle.py (its ``command``, ``versions`` and ``how`` say how they were measured; torch is
not needed here: the configs are rebuilt from the same overrides with transformers' config classes),
and module-layout formulas written out below, each citing the transformers class it follows.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import transformers

from scorer.architecture import AttentionSpec, MoEMLP, normalize
from scorer.architecture.families import VERIFIED
from scorer.architecture.kinds import gemma
from scorer.architecture.reader import Reader
from scorer.errors import ConfigError
from scorer.gemms import inventory
from scorer.kvcache import kv_cache
from scorer.params import attention_params, count_params

ORACLE = json.loads((Path(__file__).parent / "data" / "gemma_oracle.json").read_text())
CASES = [(mt, row) for mt, rows in ORACLE["cases"].items() for row in rows]
#: keys of the wrappers' vision / audio towers (another reader's business; not the language model)
TOWER_KEYS = ("vision_config", "audio_config", "mm_tokens_per_image", "vision_soft_tokens_per_image",
              "audio_soft_tokens_per_image")
TEXT_TYPES = ("gemma", "gemma2", "gemma3_text", "vaultgemma", "gemma3n_text", "gemma4_text", "gemma4_unified_text")
#: the wrappers whose language model (and, for gemma3, vision tower: the sweep; for gemma3n, audio and vision
#: towers: tests/test_towers_gemma3n_parakeet.py) counts exactly
VERIFIED_WRAPPERS = ("gemma3", "gemma3n")


def _config(mt: str, overrides: dict) -> dict:
    """config.json of the oracle's model: the config class's full serialization."""
    cls = ORACLE["classes"][mt]
    cfg_cls = getattr(transformers, cls["config"])
    if cls["sub_config"]:
        text = {k: v for k, v in overrides.items() if k != "__top__"}
        cfg = cfg_cls(**{cls["sub_config"]: text}, **overrides.get("__top__", {}))
    else:
        cfg = cfg_cls(**overrides)
    d = json.loads(cfg.to_json_string(use_diff=False))
    d["architectures"] = ["Gemma3nForConditionalGeneration" if mt == "gemma3n" else cls["model"]]
    return d


def _hub_style(mt: str, overrides: dict) -> dict:
    """The same model written as a hub config.json: only the keys given (Gemma 4: global_head_dim and
    num_global_key_value_heads instead of a per_layer_config)."""
    cls = ORACLE["classes"][mt]
    text = {k: v for k, v in overrides.items() if k != "__top__"}
    text_type = getattr(transformers, cls["config"])().get_text_config(decoder=True).model_type
    if cls["sub_config"]:
        arch = "Gemma3nForConditionalGeneration" if mt == "gemma3n" else cls["model"]
        return {"model_type": mt, "architectures": [arch], **overrides.get("__top__", {}),
                cls["sub_config"]: {"model_type": text_type, **text}}
    return {"model_type": mt, "architectures": [cls["model"]], **text}


def _text_unmodelled(arch) -> list[str]:
    return [k for k in arch.unmodelled_keys if k.split(".")[0] not in TOWER_KEYS]


@pytest.mark.parametrize("mt,row", CASES, ids=[f"{mt}-v{row['variant']}" for mt, row in CASES])
def test_counts_match_the_meta_device_oracle(mt, row):
    arch = normalize(_config(mt, row["overrides"]))
    p = count_params(arch)
    assert (p.total, p.active) == (row["oracle_total"], row["oracle_active"])
    assert kv_cache(arch, kv_dtype="bf16").bytes_per_token_all_layers == row["oracle_kv_bytes_per_token_bf16"]
    assert _text_unmodelled(arch) == [] and arch.guesses == []


@pytest.mark.parametrize("mt,row", [(mt, row) for mt, row in CASES if "hidden_size" in row["overrides"]],
                         ids=lambda x: x if isinstance(x, str) else f"v{x['variant']}")
def test_hub_style_configs_count_the_same(mt, row):
    arch = normalize(_hub_style(mt, row["overrides"]))
    p = count_params(arch)
    assert (p.total, p.active) == (row["oracle_total"], row["oracle_active"])
    assert kv_cache(arch).bytes_per_token_all_layers == row["oracle_kv_bytes_per_token_bf16"]
    assert _text_unmodelled(arch) == []


def test_text_types_are_verified_and_exact():
    assert set(TEXT_TYPES) | set(VERIFIED_WRAPPERS) <= VERIFIED
    for mt in TEXT_TYPES:
        arch = normalize(_config(mt, {}))
        assert arch.structure_verified and arch.exact, mt


def test_gemma4_formula_moe_k_eq_v_kv_sharing_double_wide_per_layer_inputs():
    """Gemma4TextModel / Gemma4TextDecoderLayer / Gemma4TextAttention / Gemma4TextRouter / Gemma4TextExperts
    (transformers models/gemma4/modeling_gemma4.py), written out for oracle case gemma4_text v1."""
    row = ORACLE["cases"]["gemma4_text"][1]
    o = row["overrides"]
    h, n, heads, kv, hd = o["hidden_size"], o["num_hidden_layers"], o["num_attention_heads"], \
        o["num_key_value_heads"], o["head_dim"]
    ghd, gkv, v, vp, p = o["global_head_dim"], o["num_global_key_value_heads"], o["vocab_size"], \
        o["vocab_size_per_layer_input"], o["hidden_size_per_layer_input"]
    inter, e, k, mi, shared = o["intermediate_size"], o["num_experts"], o["top_k_experts"], \
        o["moe_intermediate_size"], o["num_kv_shared_layers"]
    total = routed = 0
    for i in range(n):
        full = (i + 1) % 6 == 0  # Gemma4TextConfig: 5 sliding layers, then a full one
        is_shared = i >= n - shared  # kv_sharing_modes "reuse"
        d, kvh = (ghd, gkv) if full else (hd, kv)  # per_layer_config of the full layers
        att = h * heads * d + d + heads * d * h  # q_proj, q_norm, o_proj
        if not is_shared:
            att += h * kvh * d + d  # k_proj, k_norm (v_norm has no weight)
            if not full:  # attention_k_eq_v: full layers have no v_proj
                att += h * kvh * d
        width = inter * (2 if is_shared else 1)  # use_double_wide_mlp on KV-shared layers
        mlp = 3 * h * width
        ple = 2 * h * p + h  # per_layer_input_gate, per_layer_projection, post_per_layer_input_norm
        moe = h * e + h + e + 3 * h  # router proj, scale, per_expert_scale; three more norms
        experts = e * (2 * mi * h + h * mi)  # gate_up_proj, down_proj
        total += att + mlp + 4 * h + ple + moe + experts
        routed += experts
    total += v * h + h + vp * n * p + h * n * p + p  # embed_tokens (tied), norm, PLE table, projection, its norm
    assert total == row["oracle_total"]
    assert total - routed + routed * k // e == row["oracle_active"]
    arch = normalize(_config("gemma4_text", o))
    pc = count_params(arch)
    assert (pc.total, pc.active) == (total, row["oracle_active"])
    first_full, last = arch.layers[5].mixer, arch.layers[-1].mixer
    assert (first_full.head_dim, first_full.num_kv_heads, first_full.k_eq_v, first_full.kv_shared) == (ghd, gkv, True,
                                                                                                         False)
    assert last.kv_shared and arch.layers[0].mixer.head_dim == hd and not arch.layers[0].mixer.k_eq_v
    assert isinstance(arch.layers[0].ffn, MoEMLP) and arch.layers[0].ffn.shared.intermediate == inter
    assert arch.layers[-1].ffn.shared.intermediate == 2 * inter


def test_gemma3n_formula_altup_laurel_per_layer_inputs_kv_sharing():
    """Gemma3nTextModel / Gemma3nTextDecoderLayer / Gemma3nTextAltUp / Gemma3nTextLaurelBlock /
    Gemma3nTextAttention (transformers models/gemma3n/modeling_gemma3n.py), for oracle case gemma3n_text v1."""
    row = ORACLE["cases"]["gemma3n_text"][1]
    o = row["overrides"]
    h, n, heads, kv, hd, v = o["hidden_size"], o["num_hidden_layers"], o["num_attention_heads"], \
        o["num_key_value_heads"], o["head_dim"], o["vocab_size"]
    vp, p, shared, a, rank = o["vocab_size_per_layer_input"], o["hidden_size_per_layer_input"], \
        o["num_kv_shared_layers"], o["altup_num_inputs"], o["laurel_rank"]
    total = 0
    for i in range(n):
        att = h * heads * hd + hd + heads * hd * h  # q_proj, q_norm, o_proj
        if i < n - shared:
            att += 2 * h * kv * hd + hd  # k_proj, v_proj, k_norm
        mlp = 3 * h * o["intermediate_size"][i]
        altup = h + a * a + a * a * a + h * a + h  # correct_output_scale, coefs, modality_router, router_norm
        laurel = 2 * h * rank + h
        ple = 2 * h * p + h
        total += att + mlp + 4 * h + altup + laurel + ple
    total += v * h + h + vp * n * p + h * n * p + p + 2 * (a - 1) * h * h  # ..., altup (un)embed projections
    assert total == row["oracle_total"]
    arch = normalize(_config("gemma3n_text", o))
    assert count_params(arch).total == total
    # KV cache: only the first n - shared layers hold keys and values (bf16)
    assert kv_cache(arch).bytes_per_token_all_layers == (n - shared) * 2 * kv * hd * 2


def test_kv_shared_and_k_eq_v_attention_have_no_k_v_weights_nor_cache():
    base = dict(num_heads=8, num_kv_heads=2, head_dim=64, v_head_dim=64, qk_norm="head")
    h = 512
    full = attention_params(AttentionSpec(**base), h)
    assert full == h * 512 + 2 * h * 128 + 512 * h + 2 * 64
    assert attention_params(AttentionSpec(**base, kv_shared=True), h) == h * 512 + 512 * h + 64
    assert attention_params(AttentionSpec(**base, k_eq_v=True), h) == full - h * 128
    arch = normalize(_config("gemma4_text", ORACLE["cases"]["gemma4_text"][1]["overrides"]))
    gemms = inventory(arch, include_lm_head=False)
    q_only = [g for g in gemms if g.name == "attn.q_proj"]
    assert sorted(i for g in q_only for i in g.layers) == list(range(6, 12))  # KV-shared layers project q only
    qk = [g for g in gemms if g.name == "attn.qk_proj"]
    assert [(g.layers, g.parts) for g in qk] == [([5], [8 * 128, 1 * 128])]  # full, K = V, its own head size


def test_gemma4_raw_keys_without_the_config_class():
    """The per-layer reader on raw keys mirrors Gemma4TextConfig.__post_init__: full layers get
    global_head_dim and, with attention_k_eq_v, num_global_key_value_heads; an explicit per_layer_config wins."""
    kinds = ["sliding_attention", "full_attention"] * 2
    raw = {"global_head_dim": 128, "num_global_key_value_heads": 1, "attention_k_eq_v": True,
           "num_kv_shared_layers": 2}
    over = gemma.gemma4_per_layer(Reader(raw, None, "config"), 4, kinds)
    assert over == {1: {"head_dim": 128, "num_kv_heads": 1, "k_eq_v": True}, 2: {"kv_shared": True},
                    3: {"head_dim": 128, "num_kv_heads": 1, "k_eq_v": True, "kv_shared": True}}
    explicit = {"per_layer_config": {"1": {"head_dim": 256}}, "global_head_dim": 128}
    r = Reader(explicit, None, "config")
    assert gemma.gemma4_per_layer(r, 4, kinds) == {1: {"head_dim": 256}}
    assert {"per_layer_config", "global_head_dim"} <= r.consumed
    # an override this package does not apply leaves per_layer_config unconsumed (the counts are estimated)
    r = Reader({"per_layer_config": {"1": {"intermediate_size": 64}}}, None, "config")
    assert gemma.gemma4_per_layer(r, 4, kinds) == {}
    assert "per_layer_config" not in r.consumed
    with pytest.raises(ConfigError, match="num_kv_shared_layers = 5 exceeds the 4 layers"):
        gemma.gemma4_per_layer(Reader({"num_kv_shared_layers": 5}, None, "config"), 4, kinds)
