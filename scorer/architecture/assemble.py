"""The short loop that turns a parsed ``config.json`` into a :class:`ModelArch`.

1. resolve the model: transformers' config class for a known ``model_type`` (defaults, aliases,
   derived per-layer fields), else the raw keys with the family guessed (each guess recorded);
2. read the model-wide dimensions through the alias reader;
3. build the layer stack: each layer's kind from the layout, its mixer from the
   :mod:`~scorer.architecture.kinds` registry, its FFN (dense or MoE);
4. towers and modules kept apart: vision, MTP;
5. account for the keys: whatever may change shapes and no reader consumed is listed in
   ``unmodelled_keys`` (:mod:`scorer.architecture.keys`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

from ..errors import ConfigError
from . import keys as keyrules
from .families import (ALIASES, ARCHITECTURE_HINTS, FAMILIES, REFUSED, REFUSED_CLASSES, VERIFIED, WRAPPER_MODULES,
                       family_flags)
from .kinds import FFN_ONLY_KINDS, LayerContext, read_mixer
from .kinds import classic, deepseek, encoders, gemma, hybrid
from .kinds import hybrids2
from .kinds.attention import is_mla
from .kinds import looped  # group: g6
from .kinds import inkling  # group: g2 (also registers the Inkling vision / audio towers)
from .kinds import g4  # group: qwen4_exp, glm5_next, dots3_note, cosmos3_edge
from .kinds import oddities  # group: blt, cpmant, prophetnet, reformer, rembert, t5gemma2
from .kinds import kolibri  # Kolibri 1.1 (registers its indexed attention)
from .kinds.ffn import dense_mlp, moe_mlp
from .kinds.mtp import mtp_module
from .kinds.nas import nas_layers
from .kinds.vision import read_tower
from .kinds.vision.audio import read_audio, read_top_tower, with_audio
from .layout import depth, falcon_kv, layer_kinds, moe_layers, norms_per_layer, per_layer_values
from .loader import with_transformers
from .quantization import parse_quantization
from .reader import LIMITS, Reader, _short, check_int
from .specs import (LAYOUT_NOT_MODELLED, AttentionSpec, DenseMLP, GatedDeltaNetSpec, LayerSpec, Mamba2Spec, MLASpec,
                    ModelArch, MoEMLP, ShortConvSpec, TaskHead)

#: where a multimodal wrapper keeps its language model's config (first present wins)
#: model_type -> the legacy name of its audio_config that its config class maps (configuration_nemotron_h_omni.py
#: _legacy_field_names: "sound_config" -> "audio_config")
LEGACY_AUDIO_KEYS = {"nemotron_h_omni": "sound_config"}

TEXT_CONFIG_KEYS = ("text_config", "llm_config", "language_config", "language_model_config",
                    "thinker_config.text_config")  # group: audio and omni: an omni model's thinker (dotted: nested)


def _sub_config(raw: dict[str, Any], key: str) -> Any:
    """``raw[key]``, following a dotted key into nested sub-configs (``thinker_config.text_config``)."""
    val: Any = raw
    for part in key.split("."):
        val = val.get(part) if isinstance(val, dict) else None
    return val


@dataclass(frozen=True)
class FamilyHook:
    """Family-specific steps around the generic decoder loop, for modules it does not know.

    ``per_layer(r, n_layers, kinds)`` runs before the loop and returns ``{layer index: overrides}``
    for the layer readers (``ctx.extra["per_layer"]``: ``head_dim``, ``num_kv_heads``, ``window``,
    ``kv_shared``, ``k_eq_v``). ``finish(r, layers, dims)`` runs after it and returns the layers
    (with their ``extra_params``, norms or FFNs completed) and the model-level ``extra_params``.
    Either may be None. Keys they read go through ``r`` like every other reader's.
    """

    per_layer: Callable[[Reader, int, list[str]], dict[int, dict[str, Any]]] | None = None
    finish: Callable[[Reader, list[LayerSpec], dict[str, Any]], tuple[list[LayerSpec], dict[str, int]]] | None = None


#: family (the text model's model_type) -> its hook
FAMILY_HOOKS: dict[str, FamilyHook] = {
    "gemma3n_text": FamilyHook(per_layer=gemma.gemma3n_per_layer, finish=gemma.gemma3n_finish),
    "gemma4_text": FamilyHook(per_layer=gemma.gemma4_per_layer, finish=gemma.gemma4_finish),
    "gemma4_unified_text": FamilyHook(per_layer=gemma.gemma4_per_layer, finish=gemma.gemma4_finish),
    "deepseek_v4": FamilyHook(finish=deepseek.v4_finish),
    "longcat_flash": FamilyHook(finish=deepseek.longcat_finish),
    "mistral_large4_text": FamilyHook(finish=deepseek.mistral_large4_finish),
    "doge": FamilyHook(finish=hybrid.doge_finish),
    "kolibri1_1": FamilyHook(per_layer=kolibri.kolibri_per_layer),
    # group: encoder-style causal LMs and seq2seq decoders
    "roformer": FamilyHook(finish=encoders.roformer_finish),
    "ernie": FamilyHook(finish=encoders.ernie_finish),
    "roc_bert": FamilyHook(finish=encoders.roc_bert_finish),
    "xmod": FamilyHook(finish=encoders.xmod_finish),
    # group: hybrids round 2 (kinds/hybrids2.py)
    "falcon_h1": FamilyHook(finish=hybrids2.falcon_h1_finish),
    "zamba": FamilyHook(finish=hybrids2.zamba_finish),
    "zamba2": FamilyHook(finish=hybrids2.zamba2_finish),
    "jetmoe": FamilyHook(finish=hybrids2.jetmoe_finish),
    "laguna": FamilyHook(finish=hybrids2.laguna_finish),
    "recurrent_gemma": FamilyHook(finish=hybrids2.recurrent_gemma_finish),
    "xlstm": FamilyHook(finish=hybrids2.xlstm_finish),
    # group: g6 (kinds/looped.py)
    "hrm_text": FamilyHook(finish=looped.hrm_text_finish),
    "dory": FamilyHook(finish=looped.dory_finish),
    "evolla": FamilyHook(finish=looped.evolla_finish),
    "idefics": FamilyHook(finish=looped.idefics_finish),
    # group: g2 (kinds/inkling.py)
    "inkling_text": FamilyHook(finish=inkling.inkling_finish),
    "inkling2_text": FamilyHook(finish=inkling.inkling2_finish),
    "inkling2_loop_text": FamilyHook(finish=inkling.inkling2_finish),
    "zaya": FamilyHook(finish=inkling.zaya_finish),
    "qwen4_exp_text": FamilyHook(finish=g4.qwen4_exp_finish),  # group: qwen4_exp ... (kinds/g4.py)
    "dots3_note_text": FamilyHook(finish=g4.dots3_note_finish),  # group: qwen4_exp ... (kinds/g4.py)
    "glm5_next_text": FamilyHook(finish=g4.glm5_next_finish),  # group: qwen4_exp ... (kinds/g4.py)
    # group: blt, cpmant, prophetnet, reformer, rembert, t5gemma2 (kinds/oddities.py)
    "reformer": FamilyHook(finish=oddities.reformer_finish),
    "rembert": FamilyHook(finish=oddities.rembert_finish),
    "blt": FamilyHook(finish=oddities.blt_finish),
}


def normalize(raw: dict[str, Any], quant_sidecar: dict[str, Any] | None = None) -> ModelArch:
    """Build the :class:`ModelArch` of a parsed ``config.json`` (cached on disk, see :mod:`scorer.cache`).

    Raises:
        ConfigError: missing, non-integer, non-positive, absurd, inconsistent or malformed values;
            a model type deploysheet refuses (:data:`~scorer.architecture.families.REFUSED`).
    """
    from .. import cache
    key = None
    try:
        key = cache.arch_key(raw, quant_sidecar)
    except (TypeError, ValueError, RecursionError):
        key = None
    if key is not None:
        hit = cache.load_arch(key)
        if hit is not None:
            try:
                return ModelArch.model_validate_json(hit)
            except ValueError:
                pass  # a corrupt entry: recompute
    try:
        _check_labels(raw)
        _check_objects(raw)
        arch = _normalize(raw, quant_sidecar)
        if key is not None:
            cache.store_arch(key, arch.model_dump_json())
        return arch
    except ConfigError:
        raise
    except (TypeError, ValueError, AttributeError, KeyError, IndexError, OverflowError, RecursionError) as exc:
        # a value of the wrong shape somewhere in the config: the config is bad input, not a bug of ours
        detail = " ".join(str(exc).split())[:120]
        raise ConfigError(f"config has a malformed value ({type(exc).__name__}: {detail})") from None


def _check_head_splits(where: str, layers: list[LayerSpec]) -> None:
    """Every layer's heads split as its forward needs (the layer's own shape, per-layer overrides included), or
    the model cannot run a token:

    * softmax attention: query heads a multiple of the key/value heads (transformers repeats each KV head
      num_heads // num_kv_heads times, ``repeat_kv``);
    * gated delta-net: value heads a multiple of the key heads (q and k are repeated num_v_heads // num_k_heads
      times: modeling_qwen3_next.py, modeling_olmo_hybrid.py);
    * Mamba2: heads x head_dim = the inner width, and the heads a multiple of the groups (Mamba2Mixer views the
      inner width as heads x head_dim and the gated norm as n_groups equal parts; B and C are repeated per group).

    Raises:
        ConfigError: naming the first layer whose heads do not split.
    """
    for lay in layers:
        m = lay.mixer
        if isinstance(m, AttentionSpec) and not m.kv_shared and (m.num_kv_heads > m.num_heads
                                                                 or m.num_heads % m.num_kv_heads):
            raise ConfigError(f"{where}: layer {lay.index} has {m.num_heads} attention heads, not a multiple of its "
                              f"{m.num_kv_heads} key/value heads")
        if isinstance(m, GatedDeltaNetSpec) and (m.num_k_heads > m.num_v_heads or m.num_v_heads % m.num_k_heads):
            raise ConfigError(f"{where}: layer {lay.index} has {m.num_v_heads} linear-attention value heads, not a "
                              f"multiple of its {m.num_k_heads} key heads")
        if isinstance(m, Mamba2Spec) and m.n_heads * m.head_dim != m.d_inner:
            raise ConfigError(f"{where}: layer {lay.index}: {m.n_heads} Mamba heads x head_dim {m.head_dim} = "
                              f"{m.n_heads * m.head_dim}, not the Mamba inner width {m.d_inner}")
        if isinstance(m, Mamba2Spec) and (m.n_groups > m.n_heads or m.n_heads % m.n_groups):
            raise ConfigError(f"{where}: layer {lay.index} has {m.n_heads} Mamba heads, not a multiple of its "
                              f"{m.n_groups} groups")


def _mlm_width(r: Reader, flags: dict[str, Any]) -> int | None:
    """The MLM head's own width (flag ``mlm_head_width_key``), None when it is the embedding width."""
    return r.int(flags["mlm_head_width_key"]) if flags["mlm_head_width_key"] else None


def _task_head(r: Reader, flags: dict[str, Any]) -> TaskHead:
    head = _task_head_of(r, flags)
    if head.mlm_head and r.cfg is not None:
        from .kinds.heads import source_near  # BertLMPredictionHead: self.bias beside decoder.bias
        pair = source_near(type(r.cfg).__module__,
                           r"^\s+self\.bias = nn\.Parameter\(torch\.zeros\(config\.vocab_size\)\)")
        head = head.model_copy(update={"bias_pair": pair})
    return head


def _task_head_of(r: Reader, flags: dict[str, Any]) -> TaskHead:
    listed = r.raw.get("architectures")
    arch = next((a for a in listed if isinstance(a, str)), "") if isinstance(listed, list) else ""
    if arch.endswith("ForSequenceClassification") or arch.endswith("ForTokenClassification"):
        from .kinds.heads import config_labels
        n = config_labels(r.raw)
        if arch.endswith("ForSequenceClassification"):  # BERT: pooler + classifier; BigBird: + a dense
            return TaskHead(pooler=True, dense=bool(flags["seqcls_dense"]), num_labels=n)
        return TaskHead(pooler=bool(flags["tokencls_pooler"]), num_labels=n)
    if arch.endswith("ForQuestionAnswering"):  # BertForQuestionAnswering: no pooler, qa_outputs h -> labels, a bias
        from .kinds.heads import qa_labels
        width = r.int("intermediate_size", required=False) or 4 * r.int("hidden_size") if flags["qa_block"] else 0
        return TaskHead(num_labels=qa_labels(r.raw, r.raw.get("model_type")), block_width=width)
    if arch.endswith("ForPreTraining"):
        if flags["pretraining_head"] == "discriminator":  # ElectraDiscriminatorPredictions: dense h -> h, h -> 1
            return TaskHead(dense=True, num_labels=1)
        # BertPreTrainingHeads: the MLM head and seq_relationship (h -> 2) on the pooler (RoCBert: no NSP)
        return TaskHead(pooler=True, mlm_head=True, num_labels=2 if flags["pretraining_head"] == "bert" else 0,
                        head_width=_mlm_width(r, flags))
    if arch.endswith("ForNextSentencePrediction"):  # BertOnlyNSPHead: h -> 2 on the pooler
        return TaskHead(pooler=True, num_labels=2)
    if arch.endswith("ForMultipleChoice"):  # a 1-output classifier on the pooler (ELECTRA: a SequenceSummary dense)
        return TaskHead(pooler=bool(flags["base_pooler"]), dense=bool(flags["mc_summary"]), num_labels=1)
    if arch.endswith("ForMaskedLM"):  # BigBirdForMaskedLM keeps the pooler (causal_lm_pooler: its LM classes do)
        return TaskHead(pooler=bool(flags["causal_lm_pooler"]), mlm_head=True, head_width=_mlm_width(r, flags))
    if arch.endswith("ForCausalLM") or arch.endswith("LMHeadModel") or arch == "BertGenerationDecoder":
        # an encoder stack used as a decoder (BertLMHeadModel, RobertaForCausalLM, ...): no pooler (BigBird keeps
        # it), the MLM-style head
        return TaskHead(pooler=bool(flags["causal_lm_pooler"]), mlm_head=True,
                        mlm_transform=flags["causal_lm_head"] == "mlm", head_width=_mlm_width(r, flags))
    return TaskHead(pooler=bool(flags["base_pooler"]))


def _resolve(raw: dict[str, Any]) -> dict[str, Any]:
    """Which config the language model is read from, through which class, as which family."""
    where = "config"
    model_type = raw.get("model_type")
    if model_type is not None and not isinstance(model_type, str):
        raise ConfigError(f"{where}: model_type must be a string, got {model_type!r}"[:200])
    if model_type in REFUSED:
        raise ConfigError(f"model_type {model_type!r} is not supported: {REFUSED[model_type]}")
    arch_list = raw.get("architectures")
    if arch_list is not None and (not isinstance(arch_list, list) or not all(isinstance(a, str) for a in arch_list)):
        raise ConfigError(f"{where}: architectures must be a list of class names (strings), got "
                          f"{_short(arch_list)}")
    archs = list(arch_list or [])
    if archs and archs[0] in REFUSED_CLASSES:
        raise ConfigError(f"architectures names {archs[0]}, which is not supported: {REFUSED_CLASSES[archs[0]]}")
    guesses: list[str] = []
    default_layout = False  # the keys are read as deploysheet's llama-like default layout (no family reader)

    # Multimodal wrappers: score the language model found in text_config (or top-level keys).
    text_raw = raw
    text_key = next((k for k in TEXT_CONFIG_KEYS if isinstance(_sub_config(raw, k), dict)), None)
    if isinstance(raw.get(oddities.TEXT_KEYS.get(model_type, "")), dict):
        text_key = oddities.TEXT_KEYS[model_type]  # T5Gemma2: the decoder generates the text
    if text_key is not None:
        text_raw = dict(_sub_config(raw, text_key))
        for key in ("tie_word_embeddings", "torch_dtype", "quantization_config"):
            if key in raw and key not in text_raw:
                text_raw[key] = raw[key]
        where = f"config.{text_key}"
        if text_raw.get("model_type") is not None and not isinstance(text_raw["model_type"], str):
            raise ConfigError(f"{where}: model_type must be a string, got {_short(text_raw['model_type'])}")

    cfg = None
    top = None
    config_class = None
    loaded = with_transformers(model_type, raw, lambda: _prevalidate(text_raw, where, sub_config=text_key is not None))
    if loaded is not None:
        top, cfg = loaded
        config_class = type(top).__name__
        family = getattr(cfg, "model_type", model_type) or model_type
        if cfg is not top and text_raw is raw:
            where = "config"
        name = next((a for a in archs if isinstance(a, str)), None)
        if name and not isinstance(raw.get("auto_map"), dict):
            from .kinds.heads import class_known
            if not class_known(model_type, name):  # a made-up or another family's class (LlamaForCausalLM on bert)
                shown = name if len(name) <= 80 else name[:77] + "..."
                guesses.append(f"architectures names {shown}, a class transformers does not define for model_type "
                               f"{model_type!r}: counted as the model its config describes (the engines choose "
                               "their implementation by this name)")
        if family not in FAMILIES and family not in VERIFIED and model_type not in VERIFIED:
            # transformers knows the type, deploysheet has no reader for its layout (ALBERT, MPNet, DeBERTa, ...): a
            # text encoder (a masked-LM class, no causal LM) is read as BERT-like, anything else as llama-like
            from .kinds.heads import mapped_types
            encoder = model_type in mapped_types("MODEL_FOR_MASKED_LM_MAPPING_NAMES") and \
                model_type not in mapped_types("MODEL_FOR_CAUSAL_LM_MAPPING_NAMES")
            layout = ("a BERT-like encoder (post-norm LayerNorm blocks with biases, learned positions and token "
                      "types)" if encoder else f"a llama-like decoder (pre-norm RMSNorm, {_guessed_mlp(text_raw, cfg)}, "
                      "biases where attention_bias / mlp_bias say)")
            guesses.append(f"{LAYOUT_NOT_MODELLED}transformers' model_type {model_type!r} ({type(top).__name__}): "
                           f"deploysheet has no reader for its layout; its keys are read as {layout}")
            if encoder:
                family = BERT_LIKE_FAMILY
            else:
                default_layout = True
    else:
        family = (text_raw.get("model_type") if isinstance(text_raw.get("model_type"), str) else None) or model_type
        hinted = next((ARCHITECTURE_HINTS[a] for a in archs if a in ARCHITECTURE_HINTS), None)
        if family not in FAMILIES:
            if hinted:
                guesses.append(f"model_type {model_type!r} is unknown to transformers; read as the {hinted} family "
                               f"because architectures names {archs[0]}")
                family = hinted
            else:
                guesses.append(f"model_type {model_type!r} is unknown to transformers and to deploysheet; read the raw "
                               f"keys as a llama-like decoder (pre-norm RMSNorm, {_guessed_mlp(text_raw)}, biases where "
                               "attention_bias / mlp_bias say)")
                family = family or "unknown"
                default_layout = True
        else:
            guesses.append(f"model_type {model_type!r} is unknown to this transformers version; read the raw keys "
                           f"with deploysheet's {family} layout")
    return {"model_type": model_type, "archs": archs, "guesses": guesses, "text_raw": text_raw, "where": where,
            "cfg": cfg, "config_class": config_class, "family": family, "text_key": text_key, "top": top,
            "default_layout": default_layout}


#: boolean keys that switch a config's MoE block on or off, read for a layout guessed from keys
MOE_SWITCHES = ("is_moe", "use_moe", "moe_enabled", "enable_moe")


def _guessed_mlp(text_raw: dict[str, Any], cfg: Any = None) -> str:
    """How a guessed llama-like layout reads the MLP (kinds.ffn.mlp_gated's ``by_activation``), for its guess:
    through the config class where transformers has one (its defaults: CLIPTextConfig's quick_gelu)."""
    from .kinds.ffn import NON_GATED_ACTIVATIONS, activation
    r = Reader(text_raw, cfg, "config")
    act = activation(r)
    proj = r.get("feed_forward_proj")
    if isinstance(proj, str):
        return f"{'gated' if proj.startswith('gated') else 'up/down'} MLP (feed_forward_proj {_short(proj)})"
    if act.strip().lower() in NON_GATED_ACTIVATIONS:
        return f"up/down MLP without a gate ({_short(act)} activation)"
    return "gated (SwiGLU-style) MLP"


#: the family a transformers text encoder without a reader is read as (families.FAMILIES: BERT's flags)
BERT_LIKE_FAMILY = "bert-like"


def _dims(r: Reader, family: str, flags: dict[str, Any], guesses: list[str]) -> dict[str, Any]:
    """Model-wide dimensions (elements): hidden, vocab, depth, heads, KV heads, head size, window, chunk."""
    where = r.where
    hidden = r.int("hidden_size")
    vocab = r.int("vocab_size")
    n_layers = len(r.raw["block_configs"]) if isinstance(r.raw.get("block_configs"), list) else depth(r)
    # an attention-free family (Mamba, RWKV, xLSTM) needs no attention heads: a stand-in of 1 (no layer reads it)
    heads = r.int("num_heads", required=not flags["attention_free"]) or 1
    mla = is_mla(r)
    head_dim_raw = r.get("head_dim") if not mla else None
    if head_dim_raw is not None:
        head_dim = check_int(head_dim_raw, r.key_name("head_dim"), where, limit=LIMITS["head_dim"])
    else:
        if hidden % heads and not mla and flags["head_dim_rule"] != "floor":
            raise ConfigError(f"{where}: hidden size {hidden} ({r.key_name('hidden_size')}) is not divisible by "
                              f"{heads} attention heads ({r.key_name('num_heads')}) and no head_dim is given")
        head_dim = max(1, hidden // heads)
    if mla:
        r.mark("head_dim", "qk_head_dim")  # MLA: the head size is qk_nope + qk_rope, read by the MLA reader
    kv = falcon_kv(r, heads) if family == "falcon" else classic.kv_heads(r, flags, heads)
    kv = r.int("num_kv_heads", default=heads, minimum=1) if kv is None else kv
    if mla:
        kv = heads  # the latent is shared; num_key_value_heads of MLA configs is a formality
    if kv > heads or heads % kv:
        kv_key = r.key_name("num_kv_heads")
        raise ConfigError(f"{where}: {heads} attention heads ({r.key_name('num_heads')}) are not a multiple of {kv} "
                          f"key/value heads ({kv_key}"
                          + (", absent from the config: the config class's default)" if kv_key not in r.raw else ")"))
    if r.get("head_dim") is None and not mla and r.cfg is None:
        guesses.append(f"head_dim not given: hidden/heads = {hidden}/{heads} = {head_dim}")
    sliding = r.get("sliding_window")
    if sliding == 0 and r.get("use_sliding_window") is False:
        sliding = None  # transformers' Qwen2MoeConfig serializes a disabled window as 0
    sliding = None if sliding is None or sliding is False else check_int(
        sliding, r.key_name("sliding_window"), where, limit=LIMITS["sliding_window"])
    if sliding is None or r.get("use_sliding_window") is False:
        r.mark("max_window_layers", "sliding_window")  # which layers would slide: no window, no effect
    chunk = r.get("chunk_size")
    chunk = None if chunk is None else check_int(chunk, "attention_chunk_size", where, limit=LIMITS["chunk_size"])
    return {"hidden": hidden, "vocab": vocab, "n_layers": n_layers, "heads": heads, "kv": kv, "head_dim": head_dim,
            "sliding": sliding, "chunk": chunk}


def block_extra_params(r: Reader, flags: dict[str, Any], hidden: int, mixer: Any, ffn: Any,
                       index: int | None = None) -> dict[str, int]:
    """The family's small per-block tensors (flag ``block_extra_params``: ``(component, factor, ...)``), e.g.
    DiffLlama's four ``lambda`` vectors of head_dim, a per-head output gate ``hidden x heads``.

    A factor is an int, a layer dimension (``hidden``, ``head_dim``, ``heads`` and ``kv_heads`` of an attention
    mixer, else 0; ``intermediate``: the dense MLP width, else 0; ``moe``: 1 on an MoE block, else 0) or
    ``"key:NAME"``: the config key's value (a bool as 1 / 0), read through the reader; ``"in:NAME"``: 1 when the
    block's ``index`` is in the list-valued key NAME, else 0 (Mllama cross_attention_layers)."""
    is_attn = isinstance(mixer, (AttentionSpec, MLASpec))
    dims = {"hidden": hidden, "head_dim": mixer.head_dim if is_attn else 0,
            "heads": mixer.num_heads if is_attn else 0, "kv_heads": mixer.num_kv_heads if is_attn else 0,
            "intermediate": ffn.intermediate if isinstance(ffn, DenseMLP) else 0, "moe": int(isinstance(ffn, MoEMLP))}
    out: dict[str, int] = {}
    for component, *factors in flags["block_extra_params"]:
        n = 1
        for f in factors:
            if isinstance(f, int):
                n *= f
            elif f.startswith("key:"):
                n *= int(r.get(f[4:]) or 0)
            elif f.startswith("in:"):
                listed = r.get(f[3:]) or ()
                n *= int(index is not None and isinstance(listed, (list, tuple)) and index in listed)
            else:
                n *= dims[f]
        if n:
            out[component] = out.get(component, 0) + n
    return out


#: the MoE keys a dense model's config may carry as its class's defaults (NemotronHConfig, Doge's is_moe false)
_MOE_KEYS = ("top_k", "expert_intermediate", "shared_intermediate", "num_shared_experts")


def _mark_unused_moe_keys(r: Reader) -> None:
    """Record the MoE dimension keys (every alias of :data:`_MOE_KEYS`) as read where the model has no MoE layer
    by its own switch or layer pattern: they size nothing, so they must not label the counts estimated."""
    r.mark(*(name for key in _MOE_KEYS for name in ALIASES.get(key, [key])))


def _decoder_stack(r: Reader, flags: dict[str, Any], d: dict[str, Any], family: str,
                   guesses: list[str]) -> list[LayerSpec]:
    """The decoder layers: each layer's kind, its mixer from the registry, its FFN."""
    where, hidden, n = r.where, d["hidden"], d["n_layers"]
    raw_experts = r.get("num_experts")
    if type(raw_experts) is int and raw_experts == 0 and flags["experts_required"]:
        # a family whose MoE layers are built whatever the count (Ergo's "sparse" layers: ErgoMoE's top-k of none)
        raise ConfigError(f"{where}: {r.key_name('num_experts')} = 0, but this family's MoE layers route every "
                          "token to experts (zero experts leave them no MLP)")
    if type(raw_experts) is int and raw_experts == 0:
        # zero experts: a dense model (GraniteMoeHybridDecoderLayer builds no MoE when num_local_experts == 0,
        # transformers 5.24.0 modeling_granitemoehybrid.py; Granite-4.0-H-Micro); its top-k routes nothing
        num_experts = None
        r.get("top_k")
    else:
        num_experts = r.int("num_experts", required=False)
    kinds = layer_kinds(r, n, flags, d["sliding"], d["chunk"])
    if r.cfg is not None and getattr(r.cfg, "layer_types", None) is not None:
        # the config class derived layer_types from these: consumed through it
        r.mark("max_window_layers", "use_sliding_window", "sliding_window_pattern", "full_attn_idxs",
               "full_attention_interval", "hybrid_override_pattern", "layers_block_type", "attn_layer_period",
               "attn_layer_offset", "attn_layer_indices", "global_attn_every_n_layers")
    if r.cfg is not None and getattr(r.cfg, "moe_layers", None) is not None:
        r.mark("interleave_moe_layer_step")  # the config class derived moe_layers from it
    if family == "nemotron_h" and "moe" not in kinds:
        # NemotronHConfig carries MoE defaults even for dense hybrids (its save_pretrained writes them): with no
        # "E" in the layer pattern they shape nothing (transformers 5.24.0 modeling_nemotron_h.py builds an MoE
        # block only for "moe" layers)
        num_experts = None
        _mark_unused_moe_keys(r)
    if flags["moe_switch"] and not r.get(flags["moe_switch"]):
        num_experts = None  # a dense model whose config carries MoE defaults (Doge: is_moe false)
        _mark_unused_moe_keys(r)  # read: they route and size nothing
    if flags.get("moe_by_hook"):
        num_experts = None  # the family's FamilyHook.finish builds the MoE block (Gemma 4: beside the dense MLP)
    dense_key = flags["dense_intermediate_key"]
    per_layer_i = per_layer_values(r, "intermediate_size", n)
    dense_i = (r.int(dense_key, required=False) if dense_key else None)
    if dense_i is None and per_layer_i is None:
        dense_i = r.int("intermediate_size", required=False)
    raw_r = Reader(r.raw, None, where)
    raw_r.nested = r.nested
    raw_r.key_aliases = r.key_aliases
    if flags["ffn"] and flags["intermediate_default"] is None and not r.sub_config_defaults \
            and raw_r.get("intermediate_size") is None \
            and raw_r.get("expert_intermediate") is None and (dense_key is None or r.raw.get(dense_key) is None) \
            and not any(t in ("linear_attention",) for t in (r.raw.get("layer_types") or [])):
        raise ConfigError(f"{where}: missing intermediate_size (the MLP width); transformers' library default "
                          "would be a guess")
    if dense_i is None and per_layer_i is None:
        # GPT2MLP (n_inner=None) and FalconMLP (ffn_hidden_size=None) use 4*hidden (flag intermediate_default)
        dense_i = classic.default_mlp_width(r, flags, hidden)
    moe_set = set(range(n)) if (flags["moe_every_layer"] and num_experts) else moe_layers(r, n, num_experts, kinds)
    if num_experts is not None and not moe_set and not flags.get("guessed_layout") and r.cfg is not None:
        # a MoE family's own rules build no MoE layer here (mlp_only_layers = every layer, first_k_dense_replace =
        # the depth, num_experts 0, moe_layers []): the MoE dimensions its config class writes size nothing. Not for
        # a dense family (no expert count read: MoE keys there may be a custom model's, left unmodelled) nor for a
        # layout guessed from keys, whose expert count may sit under a name the reader does not know
        _mark_unused_moe_keys(r)
        r.mark("first_k_dense_replace", "mlp_only_layers", "decoder_sparse_step", "moe_layer_start_index",
               "num_dense_layers")
    if moe_set and num_experts and r.get("top_k") is None:
        guesses.append("num_experts_per_tok absent: every routed expert counted as active (active = total)")
    block_per_layer = any(k in FFN_ONLY_KINDS for k in kinds)
    norms = norms_per_layer(r, flags)
    ctx = LayerContext(r=r, flags=flags, hidden=hidden, heads=d["heads"], kv=d["kv"], head_dim=d["head_dim"],
                       sliding=d["sliding"], chunk=d["chunk"], n_layers=n, extra={"guesses": guesses})
    hook = FAMILY_HOOKS.get(family)
    if hook is not None and hook.per_layer is not None:
        ctx.extra["per_layer"] = hook.per_layer(r, n, kinds)
    layers = []
    for i, t in enumerate(kinds):
        mixer = None if t in FFN_ONLY_KINDS else read_mixer(ctx, i, t)
        ffn: Any = None
        if not flags["ffn"]:
            pass  # mixer-only blocks (Mamba, Mamba2)
        elif not block_per_layer or t in FFN_ONLY_KINDS:
            if i in moe_set and num_experts:
                ffn = moe_mlp(r, flags, hidden, num_experts, dense_i or 0)
            else:
                width = per_layer_i[i] if per_layer_i is not None else dense_i
                if width is None:
                    raise ConfigError(f"{where}: missing intermediate_size (dense MLP width)")
                ffn = dense_mlp(r, flags, width)
        layers.append(LayerSpec(index=i, mixer=mixer, ffn=ffn, num_norms=norms,
                                extra_params=block_extra_params(r, flags, hidden, mixer, ffn, index=i)))
    if not any(isinstance(lay.mixer, AttentionSpec) for lay in layers):
        # no softmax-attention layer (all-Mamba Bamba, Mamba2): the attention bias keys shape nothing
        r.mark(*(k for k in (flags["qkv_bias"], flags["o_bias"]) if isinstance(k, str)))
    if not any(isinstance(lay.mixer, ShortConvSpec) for lay in layers):
        r.mark("conv_L_cache", "conv_bias")  # no short-convolution layer (an all-attention LFM2): they shape nothing
    for kind, keys in flags["kind_keys"].items():
        if kind not in kinds:
            r.mark(*keys)  # keys only layers of that kind read (family flag kind_keys)
    return layers


def _encoder_decoder_stacks(r: Reader, flags: dict[str, Any], d: dict[str, Any]
                            ) -> tuple[list[LayerSpec], list[LayerSpec]]:
    """T5-style: the encoder's self-attention blocks and the decoder's self + cross attention blocks."""
    heads, head_dim, hidden = d["heads"], d["head_dim"], d["hidden"]
    n_dec = r.int("num_decoder_layers", default=d["n_layers"])
    buckets = r.int("relative_attention_num_buckets", default=32)
    r.mark("relative_attention_max_distance", "n_positions")  # relative positions: no position table
    mlp = dense_mlp(r, flags, r.int("intermediate_size", required=False) or 4 * hidden)
    encoder, decoder = [], []
    every = bool(flags["relative_bias_every_layer"])
    # LongT5 transient-global encoder attention: a second relative bias table (global_relative_attention_bias) in
    # the first block and a global_input_layer_norm in every block (LongT5TransientGlobalAttention)
    tglobal = bool(flags["transient_global"]) and r.get("encoder_attention_type") == "transient-global"
    r.mark("encoder_attention_type", "global_block_size", "local_radius")  # block sizes: no shape
    for i in range(d["n_layers"]):
        att = AttentionSpec(num_heads=heads, num_kv_heads=heads, head_dim=head_dim, v_head_dim=head_dim,
                            relative_bias_buckets=(buckets if i == 0 or every else 0) * (2 if tglobal and i == 0
                                                                                        else 1))
        encoder.append(LayerSpec(index=i, mixer=att, ffn=mlp, num_norms=3 if tglobal else 2))
    for i in range(n_dec):
        att = AttentionSpec(num_heads=heads, num_kv_heads=heads, head_dim=head_dim, v_head_dim=head_dim,
                            relative_bias_buckets=buckets if i == 0 or every else 0)
        cross = AttentionSpec(num_heads=heads, num_kv_heads=heads, head_dim=head_dim, v_head_dim=head_dim)
        decoder.append(LayerSpec(index=i, mixer=att, cross_attention=cross, ffn=mlp, num_norms=3))
    return encoder, decoder


_FLOAT_TAGS = {"Infinity": float("inf"), "-Infinity": float("-inf"), "NaN": float("nan")}


def decode_special_floats(obj: Any) -> Any:
    """transformers (5.x) writes non-finite floats into config.json as ``{"__float__": "Infinity"}``
    (``PreTrainedConfig._encode_special_floats``) and decodes them when it reads the file; so do we.

    Iterative (an explicit stack, new containers, the input untouched): a hostile file may nest lists
    hundreds deep, which a recursive walk would turn into a RecursionError."""
    holder = [obj]
    stack: list[tuple[Any, Any]] = [(holder, 0)]
    while stack:
        parent, key = stack.pop()
        val = parent[key]
        if isinstance(val, dict):
            if len(val) == 1 and isinstance(val.get("__float__"), str) and val["__float__"] in _FLOAT_TAGS:
                parent[key] = _FLOAT_TAGS[val["__float__"]]
                continue
            new: Any = dict(val)
            stack.extend((new, k) for k in new)
        elif isinstance(val, list):
            new = list(val)
            stack.extend((new, i) for i in range(len(new)))
        else:
            continue
        parent[key] = new
    return holder[0]


def _seq2seq_encoder(r: Reader, flags: dict[str, Any], d: dict[str, Any]) -> tuple[list[LayerSpec], dict[str, int]]:
    """The encoder of a BART-style seq2seq model (any class but *ForCausalLM): encoder_layers blocks of
    self-attention (encoder_attention_heads) and an fc1/fc2 MLP (encoder_ffn_dim), two norms each; its own
    position table and embedding norm (model-level extra parameters; the final norms are counted per stack by
    params); the token embedding is shared."""
    hidden = d["hidden"]
    heads = r.int("encoder_attention_heads")
    if hidden % heads:
        raise ConfigError(f"{r.where}: d_model {hidden} is not divisible by encoder_attention_heads {heads}")
    att = AttentionSpec(num_heads=heads, num_kv_heads=heads, head_dim=hidden // heads, v_head_dim=hidden // heads,
                        qkv_bias=r.flag(flags["qkv_bias"]), o_bias=r.flag(flags["o_bias"]))
    mlp = dense_mlp(r, flags, r.int("encoder_ffn_dim"))
    layers = [LayerSpec(index=i, mixer=att, ffn=mlp, num_norms=2) for i in range(r.int("encoder_layers"))]
    norm_w = hidden * (2 if flags["norm"] == "layernorm" else 1)
    positions = (r.int("max_positions") + int(flags["position_offset"])) * hidden if flags["learned_positions"] else 0
    if r.get("share_encoder_decoder_embeddings") is False:  # Marian: the encoder's own vocab_size table
        positions += r.raw_get("vocab_size", r.int("vocab_size")) * hidden
    return layers, {"embedding": positions, "norms": norm_w if flags["embedding_norm"] else 0}


#: dtype names a config may state (transformers / torch spellings) -> the canonical torch name
_DTYPE_NAMES = {"bfloat16": "bfloat16", "bf16": "bfloat16", "float16": "float16", "fp16": "float16",
                "half": "float16", "float32": "float32", "fp32": "float32", "float": "float32",
                "float64": "float64", "double": "float64"}


def _dtype_name(value: Any) -> str | None:
    """The canonical name of a config's dtype value; None for none, a non-string or a name torch does not use."""
    if type(value).__name__ == "dtype":  # a torch.dtype, where transformers converted the string (torch installed)
        value = str(value)
    if not isinstance(value, str):
        return None
    key = value.strip().lower()
    return _DTYPE_NAMES.get(key[6:] if key.startswith("torch.") else key)


def _config_dtype(raw: dict[str, Any], text_dtype: Any, vision_cfg: Any) -> str | None:
    """The checkpoint dtype an engine reads, in vLLM 0.33.0's order (vllm/transformers_utils/
    model_arch_config_convertor.py ``get_torch_dtype``): the top-level config's, then the text config's, then the
    vision config's. ``dtype`` (transformers 5) before ``torch_dtype``; a value that names no dtype counts as
    none stated."""
    vision = vision_cfg if isinstance(vision_cfg, dict) else {}
    for value in (raw.get("dtype"), raw.get("torch_dtype"), text_dtype, vision.get("dtype"), vision.get("torch_dtype")):
        name = _dtype_name(value)
        if name is not None:
            return name
    return None


def _unnamed_dtype(raw: dict[str, Any], text_dtype: Any, vision_cfg: Any) -> str | None:
    """The first dtype string the config states that names no dtype (``"bfloat61"``), or None."""
    vision = vision_cfg if isinstance(vision_cfg, dict) else {}
    for value in (raw.get("dtype"), raw.get("torch_dtype"), text_dtype, vision.get("dtype"), vision.get("torch_dtype")):
        if isinstance(value, str) and value.strip() and _dtype_name(value) is None:
            return value
    return None


#: the rope types vLLM 0.33.0 builds: model_executor/layers/rotary_embedding/__init__.py get_rope's branches, and
#: the legacy names transformers_utils/config.py patch_rope_parameters maps onto them ("su" -> longrope, "mrope" ->
#: default)
ROPE_TYPES = frozenset({"default", "bailing_mrope", "proportional", "llama3", "mllama4", "linear", "ntk", "dynamic",
                        "yarn", "deepseek_yarn", "deepseek_llama_scaling", "longrope", "openpangu", "su", "mrope",
                        "telechat3-yarn"})
#: vLLM 0.33.0 transformers_utils/config.py patch_rope_parameters / patch_legacy_rope_type: legacy names it rewrites
#: before get_rope reads them
ROPE_LEGACY = {"su": "longrope", "mrope": "default", "telechat3-yarn": "yarn"}


def _normalize(raw: dict[str, Any], quant_sidecar: dict[str, Any] | None) -> ModelArch:
    raw = decode_special_floats(raw)
    src = _resolve(raw)
    model_type, archs, guesses, text_raw, where, cfg, family = (
        src["model_type"], src["archs"], src["guesses"], src["text_raw"], src["where"], src["cfg"], src["family"])
    r = Reader(text_raw, cfg, where)
    r.family_keys_only = True  # the generic alias table reads no key the family's class ignores (family_reads)
    r.sub_config_defaults = cfg is not None and src["text_key"] is not None and cfg is not src["top"]
    flags = family_flags(family)
    if not flags["never_tied"] and cfg is not None:
        from .kinds.heads import ties_nothing
        # the language-model class declares no tied weights (NemotronHForCausalLM: _tied_weights_keys = {}):
        # read from transformers' modeling source, not kept per family
        top_cls = src["top"] if src["top"] is not None else cfg
        flags["never_tied"] = ties_nothing(type(top_cls).__module__, archs, type(cfg).__module__)
    if src["default_layout"]:  # no reader knows the family's MLP: its activation says whether it is gated
        flags["guessed_layout"] = True
        flags["mlp_gated"] = "by_activation"
        # a switch that turns the MoE off (Doge's is_moe false) leaves the experts its other keys describe unbuilt
        flags["moe_switch"] = next((k for k in MOE_SWITCHES if isinstance(text_raw.get(k), bool)), None)
        if flags["moe_switch"] and text_raw.get(flags["moe_switch"]) is False:
            guesses.append(f"{flags['moe_switch']} is false: the experts its other keys describe are not built")
    r.nested = tuple(flags["nested_configs"])
    r.key_aliases = {k: list(v) for k, v in flags["key_aliases"].items()}
    r.mark(*flags["neutral_keys"])
    mtp_note = None
    if flags["mtp_not_built"]:
        count_key, others, why = flags["mtp_not_built"]
        n = r.raw_get(count_key)
        r.mark(*(k for k in others if k in text_raw))
        if isinstance(n, int) and not isinstance(n, bool) and n > 0 and text_raw.get("use_mtp", True) is not False:
            layers = text_raw.get("num_hidden_layers")
            mtp_note = (f"{n} MTP module(s) ({count_key}) are not counted: "
                        + why.replace("{L}", str(layers) if isinstance(layers, int) else "num_hidden_layers"))
    for key, same_as in flags["agreeing_keys"].items():
        val = text_raw.get(key)
        if val is None:
            continue
        if isinstance(same_as, tuple) and len(same_as) == 3 and same_as[0] == "times":  # a multiple of a key
            base = r.get(same_as[1])
            want = base * same_as[2] if isinstance(base, int) and not isinstance(base, bool) else None
        elif isinstance(same_as, tuple) and len(same_as) == 2 and same_as[0] == "layer_types":  # a per-layer code
            types = r.get("layer_types")
            want = [same_as[1].get(t) for t in types] if isinstance(types, list) else None
            if val == want:
                r.mark(key)
            continue
        else:
            want = r.get_any(same_as) if isinstance(same_as, str) else same_as[0]
        if val == want or isinstance(val, list) and val and all(v == want for v in val):
            r.mark(key)
    for switch, off in flags["off_keys"]:
        if not r.get_any(switch):
            r.mark(switch, *off)
    kind = flags["kind"]
    if kind == "encoder-decoder" or raw.get("is_encoder_decoder") is True and kind == "decoder":
        kind = "encoder-decoder"
    if flags["seq2seq"] and src["top"] is not None:
        # the whole config, read through the family's decoder_* / encoder_* keys (get_text_config(decoder=True)
        # renames the decoder's keys and leaves the library defaults under the old names)
        r.cfg = src["top"]
    if flags["seq2seq"]:  # *ForCausalLM: the decoder alone; any other class: encoder and decoder
        kind = "decoder" if any(a.endswith("ForCausalLM") for a in archs) else "encoder-decoder"
        if kind == "decoder":  # no encoder is built
            r.mark("encoder_layers", "encoder_attention_heads", "encoder_ffn_dim", "share_encoder_decoder_embeddings",
                   "vocab_size")  # Marian's decoder reads decoder_vocab_size when given
            r.mark(*(n for k in ("encoder_layers", "encoder_attention_heads") for n in r.key_aliases.get(k, ())))
    d = _dims(r, family, flags, guesses)
    hidden = d["hidden"]

    encoder_layers: list[LayerSpec] = []
    model_extra: dict[str, int] = {}  # family-specific model-level modules (FamilyHook.finish)
    if isinstance(text_raw.get("block_configs"), list):
        layers = nas_layers(r, flags, hidden, d["heads"], d["head_dim"])
        r.mark("num_hidden_layers")  # the block list is the depth
    elif kind == "encoder-decoder" and not flags["seq2seq"] and model_type not in oddities.ENCODER_READERS:
        encoder_layers, layers = _encoder_decoder_stacks(r, flags, d)
    else:
        layers = _decoder_stack(r, flags, d, family, guesses)
        hook = FAMILY_HOOKS.get(family)
        if hook is not None and hook.finish is not None:
            layers, model_extra = hook.finish(r, layers, d)
        if flags["seq2seq"] and r.flag(flags["cross_attention"], default=True):
            # each decoder block: self-attention, cross-attention of the same shape, MLP
            layers = [lay.model_copy(update={"cross_attention": lay.mixer}) for lay in layers]
        elif flags["seq2seq"]:  # no cross-attention: no cross-attention norm either (ProphetNetDecoderLayer)
            layers = [lay.model_copy(update={"num_norms": lay.num_norms - 1}) for lay in layers]
        if flags["seq2seq"]:
            if kind == "encoder-decoder":
                encoder_layers, model_extra = _seq2seq_encoder(r, flags, d)
    norm = classic.norm_kind(r, flags)  # a LayerNorm without bias (MPT) counts as weight only
    final_norm = r.flag(flags["final_norm"])  # a constant or a key (OPT do_layer_norm_before)
    layers, classic_extra = classic.finish(r, flags, layers, hidden, norm)
    _check_head_splits(r.where, layers + encoder_layers)
    if flags["linear_attention"] == "mamba2" and not flags["attention_free"] and layers \
            and not any(getattr(lay.mixer, "kind", None) == "mamba" for lay in layers):
        # a hybrid family configured all-attention (Granite-4.0-Micro): its Mamba keys shape no layer
        r.mark(*(k for k in text_raw if isinstance(k, str) and k.startswith("mamba_")))
    classic_extra = dict(classic_extra)
    for component, n in block_extra_params(r, {"block_extra_params": flags["model_extra_params"]}, hidden, None,
                                           None).items():  # the family's model-level tensors (XLNet mask_emb)
        classic_extra[component] = classic_extra.get(component, 0) + n
    model_extra = {**model_extra, **{k: model_extra.get(k, 0) + v for k, v in classic_extra.items()}}
    wrapper_r = Reader(raw, src["top"], "config")  # a wrapper's own modules around its text model (WRAPPER_MODULES)
    enc_consumed: tuple[set[str], set[str]] | None = None  # T5Gemma2: the encoder's own sub-config (kinds/oddities)
    if model_type in oddities.ENCODER_READERS and text_raw is not raw:
        encoder_layers, enc_extra, *consumed = oddities.ENCODER_READERS[model_type](raw, src["top"], d, flags)
        enc_consumed = (consumed[0], consumed[1])
        wrapper_r.mark("vocab_size")  # T5Gemma2Config copies the decoder's; the lm_head reads decoder.vocab_size
        r.mark("max_position_embeddings")  # rotary positions: no table
        model_extra = {**model_extra, **{k: model_extra.get(k, 0) + v for k, v in enc_extra.items()}}
    if model_type in WRAPPER_MODULES and text_raw is not raw:
        model_extra = dict(model_extra)
        for component, n in block_extra_params(wrapper_r, {"block_extra_params": WRAPPER_MODULES[model_type]},
                                               hidden, None, None).items():
            model_extra[component] = model_extra.get(component, 0) + n

    tie = r.get("tie_word_embeddings")
    if cfg is not None and isinstance(raw.get("tie_word_embeddings"), bool):
        tie = raw["tie_word_embeddings"]
    parent = _sub_config(raw, src["text_key"].rsplit(".", 1)[0]) if "." in (src["text_key"] or "") else None
    # an omni thinker's lm_head follows thinker_config's tie_word_embeddings (transformers ties each module by its
    # own config: Qwen2_5OmniThinkerForConditionalGeneration._tied_weights_keys), whatever the top level says
    nested_tie = None
    if isinstance(parent, dict) and isinstance(parent.get("tie_word_embeddings"), bool):
        nested_tie = parent["tie_word_embeddings"]
    elif isinstance(parent, dict) and src["top"] is not None:
        pobj = src["top"]  # the file leaves it to the thinker config's class default (Qwen3OmniMoeThinkerConfig)
        for part in src["text_key"].rsplit(".", 1)[0].split("."):
            pobj = getattr(pobj, part, None)
        if isinstance(getattr(pobj, "tie_word_embeddings", None), bool):
            nested_tie = pobj.tie_word_embeddings
    if nested_tie is not None:
        tie = nested_tie
    text_sub = _sub_config(raw, src["text_key"]) if src["text_key"] else None
    text_tie = text_sub.get("tie_word_embeddings") if isinstance(text_sub, dict) else None
    # transformers ties each PreTrainedModel module by its own config (modeling_utils get_expanded_tied_weights_keys):
    # the text config decides where the language model is its own *ForCausalLM holding lm_head (Llama 4,
    # InstructBLIP), the top level where the wrapper holds it (Gemma 3n); the modeling source says which
    holder_cfg = None
    if nested_tie is None and isinstance(text_sub, dict) and src["top"] is not None and src["top"] is not cfg:
        from .kinds.heads import lm_head_holder
        holder_cfg = lm_head_holder(type(src["top"]).__module__, archs)
    if holder_cfg == "text" and isinstance(text_tie, bool):
        tie = text_tie
    if nested_tie is None and isinstance(text_tie, bool) and isinstance(raw.get("tie_word_embeddings"), bool) \
            and text_tie != raw["tie_word_embeddings"] and not flags["never_tied"] and holder_cfg is None:
        guesses.append(f"tie_word_embeddings: the top level gives {raw['tie_word_embeddings']}, "
                       f"{src['text_key']} gives {text_tie}; lm_head counted {'tied' if tie else 'untied'} as the top "
                       "level says (transformers ties by the config of the module holding lm_head, which the modeling "
                       "source does not show); the checkpoint's "
                       f"tensors decide ({d['vocab'] * hidden:,} parameters)")
    if tie is None and not flags["never_tied"]:  # a class that ties nothing needs no tie (below)
        tie = bool(flags["tied_default"])
        guesses.append(f"tie_word_embeddings absent: assumed {tie}")
    if flags["seq2seq"] and kind == "decoder" and not flags["causal_lm_tied"]:
        tie = False
    if flags["tie_true_note"] and tie:  # BLT: what transformers ties is not the lm_head to the embedding
        guesses.append(f"tie_word_embeddings is true: {flags['tie_true_note']}")
    if flags["never_tied"]:  # group: blt, cpmant, ...: the class ties nothing (CpmAntForCausalLM)
        tie = False
    if flags["tie_shares_blocks"] and tie is False:
        guesses.append(f"tie_word_embeddings is false: transformers then ties nothing, so its {flags['tie_shares_blocks']} "
                       "get a copy per layer (modeling_utils get_expanded_tied_weights_keys); counted shared, as the "
                       "engines build them and the published checkpoints store them")
    head_rows = r.int(flags["lm_head_rows_key"], required=False) if flags["lm_head_rows_key"] else None
    if head_rows is not None and head_rows > d["vocab"]:
        raise ConfigError(f"{r.key_name(flags['lm_head_rows_key'])} {head_rows} exceeds vocab_size {d['vocab']}")
    if head_rows == d["vocab"]:
        head_rows = None  # the full-width head (the config class's canonical None)
    if head_rows is not None and tie:  # tying replaces the pruned head's weight by the whole embedding table
        guesses.append(f"tie_word_embeddings is true with a pruned lm_head ({flags['lm_head_rows_key']} {head_rows} < "
                       f"vocab_size {d['vocab']}): counted as the tied embedding table of vocab_size rows (tying "
                       "assigns the table to lm_head.weight); released checkpoints keep the pruned head untied")
        head_rows = None
    top_obj = src["top"]
    top_tie = getattr(top_obj, "tie_word_embeddings", None) if top_obj is not None and top_obj is not cfg else None
    if isinstance(top_tie, bool) and top_tie != bool(tie) and not flags["seq2seq"] and not flags["never_tied"] \
            and holder_cfg != "text":  # a language model tied by its own config departs from nothing
        # the count departs from transformers': a composite config whose top level leaves the tie to its class
        # default while the text config gives another (Mistral-Small-3.x, InternVL3.5-HF: the text model untied,
        # the wrapper's default True). transformers ties by the module holding lm_head and its own config
        # (modeling_utils get_expanded_tied_weights_keys), the engines build the language model from the text
        # config, and loading a checkpoint that stores both tensors unties them: counted as the engines build
        # it, labelled a guess, the checkpoint decides
        if src["text_key"] is None:  # one config: transformers' class overrides the file (T5Config ties always)
            guesses.append(f"tie_word_embeddings: config.json gives {bool(tie)}, transformers' "
                           f"{type(top_obj).__name__} sets {top_tie} (it ties lm_head by it); lm_head counted "
                           f"{'tied' if tie else 'untied'} as the file says and published checkpoints of this kind "
                           f"store it; the checkpoint's tensors decide ({d['vocab'] * hidden:,} parameters)")
        else:
            guesses.append(f"tie_word_embeddings: the language model's config gives {bool(tie)}, the top-level "
                           f"{type(top_obj).__name__} defaults to {top_tie} (transformers ties lm_head by it); "
                           f"lm_head counted {'tied' if tie else 'untied'} (as the engines build the language "
                           f"model); the checkpoint's tensors decide ({d['vocab'] * hidden:,} parameters)")

    lm_head_bias = r.flag(flags["lm_head_bias"])  # a constant or a config key (phimoe: lm_head_bias)
    mtp = mtp_module(r, layers, hidden, d["vocab"], flags)
    if mtp is not None and flags.get("mtp_default_layers") and r.get_any("mtp_layers") is None and not mtp_note:
        mtp_note = (f"the config states no MTP depth: {mtp.num_layers} MTP layer(s) like the last decoder layer "
                    "assumed, as the engines build them (vLLM 0.33.0 model_executor/models/qwen3_next_mtp.py: "
                    "getattr(config, 'num_nextn_predict_layers', 1); SGLang 0.5.23 models/qwen3_next_mtp.py); the "
                    "checkpoint's mtp.* tensors are assumed present")

    vision = None
    vision_note = None
    holder, holder_obj, vprefix = raw, src["top"], ""  # where vision_config and the projector's keys are
    if model_type in oddities.TOWER_HOLDERS and isinstance(raw.get(oddities.TOWER_HOLDERS[model_type]), dict):
        vprefix = oddities.TOWER_HOLDERS[model_type]  # T5Gemma2: under encoder
        holder, holder_obj, vprefix = raw[vprefix], getattr(src["top"], vprefix, None), vprefix + "."
    vision_cfg = holder.get("vision_config") if isinstance(holder.get("vision_config"), dict) else None
    vision_consumed: set[str] = set()
    vision_top_consumed: set[str] = set()  # top-level keys the projector read
    if vision_cfg:
        top_obj = holder_obj
        vision = read_tower(model_type, family, vision_cfg, getattr(top_obj, "vision_config", None), holder, top_obj,
                            hidden, vision_consumed, vision_top_consumed)
        if vision is None:
            vision_note = "vision_config present; its parameter count is not derived for this family"
    elif any("ConditionalGeneration" in a or "VL" in a for a in archs) and isinstance(raw.get("text_config"), dict):
        vision_note = "multimodal model whose vision_config is absent from config.json: tower not counted"
    vision_read = vision is not None  # group: audio and omni: the audio tower joins params.vision (kinds/vision/audio.py)
    audio_key = "audio_config"  # a released checkpoint's legacy name (NemotronH Omni's sound_config), its class maps
    if not isinstance(raw.get(audio_key), dict) and isinstance(raw.get(LEGACY_AUDIO_KEYS.get(model_type or "")), dict):
        audio_key = LEGACY_AUDIO_KEYS[model_type or ""]
    audio_cfg = raw.get(audio_key) if isinstance(raw.get(audio_key), dict) else None
    audio_consumed: set[str] = set()
    audio = None
    if audio_cfg:
        audio = read_audio(model_type, family, audio_cfg, getattr(src["top"], "audio_config", None), raw, src["top"],
                           hidden, audio_consumed, vision_top_consumed)
        if audio is not None:
            vision = with_audio(vision, audio)
            if not vision_cfg:
                vision_note = None  # an audio-input model: its tower is the audio tower, counted
    if vision is None and not vision_cfg:  # a tower described by top-level keys (Fuyu's patch projection)
        vision = read_top_tower(model_type, raw, src["top"], hidden, vision_top_consumed)

    learned_pos = r.int("max_positions") + int(flags["position_offset"]) if flags["learned_positions"] else 0
    embedding_size = r.int(flags["embedding_size_key"]) if flags["embedding_size_key"] else None
    token_types = r.int("type_vocab_size", default=2, minimum=0) if flags["token_types"] else 0  # DeBERTa: 0
    if flags["learned_positions"] and family == "gpt2":
        r.mark("n_ctx")  # GPT-2: n_ctx is n_positions under its old name

    dtype = _config_dtype(raw, r.get("dtype"), vision_cfg)
    bad_dtype = _unnamed_dtype(raw, r.get("dtype"), vision_cfg) if dtype is None else None
    if bad_dtype is not None:
        guesses.append(f"dtype {_short(bad_dtype)} names no dtype torch has: read as not stated (the model is "
                       "taken to run in bf16, vLLM's preferred dtype)")
    rope = r.get("rope_scaling") or r.get("rope_parameters")
    rope_type = None
    if isinstance(rope, dict):
        rope_type = rope.get("rope_type") or rope.get("type")
        if rope_type is not None and not isinstance(rope_type, str):
            raise ConfigError(f"{where}: rope_scaling / rope_parameters rope_type must be a string, got "
                              f"{_short(rope_type)}")
        unknown = sorted({t for rp in ([v for v in rope.values() if isinstance(v, dict)]
                                       if rope and all(isinstance(v, dict) for v in rope.values()) else [rope])
                          if isinstance(t := rp.get("rope_type") or rp.get("type"), str) and t not in ROPE_TYPES})
        if unknown:
            guesses.append(f"rope_type {', '.join(map(repr, unknown))} is not a RoPE type vLLM 0.33.0 builds "
                           "(model_executor/layers/rotary_embedding/__init__.py get_rope raises 'Unknown RoPE scaling "
                           "type'): the context limit reads max_position_embeddings unscaled")
    max_positions = r.int("max_positions", required=False) if kind != "encoder-decoder" \
        and r.get("max_positions") != -1 else None  # -1: no position limit (XLNetConfig's relative positions)
    if kind == "encoder-decoder" and model_type in oddities.ENCODER_READERS:  # T5Gemma2: its own wrapper
        task_head = None
        name = next((a for a in archs if isinstance(a, str)), "")
        if name and not name.endswith(("ForConditionalGeneration", "ForCausalLM")):
            guesses.append(f"{name}: its head is not modelled; counted as the generating model (lm_head included)")
    elif kind == "encoder-decoder":  # a classification / QA head, the bare model, or the encoder alone
        from .kinds.heads import encoder_decoder_head
        task_head, encoder_only = encoder_decoder_head(raw, archs, model_type)
        if encoder_only and not flags["seq2seq"] and encoder_layers:  # T5EncoderModel: shared table, encoder stack
            kind, layers, encoder_layers = "encoder", encoder_layers, []
            r.mark("num_decoder_layers")
    elif kind == "encoder":
        task_head = _task_head(r, flags)
    else:  # a decoder stack shipped with another head (reward, classifier, embedding model), else None
        from .kinds.heads import decoder_head
        task_head = decoder_head(raw, archs, model_type, guesses)
        if task_head is not None and task_head.num_labels:
            r.mark("token_classification_bias")
    if kind == "encoder":
        r.mark("type_vocab_size", "pooler_fc_size", "pooler_num_attention_heads", "pooler_num_fc_layers",
               "pooler_size_per_head", "pooler_type")

    # every key: consumed, irrelevant, or unmodelled
    if text_raw is not raw and cfg is not None:
        from .kinds.vision.towers import TEXT_KEYS_IGNORED_BY_WRAPPER, TEXT_KEYS_SET_BY_WRAPPER
        r.mark(*(k for k in TEXT_KEYS_SET_BY_WRAPPER.get(model_type, ())
                 if text_raw.get(k) is not None and text_raw.get(k) == getattr(cfg, k, None)))
        r.mark(*TEXT_KEYS_IGNORED_BY_WRAPPER.get(model_type, ()))
    top_consumed = set(r.consumed) if text_raw is raw else set(wrapper_r.consumed)
    if text_raw is not raw:  # flat copies of the language model's keys beside its nested config (a re-saved
        # wrapper, a legacy top-level vocab_size): equal to the nested values, they shape nothing those do not
        top_consumed |= {k for k, v in raw.items() if isinstance(k, str) and k in text_raw
                         and not isinstance(v, dict) and v == text_raw[k]}
    nested_unmodelled: list[str] = []
    if vision_read:
        top_consumed.add("vision_config")
    if vision is not None:
        top_consumed |= vision_top_consumed
    if audio is not None:
        top_consumed.add(audio_key)
    for sub in r.nested + tuple(family_flags(family)["keyed_configs"]):  # read key by key (DBRX): their keys too
        if isinstance(text_raw.get(sub), dict) and text_raw is raw:
            top_consumed.add(sub)
            inner = {k.split(".", 1)[1] for k in r.consumed if k.startswith(sub + ".")}
            nested_unmodelled += keyrules.unmodelled(text_raw[sub], inner, f"{sub}.")
    unmodelled = keyrules.unmodelled(raw, top_consumed) + nested_unmodelled
    top_obj = src["top"]
    if src["text_key"] is None and cfg is not None and top_obj is not None and cfg is not top_obj:
        # a composite type written without text_config (a legacy layout, e.g. the original LLaVA repo's flat keys):
        # transformers builds the language model from the text config class's defaults and leaves the top-level
        # keys unread; where they name other dimensions the model is not the one the file describes
        core = {n for key in ("hidden_size", "num_layers", "num_heads", "num_kv_heads", "vocab_size",
                              "intermediate_size", "head_dim") for n in ALIASES.get(key, [key])}
        # the core dimensions only: a wrapper that builds its text config from the flat keys (Qwen2.5-VL) derives
        # some others (sliding_window None where use_sliding_window is false)
        off = [k for k, v in raw.items() if k in core and isinstance(v, int) and not isinstance(v, bool)
               and hasattr(cfg, k) and getattr(cfg, k, None) != v]
        if off:
            unmodelled += [k for k in off if k not in unmodelled]
            guesses.append(f"config has no text_config: transformers builds the language model from "
                           f"{type(cfg).__name__}'s defaults, which the top-level "
                           + ", ".join(f"{k} {raw[k]!r} (default {getattr(cfg, k)!r})" for k in off[:4])
                           + (", ..." if len(off) > 4 else "") + " contradict; counted as transformers builds it")
    if text_raw is not raw:
        key = src["text_key"]
        unmodelled += keyrules.unmodelled(_sub_config(raw, key), r.consumed, f"{key}.")
        unmodelled = [k for k in unmodelled if k != key]
    if vision_read and vision_cfg:
        unmodelled += keyrules.unmodelled(vision_cfg, vision_consumed, vprefix + "vision_config.")
    if enc_consumed is not None:  # the encoder sub-config's keys (vision_config's are above)
        enc_key = oddities.TOWER_HOLDERS.get(model_type, "encoder")
        enc_raw = raw.get(enc_key) if isinstance(raw.get(enc_key), dict) else {}
        unmodelled = [k for k in unmodelled if k != enc_key]
        unmodelled += keyrules.unmodelled(enc_raw, enc_consumed[0] | vision_top_consumed, f"{enc_key}.")
        if isinstance(enc_raw.get("text_config"), dict):
            unmodelled += keyrules.unmodelled(enc_raw["text_config"], enc_consumed[1], f"{enc_key}.text_config.")
    if audio is not None and audio_cfg:
        unmodelled += keyrules.unmodelled(audio_cfg, audio_consumed, f"{audio_key}.")

    return ModelArch(
        model_type=model_type or "unknown", family=family, architectures=archs, config_class=src["config_class"],
        text_model_type=(str(text_raw.get("model_type") or getattr(cfg, "model_type", "") or "") or None)
        if text_raw is not raw else None,
        guesses=guesses, unmodelled_keys=unmodelled,
        structure_verified=cfg is not None and (model_type in VERIFIED),
        kind=kind, hidden_size=hidden, vocab_size=d["vocab"], max_positions=max_positions,
        tie_word_embeddings=bool(tie), norm=norm, final_norm=final_norm,
        embedding_norm=bool(flags["embedding_norm"]), learned_positions=learned_pos, token_types=token_types,
        embedding_size=embedding_size if embedding_size != hidden else None,
        input_embedding=model_extra.pop("input_embedding", None),  # a hook's own token table (BLT)
        lm_head_bias=lm_head_bias, lm_head_rows=head_rows, layers=layers, encoder_layers=encoder_layers,
        task_head=task_head, mtp=mtp, vision=vision, vision_note=vision_note, mtp_note=mtp_note,
        # compressed-tensors' older key where quantization_config is absent (vLLM 0.33.0 transformers_utils/
        # model_arch_config_convertor.py _normalize_quantization_config; SGLang 0.5.23 configs/model_config.py)
        quantization=parse_quantization(raw.get("quantization_config") if raw.get("quantization_config") is not None
                                        else raw.get("compression_config"), quant_sidecar),
        custom_code=isinstance(raw.get("auto_map"), dict),
        auto_map=raw.get("auto_map") if isinstance(raw.get("auto_map"), dict) else {},
        dtype=dtype,
        ssm_state_fp32=text_raw.get("mamba_ssm_cache_dtype") in ("float32", "fp32")
        or raw.get("mamba_ssm_cache_dtype") in ("float32", "fp32"), rope=rope_type, extra_params=model_extra,
        context_factor=_checked_factor(rope, model_type, str(text_raw.get("model_type") or "") or None,
                                       max_positions),
        ssm_dtype_keys={k: v for k in ("mamba_ssm_cache_dtype", "mamba_ssm_dtype")
                        if isinstance(v := text_raw.get(k, raw.get(k)), str)})


#: rope types whose factor vLLM does not apply to max_position_embeddings (already scaled, or an original length)
ROPE_UNSCALED = ("su", "longrope", "llama3", "yarn", "deepseek_yarn", "deepseek_llama_scaling")


def _checked_factor(rope, model_type: str | None, text_model_type: str | None, max_positions: int | None) -> float:
    """:func:`rope_context_factor`, refused (ConfigError) where the context it derives exceeds the reader's limit
    on max_position_embeddings (a finite factor of 1e300 would overflow vLLM's int(max_model_len) as infinity
    does)."""
    from .reader import LIMITS
    factor = rope_context_factor(rope, model_type, text_model_type)
    if max_positions and max_positions * factor > LIMITS["max_positions"]:
        raise ConfigError(f"config: max_position_embeddings {max_positions:,} x RoPE factor {factor:g} is an absurd "
                          f"context (at most {LIMITS['max_positions']:,} tokens)")
    return factor


def rope_context_factor(rope, model_type: str | None, text_model_type: str | None = None) -> float:
    """The factor vLLM 0.33.0 multiplies max_position_embeddings by to derive max_model_len (vllm/config/model.py
    _get_and_verify_max_len): the ``factor`` of each rope parameter set (one per layer type where nested, as
    transformers_utils/config.py iter_rope_parameters reads them) whose rope_type is not one of
    :data:`ROPE_UNSCALED` (nor a type vLLM does not build, :data:`ROPE_TYPES`), the last one winning; 1 for
    Gemma 3 (its length is already scaled), for a missing, null or non-positive factor, and without rope scaling. Raises ConfigError for an infinite factor (vLLM's
    int(max_position_embeddings x factor) would overflow: no engine serves it)."""
    if not isinstance(rope, dict) or not rope or any("gemma3" in (t or "") for t in (model_type, text_model_type)):
        return 1.0
    nested = all(isinstance(v, dict) for v in rope.values())
    factor = 1.0
    for rp in ([v for v in rope.values() if v] if nested else [rope]):
        kind = rp.get("rope_type") or rp.get("type") or "default"
        kind = ROPE_LEGACY.get(kind, kind) if isinstance(kind, str) else kind
        f = rp.get("factor")
        if kind not in ROPE_UNSCALED and kind in ROPE_TYPES and isinstance(f, (int, float)) \
                and not isinstance(f, bool) and f > 0:
            if not math.isfinite(f):
                raise ConfigError(f"config: rope factor {f} is not finite (rope_type {kind!r})")
            factor = float(f)
    return factor


#: keys whose value transformers and the engines read as an object (or null): another JSON type is bad input, not
#: something to pass over (a quantization_config list would be sized as an unquantized checkpoint)
OBJECT_KEYS = ("quantization_config", "compression_config", "auto_map", "text_config", "vision_config", "audio_config", "rope_scaling",
               "rope_parameters", "id2label", "label2id")


def _check_objects(raw: dict[str, Any]) -> None:
    """Each of OBJECT_KEYS is an object or null at the top level and in text_config. Raises ConfigError."""
    for where, node in (("config", raw), ("config.text_config", raw.get("text_config"))):
        if not isinstance(node, dict):
            continue
        for key in OBJECT_KEYS:
            val = node.get(key)
            if val is not None and not isinstance(val, dict):
                raise ConfigError(f"{where}: {key} must be an object, got {type(val).__name__}")


#: the most classification labels a config may declare (transformers builds an id2label entry per label: a
#: num_labels of 10**8 would take minutes and gigabytes before any shape is read)
MAX_LABELS = 1 << 20


def _check_labels(raw: dict[str, Any], where: str = "config", depth: int = 0) -> None:
    """``num_labels`` / ``id2label`` of the config and its sub-configs, before transformers builds them: an
    integer 0..MAX_LABELS, an object. Raises ConfigError."""
    if not isinstance(raw, dict) or depth > 3:
        return
    n = raw.get("num_labels")
    if n is not None and (isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAX_LABELS):
        raise ConfigError(f"{where}: num_labels must be an integer from 0 to {MAX_LABELS:,}, got {_short(n)}")
    for key in ("id2label", "label2id"):
        v = raw.get(key)
        if v is not None and not isinstance(v, dict):
            raise ConfigError(f"{where}: {key} must be an object (label index -> name), got {_short(v)}")
        if isinstance(v, dict) and len(v) > MAX_LABELS:
            raise ConfigError(f"{where}: {key} has {len(v):,} labels (at most {MAX_LABELS:,})")
    for k, v in raw.items():
        if isinstance(v, dict) and k not in ("id2label", "label2id", "quantization_config", "compression_config",
                                             "auto_map"):
            _check_labels(v, f"{where}.{k}", depth + 1)


def _prevalidate(text_raw: dict[str, Any], where: str, sub_config: bool = False) -> None:
    """Check the obvious dimensions on the raw keys first, so errors name the file's own key.

    ``sub_config``: ``text_raw`` is a composite config's ``text_config``, which transformers is about to build:
    its file leaves out every value equal to the sub-config class's default (``recursive_diff_dict``; Gemma 3's
    vision-language checkpoints carry no ``text_config.vocab_size``), so an absent core dimension is that default
    (what transformers and the engines load), and only the values present are checked."""
    r = Reader(text_raw, None, where)
    r.key_aliases = dict(family_flags(str(text_raw.get("model_type") or ""))["key_aliases"])
    r.nested = tuple(family_flags(str(text_raw.get("model_type") or ""))["nested_configs"])  # BLT decoder_config
    for key in ("hidden_size", "num_layers", "num_heads", "vocab_size") if not sub_config else ():
        # transformers would silently fill library defaults (e.g. hidden_size 4096): a top-level config without
        # its core dimensions is broken, not a default model (save_pretrained writes every model-specific key)
        if key == "num_heads" and family_flags(str(text_raw.get("model_type") or ""))["attention_free"]:
            continue  # Mamba, RWKV, xLSTM: no attention heads
        if r.get(key) is None and not (key == "num_layers" and (
                isinstance(text_raw.get("block_configs"), list)
                or any(isinstance(text_raw.get(k), (list, str)) and text_raw.get(k)
                       for k in ("layer_types", "layers_block_type", "hybrid_override_pattern")))):
            raise ConfigError(f"{where}: missing {ALIASES[key][0]} (the {key.replace('_', ' ')}; also read as "
                              f"{', '.join(ALIASES[key][1:4])})")
    for key in ("hidden_size", "num_layers", "num_heads", "vocab_size", "num_kv_heads", "head_dim",
                "intermediate_size", "num_experts", "top_k", "expert_intermediate"):
        if key == "head_dim" and text_raw.get("kv_lora_rank"):
            continue  # MLA: head_dim is not read as the head size (GLM-5-Next: the RoPE width, 0 for NoPE)
        for name in ALIASES.get(key, [key]):
            if name in text_raw and text_raw[name] is not None:
                val = text_raw[name]
                # per-layer widths (gemma-3n); per-modality expert groups (flag expert_groups, Ernie 4.5 VL)
                if isinstance(val, list) and key in ("intermediate_size", "expert_intermediate", "top_k"):
                    for i, v in enumerate(val):
                        check_int(v, f"{name}[{i}]", where, limit=LIMITS.get(key))
                else:  # zero experts: a dense model (see _decoder_stack)
                    check_int(val, name, where, minimum=0 if key in ("num_experts", "top_k") else 1,
                              limit=LIMITS.get(key))
                break
    hidden, heads = r.get("hidden_size"), r.get("num_heads")
    if isinstance(hidden, int) and isinstance(heads, int) and r.get("head_dim") is None and heads and hidden % heads \
            and not r.get("kv_lora_rank") \
            and family_flags(str(text_raw.get("model_type") or ""))["head_dim_rule"] != "floor":
        raise ConfigError(f"{where}: hidden size {hidden} ({r.key_name('hidden_size')}) is not divisible by {heads} "
                          f"attention heads ({r.key_name('num_heads')}) and no head_dim is given")
