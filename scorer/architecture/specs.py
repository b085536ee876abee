"""The normalized architecture: per-layer specs and :class:`ModelArch` (sizes in elements, never bytes).

Every analysis (params, KV cache, GEMMs, fit, quantization readiness, the cost model) reads these
objects only; family knowledge stays in the readers of :mod:`scorer.architecture.kinds`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

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
    sinks: bool = False
    kv_shared: bool = Field(False, description="reuses an earlier layer's keys and values (gemma-3n KV sharing): "
                                               "no KV cache of its own")
    relative_bias_buckets: int = Field(0, description="T5 relative-position bias table rows (first layer only)")


class IndexerSpec(BaseModel):
    """DeepSeek sparse attention's lightning indexer: its own per-token key of ``head_dim`` values."""

    model_config = ConfigDict(frozen=True)  # hashable: mixers are grouped by their field values

    num_heads: int
    head_dim: int
    top_k: int = Field(description="tokens each query attends to (index_topk)")
    q_lora_rank: int


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

    @property
    def head_dim(self) -> int:
        return self.qk_nope_head_dim + self.qk_rope_head_dim

    @property
    def num_kv_heads(self) -> int:  # the latent is one shared "head"
        return 1


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

    @property
    def conv_dim(self) -> int:
        return self.d_inner + 2 * self.n_groups * self.d_state

    @property
    def in_proj_width(self) -> int:
        return 2 * self.d_inner + 2 * self.n_groups * self.d_state + self.n_heads


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


Mixer = Annotated[Union[AttentionSpec, MLASpec, Mamba2Spec, GatedDeltaNetSpec, ShortConvSpec, LinearMixerSpec],
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


FFN = Annotated[Union[DenseMLP, MoEMLP], Field(discriminator="kind")]


class LayerSpec(BaseModel):
    index: int
    mixer: Mixer | None = None
    cross_attention: AttentionSpec | None = None
    ffn: FFN | None = None
    num_norms: int = Field(2, description="hidden-size norms in the block (pre-attention, pre-MLP, ...)")
    extra_params: dict[str, int] = Field(default_factory=dict, description="family-specific modules of the block "
                                         "outside the mixer/FFN specs: component name -> parameters (always active; "
                                         "not in the GEMM inventory), e.g. gemma-3n's laurel and per-layer gates")

    @property
    def kind_label(self) -> str:
        """Short label: full, sliding, chunked, mla, mamba2, gated_deltanet, linear, mlp."""
        if self.mixer is None:
            return "mlp" if self.ffn is not None else "noop"
        if isinstance(self.mixer, AttentionSpec):
            return self.mixer.span
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
    extra_params_per_layer: dict[str, int] = Field(default_factory=dict)
    shares_embedding: bool = True


class QuantSpec(BaseModel):
    """The checkpoint's quantization as declared by its config."""

    method: str = Field(description="quant_method as written (fp8, mxfp4, modelopt, compressed-tensors, awq, ...)")
    format: str = Field(description="normalized: fp8, fp8_block, fp8_channel, nvfp4, mxfp4, int4, int8, nf4, fp4_bnb, "
                                    "unknown")
    weight_bits: int | None = None
    group_size: int | None = None
    block: list[int] | None = None
    activations: str | None = Field(None, description="activation quantization, e.g. fp8-dynamic; None = weight-only")
    excluded: list[str] = Field(default_factory=list, description="module patterns left unquantized")
    kv_cache_dtype: str | None = None
    mixed: dict[str, int] = Field(default_factory=dict, description="mixed precision (ModelOpt MIXED_PRECISION): "
                                  "quantization algorithm -> number of layers listed with it; format is the most "
                                  "common one")
    source: str = "config.json quantization_config"


class TaskHead(BaseModel):
    pooler: bool = False
    num_labels: int = 0
    mlm_head: bool = False


class ModelArch(BaseModel):
    """Normalized architecture every analysis reads (sizes in elements)."""

    model_type: str
    family: str
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
    tie_word_embeddings: bool = False
    norm: Literal["rms", "layernorm"] = "rms"
    final_norm: bool = True
    embedding_norm: bool = False
    learned_positions: int = 0
    token_types: int = 0
    lm_head_bias: bool = False
    layers: list[LayerSpec]
    encoder_layers: list[LayerSpec] = Field(default_factory=list)
    task_head: TaskHead | None = None
    mtp: MTPSpec | None = None
    vision: VisionTower | None = None
    vision_note: str | None = None
    quantization: QuantSpec | None = None
    custom_code: bool = False
    auto_map: dict[str, Any] = Field(default_factory=dict)
    dtype: str | None = None
    ssm_state_fp32: bool = Field(False, description="the config keeps the recurrent state in float32 "
                                                    "(mamba_ssm_cache_dtype)")
    rope: str | None = Field(None, description="rope scaling type, if any")
    extra_params: dict[str, int] = Field(default_factory=dict, description="family-specific model-level modules: "
                                         "component name (one of scorer.params.COMPONENTS) -> parameters, always "
                                         "active, e.g. gemma-3n's per-layer input embeddings and AltUp projections")

    @property
    def num_layers(self) -> int:
        return len(self.layers)

    @property
    def exact(self) -> bool:
        """Parameter counts derived, not estimated: a verified family, nothing guessed, no unmodelled key."""
        return self.structure_verified and not self.guesses and not self.unmodelled_keys

    def attention_layers(self) -> list[LayerSpec]:
        return [lay for lay in self.layers if isinstance(lay.mixer, (AttentionSpec, MLASpec))]

    @property
    def is_moe(self) -> bool:
        return any(isinstance(lay.ffn, MoEMLP) for lay in self.layers)

    def first_attention(self) -> AttentionSpec | MLASpec | None:
        att = self.attention_layers()
        return att[0].mixer if att else None  # type: ignore[return-value]
