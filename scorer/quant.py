"""Quantization readiness: for each format x TP degree x engine, ready / padded / not_ready, with the
layer, dimension and divisor that decide it.

Checks run per TP shard on every conventionally quantized GEMM of the inventory (routers,
lm_head, tiny gates stay in BF16, rule Q7). They follow the engines' own shape checks, rule by
rule (``data/rules.json``):

* ``fp8`` / ``int8`` W8A8 (Q1): CUTLASS ``scaled_mm`` needs K_p % 16 and N_p % 16, else a Triton
  fallback (padded);
* ``fp8_block`` (Q2), at the checkpoint's ``weight_block_size`` (block_n x block_k; 128x128 online): vLLM
  ``validate_fp8_block_shape`` — a row-parallel split needs K_p % block_k; a column split, or a merged (fused)
  output, checks every output partition % block_n, except that an unsplit merged GEMM may leave its last partition
  unaligned; FusedMoE needs the expert width per partition % block_n (and % block_k when split). K % block_n is
  also required by the (1, block_n) activation-group quantization. An N that is not a multiple of 128 passes with
  a partial scale block but misses the CUTLASS block-FP8 GEMM, and so does any block other than 128x128 (Triton
  fallback: padded). SGLang's ``validate_block_quant_shapes`` is the same check, except that it also checks an
  unsplit merged GEMM's last partition (not applied: SGLang builds some fused projections replicated);
* ``nvfp4`` (Q4): K_p % 16 or ``ModelOptNvFp4LinearMethod`` raises; K_p % 64 and N_p % 128 avoid
  the swizzle padding;
* ``mxfp4`` (Q5): K % 32 (block); vLLM's MoE kernels pad expert widths and hidden to 256 (FlashInfer SM100);
  dense linears (online MXFP4, compressed-tensors W4A4 MXFP4) need K_p % 32, FlashInfer pads N to 128; a gpt-oss
  ``quant_method: mxfp4`` checkpoint quantizes its experts only;
* ``int4`` W4A16 (Q3), at the checkpoint's group (128 when quantizing online): vLLM 0.33.0 refuses a group that
  straddles the TP shard (K_p % group) and zero-pads Marlin's thread tiles (padded); SGLang 0.5.23's dense Marlin
  needs N_p % 64, K_p % 128 and K_p % group; routed experts run fused Marlin MoE (hidden % 128, I_p % group,
  I_p % 64 else padded) or fall back to the MoE WNA16 kernels (padded) while a group of 32 or more divides I_p
  and hidden; TensorRT-LLM's ModelOpt export asserts (K/TP) % 128.

``basis`` says whether an engine's check is taken from its source (``checked``) or assumed to match
vLLM's where the reference does not cover that engine's kernels (``assumed``).
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from .architecture import ModelArch
from .gemms import Gemm, shard
from .memo import MIB, ByteLRU

FORMATS = ("fp8", "fp8_block", "nvfp4", "mxfp4", "int4", "int8")
#: formats the matrix holds only for a checkpoint stored in them: INT8 weight-only (GPTQ 8-bit, Marlin uint8b128)
STORED_ONLY = ("w8a16",)
ENGINES = ("vllm", "sglang", "trtllm")
MIN_GPU = {"fp8": "sm89 (Ada)", "fp8_block": "sm90 (Hopper)", "nvfp4": "sm100 (Blackwell)",
           "mxfp4": "sm80 weight-only; sm100 native", "int4": "sm75 (Marlin)", "int8": "sm80 (Ampere)",
           "w8a16": "sm75 (Marlin)"}
RULE = {"fp8": "Q1", "fp8_block": "Q2", "nvfp4": "Q4", "mxfp4": "Q5", "int4": "Q3", "int8": "Q1", "w8a16": "Q3"}
#: (engine, format) whose checks are read from the engine's source per hardware-fit-rules section 3 Q
CHECKED = {("vllm", f) for f in FORMATS + STORED_ONLY} | {("sglang", "w8a16"), ("sglang", "fp8_block"), ("sglang", "nvfp4"), ("sglang", "int4"),
                                            ("trtllm", "int4"),
                                            ("trtllm", "nvfp4")}
DEFAULT_TPS = (1, 2, 4, 8, 16, 32)
#: (block_n, block_k) of FP8 block quantization when the checkpoint names none (quantizing online; DeepSeek's)
FP8_BLOCK = (128, 128)
ORDER = {"ready": 0, "padded": 1, "not_ready": 2}


class QuantEntry(BaseModel):
    format: str
    tp: int
    engine: str
    status: str = Field(description="ready, padded, not_ready")
    reason: str | None = Field(None, description="the layer, dimension and divisor that decided the status")
    rule: str
    min_gpu: str
    basis: str = Field("checked", description="checked (engine source) or assumed (same as vLLM)")
    ep_status: str | None = Field(None, description="MoE: status when experts use EP instead of TP")


class QuantReadiness(BaseModel):
    checkpoint: dict | None = Field(None, description="the checkpoint's own quantization, if any")
    checkpoint_tps: dict[str, list[int]] = Field(default_factory=dict,
                                                 description="engine -> TP degrees the checkpoint runs at as stored")
    matrix: list[QuantEntry]
    unquantized_share: float = Field(description="share of GEMM weight elements conventionally left in the model's 16-bit dtype (BF16/FP16)")
    unquantized: list[str] = Field(default_factory=list, description="GEMMs conventionally left in BF16 (Q7)")
    checkpoint_tp_caps: dict[str, int] = Field(
        default_factory=dict, description="engine -> the largest TP it loads the checkpoint at as stored, where its "
                                          "version caps it (rule Q10)")
    checkpoint_row: str | None = Field(None, description="the matrix format whose rows are the checkpoint as stored "
                                       "(each GEMM at its component's stored format, what it leaves 16-bit "
                                       "unchecked); None: no checkpoint quantization with kernels in the matrix")
    checkpoint_refused_by: dict[str, str] = Field(
        default_factory=dict, description="engine -> why it has no loader for the checkpoint's quant_method at any TP "
                                          "(rule Q10)")


def _parts_per_partition(g: Gemm, tp: int) -> tuple[list[int], bool]:
    """Output partition sizes per rank and whether vLLM sees a TP split (output_size // sum == tp)."""
    s = shard(g, tp)
    if g.shard != "column" or tp <= 1:
        return (list(g.parts) or [g.n]), False
    split = g.n // max(1, sum(s.parts)) == tp
    return s.parts, split


def check(fmt: str, engine: str, g: Gemm, tp: int, ep: bool = False, group: int | None = 128,
          block: tuple[int, int] = FP8_BLOCK, dense_mxfp4: bool = True) -> tuple[str, str | None]:
    """Status of one GEMM for a format, engine and TP degree (``ep``: experts whole on each rank; ``group``: the
    integer formats' quantization group along K, None or -1 per channel, 128 when quantizing online; ``block``: the
    FP8 block checkpoint's (block_n, block_k), 128 x 128 when quantizing online; ``dense_mxfp4``: the engine
    quantizes a non-expert GEMM at MXFP4 — False for a gpt-oss ``quant_method: mxfp4`` checkpoint, whose loader
    leaves them 16-bit). Where the engine's own check is not read (not in :data:`CHECKED`) and vLLM's stands in,
    the reason says so."""
    status, reason = _check(fmt, engine, g, tp, ep, group, block, dense_mxfp4)
    if reason and (engine, fmt) not in CHECKED and "vLLM" in reason:
        reason = f"{reason} (vLLM's check, assumed for {engine}: its own is not read)"
    return status, reason


def _check(fmt: str, engine: str, g: Gemm, tp: int, ep: bool = False, group: int | None = 128,
           block: tuple[int, int] = FP8_BLOCK, dense_mxfp4: bool = True) -> tuple[str, str | None]:
    eff_tp = 1 if (g.expert and ep) else tp
    s = shard(g, eff_tp)
    name = g.name
    if not s.divisible and not (fmt == "mxfp4" and g.expert):
        return "not_ready", f"{name}: {s.reason}"
    split_k = g.shard == "row" and eff_tp > 1
    if fmt in ("fp8", "int8"):
        if g.expert:
            return "ready", None  # FusedMoE runs grouped Triton/CUTLASS MoE kernels, not cutlass_scaled_mm
        if s.k % 16 or s.n % 16:
            return "padded", f"{name} K_p={s.k}, N_p={s.n}: not multiples of 16 (CUTLASS scaled_mm → Triton)"
        return "ready", None
    if fmt == "fp8_block":  # vLLM 0.33.0 quantization/utils/fp8_utils.py validate_fp8_block_shape(_moe)
        bn, bk = block
        if g.expert:
            width = g.k if g.shard == "row" else (g.parts[0] if g.parts else g.n)
            per = width // eff_tp  # I_p
            if per % bn:
                return "not_ready", (f"{name}: expert width {width}/TP{eff_tp} = {per}, {per} % {bn} = {per % bn} "
                                     f"(FusedMoE block_n {bn})")
            # vLLM checks block_k at its TP world size, whole experts on each rank under EP included
            # (validate_fp8_block_shape_moe: get_tensor_model_parallel_world_size() > 1)
            if tp > 1 and per % bk:
                return "not_ready", (f"{name}: expert width {width}/TP{eff_tp} = {per}, {per} % {bk} = {per % bk} "
                                     f"(FusedMoE block_k {bk})")
        else:
            if split_k and s.k % bk:
                return "not_ready", f"{name}: K/TP = {g.k}/{eff_tp} = {s.k}, {s.k} % {bk} = {s.k % bk}"
            # activations are quantized in (1, block_n) groups (fp8.py Fp8LinearMethod activation_quant_key):
            # per_token_group_quant_fp8 asserts K % group
            if s.k % bn:
                return "not_ready", f"{name}: K = {s.k}, {s.k} % {bn} = {s.k % bn} (1x{bn} activation groups)"
            parts, split = _parts_per_partition(g, eff_tp)
            merged = len(parts) > 1
            if split or merged:
                # vLLM exempts an unsplit merged GEMM's last partition. SGLang 0.5.23's validate_block_quant_shapes
                # checks it too, but builds some fused projections replicated (DeepSeek's fused_qkv_a_proj_with_mqa,
                # models/deepseek_v2.py: one partition): not told apart here, vLLM's rule is used for both
                for p in (parts if split else parts[:-1]):
                    if p % bn:
                        return "not_ready", f"{name}: output partition {p}, {p} % {bn} = {p % bn}"
        if (bn, bk) != FP8_BLOCK:  # CUTLASS block-FP8 and DeepGEMM take (1, 128) activation groups only
            return "padded", (f"{name}: {bn}x{bk} blocks: vLLM's CUTLASS and DeepGEMM block-FP8 GEMMs need 128x128 "
                              "(kernels/linear/scaled_mm/cutlass.py, deep_gemm.py): Triton block-FP8 fallback")
        # an unsplit last partition (or unsplit N) that is not a multiple of 128 has a partial scale block: it
        # passes validate_fp8_block_shape, but the CUTLASS block-FP8 GEMM needs N % 128 (Triton fallback)
        if any(p % 128 for p in (s.parts or [s.n])) or s.n % 128:
            return "padded", (f"{name} N_p={s.n}: not a multiple of 128, partial scale block (CUTLASS block-FP8 "
                              "needs N % 128: Triton fallback)")
        return "ready", None
    if fmt == "nvfp4":
        if s.k % 16:
            return "not_ready", f"{name}: K/TP = {s.k}, {s.k} % 16 = {s.k % 16}"
        bad = ([f"K_p={s.k} (needs %64)"] if s.k % 64 else []) + ([f"N_p={s.n} (needs %128)"] if s.n % 128 else [])
        if bad:
            return "padded", f"{name} {', '.join(bad)}: swizzle pads"
        return "ready", None
    if fmt == "mxfp4":
        if not g.expert:
            if not dense_mxfp4:
                return "not_ready", (f"{name}: vLLM's gpt-oss MXFP4 loader (quantization/mxfp4.py Mxfp4Config) "
                                     "quantizes MoE experts only; dense linear layers stay 16-bit")
            # vLLM 0.33.0 online Mxfp4OnlineLinearMethod (quantization/online/mxfp4.py) and compressed-tensors
            # W4A4 MXFP4: K_p % 32 or create_weights raises; FlashInfer pads N to 128, Marlin its thread tiles
            if s.k % 32:
                return "not_ready", f"{name}: K/TP = {s.k}, {s.k} % 32 = {s.k % 32} (vLLM MXFP4 32-element blocks)"
            if s.n % 128:
                return "padded", f"{name} N_p={s.n}: vLLM's FlashInfer MXFP4 linear pads N to 128"
            return "ready", None
        if g.k % 32:
            return "not_ready", f"{name}: K = {g.k}, {g.k} % 32 = {g.k % 32} (32-element blocks)"
        # shards are cut in whole 32-element blocks (rounded up) and padded: 2880 at TP4 -> 23 blocks = 736
        if s.k % 256 or s.n % 256:
            return "padded", (f"{name} K_p={s.k}, N_p={s.n}: padded to multiples of 256 by FlashInfer's SM100 "
                              "kernels on Blackwell (128 on ROCm, 64 on the Triton path)")
        return "ready", None
    if fmt in ("int4", "w8a16"):  # Marlin runs both (uint4b8 / uint8b128), the same shape rules
        if engine == "trtllm" and fmt == "int4":
            if s.k % 128:
                return "not_ready", f"{name}: K/TP = {s.k}, {s.k} % 128 = {s.k % 128} (ModelOpt AWQ export)"
            return "ready", None
        if g.expert:
            return _marlin_moe(g, s, eff_tp, group)
        if engine == "sglang":
            return _marlin_dense_strict(g, s, group)
        return _marlin_dense_padded(g, s, group)
    raise ValueError(fmt)


#: Marlin's thread tiles, vLLM 0.33.0 / SGLang 0.5.23 quantization/utils/marlin_utils.py GPTQ_MARLIN_MIN_THREAD_N / _K
MARLIN_N, MARLIN_K = 64, 128
#: group sizes Marlin runs (MARLIN_SUPPORTED_GROUP_SIZES, both engines); -1: one group per channel
MARLIN_GROUPS = (-1, 32, 64, 128)


def _group_text(group: int | None) -> str:
    return "per-channel" if not group or group < 0 else f"group {group}"


def _marlin_dense_padded(g: Gemm, s, group: int | None) -> tuple[str, str | None]:
    """vLLM 0.33.0's dense W4A16 path (kernels/linear/mixed_precision/marlin.py MarlinLinearKernel.can_implement,
    TritonW4A16LinearKernel the fallback): a quantization group straddling the TP shard (K_p % group, group < K)
    cannot be padded and no kernel takes it; thread-tile misalignment is zero-padded at weight prep
    (marlin_utils.marlin_padded_nk: (N % 64, K % 128) or (N % 128, K % 64), else padded to the cheaper one)."""
    gs = group if group and group > 0 else -1
    if gs != -1 and gs < g.k and s.k % gs:
        return "not_ready", (f"{g.name}: K/TP = {s.k}, {s.k} % {gs} = {s.k % gs}: not whole quantization groups of "
                             f"{gs} (vLLM 0.33.0 Marlin and Triton W4A16 refuse it)")
    if not ((s.n % 64 == 0 and s.k % 128 == 0) or (s.n % 128 == 0 and s.k % 64 == 0)):  # marlin_padded_nk's families
        return "padded", (f"{g.name} N_p={s.n}, K_p={s.k}: neither (N % 64, K % 128) nor (N % 128, K % 64); vLLM "
                          "0.33.0 zero-pads the weight to Marlin's thread tile (marlin_padded_nk)")
    return "ready", None


def _marlin_dense_strict(g: Gemm, s, group: int | None) -> tuple[str, str | None]:
    """SGLang 0.5.23's dense Marlin check (srt/layers/quantization/marlin_utils.py verify_marlin_supports_shape, as
    awq/schemes/awq_marlin.py calls it): N_p % 64, K_p % 128 and K_p % group when group < K; no tile padding."""
    gs = group if group and group > 0 else -1
    if s.k % MARLIN_K:
        return "not_ready", (f"{g.name}: K/TP = {s.k}, {s.k} % 128 = {s.k % 128} (SGLang 0.5.23 Marlin "
                             "min_thread_k 128)")
    if s.n % MARLIN_N:
        return "not_ready", f"{g.name}: N/TP = {s.n}, {s.n} % 64 = {s.n % 64} (SGLang 0.5.23 Marlin min_thread_n 64)"
    if gs != -1 and gs < g.k and s.k % gs:
        return "not_ready", f"{g.name}: K/TP = {s.k}, {s.k} % {gs} = {s.k % gs} (group straddles the TP shard)"
    return "ready", None


def _marlin_moe(g: Gemm, s, eff_tp: int, group: int | None) -> tuple[str, str | None]:
    """Routed experts at W4A16 (vLLM 0.33.0 quantization/utils/marlin_utils.py check_moe_marlin_supports_config with
    allow_tile_padding, as auto_gptq.py and auto_awq.py call it; SGLang 0.5.23's AWQ MoE the same test):

    * fused Marlin MoE: hidden % 128, group in {-1, 32, 64, 128} and I_p % group; an I_p that is not a multiple
      of 64 (gate-up N = 2·I_p % 128, down K = I_p % 64) is zero-padded (marlin_moe_padded_intermediate): padded;
    * else the MoE WNA16 kernels (moe_wna16.py MoeWNA16Method.create_weights): the group is halved until it divides
      both I_p and hidden, and must stay >= 32 (assert group_size >= 32), else nothing runs the experts.

    ``I_p`` is the expert's intermediate width per rank, hidden the model width."""
    column = g.shard != "row"
    hidden = g.k if column else g.n
    inter = ((g.parts[0] if g.parts else g.n) if column else g.k) // max(1, eff_tp)
    gs = group if group and group > 0 else -1
    if hidden % MARLIN_K == 0 and gs in MARLIN_GROUPS and (gs == -1 or inter % gs == 0):
        if inter % MARLIN_N:
            return "padded", (f"{g.name}: expert width per rank {inter}, {inter} % 64 = {inter % 64}: zero-padded "
                              "to Marlin MoE's tile (marlin_moe_padded_intermediate)")
        return "ready", None
    why = (f"hidden {hidden} % 128 = {hidden % 128}" if hidden % 128 else
           f"expert width per rank {inter} % {gs} = {inter % gs}" if gs != -1 and inter % gs else
           f"{_group_text(gs)} not one Marlin runs")
    if gs == -1:
        return "padded", f"{g.name}: {why}: Marlin MoE refuses; MoE WNA16 kernels run it"
    sub = gs
    while sub >= 32 and (inter % sub or hidden % sub):
        sub //= 2
    if sub < 32:
        return "not_ready", (f"{g.name}: {why}, and no group of 32 or more divides both the expert width per rank "
                             f"{inter} and hidden {hidden} (MoE WNA16 asserts group_size >= 32)")
    return "padded", f"{g.name}: {why}: Marlin MoE refuses; MoE WNA16 kernels run it at group {sub}"
    raise ValueError(fmt)


def stored_group(arch: ModelArch, as_stored: bool) -> int | None:
    """The quantization group (along K, elements) the integer kernels are checked at: the checkpoint's own
    ``group_size`` when serving it as stored (None: per channel), else 128 (quantizing online, AWQ / GPTQ's usual
    group)."""
    q = arch.quantization
    if as_stored and q is not None and q.format in ("int4", "w8a16"):
        return q.group_size
    return 128


def stored_block(arch: ModelArch, as_stored: bool) -> tuple[int, int]:
    """The FP8 block (block_n, block_k) the ``fp8_block`` checks run at: the checkpoint's ``weight_block_size``
    when serving it as stored (vLLM 0.33.0 validate_fp8_block_shape reads it), else :data:`FP8_BLOCK`."""
    q = arch.quantization
    if as_stored and q is not None and q.format == "fp8_block":
        from .costmodel import fp8_block_of
        return fp8_block_of(q)
    return FP8_BLOCK


def gpt_oss_mxfp4(arch: ModelArch, as_stored: bool) -> bool:
    """Serving a ``quant_method: mxfp4`` checkpoint as stored: vLLM 0.33.0's Mxfp4Config (quantization/mxfp4.py
    get_quant_method) quantizes the MoE experts only and leaves every other linear 16-bit."""
    q = arch.quantization
    return bool(as_stored and q is not None and q.format == "mxfp4" and q.method == "mxfp4")


def _worst(results: list[tuple[str, str | None]]) -> tuple[str, str | None]:
    status, reason = "ready", None
    for st, why in results:
        if ORDER[st] > ORDER[status]:
            status, reason = st, why
    return status, reason


def _tagged(result: tuple[str, str | None], gf: str, fmt: str) -> tuple[str, str | None]:
    """A check's result, its reason naming the stored format ``gf`` where it is not the row's ``fmt``."""
    status, why = result
    return (status, f"{why} ({gf} weights, rule {RULE[gf]})") if why and gf != fmt else result


def readiness(arch: ModelArch, gemms: list[Gemm], tps=DEFAULT_TPS, valid_tp: list[int] | None = None
              ) -> QuantReadiness:
    """The format x TP x engine matrix (see module docstring)."""
    quantizable = [g for g in gemms if g.quantizable and g.component != "lm_head"]
    has_experts = any(g.expert for g in quantizable)
    #: EP spreads whole experts over the ranks: at most one rank per expert (regimes.layout_problem)
    experts = max((lay.ffn.num_experts for lay in arch.layers if getattr(lay.ffn, "kind", "") == "moe"), default=0)
    # a gpt-oss MXFP4 checkpoint quantizes the experts only (its other layers stay BF16, _kernel_formats); vLLM's
    # online MXFP4 and compressed-tensors MXFP4 quantize the dense linears too
    q = arch.quantization
    kernels = PRECISION_FORMAT.get(q.format, q.format) if q is not None else None  # fp8_channel: the fp8 kernels
    rows = []
    for fmt in FORMATS + ((kernels,) if kernels in STORED_ONLY else ()):
        # the checkpoint's own format is the checkpoint as stored: each GEMM at its component's format, what it
        # leaves 16-bit unchecked (served_formats); other formats quantize every GEMM (rule Q7's set)
        pairs = _kernel_formats(arch, gemms, fmt, fmt == kernels)
        group = stored_group(arch, fmt == kernels)
        block = stored_block(arch, fmt == kernels)
        dense_mx = not gpt_oss_mxfp4(arch, fmt == kernels)
        for tp in tps:
            for engine in ENGINES:
                basis = "checked" if (engine, fmt) in CHECKED else "assumed"
                if valid_tp is not None and tp not in valid_tp:
                    rows.append(QuantEntry(format=fmt, tp=tp, engine=engine, status="not_ready",
                                           reason=f"TP {tp} invalid for the attention heads (T1/T2)", rule="T1",
                                           min_gpu=MIN_GPU[fmt], basis="checked"))
                    continue
                status, reason = _worst([_tagged(check(gf, engine, g, tp, group=group, block=block,
                                                       dense_mxfp4=dense_mx), gf, fmt) for g, gf in pairs])
                ep_status = None
                if has_experts and tp <= experts:
                    ep_status = _worst([check(gf, engine, g, tp, ep=True, group=group, block=block,
                                              dense_mxfp4=dense_mx) for g, gf in pairs])[0]
                rows.append(QuantEntry(format=fmt, tp=tp, engine=engine, status=status, reason=reason,
                                       rule=RULE[fmt], min_gpu=MIN_GPU[fmt], basis=basis, ep_status=ep_status))
    total = sum(g.params for g in gemms) or 1
    unq = [g for g in gemms if not g.quantizable]
    ckpt = arch.quantization.model_dump() if arch.quantization else None
    ckpt_tps: dict[str, list[int]] = {}
    if q is not None and kernels in FORMATS + STORED_ONLY:
        for engine in ENGINES:
            ckpt_tps[engine] = [e.tp for e in rows if e.format == kernels and e.engine == engine
                                and (e.status != "not_ready" or e.ep_status in ("ready", "padded"))
                                and checkpoint_blocker(arch, engine, e.tp) is None]
    elif q is not None:  # a format the matrix has no kernels for: where the engine's loader rules name its method
        for engine in ENGINES:
            if _rules_name(q.method.strip().lower(), checkpoint_method_rules(engine)):
                ckpt_tps[engine] = [tp for tp in tps if (valid_tp is None or tp in valid_tp)
                                    and checkpoint_blocker(arch, engine, tp) is None]
    refused_by = {e: r for e in ENGINES if (r := checkpoint_blocker(arch, e, 1))}
    caps = {e: c for e in ENGINES if e not in refused_by and (c := checkpoint_tp_cap(arch, e)) is not None}
    return QuantReadiness(checkpoint=ckpt, checkpoint_tps=ckpt_tps, matrix=rows, checkpoint_refused_by=refused_by,
                          checkpoint_row=kernels if kernels in FORMATS + STORED_ONLY else None,
                          checkpoint_tp_caps=caps,
                          unquantized_share=round(sum(g.params for g in unq) / total, 4),
                          unquantized=sorted({g.name for g in unq}))


def checkpoint_method_rules(engine: str) -> dict:
    """``engine``'s rules on a checkpoint's ``quant_method`` (data/engines.json ``checkpoint_methods``): the
    methods it refuses, those it loads only up to a TP degree (``max_tp``), those it loads only with
    ``--allow-deprecated-quantization`` (``deprecated``), and their source; empty where not read."""
    from .resources import load_json
    return (load_json("engines.json")["engines"].get(engine) or {}).get("checkpoint_methods") or {}


def engine_name(engine: str) -> str:
    """``engine`` with the version whose source its rules come from (data/engines.json), e.g. "vllm 0.33.0"."""
    from .resources import load_json
    ver = (load_json("engines.json")["engines"].get(engine) or {}).get("version")
    return f"{engine} {ver}" if ver else engine


def _refused(method: str, rules: dict) -> bool:
    """The engine's rules refuse ``method`` outright: listed in ``refuses``, or outside its ``loads`` list."""
    loads = rules.get("loads")
    return method in rules.get("refuses", []) or (loads is not None and method != "unknown" and method not in loads)


def _rules_name(method: str, rules: dict) -> bool:
    """The engine's rules say something of ``method``: refused, capped at a TP (``max_tp``) or ``deprecated``."""
    return _refused(method, rules) or method in (rules.get("max_tp") or {}) or method in rules.get("deprecated", [])


def checkpoint_blocker(arch: ModelArch, engine: str, tp: int = 1) -> str | None:
    """Why ``engine`` does not load ``arch``'s checkpoint as stored at TP ``tp``: its ``quant_method`` is one the
    engine's version has no loader for, or loads only at lower TP (rule Q10, data/engines.json). None when it
    loads, when the checkpoint is not quantized, and for an engine whose rules were not read (TensorRT-LLM)."""
    q = arch.quantization
    if q is None or not q.method:
        return None
    rules = checkpoint_method_rules(engine)
    if not rules:
        return None
    method = q.method.strip().lower()
    if _refused(method, rules):
        return f"{engine_name(engine)} has no loader for quant_method {_short(method)!r} checkpoints (rule Q10)"
    if engine in ("vllm", "sglang"):
        from .costmodel import excluded_projections, partly_excluded
        part = partly_excluded(excluded_projections(q.excluded, arch.layers))
        if part:
            src = ("vllm 0.33.0 quantization/utils/quant_utils.py is_layer_skipped" if engine == "vllm"
                   else "sglang 0.5.23 srt/layers/quantization/utils.py is_layer_skipped")
            return (f"{engine_name(engine)} refuses a checkpoint that leaves {part} unquantized and the rest "
                    f"quantized ('Detected some but not all shards ... are quantized', {src}) (rule Q10)")
    scheme = _scheme_refused(arch, engine)
    if scheme:
        return f"{engine_name(engine)} refuses this checkpoint: {scheme} (rule Q10)"
    unsupported = _unsupported_params(q, method, rules.get("params") or {})
    if unsupported:
        return f"{engine_name(engine)} has no kernel for this {method} checkpoint: {unsupported} (rule Q10)"
    cap = (rules.get("max_tp") or {}).get(method)
    if cap is not None and tp > cap:
        return f"{engine_name(engine)} loads a pre-quantized {method} checkpoint at TP {cap} only, not TP {tp} (rule Q10)"
    return None


def _scheme_refused(arch: ModelArch, engine: str) -> str | None:
    """What of the checkpoint's weight / activation scheme ``engine``'s loader refuses, or None:

    * block-FP8 weights with static activations: vLLM 0.33.0 and SGLang 0.5.23 ``Fp8Config`` raise "The block-wise
      quantization only supports dynamic activation scheme" (vllm layers/quantization/fp8.py Fp8Config.__init__,
      sglang srt/layers/quantization/fp8.py Fp8Config.__init__);
    * compressed-tensors INT8 W8A8 routed experts: vLLM's FusedMoE takes only channel-wise symmetric weights with
      dynamic per-token activations (compressed_tensors_moe.py get_moe_method ``_is_dynamic_token_w8a8``, then
      CompressedTensorsW8A8Int8MoEMethod requires CHANNEL weights); SGLang runs that scheme on NPU only
      (srt/layers/quantization/compressed_tensors/compressed_tensors.py: "The W8A8Int8 Fused MoE scheme is
      implemented only for NPU") and no other INT8 MoE scheme ("Unsupported FusedMoe scheme").
    A key the config leaves out is not held against it."""
    q = arch.quantization
    if engine not in ("vllm", "sglang") or q is None:
        return None
    acts = q.activations or ""
    if q.format == "fp8_block" and acts.endswith("-static"):
        return "block-wise FP8 weights with static activation scales (its block FP8 path is dynamic only)"
    experts_fmt = q.component_formats.get("routed_experts", q.format)
    moe = any(getattr(lay.ffn, "kind", "") == "moe" for lay in arch.layers)
    if q.method == "compressed-tensors" and experts_fmt == "int8" and moe:
        from .costmodel import excluded_components
        if "routed_experts" in excluded_components(q.excluded, arch.layers):
            return None
        if engine == "sglang":
            return "INT8 W8A8 routed experts (its compressed-tensors INT8 fused MoE runs on NPU only)"
        bad = [what for what, ok in (
            (f"{q.weight_strategy} weight scales", q.weight_strategy in (None, "channel")),
            (f"{q.input_strategy} activation scales", q.input_strategy in (None, "token")),
            ("static activation scales", not acts.endswith("-static")),
            ("asymmetric weights", q.zero_points is not True)) if not ok]
        if bad:
            return (f"INT8 W8A8 routed experts with {', '.join(bad)} (its fused MoE takes channel-wise symmetric "
                    "weights with dynamic per-token activations)")
    return None


def _unsupported_params(q, method: str, params: dict) -> str | None:
    """What of a GPTQ / AWQ checkpoint's bits, ``sym`` and group size the engine's loader rejects
    (data/engines.json ``params``: vLLM 0.33.0 AutoGPTQConfig.TYPE_MAP, verify_marlin_supported, AutoAWQConfig), or
    None. A key the config leaves out is not held against it."""
    rule = params.get((params.get("aliases") or {}).get(method, method))
    if not isinstance(rule, dict) or q.weight_bits is None:
        return None
    pairs = rule.get("bits_sym")
    if pairs is not None and q.symmetric is not None and [q.weight_bits, q.symmetric] not in pairs:
        return (f"bits={q.weight_bits}, sym={str(q.symmetric).lower()} (it loads "
                f"{', '.join(f'{b}-bit sym={str(s).lower()}' for b, s in pairs)})")
    bits = rule.get("bits") or ([b for b, _ in pairs] if pairs else None)
    if bits is not None and q.weight_bits not in bits:
        return f"{q.weight_bits}-bit weights (it loads {', '.join(map(str, bits))}-bit)"
    groups = rule.get("group_sizes")
    if groups is not None and q.group_size is not None and q.group_size not in groups:
        return f"group_size {q.group_size} (Marlin runs {', '.join(map(str, groups))})"
    return None


def _short(text: str, limit: int = 40) -> str:
    """A model-controlled name cut to ``limit`` characters for a message."""
    return text if len(text) <= limit else text[:limit] + "…"


def engine_tp_size(engine: str, tp: int, dp: int = 1) -> int:
    """The tensor-parallel size ``engine`` is launched with for attention TP ``tp`` x attention DP ``dp``: SGLang's
    --tp-size counts every GPU of the attention-DP group (--attn-dp-size divides it); vLLM's is the TP degree."""
    return tp * dp if engine == "sglang" else tp


def checkpoint_tp_cap(arch: ModelArch, engine: str) -> int | None:
    """The largest TP ``engine`` loads ``arch``'s checkpoint at as stored, where its version caps it (rule Q10)."""
    q = arch.quantization
    if q is None or not q.method:
        return None
    return (checkpoint_method_rules(engine).get("max_tp") or {}).get(q.method.strip().lower())


#: weight precision id (data/precisions.json) -> the readiness format whose kernels serve it; bf16/fp16 need none
PRECISION_FORMAT = {"fp8": "fp8", "fp8_channel": "fp8", "fp8_block": "fp8_block", "int8": "int8", "nvfp4": "nvfp4",
                    "mxfp4": "mxfp4", "int4": "int4", "w8a16": "w8a16"}



def served_formats(arch: ModelArch, gemms: list[Gemm], precision: str) -> list[tuple[Gemm, str]]:
    """(GEMM, readiness format) for every GEMM whose quantized kernel serving ``arch`` at weight ``precision`` runs.

    Quantizing online (``precision`` is not the checkpoint's format): every conventionally quantized GEMM (rule Q7;
    not the lm_head) at ``precision``'s format. Serving the checkpoint as stored (``precision`` is its format): each
    GEMM at its own component's format (a mixed checkpoint's ``component_formats``); a component the checkpoint
    leaves 16-bit (no group quantizes it, or its ``ignore`` / ``exclude_modules`` / ``modules_to_not_convert``
    names it) runs no quantized kernel, so no kernel check applies to it. A gpt-oss ``quant_method: mxfp4``
    checkpoint quantizes its experts only (vLLM 0.33.0 Mxfp4Config; other layers stay BF16); online MXFP4
    (config/quantization.py: linear and moe) and compressed-tensors MXFP4 quantize the dense linears too. Empty for
    bf16/fp16 and unknown precisions."""
    fmt = PRECISION_FORMAT.get(precision)
    if fmt is None:
        return []
    q = arch.quantization
    return _kernel_formats(arch, gemms, fmt, q is not None and PRECISION_FORMAT.get(q.format, q.format) == fmt)


def _kernel_formats(arch: ModelArch, gemms: list[Gemm], fmt: str, as_stored: bool) -> list[tuple[Gemm, str]]:
    """:func:`served_formats` for readiness format ``fmt``, as the checkpoint stores it (``as_stored``: fp8_channel
    counts as the fp8 kernels) or quantized online."""
    quantizable = [g for g in gemms if g.quantizable and g.component != "lm_head"]
    has_experts = any(g.expert for g in quantizable)
    q = arch.quantization
    if as_stored:
        from .costmodel import excluded_components, excluded_projections, projection_excluded
        excluded = excluded_components(q.excluded, arch.layers)
        projections = excluded_projections(q.excluded, arch.layers)
    out = []
    for g in quantizable:
        gf = fmt
        if as_stored:
            if g.component in excluded or projection_excluded(g, projections):
                continue
            own = q.component_formats.get(g.component)
            if own in ("bf16", "fp16"):
                continue
            if own is not None:
                gf = PRECISION_FORMAT.get(own, fmt)  # a format without kernels here is checked as the main one
        if gf == "mxfp4" and has_experts and not g.expert and gpt_oss_mxfp4(arch, as_stored):
            continue
        out.append((g, gf))
    return out


_MISS = object()  # a memo miss (the memoized value may be None)
_BLOCKERS = ByteLRU("quant.engine_blocker", 2 * MIB)


def engine_blocker(arch: ModelArch, gemms: list[Gemm], precision: str, tp: int, engine: str, ep: int = 1,
                   moe_tp: int | None = None) -> str | None:
    """Why ``engine`` refuses to serve ``arch`` at weight ``precision`` on TP ``tp`` (the readiness matrix's
    ``not_ready``), or None when it runs (``ready`` or ``padded``).

    The same per-GEMM checks as :func:`readiness`: dense and attention GEMMs split over ``tp``; experts split over
    ``moe_tp`` (default ``tp``), or whole on each rank when ``ep`` > 1 with moe_tp 1. bf16/fp16 need no
    quantized kernel and always run. Memoized per (arch, precision, tp, engine, ep, moe_tp).
    """
    fmt = PRECISION_FORMAT.get(precision)
    if fmt is None or engine not in ENGINES:
        return None
    moe_tp = tp if moe_tp is None else moe_tp
    key = (id(arch), id(gemms), fmt, tp, engine, ep, moe_tp)
    hit = _BLOCKERS.get_for(arch, key, _MISS)
    if hit is not _MISS:  # None is a memoized "runs"
        return hit
    results = []
    q = arch.quantization
    as_stored = q is not None and PRECISION_FORMAT.get(q.format, q.format) == fmt
    kw = {"group": stored_group(arch, as_stored), "block": stored_block(arch, as_stored),
          "dense_mxfp4": not gpt_oss_mxfp4(arch, as_stored)}
    for g, gf in served_formats(arch, gemms, precision):
        if g.expert and ep > 1 and moe_tp == 1:
            results.append((check(gf, engine, g, tp, ep=True, **kw), gf))
        else:
            results.append((check(gf, engine, g, moe_tp if g.expert else tp, **kw), gf))
    worst = max(results, key=lambda r: ORDER[r[0][0]], default=(("ready", None), fmt))
    (status, reason), gf = worst
    out = None if status != "not_ready" else (
        f"{engine} refuses {precision} at TP{tp}{f' EP{ep}' if ep > 1 else ''}"
        f"{f' (experts split {moe_tp} ways over the DP ranks)' if moe_tp != tp and not (ep > 1 and moe_tp == 1) else ''}"
        f": {_tagged((status, reason), gf, fmt)[1]}{f' (rule {RULE[fmt]})' if gf == fmt else ''}")
    return _BLOCKERS.put_for(arch, key, out)
