"""Family hooks of the "MoE and hybrids" group: modules of a block the generic specs do not hold.

Each hook is a :class:`~scorer.architecture.assemble.FamilyHook` ``finish`` step: it reads its keys through the
reader (consumed like every other reader's) and puts the extra parameters in ``LayerSpec.extra_params``.
"""

from __future__ import annotations

from typing import Any

from ..reader import Reader
from ..specs import AttentionSpec, LayerSpec


def doge_finish(r: Reader, layers: list[LayerSpec], dims: dict[str, Any]) -> tuple[list[LayerSpec], dict[str, int]]:
    """Doge (transformers ``DogeAttention``): dynamic-mask attention adds ``A`` (one value per KV head) and
    ``dt_proj`` (num_kv_heads*head_dim -> num_kv_heads, bias when attention_bias) to every attention block;
    ``keep_window_size`` is the mask's top-k at run time (no shape); the per-layer ``input_residual`` and
    ``post_attention_residual`` vectors are counted as norms (family flag norms_per_layer = 4)."""
    r.mark("keep_window_size")
    out = []
    for lay in layers:
        m = lay.mixer
        if isinstance(m, AttentionSpec):
            kv, hd = m.num_kv_heads, m.head_dim
            extra = kv + kv * hd * kv + (kv if m.qkv_bias else 0)
            lay = lay.model_copy(update={"extra_params": {**lay.extra_params, "attention": extra}})
        out.append(lay)
    return out, {}
