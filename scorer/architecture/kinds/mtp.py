"""Multi-token-prediction (next-n) modules, counted apart from the main model (``params.mtp``).

No transformers class instantiates them (5.x: DeepSeek-V3/V3.2, GLM-4.5/4.7/5 and DeepSeek-V4 list the
checkpoint's MTP tensors in ``_keys_to_ignore_on_load_unexpected``), so the layout is the checkpoint's: what the
safetensors store per MTP layer (family flag ``mtp_layout``):

* ``deepseek_v3`` (default; DeepSeek-V3/R1/V3.2, Kimi-K2, GLM-4.5/4.7/5): ``model.layers.{L+i}.*`` — a decoder
  block like the last one, ``eh_proj`` (2h -> h, no bias), ``enorm``, ``hnorm``, ``shared_head.norm``; with the
  family flag ``mtp_copies`` also ``embed_tokens`` (vocab x h) and ``shared_head.head`` (vocab x h), copies of
  the main model's embedding and lm_head that engines share with it (listed in ``MTPSpec.copies``). Qwen3-Next's
  ``mtp.fc`` / ``pre_fc_norm_*`` / ``mtp.norm`` have the same shapes, without copies.
* ``deepseek_v4`` (DeepSeek-V4 ``mtp.{i}.*``, after DeepSeek's reference ``MTPBlock``): a block like the last
  decoder layer (attention, MoE, its two hyper-connections), ``e_proj`` and ``h_proj`` (h x h each), ``enorm``,
  ``hnorm``, ``norm`` and its own hyper-head (``hc_head_fn`` n x n·h, ``hc_head_base`` n, ``hc_head_scale``
  1); the embedding and head are the main model's, not stored again. Assumption: the MTP block's attention
  kind is the last decoder layer's (the config class keeps only the first ``num_hidden_layers`` entries of
  a longer legacy ``compress_ratios``).
"""

from __future__ import annotations

from typing import Any

from ..reader import LIMITS, Reader, check_int
from ..specs import LayerSpec, MTPSpec
from .deepseek import hyper_connection_params


def mtp_module(r: Reader, layers: list[LayerSpec], hidden: int, vocab: int,
               flags: dict[str, Any] | None = None) -> MTPSpec | None:
    """The next-n layers a config declares (``num_nextn_predict_layers`` and aliases), else None."""
    flags = flags or {}
    n_mtp = r.get_any("mtp_layers")  # the checkpoint's MTP modules, which transformers does not build
    if n_mtp is None and flags.get("mtp_default_layers"):  # the engines build them without a count (qwen3_next)
        n_mtp = int(flags["mtp_default_layers"])
    if n_mtp is not None and n_mtp is not False:  # a count of modules: 0 (or false) means none
        n_mtp = check_int(n_mtp, r.key_name("mtp_layers"), r.where, minimum=0, limit=LIMITS["mtp_layers"])
    if not (n_mtp and layers):
        # no MTP module: the keys that would shape one (NemotronH's mtp_layers_block_type, ...) shape nothing
        r.mark(*(k for k in r.raw if isinstance(k, str) and k.startswith(("mtp_", "nextn_"))))
        return None
    last = layers[-1].model_copy(update={"index": len(layers)})
    h = hidden
    copies: list[str] = []
    if flags.get("mtp_layout") == "deepseek_v4":
        _, head = hyper_connection_params(h, r.int("hc_mult"))
        extra = {"e_proj": h * h, "h_proj": h * h, "enorm": h, "hnorm": h, "norm": h, "hc_head": head}
    else:
        extra = {"eh_proj": 2 * h * h, "enorm": h, "hnorm": h, "shared_head_norm": h}
        if flags.get("mtp_copies"):
            extra |= {"embed_tokens": vocab * h, "shared_head_head": vocab * h}
            copies = ["embed_tokens", "shared_head_head"]
    return MTPSpec(num_layers=n_mtp, layer=last, extra_params_per_layer=extra, copies=copies)
