"""KV cache and recurrent-state sizes, in bytes, under a named runtime allocation policy.

Per attention layer and token (K and V):

* softmax attention: ``num_kv_heads * (head_dim + v_head_dim) * dtype_bytes``
  (hardware-fit-rules R3: 2 * n_kv * head_dim * bytes when v_head_dim = head_dim);
* MLA: ``(kv_lora_rank + qk_rope_head_dim) * dtype_bytes`` — the compressed latent plus the
  decoupled rope key (R3; FlashMLA's 576 = 512 + 64); DeepSeek sparse attention adds the indexer's key
  (``index_head_dim`` values in fp8 with a float32 scale per 128, whatever the KV dtype: :data:`INDEX_KEY_BYTES`),
  except on GLM-5 layers that reuse the previous layer's selection (``shared``);
* DeepSeek-V4 compressed attention (:class:`~scorer.architecture.CompressedAttentionSpec`): what a layer
  keeps per context token is its compressed entries — ``head_dim / compress_rate`` values (one shared K=V
  entry of ``head_dim`` per ``compress_rate`` tokens: CSA m = 4, HCA m' = 128), plus for CSA the indexer's
  compressed key, ``index_head_dim / compress_rate``; sliding-only layers keep nothing per token. Every V4 layer
  also holds a fixed per-sequence state, under both policies (transformers ``DeepseekV4HCACache`` /
  ``DeepseekV4CSACache``, DeepSeek's description of the model): the sliding window of ``window`` uncompressed
  ``head_dim`` entries, and the compressor's pending source tokens — assumed one full window of
  ``compress_rate`` tokens of its kv and gate projections (2 x ``head_dim`` each for CSA's two overlapping
  series, 1 x for HCA; the indexer's at ``index_head_dim``) plus CSA's carried-over overlap slice
  (``compress_rate`` x ``head_dim``, kv and gate). All of it in the KV dtype (assumption: DeepSeek's reference
  keeps the compressor state in float32, engines may quantize the entries; both are small next to the window).

Recurrent layers hold a fixed per-sequence state: Mamba2 ``conv_dim*(conv_kernel-1)`` conv values
plus ``n_heads*head_dim*d_state`` SSM values; gated delta-net ``conv_dim*(conv_kernel-1)`` plus
``num_v_heads*head_k_dim*head_v_dim``; Mamba (1) ``d_inner*(conv_kernel-1)`` conv values plus
``d_inner*d_state`` SSM values (transformers ``MambaCache`` conv_states / ssm_states; vLLM keeps
``conv_kernel - 1`` columns); other recurrent specs state their own ``state_elements``. The state dtype is float32 when the config says so
(``mamba_ssm_cache_dtype``), else the model's own dtype (:func:`recurrent_state_dtype`), whatever the KV cache
dtype: vLLM's ``--mamba-cache-dtype auto`` takes the model config's dtype, and ``--kv-cache-dtype``
does not apply to the recurrent state (vLLM ``CacheConfig.mamba_cache_dtype``). Under the engine policies the
SSM part may differ from the conv window (:func:`state_dtype_for`: vLLM keeps NemotronH's and KDA's in float32,
SGLang every Mamba2 / delta-net SSM state).

Policies (:data:`POLICIES`):

* ``vllm`` (default): every attention layer, sliding and chunked ones included, allocates
  pages for every token of the context — full pages for sliding layers, as vLLM's paged
  allocator does when a model mixes layer kinds;
* ``window``: sliding-window and chunked layers keep at most ``window`` tokens (llama.cpp's
  SWA cache); only full-attention layers grow with the context.

Tensor parallelism: with TP <= num_kv_heads each GPU holds num_kv_heads/TP heads; with TP >
num_kv_heads every GPU keeps one KV head (vLLM ``QKVParallelLinear`` replication, rule T2), so the
cache is replicated TP/num_kv_heads times. MLA's latent is replicated on every TP rank.
Recurrent state is split by heads across TP.
"""

from __future__ import annotations

import math
import re
from typing import NamedTuple

from pydantic import BaseModel, Field

from .architecture import (AttentionSpec, CompressedAttentionSpec, GatedDeltaNetSpec, Mamba2Spec, MLASpec, ModelArch,
                           ShortConvSpec)
from .architecture.specs import KDASpec, Mamba1Spec
from .architecture.specs import kv_heads_per_gpu  # noqa: F401  (re-exported: costmodel, tests)
from .memo import MIB, ByteLRU

DTYPE_BYTES = {"fp32": 4.0, "float32": 4.0, "bf16": 2.0, "fp16": 2.0, "float16": 2.0, "bfloat16": 2.0,
               "fp8": 1.0, "fp8_e4m3": 1.0, "fp8_e5m2": 1.0, "int8": 1.0, "nvfp4": 0.5625, "fp4": 0.5625}
KV_DTYPES = ("bf16", "fp16", "fp8", "fp32", "nvfp4")

POLICIES = {
    "vllm": "vLLM 0.33.0 hybrid KV cache manager (V1): full-attention layers hold pages of 16 tokens for the whole "
            "context; a sliding-window layer holds min(window - 1 + in-flight tokens, context) tokens in pages, plus "
            "one page; a chunked layer min(chunk + in-flight tokens, context); layer groups padded to equal size "
            "share one block pool; recurrent layers hold one fixed state per sequence, except beside full attention "
            "with prefix caching on (the default): Mamba2 / delta-net layers in align mode, each state a page the "
            "size of an attention block grown to hold it, 3 pages a layer per request.",
    "vllm-unified": "vLLM with --disable-hybrid-kv-cache-manager: every attention layer (sliding and chunked "
                    "included) holds pages for the whole context; recurrent state fixed.",
    "sglang": "SGLang 0.5.23 SWA memory pool: full-attention layers draw from a full pool, sliding layers from an SWA "
              "pool of swa_full_tokens_ratio = 0.8 of its tokens, and free tokens that leave the window; a "
              "sequence needs its context in the full pool and min(context, window) in the SWA pool. Mamba / "
              "delta-net models: the memory left after the weights is split first, mamba_full_memory_ratio = 0.9 "
              "to 1 (0.9 / 1.9 of it) into a pool of fixed state slots and the rest into the KV pool; running "
              "requests are capped at the slots // 5 (3 base + 2 extra-buffer tracking slots, the default for "
              "NemotronH, Qwen3-Next and the other extra-buffer hybrids with the overlap scheduler; 3 for the "
              "others, 4 with PP) (mem_cache/kv_cache_configurator.py _handle_max_mamba_cache, "
              "resolve_max_num_reqs; data/engines.json sglang.mamba_pool).",
    "trtllm": "TensorRT-LLM (assumed, not read from its source): a sliding-window layer's cache is cyclic within its "
              "window (blocks of 32 tokens); full-attention layers grow with the context; recurrent state fixed.",
    "window": "window-capped (llama.cpp SWA cache): sliding-window and chunked layers keep at most their window "
              "of tokens; full-attention layers grow with the context; recurrent state fixed.",
}
#: the KV policy each serving framework's engine implements (data/engines.json)
FRAMEWORK_POLICY = {"vllm": "vllm", "sglang": "sglang", "trtllm": "trtllm"}


class EngineKV(NamedTuple):
    """The allocation knobs a policy needs (data/engines.json): vLLM's block size and in-flight tokens
    (max_concurrent_batches x max_num_batched_tokens), SGLang's SWA-to-full pool ratio, TensorRT-LLM's block."""

    block_size: int = 16
    in_flight_tokens: int = 2 * 8192
    swa_ratio: float = 0.8
    trt_block: int = 32


class KVLayerKind(BaseModel):
    kind: str = Field(description="full, sliding, chunked, mla, dsa, swa/csa/hca (DeepSeek-V4), mamba2, "
                                  "gated_deltanet")
    layers: int
    bytes_per_token_per_layer: int = Field(description="K+V bytes per token in one layer (0 for recurrent)")
    window: int | None = None
    state_bytes_per_sequence_per_layer: int = 0


class KVCache(BaseModel):
    policy: str
    policy_description: str
    dtype: str
    bytes_per_token: int = Field(description="all layers, one sequence: bytes added by each context token (under "
                                             "'window', tokens beyond every window)")
    bytes_per_token_all_layers: int = Field(description="K+V bytes per token summed over every attention layer")
    fixed_bytes_per_sequence: int = Field(description="window-capped layers at full window + recurrent state")
    by_kind: list[KVLayerKind]
    per_sequence_bytes: dict[int, int] = Field(description="context length (tokens) -> bytes for one sequence")
    per_gpu_bytes_per_token: dict[int, int] = Field(description="TP degree -> per-GPU bytes per token (vllm policy "
                                                                "slope), with KV-head replication")
    kv_replication: dict[int, float] = Field(description="TP degree -> copies of each KV head across the TP group")
    notes: list[str] = Field(default_factory=list)


def mla_elements_per_token(m: MLASpec) -> int:
    """Cached values per token of one MLA layer: the latent plus the rope key, plus the DeepSeek
    sparse attention indexer's own key (``index_head_dim``) when the layer has one."""
    own_index_key = m.indexer is not None and not m.indexer.shared
    latent = 0 if m.kv_shared else m.kv_lora_rank + m.qk_rope_head_dim  # Mistral Large 4: an earlier layer's
    return latent + (m.indexer.head_dim if own_index_key else 0)


#: bytes per element of a DeepSeek sparse attention indexer key as the engines cache it, whatever the KV dtype: fp8
#: values and one float32 scale per 128 (vllm 0.33.0 models/deepseek_v32/attention.py: head_dim 128 + 128 // 128 x 4
#: = 132 bytes of uint8; sglang 0.5.23 mem_cache/memory_pool.py DSATokenToKVPool: uint8 index keys with a scale per
#: 128, assumed the same row size)
INDEX_KEY_BYTES = 1.0 + 4.0 / 128


def mla_bytes_per_token(m: MLASpec, b: float) -> float:
    """Bytes per token one MLA layer caches at KV dtype bytes ``b``: the latent and rope key (:func:
    `mla_elements_per_token`) at ``b``, the DeepSeek sparse attention indexer's key at :data:`INDEX_KEY_BYTES`."""
    own_index_key = m.indexer is not None and not m.indexer.shared
    index = m.indexer.head_dim if own_index_key else 0
    return (mla_elements_per_token(m) - index) * b + index * INDEX_KEY_BYTES


def compressed_elements_per_token(m: CompressedAttentionSpec) -> float:
    """Cached values one DeepSeek-V4 layer adds per context token: its compressed entries (and CSA's
    indexer keys), ``(head_dim [+ index_head_dim]) / compress_rate``; 0 for a sliding-only layer."""
    if not m.compress_rate:
        return 0.0
    width = m.head_dim + (m.indexer.head_dim if m.indexer is not None else 0)
    return width / m.compress_rate


def compressed_state_elements(m: CompressedAttentionSpec) -> int:
    """Fixed per-sequence values of one DeepSeek-V4 layer: the sliding window and the compressor's pending
    window and overlap state (assumptions in the module docstring)."""
    n = m.window * m.head_dim
    if m.compression == "hca":
        n += m.compress_rate * 2 * m.head_dim  # pending kv + gate, one series
    elif m.compression == "csa":
        widths = [m.head_dim] + ([m.indexer.head_dim] if m.indexer is not None else [])
        for w in widths:  # compressor and indexer: pending kv + gate of two series, overlap kv + gate
            n += m.compress_rate * (2 * 2 * w + 2 * w)
    return n


def _layer_bytes(mixer, b: float) -> int:
    if isinstance(mixer, MLASpec):
        return int(mla_bytes_per_token(mixer, b))
    if isinstance(mixer, CompressedAttentionSpec):
        return int(compressed_elements_per_token(mixer) * b)
    if isinstance(mixer, AttentionSpec):  # 0 when it reads an earlier layer's cache (kv_shared)
        return int(mixer.kv_elements_per_token() * b)
    return 0


def temporal_elements(mixer) -> int:
    """The recurrent ("temporal", SSM) part of a layer's state, which engines may keep at another dtype than the
    conv window: Mamba2's heads x head_dim x d_state, gated delta-net's v_heads x k_dim x v_dim, KDA's heads x D x D;
    0 for other kinds (their whole state at the conv dtype)."""
    if isinstance(mixer, Mamba2Spec):
        return mixer.n_heads * mixer.head_dim * mixer.d_state
    if isinstance(mixer, GatedDeltaNetSpec):
        return mixer.num_v_heads * mixer.head_k_dim * mixer.head_v_dim
    if isinstance(mixer, KDASpec):
        return mixer.scan_elements
    if isinstance(mixer, Mamba1Spec):  # transformers MambaCache ssm_states (d_inner, d_state)
        return mixer.d_inner * mixer.d_state
    return 0


def state_pair(state_dtype: str) -> tuple[float, float]:
    """Bytes per element of (conv window, temporal state) for a state dtype name: "bf16" both, "bf16+fp32" the conv
    window in bf16 and the SSM state in float32 (:func:`state_dtype_for`)."""
    conv, _, temporal = state_dtype.partition("+")
    return DTYPE_BYTES[conv], DTYPE_BYTES[temporal or conv]


def _state_bytes(mixer, b) -> int:
    """A layer's fixed per-sequence state in bytes: ``b`` bytes an element, or a (conv, temporal) pair
    (:func:`state_pair`) splitting it at :func:`temporal_elements`."""
    if isinstance(b, tuple):
        conv_b, temp_b = b
        t = temporal_elements(mixer)
        return int(_state_bytes(mixer, 1.0) * conv_b + t * (temp_b - conv_b)) if t else _state_bytes(mixer, conv_b)
    if isinstance(mixer, Mamba2Spec):
        return int((mixer.conv_dim * (mixer.conv_kernel - 1) + mixer.n_heads * mixer.head_dim * mixer.d_state) * b)
    if isinstance(mixer, GatedDeltaNetSpec):
        return int((mixer.conv_dim * (mixer.conv_kernel - 1)
                    + mixer.num_v_heads * mixer.head_k_dim * mixer.head_v_dim) * b)
    if isinstance(mixer, ShortConvSpec):  # the last kernel - 1 inputs of every channel
        return int(mixer.channels * (mixer.kernel - 1) * b)
    if hasattr(mixer, "state_elements"):  # other recurrent kinds say their own state (Mamba1Spec, ...)
        return int(mixer.state_elements * b)
    if isinstance(mixer, AttentionSpec):  # a convolution / delayed-value state beside the KV cache (ZAYA CCA)
        return int(mixer.side_state_elements * b)
    return 0


def _side_bytes(m, sb, tp: int) -> float:
    """An attention layer's per-sequence side state on one GPU (its channels shard with the heads; convolution
    windows, at the conv dtype of a (conv, temporal) pair)."""
    sb = sb[0] if isinstance(sb, tuple) else sb
    return m.side_state_elements * sb / tp if isinstance(m, AttentionSpec) else 0.0


_GROUPS = ByteLRU("kvcache.mixer_groups", 4 * MIB)


def mixer_groups(arch: ModelArch) -> list[tuple[object, int]]:
    """Distinct layer mixers of ``arch`` with their layer counts (memoized per architecture object)."""
    hit = _GROUPS.get_for(arch, id(arch))
    if hit is not None:
        return hit
    groups: dict[tuple, list] = {}
    for m in (x for lay in arch.layers for x in (lay.mixer, lay.side_mixer)):  # side_mixer: a block's second mixer
        if m is not None:
            key = (type(m).__name__, *m.__dict__.values())
            if key in groups:
                groups[key][1] += 1
            else:
                groups[key] = [m, 1]
    out = [(m, n) for m, n in groups.values()]
    return _GROUPS.put_for(arch, id(arch), out)


def per_sequence_bytes(arch: ModelArch, context: int, kv_dtype: str = "bf16", policy: str = "vllm",
                       tp: int = 1, state_dtype: str | None = None, engine: EngineKV | None = None) -> int:
    """Bytes of KV cache plus recurrent state that one sequence of ``context`` tokens holds on one GPU under
    ``policy`` (:data:`POLICIES`): pool capacity / this = the sequences that fit. For ``sglang`` it is the
    equivalent bytes of the two pools, (full + ratio x SWA bytes per token) x max(context, min(context,
    window) / ratio). ``engine``: the policy's knobs (default :class:`EngineKV`, vLLM's at 8192 batched tokens)."""
    key = (id(arch), context, kv_dtype, policy, tp, state_dtype, engine)
    hit = _PER_SEQ.get_for(arch, key)
    if hit is not None:
        return hit
    b = DTYPE_BYTES[kv_dtype]
    sb = state_pair(state_dtype or state_dtype_for(arch, policy))
    eng = engine or EngineKV()
    if policy in ("vllm", "sglang", "trtllm"):
        out = int(_engine_sequence_bytes(arch, context, b, sb, policy, tp, eng))
    else:
        total = 0.0
        for m, count in mixer_groups(arch):
            total += count * (_sequence_bytes_one(m, context, b, sb, "window" if policy == "window" else "vllm", tp)
                              + _side_bytes(m, sb, tp))
        out = int(total)
    return _PER_SEQ.put_for(arch, key, out)


def draft_layer_bytes(arch: ModelArch, context: int, kv_dtype: str = "bf16", tp: int = 1) -> float:
    """Bytes one speculative draft layer's KV holds for a sequence of ``context`` tokens on one GPU: a layer of the
    target's first full-attention mixer (an MTP layer is one of the target's layers; an EAGLE-3 head's attention is
    assumed to have the target's KV heads). The engines cache it beside the target's: SGLang 0.5.23
    model_executor/pool_configurator.py adds cell_size x draft layers / layers to the per-token cell, vLLM 0.33.0
    allocates KV for the drafter's attention layers (v1/spec_decode/llm_base_proposer.py). 0 without attention."""
    layers = arch.attention_layers()
    if not layers:
        return 0.0
    m = next((la.mixer for la in layers if getattr(la.mixer, "span", "full") == "full"), layers[0].mixer)
    return _sequence_bytes_one(m, context, DTYPE_BYTES[kv_dtype], (0.0, 0.0), "vllm", tp)


#: (id(arch), context, kv dtype, policy, tp, state dtype, engine knobs) -> (weak reference to the arch, bytes): cost
#: models of one GPU that differ in weight precision (and a sheet's regimes and sweep) ask the same sizes; the weak
#: reference checks the id still names that arch (a stale entry is a miss and ages out); ~600 bytes an entry
_PER_SEQ = ByteLRU("kvcache.per_sequence_bytes", 1 * MIB)


def _attention_kind(m) -> tuple[str, int | None] | None:
    """(full | sliding | chunked, window) of a paged attention mixer; None for other mixers."""
    if isinstance(m, MLASpec):
        return ("full", None)
    if isinstance(m, AttentionSpec):
        if m.span in ("sliding", "chunked") and m.window:
            return (m.span, m.window)
        return ("full", None)
    return None


def _engine_sequence_bytes(arch: ModelArch, c: int, b: float, sb: float, policy: str, tp: int,
                           eng: EngineKV) -> float:
    """Per-sequence bytes under an engine's allocator (see :data:`POLICIES`; sources in data/engines.json)."""
    fixed = 0.0
    buckets: dict[tuple, list] = {}  # (kind, window, bytes per token) -> [layers]
    paged_states: list[tuple[int, float, int]] = []  # vLLM MambaSpec layers: (layers, page bytes, checkpoint align)
    for m, count in mixer_groups(arch):
        kind = _attention_kind(m)
        if kind is None:  # recurrent state, DeepSeek-V4 compressed layers: their own accounting
            fixed += count * _sequence_bytes_one(m, c, b, sb, "vllm", tp)
            if isinstance(m, ALIGNED_STATES):
                paged_states.append((count, _state_bytes(m, sb) / tp, 64 if isinstance(m, GatedDeltaNetSpec) else 1))
            continue
        fixed += count * _side_bytes(m, sb, tp)
        per_tok = _sequence_bytes_one(m, 1, b, sb, "vllm", tp)
        if per_tok <= 0:
            continue
        key = (kind[0], kind[1], per_tok)
        buckets.setdefault(key, [0])[0] += count
    if not buckets:
        return fixed
    if policy == "sglang":
        full = sum(n * bpt for (k, _, bpt), (n,) in buckets.items() if k == "full")
        swa = sum(n * bpt for (k, _, bpt), (n,) in buckets.items() if k != "full")
        if not swa:
            return fixed + full * c
        window = max(w for (k, w, _) in buckets if k != "full")
        r = eng.swa_ratio
        if not full:  # all-SWA: one pool, no ratio (pool_configurator._solve_pool_sizes)
            return fixed + swa * min(c, window)
        return fixed + (full + r * swa) * max(c, min(c, window) / r)
    if policy == "trtllm":
        blk = eng.trt_block
        total = 0.0
        for (k, w, bpt), (n,) in buckets.items():
            tokens = c if k == "full" else min(c, w)
            total += n * bpt * (-(-tokens // blk)) * blk
        return fixed + total
    # vLLM V1 hybrid KV cache manager
    if policy == "vllm" and paged_states and all(k == "full" for (k, _, _) in buckets):
        return _vllm_align_mode_bytes(c, buckets, paged_states, eng)
    bs, fl = eng.block_size, eng.in_flight_tokens

    def blocks(kind: str, w: int | None) -> int:
        if kind == "sliding":
            return -(-min(w - 1 + fl, c) // bs) + 1
        if kind == "chunked":
            return -(-min(w + fl, c) // bs)
        return -(-c // bs)

    sizes = [n for (n,) in buckets.values()]
    uniform = len({bpt for (_, _, bpt) in buckets}) == 1
    if len(buckets) == 1 or not uniform:  # one group, or page sizes vLLM must unify first: no padding modelled
        return fixed + sum(n * bpt * blocks(k, w) * bs for (k, w, bpt), (n,) in buckets.items())
    group = min(sizes)
    if max(sizes) < 1.5 * min(sizes):
        group = max(sizes)
    total = 0.0
    for (k, w, bpt), (n,) in buckets.items():
        groups = -(-n // group)  # the last group of a kind is padded to group_size layers
        total += groups * group * bpt * blocks(k, w) * bs
    return fixed + total


#: recurrent layers vLLM 0.33.0 pages as MambaSpec blocks next to attention (mamba_mixer2.py, gated delta-nets, KDA)
ALIGNED_STATES = (Mamba2Spec, GatedDeltaNetSpec, KDASpec)
#: FlashAttention's kernel block sizes are MultipleOf(16) (the default backend below Blackwell; vllm 0.33.0
#: v1/attention/backends/flash_attn.py get_supported_kernel_block_sizes)
KERNEL_BLOCK_ALIGNMENT = 16


def _vllm_align_mode_bytes(c: int, buckets: dict, states: list[tuple[int, float, int]], eng: EngineKV) -> float:
    """A hybrid attention + Mamba / delta-net model under vLLM 0.33.0's defaults, prefix caching on (config/cache.py;
    models/config.py MambaModelConfig sets mamba_cache_mode "align" for hybrids): the attention block grows until
    one attention page holds a state (platforms/interface.py _align_hybrid_block_size: kernel alignment 16, lcm with
    the layers' prefill-checkpoint alignment, 64 assumed for gated delta-nets on the FlashInfer GDN prefill, 1 for
    Mamba2), the state page is padded to it, each state layer keeps 2 + 1 checkpoint pages a request
    (v1/kv_cache_interface.py MambaSpec.max_memory_usage_bytes), and the kinds are padded to groups of equal layer
    counts (v1/core/kv_cache_planning.py): bytes = (attention groups x ceil(c / block) + state groups x 3) x group
    size x page."""
    import math
    attn_tok = max(bpt for (_, _, bpt) in buckets)  # one attention layer's bytes per token (a uniform page)
    n_attn = sum(n for (n,) in buckets.values())
    n_state = sum(n for n, _, _ in states)
    page_state = max(p for _, p, _ in states)
    align = math.lcm(KERNEL_BLOCK_ALIGNMENT, *(a for _, _, a in states))
    bs = max(eng.block_size, align * -(-page_state // (align * attn_tok)))
    page = bs * attn_tok
    group = min(n_attn, n_state)
    if max(n_attn, n_state) < 1.5 * group:
        group = max(n_attn, n_state)
    blocks = -(-n_attn // group) * -(-c // bs) + -(-n_state // group) * 3
    return blocks * group * page


def _sequence_bytes_one(m, context: int, b: float, sb: float, policy: str, tp: int) -> float:
    """Bytes one layer with mixer ``m`` holds for a sequence of ``context`` tokens on one GPU."""
    windowed = policy == "window" and getattr(m, "span", "full") != "full" and getattr(m, "window", None)
    tokens = min(context, m.window) if windowed else context
    if isinstance(m, AttentionSpec):
        return m.kv_elements_per_token(tp) * b * tokens
    if isinstance(m, MLASpec):
        return mla_bytes_per_token(m, b) * tokens
    if isinstance(m, CompressedAttentionSpec):  # one shared KV head: replicated on every TP rank, like MLA
        return compressed_elements_per_token(m) * b * context + compressed_state_elements(m) * b
    if isinstance(m, (Mamba2Spec, GatedDeltaNetSpec, ShortConvSpec)) or hasattr(m, "state_elements"):
        return _state_bytes(m, sb) / tp
    return 0.0


#: architectures whose vLLM config hook defaults the SSM state to float32 (vllm 0.33.0 model_executor/models/config.py
#: NemotronHForCausalLMConfig.DEFAULT_MAMBA_SSM_CACHE_DTYPE, registered for these classes)
VLLM_FP32_SSM_ARCHS = ("NemotronHForCausalLM", "NemotronHPuzzleForCausalLM", "NemotronH_Nano_VL_V2")
#: architectures whose vLLM config hook sets --mamba-ssm-cache-dtype auto to the config's ``mamba_ssm_dtype`` where it
#: has one (vllm 0.33.0 model_executor/models/config.py Qwen3_5ForConditionalGenerationConfig, registered in
#: MODELS_CONFIG_MAP for these classes; Qwen4Exp's hooks call it)
VLLM_CONFIG_SSM_ARCHS = ("Qwen3_5ForCausalLM", "Qwen3_5ForConditionalGeneration", "Qwen3_5MoeForCausalLM",
                         "Qwen3_5MoeForConditionalGeneration", "Qwen4ExpForCausalLM",
                         "Qwen4ExpForConditionalGeneration")
#: model types whose SGLang 0.5.23 config class passes ``dtype=mamba2_state_dtype(self)`` to its cache params, so the
#: config's mamba_ssm_dtype counts (srt/configs/nemotron_h.py, jet_nemotron.py, zaya.py, gigachat35.py, falcon_h1.py,
#: qwen3_next.py, whose Qwen3NextConfig qwen3_5.py's and qwen4_exp.py's text configs subclass); every other config
#: keeps the field's default ``mamba2_state_dtype(None)`` (configs/mamba_utils.py:112), float32 whatever it says
#: (mamba.py _mamba1_cache_params, mamba2.py, granitemoehybrid.py, kimi_linear.py, bailing_hybrid.py, minicpm.py ...)
SGLANG_CONFIG_SSM_TYPES = ("nemotron_h", "nemotron_h_puzzle", "jet_nemotron", "zaya", "gigachat3_5", "falcon_h1",
                           "qwen3_next", "qwen3_5_text", "qwen3_5_moe_text", "qwen4_exp_text")
_DTYPE_NAMES = {"float32": "fp32", "fp32": "fp32", "bfloat16": "bf16", "bf16": "bf16", "float16": "fp16",
                "fp16": "fp16"}


def state_dtype_for(arch: ModelArch, policy: str = "vllm") -> str:
    """The recurrent state's dtype under an engine's allocation policy, as a :func:`state_pair` name.

    * vLLM 0.33.0 (policies vllm, vllm-unified): the conv window at the model dtype (``--mamba-cache-dtype auto``);
      the temporal state the same (layers/mamba/mamba_utils.py ``_mamba_state_dtype``: auto = the conv dtype, for
      Mamba-1 too), except KDA's, float32 under auto (``kda_state_dtype``), NemotronH's, the config's
      mamba_ssm_cache_dtype else float32 (:data:`VLLM_FP32_SSM_ARCHS`), and Qwen3.5's / Qwen4Exp's, the config's
      mamba_ssm_dtype where it names one (:data:`VLLM_CONFIG_SSM_ARCHS`);
    * SGLang 0.5.23: the conv window in bf16 (SGLANG_MAMBA_CONV_DTYPE's default), the temporal state the config's
      mamba_ssm_dtype else float32 (srt/configs/mamba_utils.py ``mamba2_state_dtype``, also used for gated
      delta-nets) where its config class passes itself (:data:`SGLANG_CONFIG_SSM_TYPES`); any other model, pure
      Mamba-1 included (configs/mamba.py ``_mamba1_cache_params``: the cache params' dtype is
      ``mamba2_state_dtype(None)``, which reads no config), keeps it in float32 whatever its config says;
    * other policies (TensorRT-LLM, the window policy): the model's dtype, float32 where the config asks for it
      (:func:`recurrent_state_dtype`).
    """
    base = recurrent_state_dtype(arch.dtype, arch.ssm_state_fp32)
    if not any(temporal_elements(m) for m, _ in mixer_groups(arch)):
        return base
    keys = arch.ssm_dtype_keys
    if policy in ("vllm", "vllm-unified"):
        conv = recurrent_state_dtype(arch.dtype)
        if any(isinstance(m, KDASpec) for m, _ in mixer_groups(arch)):
            temporal = "fp32"
        elif any(a in VLLM_FP32_SSM_ARCHS for a in arch.architectures):
            temporal = _DTYPE_NAMES.get(keys.get("mamba_ssm_cache_dtype", "float32"), "fp32")
        elif any(a in VLLM_CONFIG_SSM_ARCHS for a in arch.architectures) and "mamba_ssm_dtype" in keys:
            temporal = _DTYPE_NAMES.get(keys["mamba_ssm_dtype"], conv)
        else:
            temporal = conv
        return conv if temporal == conv else f"{conv}+{temporal}"
    if policy == "sglang":
        reads_config = {arch.model_type, arch.text_model_type} & set(SGLANG_CONFIG_SSM_TYPES)
        temporal = _DTYPE_NAMES.get(keys.get("mamba_ssm_dtype", "float32"), "fp32") if reads_config else "fp32"
        return "bf16" if temporal == "bf16" else f"bf16+{temporal}"
    return base


def recurrent_state_dtype(arch_dtype: str | None, ssm_fp32: bool = False) -> str:
    """dtype of the recurrent (Mamba / delta-net) state: fp32 if the config asks for it
    (``mamba_ssm_cache_dtype``) or the model runs in float32, fp16 for float16 models, else bf16."""
    if ssm_fp32 or arch_dtype in ("float32", "fp32"):
        return "fp32"
    return "fp16" if arch_dtype in ("float16", "fp16") else "bf16"


def _state_label(sdt: str, policy: str) -> str:
    if "+" not in sdt:
        return sdt
    conv, temporal = sdt.split("+")
    src = {"sglang": "SGLang 0.5.23 srt/configs/mamba_utils.py mamba2_state_dtype"}.get(
        policy, "vLLM 0.33.0 layers/mamba/mamba_utils.py, models/config.py")
    return f"conv window {conv}, SSM state {temporal}: {src}"


def engine_kv(framework: str, gpu=None, pp: int = 1, max_num_batched_tokens: int | None = None) -> EngineKV:
    """The allocation knobs of ``framework``'s engine on ``gpu`` (data/engines.json): vLLM's in-flight tokens are
    max_concurrent_batches (2 with async scheduling at PP 1, else PP) x its max_num_batched_tokens default for the
    GPU's memory."""
    key = (None if gpu is None else (gpu.id, gpu.name, gpu.memory_bytes), pp, max_num_batched_tokens)
    hit = _ENGINE_KV.get(key)
    if hit is not None:
        return hit
    from .resources import load_json
    eng = load_json("engines.json")["engines"]
    v = eng["vllm"]
    mnbt = max_num_batched_tokens or engine_default(v["max_num_batched_tokens"], gpu)
    return _ENGINE_KV.put(key, EngineKV(block_size=int(v["block_size"]), in_flight_tokens=(2 if pp <= 1 else pp) * mnbt,
                                        swa_ratio=float(eng["sglang"]["swa_full_tokens_ratio"]),
                                        trt_block=int(eng["trtllm"]["tokens_per_block"])))


class SGLangMambaPool(NamedTuple):
    """SGLang 0.5.23's split of one GPU's pool budget between the Mamba / linear-attention state pool and the KV
    pool (:func:`sglang_mamba_pool`), at default server arguments."""

    slots: int  #: max_mamba_cache_size: state slots (the pool allocates one padding slot more)
    slot_bytes: int  #: mamba_cache_per_req on this GPU: every recurrent layer's conv window + SSM state
    state_pool_bytes: float  #: (slots + 1) x slot_bytes
    kv_bytes: float  #: the budget left for the KV pool
    ratio: int  #: state slots charged to each running request (_calculate_mamba_ratio)
    max_requests: int  #: slots // ratio: resolve_max_num_reqs' cap on running requests per worker


def recurrent_state_bytes(arch: ModelArch, tp: int = 1, state_dtype: str | None = None) -> float:
    """Per-GPU bytes of the recurrent layers' fixed per-sequence state (Mamba, delta-net, KDA, short-conv, lightning
    and other recurrent mixers; not DeepSeek-V4's compressed-attention state nor an attention layer's side state) as
    :func:`per_sequence_bytes` counts it under the engine policies: ``_state_bytes / tp`` per layer."""
    sb = state_pair(state_dtype or state_dtype_for(arch, "sglang"))
    total = 0.0
    for m, count in mixer_groups(arch):
        if _attention_kind(m) is None and not isinstance(m, CompressedAttentionSpec):
            total += count * _sequence_bytes_one(m, 1, 1.0, sb, "vllm", tp)
    return total


def sglang_state_slot_bytes(arch: ModelArch, tp: int = 1, state_dtype: str | None = None) -> int:
    """SGLang 0.5.23's ``mamba_cache_per_req`` on one GPU of attention-TP ``tp`` (srt/configs/mamba_utils.py:115-125:
    conv elements x conv dtype + SSM elements x SSM dtype, times the recurrent layers). Mamba2 and gated delta-net
    layers take ``Mamba2StateShape.create``'s per-rank shapes (lines 195-244): when n_groups (a delta-net's key heads)
    does not divide by TP the groups are extended by ``tp - n_groups`` (extra_groups_for_head_shards, lines 29-38)
    before conv_dim = d_inner + 2 x n_groups x d_state is split, conv (conv_dim / tp, conv_kernel - 1), SSM
    (heads / tp, head_dim, d_state); other recurrent kinds: their state over TP (as :func:`recurrent_state_bytes`)."""
    sb = state_pair(state_dtype or state_dtype_for(arch, "sglang"))
    conv_b, temp_b = sb
    total = 0.0
    for m, count in mixer_groups(arch):
        if _attention_kind(m) is not None or isinstance(m, CompressedAttentionSpec):
            continue
        if isinstance(m, (Mamba2Spec, GatedDeltaNetSpec)):
            if isinstance(m, Mamba2Spec):
                inner, groups, d_state, heads, hd, k = (m.d_inner, m.n_groups, m.d_state, m.n_heads, m.head_dim,
                                                       m.conv_kernel)
            else:  # configs/qwen3_next.py:288-313: intermediate = value_dim, n_groups = key heads, state = key dim
                inner, groups, d_state, heads, hd, k = (m.value_dim, m.num_k_heads, m.head_k_dim, m.num_v_heads,
                                                       m.head_v_dim, m.conv_kernel)
            if groups % tp:
                groups += tp - groups  # extra_groups_for_head_shards, as SGLang writes it
            conv = (inner + 2 * groups * d_state) // tp * (k - 1)
            ssm = heads // tp * hd * d_state
            total += count * (conv * conv_b + ssm * temp_b)
        else:
            total += count * _sequence_bytes_one(m, 1, 1.0, sb, "vllm", tp)
    return int(total)


def sglang_mamba_ratio(arch: ModelArch, pp: int = 1) -> int:
    """State slots SGLang 0.5.23 charges each running request at default server arguments
    (mem_cache/kv_cache_configurator.py:3062-3088 _calculate_mamba_ratio, radix cache on): 3
    (MAMBA_CACHE_SIZE_MAX_RUNNING_REQUESTS_RATIO, line 227) plus, for an architecture whose
    --mamba-radix-cache-strategy auto resolves to extra_buffer (arg_groups/overrides.py:453-488: a radix-cache
    hybrid that supports the extra buffer, with the overlap scheduler on), get_mamba_tracking_slots
    (mem_cache/allocation_sizing.py:11-19): 2 with overlap, 1 once PP > 1 turns overlap off after the strategy is
    chosen (arg_groups/pipeline.py:225, :302). Lists and sources: data/engines.json sglang.mamba_pool."""
    from .resources import load_json
    c = load_json("engines.json")["engines"]["sglang"]["mamba_pool"]
    archs = set(arch.architectures)
    extra = bool(archs & set(c["radix_cache_archs"]) and archs & set(c["extra_buffer_archs"]))
    slots = c["extra_buffer_tracking_slots"]["overlap" if pp <= 1 else "no_overlap"]
    return int(c["base_slots_per_request"]) + (int(slots) if extra else 0)


def sglang_mamba_pool(arch: ModelArch, budget_bytes: float, tp: int = 1, pp: int = 1,
                      state_dtype: str | None = None, draft_tokens: int = 0,
                      running: int | None = None) -> SGLangMambaPool | None:
    """SGLang 0.5.23's Mamba state pool and what it leaves the KV pool, for one GPU whose pools may take
    ``budget_bytes`` (deploysheet's KV budget: SGLang's ``rest_memory``), at default server arguments; None for a
    model without recurrent state.

    mem_cache/kv_cache_configurator.py _handle_max_mamba_cache (no --max-mamba-cache-size; without speculative decoding,
    lines 3348-3386): mamba_budget = rest x r / (1 + r) (r = mamba_full_memory_ratio, 0.9); max_mamba_cache_size
    K = int((mamba_budget - per_slot) // per_slot); the KV pool gets rest - (K + 1) x per_slot (lines 3404-3409).
    resolve_max_num_reqs (lines 3134-3150) caps running requests at K // ratio (:func:`sglang_mamba_ratio`).
    PP: every stage is assumed to hold 1 / pp of the recurrent layers (SGLang charges the largest stage's share,
    lines 3233-3251).
    Speculative decoding (``draft_tokens`` = --speculative-num-draft-tokens D > 0; lines 3355-3377, the default
    without --enable-linear-replayssm-spec): K = int((mamba_budget - per_slot x (1 + D)) // (per_slot x (1 + D /
    ratio))), and the KV pool also loses the intermediate states, per_slot x (capped + 1) x D, capped =
    min(max(1, --max-running-requests // attention DP), K // ratio) (lines 3368-3375): ``running`` is that
    max(1, --max-running-requests // attention DP) per worker (SGLang sets --max-running-requests to 48 under
    EAGLE-family speculation when it is unset, arg_groups/speculative_hook.py _handle_eagle_family); None takes
    K // ratio, the most the pool admits."""
    per_slot = sglang_state_slot_bytes(arch, tp, state_dtype) / max(1, pp)
    if per_slot <= 0:
        return None
    from .resources import load_json
    r = float(load_json("engines.json")["engines"]["sglang"]["mamba_pool"]["mamba_full_memory_ratio"])
    per_slot = int(per_slot)
    budget = budget_bytes * r / (1 + r)
    ratio = sglang_mamba_ratio(arch, pp)
    d = max(0, int(draft_tokens))
    if d:
        slots = max(0, int((budget - per_slot * (1 + d)) // (per_slot * (1 + d / ratio))))
        capped = slots // ratio if running is None else min(max(1, int(running)), slots // ratio)
        state = (slots + 1) * per_slot + per_slot * (capped + 1) * d
    else:
        slots = max(0, int((budget - per_slot) // per_slot))
        state = (slots + 1) * per_slot
    return SGLangMambaPool(slots=slots, slot_bytes=per_slot, state_pool_bytes=float(state),
                           kv_bytes=float(budget_bytes - state), ratio=ratio, max_requests=slots // ratio)


def uses_mla(arch: ModelArch) -> bool:
    """Whether any decoder layer attends through multi-head latent attention (SGLang then runs an MLA backend)."""
    return any(isinstance(layer.mixer, MLASpec) for layer in arch.layers)


def sglang_mem_fraction(gpu, tp: int, pp: int = 1, dp: int = 1, mla: bool = False,
                        vision: tuple[int, int] | None = None) -> float:
    """SGLang's default ``--mem-fraction-static`` on ``gpu`` for a layout (data/engines.json
    ``sglang.mem_fraction_static``, read from sglang 0.5.23's ``memory_hook.handle_gpu_memory_settings``).

    SGLang reserves, in MiB, a base of 512, 1.5 per token of its chunked-prefill size (at least 2048 tokens),
    1024 per 8 GPUs of ``tp_size x pp_size``, and its CUDA graphs' buffers (decode: 2 per batch size up to the
    tier's max_bs, plus 3 (and 1.5 more above max_bs 300) per batch size and attention-DP rank; prefill: 8 per
    captured token count, or 1.5 GiB with an MLA backend), at least 10 GiB on GPUs over 60 GiB; the fraction is
    ``round((memory - reserved) / memory, 3)``, scaled down for a multimodal model's vision tower.

    ``tp``, ``dp``: deploysheet's attention TP and attention-DP degrees (SGLang's ``tp_size`` is their product);
    ``mla``: the model runs an MLA attention backend; ``vision``: (layers, width) of the vision tower served with
    the model, None for none (SGLang reads ``vision_config.num_hidden_layers`` / ``hidden_size``, defaulting to 24 /
    1024 where a family names them otherwise; the tower's own depth and width are given here). Memory is ``GPU.memory_bytes`` (in MiB, as SGLang reads it). Returns a fraction
    of the GPU's memory in (0, 1]; raises nothing.
    """
    from .resources import load_json
    c = load_json("engines.json")["engines"]["sglang"]["mem_fraction_static"]
    mem = gpu.memory_bytes / 2 ** 20
    tier = next(t for t in c["tiers"] if t["below_mib"] is None or mem < t["below_mib"])
    tp_size = tp * dp
    chunk = tier["chunked_prefill_size"]
    max_bs = tier["decode_max_bs"][0 if tp_size < 4 else 1]
    graphs = max_bs * c["decode_graph_mib_per_bs"]
    if dp > 1:
        graphs += max_bs * dp * c["dp_graph_mib_per_bs_rank"]
        if max_bs > c["dp_graph_extra_above_bs"]:
            graphs += max_bs * dp * c["dp_graph_extra_mib_per_bs_rank"]
    if gpu.vendor == "nvidia":  # prefill graphs (the breakable backend) are on by default on CUDA only
        if mla:
            graphs += c["mla_prefill_graph_mib"]
        else:
            top = min(chunk, c["pp_prefill_graph_max_tokens"]) if pp > 1 else chunk
            graphs += c["prefill_graph_mib_per_size"] * _prefill_graph_sizes(top)
    reserved = (c["base_mib"] + max(chunk, c["min_activation_tokens"]) * c["activation_mib_per_token"]
                + tp_size * pp / 8 * c["parallel_mib_per_8_gpus"] + graphs)
    if mem > c["floor_above_mib"]:
        reserved = max(reserved, c["floor_mib"])
    frac = round((mem - reserved) / mem, 3)
    if vision is not None:
        layers, width = vision
        ratio = layers * width ** 2 / (c["vlm_baseline_layers"] * c["vlm_baseline_hidden"] ** 2)
        lo, hi = c["vlm_factor_bounds"]
        frac *= c["vlm_base_factor"] * max(lo, min(hi, 1.0 - c["vlm_sensitivity"] * (ratio - 1.0)))
    return max(0.0, min(1.0, frac))


def _prefill_graph_sizes(max_tokens: int) -> int:
    """How many token counts SGLang captures prefill graphs for up to ``max_tokens``
    (sglang/srt/arg_groups/cuda_graph_hook.py generate_prefill_cuda_graph_batch_sizes)."""
    sizes = (list(range(4, 33, 4)) + list(range(48, 257, 16)) + list(range(288, 513, 32))
             + list(range(576, 1025, 64)) + list(range(1280, 4097, 256)) + list(range(4608, max_tokens + 1, 512)))
    return sum(1 for x in sizes if x <= max_tokens)


#: (GPU id, name and memory, pp, max_num_batched_tokens) -> EngineKV (the packaged engines.json is static); one per
#: cost model built otherwise; ~700 bytes an entry
_ENGINE_KV = ByteLRU("kvcache.engine_kv", 256 * 1024)


def engine_default(table: list[dict], gpu=None) -> int:
    """An engine default that depends on the GPU's memory (vLLM's get_batch_defaults tiers); the lowest tier when
    the GPU is unknown. ``gpu``: a catalog GPU (its memory_bytes, id and name)."""
    gib = gpu.memory_bytes / 2 ** 30 if gpu is not None else 0.0
    name = f"{gpu.id} {gpu.name}".lower() if gpu is not None else ""
    for row in table:
        if gib >= row["min_memory_gib"] and not any(x in name for x in row.get("exclude_names", [])):
            return int(row["value"])
    return int(table[-1]["value"])


#: weight precisions whose TensorRT-LLM checkpoints (ModelOpt) carry an FP8 KV cache
FP8_KV_CHECKPOINTS = ("fp8", "fp8_channel", "fp8_block", "nvfp4")


def served_dtype(framework: str, checkpoint_dtype: str | None, model_type: str | None = None) -> tuple[str, str]:
    """The 16-bit dtype (``bf16`` or ``fp16``) an engine runs a checkpoint in at ``--dtype auto``, and why.

    ``checkpoint_dtype``: the config's ``torch_dtype`` / ``dtype`` (``bfloat16``, ``float16``, ``float32``, or None
    when it states none). vLLM 0.33.0 (vllm/config/model.py ``_resolve_auto_dtype``): the checkpoint's dtype, float32
    (or none stated) downcast to the platform's first supported dtype, bfloat16 on CUDA GPUs from Ampere on.
    SGLang 0.5.23 (sglang/srt/configs/model_config.py ``_get_and_verify_dtype``): the checkpoint's dtype, float32 (or
    none) as float16, except Gemma families (bfloat16). TensorRT-LLM: the checkpoint's dtype, float32 as bfloat16
    (assumption: its source is not readable here).
    """
    d = (checkpoint_dtype or "").lower()
    if d in ("float16", "fp16", "half"):
        return "fp16", f"the checkpoint's dtype ({checkpoint_dtype}), which {framework} serves at --dtype auto"
    if d in ("bfloat16", "bf16"):
        return "bf16", f"the checkpoint's dtype ({checkpoint_dtype})"
    what = f"a {checkpoint_dtype} checkpoint" if checkpoint_dtype else "a checkpoint that states no dtype"
    if framework == "sglang" and not (model_type or "").startswith("gemma"):
        return "fp16", f"SGLang runs {what} in float16 at --dtype auto (model_config._get_and_verify_dtype)"
    return "bf16", f"{framework} runs {what} in bfloat16 at --dtype auto"


def model_dtype(framework: str, arch: ModelArch, precision: str) -> str:
    """The 16-bit dtype the engine runs the model in (``--kv-cache-dtype auto`` caches KV in it too): the weight
    precision itself when it is bf16 or fp16 (the launch command passes ``--dtype`` where auto would pick the other),
    else the checkpoint's at ``--dtype auto`` (:func:`served_dtype`)."""
    return precision if precision in ("bf16", "fp16") else served_dtype(framework, arch.dtype, arch.model_type)[0]


_FP8_FORMATS = ("fp8", "fp8_channel", "fp8_block")
#: SGLang 0.5.23 configs/model_config.py is_deepseek_dsa: these architectures with index_topk run DeepSeek sparse
#: attention, whose KV dtype arg_groups/overrides.py _dsa_kv_cache_dtype_default sets at auto
SGLANG_DSA_ARCHS = ("DeepseekV3ForCausalLM", "DeepseekV32ForCausalLM", "MistralLarge3ForCausalLM",
                    "PixtralForConditionalGeneration", "GlmMoeDsaForCausalLM", "Glm5NextForConditionalGeneration",
                    "LongcatFlashForCausalLM", "Dots3NoteForCausalLM", "HYV4ForCausalLM")
#: vLLM 0.33.0 model_executor/models/config.py GlmMoeDsaForCausalLM / Glm5NextModelConfig: fp8 KV at auto on SM10x
VLLM_FP8_ON_SM100 = ("GlmMoeDsaForCausalLM", "Glm5NextForCausalLM", "Glm5NextForConditionalGeneration")


def _major(gpu) -> int:
    try:
        return int(str(getattr(gpu, "compute_capability", None) or "0").split(".")[0])
    except ValueError:
        return 0


def default_kv_dtype(framework: str, precision: str, model_dtype: str = "bf16", arch: ModelArch | None = None,
                     gpu=None) -> tuple[str, str]:
    """The KV dtype a framework caches at ``--kv-cache-dtype auto`` for this checkpoint and GPU, and why (one
    default used by predict, score, validate and calibrate; stated in their output). ``model_dtype``: the 16-bit
    dtype the engine runs the model in (:func:`served_dtype`); ``arch``: the model (its quantization config and
    architecture; None: an unquantized, unremarkable one); ``gpu``: the GPU (some defaults depend on its
    compute capability; None: below SM100).

    vLLM 0.33.0: engine/arg_utils.py resolves auto through utils/torch_utils.py resolve_kv_cache_dtype_string: a
    ModelOpt quantization config naming ``kv_cache_quant_algo`` / ``kv_cache_scheme`` FP8 or NVFP4 gives that dtype
    (a legacy hf_quant_config.json too: transformers_utils/config.py loads it as the quantization config and
    model_arch_config_convertor.py sets its quant_method to modelopt); a compressed-tensors ``kv_cache_scheme`` gives fp8 (model_executor/layers/attention/attention.py);
    GLM-MoE-DSA / GLM-5-Next on SM10x take fp8 (model_executor/models/config.py); else the model's dtype.
    SGLang 0.5.23: mem_cache/kv_cache_dtype.py configure_kv_cache_dtype takes fp8 when the checkpoint's quant
    config names ``kv_cache_quant_algo`` FP8 (ModelOpt, or an fp8 config carrying it: layers/quantization/fp8.py);
    DeepSeek sparse attention (is_deepseek_dsa) takes fp8 on SM100 and newer, bf16 below (arg_groups/overrides.py;
    learnable attention sinks, which force bf16, are not read); DeepSeek-V4 takes fp8; else the model's dtype.
    TensorRT-LLM (its source not read here: assumed): ``KvCacheConfig.dtype`` auto takes the checkpoint's
    ``kv_cache_quant_algo`` — a ModelOpt checkpoint's own, none for another method's checkpoint served at its own
    format; FP8/NVFP4 weights the checkpoint does not hold need a ModelOpt export, assumed with FP8 KV.
    """
    quant = arch.quantization if arch is not None else None
    held = quant is not None and (quant.format == precision or (
        quant.format in _FP8_FORMATS and precision in _FP8_FORMATS))
    kv = quant.kv_cache_dtype if held else None
    archs = set(arch.architectures) if arch is not None else set()
    dsa = arch is not None and any(getattr(lay.mixer, "indexer", None) is not None for lay in arch.layers)
    engine = {"vllm": "vLLM 0.33.0", "sglang": "SGLang 0.5.23"}.get(framework)
    auto = (f"{engine} default: --kv-cache-dtype auto = the model's dtype ({model_dtype})" if engine else
            f"{'TensorRT-LLM' if framework == 'trtllm' else framework} default (assumed): KvCacheConfig dtype auto = "
            f"the model's dtype ({model_dtype})")
    if kv is not None and kv not in ("fp8", "nvfp4"):  # a KV algorithm named but not modelled (INT8, ...)
        named = re.sub(r"[^A-Za-z0-9_.-]", "", kv)[:24] or "?"
        auto += {  # what each engine does with a KV algorithm it does not map, read from its source
            "vllm": f"; the checkpoint's KV algorithm {named.upper()} is not one vLLM maps, so auto falls back to the "
                    "model's dtype (utils/torch_utils.py get_kv_cache_quant_algo_string)",
            "sglang": f"; SGLang reads only an FP8 kv_cache_quant_algo, not the checkpoint's {named.upper()} "
                      "(mem_cache/kv_cache_dtype.py configure_kv_cache_dtype)",
        }.get(framework, f"; the checkpoint names KV algorithm {named.upper()}, which TensorRT-LLM may read (INT8 is "
                         f"one of its KV formats) and deploysheet does not model: the KV cache is sized at "
                         f"{model_dtype} (estimated)")
    if framework == "vllm":
        if held and quant.method == "modelopt" and kv in ("fp8", "nvfp4"):
            return kv, (f"vLLM 0.33.0 default: --kv-cache-dtype auto takes the ModelOpt checkpoint's "
                        f"{kv.upper()} KV (utils/torch_utils.py resolve_kv_cache_dtype_string)")
        if held and quant.method == "compressed-tensors" and kv == "fp8":
            return "fp8", ("vLLM 0.33.0 default: --kv-cache-dtype auto takes the checkpoint's compressed-tensors "
                           "kv_cache_scheme, FP8 (model_executor/layers/attention/attention.py)")
        if archs & set(VLLM_FP8_ON_SM100) and dsa and _major(gpu) == 10:
            return "fp8", ("vLLM 0.33.0 default on SM10x for this architecture: fp8 KV "
                           "(model_executor/models/config.py verify_and_update_config)")
        return model_dtype, auto
    if framework == "sglang":
        if "DeepseekV4ForCausalLM" in archs:
            return "fp8", "SGLang 0.5.23 default for DeepSeek-V4: fp8_e4m3 KV (arg_groups/overrides.py)"
        if dsa and archs & set(SGLANG_DSA_ARCHS):
            if _major(gpu) >= 10:
                return "fp8", ("SGLang 0.5.23 default for DeepSeek sparse attention on SM100 and newer: fp8_e4m3 KV "
                               "(arg_groups/overrides.py _dsa_kv_cache_dtype_default)")
            if getattr(gpu, "vendor", "nvidia") != "nvidia":  # ROCm's torch reports gfx9xx as capability 9.x
                return "bf16", ("SGLang 0.5.23 default for DeepSeek sparse attention where torch reports a compute "
                                f"capability below 10 ({gpu.id}: ROCm gfx9 reads as 9.x): bfloat16 KV "
                                "(arg_groups/overrides.py _dsa_kv_cache_dtype_default)")
            return "bf16", ("SGLang 0.5.23 default for DeepSeek sparse attention below SM100: bfloat16 KV "
                            "(arg_groups/overrides.py _dsa_kv_cache_dtype_default)")
        if held and quant.method in ("modelopt", "fp8") and kv == "fp8":
            return "fp8", ("SGLang 0.5.23 default: --kv-cache-dtype auto takes the checkpoint's kv_cache_quant_algo "
                           "FP8 (mem_cache/kv_cache_dtype.py configure_kv_cache_dtype)")
        return model_dtype, auto
    if framework == "trtllm" and precision in FP8_KV_CHECKPOINTS:
        if held and quant.method == "modelopt":
            if kv in ("fp8", "nvfp4"):
                return kv, (f"TensorRT-LLM default (assumed): the ModelOpt checkpoint's kv_cache_quant_algo "
                            f"{kv.upper()} (KvCacheConfig dtype auto)")
            if kv is not None:
                return model_dtype, auto
            return model_dtype, ("TensorRT-LLM default (assumed): the ModelOpt checkpoint names no "
                                 f"kv_cache_quant_algo, so KvCacheConfig dtype auto = the model's dtype ({model_dtype})")
        if held:
            return model_dtype, (f"TensorRT-LLM default (assumed): this {quant.method} checkpoint's quantization config "
                                 f"names no KV algorithm TensorRT-LLM reads, so KvCacheConfig dtype auto = the model's "
                                 f"dtype ({model_dtype}); pass --kv-dtype fp8 for an FP8 cache")
        return "fp8", ("assumed TensorRT-LLM default at FP8/NVFP4 weights the checkpoint does not hold: a ModelOpt "
                       "FP8/NVFP4 export, whose recipes set kv_cache_quant_algo FP8 (KvCacheConfig dtype auto); pass "
                       "--kv-dtype bf16 for an export without it")
    return model_dtype, auto


def resolve_policy(policy: str, framework: str) -> str:
    """``auto`` -> the framework's engine policy (:data:`FRAMEWORK_POLICY`); any other name unchanged."""
    return FRAMEWORK_POLICY.get(framework, "vllm") if policy == "auto" else policy


def kv_cache(arch: ModelArch, kv_dtype: str = "bf16", policy: str = "vllm", contexts: tuple[int, ...] = (
        4096, 32768, 131072), tps: tuple[int, ...] = (1, 2, 4, 8, 16), ssm_state_dtype: str | None = None,
        engine: EngineKV | None = None) -> KVCache:
    """Summarize the KV cache of ``arch`` for a KV dtype and a policy (see module docstring).

    Raises:
        ValueError: unknown policy or dtype (the CLI validates both first).
    """
    if policy not in POLICIES:
        raise ValueError(f"unknown KV policy {policy!r}")
    b = DTYPE_BYTES[kv_dtype]
    sdt = ssm_state_dtype or state_dtype_for(arch, policy)
    sb = state_pair(sdt)
    kinds: dict[tuple, KVLayerKind] = {}
    slope = all_layers = fixed = 0
    notes = []
    for m in (x for lay in arch.layers for x in (lay.mixer, lay.side_mixer)):  # side_mixer: a block's second mixer
        if m is None or m.kind == "linear":
            continue
        per_tok = _layer_bytes(m, b)
        state = _state_bytes(m, sb)  # recurrent state, or an attention layer's side state (ZAYA CCA)
        label = (("dsa (shared top-k)" if m.indexer.shared else "dsa") if m.indexer is not None else "mla") \
            if isinstance(m, MLASpec) else (
            (m.span + (f" (top-{m.selection.attended:,} indexed)" if m.selection is not None else "")
             + (" (kv-shared)" if m.kv_shared else "")) if isinstance(m, AttentionSpec) else m.kind)
        window = getattr(m, "window", None) if label.split(" ")[0] in ("sliding", "chunked") else None
        if isinstance(m, CompressedAttentionSpec):  # window and compressor state: fixed under both policies
            label, state, window = m.label, int(compressed_state_elements(m) * b), m.window
        key = (label, per_tok, window, state)
        if key not in kinds:
            kinds[key] = KVLayerKind(kind=label, layers=0, bytes_per_token_per_layer=per_tok, window=window,
                                     state_bytes_per_sequence_per_layer=state)
        kinds[key].layers += 1
        all_layers += per_tok
        fixed += state
        if policy != "vllm-unified" and window and not isinstance(m, CompressedAttentionSpec):
            fixed += per_tok * window  # capped: these layers stop growing (at their window, or vLLM's window + in-flight)
        else:
            slope += per_tok
    per_seq = {c: per_sequence_bytes(arch, c, kv_dtype, policy, 1, sdt, engine) for c in contexts}
    per_gpu = {}
    repl = {}
    att = [lay.mixer for lay in arch.layers
           if isinstance(lay.mixer, (AttentionSpec, MLASpec, CompressedAttentionSpec))]
    for tp in tps:
        tot = 0.0
        copies = []
        for m in att:
            if isinstance(m, MLASpec):
                tot += mla_bytes_per_token(m, b)
                copies.append(float(tp))
            elif isinstance(m, CompressedAttentionSpec):
                tot += compressed_elements_per_token(m) * b
                copies.append(float(tp))
            elif m.kv_shared:
                continue
            else:
                h = kv_heads_per_gpu(m.num_kv_heads, tp)
                tot += m.kv_elements_per_token(tp) * b
                copies.append(h * tp / m.num_kv_heads)
        per_gpu[tp] = int(tot)
        repl[tp] = max(copies) if copies else 1.0
    if any(isinstance(m, MLASpec) for m in att):
        notes.append("MLA latent cache is replicated on every TP rank (it has a single shared head).")
    if any(isinstance(m, AttentionSpec) and m.index_kv_heads for m in att):
        notes.append("Indexed attention layers also cache each token's indexer key (index heads x index head "
                     "dim, replicated on every TP rank when there are fewer heads than GPUs), beside K and V.")
    if any(isinstance(m, CompressedAttentionSpec) for m in att):
        notes.append("DeepSeek-V4 compressed attention: every layer keeps a fixed sliding window (and compressor "
                     "state) per sequence; per context token, CSA layers add one entry (and indexer key) per "
                     "compress_rate tokens, HCA layers one entry per compress_rate tokens; the single shared KV "
                     "head is replicated on every TP rank.")
    windowed = any(k.kind.split(" ")[0] in ("sliding", "chunked") for k in kinds.values())
    if windowed and policy == "vllm-unified":
        notes.append("Sliding-window/chunked layers are counted for the whole context (vLLM with the hybrid KV "
                     "cache manager disabled); --kv-policy vllm models the hybrid manager.")
    elif windowed and policy == "vllm":
        eng = engine or EngineKV()
        kinds_present = {k.kind.split(" ")[0] for k in kinds.values()}
        if "sliding" in kinds_present:
            notes.append(f"Sliding-window layers hold min(window - 1 + {eng.in_flight_tokens:,} in-flight tokens, "
                         f"context) in {eng.block_size}-token pages plus one page per sequence (vLLM 0.33.0 hybrid KV "
                         "cache manager; in-flight = 2 batches x max_num_batched_tokens, data/engines.json; a layout "
                         "with PP stages runs PP batches at once, so its rows hold PP x max_num_batched_tokens in "
                         "flight and their sliding layers more of a long context).")
        if "chunked" in kinds_present:
            notes.append(f"Chunked-attention layers hold min(chunk + {eng.in_flight_tokens:,} in-flight tokens, "
                         f"context) in {eng.block_size}-token pages per sequence (vLLM 0.33.0 hybrid KV cache manager, "
                         "ChunkedLocalAttentionSpec; data/engines.json).")
    elif windowed and policy == "sglang":
        notes.append("Sliding-window layers draw from SGLang's SWA pool (0.8 of the full pool's tokens) and keep "
                     "their window (SGLang 0.5.23, data/engines.json).")
    if policy == "sglang" and recurrent_state_bytes(arch, 1, sdt) > 0:
        ratio = sglang_mamba_ratio(arch)
        notes.append(f"SGLang 0.5.23 splits the memory left after the weights: 0.9 / 1.9 of it "
                     "(mamba_full_memory_ratio 0.9) to a pool of recurrent-state slots, one state each, the rest "
                     f"(less one padding slot) to the KV pool; running requests are capped at the slots // {ratio} "
                     f"({ratio} state slots a request: mem_cache/kv_cache_configurator.py _handle_max_mamba_cache, "
                     "_calculate_mamba_ratio, "
                     "resolve_max_num_reqs; data/engines.json sglang.mamba_pool). Capacity rows follow this formula "
                     "at default server arguments; with PP (every stage assumed to hold 1 / PP of the recurrent "
                     "layers, and 1 tracking slot fewer for extra-buffer hybrids) they are estimated.")
        if not any(k.bytes_per_token_per_layer for k in kinds.values()):
            notes.append("No attention layer: SGLang 0.5.23 sizes its token pool at --max-total-tokens, else at the "
                         "context length (model_executor/pool_configurator.py _zero_kv_max_tokens), which at "
                         "--context-length ISL + OSL runs one sequence at a time; deploysheet's launch command sets "
                         "--max-total-tokens to the running batch x its context and capacity assumes it.")
    side = any(isinstance(m, AttentionSpec) and m.side_state_elements for lay in arch.layers for m in (lay.mixer,))
    if any(k.state_bytes_per_sequence_per_layer for k in kinds.values() if not k.kind.startswith(("full", "sliding",
                                                                                                  "chunked"))):
        notes.append(f"Recurrent layers keep a fixed per-sequence state ({_state_label(sdt, policy)}).")
    if side:
        notes.append(f"Attention layers with short convolutions keep their last kernel - 1 inputs per sequence "
                     f"({sdt}) beside their KV cache (ZAYA CCA: the q / k convolutions and the previous token's "
                     f"delayed value; Inkling: the k / v, post-attention and post-MLP convolutions).")
    return KVCache(policy=policy, policy_description=POLICIES[policy], dtype=kv_dtype, bytes_per_token=int(slope),
                   bytes_per_token_all_layers=int(all_layers), fixed_bytes_per_sequence=int(fixed),
                   by_kind=list(kinds.values()), per_sequence_bytes=per_seq, per_gpu_bytes_per_token=per_gpu,
                   kv_replication=repl, notes=notes)


def max_sequences(free_bytes_per_gpu: float, arch: ModelArch, context: int, kv_dtype: str = "bf16",
                  policy: str = "vllm", tp: int = 1, ssm_state_dtype: str | None = None) -> int:
    """Concurrent sequences of ``context`` tokens whose cache fits in ``free_bytes_per_gpu`` bytes on each GPU. Under
    ``sglang`` a model with recurrent state splits the budget first (:func:`sglang_mamba_pool`): the sequences its
    KV pool holds (state taken out), at most the state pool's requests."""
    per = per_sequence_bytes(arch, context, kv_dtype, policy, tp, ssm_state_dtype)
    pool = sglang_mamba_pool(arch, free_bytes_per_gpu, tp, 1, ssm_state_dtype) if policy == "sglang" else None
    if pool is not None:
        if pool.kv_bytes <= 0:
            return 0
        kv = per - recurrent_state_bytes(arch, tp, ssm_state_dtype)
        # no attention layer: SGLang's token pool holds --max-total-tokens, which deploysheet's launch command sets
        # to the running batch x its context (CostModel.sglang_attention_free); only the state pool binds
        fit = int(pool.kv_bytes // kv) if kv > 0 else pool.max_requests
        return max(0, min(fit, pool.max_requests))
    if per <= 0:
        return 0
    return max(0, int(free_bytes_per_gpu // per))
