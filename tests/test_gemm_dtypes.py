"""Each GEMM is timed at its own weights' dtype, and 4-bit formats align as 4-bit elements.

Two cost-model errors a newcomer trial found (an NVFP4 checkpoint with BF16 attention read faster than the all-NVFP4
one): (1) every GEMM of a cost model ran at the precision's peak, so the 16-bit GEMMs of a quantized model (lm_head,
routers, what the checkpoint leaves unquantized) ran at the FP4 or FP8 peak; (2) the 16-byte alignment rule (G1)
divided 16 bytes by the bytes per weight *with scales* (NVFP4 0.5625 -> 28 elements, INT4 g128 0.5195 -> 31, MXFP4
0.53 -> 30), so every 4-bit GEMM of a 4096-wide model took the misaligned-GEMM penalty. A 4-bit element is 0.5 bytes:
32 per 16 bytes.
"""

from __future__ import annotations

import pytest

from scorer.architecture import normalize
from scorer.costmodel import CostModel, Layout
from scorer.gemms import inventory
from scorer.hardware import get_gpu, get_precision
from scorer.params import count_params
from scorer.tiles import element_alignment, misalignment_factor


@pytest.mark.parametrize("bytes_per_weight, elements", [(2.0, 8), (1.0, 16), (1.0078, 16), (0.5625, 32),
                                                        (0.5195, 32), (0.53125, 32), (0.5, 32), (4.0, 4)])
def test_element_alignment_counts_storage_elements(bytes_per_weight, elements):
    assert element_alignment(bytes_per_weight) == elements
    assert misalignment_factor(4096, 14336, bytes_per_weight) == 1.0  # both multiples of 32


LLAMA = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 4,
         "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336, "vocab_size": 128256,
         "max_position_embeddings": 8192, "torch_dtype": "bfloat16", "tie_word_embeddings": False}
SIDECAR = {"producer": {"name": "modelopt"}, "quantization": {"quant_algo": "NVFP4", "group_size": 16,
                                                              "exclude_modules": ["lm_head", "model.layers.*.self_attn*"]}}


def _cm(precision: str, sidecar=None) -> CostModel:
    arch = normalize(LLAMA, sidecar)
    unq = {"attention", "lm_head"} if sidecar else set()
    return CostModel(arch, count_params(arch), get_gpu("B200"), get_precision(precision), Layout(tp=1), "bf16",
                     "vllm", None, unq, inventory(arch))


def _compute_seconds(cm: CostModel, tokens: int) -> dict[str, float]:
    """Compute seconds per inventory entry of a prefill of ``tokens`` tokens (at the fitted GEMM efficiency)."""
    comp, _, _ = cm._gemm_features(tokens, 1)
    return {g.name: c / cm.eff_c for (g, _), c in zip(cm._shards, comp)}


def test_a_16_bit_gemm_of_a_quantized_model_runs_at_the_bf16_peak():
    bf16, mixed, fp4 = _cm("bf16"), _cm("nvfp4", SIDECAR), _cm("nvfp4")
    t_bf16, t_mixed, t_fp4 = (_compute_seconds(c, 8192) for c in (bf16, mixed, fp4))
    attn = [n for n in t_bf16 if ".attn." in n or "qkv" in n or "o_proj" in n]
    assert attn
    for n in attn:  # the excluded attention runs BF16 GEMMs: the BF16 model's time, not the FP4 one's
        assert t_mixed[n] == pytest.approx(t_bf16[n], rel=1e-9)
        assert t_fp4[n] < t_bf16[n] / 2
    lm = next(n for n in t_bf16 if "lm_head" in n)  # the lm_head is 16-bit under every recipe (rule Q7)
    assert t_fp4[lm] == pytest.approx(t_bf16[lm], rel=1e-9)
    # a prefill of the mixed checkpoint lands between the all-NVFP4 and the all-BF16 model's
    pre = {name: c.prefill(1, 8192)["gemm"] for name, c in (("bf16", bf16), ("mixed", mixed), ("fp4", fp4))}
    assert pre["fp4"] < pre["mixed"] < pre["bf16"], pre
