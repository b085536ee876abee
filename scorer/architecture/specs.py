"""The normalized architecture: per-layer specs and :class:`ModelArch` (sizes in elements, never bytes).

Every analysis (params, KV cache, GEMMs, fit, quantization readiness, the cost model) reads these
objects only; family knowledge stays in the readers of :mod:`scorer.architecture.kinds`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

class SparseSelection(BaseModel):
    """A weight-less top-k key selection in front of softmax attention (Kolibri 1.1's ``Kolibri1_1Indexer``).

    Each query attends to the ``top_k`` keys of its pool that score highest (all of the pool when ``top_k`` exceeds
    it), plus the first ``sink`` and the last ``local`` tokens; a query that sees no more than :attr:`attended` keys
    attends to all of them. The
    scores are the ReLU of ``scoring_heads`` query heads against KV head 0's keys. A ``pool_source`` layer picks
    the pool: the ``pool_size // compression`` blocks of ``compression`` keys whose averaged key scores highest
    (every key when the context is at most ``pool_size``); the other layers rescore the pool of the nearest
    preceding pool source. The cache still holds every token's keys and values."""

    model_config = ConfigDict(frozen=True)  # hashable: mixers are grouped by their field values

    top_k: int
    sink: int
    local: int
    pool_size: int
    compression: int
    scoring_heads: int
    pool_source: bool

    @property
    def attended(self) -> int:
        """Keys a query past the budget attends to (tokens): the top-k are chosen from the pool only
        (``Kolibri1_1Indexer.select_tokens``), so at most ``pool_size`` of them."""
        return min(self.top_k, self.pool_size) + self.sink + self.local


def kv_heads_per_gpu(num_kv_heads: int, tp: int) -> int:
    """KV heads each GPU holds at a TP degree (>= 1: heads are replicated when TP > num_kv_heads)."""
    return max(1, num_kv_heads // tp)


class AttentionSpec(BaseModel):
    """Softmax attention (MHA, GQA or MQA). Widths: q = num_heads*head_dim, k = num_kv_heads*head_dim,
    v = num_kv_heads*v_head_dim, o input = num_heads*v_head_dim."""

    kind: Literal["attention"] = "attention"
    span: Literal["full", "sliding", "chunked"] = "full"
    window: int | None = Field(None, description="sliding window or chunk size, tokens")
    num_heads: int
    num_kv_heads: int
    head_dim: int
    v_head_dim: int
    qkv_bias: bool = False
    o_bias: bool = False
    qk_norm: Literal["none", "head", "full"] = "none"
    qk_norm_bias: bool = False
    output_gate: bool = False
    gate_bias: bool | None = Field(None, description="the output gate's bias when it is a projection of its own "
                                                     "(AfMoE, Beam, Dory: gate_proj bias=False); None: fused into "
                                                     "q_proj (Qwen3-Next), which has qkv_bias")
    sinks: bool = False
    kv_shared: bool = Field(False, description="reuses an earlier layer's keys and values (gemma-3n / Gemma 4 KV "
                                               "sharing): no KV cache, k/v projections or k norm of its own")
    k_eq_v: bool = Field(False, description="values come from the key projection (Gemma 4 attention_k_eq_v): no "
                                            "v_proj; the cache still holds K and V (V is normalized, K rotated)")
    relative_bias_buckets: int = Field(0, description="T5 relative-position bias table rows (first layer only)")
    side_state_elements: int = Field(0, description="per-sequence state beside the KV cache, elements at the model "
                                                    "dtype, whatever the context (ZAYA CCA: the q/k convolution's "
                                                    "last taps and the previous token's delayed value)")
    selection: SparseSelection | None = Field(None, description="a weight-less top-k key selection (Kolibri 1.1 "
                                                                "indexed attention): the keys each query attends")
    index_kv_heads: int = Field(0, description="heads of a weighted indexer's own per-token key, cached beside K "
                                               "and V (Qwen4-Exp QSA: indexer_kv_heads); 0: none")
    index_head_dim: int = Field(0, description="width of each indexer key head (Qwen4-Exp indexer_head_dim)")
    index_heads: int = Field(0, description="query heads of that indexer, which score every cached index key "
                                            "(Qwen4-Exp indexer_n_heads)")

    def kv_elements_per_token(self, tp: int = 1) -> int:
        """Cache elements one token adds to this layer on one of ``tp`` GPUs: its K and V heads on that GPU
        (a KV head is replicated when there are fewer than ``tp``) plus the indexer's key heads, likewise;
        0 for a layer reading an earlier layer's cache (``kv_shared``)."""
        if self.kv_shared:
            return 0
        index = kv_heads_per_gpu(self.index_kv_heads, tp) * self.index_head_dim if self.index_kv_heads else 0
        return kv_heads_per_gpu(self.num_kv_heads, tp) * (self.head_dim + self.v_head_dim) + index


class IndexerSpec(BaseModel):
    """DeepSeek sparse attention's lightning indexer: its own per-token key of ``head_dim`` values."""

    model_config = ConfigDict(frozen=True)  # hashable: mixers are grouped by their field values

    num_heads: int
    head_dim: int
    top_k: int = Field(description="tokens each query attends to (index_topk)")
    q_lora_rank: int
    shared: bool = Field(False, description="reuses the previous full layer's top-k selection (GLM-5 "
                                            "indexer_types 'shared'): no indexer weights and no indexer key cache")
    input_norm: bool = Field(False, description="queries from the hidden state through a LayerNorm (q_input_norm) "
                                                "and a per-head softmax scaling (Mistral Large 4); q_lora_rank is "
                                                "then the hidden size")


class MLASpec(BaseModel):
    """DeepSeek multi-head latent attention. The KV cache holds kv_lora_rank + qk_rope_head_dim values."""

    kind: Literal["mla"] = "mla"
    span: Literal["full", "sliding", "chunked"] = "full"
    window: int | None = None
    num_heads: int
    q_lora_rank: int | None
    kv_lora_rank: int
    qk_nope_head_dim: int
    qk_rope_head_dim: int
    v_head_dim: int
    qkv_bias: bool = False
    o_bias: bool = False
    indexer: IndexerSpec | None = Field(None, description="DeepSeek sparse attention indexer, if any")
    kv_shared: bool = Field(False, description="attends an earlier layer's latent cache (Mistral Large 4 "
                                               "kv_source_layers): no kv_a_proj_with_mqa / kv_a_layernorm, no latent "
                                               "cache of its own")
    softmax_scaling: bool = Field(False, description="per-head log-position query scaling (scale and bias per "
                                                     "head, Mistral Large 4)")

    @property
    def head_dim(self) -> int:
        return self.qk_nope_head_dim + self.qk_rope_head_dim

    @property
    def num_kv_heads(self) -> int:  # the latent is one shared "head"
        return 1


class CompressedAttentionSpec(BaseModel):
    """DeepSeek-V4 attention (transformers ``DeepseekV4Attention``): shared-KV multi-query attention (one
    ``head_dim`` head read as both key and value) over a sliding window of the last ``window`` tokens, plus, on
    compressed layers, a compressor that folds every ``compress_rate`` tokens into one cached entry:

    * ``sliding`` (``sliding_attention``): the window only;
    * ``csa`` (``compressed_sparse_attention``, rate m = 4 by default): overlapping windows compressed to one
      ``head_dim`` entry per m tokens, of which a lightning ``indexer`` (its own compressor at ``index_head_dim``)
      picks ``index_topk`` entries per query;
    * ``hca`` (``heavily_compressed_attention``, rate m' = 128): one entry per m' tokens, all of them attended.

    Queries go through a low-rank ``q_a_proj`` / ``q_b_proj``; the output through a grouped low-rank projection
    (``o_groups`` blocks of heads*head_dim/o_groups -> ``o_lora_rank``, then o_groups*o_lora_rank -> hidden); a
    learned sink logit per head."""

    kind: Literal["compressed_attention"] = "compressed_attention"
    compression: Literal["sliding", "csa", "hca"]
    compress_rate: int = Field(0, description="source tokens per compressed entry (0: sliding window only)")
    window: int = Field(description="sliding window of uncompressed keys every layer keeps (sliding_window)")
    num_heads: int
    head_dim: int
    rope_head_dim: int
    q_lora_rank: int
    o_groups: int
    o_lora_rank: int
    indexer: IndexerSpec | None = Field(None, description="CSA's lightning indexer (top_k = compressed entries "
                                                          "per query)")

    @property
    def num_kv_heads(self) -> int:  # shared-KV MQA: one head, keys = values
        return 1

    @property
    def v_head_dim(self) -> int:
        return self.head_dim

    @property
    def sinks(self) -> bool:
        return True

    @property
    def span(self) -> str:
        return "sliding" if self.compression == "sliding" else "full"

    @property
    def label(self) -> str:
        return {"sliding": "swa", "csa": "csa", "hca": "hca"}[self.compression]


class Mamba2Spec(BaseModel):
    """Mamba2 mixer: fixed per-sequence state of n_heads*head_dim*d_state (SSM) plus the conv window."""

    kind: Literal["mamba2"] = "mamba2"
    d_inner: int
    n_heads: int
    head_dim: int
    n_groups: int
    d_state: int
    conv_kernel: int
    conv_bias: bool = True
    proj_bias: bool = False
    gated_norm: bool = Field(True, description="the gated RMSNorm over d_inner has a weight (FalconH1 mamba_rms_norm)")
    out_bias: bool | None = Field(None, description="out_proj bias when it differs from proj_bias (FalconH1 "
                                                    "projectors_bias); None: proj_bias")

    @property
    def conv_dim(self) -> int:
        return self.d_inner + 2 * self.n_groups * self.d_state

    @property
    def in_proj_width(self) -> int:
        return 2 * self.d_inner + 2 * self.n_groups * self.d_state + self.n_heads


class Mamba1Spec(BaseModel):
    """Mamba (selective SSM, transformers ``MambaMixer`` / ``FalconMambaMixer`` / ``JambaMambaMixer`` /
    ``ZambaMambaMixer``): in_proj hidden -> 2*d_inner, depthwise conv over d_inner channels, x_proj d_inner ->
    dt_rank + 2*d_state, dt_proj dt_rank -> d_inner (bias), A_log (d_inner x d_state), D, out_proj. Per-sequence
    state (transformers ``MambaCache``): the conv window, d_inner x (conv_kernel - 1), and the SSM state,
    d_inner x d_state."""

    kind: Literal["mamba1"] = "mamba1"
    d_inner: int
    d_state: int
    conv_kernel: int
    dt_rank: int
    conv_bias: bool = True
    proj_bias: bool = False
    inner_norms: bool = Field(False, description="RMSNorm weights on dt (dt_rank), B and C (d_state) (Jamba)")

    @property
    def state_elements(self) -> int:
        return self.d_inner * (self.conv_kernel - 1) + self.d_inner * self.d_state

    @property
    def scan_elements(self) -> int:
        """state values updated per token (prefill scan work)"""
        return self.d_inner * self.d_state

    def projections(self, hidden: int) -> list[tuple[str, int, int, str]]:
        """(name, in, out, TP shard) of the mixer's matrix multiplies"""
        return [("in_proj", hidden, 2 * self.d_inner, "column"),
                ("x_proj", self.d_inner, self.dt_rank + 2 * self.d_state, "row"),
                ("dt_proj", self.dt_rank, self.d_inner, "column"), ("out_proj", self.d_inner, hidden, "row")]


class GatedDeltaNetSpec(BaseModel):
    """Gated delta-net linear attention (Qwen3-Next): state num_v_heads*head_k_dim*head_v_dim per sequence."""

    kind: Literal["gated_deltanet"] = "gated_deltanet"
    num_k_heads: int
    num_v_heads: int
    head_k_dim: int
    head_v_dim: int
    conv_kernel: int

    @property
    def key_dim(self) -> int:
        return self.num_k_heads * self.head_k_dim

    @property
    def value_dim(self) -> int:
        return self.num_v_heads * self.head_v_dim

    @property
    def conv_dim(self) -> int:
        return 2 * self.key_dim + self.value_dim


class ShortConvSpec(BaseModel):
    """Gated short convolution (LFM2): in_proj hidden -> 3*channels, depthwise conv, out_proj; the
    per-sequence state holds the last ``kernel - 1`` inputs of each channel."""

    kind: Literal["short_conv"] = "short_conv"
    channels: int
    kernel: int
    bias: bool = False


class LinearMixerSpec(BaseModel):
    """A NAS block whose attention was replaced by one hidden x hidden linear layer."""

    kind: Literal["linear"] = "linear"


class LightningAttentionSpec(BaseModel):
    """MiniMax lightning attention (transformers ``MiniMaxLightningAttention``): qkv_proj hidden -> 3*H*D,
    output_gate hidden -> H*D, an RMSNorm of H*D, out_proj H*D -> hidden, no biases. Per-sequence state: the
    decayed key-value sum ``attn_weights_inter`` (batch, heads, head_dim, head_dim), MiniMaxCache.linear_cache."""

    kind: Literal["lightning_attention"] = "lightning_attention"
    num_heads: int
    head_dim: int

    @property
    def state_elements(self) -> int:
        return self.num_heads * self.head_dim * self.head_dim

    @property
    def scan_elements(self) -> int:
        """state values updated per token (prefill scan work)"""
        return self.num_heads * self.head_dim * self.head_dim

    def projections(self, hidden: int) -> list[tuple[str, int, int, str]]:
        """(name, in, out, TP shard) of the mixer's matrix multiplies"""
        w = self.num_heads * self.head_dim
        return [("qkv_proj", hidden, 3 * w, "column"), ("output_gate", hidden, w, "column"),
                ("out_proj", w, hidden, "row")]

    def param_count(self, hidden: int) -> int:
        w = self.num_heads * self.head_dim
        return hidden * 3 * w + hidden * w + w + w * hidden


class RwkvSpec(BaseModel):
    """RWKV (v4) block (transformers ``RwkvSelfAttention`` + ``RwkvFeedForward``): time mixing (key / value /
    receptance hidden -> attention_hidden, output back, time_decay, time_first, three time_mix vectors) and channel
    mixing (key hidden -> intermediate, value back, receptance hidden x hidden, two time_mix vectors), no biases.
    Per-sequence state (``RwkvModel.forward``): five (batch, hidden_size) slices a layer (two token shifts, the
    num / den / max of the WKV recurrence)."""

    kind: Literal["rwkv"] = "rwkv"
    hidden: int
    attention_hidden: int
    intermediate: int

    @property
    def state_elements(self) -> int:
        return 5 * self.hidden

    @property
    def scan_elements(self) -> int:
        """state values updated per token (prefill scan work)"""
        return 3 * self.attention_hidden

    def projections(self, hidden: int) -> list[tuple[str, int, int, str]]:
        """(name, in, out, TP shard) of the block's matrix multiplies"""
        a, i = self.attention_hidden, self.intermediate
        return [("key", hidden, a, "column"), ("value", hidden, a, "column"), ("receptance", hidden, a, "column"),
                ("output", a, hidden, "row"), ("ffn_key", hidden, i, "column"), ("ffn_value", i, hidden, "row"),
                ("ffn_receptance", hidden, hidden, "replicated")]

    def param_count(self, hidden: int) -> int:
        a, i = self.attention_hidden, self.intermediate
        return 3 * hidden * a + a * hidden + 2 * a + 3 * hidden + 2 * hidden * i + hidden * hidden + 2 * hidden


class KDASpec(BaseModel):
    """Kimi delta attention (transformers ``KimiDeltaAttention``, ``BailingHybrid`` linear layers): q / k / v
    hidden -> H*D, one depthwise conv over the 3*H*D channels (no bias), a forget gate (dt_bias H*D, A_log H, the
    projection hidden -> H*D, low-rank through D when ``gate_rank``), b_proj hidden -> H, an output gate like the
    forget gate's projection, o_norm over D, o_proj H*D -> hidden; no biases. Per-sequence state: the conv window
    (3*H*D x (conv_kernel - 1), ``cache.update_conv_state``) and the recurrent state (heads, D, D)."""

    kind: Literal["kda"] = "kda"
    num_heads: int
    head_dim: int
    conv_kernel: int
    gate_rank: int = Field(0, description="f_a/f_b and g_a/g_b low-rank gate projections of this rank (Kimi "
                                          "Linear: head_dim); 0: one hidden -> H*D projection each (Bailing)")

    @property
    def state_elements(self) -> int:
        w = self.num_heads * self.head_dim
        return 3 * w * (self.conv_kernel - 1) + self.num_heads * self.head_dim * self.head_dim

    @property
    def scan_elements(self) -> int:
        """state values updated per token (prefill scan work)"""
        return self.num_heads * self.head_dim * self.head_dim

    def projections(self, hidden: int) -> list[tuple[str, int, int, str]]:
        """(name, in, out, TP shard) of the mixer's matrix multiplies"""
        w, r = self.num_heads * self.head_dim, self.gate_rank
        out = [("qkv_proj", hidden, 3 * w, "column"), ("b_proj", hidden, self.num_heads, "column")]
        if r:
            out += [("f_a_proj", hidden, r, "replicated"), ("f_b_proj", r, w, "column"),
                    ("g_a_proj", hidden, r, "replicated"), ("g_b_proj", r, w, "column")]
        else:
            out += [("f_proj", hidden, w, "column"), ("g_proj", hidden, w, "column")]
        return out + [("o_proj", w, hidden, "row")]

    def param_count(self, hidden: int) -> int:
        w, r, h = self.num_heads * self.head_dim, self.gate_rank, self.num_heads
        gate = hidden * r + r * w if r else hidden * w
        return 3 * hidden * w + 3 * w * self.conv_kernel + w + h + 2 * gate + hidden * h + self.head_dim + w * hidden


class RGLRUSpec(BaseModel):
    """Griffin recurrent block (transformers ``RecurrentGemmaRecurrentBlock``): linear_y / linear_x hidden -> width
    and linear_out back (all with bias), a depthwise conv of conv_kernel taps (bias), and the RG-LRU
    (``RecurrentGemmaRglru``: recurrent_param of width, block-diagonal input / recurrent gates of heads x
    (width/heads)^2 with biases). Per-sequence state: conv1d_state (width x (conv_kernel - 1)) and the
    recurrent_states (width)."""

    kind: Literal["rg_lru"] = "rg_lru"
    width: int
    heads: int
    conv_kernel: int

    @property
    def state_elements(self) -> int:
        return self.width * (self.conv_kernel - 1) + self.width

    @property
    def scan_elements(self) -> int:
        """state values updated per token (prefill scan work)"""
        return self.width

    def projections(self, hidden: int) -> list[tuple[str, int, int, str]]:
        """(name, in, out, TP shard) of the mixer's matrix multiplies"""
        return [("linear_y", hidden, self.width, "column"), ("linear_x", hidden, self.width, "column"),
                ("linear_out", self.width, hidden, "row")]

    def param_count(self, hidden: int) -> int:
        w, k = self.width, self.conv_kernel
        gates = 2 * (w * (w // self.heads) + w)
        return 2 * (hidden * w + w) + w * hidden + hidden + w * k + w + w + gates


class MLSTMSpec(BaseModel):
    """xLSTM mLSTM layer (transformers ``xLSTMLayer``, weight_mode single or fused: the same counts): q / k hidden
    -> qk_dim, v and the output gate hidden -> v_dim, input and forget gates hidden -> heads (with bias), a
    per-head norm of v_dim, out_proj v_dim -> hidden; ``bias`` (use_bias) on the projections and the norm.
    Per-sequence state (``xLSTMCache.rnn_state``): C (heads, qk_head_dim, v_head_dim), n (heads, qk_head_dim) and
    m (heads, 1)."""

    kind: Literal["mlstm"] = "mlstm"
    num_heads: int
    qk_dim: int
    v_dim: int
    bias: bool = False

    @property
    def state_elements(self) -> int:
        return self.qk_dim * (self.v_dim // self.num_heads) + self.qk_dim + self.num_heads

    @property
    def scan_elements(self) -> int:
        """state values updated per token (prefill scan work)"""
        return self.qk_dim * (self.v_dim // self.num_heads)

    def projections(self, hidden: int) -> list[tuple[str, int, int, str]]:
        """(name, in, out, TP shard) of the mixer's matrix multiplies"""
        return [("qkv_ogate", hidden, 2 * self.qk_dim + 2 * self.v_dim, "column"),
                ("if_gates", hidden, 2 * self.num_heads, "column"), ("out_proj", self.v_dim, hidden, "row")]

    def param_count(self, hidden: int) -> int:
        qk, v, h = self.qk_dim, self.v_dim, self.num_heads
        n = hidden * (2 * qk + 2 * v) + 2 * (hidden * h + h) + v + v * hidden
        if self.bias:
            n += 2 * qk + 2 * v + v + hidden
        return n


Mixer = Annotated[Union[AttentionSpec, MLASpec, CompressedAttentionSpec, Mamba2Spec, GatedDeltaNetSpec, ShortConvSpec,
                        LinearMixerSpec, Mamba1Spec, LightningAttentionSpec, RwkvSpec, KDASpec, RGLRUSpec, MLSTMSpec],
                  Field(discriminator="kind")]


class DenseMLP(BaseModel):
    kind: Literal["dense"] = "dense"
    intermediate: int = Field(description="width of the hidden layer (per gate/up branch)")
    gated: bool = True
    bias: bool = False
    activation: str = "silu"
    replace_with_linear: bool = Field(False, description="NAS: one hidden x hidden linear instead of an MLP")


class MoEMLP(BaseModel):
    kind: Literal["moe"] = "moe"
    num_experts: int
    top_k: int
    expert_intermediate: int
    gated: bool = True
    expert_bias: bool = False
    router_bias: bool = False
    shared: DenseMLP | None = Field(None, description="always-active shared expert(s), as one MLP")
    shared_gate: bool = False
    activation: str = "silu"
    latent_size: int | None = Field(None, description="experts work in a latent space of this width (moe_latent_size), "
                                                      "with hidden->latent and latent->hidden projections")
    latent_bias: bool = False
    zero_experts: int = Field(0, description="identity (zero-compute) experts the router also scores (LongCat "
                                             "zero_expert_num): router columns, no weights")

    @property
    def expected_top_k(self) -> float:
        """Weight-bearing experts a token uses on average: ``top_k``, or with zero-compute experts the share of the
        ``top_k`` slots that fall on real ones under routing in proportion to the slots, top_k x E / (E + Z) (an
        assumption; LongCat-Flash: 12 x 512 / 768 = 8, 27.9 B active of 560.7 B, against its model card's 18.6-31.3 B
        per token, about 27 B on average)."""
        if not self.zero_experts:
            return float(self.top_k)
        return self.top_k * self.num_experts / (self.num_experts + self.zero_experts)


FFN = Annotated[Union[DenseMLP, MoEMLP], Field(discriminator="kind")]


class LayerSpec(BaseModel):
    index: int
    mixer: Mixer | None = None
    side_mixer: Mixer | None = Field(None, description="a second mixer of the same block (FalconH1's Mamba2 beside "
                                     "its attention, a Zamba hybrid layer's Mamba under the shared attention): its "
                                     "parameters, GEMMs and state count like the mixer's")
    cross_attention: AttentionSpec | None = None
    ffn: FFN | None = None
    num_norms: int = Field(2, description="hidden-size norms in the block (pre-attention, pre-MLP, ...)")
    extra_params: dict[str, int] = Field(default_factory=dict, description="family-specific modules of the block "
                                         "outside the mixer/FFN specs: component name -> parameters (always active; "
                                         "not in the GEMM inventory), e.g. gemma-3n's laurel and per-layer gates")

    @property
    def kind_label(self) -> str:
        """Short label: full, sliding, chunked, indexed (a top-k selection), mla, swa/csa/hca (DeepSeek-V4), mamba2,
        gated_deltanet, linear, mlp."""
        if self.mixer is None:
            return "mlp" if self.ffn is not None else "noop"
        if isinstance(self.mixer, AttentionSpec):
            return "indexed" if self.mixer.selection is not None else self.mixer.span
        if isinstance(self.mixer, CompressedAttentionSpec):
            return self.mixer.label
        return self.mixer.kind


class VisionTower(BaseModel):
    """A vision encoder reported apart from the language model."""

    family: str
    hidden_size: int
    num_layers: int
    layers: list[LayerSpec]
    norm: Literal["rms", "layernorm"]
    extra_params: dict[str, int] = Field(default_factory=dict, description="patch embedding, merger/projector, ...")


class MTPSpec(BaseModel):
    """Multi-token-prediction (next-n) layers, reported apart from the main model."""

    num_layers: int
    layer: LayerSpec
    extra_params_per_layer: dict[str, int] = Field(default_factory=dict, description="what each MTP layer stores "
                                                   "beside its decoder block (eh_proj, norms, embedding/head copies)")
    copies: list[str] = Field(default_factory=list, description="keys of extra_params_per_layer that are copies of "
                              "the main model's embedding (embed_tokens) or lm_head (shared_head_head): stored in "
                              "the checkpoint, shared by engines that tie them to the main model's")
    shares_embedding: bool = True


class QuantSpec(BaseModel):
    """The checkpoint's quantization as declared by its config."""

    method: str = Field(description="quant_method as written (fp8, mxfp4, modelopt, compressed-tensors, awq, ...)")
    format: str = Field(description="normalized: fp8, fp8_block, fp8_channel, nvfp4, mxfp4, int4, int8 (W8A8), "
                                    "w8a16 (INT8 weight-only), nf4, fp4_bnb, "
                                    "unknown")
    weight_bits: int | None = None
    group_size: int | None = None
    block: list[int] | None = None
    activations: str | None = Field(None, description="activation quantization, e.g. fp8-dynamic; None = weight-only")
    excluded: list[str] = Field(default_factory=list, description="module patterns left unquantized")
    kv_cache_dtype: str | None = None
    zero_points: bool | None = Field(None, description="the checkpoint stores a zero point per group of integer "
                                                       "weights (GPTQ's qzeros always, AWQ's zero_point, compressed-"
                                                       "tensors when not symmetric); None: not stated")
    symmetric: bool | None = Field(None, description="GPTQ's ``sym``: symmetric integer weights; None: not stated")
    weight_strategy: str | None = Field(None, description="compressed-tensors weights ``strategy`` (channel, tensor, "
                                                          "group, block); None: not stated or another method")
    input_strategy: str | None = Field(None, description="compressed-tensors input_activations ``strategy`` (token, "
                                                         "tensor); None: not stated or another method")
    mixed: dict[str, int] = Field(default_factory=dict, description="mixed precision (ModelOpt MIXED_PRECISION): "
                                  "quantization algorithm -> number of layers listed with it; format is the most "
                                  "common one")
    component_formats: dict[str, str] = Field(
        default_factory=dict, description="mixed checkpoints (compressed-tensors config groups of several formats, "
        "ModelOpt MIXED_PRECISION): component (attention, mlp, routed_experts, shared_experts, recurrent) -> the "
        "normalized format of its weights, bf16 where no group quantizes it; empty: every quantized GEMM is at format")
    component_unread: str | None = Field(None, description="why a checkpoint of several formats was not broken "
                                                         "down per component (every quantized GEMM then at format)")
    source: str = "config.json quantization_config"


#: the start of the guess a model type transformers knows, without a deploysheet reader, gets (its layout is a
#: default: ModelArch.layout_guessed)
LAYOUT_NOT_MODELLED = "layout not modelled: "


class TaskHead(BaseModel):
    pooler: bool = False
    num_labels: int = 0
    mlm_head: bool = False
    mlm_transform: bool = Field(True, description="the LM head has the dense + LayerNorm transform before its tied "
                                                  "decoder (BertLMPredictionHead); False: decoder and bias only")
    head_width: int | None = Field(None, description="width of the MLM head's transform and decoder when it is not "
                                                     "the embedding width (RemBERT output_embedding_size)")
    replaces_lm_head: bool = Field(False, description="a decoder whose checkpoint holds this head instead of the "
                                                      "vocabulary lm_head (reward / classification / embedding models)")
    label_bias: bool = Field(True, description="the num_labels linear has a bias")
    dense: bool = Field(False, description="a hidden x hidden linear with a bias before the num_labels one, beyond the "
                                           "pooler (the classification heads of BigBird, BART and T5: dense + "
                                           "out_proj)")
    block_width: int = Field(0, description="width of an intermediate / output block (hidden -> width -> hidden, "
                                            "LayerNorm) before the num_labels linear (BigBirdForQuestionAnsweringHead); "
                                            "0: none")
    head_class: str | None = Field(None, description="the architectures class the head was read from")
    bias_pair: bool = Field(False, description="the MLM head keeps a vocab-wide bias Parameter beside its decoder's "
                                               "own bias (BertLMPredictionHead), tied to it only with the embeddings "
                                               "(transformers ties nothing when tie_word_embeddings is false): "
                                               "untied, both are counted")


class ModelArch(BaseModel):
    """Normalized architecture every analysis reads (sizes in elements)."""

    model_type: str
    family: str
    text_model_type: str | None = Field(None, description="model_type of a composite config's language-model "
                                                          "sub-config (its text_config), when it has one")
    architectures: list[str] = Field(default_factory=list)
    config_class: str | None = Field(None, description="transformers config class used, None for raw keys")
    guesses: list[str] = Field(default_factory=list, description="what was inferred rather than read")
    unmodelled_keys: list[str] = Field(default_factory=list, description="config keys that may change shapes and that no "
                                       "reader consumed (dotted for text_config./vision_config.)")
    structure_verified: bool = Field(False, description="the family's layout is checked against transformers' modeling "
                                     "code on the meta device (scripts/meta_oracle.py)")
    kind: Literal["decoder", "encoder", "encoder-decoder"] = "decoder"
    hidden_size: int
    vocab_size: int
    max_positions: int | None = None
    context_factor: float = Field(1.0, description="the RoPE factor engines scale max_positions by to derive the "
                                  "longest request (scorer.architecture.assemble.rope_context_factor); 1 where none")
    tie_word_embeddings: bool = False
    norm: Literal["rms", "layernorm"] = "rms"
    final_norm: bool = True
    embedding_norm: bool = False
    learned_positions: int = 0
    token_types: int = 0
    embedding_size: int | None = Field(None, description="width of the token / position / token-type tables when "
                                       "factorized (ELECTRA, RoFormer embedding_size): a linear with bias maps it to "
                                       "hidden_size; None: hidden_size")
    input_embedding: int | None = Field(None, description="parameters of the input token table when it is not "
                                        "vocab_size x hidden_size (BLT: the local encoder's own vocab x width); "
                                        "None: the generic table")
    lm_head_bias: bool = False
    lm_head_rows: int | None = Field(None, description="output rows of the lm_head when the family prunes it below "
                                     "vocab_size (Apertus 1.5 output_vocab_size); None: vocab_size")
    layers: list[LayerSpec]
    encoder_layers: list[LayerSpec] = Field(default_factory=list)
    task_head: TaskHead | None = None
    mtp: MTPSpec | None = None
    vision: VisionTower | None = None
    vision_note: str | None = None
    mtp_note: str | None = Field(None, description="why MTP modules the config describes are not counted (family "
                                                   "flag mtp_not_built), None when there are none")
    quantization: QuantSpec | None = None
    custom_code: bool = False
    auto_map: dict[str, Any] = Field(default_factory=dict)
    dtype: str | None = None
    ssm_state_fp32: bool = Field(False, description="the config keeps the recurrent state in float32 "
                                                    "(mamba_ssm_cache_dtype)")
    ssm_dtype_keys: dict[str, str] = Field(default_factory=dict, description="the config's recurrent-state dtype "
                                           "keys as written: mamba_ssm_cache_dtype (vLLM's NemotronH reads it), "
                                           "mamba_ssm_dtype (SGLang's)")
    rope: str | None = Field(None, description="rope scaling type, if any")
    extra_params: dict[str, int] = Field(default_factory=dict, description="family-specific model-level modules: "
                                         "component name (one of scorer.params.COMPONENTS) -> parameters, always "
                                         "active, e.g. gemma-3n's per-layer input embeddings and AltUp projections")

    @property
    def context_limit(self) -> int | None:
        """The longest request (input + output tokens) an engine serves as configured: max_positions times
        :attr:`context_factor` (vLLM's derived max_model_len), None where the config states no limit."""
        return int(self.max_positions * self.context_factor) if self.max_positions else None

    @property
    def context_label(self) -> str:
        """:attr:`context_limit` in words for a note: "max_position_embeddings 4,096", or with its RoPE factor
        "max_position_embeddings 4,096 x RoPE factor 4 = 16,384"."""
        if not self.max_positions:
            return "no stated context limit"
        if self.context_factor == 1:
            return f"max_position_embeddings {self.max_positions:,}"
        return (f"max_position_embeddings {self.max_positions:,} x RoPE factor {self.context_factor:g} = "
                f"{self.context_limit:,}")

    @property
    def head_vocab(self) -> int:
        """Rows of the lm_head (its GEMM's N): :attr:`lm_head_rows` when pruned, else vocab_size."""
        return self.lm_head_rows or self.vocab_size

    @property
    def num_layers(self) -> int:
        return len(self.layers)

    @property
    def exact(self) -> bool:
        """Parameter counts derived, not estimated: a verified family, nothing guessed, no unmodelled key."""
        return self.structure_verified and not self.guesses and not self.unmodelled_keys

    def attention_layers(self) -> list[LayerSpec]:
        return [lay for lay in self.layers
                if isinstance(lay.mixer, (AttentionSpec, MLASpec, CompressedAttentionSpec))]

    @property
    def is_moe(self) -> bool:
        return any(isinstance(lay.ffn, MoEMLP) for lay in self.layers)

    @property
    def needs_remote_code(self) -> bool:
        """Loading it runs the repository's own code (``--trust-remote-code``): it has an auto_map and transformers
        has no config class of its model_type. A type transformers knows is run by its own (and the engines') native
        implementation, its auto_map unused."""
        return self.custom_code and self.config_class is None

    @property
    def layout_guessed(self) -> bool:
        """The layout is deploysheet's llama-like default, not the family's own: a model type unknown to
        transformers read by keys (no config class), or one transformers knows that no reader covers."""
        return (self.config_class is None and bool(self.guesses)) or any(
            g.startswith(LAYOUT_NOT_MODELLED) for g in self.guesses)

    @property
    def pooling_head(self) -> TaskHead | None:
        """The head a decoder checkpoint holds in place of its lm_head (a reward / classification / embedding
        model: :class:`TaskHead` ``replaces_lm_head``), else None."""
        th = self.task_head
        return th if th is not None and th.replaces_lm_head else None

    @property
    def has_lm_head_gemm(self) -> bool:
        """Whether decoding runs a vocabulary-wide lm_head GEMM: a decoder (or encoder-decoder) without a
        :attr:`pooling_head`."""
        return self.kind != "encoder" and self.pooling_head is None

    def first_attention(self) -> AttentionSpec | MLASpec | CompressedAttentionSpec | None:
        att = self.attention_layers()
        return att[0].mixer if att else None  # type: ignore[return-value]
