"""Multi-token-prediction (next-n) modules, counted apart from the main model (``params.mtp``)."""

from __future__ import annotations

from ..reader import Reader
from ..specs import LayerSpec, MTPSpec


def mtp_module(r: Reader, layers: list[LayerSpec], hidden: int) -> MTPSpec | None:
    """DeepSeek-V3-style next-n layers: a copy of the last decoder block plus ``eh_proj`` (2h -> h),
    ``enorm``, ``hnorm`` and the shared head's norm; embedding and lm_head shared with the main model."""
    n_mtp = r.get("mtp_layers")
    if not (isinstance(n_mtp, int) and not isinstance(n_mtp, bool) and n_mtp > 0 and layers):
        return None
    last = layers[-1].model_copy(update={"index": len(layers)})
    return MTPSpec(num_layers=n_mtp, layer=last, extra_params_per_layer={
        "eh_proj": 2 * hidden * hidden, "enorm": hidden, "hnorm": hidden, "shared_head_norm": hidden})
