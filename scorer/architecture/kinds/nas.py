"""Heterogeneous NAS blocks (DeciLM / Llama-Nemotron ``block_configs``): per-block attention and FFN widths."""

from __future__ import annotations

from typing import Any

from ...errors import ConfigError
from ..reader import LIMITS, Reader, check_int
from ..specs import AttentionSpec, DenseMLP, LayerSpec, LinearMixerSpec
from .ffn import activation


def nas_layers(r: Reader, flags: dict[str, Any], hidden: int, heads: int, head_dim: int) -> list[LayerSpec]:
    """Heterogeneous NAS blocks (DeciLM / Llama-Nemotron): per-block attention and FFN widths."""
    layers = []
    blocks = r.raw["block_configs"]
    if not blocks or len(blocks) > LIMITS["num_layers"]:
        raise ConfigError(f"{r.where}: block_configs must hold 1 to {LIMITS['num_layers']} blocks, has {len(blocks)}")
    for i, block in enumerate(blocks):
        if not isinstance(block, dict):
            raise ConfigError(f"{r.where}: block_configs[{i}] must be an object")
        att = block.get("attention") or {}
        ffn = block.get("ffn") or {}
        if not isinstance(att, dict) or not isinstance(ffn, dict):
            raise ConfigError(f"{r.where}: block_configs[{i}].attention and .ffn must be objects")
        norms = 0
        mixer: Any = None
        if not att.get("no_op"):
            norms += 1
            if att.get("replace_with_linear"):
                mixer = LinearMixerSpec()
            else:
                group = check_int(att.get("n_heads_in_group"), f"block_configs[{i}].attention.n_heads_in_group",
                                  r.where)
                if heads % group:
                    raise ConfigError(f"{r.where}: block_configs[{i}]: {heads} heads not divisible by group {group}")
                mixer = AttentionSpec(num_heads=heads, num_kv_heads=heads // group, head_dim=head_dim,
                                      v_head_dim=head_dim, qkv_bias=r.flag(flags["qkv_bias"]),
                                      o_bias=r.flag(flags["o_bias"]))
        mlp = None
        if not ffn.get("no_op"):
            norms += 1
            if ffn.get("replace_with_linear"):
                mlp = DenseMLP(intermediate=hidden, gated=False, replace_with_linear=True)
            else:
                mult = ffn.get("ffn_mult")
                if not isinstance(mult, (int, float)) or isinstance(mult, bool) or not 0 < mult <= 1000:
                    raise ConfigError(f"{r.where}: block_configs[{i}].ffn.ffn_mult must be a number in (0, 1000]")
                # DeciLM's _ffn_mult_to_intermediate_size: int(2*mult*hidden/3) rounded up to a multiple of 256
                width = int(2 * mult * hidden / 3)
                width = check_int(-(-width // 256) * 256, f"block_configs[{i}] FFN width", r.where,
                                  limit=LIMITS["intermediate_size"])
                mlp = DenseMLP(intermediate=width, gated=True, bias=r.flag(flags["mlp_bias"]),
                               activation=activation(r))
        layers.append(LayerSpec(index=i, mixer=mixer, ffn=mlp, num_norms=norms))
    if all(lay.mixer is None and lay.ffn is None for lay in layers):
        raise ConfigError(f"{r.where}: every block in block_configs is a no-op")
    return layers
