"""Declarative knowledge about model families: key aliases and per-family structure flags.

Principle (DESIGN.md): knowledge of a model family lives here and in transformers' config
classes, never in the analyses. The normalizer (:mod:`scorer.architecture.normalize`) reads these tables; the
analyses only see the normalized :class:`~scorer.architecture.ModelArch`.

Each structure flag states a fact of the family's modeling code in transformers (the parameter
layout it instantiates); ``scripts/meta_oracle.py`` checks the resulting parameter counts against
the transformers models instantiated on torch's meta device.
"""

from __future__ import annotations

from typing import Any

#: canonical name -> config keys, first present wins (raw keys and config attributes alike)
ALIASES: dict[str, list[str]] = {
    "hidden_size": ["hidden_size", "n_embd", "d_model", "dim", "model_dim", "emb_size"],
    "num_layers": ["num_hidden_layers", "n_layer", "num_layers", "n_layers"],
    "num_heads": ["num_attention_heads", "n_head", "num_heads", "n_heads"],
    "num_kv_heads": ["num_key_value_heads", "num_kv_heads", "n_kv_heads", "multi_query_group_num", "kv_n_heads"],
    "head_dim": ["head_dim", "attention_head_dim", "d_kv", "kv_channels", "head_size"],
    "intermediate_size": ["intermediate_size", "ffn_hidden_size", "n_inner", "d_ff", "ffn_dim", "inner_dim"],
    "vocab_size": ["vocab_size", "padded_vocab_size", "n_vocab"],
    "max_positions": ["max_position_embeddings", "n_positions", "max_seq_len", "max_sequence_length", "seq_length",
                      "n_ctx"],
    "num_experts": ["num_local_experts", "num_experts", "n_routed_experts", "moe_num_experts"],
    "top_k": ["num_experts_per_tok", "experts_per_token", "num_experts_per_token", "moe_top_k", "moe_k", "moe_topk"],
    "expert_intermediate": ["moe_intermediate_size", "expert_intermediate_size", "moe_ffn_hidden_size"],
    "shared_intermediate": ["shared_expert_intermediate_size", "moe_shared_expert_intermediate_size",
                            "shared_intermediate_size"],
    "num_shared_experts": ["n_shared_experts", "num_shared_experts", "moe_num_shared_experts"],
    "sliding_window": ["sliding_window", "window_size", "attention_window"],
    "chunk_size": ["attention_chunk_size"],
    "tie_word_embeddings": ["tie_word_embeddings", "tie_embeddings"],
    "dtype": ["torch_dtype", "dtype"],
    # Mamba2 (nemotron_h, mamba2, bamba, zamba2, falcon_h1, granitemoehybrid)
    "mamba_num_heads": ["mamba_num_heads", "mamba_n_heads", "num_heads_mamba"],
    "mamba_head_dim": ["mamba_head_dim", "mamba_d_head"],
    "mamba_n_groups": ["n_groups", "mamba_n_groups"],
    "mamba_d_state": ["ssm_state_size", "mamba_d_state", "state_size"],
    "mamba_conv_kernel": ["conv_kernel", "mamba_d_conv", "conv_kernel_size"],
    "mamba_expand": ["expand", "mamba_expand"],
    "mamba_conv_bias": ["use_conv_bias", "mamba_conv_bias"],
    "mamba_dt_rank": ["mamba_dt_rank", "time_step_rank"],  # Mamba (1): x_proj / dt_proj rank
    "first_k_dense_replace": ["first_k_dense_replace", "num_dense_layers"],  # leading dense layers (afmoe, lfm2_moe)
    # gated delta-net (qwen3_next)
    "gdn_num_k_heads": ["linear_num_key_heads"],
    "gdn_num_v_heads": ["linear_num_value_heads"],
    "gdn_head_k_dim": ["linear_key_head_dim"],
    "gdn_head_v_dim": ["linear_value_head_dim"],
    "gdn_conv_kernel": ["linear_conv_kernel_dim"],
    # MLA
    "q_lora_rank": ["q_lora_rank"],
    "kv_lora_rank": ["kv_lora_rank"],
    "qk_rope_head_dim": ["qk_rope_head_dim"],
    "qk_nope_head_dim": ["qk_nope_head_dim"],
    "v_head_dim": ["v_head_dim"],
    "mtp_layers": ["num_nextn_predict_layers", "mtp_num_hidden_layers", "num_mtp_layers"],
    # DeepSeek sparse attention indexer
    "index_n_heads": ["index_n_heads"],
    "index_head_dim": ["index_head_dim"],
    "index_topk": ["index_topk"],
    # latent MoE (NemotronH)
    "moe_latent_size": ["moe_latent_size"],
    # short convolution (LFM2)
    "conv_kernel_cache": ["conv_L_cache"],
}

#: Structure flags. A ``str`` value names a config key whose value is used; a bool is a constant.
DEFAULT_FAMILY: dict[str, Any] = {
    "moe_every_layer": False,      # the MoE block in every layer whatever mlp_only_layers / decoder_sparse_step say
    "norm": "rms",                 # "rms" (weight only) or "layernorm" (weight + bias)
    "norms_per_layer": 2,          # pre-attention and pre-MLP
    "qkv_bias": "attention_bias",
    "o_bias": "attention_bias",
    "mlp_gated": True,             # gate/up/down (SwiGLU-style) vs up/down
    "mlp_bias": "mlp_bias",
    "qk_norm": "none",             # "none", "head" (weight of head_dim), "full" (weight of heads*head_dim)
    "attn_output_gate": False,     # q_proj also emits a per-channel output gate (doubles q width)
    "tie_true_note": None,         # why a true tie_word_embeddings leaves the count estimated (the family's class ties
                                   # something other than lm_head to the input embedding)
    "tie_shares_blocks": None,     # what else the class ties through _tied_weights_keys, so that an untied config
                                   # unshares it in transformers (ZambaModel: the hybrid layers' shared_transf)
    "o_proj_hidden": None,         # the class whose o_proj is hidden x hidden whatever heads x head_dim (Helium):
                                   # a config where they differ is refused
    "mamba_proj_bias_key": None,   # the config key of a Mamba mixer's in_proj / out_proj bias (None: mamba_proj_bias,
                                   # else use_bias)
    "attn_output_gate_bias": None,  # the gate is a gate_proj of its own with this bias (a bool or a key; AfMoE,
                                   # Beam: bias=False); None: fused into q_proj, biased as q is (Qwen3-Next)
    "sinks": False,                # learned attention-sink logit per head ("sliding": on sliding layers only)
    "router_bias": False,
    "expert_bias": False,
    "shared_expert_gate": False,   # scalar sigmoid gate on the shared expert (1 x hidden)
    "lm_head_bias": False,
    "learned_positions": False,    # absolute position embedding table of max_positions rows
    "token_types": False,          # BERT token-type embeddings
    "embedding_norm": False,       # a norm right after the embeddings
    "final_norm": True,
    "dense_intermediate_key": None,  # config key of the dense-layer width in MoE models, if not intermediate_size
    "linear_attention": None,      # what layer_types "linear_attention" means: "mamba2" or "gated_deltanet"
    "kind": "decoder",             # "decoder", "encoder", "encoder-decoder"
    "all_sliding_if_window": True,  # no layer_types but sliding_window set -> every layer slides
    "tied_default": False,         # tie_word_embeddings when the key is absent (raw-key fallback only)
    "mlp_width_rule": None,        # how the MLP width follows from intermediate_size ("lfm2": Lfm2MLP's adjustment)
    "head_dim_rule": None,         # "floor": no head_dim -> hidden // heads even when it does not divide (glm4_moe)
    "mtp_layout": "deepseek_v3",   # what a checkpoint's MTP layer stores (kinds/mtp.py)
    "mtp_copies": False,           # MTP layers store their own embed_tokens / shared_head.head copies
    # MTP layers the engines build when the config states no count (qwen3_next: vLLM 0.33.0 config/speculative.py
    # maps it to qwen3_next_mtp, whose model builds getattr(config, "num_nextn_predict_layers", 1) layers; SGLang
    # 0.5.23 models/qwen3_next_mtp.py builds one); ModelArch.mtp_note says the count is assumed
    "mtp_default_layers": 0,
    "shared_expert_bias": False,   # the shared experts' MLP has biases (a key or a constant; DeepSeek-V2 mlp_bias)
    "shared_expert_rule": None,    # "one_expert": one shared MLP of the expert width whatever n_shared_experts says
    "layer_kind_aliases": None,    # {layer type: registered kind} where a family gives a shared name its own meaning
    "dsa_variant": None,           # "mistral_large4": DSA without Q-LoRA, with KV sharing and NoPE layers
    "moe_by_hook": False,          # the family hook (assemble.FAMILY_HOOKS) builds the MoE block, not the loop
    "neutral_keys": (),            # keys this family's modeling code reads that change no parameter or cache shape
    # keys the published checkpoints carry that transformers' modeling code ignores (the original remote code read
    # them): key -> the canonical key (or a 1-tuple: the constant; ("times", key, k): k x that key; ("layer_types",
    # {type: code}): the per-layer codes of the config's layer_types) transformers uses instead; consumed when the
    # value, or every entry of a per-layer list, equals it, else left unmodelled (the counts say estimated)
    "agreeing_keys": {},
    # MTP modules a checkpoint may store that neither transformers nor the engines build: (count key, the other keys
    # describing them, why); the keys are consumed and ModelArch.mtp_note says they are not counted
    "mtp_not_built": None,
    "base_pooler": True,           # encoders: the bare model class has a pooler (BertModel does, DistilBertModel not)
    # encoders' task heads beyond BERT's (BertForSequenceClassification: pooler + classifier; token classification
    # and QA: no pooler, one linear): BigBird's (modeling_big_bird.py)
    "seqcls_dense": False,         # *ForSequenceClassification adds a dense h -> h to the pooler (ClassificationHead)
    "tokencls_pooler": False,      # *ForTokenClassification keeps the bare model's pooler
    "qa_block": False,             # *ForQuestionAnsweringHead runs an intermediate / output block before qa_outputs
    "relative_bias_every_layer": False,  # T5-style: every block has its relative position bias (UMT5), not the first
    "transient_global": False,     # LongT5: encoder_attention_type "transient-global" adds a global bias and norms
    "pretraining_head": "bert",    # *ForPreTraining: "bert" (MLM head + NSP on the pooler), "discriminator" (ELECTRA),
                                   # "mlm" (the MLM head on the pooler, no NSP: RoCBert)
    "mc_summary": False,           # *ForMultipleChoice summarizes with a dense h -> h (SequenceSummary) first
    # group: MoE and hybrids
    "mamba_d_inner": "heads",      # Mamba2 inner width: "heads" (mamba_num_heads * mamba_head_dim, NemotronH) or
                                   # "expand" (int(expand * hidden), Bamba / Mamba2 / Zamba2 / GraniteMoeHybrid)
    "mamba_d_inner_key": None,     # config key that overrides the inner width when set (FalconH1: mamba_d_ssm)
    "mamba_key_names": {},         # canonical Mamba key -> this family's key (Mamba2Config: num_heads, head_dim)
    "layer_kind": None,            # every layer's kind when the config names none (mamba2: "mamba"); None: attention
    "ffn": True,                   # False: blocks are mixer-only, no MLP (Mamba, Mamba2)
    "attention_free": False,       # no attention layers: num_attention_heads is not needed (Mamba, RWKV, xLSTM)
    "mamba_inner_norms": False,    # Mamba (1) mixer has RMSNorm weights on dt, B and C (Jamba)
    "moe_switch": None,            # config key that turns the MoE block on; false -> dense MLPs (Doge: is_moe)
    "nested_configs": (),          # sub-config dicts whose keys the reader also searches (DBRX: attn_config, ...)
    "keyed_configs": (),           # sub-config dicts not searched, but accounted key by key like nested_configs (the
                                   # config class reads them into attributes: Kimi-Linear's linear_attn_config)
    # group: llama-like variants
    "v_head_dim_key": None,        # config key of the value head size when it differs from head_dim (MiMo v_head_dim)
    "sliding_kv_mult": None,       # sliding-attention layers have this many times the KV heads (MiMo-V2-Flash: 2)
    "kind_keys": {},               # layer kind -> keys only its layers read: shape nothing when no layer is of it
    "layer_kinds": None,           # the only layer types the family's classes build (others are refused), or None
    "experts_required": False,     # num_experts = 0 is refused, not read as a dense model: the family's decoder layer
                                   # builds its MoE block whatever the count (Ergo's ErgoMoE layers, Mixtral, OLMoE,
                                   # PhiMoE, MiniMax, Qwen3.5-MoE: transformers 5.24.0 modeling files)
    "default_layer_period": None,  # (n, kind, other): a config without layer_types has kind on every n-th layer,
                                   # other elsewhere (Kolibri1_1Config.__post_init__: indexed_attention every 5th)
    "qk_norm_switch": None,        # config key that turns the qk_norm above on (None: always on; Cohere use_qk_norm)
    "post_norm_switch": None,      # config key whose truth adds post-attention and post-MLP norms (2 more a block)
    "block_extra_params": (),      # small per-block tensors outside the specs: (component, factor, ...) whose
                                   # product is the count; a factor is an int or a layer dimension: "hidden",
                                   # "head_dim", "heads", "kv_heads" (0 off attention), "intermediate" (the dense
                                   # MLP width, 0 for MoE), "moe" (1 on MoE blocks), "key:NAME" (a config value)
    # group: encoder-style causal LMs and seq2seq decoders
    "causal_lm_head": "mlm",       # an encoder's *ForCausalLM head: "mlm" (BertLMPredictionHead: dense + LayerNorm
                                   # transform, decoder tied to the embedding, bias) or "bias" (decoder + bias only,
                                   # BertGenerationOnlyLMHead)
    "causal_lm_pooler": False,     # an encoder's *ForCausalLM and *ForMaskedLM keep the pooler (BigBird's)
    "embedding_size_key": None,    # config key of a factorized embedding width (ELECTRA / RoFormer embedding_size):
                                   # tables, embedding norm and the LM head transform are that wide, embeddings_project
                                   # (a linear with bias) maps it to hidden when it differs
    "key_aliases": {},             # canonical name -> this family's own keys, looked up first (Reader.key_aliases)
    "seq2seq": False,              # BART-style seq2seq: *ForCausalLM is the decoder alone (self + cross attention,
                                   # decoder_* keys); any other class adds the encoder (encoder_* keys, own positions)
    "position_offset": 0,          # learned position rows beyond max_positions (BartLearnedPositionalEmbedding: 2)
    "causal_lm_tied": True,        # a seq2seq *ForCausalLM ties lm_head to the embedding when tie_word_embeddings
                                   # (BigBirdPegasusForCausalLM declares no tied weights: False)
    "off_keys": (),                # (switch key, keys): the keys shape nothing while the switch is false or absent
                                   # (MVP use_prompt: prompt_length, prompt_mid_dim)
    # group: classic decoders
    "intermediate_default": None,  # MLP width when the config gives none (n_inner: null, or no key at all): an int
                                   # multiple of hidden (GPT2MLP, BloomMLP: 4) or a config key holding the multiple
                                   # (GPT-NeoX-Japanese intermediate_multiple_size, MPT expansion_ratio)
    "norm_bias": True,             # the "layernorm" norms have a bias (a bool or a key; "!key" negates): False gives
                                   # weight-only LayerNorms (MPT, ModernBERT norm_bias false)
    "multi_query": None,           # config key whose truth means one KV head, else every head has its own K/V
                                   # (GPTBigCode multi_query; num_key_value_heads is then not read by the model)
    "layer_types_key": None,       # config key listing each layer's kind when there is no layer_types (GPT-Neo
                                   # attention_layers: "global" / "local")
    "single_norm_switch": None,    # config key whose truth leaves one norm a block (StableLM use_parallel_residual:
                                   # attention and MLP share input_layernorm)
    "first_block_norms": None,     # norms of block 0 when it differs (ModernBERT decoder: layer 0's attn_norm is
                                   # an Identity)
    "lm_head_transform": None,     # a dense (hidden x hidden) + norm before the LM head (ModernBertDecoderPrediction
                                   # Head); the value is its dense bias (a bool or a key); None: no transform
    "last_block_o_bias": False,    # only the last block's attention output has a bias (GPT-NeoX-Japanese dense_bias)
    "neutral_when": {},            # key -> the value at which it shapes nothing ("hidden": the hidden size); any other
                                   # value leaves it unmodelled (OPT word_embed_proj_dim, layer_norm_elementwise_affine)
    "model_extra_params": (),      # model-level tensors outside the specs, once per model, in block_extra_params'
                                   # format (component, factor, ...) (XLNet mask_emb: ("embedding", "hidden"))
    # group: multimodal round 2
    "expert_groups": False,        # a list expert width is one expert group per modality (Ernie 4.5 VL text /
                                   # vision experts): counted as experts of the summed width (kinds/ffn.moe_mlp)
    # group: blt, cpmant, prophetnet, reformer, rembert, t5gemma2 (kinds/oddities.py)
    "never_tied": False,           # the LM class declares no tied weights whatever tie_word_embeddings says
                                   # (CpmAntForCausalLM: _tied_weights_keys = {})
    "mlm_head_width_key": None,    # config key of the MLM head's width when it is not the embedding width
    "layer_types_allowed": None,   # the layer_types entries the family's modeling code builds (others fail there)
    "lm_head_rows_key": None,      # config key of the lm_head's output rows when the head is pruned below vocab_size
                                   # (Apertus 1.5 output_vocab_size: nn.Linear(hidden, output_vocab_size or vocab_size))
                                   # (RemBERT output_embedding_size: dense h -> it, LayerNorm, decoder it -> vocab)
    "cross_attention": True,       # seq2seq decoder blocks have cross-attention (a bool or a key: ProphetNet
                                   # add_cross_attention, which its *ForCausalLM keeps)
}

#: group: encoder-style causal LMs and seq2seq decoders. BertModel's layout (post-norm LayerNorm blocks, biases,
#: learned positions, token types, an embedding LayerNorm)
_BERT_LIKE: dict[str, Any] = {
    "norm": "layernorm", "qkv_bias": True, "o_bias": True, "mlp_gated": False, "mlp_bias": True,
    "learned_positions": True, "token_types": True, "embedding_norm": True, "final_norm": False, "kind": "encoder",
    "tied_default": True}
#: BartDecoder's layout: post-norm LayerNorm blocks of self-attention, cross-attention and an fc1/fc2 MLP, all
#: with biases; the decoder's sizes are the decoder_* keys; scale_embedding and layerdrop shape nothing
_SEQ2SEQ: dict[str, Any] = {
    "norm": "layernorm", "qkv_bias": True, "o_bias": True, "mlp_gated": False, "mlp_bias": True,
    "learned_positions": True, "norms_per_layer": 3, "final_norm": False, "seq2seq": True, "tied_default": True,
    "key_aliases": {"num_layers": ["decoder_layers"], "num_heads": ["decoder_attention_heads"],
                    "intermediate_size": ["decoder_ffn_dim"]},
    "neutral_keys": ("scale_embedding", "encoder_layerdrop", "decoder_layerdrop")}

#: group: classic decoders. GPT-2's block layout: LayerNorm (weight + bias), biases on q/k/v/o, an up/down MLP with
#: biases
_CLASSIC: dict[str, Any] = {"norm": "layernorm", "qkv_bias": True, "o_bias": True, "mlp_gated": False,
                            "mlp_bias": True}

#: LFM2's published block_dim / conv_dim / conv_dim_out / block_use_swiglu: transformers' modeling ignores them
#: (hidden_size everywhere, SwiGLU always); vLLM 0.33.0 sizes the MLP by block_dim and the short convolution by
#: conv_dim (vllm/model_executor/models/lfm2.py): consumed where both agree
_LFM2_AGREEING = {"block_dim": "hidden_size", "conv_dim": "hidden_size", "conv_dim_out": "hidden_size",
                  "block_use_swiglu": (True,)}


#: Qwen3-Next / Qwen3.5 published keys at transformers' layout: gated attention output always (vLLM 0.33.0
#: qwen3_next.py reads attn_output_gate, default True); the MTP layer shares the main embedding (vLLM's MTP loads
#: the main model's embed_tokens / lm_head)
_QWEN3_NEXT_AGREEING = {"attn_output_gate": (True,), "mtp_use_dedicated_embeddings": (False,)}
#: Hunyuan remote-code keys transformers' HunYuan classes do not read: the vocabulary before padding, and the
#: switches of cross-layer attention and of a classification head, off in the published configs
_HUNYUAN_AGREEING = {"org_vocab_size": "vocab_size"}  # the switches themselves: _HUNYUAN_OFF
_HUNYUAN_OFF = (("use_cla", ("cla_share_factor",)), ("add_classification_head", ("class_num", "dense_list",
                                                                                   "pool_type")))

FAMILIES: dict[str, dict[str, Any]] = {
    "llama": {},
    "mistral": {},
    # MixtralDecoderLayer builds MixtralSparseMoeBlock whatever the expert count (transformers 5.24.0): 0 is refused
    "mixtral": {"experts_required": True},
    "qwen2": {"qkv_bias": True, "o_bias": False},
    # Qwen (first generation, model_type "qwen", the authors' modeling_qwen.py; no transformers class): c_attn
    # h -> 3 heads x kv_channels with a bias, c_proj without; QWenMLP w1 / w2 of intermediate_size // 2 and c_proj
    # back (no biases: no_bias), RMSNorm ln_1 / ln_2 / ln_f, an untied lm_head
    "qwen": {"qkv_bias": True, "o_bias": False, "mlp_bias": False, "mlp_width_rule": "half",
             "key_aliases": {"head_dim": ["head_dim", "kv_channels"]},
             "agreeing_keys": {"no_bias": (True,)},
             "neutral_keys": ("seq_length", "rotary_pct", "rotary_emb_base", "use_dynamic_ntk", "use_logn_attn",
                              "bf16", "fp16", "fp32", "onnx_safe", "use_flash_attn", "scale_attn_weights",
                              "softmax_in_fp32")},
    "qwen2_moe": {"qkv_bias": "qkv_bias", "o_bias": False, "shared_expert_gate": True},  # Qwen2MoeAttention: config.qkv_bias
    "qwen2_5_vl_text": {"qkv_bias": True, "o_bias": False},
    "qwen2_vl_text": {"qkv_bias": True, "o_bias": False},
    "qwen3": {"qk_norm": "head"},
    "qwen3_moe": {"qk_norm": "head"},
    "qwen3_next": {"qk_norm": "head", "attn_output_gate": True, "shared_expert_gate": True,
                   "linear_attention": "gated_deltanet", "agreeing_keys": _QWEN3_NEXT_AGREEING,
                   "mtp_default_layers": 1},
    "gemma": {},
    "gemma2": {"norms_per_layer": 4, "agreeing_keys": {"sliding_window_size": "sliding_window"}},  # legacy name
    "gemma3_text": {"norms_per_layer": 4, "qk_norm": "head"},
    "vaultgemma": {},  # VaultGemmaDecoderLayer: input_layernorm and pre_feedforward_layernorm only
    # Gemma3nTextConfig / Gemma4TextConfig: per-layer inputs, AltUp, Laurel, KV sharing, per-layer attention and the
    # MoE block come from the family hooks (kinds/gemma.py, assemble.FAMILY_HOOKS)
    "gemma3n_text": {"norms_per_layer": 4, "qk_norm": "head"},
    "gemma4_text": {"norms_per_layer": 4, "qk_norm": "head", "moe_by_hook": True},
    "gemma4_unified_text": {"norms_per_layer": 4, "qk_norm": "head"},  # Gemma 4 attention and MLP, no PLE or MoE
    # LongRoPE's base length; Phi-4-mini's remote-code keys at the values transformers' Phi3 layout has (every
    # layer full attention, no lm_head bias)
    "phi3": {"neutral_keys": ("original_max_position_embeddings",),
             "agreeing_keys": {"full_attn_mod": (1,), "interpolate_factor": (1,), "lm_head_bias": (False,)}},
    "phi": {"norm": "layernorm", "norms_per_layer": 1, "qkv_bias": True, "o_bias": True, "mlp_gated": False,
            "mlp_bias": True, "lm_head_bias": True, "qk_norm": "qk_layernorm"},
    "gpt2": {"norm": "layernorm", "qkv_bias": True, "o_bias": True, "mlp_gated": False, "mlp_bias": True,
             "learned_positions": True, "tied_default": True, "intermediate_default": 4},
    "falcon": {"norm": "layernorm", "qkv_bias": "bias", "o_bias": "bias", "mlp_gated": False, "mlp_bias": "bias",
               "norms_per_layer": "falcon", "tied_default": True, "intermediate_default": 4},
    # DeepSeek / GLM MoE family (transformers 5.x modeling files of the same names). MLA projections:
    # q_a_proj and kv_a_proj_with_mqa take attention_bias (qkv_bias), o_proj too; q_proj / q_b_proj / kv_b_proj
    # never. mtp_copies: the checkpoint's MTP layers store embed_tokens and shared_head.head (kinds/mtp.py).
    "deepseek_v3": {"mtp_copies": True},
    # DeepseekV2MLP takes mlp_bias, the shared experts' MLP included
    "deepseek_v2": {"shared_expert_bias": "mlp_bias"},
    "kimi_k2": {"mtp_copies": True},
    # DeepSeek-V3.2 / GLM-5 (DSA): their configs carry mlp_bias, their MLPs have no bias
    "deepseek_v32": {"mlp_bias": False, "neutral_keys": ("mlp_bias",), "mtp_copies": True},
    "glm_moe_dsa": {"mlp_bias": False, "neutral_keys": ("mlp_bias",), "mtp_copies": True},
    "glm4_moe_lite": {"mtp_copies": True},
    "mistral4": {},
    # Mistral Large 4's text model: DSA without Q-LoRA, KV sharing, NoPE layers (kinds/attention._mistral_large4)
    "mistral_large4_text": {"dsa_variant": "mistral_large4"},
    # Glm4MoeAttention: q/k/v take attention_bias, o_proj none; q_norm/k_norm (head_dim) when use_qk_norm;
    # head_dim = getattr(config, "head_dim", hidden // heads) (floor division)
    "glm4_moe": {"o_bias": False, "qk_norm": "head", "qk_norm_switch": "use_qk_norm", "head_dim_rule": "floor",
                 "mtp_copies": True},
    # MiniCPM-5-MoE (transformers 5.25.0 modular_minicpm5_moe.py): Glm4MoeConfig; LlamaAttention whose q_gate_proj
    # emits queries and a per-channel sigmoid output gate (2 x heads x head_dim), no q/k norms; DeepSeek-V3 experts,
    # shared experts and router; Glm4MoeLiteDecoderLayer (dense below first_k_dense_replace)
    "minicpm5_moe": {"attn_output_gate": True, "neutral_keys": ("use_qk_norm",)},  # LlamaAttention: no q/k norms
    # Param2 (bharatgenai): Param2MoeConfig subclasses Glm4MoeConfig and transformers 5.25.0 builds it with
    # Glm4MoeForCausalLM (models/auto/modeling_auto.py: ("param2moe", "Glm4MoeForCausalLM")): GLM-4-MoE's layout
    # Ergo (Amazon, transformers 5.25.0 modeling_ergo.py): ErgoAttention's fused qkv_proj (hidden -> (heads + 2 kv)
    # x head_dim, head_dim = hidden // heads, no biases) with per-head q_norm / k_norm; four RMSNorms a block
    # (input, post-attention, pre- and post-feedforward) and two ErgoResidualGate vectors (hidden each); relu2
    # up/down MLPs without a gate: first_dense_intermediate_size wide on mlp_layer_types "dense" layers (the first
    # num_dense_blocks), else ErgoMoE: routed experts (up / down of moe_intermediate_size) renormalized by
    # ErgoExpertNorm (num_experts x hidden), a router linear without bias (e_score_correction_bias is a buffer)
    # and one ErgoSharedExpert of shared_intermediate_size with its own RMSNorm (hidden); ErgoForCausalLM's
    # lm_head is never tied (the modular file deletes _tied_weights_keys). _keep_in_fp32_modules_strict keeps the
    # embedding, norms, gates and router in float32 in the checkpoint; engines serve them at the model dtype, and
    # the weights are sized so. Every global_attention_every_n_layers-th layer is full attention without RoPE, the
    # others slide over sliding_window (local_attention_window in the published configs) tokens.
    # (no biases whatever attention_bias / mlp_bias say; head_dim is always hidden // heads, num_experts its only
    # expert count key)
    "ergo": {"norms_per_layer": 4, "qk_norm": "head", "head_dim_rule": "floor", "mlp_gated": False,
             "dense_intermediate_key": "first_dense_intermediate_size", "never_tied": True,
             "qkv_bias": False, "o_bias": False, "mlp_bias": False, "experts_required": True,
             # ErgoRotaryEmbedding reads rope_parameters[layer_type]: a type beyond these two has none
             "layer_kinds": ("sliding_attention", "full_attention"),
             "key_aliases": {"sliding_window": ["sliding_window", "local_attention_window"],
                             "sliding_window_pattern": ["global_attention_every_n_layers"],
                             "first_k_dense_replace": ["num_dense_blocks"], "head_dim": [],
                             "num_experts": ["num_experts"]},
             "block_extra_params": (("norms", 2, "hidden"), ("routed_experts", "moe", "key:num_experts", "hidden"),
                                    ("shared_experts", "moe", "hidden")),
             # the config class folds global_attention_every_n_layers and num_dense_blocks into layer_types and
             # mlp_layer_types (read instead; the aliases above read them where a config lists neither)
             "neutral_keys": ("moe_routed_scaling_factor", "global_attention_scale", "global_attention_every_n_layers",
                              "num_dense_blocks", "attention_bias", "mlp_bias", "head_dim", "num_local_experts")},
    # Kolibri 1.1 (Aleph Alpha, transformers 5.25.0 modeling_kolibri1_1.py): Qwen3-MoE-style layers (q/k norms of
    # head_dim, no biases, gated experts with a fused gate_up_proj, a router without bias; e_score_correction_bias is
    # a buffer) with four RMSNorms a block (input, post-self-attention, post-attention, post-MLP), a gated shared
    # expert of shared_expert_intermediate_size without a gate of its own, dense layers (mlp_only_layers) of
    # mlp_only_intermediate_size; indexed_attention layers and kv_source_layers sharing: kinds/kolibri.py
    # (its projections have no biases whatever attention_bias / mlp_bias say, and only mlp_only_layers makes a
    # layer dense: decoder_sparse_step and first_k_dense_replace are read by no Kolibri class)
    "kolibri1_1": {"norms_per_layer": 4, "qk_norm": "head", "dense_intermediate_key": "mlp_only_intermediate_size",
                   "layer_kind_aliases": {"indexed_attention": "kolibri_indexed_attention"},
                   "default_layer_period": (5, "indexed_attention", "sliding_attention"),
                   "qkv_bias": False, "o_bias": False, "mlp_bias": False,
                   "key_aliases": {"decoder_sparse_step": [], "first_k_dense_replace": []},
                   "neutral_keys": ("norm_topk_prob", "attention_bias", "mlp_bias", "decoder_sparse_step",
                                    "first_k_dense_replace")},
    "param2moe": {"o_bias": False, "qk_norm": "head", "qk_norm_switch": "use_qk_norm", "head_dim_rule": "floor",
                  "mtp_copies": True},
    # DeepSeek-V4 (kinds/deepseek.py): sliding_attention is its own shared-KV window attention; one shared
    # expert of moe_intermediate_size with mlp_bias; no attention biases (attention_bias is not read)
    "deepseek_v4": {"layer_kind_aliases": {"sliding_attention": "deepseek_v4_sliding_attention"},
                    "shared_expert_rule": "one_expert", "shared_expert_bias": "mlp_bias", "mtp_layout": "deepseek_v4",
                    "qkv_bias": False, "o_bias": False, "neutral_keys": ("attention_bias", "hc_sinkhorn_iters")},
    "gpt_oss": {"sinks": True, "router_bias": True, "expert_bias": True},
    # use_qk_norm: Llama4TextL2Norm has no weight
    "llama4_text": {"dense_intermediate_key": "intermediate_size_mlp", "shared_experts_as_intermediate": True,
                    "neutral_keys": ("use_qk_norm",)},
    # chunk_size: the SSD scan's chunk; expand: unused when mamba_num_heads * mamba_head_dim is given
    # the shared expert is a NemotronHMLP with bias=config.mlp_bias (transformers 5.24.0 modeling_nemotron_h.py)
    # NemotronHAttention: q/k/v/o bias=False whatever attention_bias says; NemotronHMamba2Mixer's in_proj /
    # out_proj take use_bias (the config's mamba_proj_bias is never read)
    "nemotron_h": {"norms_per_layer": 1, "mlp_gated": False, "linear_attention": "mamba2",
                   "neutral_keys": ("chunk_size", "expand", "attention_bias", "mamba_proj_bias"),
                   "shared_expert_bias": "mlp_bias", "qkv_bias": False, "o_bias": False,
                   "mamba_proj_bias_key": "use_bias"},
    "nemotron-nas": {},
    "olmo2": {"qk_norm": "full"},
    "granite": {},
    "bert": {"norm": "layernorm", "qkv_bias": True, "o_bias": True, "mlp_gated": False, "mlp_bias": True,
             "learned_positions": True, "token_types": True, "embedding_norm": True, "final_norm": False,
             "kind": "encoder", "tied_default": True},
    # Lfm2Config reads the published block_ff_dim as intermediate_size (kwargs.pop("block_ff_dim", ...), transformers
    # 5.24.0 models/lfm2/configuration_lfm2.py): LFM2 and LFM2-VL checkpoints carry only block_ff_dim
    "lfm2": {"mlp_width_rule": "lfm2", "qk_norm": "head", "norms_per_layer": 2,
             "key_aliases": {"intermediate_size": ["block_ff_dim", "intermediate_size"],
                             "tie_word_embeddings": ["tie_embedding", "tie_word_embeddings"]},
             "agreeing_keys": _LFM2_AGREEING},
    # DistilBertModel: no token types, no pooler; sinusoidal_pos_embds fills the same position table
    "distilbert": {"norm": "layernorm", "qkv_bias": True, "o_bias": True, "mlp_gated": False, "mlp_bias": True,
                   "learned_positions": True, "embedding_norm": True, "final_norm": False, "kind": "encoder",
                   "tied_default": True, "dense_intermediate_key": "hidden_dim", "base_pooler": False,
                   "neutral_keys": ("sinusoidal_pos_embds",)},
    "t5": {"qkv_bias": False, "o_bias": False, "mlp_bias": False, "mlp_gated": "t5", "kind": "encoder-decoder",
           "tied_default": True},
    # mT5: T5's layout (MT5Config); UMT5: a relative position bias in every block (UMT5Attention
    # has_relative_attention_bias = True in each layer), not only the first
    "mt5": {"qkv_bias": False, "o_bias": False, "mlp_bias": False, "mlp_gated": "t5", "kind": "encoder-decoder",
            "tied_default": True},
    # LongT5: T5's blocks; its local / transient-global encoder attention (LongT5LocalAttention,
    # LongT5TransientGlobalAttention) shapes the same projections
    "longt5": {"qkv_bias": False, "o_bias": False, "mlp_bias": False, "mlp_gated": "t5", "kind": "encoder-decoder",
               "tied_default": True, "transient_global": True},
    "umt5": {"qkv_bias": False, "o_bias": False, "mlp_bias": False, "mlp_gated": "t5", "kind": "encoder-decoder",
             "tied_default": True, "relative_bias_every_layer": True},
    # group: MoE and hybrids
    "olmoe": {"qk_norm": "full", "experts_required": True},  # OlmoeAttention: q_norm / k_norm over heads*head_dim
    # PhimoeDecoderLayer: LayerNorm (weight + bias); lm_head takes lm_head_bias
    "phimoe": {"norm": "layernorm", "lm_head_bias": "lm_head_bias", "experts_required": True},
    # OlmoHybridAttention: full-width q/k norms; OlmoHybridGatedDeltaNet has Qwen3-Next's parameter count
    "olmo_hybrid": {"qk_norm": "full", "linear_attention": "gated_deltanet"},
    # Mamba2 hybrids: inner width expand * hidden; mamba_chunk_size is the SSD scan's chunk
    # BambaMixer is Mamba2 (a dt per head): the published mamba_dt_rank (a Mamba-1 low-rank dt) is read by nothing
    "bamba": {"mamba_d_inner": "expand", "linear_attention": "mamba2",
              "neutral_keys": ("mamba_chunk_size", "mamba_dt_rank")},
    # GraniteMoeHybridDecoderLayer: the shared MLP (shared_intermediate_size) in every block, the MoE only when
    # num_local_experts > 0 (Granite-4.0-H-Micro: dense); normalization_function is always RMSNorm there
    "granitemoehybrid": {"mamba_d_inner": "expand", "linear_attention": "mamba2",
                         "neutral_keys": ("mamba_chunk_size",), "dense_intermediate_key": "shared_intermediate_size",
                         "agreeing_keys": {"normalization_function": ("rmsnorm",)}},
    # Mamba2ForCausalLM: every block is norm + Mamba2Mixer; num_heads / head_dim are the SSM heads
    "mamba2": {"mamba_d_inner": "expand", "layer_kind": "mamba", "ffn": False, "norms_per_layer": 1,
               "mamba_key_names": {"mamba_num_heads": "num_heads", "mamba_head_dim": "head_dim"},
               "attention_free": True, "linear_attention": "mamba2", "neutral_keys": ("chunk_size",),
               # Mamba2Mixer's MambaRMSNormGated: an RMS norm after the gate, always (mamba_ssm's flags, not config
               # fields of Mamba2Config)
               "agreeing_keys": {"norm_before_gate": (False,), "rms_norm": (True,)}},
    # MambaForCausalLM / FalconMambaForCausalLM: norm + MambaMixer of intermediate_size channels (FalconMamba's
    # dt/B/C norms have no weights)
    "mamba": {"linear_attention": "mamba1", "mamba_d_inner": "intermediate", "ffn": False, "norms_per_layer": 1,
              "attention_free": True},
    "falcon_mamba": {"linear_attention": "mamba1", "mamba_d_inner": "intermediate", "ffn": False,
                     "norms_per_layer": 1, "attention_free": True},
    # JambaMambaMixer: mamba_expand * hidden channels, RMSNorm weights on dt / B / C
    "jamba": {"linear_attention": "mamba1", "mamba_d_inner": "expand", "mamba_inner_norms": True},
    # AfmoeAttention: gate_proj output gate, q/k RMSNorm(head_dim); 4 norms a layer; the router's expert_bias
    # (num_experts) is a parameter
    # AfmoeConfig reads no group-limited routing keys (num_expert_groups, num_limited_groups, route_norm: routing
    # only, no parameters)
    # AfmoeAttention: gate_proj (hidden -> heads x head_dim) bias=False, o_proj bias=attention_bias
    "afmoe": {"qk_norm": "head", "attn_output_gate": True, "attn_output_gate_bias": False, "norms_per_layer": 4,
              "router_bias": True,
              "neutral_keys": ("num_expert_groups", "num_limited_groups", "route_norm")},
    # Ernie4_5_Moe: use_bias on q/k/v/o, the MLPs and lm_head; moe_statics.e_score_correction_bias per expert
    "ernie4_5_moe": {"qkv_bias": "use_bias", "o_bias": "use_bias", "mlp_bias": "use_bias",
                     "shared_expert_bias": "use_bias", "lm_head_bias": "use_bias", "router_bias": True,
                     "neutral_keys": ("moe_norm_min", "moe_capacity"),  # epsilon; training-time token capacity
                     # ERNIE-4.5's routing keys at transformers' layout (top-k gate, the correction bias always)
                     "agreeing_keys": {"moe_gate": ("topk",), "moe_use_aux_free": (True,)}},
    # Lfm2Moe: LFM2's conv / attention layers; expert_bias is a buffer (use_expert_bias shapes no parameter)
    "lfm2_moe": {"qk_norm": "head", "neutral_keys": ("use_expert_bias",),
                 "key_aliases": {"tie_word_embeddings": ["tie_embedding", "tie_word_embeddings"]},  # as lfm2 pops it
                 "agreeing_keys": _LFM2_AGREEING},
    # HunYuanMoEV1: query_layernorm / key_layernorm (head_dim); a shared_mlp of intermediate_size beside the experts
    # HunYuanMoEV1Experts and the shared HunYuanMoEV1MLP are intermediate_size wide; moe_topk may be per layer
    # (transformers 5.24.0 modeling_hunyuan_v1_moe.py); Hunyuan-A13B's per-layer moe_intermediate_size and
    # num_shared_expert lists are not read by it
    "hunyuan_v1_moe": {"qk_norm": "head", "shared_experts_as_intermediate": True,
                       "key_aliases": {"expert_intermediate": ["intermediate_size"]},
                       "agreeing_keys": {"moe_intermediate_size": "intermediate_size", "num_shared_expert": (1,),
                                         # q/k RMSNorm always, no MLP bias, RMSNorm, the MoE in every block
                                         "use_qk_norm": (True,), "mlp_bias": (False,), "norm_type": ("rms",),
                                         "use_mixed_mlp_moe": (True,), "moe_layer_num_skipped": (0,),
                                         **_HUNYUAN_AGREEING},
                       "off_keys": _HUNYUAN_OFF},
    # DogeDecoderLayer: 2 RMSNorms + input_residual + post_attention_residual vectors; A / dt_proj by the hook;
    # DogeCDMoE (is_moe true) is not modelled: is_moe then stays unconsumed
    "doge": {"qk_norm": "head", "norms_per_layer": 4, "moe_switch": "is_moe"},
    # DbrxBlock: fused Wqkv and out_proj without biases, weight-only norms, every FFN an MoE of gated experts
    # (w1 / v1 / w2); dimensions in attn_config / ffn_config (kv_n_heads is the config class's num_key_value_heads)
    "dbrx": {"nested_configs": ("ffn_config", "attn_config"), "qkv_bias": False, "o_bias": False, "mlp_bias": False,
             "key_aliases": {"num_kv_heads": ["kv_n_heads"]},  # DbrxAttention: attn_config.kv_n_heads
             "neutral_keys": ("num_key_value_heads", "attn_config.clip_qkv", "ffn_config.ffn_act_fn",
                              "ffn_config.moe_normalize_expert_weights", "ffn_config.hidden_size")},
    # group: llama-like variants
    # OlmoLayerNorm has no parameters (no norm weights anywhere); Olmo2/3 and FlexOlmo: q/k norms over heads*head_dim
    "olmo": {"norms_per_layer": 0, "final_norm": False},
    "olmo3": {"qk_norm": "full"},
    "flex_olmo": {"qk_norm": "full"},
    # CohereDecoderLayer: one CohereLayerNorm (weight only) before parallel attention and MLP; use_qk_norm adds
    # LayerNorms of (heads, head_dim) and (kv_heads, head_dim)
    "cohere": {"norms_per_layer": 1, "qk_norm": "full", "qk_norm_switch": "use_qk_norm"},
    # Command A's published keys at Cohere2's fixed layout (SwiGLU, tied embeddings, layer_types read)
    "cohere2": {"norms_per_layer": 1,
                "agreeing_keys": {"use_gated_activation": (True,), "use_embedding_sharing": "tie_word_embeddings",
                                  "order_of_interleaved_layers": ("local_attn_first",),
                                  # Cohere2DecoderLayer always runs attention and MLP in parallel off one norm
                                  "use_parallel_block": (True,), "use_parallel_embedding": (True,)}},
    "cohere_compass_text": {"norms_per_layer": 1},
    "cohere2_moe": {"norms_per_layer": 1, "dense_intermediate_key": "prefix_dense_intermediate_size",
                    "neutral_keys": ("expert_selection_fn", "prefix_dense_sliding_window_pattern",
                                     "shared_expert_combination_strategy")},
    # GlmAttention: q/k/v take attention_bias, o_proj none; Glm4 adds post-attention and post-MLP norms
    "glm": {"o_bias": False},
    "glm4": {"o_bias": False, "norms_per_layer": 4},
    "seed_oss": {"o_bias": "attention_out_bias"},
    # q/k RMSNorm(head_dim): Exaone4 and Kolibri1 with post-norms (4 a layer)
    "exaone4": {"qk_norm": "head"},
    "exaone_moe": {"qk_norm": "head"},
    # HunYuanDenseV1: q/k RMSNorm(head_dim) always, RMSNorm; the remote code's cross-layer attention (use_cla) and
    # classification head are off in the published configs, and transformers builds neither
    # SolarOpen removes Glm4Moe's use_qk_norm (modular_solar_open.py: use_qk_norm = AttributeError()): no q/k norm
    # SolarOpenAttention: o_proj bias=False whatever attention_bias says (q/k/v take it)
    # HeliumAttention: o_proj bias=False (q/k/v take attention_bias; the MLP mlp_bias)
    "helium": {"o_bias": False, "o_proj_hidden": "HeliumAttention"},
    "solar_open": {"o_bias": False, "agreeing_keys": {"use_qk_norm": (False,)}},
    "hunyuan_v1_dense": {"qk_norm": "head", "agreeing_keys": {"use_qk_norm": (True,), "norm_type": ("rms",),
                                                              **_HUNYUAN_AGREEING},
                         "off_keys": _HUNYUAN_OFF},
    "mellum": {"qk_norm": "head"},
    "hy_v3": {"qk_norm": "head", "shared_expert_bias": "mlp_bias",  # shared_experts = HYV3MLP: mlp_bias
              "neutral_keys": ("enable_moe_fp32_combine",)},
    "kolibri1": {"qk_norm": "head", "norms_per_layer": 4},
    "dots1": {"qk_norm": "head"},
    # MiniMax-M2's published keys at transformers' MiniMaxM2 layout (every layer full attention, attn_type 1; q/k
    # norm over all heads; routing bias): consumed there. use_mtp / num_mtp_modules: mtp_not_built; the checkpoint
    # stores MTP modules transformers does not build
    "minimax_m2": {"qk_norm": "full",
                   "mtp_not_built": ("num_mtp_modules", ("use_mtp", "mtp_transformer_layers"),
                                     "transformers' MiniMaxM2ForCausalLM builds none, and vLLM 0.33.0 "
                                     "(model_executor/models/minimax_m2.py) drops their weights, layers.{L} onward, "
                                     "with no MiniMax-M2 MTP drafter to load them into"),
                   "agreeing_keys": {"attn_type_list": (1,), "use_qk_norm": (True,), "qk_norm_type": ("per_layer",),
                                     "use_routing_bias": (True,), "shared_moe_mode": ("sigmoid",)}},
    # SarvamMoE runs Glm4MoeForCausalLM
    "sarvam_moe": {"o_bias": False, "qk_norm": "head", "qk_norm_switch": "use_qk_norm", "head_dim_rule": "floor",
                   "mtp_copies": True},
    # HyperCLOVAX: use_post_norm adds post_norm1 / post_norm2
    "hyperclovax": {"post_norm_switch": "use_post_norm"},
    # ArceeMLP: up/down (relu2); NanoChat: up/down, parameter-free RMSNorm everywhere (no norm weights)
    "arcee": {"mlp_gated": False},
    "nanochat": {"mlp_gated": False, "norms_per_layer": 0, "final_norm": False},
    # Apertus: up/down MLP with XIELU (alpha_p, alpha_n parameters), q/k RMSNorm(head_dim)
    "apertus": {"mlp_gated": False, "qk_norm": "head", "block_extra_params": (("mlp", 2),),
                "agreeing_keys": {"qk_norm": (True,), "post_norm": (False,)}},  # ApertusAttention: q/k norm always
    # Apertus1p5TextForCausalLM (modeling_apertus1p5.py): lm_head = nn.Linear(hidden, output_vocab_size or
    # vocab_size); the input embedding keeps vocab_size rows
    "apertus1p5_text": {"mlp_gated": False, "qk_norm": "head", "block_extra_params": (("mlp", 2),),
                        "lm_head_rows_key": "output_vocab_size"},
    # learned attention sinks per head
    "granite_swa": {"sinks": True},
    "granitemoe_swa": {"sinks": True},
    "flint": {"sinks": True, "qk_norm": "head"},
    # DiffLlamaAttention: lambda_q1 / lambda_k1 / lambda_q2 / lambda_k2 of head_dim
    "diffllama": {"block_extra_params": (("attention", 4, "head_dim"),)},
    # Ernie4_5: use_bias on q/k/v/o and the MLP (lm_head none)
    "ernie4_5": {"qkv_bias": "use_bias", "o_bias": "use_bias", "mlp_bias": "use_bias"},
    # PaddleOCR-VL's language model (ERNIE-4.5-0.3B's layout): PaddleOCRAttention and PaddleOCRMLP take bias=config.use_bias
    # (transformers 5.24.0 modeling_paddleocr_vl.py)
    "paddleocr_vl_text": {"qkv_bias": "use_bias", "o_bias": "use_bias", "mlp_bias": "use_bias"},
    # DeepseekOcr2TextMoe's shared experts are a DeepseekOcr2TextMLP (bias=config.mlp_bias; modeling_deepseek_ocr2.py)
    "deepseek_ocr2_text": {"shared_expert_bias": "mlp_bias"},
    # MiniCPM3: scale_emb / scale_depth / dim_model_base are scalar multipliers of activations
    "minicpm3": {"neutral_keys": ("dim_model_base", "scale_depth", "scale_emb")},
    # Qwen3.5 (Qwen3-Next layout): gated attention (q_proj doubled), q/k RMSNorm(head_dim), gated delta-net layers
    "qwen3_5_text": {"qk_norm": "head", "attn_output_gate": True, "linear_attention": "gated_deltanet",
                     "agreeing_keys": _QWEN3_NEXT_AGREEING},
    # Qwen3_5MoeDecoderLayer builds Qwen3_5MoeSparseMoeBlock in every layer (transformers 5.24.0
    # modeling_qwen3_5_moe.py): no mlp_only_layers / decoder_sparse_step, unlike Qwen3-Next
    "qwen3_5_moe_text": {"qk_norm": "head", "attn_output_gate": True, "shared_expert_gate": True,
                         "linear_attention": "gated_deltanet", "agreeing_keys": _QWEN3_NEXT_AGREEING,
                         "moe_every_layer": True, "experts_required": True},
    "lara_mini": {"qk_norm": "head", "linear_attention": "gated_deltanet"},
    # Lfm3: LFM2's conv / attention layers with q/k RMSNorm(head_dim); use_attention_gate adds g_proj (hidden ->
    # heads) on attention layers; use_sandwich_norm adds post_operator_norm / post_ffn_norm
    # Lfm3Model.forward builds masks for full_attention, sliding_attention and conv layers only
    "lfm3": {"qk_norm": "head", "post_norm_switch": "use_sandwich_norm",
             "layer_types_allowed": ("conv", "full_attention", "sliding_attention"),
             "block_extra_params": (("attention", "key:use_attention_gate", "hidden", "heads"),)},
    # BeamAttention: gate_proj (hidden -> heads*head_dim) output gate plus gate_bias per head; 4 norms a layer
    # BeamAttention: gate_proj bias=False beside its per-head gate_bias (block_extra_params)
    "beam": {"qk_norm": "head", "attn_output_gate": True, "attn_output_gate_bias": False, "norms_per_layer": 4,
             "block_extra_params": (("attention", "heads"),)},
    # AXK1: DeepSeek-V3 layout; the MoE block ends with its own post_mlp_layernorm
    "axk1": {"block_extra_params": (("norms", "moe", "hidden"),)},
    # MiMoV2FlashAttention: v_head_dim values; sliding layers: twice the KV heads and sinks; attention_value_scale
    # is a scalar
    # MiMoV2FlashConfig reads sliding_window_size (sliding_window = it + 1) and hard-codes the rest of what the
    # published config spells out: sliding layers of 2x the KV heads with sinks, one head_dim / v_head_dim, the
    # first and every 6th layer full (hybrid_layer_pattern: 0 full, 1 sliding)
    # MiMoV2FlashAttention: o_proj bias=False (q/k/v take attention_bias)
    "mimo_v2_flash": {"o_bias": False, "v_head_dim_key": "v_head_dim", "sliding_kv_mult": 2, "sinks": "sliding",
                      "neutral_keys": ("sliding_window_size",),
                      "agreeing_keys": {"swa_head_dim": "head_dim", "swa_v_head_dim": "v_head_dim",
                                        "swa_num_attention_heads": "num_heads",
                                        "swa_num_key_value_heads": ("times", "num_kv_heads", 2),
                                        "add_swa_attention_sink_bias": (True,),
                                        "add_full_attention_sink_bias": (False,),
                                        "hybrid_layer_pattern": ("layer_types", {"full_attention": 0,
                                                                                 "sliding_attention": 1})}},
    # MiniMaxM3VL text: q/k RMSNorm(head_dim), dense layers of dense_intermediate_size; "minimax_m3_sparse" layers
    # (an indexer, read as plain attention with a guess) are the only readers of the index_* keys
    "minimax_m3_vl_text": {"qk_norm": "head", "dense_intermediate_key": "dense_intermediate_size",
                           "kind_keys": {"minimax_m3_sparse": ("index_block_size", "index_head_dim",
                                                               "index_local_blocks", "index_n_heads",
                                                               "index_topk_blocks")}},
    # group: encoder-style causal LMs and seq2seq decoders
    # BERT-like encoders (kind "encoder", as bert): their *ForCausalLM is the encoder stack (a causal mask when
    # is_decoder) without pooler plus the MLM-style head (TaskHead.mlm_head); vLLM serves these families only for
    # pooling, so the sheet gives them no decoder serving regimes
    # a text encoder transformers knows and no reader covers (ALBERT, DeBERTa, MPNet, ...): BERT's layout, a guess
    # (assemble.BERT_LIKE_FAMILY)
    "bert-like": dict(_BERT_LIKE),
    "roberta": dict(_BERT_LIKE),
    "camembert": dict(_BERT_LIKE),
    "xlm-roberta": dict(_BERT_LIKE),
    "data2vec-text": dict(_BERT_LIKE),
    "ernie": dict(_BERT_LIKE),  # use_task_id: task_type_embeddings (kinds/encoders.py)
    # pronunciation / shape embeddings, map_inputs_layer (kinds/encoders.py); RoCBertForPreTraining: the MLM head only
    "roc_bert": {**_BERT_LIKE, "pretraining_head": "mlm"},
    "xmod": dict(_BERT_LIKE),  # per-language adapters after each block (kinds/encoders.py)
    # BertGenerationEncoder / Decoder: no token types, no pooler; the head is the tied decoder and its bias
    "bert-generation": {**_BERT_LIKE, "token_types": False, "causal_lm_head": "bias", "base_pooler": False},
    # BigBird: use_bias on q/k/v; BigBirdForCausalLM keeps the pooler; the block-sparse settings shape nothing
    "big_bird": {**_BERT_LIKE, "qkv_bias": "use_bias", "causal_lm_pooler": True, "seqcls_dense": True,
                 "tokencls_pooler": True, "qa_block": True,
                 "neutral_keys": ("attention_type", "block_size", "num_random_blocks", "rescale_embeddings")},
    # ELECTRA: factorized embeddings (embedding_size) projected to hidden; the generator head maps back to it
    "electra": {**_BERT_LIKE, "embedding_size_key": "embedding_size", "base_pooler": False,  # ElectraModel: none
                "pretraining_head": "discriminator", "mc_summary": True},
    # RoFormer: rotary attention with a sinusoidal table (max_positions x head size) stored as a parameter
    # (kinds/encoders.py) instead of learned positions; rotary_value changes no shape
    "roformer": {**_BERT_LIKE, "learned_positions": False, "embedding_size_key": "embedding_size",
                 "base_pooler": False,  # RoFormerModel has no pooler
                 "neutral_keys": ("rotary_value",)},
    # pre-norm BERT-likes: a norm before attention and before the MLP, one after the stack
    "megatron-bert": {**_BERT_LIKE, "embedding_norm": False, "final_norm": True},
    "xlm-roberta-xl": {**_BERT_LIKE, "embedding_norm": False, "final_norm": True},
    "roberta-prelayernorm": {**_BERT_LIKE, "final_norm": True},
    # BART-style seq2seq (kind "decoder" for *ForCausalLM: the decoder with its cross-attention blocks; any other
    # class is "encoder-decoder"); learned positions with BartLearnedPositionalEmbedding's offset of 2 where used;
    # Marian / Pegasus store their sinusoidal table as a parameter of max_positions rows
    "bart": {**_SEQ2SEQ, "embedding_norm": True, "position_offset": 2},
    "mbart": {**_SEQ2SEQ, "embedding_norm": True, "final_norm": True, "position_offset": 2},
    "plbart": {**_SEQ2SEQ, "embedding_norm": True, "position_offset": 2},
    "mvp": {**_SEQ2SEQ, "embedding_norm": True, "position_offset": 2,
            "off_keys": (("use_prompt", ("prompt_length", "prompt_mid_dim")),)},  # MvpPrompt: not modelled
    "bigbird_pegasus": {**_SEQ2SEQ, "embedding_norm": True, "qkv_bias": "use_bias", "o_bias": "use_bias",
                        "causal_lm_tied": False,
                        "neutral_keys": _SEQ2SEQ["neutral_keys"] + ("attention_type", "block_size",
                                                                    "num_random_blocks")},
    "pegasus": {**_SEQ2SEQ, "final_norm": True},
    # M2M100 / NLLB: pre-norm blocks, a final LayerNorm after each stack, sinusoidal positions in a buffer (no
    # parameter: M2M100SinusoidalPositionalEmbedding registers its table with persistent=False), tied embeddings
    "m2m_100": {**_SEQ2SEQ, "tie_shares_blocks": "encoder and decoder token embeddings (copies of the shared table)",
                "final_norm": True, "learned_positions": False,
                "neutral_keys": _SEQ2SEQ["neutral_keys"] + ("max_position_embeddings",)},
    # MarianDecoder: its own vocabulary (decoder_vocab_size, default vocab_size) for embed_tokens and lm_head
    "marian": {**_SEQ2SEQ, "tie_shares_blocks": "encoder and decoder token embeddings (copies of the shared table)",
               "key_aliases": {**_SEQ2SEQ["key_aliases"], "vocab_size": ["decoder_vocab_size",
                                                                                      "vocab_size"]}},
    "blenderbot": {**_SEQ2SEQ, "final_norm": True},
    "blenderbot-small": {**_SEQ2SEQ, "embedding_norm": True},
    # group: classic decoders (kinds/classic.py). ALiBi / rotary / sinusoidal positions hold no parameters.
    # BloomModel: word_embeddings_layernorm, fused query_key_value, dense_h_to_4h of 4*hidden
    "bloom": {**_CLASSIC, "embedding_norm": True, "intermediate_default": 4, "tied_default": True},
    # GPT-J / CodeGen: one ln_1 before parallel attention and MLP, q/k/v/out_proj without bias, lm_head bias;
    # n_ctx is n_positions under its old name
    "gptj": {**_CLASSIC, "norms_per_layer": 1, "qkv_bias": False, "o_bias": False, "lm_head_bias": True,
             "intermediate_default": 4, "neutral_keys": ("n_ctx",)},
    "codegen": {**_CLASSIC, "norms_per_layer": 1, "qkv_bias": False, "o_bias": False, "lm_head_bias": True,
                "intermediate_default": 4, "neutral_keys": ("n_ctx",)},
    # CTRL: sinusoidal positions (a buffer), ffn of dff; the tied lm_head has a bias
    "ctrl": {**_CLASSIC, "dense_intermediate_key": "dff", "lm_head_bias": True, "tied_default": True},
    # GPTBigCode: GPT-2 with one K/V head under multi_query (c_attn h -> h + 2 * head_dim)
    "gpt_bigcode": {**_CLASSIC, "learned_positions": True, "intermediate_default": 4, "multi_query": "multi_query",
                    "tied_default": True},
    # GPT-Neo: q/k/v without bias, out_proj with; attention_layers (derived from attention_types) alternates
    # global and local (window_size) attention
    "gpt_neo": {**_CLASSIC, "qkv_bias": False, "learned_positions": True, "intermediate_default": 4,
                "layer_types_key": "attention_layers", "neutral_keys": ("attention_types",), "tied_default": True},
    # GPT-NeoX: attention_bias on query_key_value and dense; use_parallel_residual keeps both norms
    "gpt_neox": {**_CLASSIC, "qkv_bias": "attention_bias", "o_bias": "attention_bias"},
    # GPT-NeoX-Japanese: no biases but the last layer's attention dense_bias; MLP of intermediate_multiple_size * h
    "gpt_neox_japanese": {**_CLASSIC, "qkv_bias": False, "o_bias": False, "mlp_bias": False,
                          "intermediate_default": "intermediate_multiple_size", "last_block_o_bias": True},
    # MptModel (transformers): no biases and bias-free LayerNorms whatever no_bias says, no position table
    # (learned_pos_emb is not read), an MLP of 4 * hidden (expansion_ratio, 4 in MPT checkpoints); attn_config holds
    # attention switches (alibi, clip_qkv, softmax_scale) that shape nothing
    "mpt": {**_CLASSIC, "norm_bias": False, "qkv_bias": False, "o_bias": False, "mlp_bias": False,
            "intermediate_default": "expansion_ratio", "tied_default": True,
            "neutral_keys": ("no_bias", "learned_pos_emb", "attn_config", "norm_type", "embedding_fraction",
                             "logit_scale", "init_device")},
    # OpenAI GPT: post-norm blocks (ln_1 after attention, ln_2 after the MLP), no final norm
    "openai-gpt": {**_CLASSIC, "learned_positions": True, "intermediate_default": 4, "final_norm": False,
                   "tied_default": True},
    # OPT: enable_bias on every linear; OPTLearnedPositionalEmbedding has 2 extra rows; the final norm exists with
    # do_layer_norm_before; word_embed_proj_dim != hidden (project_in / project_out) is not modelled
    "opt": {**_CLASSIC, "qkv_bias": "enable_bias", "o_bias": "enable_bias", "mlp_bias": "enable_bias",
            "learned_positions": True, "position_offset": 2, "final_norm": "do_layer_norm_before",
            "tied_default": True,
            "neutral_when": {"word_embed_proj_dim": "hidden", "layer_norm_elementwise_affine": True}},
    # XGLM: sinusoidal positions (a buffer); attention_heads is its head count
    "xglm": {**_CLASSIC, "key_aliases": {"num_heads": ["attention_heads"]}, "neutral_keys": ("scale_embedding",),
             "tied_default": True},
    # BioGPT: learned positions with OPT's offset of 2
    "biogpt": {**_CLASSIC, "learned_positions": True, "position_offset": 2, "neutral_keys": ("scale_embedding",),
               "tied_default": True},
    # Persimmon: q_layernorm / k_layernorm (LayerNorm of head_dim, with bias) when qk_layernorm
    "persimmon": {**_CLASSIC, "qk_norm": "qk_layernorm"},
    # Starcoder2: use_bias on every linear
    "starcoder2": {**_CLASSIC, "qkv_bias": "use_bias", "o_bias": "use_bias", "mlp_bias": "use_bias",
                   "agreeing_keys": {"mlp_type": ("default",), "norm_type": ("layer_norm",)}},  # c_fc/c_proj, LayerNorm
    # StableLM: LayerNorms, SwiGLU without bias, use_qkv_bias on q/k/v; qk_layernorm adds bias-free per-head
    # LayerNorms (heads x head_dim, kv_heads x head_dim); use_parallel_residual drops post_attention_layernorm
    "stablelm": {"norm": "layernorm", "qkv_bias": "use_qkv_bias", "o_bias": False, "mlp_bias": False,
                 "qk_norm": "full", "qk_norm_switch": "qk_layernorm", "single_norm_switch": "use_parallel_residual"},
    # BitNet: attn_sub_norm (hidden) before o_proj, ffn_sub_norm (intermediate) before down_proj
    "bitnet": {"block_extra_params": (("norms", "hidden"), ("norms", "intermediate"))},
    # Nemotron (-4 / Minitron): LayerNorm1P (weight + bias), up/down relu2 MLP
    "nemotron": {"norm": "layernorm", "mlp_gated": False},
    # Jais2: LayerNorms, up/down MLP with mlp_bias
    "jais2": {"norm": "layernorm", "mlp_gated": False},
    # ModernBERT decoder: norm_bias LayerNorms, Wi (h -> 2 * intermediate, a GLU), layer 0 without attn_norm, the
    # prediction head (dense with classifier_bias + norm) before the tied decoder with decoder_bias;
    # sliding_window is derived from local_attention
    "modernbert-decoder": {"norm": "layernorm", "norm_bias": "norm_bias", "embedding_norm": True,
                           "first_block_norms": 1, "lm_head_transform": "classifier_bias",
                           "lm_head_bias": "decoder_bias", "tied_default": True, "neutral_keys": ("local_attention",)},
    # XLM (XLMWithLMHeadModel): post-norm blocks, learned positions, layer_norm_emb, FFN of 4 * emb_dim, the tied
    # pred_layer.proj with bias; lang_embeddings (n_langs > 1 with use_lang_emb) are not modelled; start_n_top /
    # end_n_top / lang_id are for the QA heads and inputs
    "xlm": {**_CLASSIC, "key_aliases": {"hidden_size": ["emb_dim"]}, "learned_positions": True,
            "embedding_norm": True, "final_norm": False, "intermediate_default": 4, "lm_head_bias": True,
            "tied_default": True, "neutral_when": {"n_langs": 1},
            "neutral_keys": ("use_lang_emb", "start_n_top", "end_n_top", "lang_id", "sinusoidal_embeddings")},
    # XLNet: two-stream relative attention q / k / v / o / r (hidden x heads*d_head, no bias), r_r / r_s / r_w biases
    # and seg_embed (2 x heads x d_head) a layer, post-norm LayerNorms, mask_emb, the tied lm_loss with bias;
    # mem_len / reuse_len / clamp_len shape no parameter
    "xlnet": {**_CLASSIC, "qkv_bias": False, "o_bias": False, "final_norm": False, "lm_head_bias": True,
              "tied_default": True, "key_aliases": {"head_dim": ["d_head"]}, "dense_intermediate_key": "d_inner",
              "block_extra_params": (("attention", "hidden", "heads", "head_dim"), ("attention", 5, "heads",
                                                                                    "head_dim")),
              "model_extra_params": (("embedding", "hidden"),),
              "neutral_keys": ("mem_len", "reuse_len", "clamp_len", "bi_data", "same_length", "untie_r", "attn_type",
                               "start_n_top", "end_n_top")},
    # group: multimodal round 2 (text models of VLMs)
    # Qwen3-VL / HunYuan-VL text: q/k RMSNorm(head_dim)
    "qwen3_vl_text": {"qk_norm": "head"},
    "qwen3_vl_moe_text": {"qk_norm": "head"},
    "hunyuan_vl_text": {"qk_norm": "head"},
    # Glm4vTextAttention: q/k/v always with bias, o_proj none; post_self_attn / post_mlp norms (4 a layer)
    "glm4v_text": {"qkv_bias": True, "o_bias": False, "norms_per_layer": 4, "neutral_keys": ("attention_bias",)},
    # GlmOcrText: no attention biases; 4 norms a layer
    "glm_ocr_text": {"qkv_bias": False, "o_bias": False, "norms_per_layer": 4, "neutral_keys": ("attention_bias",)},
    # Glm4vMoeTextAttention: q/k/v take attention_bias, o_proj none, head_dim floors hidden // heads; no q/k norms
    # Glm4vMoeTextAttention has no q/k norm (transformers 5.24.0 modeling_glm4v_moe.py); GLM-4.5V writes use_qk_norm
    # false, as GLM-4.5's text config does
    "glm4v_moe_text": {"o_bias": False, "head_dim_rule": "floor", "agreeing_keys": {"use_qk_norm": (False,)}},
    # MllamaTextModel: embed_tokens has vocab_size + 8 rows; cross_attention_layers are MllamaCrossAttentionDecoderLayer
    # (q/k/v/o of the self-attention's shape plus q_norm / k_norm of head_dim and two scalar tanh gates)
    "mllama_text_model": {"model_extra_params": (("embedding", 8, "hidden"),),
                          "block_extra_params": (("attention", "in:cross_attention_layers", 2, "head_dim"),
                                                 ("attention", "in:cross_attention_layers", 2))},
    # Step3p5 (Step3p7's text model): q/k RMSNorm(head_dim), g_proj (hidden -> heads) head gate, one shared expert
    # of share_expert_dim; sliding layers take num_sliding_attention_heads through per_layer_config (not modelled:
    # the keys stay unmodelled when a sliding layer exists)
    "step3p5": {"qk_norm": "head", "shared_expert_bias": "mlp_bias",  # Step3p7MLP(is_shared_expert): mlp_bias
                "block_extra_params": (("attention", "hidden", "heads"),),
                "key_aliases": {"shared_intermediate": ["share_expert_dim"]},
                "kind_keys": {"sliding_attention": ("num_sliding_attention_heads", "per_layer_config")}},
    # AriaTextMoELayer: the shared experts' MLP (AriaSharedExpertsMLP) takes mlp_bias
    "aria_text": {"shared_expert_bias": "mlp_bias"},
    # Ernie4_5_VLMoeTextModel: Ernie 4.5 MoE's layout with text_moe and vision_moe expert groups (moe_intermediate_size
    # [text, vision]), each with its gate and moe_statics.e_score_correction_bias; shared experts of the text width;
    # Ernie4_5_VLMoeForConditionalGeneration's lm_head bias=False whatever use_bias says
    "ernie4_5_vl_moe_text": {"qkv_bias": "use_bias", "o_bias": "use_bias", "mlp_bias": "use_bias",
                             "shared_expert_bias": "use_bias", "lm_head_bias": False, "router_bias": True,
                             "expert_groups": True, "neutral_keys": ("moe_norm_min",),
                             "block_extra_params": (("router", "moe", "hidden", "key:moe_num_experts"),
                                                    ("router", "moe", "key:moe_num_experts"))},
    # Molmo2TextModel: embed_tokens has vocab_size + additional_vocab_size rows; q/k RMSNorm(head_dim) (qk_norm_type
    # "qwen3"; "olmo" is full-width, left unmodelled); norm_after moves the same norms after the sublayers
    "molmo2_text": {"qk_norm": "head", "o_bias": False,  # Molmo2Attention: o_proj bias=False
                    "model_extra_params": (("embedding", "key:additional_vocab_size", "hidden"),),
                    "neutral_when": {"qk_norm_type": "qwen3"}, "neutral_keys": ("norm_after",)},
    # group: hybrids round 2 (kinds/hybrids2.py)
    # FalconH1: attention beside a Mamba2 (mamba_d_ssm overrides expand * hidden) in every layer, then the MLP
    "falcon_h1": {"linear_attention": "mamba2", "mamba_d_inner": "expand", "mamba_d_inner_key": "mamba_d_ssm",
                  "agreeing_keys": {"mamba_use_mlp": (True,)},  # FalconH1DecoderLayer: the MLP in every block
                  # not read by transformers' FalconH1 (its MLP is intermediate_size wide; published 8 beside
                  # intermediate_size = 2-4 x hidden)
                  "neutral_keys": ("mlp_expansion_factor",)},
    # Zamba: Mamba (1) layers of one norm; "hybrid" layers add the shared attention block (hook)
    "zamba": {"linear_attention": "mamba1", "ffn": False, "norms_per_layer": 1,
              "tie_shares_blocks": "hybrid layers' shared transformer block (ZambaModel._tied_weights_keys)"},
    # Zamba2: Mamba2 layers (n_mamba_heads x mamba_headdim, mamba_ngroups); "hybrid" layers add a shared block (hook)
    "zamba2": {"linear_attention": "mamba2", "ffn": False, "norms_per_layer": 1, "mamba_d_inner": "expand",
               "agreeing_keys": {"use_shared_mlp_adapter": (True,)},  # Zamba2MLP always builds its adapters
               "key_aliases": {"mamba_num_heads": ["n_mamba_heads"], "mamba_head_dim": ["mamba_headdim"],
                               "mamba_n_groups": ["mamba_ngroups"]}},
    # Laguna: q/k RMSNorm(head_dim), e_score_correction_bias on the router; per-layer heads and g_proj (hook)
    "laguna": {"qk_norm": "head", "router_bias": True},
    # RWKV (v4): every block time + channel mixing (the rwkv kind), LayerNorms, pre_ln on block 0 (the embedding
    # norm), ln_out; context_length and rescale_every shape nothing
    "rwkv": {"layer_kind": "rwkv", "attention_free": True, "ffn": False, "norm": "layernorm", "embedding_norm": True,
             "neutral_keys": ("context_length", "rescale_every")},
    # Kimi Linear: linear_attention layers are Kimi delta attention (low-rank gates of head_dim), full layers MLA
    # KimiLinearConfig.__post_init__ reads the checkpoint's linear_attn_config into linear_head_dim,
    # linear_num_heads, linear_conv_kernel_dim and (1-indexed) layer_types, the attributes the kda reader consumes
    "kimi_linear": {"layer_kind_aliases": {"linear_attention": "kda"}, "kda_gate_rank": "head_dim",
                    "keyed_configs": ("linear_attn_config",),
                    "neutral_keys": ("moe_renormalize", "num_expert_group",  # routing only
                                     "linear_attn_config.head_dim", "linear_attn_config.num_heads",
                                     "linear_attn_config.short_conv_kernel_size",
                                     "linear_attn_config.full_attn_layers", "linear_attn_config.kda_layers")},
    # BailingHybrid: linear_attention layers are Kimi delta attention with full-width f_proj / g_proj
    # (linear_conv_kernel_dim and layer_types are derived from short_conv_kernel_size and layer_group_size); the
    # MLA layers' g_proj (hidden -> heads) gates the attention output
    "bailing_hybrid": {"layer_kind_aliases": {"linear_attention": "kda"},
                       "block_extra_params": (("attention", "hidden", "heads"),),
                       "neutral_keys": ("short_conv_kernel_size", "layer_group_size", "kda_safe_gate",
                                        "moe_renormalize", "num_expert_group")},
    # RecurrentGemma: linear_attention layers are Griffin RG-LRU blocks, the others local attention of
    # attention_window_size (layers_block_type derived from block_types); MLP widths and biases in the hook
    "recurrent_gemma": {"layer_kind_aliases": {"linear_attention": "rg_lru"}, "tied_default": True,
                        "neutral_keys": ("block_types",)},
    # xLSTM: num_blocks mLSTM blocks (the mlstm kind; FFN in the hook), RMSNorm weights, out_norm with add_out_norm
    "xlstm": {"layer_kind": "mlstm", "attention_free": True, "ffn": False, "final_norm": "add_out_norm",
              "key_aliases": {"num_layers": ["num_blocks", "num_hidden_layers"]}},
    # MiniMax (-Text-01): linear_attention layers are lightning attention; the alpha / beta factors scale residuals
    "minimax": {"experts_required": True, "layer_kind_aliases": {"linear_attention": "lightning_attention"},
                "neutral_keys": ("full_attn_alpha_factor", "full_attn_beta_factor", "linear_attn_alpha_factor",
                                 "linear_attn_beta_factor", "mlp_alpha_factor", "mlp_beta_factor")},
}

FAMILIES.update({  # group: audio and omni: the thinkers' text models
    # Qwen2.5-Omni thinker text model: Qwen2 attention (q/k/v with bias, o_proj without)
    "qwen2_5_omni_text": {"qkv_bias": True, "o_bias": False},
    # Qwen3-Omni-MoE thinker text model: Qwen3-MoE (per-head q/k RMSNorms); head_dim (128) is a class default
    # that need not divide hidden_size
    "qwen3_omni_moe_text": {"qk_norm": "head", "head_dim_rule": "floor"},
    # Kosmos-2 text model: BART-style names, biased q/k/v/out_proj and fc1/fc2, LayerNorms, sinusoidal positions
    # (a buffer); inner_attn_ln (embed_dim) before out_proj and ffn_layernorm (ffn_dim) before fc2
    "kosmos_2_text_model": {**_CLASSIC, "key_aliases": {"hidden_size": ["embed_dim"], "num_layers": ["layers"],
                                                        "num_heads": ["attention_heads"],
                                                        "intermediate_size": ["ffn_dim"]},
                            "block_extra_params": (("norms", 2, "hidden"), ("norms", 2, "intermediate")),
                            "neutral_keys": ("scale_embedding",)},
    # Chameleon: q_norm / k_norm are LayerNorms over (heads, head_dim) and (kv_heads, head_dim), weight + bias
    "chameleon": {"block_extra_params": (("norms", 2, "heads", "head_dim"), ("norms", 2, "kv_heads", "head_dim")),
                  # group: omni models and image tokenizer towers. modeling_chameleon.py: model_parallel_size is stored,
                  # never shapes a tensor; swin_norm picks ChameleonSwinDecoderLayer, whose norms are the same two
                  "neutral_keys": ("model_parallel_size", "swin_norm")},
})

FAMILIES.update({  # group: blt, cpmant, prophetnet, reformer, rembert, t5gemma2 (kinds/oddities.py)
    # CPM-Ant (modeling_cpmant.py): weight-only CpmAntLayerNorm, bias-free q/k/v/out and gated w_0/w_1/w_out
    # (dim_ff), heads x dim_head; input_embedding holds vocab + prompt_types * prompt_length rows, segment_embedding
    # segment_types rows, position_bias a (segment_types^2 + buckets) x heads relative bias; lm_head is never tied
    "cpmant": {"key_aliases": {"intermediate_size": ["dim_ff"], "head_dim": ["dim_head"]}, "never_tied": True,
               "model_extra_params": (("embedding", "key:prompt_types", "key:prompt_length", "hidden"),
                                      ("embedding", "key:segment_types", "hidden"),
                                      ("attention", "key:segment_types", "key:segment_types",
                                       "key:num_attention_heads"),
                                      ("attention", "key:position_bias_num_buckets", "key:num_attention_heads")),
               "neutral_keys": ("position_bias_max_distance",)},
    # RemBERT (modeling_rembert.py): BERT layout with input_embedding_size-wide tables (embedding_hidden_mapping_in
    # maps them to hidden) and an untied MLM head of output_embedding_size
    # ProphetNet (modeling_prophetnet.py): BART-style post-norm blocks; the decoder's self-attention is the n-gram
    # stream attention with relative_pos_embeddings (hidden -> num_buckets * heads, bias) in every layer;
    # ngram_embeddings (ngram x hidden); cross-attention per add_cross_attention (kept by ProphetNetForCausalLM)
    "prophetnet": {**_SEQ2SEQ, "tie_shares_blocks": "encoder and decoder token embeddings (copies of the shared table)",
                   "embedding_norm": True, "cross_attention": "add_cross_attention",
                   "key_aliases": {"num_layers": ["num_decoder_layers"], "num_heads": ["num_decoder_attention_heads"],
                                   "intermediate_size": ["decoder_ffn_dim"], "encoder_layers": ["num_encoder_layers"],
                                   "encoder_attention_heads": ["num_encoder_attention_heads"]},
                   "block_extra_params": (("attention", "hidden", "key:num_buckets", "heads"),
                                          ("attention", "key:num_buckets", "heads")),
                   "model_extra_params": (("embedding", "key:ngram", "hidden"),),
                   "neutral_keys": ("relative_max_distance", "disable_ngram_loss")},
    # Reformer (modeling_reformer.py): reversible blocks of LayerNorm + LSH or local attention (attn_layers) and
    # LayerNorm + dense/output FFN (feed_forward_size, biases); heads x attention_head_size need not be hidden;
    # axial positions, the 2 * hidden final norm and the 2 * hidden LM head in the hook; nothing is tied
    "reformer": {"norm": "layernorm", "qkv_bias": False, "o_bias": False, "mlp_gated": False, "mlp_bias": True,
                 "final_norm": False, "never_tied": True, "lm_head_bias": True, "layer_types_key": "attn_layers",
                 "layer_kind_aliases": {"lsh": "reformer_lsh", "local": "reformer_local"},
                 "key_aliases": {"intermediate_size": ["feed_forward_size"], "head_dim": ["attention_head_size"]}},
    # BLT (modeling_blt.py): the local decoder (decoder_config) is the main stack of Llama-like blocks (RMSNorm,
    # bias-free attention of head_dim hidden // heads, SwiGLU) with cross-attention to the patches, its norm the
    # final norm, its window local_attention_window_len; encoder, global transformer, hash embeddings and patcher
    # in the hook
    # BltForCausalLM._tied_weights_keys ties local_encoder.embed_tokens (encoder vocab x encoder hidden) to lm_head
    # (decoder vocab x decoder hidden): tensors of different shapes; lm_head is counted on its own
    "blt": {"never_tied": True, "tie_true_note": "BltForCausalLM ties local_encoder.embed_tokens to lm_head, "
                                                 "tensors of different shapes (transformers then counts lm_head in the "
                                                 "byte embedding's place); lm_head counted untied and the byte "
                                                 "embedding kept",
            "nested_configs": ("decoder_config",), "key_aliases": {"sliding_window": ["local_attention_window_len"]}},
    # T5Gemma2 decoder (modeling_t5gemma2.py): Gemma-3 blocks (four RMSNorms, q/k norms over head_dim, gated MLP)
    # whose T5Gemma2MergedAttention attends to itself and to the encoder with the same q/k/v/o; the encoder, the
    # shared eoi_embedding and the tower in kinds/oddities.py (read from config.encoder)
    "t5gemma2_decoder": {"norms_per_layer": 4, "qk_norm": "head", "tied_default": True,
                         "tie_shares_blocks": "decoder token embedding (T5Gemma2Model ties it to the encoder's)",
                         "neutral_keys": ("query_pre_attn_scalar",)},
    "rembert": {**_BERT_LIKE, "embedding_size_key": "input_embedding_size",
                "mlm_head_width_key": "output_embedding_size", "tied_default": False},
})

_INKLING_KINDS = {"hybrid": "full_attention", "hybrid_sliding": "sliding_attention"}
_INKLING_NEUTRAL = ("log_scaling_n_floor", "log_scaling_alpha", "qk_l2_clip_threshold", "rel_l2_clip_threshold",
                    "mlp_gate_softcap", "mlp_up_softcap", "scoring_func", "route_scale", "shared_expert_sink",
                    "number_of_conv_states", "chain_hidden_post_norm", "mtp_hidden_states_first",
                    "mtp_local_layer_ids", "local_layer_ids", "n_layers_per_attn_res_block", "rms_norm_eps_moe_gate",
                    "logits_mup_width_multiplier")
FAMILIES.update({  # group: g2 (kinds/inkling.py): "hybrid" / "hybrid_sliding" layers are softmax attention whose
    # modules the hooks complete; the FFNs too (ffn False: the hook builds every MLP / MoE)
    # Inkling: InklingNormedEmbedding's embed_norm; unpadded_vocab_size only drops logits (lm_head has vocab_size);
    # Inkling*ForCausalLM / ForConditionalGeneration declare _tied_weights_keys = {}: never tied
    "inkling_text": {"layer_kind_aliases": _INKLING_KINDS, "ffn": False, "embedding_norm": True, "never_tied": True,
                     "neutral_keys": _INKLING_NEUTRAL + ("unpadded_vocab_size",)},
    "inkling2_text": {"layer_kind_aliases": _INKLING_KINDS, "ffn": False, "embedding_norm": True, "never_tied": True,
                      "neutral_keys": _INKLING_NEUTRAL},
    "inkling2_loop_text": {"layer_kind_aliases": _INKLING_KINDS, "ffn": False, "embedding_norm": True,
                           "never_tied": True, "neutral_keys": _INKLING_NEUTRAL},
    # ZAYA: the lm_head (tied by default) takes lm_head_bias
    "zaya": {"layer_kind_aliases": _INKLING_KINDS, "ffn": False, "lm_head_bias": "lm_head_bias", "tied_default": True},
})

FAMILIES.update({  # group: qwen4_exp, glm5_next, dots3_note, cosmos3_edge (kinds/g4.py)
    # Qwen4-Exp text model: Qwen3-Next's layers (gated delta-net, gated attention with per-head q/k norms, MoE with
    # a gated shared expert on every layer) in hyper-connection blocks: no per-block norms, no final norm (the hook);
    # indexed_attention is that gated attention plus a QSA indexer (the hook)
    "qwen4_exp_text": {"qk_norm": "head", "attn_output_gate": True, "shared_expert_gate": True,
                       "linear_attention": "gated_deltanet", "norms_per_layer": 0, "final_norm": False,
                       "layer_kind_aliases": {"indexed_attention": "full_attention"}},
    # Dots3-Note text model: MLA layers whose shapes come from per_layer_config (kinds/g4.py), g_proj and
    # k_rope_only_layernorm per attention, dense / sparse MLPs by mlp_layer_types
    "dots3_note_text": {"mlp_bias": False,
                        "layer_kind_aliases": {k: "dots3_note_attention" for k in
                                               ("indexed_attention", "sliding_attention", "full_attention")},
                        "neutral_keys": ("mlp_bias", "n_group", "topk_group", "routed_scaling_factor")},
    # GLM-5-Next text model: linear_attention layers are Kimi delta attention (gates of rank linear_head_dim),
    # indexed_attention layers GLM-5's MLA + DSA indexer (indexer_types "shared": none) with the indexer's k-pool
    # weights and two hyper-connections a block (the hook); dense / sparse MLPs by mlp_layer_types
    "glm5_next_text": {"layer_kind_aliases": {"linear_attention": "kda"}, "kda_gate_rank": "head_dim",
                       "mlp_bias": False,
                       "neutral_keys": ("n_group", "topk_group", "routed_scaling_factor", "swiglu_limit",
                                        "linear_lower_bound", "hc_eps", "hc_sinkhorn_iters",
                                        "index_kpool_always_select_tail")},
    # Cosmos3-Edge text model: Nemotron-style fc1/fc2 MLP (relu2, ungated), RMSNorms, no biases
    "cosmos3_edge_text": {"mlp_gated": False},
})

#: group: longcat_flash, muse_spark, muse_glimmer, axk2, hy_v4, hy_v4_vl (g3). HY-V4's per-block extras
#: (modeling_hy_v4.py): HYV4Attention.gate_proj (hidden -> heads x v_head_dim) and sinks (heads); two
#: HYV4HyperConnection (attn_hc, ffn_hc): fn (2n x n*hidden), base (2n), scale (2), n = hc_mult; the model's
#: HYV4HyperHead: hc_fn (n x n*hidden), hc_base (n), hc_scale (1). The hyper-connection weights count as norms
#: (as DeepSeek-V4's, kinds/deepseek.py).
_HY_V4: dict[str, Any] = {
    "block_extra_params": (("attention", "hidden", "heads", "key:v_head_dim"), ("attention", "heads"),
                           ("norms", 2, 2, "key:hc_mult", "key:hc_mult", "hidden"), ("norms", 2, 2, "key:hc_mult"),
                           ("norms", 2, 2)),
    "model_extra_params": (("norms", "key:hc_mult", "key:hc_mult", "hidden"), ("norms", "key:hc_mult"),
                           ("norms", 1)),
    "neutral_keys": ("hc_magnitude", "hc_eps", "learnable_sink_init", "swiglu_limit", "n_group", "topk_group")}
FAMILIES.update({  # group: longcat_flash, muse_spark, muse_glimmer, axk2, hy_v4, hy_v4_vl (g3)
    # A.X-K2 (modeling_axk2.py): DeepSeek-V3.2 layers whose AXK2Attention has no q_b_proj but a fused q_gate_proj
    # (2*q_lora_rank -> heads x (qk_nope + qk_rope + v_head_dim): the query and a sigmoid output gate), i.e.
    # q_lora x heads x (qk_head_dim + 2 v_head_dim) beyond the spec's q_b_proj; AXK2GatedRMSNorm wraps
    # input_layernorm on every layer and post_attention_layernorm on MoE layers with a low-rank gate MLP (fc1
    # hidden -> gated_norm_rank, fc2 back, no biases)
    "axk2": {"block_extra_params": (("attention", "key:q_lora_rank", "heads", "key:qk_nope_head_dim"),
                                    ("attention", "key:q_lora_rank", "heads", "key:qk_rope_head_dim"),
                                    ("attention", 2, "key:q_lora_rank", "heads", "key:v_head_dim"),
                                    ("norms", 2, "hidden", "key:gated_norm_rank"),
                                    ("norms", 2, "moe", "hidden", "key:gated_norm_rank")),
             "neutral_keys": ("n_group", "topk_group")},
    # LongcatFlashMLA always scales its LoRA outputs (mla_scale_q_lora = sqrt(hidden / q_lora_rank), no
    # parameters); its zero experts are identities (no weights): the published switches at those values
    "longcat_flash": {"agreeing_keys": {"mla_scale_q_lora": (True,), "mla_scale_kv_lora": (True,),
                                        "zero_expert_type": ("identity",)}},
    "hy_v4": _HY_V4,
    "hy_v4_vl_text": _HY_V4,
    # Muse Glimmer text model (modeling_muse_glimmer.py): MuseGlimmerTextAttention.gate_proj (hidden -> heads x
    # head_dim, no bias) gates the attention output; four centered RMSNorms a block (input, post-attention,
    # pre- and post-feedforward); the q/k norm and the embedding norm are weight-less
    "muse_glimmer_text": {"norms_per_layer": 4, "block_extra_params": (("attention", "hidden", "heads", "head_dim"),),
                          "neutral_keys": ("qk_scale_factor", "layer_rope_theta", "post_norm_eps")},
    # Muse Spark text model (modeling_muse_spark.py): the same gated attention; three weighted norms a block
    # (post_attention_layernorm is weight-less) and two MuseSparkResidualGate vectors (hidden each);
    # MuseSparkMoE pools hidden to moe_hidden_size (pre_expert_proj) with a centered RMSNorm, runs the experts at
    # that width (a latent MoE, kinds/ffn.py), renormalizes them (post_expert_norm, moe_hidden_size) and unpools
    # (post_expert_proj); the router scores the hidden state; mlp_layer_types "dense" layers are MuseSparkTextMLP
    "muse_spark_text": {"norms_per_layer": 3, "key_aliases": {"moe_latent_size": ["moe_hidden_size"]},
                        "block_extra_params": (("attention", "hidden", "heads", "head_dim"), ("norms", 2, "hidden"),
                                               ("norms", 2, "moe", "key:moe_hidden_size")),
                        "neutral_keys": ("qk_scale_factor", "layer_rope_theta", "post_norm_eps",
                                         "residual_gate_temperature", "routed_scaling_factor")},
})

FAMILIES.update({  # group: g6 (kinds/looped.py): reused blocks, text layers with adapters into a non-text tower
    # modeling_hrm_text.py: HrmTextRMSNorm has no weight (no norm parameters), MHA (k/v at num_attention_heads,
    # num_key_value_heads is not read) with a gate_proj output gate (bias: attention_bias); stacks in the hook
    "hrm_text": {"norms_per_layer": 0, "final_norm": False, "attn_output_gate": True},
    # modeling_dory.py: DoryL2Norm has no weight; gate_proj output gate; sqk and s_gate (heads*head_dim), suv_gate
    # and suv_up (intermediate), lambda_1 and lambda_2 (hidden) per block; DoryLMHead's logit_scale (vocab)
    "dory": {"norms_per_layer": 0, "final_norm": False, "attn_output_gate": True,
             "block_extra_params": (("attention", 2, "heads", "head_dim"), ("mlp", 2, "intermediate"),
                                    ("norms", 2, "hidden")),
             "model_extra_params": (("lm_head", "key:vocab_size"),)},
    # modeling_evolla.py: a Llama decoder (EvollaAttention, EvollaMLP, RMSNorms); adapters in the hook
    "evolla": {},
    # modeling_idefics.py: IdeficsAttention q/k/v/o without bias at hidden // heads (no KV-head or head_dim key),
    # IdeficsMLP gate/up/down without bias, RMSNorms; gated cross-attention layers in the hook
    "idefics": {"qkv_bias": False, "o_bias": False, "mlp_bias": False, "neutral_keys": ("dropout",)},
})

#: ``architectures[0]`` class names that identify a family when ``model_type`` is unknown to
#: transformers (e.g. Kimi-K2 ships ``model_type: kimi_k2`` with DeepseekV3ForCausalLM code).
ARCHITECTURE_HINTS: dict[str, str] = {
    "DeepseekV3ForCausalLM": "deepseek_v3",
    "DeepseekV2ForCausalLM": "deepseek_v2",
    "DeepseekV32ForCausalLM": "deepseek_v32",
    "DeepseekV4ForCausalLM": "deepseek_v4",
    "Glm4MoeForCausalLM": "glm4_moe",
    "Glm4MoeLiteForCausalLM": "glm4_moe_lite",
    "GlmMoeDsaForCausalLM": "glm_moe_dsa",
    "LlamaForCausalLM": "llama",
    "MistralForCausalLM": "mistral",
    "MixtralForCausalLM": "mixtral",
    "Qwen2ForCausalLM": "qwen2",
    "Qwen3ForCausalLM": "qwen3",
    "Qwen3MoeForCausalLM": "qwen3_moe",
    "DeciLMForCausalLM": "nemotron-nas",
    "NemotronHForCausalLM": "nemotron_h",
    "GptOssForCausalLM": "gpt_oss",
    # the original Falcon repos' RefinedWeb code (model_type RefinedWeb / RefinedWebModel), which transformers'
    # Falcon port reads: n_layer, n_head, n_head_kv / multi_query, parallel_attn, a 4 x hidden MLP
    "RWForCausalLM": "falcon",
}


#: top-level ``model_type`` values whose parameter layout is checked against transformers' modeling
#: code on torch's meta device: the oracle (``scripts/meta_oracle.py``; numbers in
#: ``tests/data/meta_oracle.json`` and ``tests/data/meta_oracle_sweep.json``) agrees exactly for
#: each, and ``tests/test_oracle_sweep.py`` keeps this set equal to what agrees. A type outside it
#: is read with the same readers, but its counts are labelled estimated (``params.exact: false``).
VERIFIED: frozenset[str] = frozenset({
    "bert", "deepseek_v3", "falcon", "gpt2", "gpt_oss", "llama", "llama4", "mixtral", "nemotron_h", "phi", "qwen2",
    "qwen2_5_vl", "qwen3", "qwen3_moe", "qwen3_next", "t5", "mt5", "umt5", "m2m_100", "longt5",
    # DeepSeek / GLM MoE families (also tests/data/deepseek_oracle.json, tests/test_deepseek_family.py)
    "deepseek_v2", "deepseek_v32", "deepseek_v4", "glm4_moe", "glm4_moe_lite", "glm_moe_dsa", "mistral4", "param2moe",
    "minicpm5_moe", "ergo", "kolibri1_1",
    "mistral_large4",
    # Gemma text families (also tests/data/gemma_oracle.json, tests/test_gemma_family.py)
    "gemma", "gemma2", "gemma3", "gemma3_text", "gemma3n_text", "gemma4_text", "gemma4_unified_text", "vaultgemma",
})
VERIFIED = VERIFIED | frozenset({  # group: classic decoders (kinds/classic.py)
    "biogpt", "bitnet", "bloom", "codegen", "ctrl", "gpt_bigcode", "gpt_neo", "gpt_neox", "gpt_neox_japanese", "gptj",
    "jais2", "modernbert-decoder", "mpt", "nemotron", "openai-gpt", "opt", "persimmon", "stablelm", "starcoder2",
    "xglm", "xlm", "xlnet"})
VERIFIED = VERIFIED | frozenset({"olmoe", "phimoe", "olmo_hybrid", "bamba", "mamba2", "granitemoehybrid",
                                  "mamba", "falcon_mamba", "jamba", "afmoe", "ernie4_5_moe",
                                  "lfm2_moe", "hunyuan_v1_moe", "doge", "dbrx",
                                  "aria_text"})  # group: MoE and hybrids (aria_text: the moe_topk alias)
VERIFIED = VERIFIED | frozenset({  # group: encoder-style causal LMs and seq2seq decoders
    "bert-generation", "big_bird", "camembert", "data2vec-text", "electra", "ernie", "megatron-bert", "roberta",
    "roberta-prelayernorm", "roc_bert", "roformer", "xlm-roberta", "xlm-roberta-xl", "xmod",
    "bart", "bigbird_pegasus", "blenderbot", "blenderbot-small", "marian", "mbart", "mvp", "pegasus", "plbart"})
VERIFIED = VERIFIED | frozenset({  # group: vision towers (also tests/data/vision_oracle.json, test_vision_towers.py)
    "deepseek_vl", "idefics3", "internvl", "kimi_k25", "lfm2_vl", "lighton_ocr", "llava", "llava_next", "qwen2_vl",
    "llava_next_video", "llava_onevision", "mistral3", "paddleocr_vl", "paligemma", "shieldgemma2", "smolvlm",
    "video_llama_3", "vipllava"})
VERIFIED = VERIFIED | frozenset({  # group: llama-like variants
    "apertus", "apertus1p5_text", "arcee", "cohere", "cohere2", "cohere2_moe", "cohere_compass_text", "cwm",
    "diffllama", "dots1", "ernie4_5", "exaone", "exaone4", "exaone_moe", "flex_olmo", "flint", "glm", "glm4",
    "granite", "granite_swa", "granitemoe", "granitemoe_swa", "granitemoeshared", "helium", "hunyuan_v1_dense",
    "hy_v3", "hyperclovax", "internlm3", "iquestcoder", "kolibri1", "lfm2", "llama4_text", "mellum", "minicpm3",
    "minimax_m2", "ministral", "ministral3", "mistral", "nanochat", "olmo", "olmo2", "olmo3", "phi3", "qwen2_moe",
    "sarvam_mla", "sarvam_moe", "seed_oss", "smollm3", "solar_open", "youtu",
    "aya_vision", "cohere2_vision", "hyperclovax_vision_v2",  # their text models are cohere2 / hyperclovax
    "qwen3_5_text", "qwen3_5_moe_text", "qwen3_5", "qwen3_5_moe", "lara_mini", "lfm3", "beam", "axk1",
    "mimo_v2_flash", "minimax_m3_vl_text", "minimax_m3_vl", "gemma4_assistant", "gemma4_unified_assistant"})
VERIFIED = VERIFIED | frozenset({  # group: audio and omni (audio towers: kinds/vision/audio.py)
    "qwen2_audio", "voxtral", "blip-2", "instructblip", "instructblipvideo", "fuyu",
    "qwen2_5_omni_thinker", "qwen3_omni_moe_thinker", "gemma4", "gemma4_unified", "phi4_multimodal", "kosmos-2",
    "gemma3n"})  # gemma3n: its towers (kinds/vision/gemma3n.py) in tests/test_towers_gemma3n_parakeet.py
VERIFIED = VERIFIED | frozenset({  # group: multimodal round 2
    "qwen3_vl", "qwen3_vl_moe", "cosmos3_omni", "hunyuan_vl", "mllama", "glm4v", "glm46v", "glm4v_moe", "glmga",
    "glm_ocr", "exaone4_5", "step3p7", "video_llava", "qianfan_ocr", "minicpmv4_6", "minicpmv4_7", "minicpm_ocr",
    "aria", "idefics2", "granite4_vision", "got_ocr2", "deepseek_vl_hybrid", "ovis2", "molmo2", "granite_docling",
    "ernie4_5_vl_moe", "lfm3_vl", "deepseek_ocr2"})
VERIFIED = VERIFIED | frozenset({"falcon_h1", "zamba", "zamba2", "jetmoe", "laguna",
                                  "minimax", "rwkv", "kimi_linear", "bailing_hybrid",
                                  "recurrent_gemma", "xlstm"})  # group: hybrids round 2 (kinds/hybrids2.py)
VERIFIED = VERIFIED | frozenset({  # group: blt, cpmant, prophetnet, reformer, rembert, t5gemma2 (kinds/oddities.py)
    "blt", "cpmant", "prophetnet", "reformer", "rembert", "t5gemma2"})
VERIFIED = VERIFIED | frozenset({  # group: g2 (kinds/inkling.py)
    "inkling_text", "inkling_mm_model", "inkling2_text", "inkling2", "inkling2_loop_text", "inkling2_loop", "zaya"})

VERIFIED = VERIFIED | frozenset({"hrm_text", "dory", "evolla", "idefics"})  # group: g6 (kinds/looped.py)
VERIFIED = VERIFIED | frozenset({  # group: longcat_flash, muse_spark, muse_glimmer, axk2, hy_v4, hy_v4_vl (g3)
    "axk2", "hy_v4", "hy_v4_vl", "muse_glimmer"})
VERIFIED = VERIFIED | frozenset({  # group: omni models and image tokenizer towers (kinds/vision/generators.py)
    "qwen2_5_omni", "qwen3_omni_moe", "nemotron_h_omni", "chameleon", "emu3", "janus", "apertus1p5",
    "cohere_compass"})
VERIFIED = VERIFIED | frozenset({  # group: qwen4_exp, glm5_next, dots3_note, cosmos3_edge (g4, kinds/g4.py)
    "qwen4_exp", "qwen4_exp_text", "glm5_next", "dots3_note", "dots3_note_text", "cosmos3_edge"})

#: top-level ``model_type`` of a wrapper -> its own modules around the text model, as ``block_extra_params``
#: entries read on the top-level config (``"key:NAME"`` factors; ``hidden`` is the text model's width).
#: Gemma4Assistant (a draft model fed the backbone's hidden states): pre_projection (2*backbone -> hidden),
#: post_projection (hidden -> backbone), the masked embedder's centroids when use_ordered_embeddings.
WRAPPER_MODULES: dict[str, tuple] = {
    "gemma4_assistant": (("embedding", 2, "key:backbone_hidden_size", "hidden"),
                         ("lm_head", "hidden", "key:backbone_hidden_size"),
                         ("lm_head", "key:use_ordered_embeddings", "hidden", "key:num_centroids"),
                         ("lm_head", 0, "key:centroid_intermediate_top_k")),  # read, shapes nothing
}
WRAPPER_MODULES["gemma4_unified_assistant"] = WRAPPER_MODULES["gemma4_assistant"]

#: ``model_type`` values ``score`` refuses, with the reason (one place; the oracle sweep skips them too)
REFUSED: dict[str, str] = {}
_BLIP2_NOT_GENERATING = ("a BLIP-2 {what} class: it builds no language model and generates no text "
                         "(modeling_blip_2.py); deploysheet serves Blip2ForConditionalGeneration")
#: ``architectures[0]`` classes of a family deploysheet reads that build another model than its generator (the
#: family's layout would count modules the class never builds): class name -> why it is refused
REFUSED_CLASSES: dict[str, str] = {
    "Blip2ForImageTextRetrieval": _BLIP2_NOT_GENERATING.format(what="image-text matching (Q-Former and ITM head)"),
    "Blip2TextModelWithProjection": _BLIP2_NOT_GENERATING.format(what="Q-Former text embedding"),
    "Blip2VisionModelWithProjection": _BLIP2_NOT_GENERATING.format(what="vision embedding"),
    "Blip2VisionModel": _BLIP2_NOT_GENERATING.format(what="vision encoder"),
    "Blip2QFormerModel": _BLIP2_NOT_GENERATING.format(what="Q-Former"),
}
REFUSED.update({  # group: encoder-style causal LMs and seq2seq decoders: text decoders conditioned on a non-text encoder
    "whisper": "speech recognition: the decoder needs audio encoder states; not a text-serving model",
    "trocr": "OCR text decoder: its cross-attention needs an image encoder's states; not a text-serving model",
    "vision-encoder-decoder": "image-to-text (OCR, captioning): the text decoder needs image encoder states; not a "
                              "text-serving model",
    "pp_formulanet": "formula OCR: the text decoder needs image encoder states; not a text-serving model",
    "florence2": "image-to-text vision model (DaViT image encoder, BART-style encoder-decoder): it needs an image; "
                 "not a text-serving model",
    "kosmos-2.5": "document-image OCR / reading model: it needs an image; not a text-serving model",
})
REFUSED.update({  # skipped by the oracle sweep for the same reasons (tests/data/meta_oracle_sweep.json "skipped")
    "diffusion_gemma": "a block-diffusion language model (denoising sampler), not autoregressive decoding",
    "diffusion_gemma_text": "a block-diffusion language model (denoising sampler), not autoregressive decoding",
    "musicgen": "text-to-music: generates audio codec tokens, not text",
    "musicgen_melody": "text-to-music: generates audio codec tokens, not text",
    "pi0": "a vision-language-action policy: generates robot actions, not text",
    "pi05": "a vision-language-action policy (pi0.5): generates robot actions, not text",
    "audioflamingo3": "audio understanding (Audio Flamingo 3): the decoder needs audio encoder states; not a "
                      "text-serving model",
    "musicflamingo": "music understanding (Music Flamingo): the decoder needs audio encoder states; not a "
                     "text-serving model",
    "seamless_m4t": "speech / text translation (SeamlessM4T): a multitask model of speech and text towers; not "
                    "modelled",
    "seamless_m4t_v2": "speech / text translation (SeamlessM4T v2): a multitask model of speech and text towers; "
                       "not modelled",
    "encoder-decoder": "a composite of any encoder and decoder configs (EncoderDecoderModel): score its encoder "
                       "and decoder configs instead",
})
REFUSED.update({  # seq2seq LMs swept on the meta device whose layouts have no reader yet (one line each, not a guess)
    "led": "Longformer-Encoder-Decoder: its encoder's global-attention projections (query/key/value_global) have no "
           "reader yet",
    "fsmt": "FSMT translation models: separate source and target vocabularies (src_vocab_size / tgt_vocab_size) have "
            "no reader yet",
    "nllb-moe": "NLLB-MoE: the M2M100 layout with sparse MoE blocks every few layers has no reader yet",
    "switch_transformers": "Switch Transformers: T5 blocks with a router and experts every sparse_step layers have no "
                           "reader yet",
    "pegasus_x": "PEGASUS-X: its block-local encoder with global tokens has no reader yet",
    "t5gemma": "T5Gemma: encoder and decoder Gemma-2 stacks in sub-configs have no reader yet (T5Gemma 2, model_type "
               "t5gemma2, is read)",
})
REFUSED.update({  # group: classic decoders
    "moshi": "speech-to-speech dialogue model: its text stream is decoded together with Mimi audio codec tokens by "
             "a depth decoder; not a text-serving model",
})
_ASR = "the decoder needs audio encoder states; not a text-serving model"
_IMG = "the text decoder needs image encoder states; not a text-serving model"
REFUSED.update({  # group: audio and omni: speech recognition / transcription and image-to-text (OCR, captioning)
    "qwen3_asr": "speech recognition (Qwen3-ASR): " + _ASR,
    "glmasr": "speech recognition (GLM-ASR): " + _ASR,
    "fun_asr_nano": "speech recognition (Fun-ASR-Nano): " + _ASR,
    "granite_speech": "speech recognition and speech translation (Granite Speech): " + _ASR,
    "granite_speech_plus": "speech recognition and speech translation (Granite Speech Plus): " + _ASR,
    "moss_transcribe_diarize": "speech transcription with speaker diarization: " + _ASR,
    "omniasr": "speech recognition (Omnilingual ASR): " + _ASR,
    "vibevoice_asr": "speech recognition (VibeVoice-ASR): " + _ASR,
    "voxtral_realtime": "streaming speech transcription (Voxtral Realtime): " + _ASR,
    "kyutai_speech_to_text": "speech-to-text (Kyutai STT, Mimi codec tokens in): " + _ASR,
    "nemo_speechlm": "speech transcription (Nemotron Transcribe SpeechLM): " + _ASR,
    "pix2struct": "image-to-text (screenshot parsing, captioning): " + _IMG,
    "pp_chart2table": "chart-to-table OCR (GOT-OCR2 layout): it needs an image; not a text-serving model",
    "unlimited_ocr": "document OCR: it needs an image; not a text-serving model",
    "udop": "document-image understanding (T5 over text, layout and image patches): it needs a document image; "
            "not a text-serving model",
    "blip": "image captioning (BLIP): " + _IMG,
    "git": "image captioning / visual QA (GIT): the text decoder is trained on image encoder states; not a "
           "text-serving model",
})


def family_flags(family: str) -> dict[str, Any]:
    """Merged structure flags of a family (unknown families get the llama-like defaults)."""
    merged = dict(DEFAULT_FAMILY)
    merged.update(FAMILIES.get(family, {}))
    return merged
VERIFIED = VERIFIED | frozenset({  # group: longcat_flash (the meta device's zero-expert gate_up rows are not stored:
                                  "longcat_flash"})  # tests/test_oracle_sweep.py ORACLE_OVERCOUNT derives them)
VERIFIED = VERIFIED | frozenset({  # group: muse_spark (the oracle's routed experts no longer count the shared
                                  "muse_spark"})  # experts.post_expert_norm weight: scripts/meta_oracle.py _routed)
