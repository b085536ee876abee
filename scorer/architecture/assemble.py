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

from typing import Any

from ..errors import ConfigError
from . import keys as keyrules
from .families import (ALIASES, ARCHITECTURE_HINTS, FAMILIES, REFUSED, VERIFIED, family_flags)
from .kinds import FFN_ONLY_KINDS, LayerContext, read_mixer
from .kinds.ffn import dense_mlp, moe_mlp
from .kinds.mtp import mtp_module
from .kinds.nas import nas_layers
from .kinds.vision import TOWERS
from .layout import depth, falcon_kv, layer_kinds, moe_layers, norms_per_layer, per_layer_values
from .loader import with_transformers
from .quantization import parse_quantization
from .reader import LIMITS, Reader, check_int
from .specs import AttentionSpec, LayerSpec, ModelArch, TaskHead


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


def _task_head(r: Reader, flags: dict[str, Any]) -> TaskHead:
    arch = (r.raw.get("architectures") or [""])[0] or ""
    if arch.endswith("ForSequenceClassification") or arch.endswith("ForTokenClassification"):
        labels = r.raw.get("id2label")
        n = len(labels) if isinstance(labels, dict) and labels else int(r.raw.get("num_labels") or 2)
        return TaskHead(pooler=arch.endswith("ForSequenceClassification"), num_labels=n)
    if arch.endswith("ForMaskedLM") or arch.endswith("ForPreTraining"):
        return TaskHead(mlm_head=True)
    return TaskHead(pooler=bool(flags["base_pooler"]))


def _resolve(raw: dict[str, Any]) -> dict[str, Any]:
    """Which config the language model is read from, through which class, as which family."""
    where = "config"
    model_type = raw.get("model_type")
    if model_type is not None and not isinstance(model_type, str):
        raise ConfigError(f"{where}: model_type must be a string, got {model_type!r}"[:200])
    if model_type in REFUSED:
        raise ConfigError(f"model_type {model_type!r} is not supported: {REFUSED[model_type]}")
    archs = [a for a in (raw.get("architectures") or []) if isinstance(a, str)]
    guesses: list[str] = []

    # Multimodal wrappers: score the language model found in text_config (or top-level keys).
    text_raw = raw
    if isinstance(raw.get("text_config"), dict):
        text_raw = dict(raw["text_config"])
        for key in ("tie_word_embeddings", "torch_dtype", "quantization_config"):
            if key in raw and key not in text_raw:
                text_raw[key] = raw[key]
        where = "config.text_config"

    cfg = None
    config_class = None
    loaded = with_transformers(model_type, raw, lambda: _prevalidate(text_raw, where))
    if loaded is not None:
        top, cfg = loaded
        config_class = type(top).__name__
        family = getattr(cfg, "model_type", model_type) or model_type
        if cfg is not top and text_raw is raw:
            where = "config"
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
                               "keys as a llama-like decoder (pre-norm RMSNorm, SwiGLU MLP, no biases)")
                family = family or "unknown"
        else:
            guesses.append(f"model_type {model_type!r} is unknown to this transformers version; read the raw keys "
                           f"with deploysheet's {family} layout")
    return {"model_type": model_type, "archs": archs, "guesses": guesses, "text_raw": text_raw, "where": where,
            "cfg": cfg, "config_class": config_class, "family": family}


def _dims(r: Reader, family: str, flags: dict[str, Any], guesses: list[str]) -> dict[str, Any]:
    """Model-wide dimensions (elements): hidden, vocab, depth, heads, KV heads, head size, window, chunk."""
    where = r.where
    hidden = r.int("hidden_size")
    vocab = r.int("vocab_size")
    n_layers = len(r.raw["block_configs"]) if isinstance(r.raw.get("block_configs"), list) else depth(r)
    heads = r.int("num_heads")
    mla = bool(r.get("kv_lora_rank"))
    head_dim_raw = r.get("head_dim") if not mla else None
    if head_dim_raw is not None:
        head_dim = check_int(head_dim_raw, r.key_name("head_dim"), where, limit=LIMITS["head_dim"])
    else:
        if hidden % heads and not mla:
            raise ConfigError(f"{where}: hidden size {hidden} is not divisible by {heads} attention heads and "
                              "no head_dim is given")
        head_dim = max(1, hidden // heads)
    if mla:
        r.mark("head_dim", "qk_head_dim")  # MLA: the head size is qk_nope + qk_rope, read by the MLA reader
    kv = falcon_kv(r, heads) if family == "falcon" else r.int("num_kv_heads", default=heads, minimum=1)
    if mla:
        kv = heads  # the latent is shared; num_key_value_heads of MLA configs is a formality
    if kv > heads or heads % kv:
        raise ConfigError(f"{where}: {heads} attention heads are not a multiple of {kv} key/value heads")
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


def _decoder_stack(r: Reader, flags: dict[str, Any], d: dict[str, Any], family: str) -> list[LayerSpec]:
    """The decoder layers: each layer's kind, its mixer from the registry, its FFN."""
    where, hidden, n = r.where, d["hidden"], d["n_layers"]
    num_experts = r.int("num_experts", required=False)
    kinds = layer_kinds(r, n, flags, d["sliding"], d["chunk"])
    if r.cfg is not None and getattr(r.cfg, "layer_types", None) is not None:
        # the config class derived layer_types from these: consumed through it
        r.mark("max_window_layers", "use_sliding_window", "sliding_window_pattern", "full_attn_idxs",
               "full_attention_interval", "hybrid_override_pattern", "layers_block_type")
    if r.cfg is not None and getattr(r.cfg, "moe_layers", None) is not None:
        r.mark("interleave_moe_layer_step")  # the config class derived moe_layers from it
    if family == "nemotron_h" and "moe" not in kinds:
        num_experts = None  # NemotronHConfig carries MoE defaults even for dense hybrids
    dense_key = flags["dense_intermediate_key"]
    per_layer_i = per_layer_values(r, "intermediate_size", n)
    dense_i = (r.int(dense_key, required=False) if dense_key else None)
    if dense_i is None and per_layer_i is None:
        dense_i = r.int("intermediate_size", required=False)
    raw_r = Reader(r.raw, None, where)
    if family not in ("gpt2", "falcon") and raw_r.get("intermediate_size") is None \
            and raw_r.get("expert_intermediate") is None and (dense_key is None or r.raw.get(dense_key) is None) \
            and not any(t in ("linear_attention",) for t in (r.raw.get("layer_types") or [])):
        raise ConfigError(f"{where}: missing intermediate_size (the MLP width); transformers' library default "
                          "would be a guess")
    if dense_i is None and per_layer_i is None and family in ("gpt2", "falcon"):
        dense_i = 4 * hidden  # GPT2MLP (n_inner=None) and FalconMLP (ffn_hidden_size=None) use 4*hidden
    moe_set = moe_layers(r, n, num_experts, kinds)
    block_per_layer = any(k in FFN_ONLY_KINDS for k in kinds)
    norms = norms_per_layer(r, flags)
    ctx = LayerContext(r=r, flags=flags, hidden=hidden, heads=d["heads"], kv=d["kv"], head_dim=d["head_dim"],
                       sliding=d["sliding"], chunk=d["chunk"], n_layers=n)
    layers = []
    for i, t in enumerate(kinds):
        mixer = None if t in FFN_ONLY_KINDS else read_mixer(ctx, i, t)
        ffn: Any = None
        if not block_per_layer or t in FFN_ONLY_KINDS:
            if i in moe_set and num_experts:
                ffn = moe_mlp(r, flags, hidden, num_experts, dense_i or 0)
            else:
                width = per_layer_i[i] if per_layer_i is not None else dense_i
                if width is None:
                    raise ConfigError(f"{where}: missing intermediate_size (dense MLP width)")
                ffn = dense_mlp(r, flags, width)
        layers.append(LayerSpec(index=i, mixer=mixer, ffn=ffn, num_norms=norms))
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
    for i in range(d["n_layers"]):
        att = AttentionSpec(num_heads=heads, num_kv_heads=heads, head_dim=head_dim, v_head_dim=head_dim,
                            relative_bias_buckets=buckets if i == 0 else 0)
        encoder.append(LayerSpec(index=i, mixer=att, ffn=mlp, num_norms=2))
    for i in range(n_dec):
        att = AttentionSpec(num_heads=heads, num_kv_heads=heads, head_dim=head_dim, v_head_dim=head_dim,
                            relative_bias_buckets=buckets if i == 0 else 0)
        cross = AttentionSpec(num_heads=heads, num_kv_heads=heads, head_dim=head_dim, v_head_dim=head_dim)
        decoder.append(LayerSpec(index=i, mixer=att, cross_attention=cross, ffn=mlp, num_norms=3))
    return encoder, decoder


def _normalize(raw: dict[str, Any], quant_sidecar: dict[str, Any] | None) -> ModelArch:
    src = _resolve(raw)
    model_type, archs, guesses, text_raw, where, cfg, family = (
        src["model_type"], src["archs"], src["guesses"], src["text_raw"], src["where"], src["cfg"], src["family"])
    r = Reader(text_raw, cfg, where)
    flags = family_flags(family)
    r.mark(*flags["neutral_keys"])
    kind = flags["kind"]
    if kind == "encoder-decoder" or raw.get("is_encoder_decoder") is True and kind == "decoder":
        kind = "encoder-decoder"
    d = _dims(r, family, flags, guesses)
    hidden = d["hidden"]

    encoder_layers: list[LayerSpec] = []
    if isinstance(text_raw.get("block_configs"), list):
        layers = nas_layers(r, flags, hidden, d["heads"], d["head_dim"])
        r.mark("num_hidden_layers")  # the block list is the depth
    elif kind == "encoder-decoder":
        encoder_layers, layers = _encoder_decoder_stacks(r, flags, d)
    else:
        layers = _decoder_stack(r, flags, d, family)

    tie = r.get("tie_word_embeddings")
    if cfg is not None and isinstance(raw.get("tie_word_embeddings"), bool):
        tie = raw["tie_word_embeddings"]
    if tie is None:
        tie = bool(flags["tied_default"])
        guesses.append(f"tie_word_embeddings absent: assumed {tie}")

    mtp = mtp_module(r, layers, hidden)

    vision = None
    vision_note = None
    vision_cfg = raw.get("vision_config") if isinstance(raw.get("vision_config"), dict) else None
    vision_consumed: set[str] = set()
    tower = TOWERS.get(family) or TOWERS.get(model_type or "")
    if tower is not None and vision_cfg:
        vision = tower(vision_cfg, hidden, where, vision_consumed)
    elif vision_cfg:
        vision_note = "vision_config present; its parameter count is not derived for this family"
    elif any("ConditionalGeneration" in a or "VL" in a for a in archs) and isinstance(raw.get("text_config"), dict):
        vision_note = "multimodal model whose vision_config is absent from config.json: tower not counted"

    learned_pos = r.int("max_positions") if flags["learned_positions"] else 0
    token_types = r.int("type_vocab_size", default=2) if flags["token_types"] else 0
    if flags["learned_positions"] and family == "gpt2":
        r.mark("n_ctx")  # GPT-2: n_ctx is n_positions under its old name

    dtype = r.get("dtype")
    rope = r.get("rope_scaling") or r.get("rope_parameters")
    rope_type = None
    if isinstance(rope, dict):
        rope_type = rope.get("rope_type") or rope.get("type")
    max_positions = r.int("max_positions", required=False) if kind != "encoder-decoder" else None
    task_head = _task_head(r, flags) if kind == "encoder" else None
    if kind == "encoder":
        r.mark("type_vocab_size", "pooler_fc_size", "pooler_num_attention_heads", "pooler_num_fc_layers",
               "pooler_size_per_head", "pooler_type")

    # every key: consumed, irrelevant, or unmodelled
    top_consumed = set(r.consumed) if text_raw is raw else set()
    if vision is not None:
        top_consumed.add("vision_config")
    unmodelled = keyrules.unmodelled(raw, top_consumed)
    if text_raw is not raw:
        unmodelled += keyrules.unmodelled(raw["text_config"], r.consumed, "text_config.")
        unmodelled = [k for k in unmodelled if k != "text_config"]
    if vision is not None and vision_cfg:
        unmodelled += keyrules.unmodelled(vision_cfg, vision_consumed, "vision_config.")

    return ModelArch(
        model_type=model_type or "unknown", family=family, architectures=archs, config_class=src["config_class"],
        guesses=guesses, unmodelled_keys=unmodelled,
        structure_verified=cfg is not None and (model_type in VERIFIED),
        kind=kind, hidden_size=hidden, vocab_size=d["vocab"], max_positions=max_positions,
        tie_word_embeddings=bool(tie), norm=flags["norm"], final_norm=bool(flags["final_norm"]),
        embedding_norm=bool(flags["embedding_norm"]), learned_positions=learned_pos, token_types=token_types,
        lm_head_bias=bool(flags["lm_head_bias"]), layers=layers, encoder_layers=encoder_layers,
        task_head=task_head, mtp=mtp, vision=vision, vision_note=vision_note,
        quantization=parse_quantization(raw.get("quantization_config"), quant_sidecar),
        custom_code=isinstance(raw.get("auto_map"), dict),
        auto_map=raw.get("auto_map") if isinstance(raw.get("auto_map"), dict) else {},
        dtype=str(dtype).replace("torch.", "") if dtype else None,
        ssm_state_fp32=text_raw.get("mamba_ssm_cache_dtype") in ("float32", "fp32")
        or raw.get("mamba_ssm_cache_dtype") in ("float32", "fp32"), rope=rope_type)


def _prevalidate(text_raw: dict[str, Any], where: str) -> None:
    """Check the obvious dimensions on the raw keys first, so errors name the file's own key."""
    r = Reader(text_raw, None, where)
    for key in ("hidden_size", "num_layers", "num_heads", "vocab_size"):
        # transformers would silently fill library defaults (e.g. hidden_size 4096): a config without
        # its core dimensions is broken, not a default model
        if r.get(key) is None and not (key == "num_layers" and (
                isinstance(text_raw.get("block_configs"), list)
                or any(isinstance(text_raw.get(k), (list, str)) and text_raw.get(k)
                       for k in ("layer_types", "layers_block_type", "hybrid_override_pattern")))):
            raise ConfigError(f"{where}: missing {ALIASES[key][0]} (the {key.replace('_', ' ')}; also read as "
                              f"{', '.join(ALIASES[key][1:4])})")
    for key in ("hidden_size", "num_layers", "num_heads", "vocab_size", "num_kv_heads", "head_dim",
                "intermediate_size", "num_experts", "top_k", "expert_intermediate"):
        for name in ALIASES.get(key, [key]):
            if name in text_raw and text_raw[name] is not None:
                val = text_raw[name]
                if isinstance(val, list) and key == "intermediate_size":  # per-layer widths (gemma-3n)
                    for i, v in enumerate(val):
                        check_int(v, f"{name}[{i}]", where, limit=LIMITS.get(key))
                else:
                    check_int(val, name, where, limit=LIMITS.get(key))
                break
    hidden, heads = r.get("hidden_size"), r.get("num_heads")
    if isinstance(hidden, int) and isinstance(heads, int) and r.get("head_dim") is None and heads and hidden % heads \
            and not r.get("kv_lora_rank"):
        raise ConfigError(f"{where}: hidden size {hidden} is not divisible by {heads} attention heads and no head_dim "
                          "is given")
