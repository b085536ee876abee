"""The GEMM inventory agrees with the parameter count, and shards like vLLM."""

import json

from transformers import LlamaConfig

from scorer.architecture import normalize
from scorer.gemms import inventory, shard
from scorer.params import count_params


def llama(**kw):
    cfg = LlamaConfig(**kw)
    cfg.architectures = ["LlamaForCausalLM"]
    return normalize(json.loads(cfg.to_json_string()))


def test_gemm_weights_plus_embedding_and_norms_equal_total():
    arch = llama(hidden_size=2048, intermediate_size=5632, num_hidden_layers=4, num_attention_heads=16,
                 num_key_value_heads=4, vocab_size=32000, tie_word_embeddings=False)
    g = inventory(arch)
    p = count_params(arch)
    norms = (2 * 4 + 1) * 2048
    assert sum(x.params for x in g) + 32000 * 2048 + norms == p.total
    names = {x.name for x in g}
    assert {"attn.qkv_proj", "attn.o_proj", "mlp.gate_up_proj", "mlp.down_proj", "lm_head"} == names
    qkv = next(x for x in g if x.name == "attn.qkv_proj")
    assert (qkv.k, qkv.n, qkv.count) == (2048, 2048 + 2 * 4 * 128, 4)


def test_shard_replicates_kv_heads_beyond_their_count():
    arch = llama(hidden_size=4096, intermediate_size=14336, num_hidden_layers=2, num_attention_heads=32,
                 num_key_value_heads=2, vocab_size=32000)
    qkv = next(x for x in inventory(arch) if x.name == "attn.qkv_proj")
    s4 = shard(qkv, 4)  # q 4096/4 = 1024; 2 KV heads < TP 4: one head (128) per rank for K and V
    assert s4.parts == [1024, 128, 128] and s4.divisible
    s2 = shard(qkv, 2)
    assert s2.parts == [2048, 128, 128]
    down = next(x for x in inventory(arch) if x.name == "mlp.down_proj")
    assert (shard(down, 8).k, shard(down, 8).n) == (14336 // 8, 4096)


def test_shard_flags_indivisible_kv():
    arch = llama(hidden_size=3072, intermediate_size=8192, num_hidden_layers=2, num_attention_heads=24,
                 num_key_value_heads=6, vocab_size=32000)
    qkv = next(x for x in inventory(arch) if x.name == "attn.qkv_proj")
    assert not shard(qkv, 4).divisible  # 6 KV heads: neither 6 % 4 nor 4 % 6
    assert shard(qkv, 8).divisible is False
