"""Recurrent and convolutional mixers: Mamba2, gated delta-net, short convolution (LFM2)."""

from __future__ import annotations

from ..specs import (GatedDeltaNetSpec, KDASpec, LightningAttentionSpec, Mamba1Spec, Mamba2Spec, MLSTMSpec,
                     RGLRUSpec, RwkvSpec, ShortConvSpec)
from . import LayerContext, mixer


def mamba2(ctx: LayerContext) -> Mamba2Spec:
    """Mamba2 mixer (transformers ``NemotronHMamba2Mixer`` / ``Mamba2Mixer`` layout)."""
    r, hidden = ctx.r, ctx.hidden
    names = ctx.flags.get("mamba_key_names") or {}  # a family's own names of the Mamba2 keys (mamba2: num_heads)
    n_heads = r.int(names.get("mamba_num_heads", "mamba_num_heads"), required=False)
    head_dim = r.int(names.get("mamba_head_dim", "mamba_head_dim"), required=False)
    d_ssm = r.int(ctx.flags["mamba_d_inner_key"], required=False) if ctx.flags.get("mamba_d_inner_key") else None
    if d_ssm:  # FalconH1Mixer: mamba_d_ssm overrides expand * hidden
        d_inner = d_ssm
        r.mark(names.get("mamba_expand", "mamba_expand"), "mamba_expand", "expand")
    elif ctx.flags["mamba_d_inner"] == "expand" and n_heads and head_dim:
        # BambaMixer / Mamba2Mixer / Zamba2MambaMixer / GraniteMoeHybridMambaLayer: intermediate_size =
        # int(expand * hidden), whatever mamba_n_heads * mamba_d_head says
        d_inner = int(r.get("mamba_expand", 2) * hidden)
    elif n_heads and head_dim:
        d_inner = n_heads * head_dim
    else:
        expand = r.int("mamba_expand", default=2)
        d_inner = expand * hidden
        head_dim = head_dim or 64
        n_heads = d_inner // head_dim
    return Mamba2Spec(
        d_inner=d_inner, n_heads=n_heads, head_dim=head_dim, n_groups=r.int("mamba_n_groups", default=1),
        d_state=r.int("mamba_d_state", default=128), conv_kernel=r.int("mamba_conv_kernel", default=4),
        conv_bias=bool(r.get("mamba_conv_bias", True)), proj_bias=_proj_bias(ctx))


def _proj_bias(ctx: LayerContext) -> bool:
    """in_proj / out_proj bias: the family's key (NemotronHMamba2Mixer reads use_bias while NemotronHConfig also
    carries an unread mamba_proj_bias), else mamba_proj_bias, else use_bias."""
    r, key = ctx.r, ctx.flags.get("mamba_proj_bias_key")
    if key:
        return bool(r.get(key, False))
    return bool(r.get("mamba_proj_bias", r.get("use_bias", False)))


def gated_deltanet(ctx: LayerContext) -> GatedDeltaNetSpec:
    """Gated delta-net linear attention (transformers ``Qwen3NextGatedDeltaNet`` layout)."""
    r = ctx.r
    return GatedDeltaNetSpec(num_k_heads=r.int("gdn_num_k_heads"), num_v_heads=r.int("gdn_num_v_heads"),
                             head_k_dim=r.int("gdn_head_k_dim"), head_v_dim=r.int("gdn_head_v_dim"),
                             conv_kernel=r.int("gdn_conv_kernel", default=4))


def mamba1(ctx: LayerContext) -> Mamba1Spec:
    """Mamba selective SSM (transformers ``MambaMixer``; FalconMamba's dt/B/C norms have no weights, Jamba's
    ``JambaMambaMixer`` has RMSNorm weights on them: family flag ``mamba_inner_norms``). Inner width:
    ``intermediate_size`` (MambaConfig) or ``mamba_expand * hidden`` (Jamba, Zamba), by ``mamba_d_inner``."""
    r, hidden = ctx.r, ctx.hidden
    if ctx.flags["mamba_d_inner"] == "intermediate":
        d_inner = r.int("intermediate_size")
        r.mark("expand")  # MambaConfig derives intermediate_size from it
    else:
        d_inner = r.int("mamba_expand", default=2) * hidden
    return Mamba1Spec(d_inner=d_inner, d_state=r.int("mamba_d_state", default=16),
                      conv_kernel=r.int("mamba_conv_kernel", default=4), dt_rank=r.int("mamba_dt_rank"),
                      conv_bias=bool(r.get("mamba_conv_bias", True)),
                      proj_bias=_proj_bias(ctx),
                      inner_norms=bool(ctx.flags["mamba_inner_norms"]))


@mixer("linear_attention", "mamba", "mamba2", "hybrid")
def linear_mixer(ctx: LayerContext, index: int, kind: str) -> Mamba2Spec | GatedDeltaNetSpec | Mamba1Spec:
    """``linear_attention`` means Mamba2, Mamba (``mamba1``) or gated delta-net, by the family (or by the keys
    present)."""
    which = ctx.flags["linear_attention"] or ("mamba2" if ctx.r.has("mamba_d_state") else "gated_deltanet")
    if which == "mamba1":
        return mamba1(ctx)
    return mamba2(ctx) if which == "mamba2" else gated_deltanet(ctx)


@mixer("conv", "short_conv")
def short_conv(ctx: LayerContext, index: int, kind: str) -> ShortConvSpec:
    """LFM2 gated short convolution (transformers ``Lfm2ShortConv``): in_proj hidden -> 3*hidden,
    a depthwise Conv1d of ``conv_L_cache`` taps over hidden channels, out_proj hidden -> hidden;
    the per-sequence state is the last ``conv_L_cache - 1`` inputs of every channel."""
    r = ctx.r
    return ShortConvSpec(channels=ctx.hidden, kernel=r.int("conv_kernel_cache", default=3),
                         bias=bool(r.get("conv_bias", False)))


@mixer("lightning_attention")
def lightning_attention(ctx: LayerContext, index: int, kind: str) -> LightningAttentionSpec:
    """MiniMax lightning attention (transformers ``MiniMaxLightningAttention``): the model's heads and head size;
    block_size is the kernel's tile (no shape)."""
    ctx.r.mark("block_size")
    return LightningAttentionSpec(num_heads=ctx.heads, head_dim=ctx.head_dim)


@mixer("rwkv")
def rwkv(ctx: LayerContext, index: int, kind: str) -> RwkvSpec:
    """An RWKV block: time mixing and channel mixing (RwkvConfig: attention_hidden_size and intermediate_size
    default to hidden and 4 * hidden)."""
    r, h = ctx.r, ctx.hidden
    return RwkvSpec(hidden=h, attention_hidden=r.int("attention_hidden_size", default=h),
                    intermediate=r.int("intermediate_size", default=4 * h))


@mixer("kda")
def kda(ctx: LayerContext, index: int, kind: str) -> KDASpec:
    """Kimi delta attention: linear_num_heads x linear_head_dim, linear_conv_kernel_dim taps; the gates' low rank
    is the head size under the family flag ``kda_gate_rank`` ("head_dim": Kimi Linear), else full-width."""
    r = ctx.r
    d = r.int("linear_head_dim")
    return KDASpec(num_heads=r.int("linear_num_heads"), head_dim=d,
                   conv_kernel=r.int("gdn_conv_kernel", default=4),
                   gate_rank=d if ctx.flags.get("kda_gate_rank") == "head_dim" else 0)


@mixer("rg_lru")
def rg_lru(ctx: LayerContext, index: int, kind: str) -> RGLRUSpec:
    """RecurrentGemma's recurrent block: lru_width (default hidden), the attention heads split the RG-LRU gates,
    conv1d_width taps."""
    r = ctx.r
    return RGLRUSpec(width=r.int("lru_width", default=ctx.hidden), heads=ctx.heads,
                     conv_kernel=r.int("conv1d_width", default=4))


@mixer("mlstm")
def mlstm(ctx: LayerContext, index: int, kind: str) -> MLSTMSpec:
    """xLSTM's mLSTM layer: num_heads; qk_dim / v_dim = hidden * qk_dim_factor / v_dim_factor rounded up to a
    multiple of 64 (xLSTMConfig.qk_dim / v_dim); use_bias."""
    r, h = ctx.r, ctx.hidden
    qk = int(((h * float(r.get("qk_dim_factor", 0.5)) + 63) // 64) * 64)  # round_up_to_next_multiple_of
    v = int(((h * float(r.get("v_dim_factor", 1.0)) + 63) // 64) * 64)
    return MLSTMSpec(num_heads=r.int("num_heads"), qk_dim=qk, v_dim=v, bias=bool(r.get("use_bias", False)))
