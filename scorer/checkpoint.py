"""The checkpoint as ground truth: parameters and stored bytes from the safetensors headers.

:func:`analyze` turns the tensor inventory :mod:`scorer.sources` read from the headers
(:class:`~scorer.sources.CheckpointHeaders`) into counts beside the config-derived ones
(:class:`~scorer.params.ParamCounts`). Pure: no I/O.

**Roles.** Each tensor is a *parameter*, a *scale* (quantization metadata: scales, zero points, group
indices, bitsandbytes state — stored bytes, not parameters) or a *buffer* (``rotary_emb.inv_freq``,
``position_ids``, GPT-2's ``attn.bias`` causal mask, DeepSeek-V3's ``e_score_correction_bias``, DeepSeek-V4's
``tid2eid`` — stored, not parameters). See :func:`tensor_role`.

**MTP copies.** DeepSeek-V3 and GLM-4.5 checkpoints store, in each MTP layer, its own ``embed_tokens`` and
``shared_head.head`` (vocab x hidden each) although engines share them with the main model. The config-derived
``params.mtp`` counts them for the families whose checkpoints do (``params.mtp_copies``, family flag
``mtp_copies``), so such a checkpoint matches as it is. A stored MTP count that differs from the config's by
exactly one or two vocab x hidden tables per MTP layer — copies stored where the family is not known to store
them, or left out of a checkpoint whose family usually stores them — is reported in ``notes``, not as a
difference.

**Components** come from the tensor names (:func:`component_of`), in the keys of
:data:`scorer.params.COMPONENTS` plus ``vision`` (vision tower and projector), ``mtp`` (``mtp.*``, or decoder
layers past ``num_hidden_layers`` when the config declares MTP layers) and ``other`` (names not recognized).

**Packed weights count elements, not storage words** (:func:`elements`). A parameter stored in an integer
container (U8, I8, U16, I16, U32, I32, U64, I64) whose module the config's ``quantization_config`` quantizes to
``weight_bits`` narrower than the container holds ``container_bits / weight_bits`` values per stored element.
Per format:

* ``nvfp4`` — ModelOpt ``weight`` U8 [out, in/2] (two FP4 values per byte, ``weight_scale`` F8_E4M3 per 16,
  ``weight_scale_2`` / ``input_scale`` F32); compressed-tensors ``weight_packed`` U8 (``weight_scale``,
  ``weight_global_scale``). 2 elements per byte.
* ``mxfp4`` — gpt-oss ``*_blocks`` U8 [..., in/32, 16] with ``*_scales`` U8 (E8M0 per 32). 2 per byte.
* ``int4`` / ``int8`` / ``intN`` from GPTQ, AWQ, AutoRound — ``qweight`` I32 holding 32/bits values (8 for
  int4), ``qzeros`` I32 and ``scales`` F16 (scales), ``g_idx`` I32 (scale metadata); compressed-tensors
  ``weight_packed`` I32 (``weight_scale``, ``weight_zero_point``, ``weight_shape``). 3-bit packs across words:
  elements = stored x 32 / 3.
* ``nf4`` / ``fp4_bnb`` (bitsandbytes 4-bit) — ``weight`` U8 holding 2 per byte; ``absmax``, ``quant_map``,
  ``nested_*``, ``quant_state.*`` are scales. bitsandbytes int8: ``weight`` I8 (1 per element), ``SCB`` scale.
* ``fp8*`` — ``weight`` F8_E4M3, one element each; ``weight_scale`` / ``weight_scale_inv`` / ``input_scale``
  are scales.
* ModelOpt ``MIXED_PRECISION`` (``QuantSpec.mixed``): FP8 layers are F8_E4M3 (one each), so a ``weight`` in U8
  is a 4-bit layer (NVFP4, W4A16/INT4 AWQ: 2 per byte) when the mix holds a 4-bit algorithm, and I8 is INT8.
* A native ``F4`` / ``F6_*`` dtype already counts elements in its shape (safetensors' convention).
* No quantization config, ``unknown`` format, or a tensor in a float dtype: one element per stored element
  (modules a checkpoint leaves unquantized are stored in BF16 and count as they are).

**Stored bytes** are exactly what the headers' ``data_offsets`` span, scales and buffers included.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, Field

from .params import ParamCounts

#: relative difference (stored vs config-derived parameters) above which the sheet reports finding C1
MISMATCH_TOLERANCE = 0.001
#: integer containers a packed weight may live in, and their bits
INT_CONTAINERS = {"U8": 8, "I8": 8, "U16": 16, "I16": 16, "U32": 32, "I32": 32, "U64": 64, "I64": 64}
#: components whose difference means the stored shapes disagree with the config's GEMM and embedding shapes
SHAPE_COMPONENTS = ("embedding", "lm_head", "attention", "mlp", "routed_experts", "shared_experts", "router",
                    "recurrent")
#: formats whose stored bytes are the weight memory the cost model serves at that precision
SERVABLE = ("fp8", "fp8_channel", "fp8_block", "nvfp4", "mxfp4", "int4", "int8", "w8a16")

_SCALE_LEAVES = {"weight_scale", "weight_scale_2", "weight_scale_inv", "input_scale", "output_scale", "k_scale",
                 "v_scale", "q_scale", "prob_scale", "scales", "qzeros", "g_idx", "weight_zero_point",
                 "weight_global_scale", "input_global_scale", "weight_shape", "weight_g_idx", "scb", "weight_format",
                 "absmax", "quant_map", "nested_absmax", "nested_quant_map", "pre_quant_scale", "input_zero_point"}
#: transformers registers these as buffers, not parameters (DeepSeek-V3's router keeps e_score_correction_bias
#: with register_buffer; DeepSeek-V4's hash router its token -> expert table tid2eid)
_BUFFER_LEAVES = {"inv_freq", "position_ids", "masked_bias", "_float_tensor", "e_score_correction_bias", "tid2eid"}
_PACKED_LEAVES = {"weight", "qweight", "weight_packed"}

_VISION = {"vision_tower", "visual", "vision_model", "vision_encoder", "vision", "multi_modal_projector",
           "mm_projector", "vision_projector", "vision_projection", "image_newline", "vision_embed_tokens"}
#: task heads (score: decoders' classification head; classification_head: BART / T5; qa_classifier: BigBird's QA
#: block; discriminator_predictions: ELECTRA's pre-training head; sequence_summary / logits_proj: XLNet / XLM)
_TASK = {"classifier", "pooler", "cls", "qa_outputs", "score", "classification_head", "qa_classifier",
         "discriminator_predictions", "sequence_summary", "logits_proj"}
_EMBED = {"embed_tokens", "wte", "wpe", "word_embeddings", "position_embeddings", "token_type_embeddings",
          "embed_positions", "embed_in", "tok_embeddings", "shared", "embeddings", "embedding",
          "embeddings_project"}  # ELECTRA / RoFormer: the factorized table's projection to hidden
_ATTN_NORMS = {"q_norm", "k_norm", "q_layernorm", "k_layernorm", "q_a_layernorm", "kv_a_layernorm",
               "query_layernorm", "key_layernorm", "q_ln", "k_ln"}
_ATTN = {"self_attn", "attn", "attention", "selfattention", "encdecattention", "cross_attn", "encoder_attn",
         "crossattention", "self_attention"}
_RECURRENT = {"mamba", "linear_attn", "ssm", "linear_mlp", "mixer"}
_MLP = {"mlp", "feed_forward", "ffn", "intermediate", "densereludense", "densegatedactdense", "fc1", "fc2",
        "c_fc", "dense_h_to_4h", "dense_4h_to_h"}
_LAYER_INDEX = re.compile(r"(?:^|\.)(?:layers|h|block|blocks)\.(\d+)\.")


class Counted(BaseModel):
    tensors: int = 0
    elements: int = 0
    bytes: int = 0
    by_dtype: dict[str, int] = Field(default_factory=dict, description="stored elements per dtype")


class CheckpointCounts(BaseModel):
    """``params.checkpoint`` of the sheet: what the safetensors headers say is stored."""

    total: int = Field(description="parameters stored (packed weights counted as logical elements; scales and "
                                   "buffers excluded)")
    by_dtype: dict[str, int] = Field(description="parameters per stored dtype (packed: logical elements)")
    bytes: int = Field(description="bytes the headers' data_offsets span, every tensor (scales and buffers "
                                   "included)")
    source: str = Field(description="the files read, and how")
    files: list[str]
    tensors: int
    by_component: dict[str, int] = Field(description="parameters per component, from tensor names")
    bytes_by_component: dict[str, int] = Field(description="stored bytes per component (scales and buffers "
                                                           "included)")
    packed: dict[str, dict[str, int]] = Field(default_factory=dict, description="stored dtype -> {bits, "
                                              "stored_elements, elements} of packed quantized weights")
    scales: Counted = Field(description="quantization scales, zero points and state: stored, not parameters")
    buffers: Counted = Field(description="non-parameter buffers (rotary inv_freq, position_ids, masks)")
    language_model_bytes: int = Field(description="stored bytes without the vision tower and MTP layers")
    stored_precision: str | None = Field(None, description="precision the language-model weights are stored at "
                                                           "(a SERVABLE format or bf16), None when mixed or wider")
    config_total: int = Field(description="params.total + MTP + vision counted from the config")
    delta: int = Field(description="total - config_total")
    delta_pct: float = Field(description="delta / config_total, %")
    differs: dict[str, int] = Field(default_factory=dict, description="component -> stored - config, where they "
                                                                      "differ")
    notes: list[str] = Field(default_factory=list, description="differences explained (MTP copies of the "
                                                               "embedding and lm_head)")
    shape_components: list[str] = Field(default_factory=lambda: list(SHAPE_COMPONENTS), description="the "
                                        "components whose shapes engines' loaders check (a reward / classification "
                                        "decoder's head too)")
    matches: bool = Field(description=f"|delta| <= {MISMATCH_TOLERANCE:.1%} of the config-derived count and no "
                                      "GEMM or embedding component differs")


def tensor_role(name: str, quantized: bool) -> str:
    """``parameter``, ``scale`` or ``buffer`` (see the module docstring)."""
    segs = name.lower().split(".")
    leaf = segs[-1]
    if leaf in _SCALE_LEAVES or any(s.startswith("quant_state") for s in segs):
        return "scale"
    if quantized and (leaf.endswith("_scales") or leaf.endswith("_zero_point")):
        return "scale"
    if leaf in _BUFFER_LEAVES or (len(segs) >= 2 and segs[-2] == "attn" and leaf == "bias"):
        return "buffer"
    return "parameter"


def elements(t, q) -> tuple[int, int]:
    """(logical elements, stored elements) of a parameter tensor under quantization ``q`` (QuantSpec or None)."""
    stored = 1
    for d in t.shape:
        stored *= d
    cbits = INT_CONTAINERS.get(t.dtype)
    bits = getattr(q, "weight_bits", None) if q is not None else None
    mixed = getattr(q, "mixed", None) if q is not None else None
    if mixed:
        four = any(a.startswith(("NVFP4", "W4A", "INT4", "FP4")) or "AWQ" in a for a in mixed)
        bits = 4 if (t.dtype == "U8" and four) else 8 if t.dtype == "I8" else bits
    leaf = t.name.rsplit(".", 1)[-1]
    if cbits and bits and 0 < bits < cbits and (leaf in _PACKED_LEAVES or leaf.endswith("_blocks")) \
            and (stored * cbits) % bits == 0:
        return stored * cbits // bits, stored
    return stored, stored


def component_of(name: str, num_layers: int, has_mtp: bool) -> str:
    """The component a tensor belongs to, from its name (see the module docstring)."""
    low = name.lower()
    segs = low.split(".")
    mod = segs[-2] if len(segs) >= 2 else segs[0]
    if any(s in _VISION for s in segs[:3]):
        return "vision"
    if "mtp" in segs[:2]:
        return "mtp"
    m = _LAYER_INDEX.search(low)
    if has_mtp and m and int(m.group(1)) >= num_layers and not low.startswith(("encoder.", "model.encoder.")):
        return "mtp"
    if segs[0] in _TASK or "pooler" in segs or (len(segs) > 1 and segs[1] in _TASK):
        return "task_head"
    if "lm_head" in segs or (mod in ("embed_out", "output") and len(segs) == 2):
        return "lm_head"
    if mod in _ATTN_NORMS:
        return "attention"
    if "mixer" in segs:  # hybrid blocks (NemotronH): one "mixer" that is Mamba, attention or an MLP
        if mod in ("q_proj", "k_proj", "v_proj", "o_proj"):
            return "attention"
        if mod in ("up_proj", "down_proj", "gate_proj"):
            return "mlp"
        return "recurrent"
    if any(s in _RECURRENT for s in segs):
        return "recurrent"
    if "norm" in mod or mod in ("ln", "ln_f") or mod.startswith("ln_") or mod.endswith("_ln"):
        return "norms"
    if any(s in _EMBED for s in segs):
        return "embedding"
    if "shared_expert_gate" in segs:
        return "router"
    if any(s in ("shared_expert", "shared_experts", "shared_mlp") for s in segs):
        return "shared_experts"
    if "router" in segs or segs[-1] == "e_score_correction_bias" or (
            mod == "gate" and len(segs) >= 3 and segs[-3] in ("mlp", "block_sparse_moe", "moe", "feed_forward")):
        return "router"
    if "experts" in segs or "block_sparse_moe" in segs:
        return "routed_experts"
    if any(s in _ATTN for s in segs):
        return "attention"
    if any(s in _MLP for s in segs) or (len(segs) >= 3 and segs[-3] == "output"):
        return "mlp"
    return "other"


def config_components(params: ParamCounts) -> dict[str, int]:
    """The config-derived counts in the checkpoint's component keys (vision and MTP apart)."""
    out = dict(params.by_component)
    out["vision"] = params.vision or 0
    out["mtp"] = params.mtp or 0
    return out


def analyze(headers, arch, params: ParamCounts) -> CheckpointCounts:
    """Counts and stored bytes of a checkpoint's tensors, compared with the config-derived ``params``."""
    q = arch.quantization
    has_mtp = getattr(arch, "mtp", None) is not None
    by_dtype: dict[str, int] = {}
    by_comp: dict[str, int] = {}
    bytes_comp: dict[str, int] = {}
    packed: dict[str, dict[str, int]] = {}
    roles = {"scale": Counted(), "buffer": Counted()}
    total = stored_bytes = 0
    lm_16 = lm_params = 0
    for t in headers.tensors:
        comp = component_of(t.name, arch.num_layers, has_mtp)
        stored_bytes += t.nbytes
        bytes_comp[comp] = bytes_comp.get(comp, 0) + t.nbytes
        role = tensor_role(t.name, q is not None)
        if role != "parameter":
            c = roles[role]
            n = 1
            for d in t.shape:
                n *= d
            c.tensors += 1
            c.elements += n
            c.bytes += t.nbytes
            c.by_dtype[t.dtype] = c.by_dtype.get(t.dtype, 0) + n
            continue
        n, stored = elements(t, q)
        if n != stored:
            bits = INT_CONTAINERS[t.dtype] * stored // n
            key = t.dtype if packed.get(t.dtype, {}).get("bits", bits) == bits else f"{t.dtype}/{bits}bit"
            pk = packed.setdefault(key, {"bits": bits, "stored_elements": 0, "elements": 0})
            pk["stored_elements"] += stored
            pk["elements"] += n
        total += n
        by_dtype[t.dtype] = by_dtype.get(t.dtype, 0) + n
        by_comp[comp] = by_comp.get(comp, 0) + n
        if comp not in ("vision", "mtp"):
            lm_params += n
            lm_16 += n if t.dtype in ("BF16", "F16") else 0
    lm_bytes = sum(b for c, b in bytes_comp.items() if c not in ("vision", "mtp"))
    if q is not None:
        stored_prec = q.format if q.format in SERVABLE else None
    else:
        stored_prec = "bf16" if lm_params and lm_16 >= 0.99 * lm_params else None
    cfg = config_components(params)
    config_total = sum(cfg.values())
    keys = list(dict.fromkeys([*cfg, *by_comp]))
    differs = {k: by_comp.get(k, 0) - cfg.get(k, 0) for k in keys if by_comp.get(k, 0) != cfg.get(k, 0)}
    delta = total - config_total
    explained = 0
    notes: list[str] = []
    if has_mtp and differs.get("mtp"):
        table, layers = arch.vocab_size * arch.hidden_size, arch.mtp.num_layers
        copies = {layers * table: "embedding", 2 * layers * table: "embedding and lm_head"}
        if differs["mtp"] in copies:
            explained = differs.pop("mtp")
            notes.append(f"the {layers} MTP layer(s) store their own copy of the {copies[explained]} "
                         f"({explained:,} parameters) that the model shares")
        elif -differs["mtp"] in copies and -differs["mtp"] <= (params.mtp_copies or 0):
            explained = differs.pop("mtp")
            notes.append(f"the {layers} MTP layer(s) do not store their own copy of the {copies[-explained]} "
                         f"({-explained:,} parameters): engines share the main model's")
    pct = delta / config_total if config_total else (0.0 if not total else float("inf"))
    unexplained = (delta - explained) / config_total if config_total else pct
    shape_comps = list(SHAPE_COMPONENTS)
    if arch.pooling_head is not None:
        shape_comps.append("task_head")  # the score / qa head a decoder loads in place of its lm_head
    return CheckpointCounts(
        total=total, by_dtype=by_dtype, bytes=stored_bytes, source=headers.source, files=list(headers.files),
        tensors=len(headers.tensors), by_component=by_comp, bytes_by_component=bytes_comp, packed=packed,
        scales=roles["scale"], buffers=roles["buffer"], language_model_bytes=lm_bytes, stored_precision=stored_prec,
        config_total=config_total, delta=delta, delta_pct=round(pct * 100, 4) if config_total else 0.0,
        differs=differs, notes=notes, shape_components=shape_comps,
        # any GEMM or embedding component that differs is a shape engines' loaders refuse, however small
        matches=abs(unexplained) <= MISMATCH_TOLERANCE and not any(k in shape_comps for k in differs))


def stored_weight_bytes(ck: CheckpointCounts | None, precision: str) -> int | None:
    """The language model's stored bytes when they are the weight memory at ``precision`` (the checkpoint's own
    format; BF16/F16 checkpoints at bf16 or fp16), else None."""
    if ck is None or ck.stored_precision is None or not ck.language_model_bytes:
        return None
    if precision == ck.stored_precision or (ck.stored_precision == "bf16" and precision in ("bf16", "fp16")):
        return ck.language_model_bytes
    return None


def mismatch_message(ck: CheckpointCounts, limit: int = 6) -> str:
    """Finding C1's message: the checkpoint, both totals and the components that differ, largest first."""
    parts = sorted(ck.differs.items(), key=lambda kv: -abs(kv[1]))
    comps = ", ".join(f"{k} {v:+,}" for k, v in parts[:limit]) + (", ..." if len(parts) > limit else "")
    return (f"checkpoint {ck.source} stores {ck.total:,} parameters, the config implies {ck.config_total:,} "
            f"({ck.delta_pct:+.2f}%); components that differ (stored - config): {comps or 'none named'}")


def shapes_differ(ck: CheckpointCounts) -> bool:
    """A GEMM or embedding component differs: engines refuse such weights (their loaders assert the shapes)."""
    return any(k in ck.shape_components for k in ck.differs)
