"""Meta-device oracle: parameter counts of transformers models built from real config.json files.

For every ``config.json`` under CORPUS whose ``model_type`` this transformers version knows, the
class named in ``architectures[0]`` (or AutoModelForCausalLM) is instantiated on torch's meta
device — no weights, no repository code (configs are passed as data; ``auto_map`` is dropped) —
and its parameters are summed:

* ``total``: every parameter of the instantiated class;
* ``language_model``: ``total`` minus the vision tower / projector (names containing ``visual``,
  ``vision_model``, ``vision_tower`` or ``multi_modal_projector``);
* ``vision``: that difference;
* ``embedding``: the input embedding table(s); ``lm_head``: the output embedding when untied.

Run (needs torch; the numbers are committed in tests/data/meta_oracle.json and read by
tests/test_params_oracle.py):

    pip install -e '.[test,oracle]'
    python scripts/meta_oracle.py ../shared/corpus -o tests/data/meta_oracle.json

Sweep mode (``--sweep``, no corpus): every model type of this transformers version that has a
text-generating class is built on the meta device from its default config and from resized
variants of it; see :func:`sweep` and the ``patterns`` entry of the output for the rules:

    python scripts/meta_oracle.py --sweep -o tests/data/meta_oracle_sweep.json

Heads mode (``--heads``): the sweep's text-only variants (decoders, encoders, encoder-decoders) rebuilt with their
families' sequence / token classification, question-answering, bare-model and *EncoderModel classes
(:func:`heads`):

    python scripts/meta_oracle.py --heads tests/data/meta_oracle_sweep.json -o tests/data/meta_oracle_heads.json
"""

from __future__ import annotations

import argparse
import datetime
import json
import platform
import re
import signal
import sys
import time
import warnings
from pathlib import Path

VISION_MARKERS = ("visual", "vision_model", "vision_tower", "multi_modal_projector")


def count(config_path: Path) -> dict | None:
    import torch
    import transformers
    from transformers import AutoModelForCausalLM
    from transformers.models.auto.configuration_auto import CONFIG_MAPPING

    raw = json.loads(config_path.read_text())
    mt = raw.get("model_type")
    if mt not in CONFIG_MAPPING:
        return None
    data = {k: v for k, v in raw.items() if k not in ("auto_map", "quantization_config")}
    cfg = CONFIG_MAPPING[mt](**data)
    arch = (raw.get("architectures") or [None])[0]
    cls = getattr(transformers, arch, None) if arch else None
    with torch.device("meta"):
        model = cls._from_config(cfg) if cls is not None else AutoModelForCausalLM.from_config(cfg)
    total = vision = 0
    for name, p in model.named_parameters():
        total += p.numel()
        if any(m in name for m in VISION_MARKERS):
            vision += p.numel()
    emb = model.get_input_embeddings()
    out = model.get_output_embeddings()
    untied = out is not None and out.weight is not emb.weight  # meta tensors share data_ptr 0: compare objects
    return {
        "model_type": mt, "class": type(model).__name__, "total": total, "language_model": total - vision,
        "vision": vision, "embedding": emb.weight.numel(),
        "lm_head": out.weight.numel() if (out is not None and untied) else 0,
    }


# ---------------------------------------------------------------------------------------------
# Sweep mode: every text-generating model type of this transformers version, default + resized.
# ---------------------------------------------------------------------------------------------

SWEEP_COMMAND = "python scripts/meta_oracle.py --sweep -o tests/data/meta_oracle_sweep.json"

# Encoder families swept with their base class (MODEL_MAPPING_NAMES), not an LM head.
SWEEP_BASE_CLASS_TYPES = ("bert", "t5")

# Types that build but whose output is not text a serving sheet would price.
SWEEP_NOT_SERVING = {
    "pi0": "vision-language-action policy: generates robot actions (flow-matching action expert), not text",
    "diffusion_gemma": "block-diffusion LM (denoising sampler), not autoregressive decoding",
    "musicgen": "text-to-music: generates audio codec tokens",
    "musicgen_melody": "text-to-music: generates audio codec tokens",
    # seq2seq LMs over audio or of arbitrary parts
    "audioflamingo3": "audio understanding: the decoder needs audio encoder states",
    "musicflamingo": "music understanding: the decoder needs audio encoder states",
    "seamless_m4t": "speech / text translation (SeamlessM4T): a multitask model whose text-to-text path is one of "
                    "several towers",
    "seamless_m4t_v2": "speech / text translation (SeamlessM4T v2): a multitask model whose text-to-text path is one "
                       "of several towers",
    "encoder-decoder": "a composite of any encoder and decoder configs (EncoderDecoderModel): no layout of its own",
}

# Per-type config keys set in every variant (the class cannot be built otherwise).
# Nested dicts are passed as partial sub-configs (the sub-config class fills in the rest).
_ROPE = {"rope_type": "default", "rope_theta": 10000.0}
_QWEN4_INDEXER = {"indexer_n_heads": 16, "indexer_kv_heads": 1, "indexer_head_dim": 256, "indexer_budget": 2048,
                  "indexer_compress_ratio": 4}
SWEEP_TYPE_OVERRIDES: dict[str, dict] = {
    "reformer": {"is_decoder": True},  # ReformerModelWithLMHead asserts is_decoder
    # default configs that leave a field None which the modeling code indexes / divides by:
    "chameleon": {"vocabulary_map": {"<image>": 8711}},
    "emu3": {"vocabulary_map": {"<image>": 151851, "<|extra_200|>": 151852}},
    "cohere_compass": {"text_config": {"rope_parameters": {"full_attention": _ROPE, "sliding_attention": _ROPE}}},
    "cohere_compass_text": {"rope_parameters": {"full_attention": _ROPE, "sliding_attention": _ROPE}},
    "dbrx": {"attn_config": {"rope_theta": 500000.0, "kv_n_heads": 1}},
    "deepseek_ocr2": {"text_config": {"mlp_layer_types": ["dense"] + ["sparse"] * 31}},
    "dots1": {"n_routed_experts": 128, "n_shared_experts": 2, "num_experts_per_tok": 6},
    "gemma4_assistant": {"text_config": {"hidden_size_per_layer_input": 0, "vocab_size_per_layer_input": 0,
                                         "enable_moe_block": False, "use_double_wide_mlp": False}},
    "aya_vision": {"vision_config": {"num_attention_heads": 16}},  # default: 1152 wide, 14 heads
    "granite4_vision": {"deepstack_layer_map": [[-1, 0], [-5, 2]], "downsample_rate": "1/4"},
    "lfm2_moe": {"layer_types": ["full_attention" if i % 4 == 2 else "conv" for i in range(32)]},
    "qwen3_omni_moe": {"talker_config": {"text_config": {"shared_expert_intermediate_size": 768},
                                          "spatial_merge_size": 2}},
    "qwen4_exp": {"text_config": dict(_QWEN4_INDEXER)},
    "qwen4_exp_text": dict(_QWEN4_INDEXER),
}

# --- module-name patterns: a parameter's dotted name is split into components; the first
# component (left to right) that matches TEXT_CONTAINER or NONTEXT decides (text / vision).
# No decisive component: text. Digit components (layer indices) never decide.
TEXT_CONTAINER = r"^(language_model|text_model|text_decoder|lm_head)$"
NONTEXT = (r"^(vision\w*|visual\w*|image_\w+|video\w*|audio\w*|speech\w*|acoustic\w*|semantic_tokenizer\w*"
           r"|protein\w*|codec\w*|high_res_vision\w*|embed_vision|embed_audio|vqmodel|qformer|query_tokens"
           r"|language_projection|multi_modal_projector|mm_projector|projector|merger|connector|aligner"
           r"|generation_aligner|generation_head|generation_embeddings|resampler_model|perceiver_resampler"
           r"|\w+_projectors?|view_separator|enc_to_dec_proj"
           r"|embed_tokens_extend|word_timestamp_\w+|patch_embed|embed_patches|talker|token2wav|code2wav\w*)$")
# Types whose top-level ``encoder`` is an image / audio encoder (the text model is the decoder).
NONTEXT_ENCODER_TYPES = ("pix2struct", "vision-encoder-decoder", "granite_speech", "granite_speech_plus",
                         "pp_formulanet")
MTP = r"^(mtp\w*|nextn\w*|multi_token_predict\w*)$"
# Routed experts: parameters below a component named ``experts`` / ``*_experts`` (not
# ``shared_expert(s)``), except routers / gates below it and 1-d tensors directly below it
# (a bias shared by all experts); plus 3-d tensors whose leading dimension is the expert count
# outside such a component (fused expert weights named otherwise, e.g. JetMoE's mlp.input_linear).
EXPERTS = r"^(experts|\w+_experts)$"
SHARED_EXPERTS = r"^shared_\w*experts?$"
ROUTER = r"^(router|gate|gating|router_\w+)$"

_TEXT_RE, _NONTEXT_RE, _MTP_RE = re.compile(TEXT_CONTAINER), re.compile(NONTEXT), re.compile(MTP)
_EXPERTS_RE, _SHARED_RE, _ROUTER_RE = re.compile(EXPERTS), re.compile(SHARED_EXPERTS), re.compile(ROUTER)

SWEEP_PATTERNS = {
    "how": "a parameter name is split at '.'; the first component, left to right, matching text_container or "
           "vision decides; none decides: language model. language_model = total - vision (mtp, if any, is "
           "inside language_model and also reported apart)",
    "text_container": TEXT_CONTAINER,
    "vision": NONTEXT,
    "vision_encoder_types": "top-level component 'encoder' counts as vision for: " + ", ".join(NONTEXT_ENCODER_TYPES),
    "mtp": MTP,
    "embedding": "model.get_input_embeddings(): its weight (all its parameters when it has no weight)",
    "lm_head": "model.get_output_embeddings().weight (bias excluded); 0 when it is the input embedding's weight "
               "object (tied) or absent",
    "routed_experts": "below a component matching " + EXPERTS + " and not " + SHARED_EXPERTS + ", excluding "
                      "components matching " + ROUTER + " below it and 1-d tensors directly below it; plus, in the "
                      "language model, 3-d tensors outside it whose first dimension equals num_experts",
    "num_experts / top_k": "read from the text config (first of the expert-count / top-k keys listed in "
                           "EXPERT_KEYS / TOPK_KEYS of scripts/meta_oracle.py)",
    "vision_scope": "'vision' is every non-text tower: image, video, audio / speech encoders, VQ image tokenizers, "
                    "speech generators (talker, token2wav) and the projectors / connectors into the language model",
    "variants": "default: the config class's defaults (plus SWEEP_TYPE_OVERRIDES where the defaults cannot be "
                "built, and default towers where the default leaves vision_config / audio_config None); "
                "default_repaired: default with None head_dim / KV heads filled in (the default raised); "
                "resize_a / resize_b: RESIZE_SPECS applied through the config class (depth, width, heads, KV heads, "
                "head_dim, intermediate, experts / top-k, MLA ranks, vocabulary, per-layer lists resampled to the "
                "new depth, vision depth and width); resize.groups lists the groups applied, resize.dropped those "
                "given up because the class raised (fallback_errors says why)",
}

# --- config keys the resizer touches -----------------------------------------------------------
DEPTH_KEYS = ("num_hidden_layers", "n_layer", "n_layers", "num_layers", "decoder_layers", "num_decoder_layers",
              "encoder_layers", "num_encoder_layers", "layers", "depth")
WIDTH_KEYS = ("hidden_size", "d_model", "n_embd", "embed_dim", "emb_dim", "dim")
HEAD_KEYS = ("num_attention_heads", "n_head", "n_heads", "num_heads", "decoder_attention_heads",
             "encoder_attention_heads", "attention_heads", "num_decoder_attention_heads",
             "num_encoder_attention_heads")
KV_KEYS = ("num_key_value_heads", "num_kv_heads", "multi_query_group_num", "num_query_groups", "kv_n_heads")
HEAD_DIM_KEYS = ("head_dim", "attention_head_dim", "d_head", "d_kv", "kv_channels", "dim_head", "attention_head_size")
INTER_KEYS = ("intermediate_size", "ffn_dim", "d_ff", "dim_ff", "dff", "ffn_hidden_size", "decoder_ffn_dim",
              "encoder_ffn_dim", "feed_forward_size", "n_inner", "intermediate_size_mlp", "mlp_dim")
EXPERT_KEYS = ("num_experts", "num_local_experts", "n_routed_experts", "moe_num_experts", "num_routed_experts",
               "n_experts")
TOPK_KEYS = ("num_experts_per_tok", "num_experts_per_token", "moe_k", "moe_topk", "moe_top_k", "top_k_experts",
             "experts_per_token", "router_topk", "top_k")
MOE_INTER_KEYS = ("moe_intermediate_size", "expert_ffn_hidden_size", "expert_intermediate_size", "moe_hidden_size")
SHARED_INTER_KEYS = ("shared_expert_intermediate_size", "shared_experts_intermediate_size",
                     "moe_shared_expert_intermediate_size", "share_expert_dim", "shared_intermediate_size")
SHARED_COUNT_KEYS = ("n_shared_experts", "num_shared_experts", "moe_num_shared_experts")
# Mamba mixers: (heads, head dim, expand) keys; heads * head_dim must stay expand * hidden_size.
MAMBA_KEYS = (("mamba_n_heads", "mamba_d_head", "mamba_expand"), ("mamba_num_heads", "mamba_head_dim", "expand"),
              ("n_mamba_heads", "mamba_headdim", "mamba_expand"), ("mamba_num_heads", "mamba_head_dim", "mamba_expand"))
# Width-like keys of a text config that follow hidden_size when they equal it.
TEXT_WIDTH_FOLLOWERS = ("word_embed_proj_dim", "embedding_size", "embedding_dim", "lru_width",
                        "attention_hidden_size", "input_size", "ple_embed_dim")
# Keys of vision / audio configs that hold the text model's width (projector outputs).
TO_TEXT_WIDTH = ("out_hidden_size", "text_hidden_size", "adapter_out_dim", "output_dim", "projection_dim",
                 "lm_hidden_size", "llm_hidden_size", "text_config_hidden_size")
# Keys of text / top-level configs that hold the vision tower's width.
TO_VISION_WIDTH = ("encoder_hidden_size", "vision_hidden_size", "mm_hidden_size", "vision_embed_dim",
                   "image_embed_dim", "cross_attention_hidden_size", "vision_feature_dim")
# Keys outside the vision config that index the vision tower's layers.
VISION_LAYER_REFS = re.compile(r"^(vision_feature_layers?|feature_layers?|vision_layer_ids?|spatial_vision_layer"
                               r"|vision_feature_layer_indices)$")
# Text-model head_dim the modeling code needs (rotary sections sized for it).
HEAD_DIM_BY_TYPE = {"ernie4_5_vl_moe": 128}
_NO_SCALE = re.compile(r"period|offset|interval|step|freq|every|pattern|window|chunk|position|token|vocab")
_INDEX_KEY = re.compile(r"layer|block|idx|index|indices|indexes")
_LIST_NOT_PER_LAYER = re.compile(r"token|pinpoint|size|shape|section|grid|depths|ratio|scale|range|limit")
_SOURCE_KEY = re.compile(r"source|share|src")

TEXT_SUBCONFIG = re.compile(r"text|llm|language|decoder|thinker|lm_config|^ffn_config$|^attn_config$")
NONTEXT_SUBCONFIG = re.compile(r"vision|visual|image|video|audio|speech|acoustic|protein|vq|codec|talker|"
                               r"token2wav|code2wav|vit|siglip|clip|perceiver|qformer|projector|encoder_config|"
                               r"adapt|connector|merger|aligner")
_ADAPTER_SUBCONFIG = re.compile(r"adapt|project|connect|merger|aligner")

# The two resized shapes: (A) smaller than most defaults, (B) other ratios, odd depth and vocab.
RESIZE_SPECS = {
    "resize_a": dict(depth=6, hidden=512, heads=8, kv=2, inter=1408, experts=8, top_k=2, moe_inter=256,
                     shared_inter=512, n_shared=1, n_group=2, topk_group=1, vocab=32000,
                     vision_depth=3, vision_hidden=None, mla=None),
    "resize_b": dict(depth=9, hidden=768, heads=12, kv=4, inter=2304, experts=12, top_k=3, moe_inter=320,
                     shared_inter=640, n_shared=2, n_group=2, topk_group=1, vocab=50257,
                     vision_depth=5, vision_hidden=384,
                     mla=dict(kv_lora_rank=256, q_lora_rank=384, qk_rope_head_dim=32, qk_nope_head_dim=64,
                              v_head_dim=64)),
}
# Groups of changes; when the class raises, groups are given up one at a time, then two at a
# time, in DROP_ORDER, then down the coarse chain.
RESIZE_GROUPS = ("depth", "vocab", "width", "inter", "moe", "mla", "vision_depth", "vision_width")
DROP_ORDER = ("vision_width", "mla", "moe", "vocab", "width", "inter", "vision_depth", "depth")
RESIZE_CHAIN = (
    ("depth", "vocab", "inter", "vision_depth"),
    ("depth", "vocab", "vision_depth"),
    ("depth", "vision_depth"),
    ("depth", "vocab"),
    ("depth",),
    ("vocab", "inter"),
    ("vocab",),
)


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _first(d: dict, keys) -> tuple[str | None, object]:
    for k in keys:
        if k in d and d[k] is not None:
            return k, d[k]
    return None, None


def _subconfigs(d: dict):
    """(key, dict) for every nested config of ``d`` (dicts with a model_type, ``*_config`` dicts)."""
    for k, v in d.items():
        if isinstance(v, dict) and ("model_type" in v or (k.endswith("_config") and any(
                x in v for x in DEPTH_KEYS + WIDTH_KEYS))):
            yield k, v


def _is_text_subconfig(name: str, d: dict) -> bool:
    if NONTEXT_SUBCONFIG.search(name) and not re.search(r"text|llm|language", name):
        return False
    if TEXT_SUBCONFIG.search(name):
        return True
    if name == "encoder" and any(True for _ in _subconfigs(d)):
        return True  # an encoder that holds a text config (and maybe a vision one)
    return "vocab_size" in d


def _key(x) -> str:
    return json.dumps(x, sort_keys=True)


def _per_layer_lists(d: dict, old: int) -> list[str]:
    return [k for k, v in d.items() if k not in DEPTH_KEYS and isinstance(v, (list, str)) and len(v) == old
            and old > 1 and (isinstance(v, list) and (not _LIST_NOT_PER_LAYER.search(k) or k in INTER_KEYS)
                             or isinstance(v, str) and old > 2 and len(set(v)) <= 4 and not v.isalpha())]


def _index_lists(d: dict, old: int) -> list[str]:
    return [k for k, v in d.items() if isinstance(v, list) and v and all(_is_int(x) for x in v)
            and _INDEX_KEY.search(k) and all(-old <= x < old for x in v) and len(v) < old
            and not _LIST_NOT_PER_LAYER.search(k)]


def _layer_dicts(d: dict, old: int) -> list[str]:
    """Dicts keyed by layer index (per_layer_config)."""
    out = []
    for k, v in d.items():
        if isinstance(v, dict) and v and "layer" in k and all(str(x).isdigit() and int(x) < old for x in v):
            out.append(k)
    return out


def layer_map(d: dict, old: int, new: int) -> list[int]:
    """For each new layer, the old layer it copies: evenly spread with the first and last layers
    kept, then adjusted so that every distinct per-layer value (layer types, dense/sparse,
    per-layer overrides) keeps a layer, placed near where it first occurs."""
    src = [(j * (old - 1)) // (new - 1) if new > 1 else 0 for j in range(new)]
    refs = [list(d[k]) for k in _per_layer_lists(d, old) if not _index_valued(d[k])]
    refs += [[i in set(d[k]) for i in range(old)] for k in _index_lists(d, old)]
    refs += [[i in {int(x) for x in d[k]} for i in range(old)] for k in _layer_dicts(d, old)]
    fixed = {0, new - 1}
    for ref in refs:
        for i, x in enumerate(ref):
            if _key(x) in {_key(ref[s]) for s in src}:
                continue
            free = sorted((p for p in range(1, new - 1) if p not in fixed), key=lambda p: abs(p - i * new / old))
            if not free:
                break
            src[free[0]] = i
            fixed.add(free[0])
    return sorted(src)


def _index_valued(v) -> bool:
    """A per-layer list whose entries are earlier layer indices (KV-sharing sources)."""
    return isinstance(v, list) and all(_is_int(x) for x in v) and all(0 <= x <= i for i, x in enumerate(v)) \
        and len(set(v)) > 2


def _resize_layers(d: dict, old: int, new: int, changed: list, path: str) -> list[int]:
    """Per-layer lists / strings / dicts, layer-index lists and layer-count ints of one config dict."""
    src = layer_map(d, old, new)
    per_layer, index_lists, layer_dicts = _per_layer_lists(d, old), _index_lists(d, old), _layer_dicts(d, old)
    for k in per_layer:
        v = d[k]
        if _index_valued(v):
            out: list[int] = []
            for j in range(new):
                owner = v[src[j]] == src[j]
                earlier = [i for i in range(j) if out[i] == i]
                out.append(j if owner or not earlier else earlier[-1])
            d[k] = out
        elif isinstance(v, str):
            d[k] = "".join(v[s] for s in src)
        else:
            d[k] = [v[s] for s in src]
        changed.append(f"{path}{k}")
    for k in index_lists:
        v = d[k]
        if all(x >= 0 for x in v):
            members = set(v)
            out = sorted(j for j in range(new) if src[j] in members)
            d[k] = out or sorted({min(new - 1, (x * new) // old) for x in v})
        else:
            d[k] = [x if x < 0 and -x <= new else (min(new - 1, (x * new) // old) if x >= 0 else -1) for x in v]
        changed.append(f"{path}{k}")
    for k in layer_dicts:
        v = {int(x): y for x, y in d[k].items()}
        widths = {len(str(x)) for x in d[k]}
        pad = widths.pop() if len(widths) == 1 else 0  # keep zero-padded keys ("05") zero-padded
        d[k] = {str(j).zfill(pad): v[src[j]] for j in range(new) if src[j] in v}
        changed.append(f"{path}{k}")
    for k, v in list(d.items()):
        if _is_int(v) and "layer" in k and not _NO_SCALE.search(k) and k not in DEPTH_KEYS:
            if v == old:
                _set(d, k, new, changed, path)
            elif 0 < v < old:
                _set(d, k, max(1, min(new - 1, round(v * new / old))), changed, path)
    return src


def _set(d: dict, k: str, v, changed: list, path: str) -> None:
    if d.get(k) != v:
        d[k] = v
        changed.append(f"{path}{k}")


def _rope_sections(d: dict, ratio: float, changed: list, path: str) -> None:
    """Scale an mrope_section so that it keeps summing to half the (new) rotary dimension."""
    for rk in ("rope_parameters", "rope_scaling"):
        rp = d.get(rk)
        if isinstance(rp, dict) and isinstance(rp.get("mrope_section"), list) and rp["mrope_section"]:
            sec = rp["mrope_section"]
            target = round(sum(sec) * ratio)
            new = [max(1, int(x * ratio)) for x in sec]
            new[0] += target - sum(new)
            if new != sec:
                rp["mrope_section"] = new
                changed.append(f"{path}{rk}.mrope_section")


def _text_depth(d: dict, spec: dict) -> int:
    new = spec["depth"]
    m = d.get("n_layers_per_attn_res_block")
    if _is_int(m) and m > 1:
        new = -(-new // m) * m
    return new


def _paired_blocks(d: dict, orig: dict, spec: dict, changed: list, path: str) -> bool:
    """Configs serialized as (attention, mlp) block pairs (Dory: layer_types alternate with "mlp",
    layer counts doubled): resize the pairs. Returns True when it applied."""
    lt = orig.get("layer_types")
    if not (isinstance(lt, list) and len(lt) > 2 and len(lt) % 2 == 0 and all(x == "mlp" for x in lt[1::2])
            and _is_int(orig.get("n_input_layers"))):
        return False
    attn = lt[::2]
    n = spec["depth"]
    src = layer_map({"layer_types": attn}, len(attn), n)
    _set(d, "layer_types", [b for j in range(n) for b in (attn[src[j]], "mlp")], changed, path)
    _set(d, "num_hidden_layers", 2 * n, changed, path)
    _set(d, "n_input_layers", 2, changed, path)
    _set(d, "n_output_layers", 2, changed, path)
    _set(d, "n_recurrent_layers", 2 * n - 4, changed, path)
    return True


def _family_fixes(d: dict, old_depth, new_depth, width, changed: list, path: str) -> None:
    """Relations between keys that specific families validate."""
    if new_depth and old_depth and all(_is_int(d.get(k)) for k in ("n_input_layers", "n_recurrent_layers",
                                                                     "n_output_layers")):
        _set(d, "n_input_layers", 1, changed, path)
        _set(d, "n_output_layers", 1, changed, path)
        _set(d, "n_recurrent_layers", new_depth - 2, changed, path)
    if width:
        old_h, h = width
        for hk, dk, ek in MAMBA_KEYS:
            if _is_int(d.get(hk)) and _is_int(d.get(dk)) and _is_int(d.get(ek)):
                if _is_int(d.get("mamba_d_ssm")):  # explicit SSM width (Falcon-H1): follows expand * hidden
                    _set(d, "mamba_d_ssm", d[ek] * h, changed, path)
                _set(d, hk, max(1, d[ek] * h // d[dk]), changed, path)
        if "state_size" in d and _is_int(d.get("expand")) and _is_int(d.get("num_heads")) and \
                _is_int(d.get("head_dim")) and "num_attention_heads" not in d:  # Mamba2 itself
            _set(d, "head_dim", 64, changed, path)
            _set(d, "num_heads", d["expand"] * h // 64, changed, path)
            if _is_int(d.get("n_groups")) and d["num_heads"] % d["n_groups"]:
                _set(d, "n_groups", 1, changed, path)
        if isinstance(d.get("axial_pos_embds_dim"), list) and len(d["axial_pos_embds_dim"]) == 2:
            _set(d, "axial_pos_embds_dim", [h // 4, h - h // 4], changed, path)


def _loop_fix(d: dict, orig: dict, old_depth: int, new_depth: int, changed: list, path: str) -> None:
    """Looped-block models: loop start / end must stay multiples of n_layers_per_attn_res_block."""
    m = d.get("n_layers_per_attn_res_block")
    if not (_is_int(m) and m > 1 and _is_int(orig.get("loop_layer_index_end"))):
        return
    blocks = new_depth // m
    s = round(orig.get("loop_layer_index_start", 0) / old_depth * blocks) * m
    e = round(orig["loop_layer_index_end"] / old_depth * blocks) * m
    e = min(max(e, m), new_depth)
    s = min(s, e - m)
    _set(d, "loop_layer_index_start", max(0, s), changed, path)
    _set(d, "loop_layer_index_end", e, changed, path)


def _resize_text(d: dict, spec: dict, groups, changed: list, path: str, token_ids: set, mt: str):
    """Resize one text config dict in place; returns (old_hidden, new_hidden) when width changed."""
    width_change = None
    orig = dict(d)
    dk, old_depth = _first(d, DEPTH_KEYS)
    new_depth = None
    if "depth" in groups and dk and _is_int(old_depth) and old_depth > 0:
        new_depth = _text_depth(d, spec)
        for k in DEPTH_KEYS:
            if _is_int(d.get(k)) and d[k] == old_depth:
                _set(d, k, new_depth, changed, path)
        if not _paired_blocks(d, orig, spec, changed, path):
            _resize_layers(d, old_depth, new_depth, changed, path)
            _loop_fix(d, orig, old_depth, new_depth, changed, path)
        else:
            new_depth = None
    if "vocab" in groups and _is_int(d.get("vocab_size")):
        need = max([spec["vocab"]] + [t + 1 for t in token_ids])
        vocab = need if need == spec["vocab"] else -(-need // 64) * 64
        _set(d, "vocab_size", vocab, changed, path)
    is_mla = _is_int(d.get("kv_lora_rank"))
    old_rot = d.get("qk_rope_head_dim") if is_mla else None
    if "width" in groups:
        wk, old_hidden = _first(d, WIDTH_KEYS)
        hk, old_heads = _first(d, HEAD_KEYS)
        _, old_kv = _first(d, KV_KEYS)
        if wk and _is_int(old_hidden):
            h, nh = spec["hidden"], spec["heads"]
            if mt in HEAD_DIM_BY_TYPE:
                nh = h // HEAD_DIM_BY_TYPE[mt]
            kv = nh if (old_kv is not None and old_kv == old_heads) else (
                max(1, nh // (spec["heads"] // spec["kv"])))
            old_hd = d.get("head_dim") if _is_int(d.get("head_dim")) else (
                old_hidden // old_heads if _is_int(old_heads) and old_heads else None)
            for k in WIDTH_KEYS:
                if _is_int(d.get(k)) and d[k] == old_hidden:
                    _set(d, k, h, changed, path)
            for k in TEXT_WIDTH_FOLLOWERS:
                if _is_int(d.get(k)) and d[k] == old_hidden:
                    _set(d, k, h, changed, path)
            for k in HEAD_KEYS:
                if k in d and (d[k] is None or _is_int(d[k])):
                    _set(d, k, nh, changed, path)
            for k in KV_KEYS:
                if k in d and (d[k] is None or _is_int(d[k])):
                    _set(d, k, kv, changed, path)
            if not is_mla:
                for k in HEAD_DIM_KEYS:
                    if k in d and (d[k] is None or _is_int(d[k])):
                        _set(d, k, h // nh, changed, path)
                if old_hd:
                    _rope_sections(d, (h // nh) / old_hd, changed, path)
            width_change = (old_hidden, h)
    if "inter" in groups:
        for k in INTER_KEYS:
            v = d.get(k)
            if _is_int(v):
                _set(d, k, spec["inter"], changed, path)
            elif isinstance(v, list) and v and all(_is_int(x) for x in v):
                _set(d, k, [spec["inter"]] * len(v), changed, path)
    ek, old_e = _first(d, EXPERT_KEYS)
    if "moe" in groups and ek and (_is_int(old_e) and old_e > 1 or isinstance(old_e, list)):
        for k in EXPERT_KEYS:
            if _is_int(d.get(k)) and d[k] > 1:
                _set(d, k, spec["experts"], changed, path)
            elif isinstance(d.get(k), list) and all(_is_int(x) for x in d[k]):
                _set(d, k, [spec["experts"]] * len(d[k]), changed, path)
        for k in TOPK_KEYS:
            if _is_int(d.get(k)) and d[k] > 1 or (k in d and d[k] is None and k != "top_k"):
                _set(d, k, spec["top_k"], changed, path)  # top-1 routers (Switch-style) stay top-1
        for k in MOE_INTER_KEYS:
            v = d.get(k)
            if _is_int(v):
                _set(d, k, spec["moe_inter"], changed, path)
            elif isinstance(v, list) and v and all(_is_int(x) and x > 0 for x in v):
                _set(d, k, [max(8, round(x * spec["moe_inter"] / v[0] / 8) * 8) for x in v], changed, path)
        for k in SHARED_INTER_KEYS:
            if _is_int(d.get(k)) and d[k] > 0:
                _set(d, k, spec["shared_inter"], changed, path)
        for k in SHARED_COUNT_KEYS:
            if _is_int(d.get(k)) and d[k] > 0:
                _set(d, k, spec["n_shared"], changed, path)
        for k in ("n_group", "num_expert_group"):
            if _is_int(d.get(k)) and d[k] > 1:
                _set(d, k, spec["n_group"], changed, path)
        if _is_int(d.get("topk_group")) and d["topk_group"] > 1:
            _set(d, "topk_group", spec["topk_group"], changed, path)
        if _is_int(d.get("zero_expert_num")) and d["zero_expert_num"] > 0:
            _set(d, "zero_expert_num", spec["experts"] // 2, changed, path)
    if "mla" in groups and is_mla and spec.get("mla"):
        old_qk = (d.get("qk_nope_head_dim") or 0) + (d.get("qk_rope_head_dim") or 0)
        for k, v in spec["mla"].items():
            if _is_int(d.get(k)) and d[k] > 0:  # absent / None / 0 (NoPE) stay as they are
                _set(d, k, v, changed, path)
        new_qk = (d.get("qk_nope_head_dim") or 0) + (d.get("qk_rope_head_dim") or 0)
        for k in ("qk_head_dim", "swa_head_dim"):
            if _is_int(d.get(k)) and d[k] == old_qk:
                _set(d, k, new_qk, changed, path)
        for k, plc in d.items():  # per-layer overrides (per_layer_config) that spell out the MLA head size
            if isinstance(plc, dict) and "layer" in k:
                for lk, lv in plc.items():
                    if isinstance(lv, dict) and lv.get("head_dim") == old_qk:
                        _set(lv, "head_dim", new_qk, changed, f"{path}{k}.{lk}.")
        old_hd, new_rope = d.get("head_dim"), d.get("qk_rope_head_dim")
        if _is_int(old_hd) and _is_int(old_rot) and _is_int(new_rope):
            # head_dim is the rope part (DeepSeek), the whole q/k head, or the whole head of layers
            # whose per-layer overrides set their own nope width
            ov_nopes = [lv["qk_nope_head_dim"] for k, plc in d.items() if isinstance(plc, dict) and "layer" in k
                        for lv in plc.values() if isinstance(lv, dict) and _is_int(lv.get("qk_nope_head_dim"))]
            if old_hd == old_rot:
                _set(d, "head_dim", new_rope, changed, path)
            elif old_hd == old_qk:
                _set(d, "head_dim", new_qk, changed, path)
            elif ov_nopes and old_hd == ov_nopes[0] + old_rot:
                _set(d, "head_dim", ov_nopes[0] + new_rope, changed, path)
        if _is_int(old_rot) and old_rot:
            _rope_sections(d, d["qk_rope_head_dim"] / old_rot, changed, path)
    _family_fixes(d, old_depth, new_depth, width_change, changed, path)
    return width_change


def _resize_nontext(d: dict, spec: dict, groups, changed: list, path: str,
                    text_width: tuple[int, int] | None, adapter: bool) -> tuple:
    """Resize a vision / audio config dict (depth; width in variant B).

    Returns (width change, depth change); stage-structured backbones (per-stage depths / widths
    lists) keep their depth."""
    width_change = depth_change = None
    dk, old_depth = _first(d, DEPTH_KEYS)
    staged = any(isinstance(d.get(k), list) and _is_int(old_depth) and len(d[k]) == old_depth
                 for k in ("depths", "hidden_sizes", "patch_sizes", "embed_dims"))
    if "vision_depth" in groups and dk and _is_int(old_depth) and old_depth > spec["vision_depth"] and not staged:
        new = spec["vision_depth"]
        for k in DEPTH_KEYS:
            if _is_int(d.get(k)) and d[k] == old_depth:
                _set(d, k, new, changed, path)
        _resize_layers(d, old_depth, new, changed, path)
        depth_change = (old_depth, new)
    # Qwen2-VL style: embed_dim is the tower width, hidden_size the merger's output (the text width)
    split_width = _is_int(d.get("embed_dim")) and _is_int(d.get("hidden_size")) and "spatial_merge_size" in d
    if split_width and text_width and d["hidden_size"] == text_width[0]:
        _set(d, "hidden_size", text_width[1], changed, path)
    if "vision_width" in groups and spec.get("vision_hidden") and not adapter:
        wk, old_hidden = _first(d, ("embed_dim", "hidden_size", "d_model", "width") if split_width else
                                ("hidden_size", "embed_dim", "d_model", "width"))
        hk, old_heads = _first(d, ("num_attention_heads", "num_heads", "attention_heads", "encoder_attention_heads"))
        if wk and _is_int(old_hidden) and hk and _is_int(old_heads):
            vh = spec["vision_hidden"]
            vheads = max(1, vh // 64)
            _set(d, wk, vh, changed, path)
            _set(d, hk, vheads, changed, path)
            for k in ("intermediate_size", "mlp_dim", "encoder_ffn_dim"):
                if _is_int(d.get(k)):
                    _set(d, k, 4 * vh, changed, path)
            for k in ("head_dim", "attention_head_dim"):
                if _is_int(d.get(k)):
                    _set(d, k, 64, changed, path)
            if _is_int(d.get("num_key_value_heads")):
                _set(d, "num_key_value_heads", vheads, changed, path)
            width_change = (old_hidden, vh)
    if text_width:
        old_t, new_t = text_width
        if adapter:  # adapters / projectors: every width that is the text width (or a simple fraction of it)
            for k, v in list(d.items()):
                if not _is_int(v) or not re.search(r"hidden|size|dim", k) or re.search(r"vocab|position|token", k):
                    continue
                for num, den in ((1, 1), (1, 4), (1, 2), (2, 1), (4, 1)):
                    if v * den == old_t * num:
                        _set(d, k, new_t * num // den, changed, path)
                        break
        else:
            for k in TO_TEXT_WIDTH:
                if _is_int(d.get(k)) and d[k] == old_t:
                    _set(d, k, new_t, changed, path)
    return width_change, depth_change


def _token_ids(d: dict) -> set:
    ids = set()
    for k, v in d.items():
        if isinstance(v, dict):
            ids |= _token_ids(v)
        elif _is_int(v) and re.search(r"(token_id|token_index|_id)$", k) and 0 <= v < 10_000_000:
            ids.add(v)
    return ids


def _vision_layer_refs(node: dict, old: int, new: int, changed: list, path: str, skip: set) -> None:
    """Keys outside the vision config that index vision layers (vision_feature_layer...)."""
    def remap(x):
        if x >= 0:
            return min(new - 1, (x * new) // old) if x >= new else x
        return x if -x <= new else -1

    for k, v in list(node.items()):
        if isinstance(v, dict) and k not in skip:
            _vision_layer_refs(v, old, new, changed, f"{path}{k}.", set())
        elif VISION_LAYER_REFS.match(k):
            if _is_int(v) and remap(v) != v:
                _set(node, k, remap(v), changed, path)
            elif isinstance(v, list) and all(_is_int(x) for x in v):
                nv = [remap(x) for x in v]
                if len(set(nv)) < len(nv):  # keep distinct layers
                    nv = sorted(set(nv), key=nv.index)
                _set(node, k, nv, changed, path)


def resize_config_dict(base: dict, spec: dict, groups, mt: str = "") -> tuple[dict, list]:
    """A resized copy of the config dict ``base`` and the dotted keys changed."""
    d = json.loads(json.dumps(base))
    changed: list[str] = []
    ids = _token_ids(d)
    vision_depths: list[tuple] = []

    def walk(node: dict, path: str, is_text: bool, text_width):
        # text first (its width is needed by vision projector keys), then the other sub-configs
        width = _resize_text(node, spec, groups, changed, path, ids, mt) if is_text else None
        subs = list(_subconfigs(node))
        text_subs = [(k, v) for k, v in subs if _is_text_subconfig(k, v)]
        other_subs = [(k, v) for k, v in subs if not _is_text_subconfig(k, v)]
        tw = width or text_width
        for k, v in text_subs:
            tw = walk(v, f"{path}{k}.", True, tw) or tw
        vision_width = None
        for k, v in other_subs:
            adapter = bool(_ADAPTER_SUBCONFIG.search(k))
            vw, vd = _resize_nontext(v, spec, groups, changed, f"{path}{k}.", tw, adapter)
            vision_width = vision_width or vw
            if vd:
                vision_depths.append((node, k, vd, path))
            for k2, v2 in _subconfigs(v):  # e.g. a vision config's own nested configs
                _resize_nontext(v2, spec, groups, changed, f"{path}{k}.{k2}.", tw, bool(_ADAPTER_SUBCONFIG.search(k2)))
        if vision_width:
            for k in TO_VISION_WIDTH:
                if _is_int(node.get(k)) and node[k] == vision_width[0]:
                    _set(node, k, vision_width[1], changed, path)
            for k, v in text_subs:
                for k2 in TO_VISION_WIDTH:
                    if _is_int(v.get(k2)) and v[k2] == vision_width[0]:
                        _set(v, k2, vision_width[1], changed, f"{path}{k}.")
        if path == "" and tw:  # top-level keys that hold the text width (projector outputs)
            for k in TO_TEXT_WIDTH:
                if _is_int(node.get(k)) and node[k] == tw[0] and k not in ("output_dim",):
                    _set(node, k, tw[1], changed, path)
        return width

    walk(d, "", True, None)
    for node, k, (old, new), path in vision_depths:
        if re.search(r"vision|visual|image", k):
            _vision_layer_refs(node, old, new, changed, path, {k})
    return d, changed


def _classify(mt: str, name: str) -> str:
    """'text' or 'vision' for one parameter name (see TEXT_CONTAINER / NONTEXT)."""
    parts = name.split(".")
    if mt in NONTEXT_ENCODER_TYPES and parts[0] == "encoder" or (
            mt in NONTEXT_ENCODER_TYPES and len(parts) > 1 and parts[0] == "model" and parts[1] == "encoder"):
        return "vision"
    for p in parts:
        if p.isdigit():
            continue
        if _TEXT_RE.match(p):
            return "text"
        if _NONTEXT_RE.match(p):
            return "vision"
    return "text"


def _decisive_prefix(name: str) -> str:
    parts = name.split(".")
    for i, p in enumerate(parts):
        if not p.isdigit() and (_NONTEXT_RE.match(p) or _TEXT_RE.match(p)):
            return ".".join(parts[: i + 1])
    return ".".join(parts[:2])


def _routed(name: str, shape: tuple, num_experts: int | None) -> bool:
    parts = name.split(".")
    for i, p in enumerate(parts[:-1]):
        if _SHARED_RE.match(p):
            return False
        if _EXPERTS_RE.match(p):
            below = parts[i + 1:]
            if any(_ROUTER_RE.match(x) for x in below[:-1]):
                return False
            if len(shape) <= 1 and len(below) == 1:
                return False
            # a 1-D weight of a fused experts module (no per-expert index below it) that is not one value per
            # expert is shared by every expert (muse_spark's experts.post_expert_norm.weight, moe_hidden_size wide)
            if len(shape) <= 1 and not any(x.isdigit() for x in below[:-1]) and not (
                    num_experts and shape and shape[0] == num_experts):
                return False
            return True
    return bool(num_experts) and len(shape) == 3 and shape[0] == num_experts and "conv" not in name


def _text_config_dict(d: dict) -> dict:
    for k, v in _subconfigs(d):
        if _is_text_subconfig(k, v) and not re.search(r"talker|ffn_config|attn_config", k):
            return _text_config_dict(v)
    return d


def _experts_from_config(d: dict) -> tuple[int | None, int | None]:
    t = _text_config_dict(d)
    _, e = _first(t, EXPERT_KEYS)
    if e is None:  # experts described in a nested block (DBRX ffn_config)
        for v in t.values():
            if isinstance(v, dict) and _first(v, EXPERT_KEYS)[1] is not None:
                t = v
                _, e = _first(t, EXPERT_KEYS)
                break
    _, k = _first(t, TOPK_KEYS) if e else (None, None)
    if isinstance(e, list):
        e = e[0] if e and all(x == e[0] for x in e) else None
    return (e if _is_int(e) else None), (k if _is_int(k) else None)


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout("instantiation took over the time limit")


def _input_embeddings(mt: str, model):
    """model.get_input_embeddings(), or the language model's token embedding where that is not wired up."""
    import torch

    try:
        return model.get_input_embeddings()
    except NotImplementedError:
        pass
    for attr in ("thinker", "language_model", "text_model", "model", "decoder"):
        sub = getattr(model, attr, None)
        if sub is not None and sub is not model and hasattr(sub, "get_input_embeddings"):
            try:
                return sub.get_input_embeddings()
            except NotImplementedError:
                continue
    for name, mod in model.named_modules():
        if isinstance(mod, torch.nn.Embedding) and _classify(mt, name + ".weight") == "text" and \
                re.search(r"(embed_tokens|word_embeddings|wte|embed_in)$", name):
            return mod
    raise NotImplementedError(f"no input embedding found for {type(model).__name__}")


def sweep_counts(mt: str, model, cfg_dict: dict) -> dict:
    num_experts, top_k = _experts_from_config(cfg_dict)
    total = vision = mtp = routed = 0
    vision_modules: dict[str, int] = {}
    for name, p in model.named_parameters():
        n = p.numel()
        total += n
        if _classify(mt, name) == "vision":
            vision += n
            pre = _decisive_prefix(name)
            vision_modules[pre] = vision_modules.get(pre, 0) + n
            continue
        if any(_MTP_RE.match(x) for x in name.split(".")):
            mtp += n
        if _routed(name, tuple(p.shape), num_experts):
            routed += n
    emb = _input_embeddings(mt, model)
    emb_w = getattr(emb, "weight", None)
    embedding = emb_w.numel() if emb_w is not None else sum(p.numel() for p in emb.parameters())
    try:
        out = model.get_output_embeddings()
    except Exception:  # some heads raise instead of returning None
        out = None
    out_w = getattr(out, "weight", None) if out is not None else None
    lm_head = out_w.numel() if (out_w is not None and out_w is not emb_w) else 0
    return {
        "total": total, "language_model": total - vision, "vision": vision, "mtp": mtp,
        "embedding": embedding, "lm_head": lm_head, "tied": bool(out_w is not None and out_w is emb_w),
        "routed_experts": routed, "num_experts": num_experts, "top_k": top_k,
        "vision_modules": dict(sorted(vision_modules.items())),
    }


def _config_json(cfg) -> dict:
    d = json.loads(cfg.to_json_string(use_diff=False))
    d.pop("transformers_version", None)
    return d


def _strip_versions(d):
    if isinstance(d, dict):
        return {k: _strip_versions(v) for k, v in d.items() if k != "transformers_version"}
    return d


def build_variant(mt: str, cls_name: str, cfg_dict: dict, limit_s: int = 180) -> tuple[dict, dict]:
    """(config as recorded, counts) for one config dict; raises what the classes raise."""
    import torch
    import transformers
    from transformers.models.auto.configuration_auto import CONFIG_MAPPING

    cfg_cls = CONFIG_MAPPING[mt]
    # deep copy: some config classes consume (pop from) the sub-config dicts they are given
    cfg_dict = json.loads(json.dumps(cfg_dict))
    cfg = cfg_cls(**{k: v for k, v in cfg_dict.items() if k != "transformers_version"})
    recorded = _strip_versions(_config_json(cfg))
    recorded["architectures"] = [cls_name]
    # build from the recorded JSON, exactly as a consumer of the file would rebuild it
    cfg = cfg_cls(**cfg_cls._decode_special_floats(json.loads(json.dumps(recorded))))
    stable = _strip_versions(_config_json(cfg)) == recorded
    model_cls = getattr(transformers, cls_name)
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(limit_s)
    try:
        with torch.device("meta"):
            model = model_cls._from_config(cfg)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    counts = sweep_counts(mt, model, recorded)
    counts["config_roundtrip_stable"] = stable
    del model
    return recorded, counts


def sweep_types() -> dict[str, str]:
    """model_type -> class name swept (conditional-generation class first, as config.json names it)."""
    from transformers.models.auto import modeling_auto as ma
    from transformers.models.auto.configuration_auto import CONFIG_MAPPING_NAMES

    sources = [getattr(ma, n, {}) for n in ("MODEL_FOR_IMAGE_TEXT_TO_TEXT_MAPPING_NAMES",
                                            "MODEL_FOR_VIDEO_TEXT_TO_TEXT_MAPPING_NAMES",
                                            "MODEL_FOR_MULTIMODAL_LM_MAPPING_NAMES",
                                            "MODEL_FOR_CAUSAL_LM_MAPPING_NAMES",
                                            "MODEL_FOR_SEQ_TO_SEQ_CAUSAL_LM_MAPPING_NAMES")]
    out: dict[str, str] = {}
    for mapping in sources:
        for mt, cls in mapping.items():
            if mt in CONFIG_MAPPING_NAMES and mt not in out:
                out[mt] = cls if isinstance(cls, str) else cls[0]
    for mt in SWEEP_BASE_CLASS_TYPES:
        cls = ma.MODEL_MAPPING_NAMES[mt]
        out[mt] = cls if isinstance(cls, str) else cls[0]
    return dict(sorted(out.items()))


def _short(e: BaseException) -> str:
    msg = " ".join(str(e).split())
    return f"{type(e).__name__}: {msg[:240]}"


def _repair_defaults(d: dict) -> tuple[dict, list]:
    """Fill None values a default config leaves for the class to trip over (head_dim, KV heads...)."""
    d = json.loads(json.dumps(d))
    changed: list[str] = []

    def fix(node: dict, path: str):
        _, hidden = _first(node, WIDTH_KEYS)
        _, heads = _first(node, HEAD_KEYS)
        if _is_int(hidden) and _is_int(heads) and heads > 0:
            for k in HEAD_DIM_KEYS:
                if k in node and node[k] is None:
                    _set(node, k, hidden // heads, changed, path)
            for k in KV_KEYS:
                if k in node and node[k] is None:
                    _set(node, k, heads, changed, path)
        for k, v in _subconfigs(node):
            fix(v, f"{path}{k}.")

    fix(d, "")
    return d, changed


def _resize_candidates(start: dict, spec: dict, mt: str, limit: int = 40):
    """(groups, dropped groups) to try in turn: every applicable group, then one given up, then two,
    then the coarse chain. A group is applicable when it changes something on its own."""
    applicable = [g for g in RESIZE_GROUPS if resize_config_dict(start, spec, (g,), mt)[1]]
    order = [g for g in DROP_ORDER if g in applicable]
    cands = [tuple(applicable)]
    cands += [tuple(g for g in applicable if g != x) for x in order]
    cands += [tuple(g for g in applicable if g not in (x, y)) for i, x in enumerate(order) for y in order[i + 1:]]
    cands += [tuple(g for g in chain if g in applicable) for chain in RESIZE_CHAIN]
    seen = set()
    out = []
    for c in cands:
        if c and c not in seen and resize_config_dict(start, spec, c, mt)[1]:
            seen.add(c)
            out.append((c, [g for g in applicable if g not in c]))
    return out[:limit]


def sweep_type(mt: str, cls_name: str) -> tuple[list[dict], str | None]:
    """Variants of one model type, and a skip reason when none could be built."""
    from transformers.models.auto.configuration_auto import CONFIG_MAPPING

    variants: list[dict] = []
    errors: dict[str, str] = {}
    overrides = dict(SWEEP_TYPE_OVERRIDES.get(mt, {}))
    try:
        base = CONFIG_MAPPING[mt](**json.loads(json.dumps(overrides))).to_dict()
    except Exception as e:  # noqa: BLE001
        return [], "default config raises: " + _short(e)
    # towers a default config leaves out (vision_config=None...): build them with their defaults
    towers = {k: {} for k in getattr(CONFIG_MAPPING[mt], "sub_configs", {}) or {}
              if base.get(k, 0) is None and NONTEXT_SUBCONFIG.search(k) and k not in overrides}
    if towers:
        try:
            with_towers = CONFIG_MAPPING[mt](**json.loads(json.dumps({**overrides, **towers}))).to_dict()
            build_variant(mt, cls_name, with_towers)
            base, overrides = with_towers, {**overrides, **towers}
        except Exception:  # noqa: BLE001  (keep the default without them)
            pass
    base = _strip_versions(base)

    def record(name: str, cfg_dict: dict, resize: dict | None) -> bool:
        try:
            recorded, counts = build_variant(mt, cls_name, cfg_dict)
        except Exception as e:  # noqa: BLE001
            errors[name] = _short(e)
            return False
        v = {"model_type": mt, "variant": name, "class": cls_name, "config": recorded, "counts": counts}
        if resize is not None:
            v["resize"] = resize
        variants.append(v)
        return True

    ok_default = record("default", base, {"overrides": overrides} if overrides else None)
    start = base
    if not ok_default:
        repaired, fixed = _repair_defaults(base)
        if fixed and record("default_repaired", repaired, {"groups": ["repair"], "changed": fixed,
                                                           "default_error": errors["default"]}):
            start = repaired
    for vname, spec in RESIZE_SPECS.items():
        tried: list[str] = []
        for groups, dropped in _resize_candidates(start, spec, mt):
            cfg_dict, changed = resize_config_dict(start, spec, groups, mt)
            resize = {"groups": list(groups), "changed": changed, "dropped": dropped}
            if tried:
                resize["fallback_errors"] = tried[:3]
            if record(vname, cfg_dict, resize):
                break
            tried.append(f"{'+'.join(groups)}: {errors.pop(vname)}")
        else:
            if tried:
                errors[vname] = tried[0]
    if not variants:
        return [], errors.get("default", "no variant built")
    if errors:
        for v in variants:
            v.setdefault("errors", {}).update(errors)
    return variants, None


def sweep(out: Path, only: list[str] | None = None) -> int:
    import torch
    import transformers

    warnings.filterwarnings("ignore")
    transformers.logging.set_verbosity_error()
    types = sweep_types()
    if only:
        types = {k: v for k, v in types.items() if k in only}
    variants: list[dict] = []
    skipped: dict[str, str] = {}
    for mt, cls_name in types.items():
        if mt in SWEEP_NOT_SERVING:
            skipped[mt] = SWEEP_NOT_SERVING[mt]
            print(f"{mt:32s} skipped: {skipped[mt]}", flush=True)
            continue
        if getattr(transformers, cls_name, None) is None:
            skipped[mt] = f"{cls_name} not importable from transformers"
            continue
        t0 = time.time()
        try:
            vs, reason = sweep_type(mt, cls_name)
        except Exception as e:  # noqa: BLE001
            vs, reason = [], "sweep failed: " + _short(e)
        if reason and "TimmWrapperModel requires" in reason:
            reason = ("tower is a timm backbone (TimmWrapperModel): timm needs torchvision, whose PyPI wheel needs "
                      "CUDA torch libraries; only CPU torch is installed for the oracle")
        if reason:
            skipped[mt] = reason
            print(f"{mt:32s} skipped: {reason}", flush=True)
            continue
        variants.extend(vs)
        desc = ", ".join(f"{v['variant']}={v['counts']['language_model']:,d}+{v['counts']['vision']:,d}" for v in vs)
        print(f"{mt:32s} {cls_name:44s} {time.time() - t0:5.1f}s {desc}", flush=True)
    swept = sorted({v["model_type"] for v in variants})
    doc = {
        "command": SWEEP_COMMAND,
        "generated": datetime.date.today().isoformat(),
        "versions": {"transformers": transformers.__version__, "torch": torch.__version__,
                     "python": platform.python_version()},
        "patterns": SWEEP_PATTERNS,
        "resize_specs": RESIZE_SPECS,
        "model_types": swept,
        "variants": variants,
        "skipped": dict(sorted(skipped.items())),
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(_dump_sweep(doc))
    print(f"swept {len(swept)} model types ({len(variants)} variants); skipped {len(skipped)}; wrote {out}")
    return 0


def _dump_sweep(doc: dict) -> str:
    """Sorted keys; one variant per line so the file stays small and diffs stay local."""
    head = {k: v for k, v in doc.items() if k != "variants"}
    text = json.dumps(head, indent=1, sort_keys=True)
    lines = ",\n".join("  " + json.dumps(v, sort_keys=True, separators=(",", ":")) for v in doc["variants"])
    assert text.endswith("\n}")
    return text[:-2] + ',\n "variants": [\n' + lines + "\n ]\n}\n"


#: heads mode: the auto mapping per head kind, and the labels given to the config (len(id2label))
HEAD_MAPPINGS = {"ForSequenceClassification": ("MODEL_FOR_SEQUENCE_CLASSIFICATION_MAPPING_NAMES", 3),
                 "ForTokenClassification": ("MODEL_FOR_TOKEN_CLASSIFICATION_MAPPING_NAMES", 5),
                 "ForQuestionAnswering": ("MODEL_FOR_QUESTION_ANSWERING_MAPPING_NAMES", 2),
                 "Model": ("MODEL_MAPPING_NAMES", 0),
                 # an encoder-decoder's encoder on its own (T5EncoderModel: text encoders, sentence embeddings)
                 "EncoderModel": ("MODEL_FOR_TEXT_ENCODING_MAPPING_NAMES", 0),
                 # encoders' other heads (BERT's pre-training and NSP heads, ELECTRA's discriminator, SWAG-style
                 # multiple choice)
                 "ForPreTraining": ("MODEL_FOR_PRETRAINING_MAPPING_NAMES", 0),
                 "ForNextSentencePrediction": ("MODEL_FOR_NEXT_SENTENCE_PREDICTION_MAPPING_NAMES", 0),
                 "ForMultipleChoice": ("MODEL_FOR_MULTIPLE_CHOICE_MAPPING_NAMES", 0),
                 "ForMaskedLM": ("MODEL_FOR_MASKED_LM_MAPPING_NAMES", 0)}
HEADS_COMMAND = "python scripts/meta_oracle.py --heads tests/data/meta_oracle_sweep.json -o tests/data/meta_oracle_heads.json"


def heads(sweep_json: Path, out: Path, limit_s: int = 60) -> int:
    """Models shipped with another head than the lm_head: every text-only variant of the sweep (default and
    resized configs; decoders, encoders and encoder-decoders) rebuilt as the family's *ForSequenceClassification
    (3 labels), *ForTokenClassification (5), *ForQuestionAnswering, bare *Model and *EncoderModel (an
    encoder-decoder's encoder alone) where transformers maps one, on the meta device; ``total`` = every parameter
    (tied ones once)."""
    import torch
    import transformers
    from transformers.models.auto import modeling_auto
    from transformers.models.auto.configuration_auto import CONFIG_MAPPING

    doc = json.loads(sweep_json.read_text())
    cases = []
    for v in doc["variants"]:
        cfg_dict = v["config"]
        mt = cfg_dict.get("model_type")
        if mt not in CONFIG_MAPPING or any(isinstance(val, dict) and k.endswith("_config")
                                           for k, val in cfg_dict.items()):
            continue  # text-only models: a wrapper's heads sit on its text model, not modelled here
        for kind, (mapping, labels) in HEAD_MAPPINGS.items():
            cls_name = getattr(modeling_auto, mapping).get(mt)
            if not isinstance(cls_name, str) or not hasattr(transformers, cls_name) or cls_name == v["class"] or (
                    kind == "EncoderModel" and not cls_name.endswith("EncoderModel")):
                continue  # the sweep's own class is counted there; EncoderModel: encoder-decoders' encoders only
            data = json.loads(json.dumps(cfg_dict))
            data["architectures"] = [cls_name]
            if labels:
                data["id2label"] = {str(i): f"LABEL_{i}" for i in range(labels)}
                data["label2id"] = {f"LABEL_{i}": i for i in range(labels)}
            try:
                cfg = CONFIG_MAPPING[mt](**{k: val for k, val in data.items() if k != "transformers_version"})
                old = signal.signal(signal.SIGALRM, _alarm)
                signal.alarm(limit_s)
                try:
                    with torch.device("meta"):
                        model = getattr(transformers, cls_name)._from_config(cfg)
                finally:
                    signal.alarm(0)
                    signal.signal(signal.SIGALRM, old)
            except Exception as exc:  # noqa: BLE001 - an oracle records what it could not build
                print(f"{mt:28s} {cls_name:45s} skipped: {type(exc).__name__}", file=sys.stderr)
                continue
            total = sum(p.numel() for p in model.parameters())
            del model
            # the config is the sweep variant's with architectures = [class] and ``labels`` labels in id2label
            cases.append({"model_type": mt, "variant": v["variant"], "class": cls_name, "kind": kind,
                          "labels": labels, "total": total})
            print(f"{mt:28s} {v['variant']:12s} {cls_name:45s} {total:>16,d}")
    out.write_text(json.dumps({"command": HEADS_COMMAND, "generated": datetime.date.today().isoformat(),
                               "versions": {"transformers": transformers.__version__, "torch": torch.__version__,
                                            "python": platform.python_version()},
                               "cases": cases}, indent=1, sort_keys=True) + "\n")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus", type=Path, nargs="?", help="folder of <name>/config.json (corpus mode)")
    ap.add_argument("-o", "--out", type=Path, required=True)
    ap.add_argument("--sweep", action="store_true", help="sweep every text-generating transformers model type")
    ap.add_argument("--only", nargs="*", help="sweep only these model types (for debugging)")
    ap.add_argument("--heads", type=Path, metavar="SWEEP_JSON", help="rebuild a sweep's text-only variants "
                    "with their families' classification, QA and bare-model classes")
    args = ap.parse_args()
    if args.heads:
        return heads(args.heads, args.out)
    if args.sweep:
        return sweep(args.out, args.only)
    if args.corpus is None:
        ap.error("corpus is required unless --sweep is given")
    import torch
    import transformers

    results = {}
    for cfg in sorted(args.corpus.glob("*/config.json")):
        res = count(cfg)
        if res is not None:
            results[cfg.parent.name] = res
            print(f"{cfg.parent.name:45s} {res['class']:40s} {res['language_model']:>16,d} vision {res['vision']:,d}")
    doc = {
        "command": "python scripts/meta_oracle.py ../shared/corpus -o tests/data/meta_oracle.json",
        "generated": datetime.date.today().isoformat(),
        "versions": {"transformers": transformers.__version__, "torch": torch.__version__,
                     "python": platform.python_version()},
        "models": results,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
