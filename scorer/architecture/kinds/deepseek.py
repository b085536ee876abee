"""DeepSeek-V4 (compressed attention kinds, manifold-constrained hyper-connections) and LongCat-Flash's
dual-sublayer blocks (:func:`longcat_finish`): DeepSeek-derived layouts the generic loop does not know.

Layer kinds (``layer_types`` of transformers ``DeepseekV4Config``), each read as a
:class:`~scorer.architecture.specs.CompressedAttentionSpec`:

* ``sliding_attention`` — read through the family's ``layer_kind_aliases`` flag as
  ``deepseek_v4_sliding_attention`` (plain ``sliding_attention`` is softmax attention elsewhere): the
  shared-KV window only;
* ``compressed_sparse_attention`` (CSA) — ``compress_rates["compressed_sparse_attention"]`` (m = 4) and the
  lightning indexer (``index_n_heads``, ``index_head_dim``, ``index_topk``);
* ``heavily_compressed_attention`` (HCA) — ``compress_rates["heavily_compressed_attention"]`` (m' = 128).

Parameter layout (transformers 5.x ``modeling_deepseek_v4.py``), per layer:

* ``DeepseekV4Attention``: ``q_a_proj`` (h x q_lora), ``q_a_norm`` (q_lora), ``q_b_proj`` (q_lora x H·D),
  ``kv_proj`` (h x D), ``kv_norm`` (D), ``o_a_proj`` (``DeepseekV4GroupedLinear``: o_groups·o_lora x H·D/o_groups),
  ``o_b_proj`` (o_groups·o_lora x h), ``sinks`` (H); no biases;
* ``DeepseekV4HCACompressor``: ``kv_proj`` and ``gate_proj`` (h x D each), ``position_bias`` (m' x D),
  ``kv_norm`` (D);
* ``DeepseekV4CSACompressor``: ``kv_proj`` and ``gate_proj`` (h x 2D each: the overlapping Ca/Cb series),
  ``position_bias`` (m x 2D), ``kv_norm`` (D), and ``DeepseekV4Indexer``: ``kv_proj`` / ``gate_proj``
  (h x 2d each), ``position_bias`` (m x 2d), ``kv_norm`` (d), ``q_b_proj`` (q_lora x n_I·d),
  ``scorer.weights_proj`` (h x n_I), with d = index_head_dim, n_I = index_n_heads;
* ``DeepseekV4SparseMoeBlock`` on every layer: router ``weight`` (E x h; ``hash_moe`` layers route by the
  ``tid2eid`` buffer, not a parameter), experts, and one shared ``DeepseekV4MLP`` of ``moe_intermediate_size``
  (``n_shared_experts`` is not read by the modeling code) with ``mlp_bias``;
* two ``DeepseekV4HyperConnection`` (``attn_hc``, ``ffn_hc``): ``fn`` ((2+n)·n x n·h), ``base`` ((2+n)·n),
  ``scale`` (3), n = ``hc_mult``; two hidden-size norms.

``DeepseekV4Model`` adds ``hc_head`` (``DeepseekV4HyperHead``: ``hc_fn`` n x n·h, ``hc_base`` n, ``hc_scale`` 1).
The hyper-connection weights count under the ``norms`` component (small, always-active, float32 mixing
weights beside the block's norms; they are not GEMMs an engine shards).
"""

from __future__ import annotations

from typing import Any

from ...errors import ConfigError
from ..reader import Reader, check_int
from ..specs import CompressedAttentionSpec, IndexerSpec, LayerSpec
from . import LayerContext, mixer

#: layer type -> compression
COMPRESSION = {"deepseek_v4_sliding_attention": "sliding", "compressed_sparse_attention": "csa",
               "heavily_compressed_attention": "hca"}
#: legacy top-level rates the config class folds into ``compress_rates`` (raw-key fallback)
LEGACY_RATES = {"compressed_sparse_attention": "compress_rate_csa", "heavily_compressed_attention": "compress_rate_hca"}


def _rate(ctx: LayerContext, kind: str) -> int:
    r = ctx.r
    rates = r.get("compress_rates")
    if isinstance(rates, dict) and kind in rates:
        return check_int(rates[kind], f"compress_rates[{kind!r}]", r.where)
    legacy = r.raw_get(LEGACY_RATES[kind])
    if legacy is not None:
        return check_int(legacy, LEGACY_RATES[kind], r.where)
    raise ConfigError(f"{r.where}: missing compress_rates[{kind!r}] (the compression rate of layer type {kind})")


@mixer(*COMPRESSION)
def compressed_attention(ctx: LayerContext, index: int, kind: str) -> CompressedAttentionSpec:
    """One DeepSeek-V4 attention layer (see the module docstring)."""
    r = ctx.r
    if r.cfg is not None:  # legacy keys the config class folded into layer_types / compress_rates / mlp_layer_types
        r.mark("compress_ratios", "compress_rate_csa", "compress_rate_hca", "num_hash_layers")
    comp = COMPRESSION[kind]
    if ctx.sliding is None:
        raise ConfigError(f"{r.where}: missing sliding_window (every DeepSeek-V4 attention layer keeps a window)")
    heads, head_dim = ctx.heads, ctx.head_dim
    o_groups = r.int("o_groups")
    if (heads * head_dim) % o_groups:
        raise ConfigError(f"{r.where}: o_groups = {o_groups} does not divide the {heads} x {head_dim} attention "
                          "output")
    rope = r.get("qk_rope_head_dim")
    if rope is None:
        factor = r.get("partial_rotary_factor")
        rope = int(head_dim * factor) if isinstance(factor, (int, float)) and not isinstance(factor, bool) else 0
    q_lora = r.int("q_lora_rank")
    indexer = None
    if comp == "csa":
        indexer = IndexerSpec(num_heads=r.int("index_n_heads"), head_dim=r.int("index_head_dim"),
                              top_k=r.int("index_topk"), q_lora_rank=q_lora)
    return CompressedAttentionSpec(
        compression=comp, compress_rate=_rate(ctx, kind) if comp != "sliding" else 0, window=ctx.sliding,
        num_heads=heads, head_dim=head_dim, rope_head_dim=check_int(rope, "qk_rope_head_dim", r.where, minimum=0),
        q_lora_rank=q_lora, o_groups=o_groups, o_lora_rank=r.int("o_lora_rank"), indexer=indexer)


def hyper_connection_params(hidden: int, n: int) -> tuple[int, int]:
    """(one ``DeepseekV4HyperConnection``, the model's ``DeepseekV4HyperHead``) parameters for hc_mult n."""
    mix = (2 + n) * n
    return mix * n * hidden + mix + 3, n * n * hidden + n + 1


def v4_finish(r: Reader, layers: list[LayerSpec], d: dict[str, Any]) -> tuple[list[LayerSpec], dict[str, int]]:
    """FamilyHook.finish of ``deepseek_v4``: two hyper-connections per block, the hyper-head of the model."""
    n = r.int("hc_mult")
    block, head = hyper_connection_params(d["hidden"], n)
    out = [lay.model_copy(update={"extra_params": {**lay.extra_params,
                                                   "norms": lay.extra_params.get("norms", 0) + 2 * block}})
           for lay in layers]
    return out, {"norms": head}


def longcat_finish(r: Reader, layers: list[LayerSpec], d: dict[str, Any]) -> tuple[list[LayerSpec], dict[str, int]]:
    """FamilyHook.finish of ``longcat_flash`` (transformers ``LongcatFlashDecoderLayer``): each of the
    ``num_layers`` logical layers holds two MLA sublayers, each with a dense ``LongcatFlashMLP``
    (``ffn_hidden_size``) and two norms, plus one shortcut ``LongcatFlashMoE`` fed from the first sublayer: routed
    experts (``expert_ffn_hidden_size``), no shared expert, a router (``classifier``, bias if ``router_bias``)
    over the ``n_routed_experts`` plus ``zero_expert_num`` identity experts. ``num_hidden_layers`` (the config
    property 2 x num_layers) gives the generic loop the 2·num_layers MLA sublayers; here each pair gets its dense
    MLPs and an FFN-only layer for the MoE between them (so ``ModelArch.layers`` has 3·num_layers entries, the
    MoE ones without a mixer, as Nemotron-H's MLP layers).

    The zero experts are identities without weights: E routed experts are counted, as the checkpoint stores
    them and transformers 5.25's ``LongcatFlashExperts`` allocates them (``n_routed_experts`` rows); 5.24, on which
    the meta-oracle sweep ran, allocated ``gate_up_proj`` for E + Z (tests/test_oracle_sweep ORACLE_OVERCOUNT).
    Active counts the expected real experts a token meets, ``moe_topk`` x E / (E + Z) (picks that land on identity
    experts cost nothing; tests/test_zero_experts), not the upper bound ``moe_topk``.
    """
    from ..specs import DenseMLP, MoEMLP
    from .ffn import dense_mlp
    r.mark("num_layers")  # read through the config's num_hidden_layers property (2 x num_layers)
    if len(layers) % 2:
        raise ConfigError(f"{r.where}: LongCat-Flash needs 2 x num_layers sublayers, got {len(layers)}")
    n_logical = len(layers) // 2
    moe = next((lay.ffn for lay in layers if isinstance(lay.ffn, MoEMLP)), None)
    if moe is None:
        return layers, {}
    zero = r.int("zero_expert_num", required=False, minimum=0) or 0
    moe = moe.model_copy(update={"zero_experts": zero, "shared": None, "shared_gate": False,
                                 "router_bias": bool(r.raw_get("router_bias", False))})
    flags: dict[str, Any] = {"mlp_gated": True, "mlp_bias": False}
    dense: DenseMLP = dense_mlp(r, flags, r.int("intermediate_size"))
    out: list[LayerSpec] = []
    for i in range(n_logical):
        first, second = layers[2 * i], layers[2 * i + 1]
        out.append(first.model_copy(update={"index": len(out), "ffn": dense}))
        out.append(LayerSpec(index=len(out), mixer=None, ffn=moe, num_norms=0))
        out.append(second.model_copy(update={"index": len(out), "ffn": dense}))
    return out, {}


def mistral_large4_finish(r: Reader, layers: list[LayerSpec], d: dict[str, Any]
                          ) -> tuple[list[LayerSpec], dict[str, int]]:
    """FamilyHook.finish of ``mistral_large4_text``: ``MistralLarge4TextRotaryEmbedding`` learns ``alpha``, one
    float per rotary frequency (qk_rope_head_dim / 2, counted under attention); the layers are read by
    :func:`scorer.architecture.kinds.attention._mistral_large4`."""
    rope = r.int("qk_rope_head_dim", minimum=0) or 0
    return layers, {"attention": (rope + 1) // 2}
