"""Recurrent and convolutional mixers: Mamba2, gated delta-net, short convolution (LFM2)."""

from __future__ import annotations

from ..specs import GatedDeltaNetSpec, Mamba2Spec, ShortConvSpec
from . import LayerContext, mixer


def mamba2(ctx: LayerContext) -> Mamba2Spec:
    """Mamba2 mixer (transformers ``NemotronHMamba2Mixer`` / ``Mamba2Mixer`` layout)."""
    r, hidden = ctx.r, ctx.hidden
    n_heads = r.int("mamba_num_heads", required=False)
    head_dim = r.int("mamba_head_dim", required=False)
    if n_heads and head_dim:
        d_inner = n_heads * head_dim
    else:
        expand = r.int("mamba_expand", default=2)
        d_inner = expand * hidden
        head_dim = head_dim or 64
        n_heads = d_inner // head_dim
    return Mamba2Spec(
        d_inner=d_inner, n_heads=n_heads, head_dim=head_dim, n_groups=r.int("mamba_n_groups", default=1),
        d_state=r.int("mamba_d_state", default=128), conv_kernel=r.int("mamba_conv_kernel", default=4),
        conv_bias=bool(r.get("use_conv_bias", True)),
        proj_bias=bool(r.get("mamba_proj_bias", r.get("use_bias", False))))


def gated_deltanet(ctx: LayerContext) -> GatedDeltaNetSpec:
    """Gated delta-net linear attention (transformers ``Qwen3NextGatedDeltaNet`` layout)."""
    r = ctx.r
    return GatedDeltaNetSpec(num_k_heads=r.int("gdn_num_k_heads"), num_v_heads=r.int("gdn_num_v_heads"),
                             head_k_dim=r.int("gdn_head_k_dim"), head_v_dim=r.int("gdn_head_v_dim"),
                             conv_kernel=r.int("gdn_conv_kernel", default=4))


@mixer("linear_attention", "mamba", "mamba2", "hybrid")
def linear_mixer(ctx: LayerContext, index: int, kind: str) -> Mamba2Spec | GatedDeltaNetSpec:
    """``linear_attention`` means Mamba2 or gated delta-net, by the family (or by the keys present)."""
    which = ctx.flags["linear_attention"] or ("mamba2" if ctx.r.has("mamba_d_state") else "gated_deltanet")
    return mamba2(ctx) if which == "mamba2" else gated_deltanet(ctx)


@mixer("conv", "short_conv")
def short_conv(ctx: LayerContext, index: int, kind: str) -> ShortConvSpec:
    """LFM2 gated short convolution (transformers ``Lfm2ShortConv``): in_proj hidden -> 3*hidden,
    a depthwise Conv1d of ``conv_L_cache`` taps over hidden channels, out_proj hidden -> hidden;
    the per-sequence state is the last ``conv_L_cache - 1`` inputs of every channel."""
    r = ctx.r
    return ShortConvSpec(channels=ctx.hidden, kernel=r.int("conv_kernel_cache", default=3),
                         bias=bool(r.get("conv_bias", False)))
