"""Meta-device oracle for MTP layers the engines build without a config count (Qwen3-Next): parameters of
Qwen3NextForCausalLM and of its last decoder layer, for resized variants built from transformers' config class.
An MTP layer is a decoder layer like the last one plus fc (2h x h) and three norms of h (vLLM 0.33.0
model_executor/models/qwen3_next_mtp.py), so params.mtp = last_layer + 2h^2 + 3h.

Run (needs torch; the numbers are written into tests/test_breaker_round21.py test_qwen3_next_mtp_oracle):

    python scripts/mtp_oracle.py > /tmp/mtp_oracle.json
"""
from __future__ import annotations

import json

#: resized Qwen3NextConfig keyword sets (the last of them ends on a dense full-attention layer)
VARIANTS = {
    "small": dict(hidden_size=256, num_hidden_layers=4, num_attention_heads=4, num_key_value_heads=2, head_dim=64,
                  linear_num_key_heads=4, linear_num_value_heads=8, linear_key_head_dim=32, linear_value_head_dim=32,
                  linear_conv_kernel_dim=4, intermediate_size=512, moe_intermediate_size=128,
                  shared_expert_intermediate_size=128, num_experts=4, num_experts_per_tok=2, vocab_size=1000),
    "wide": dict(hidden_size=512, num_hidden_layers=8, num_attention_heads=8, num_key_value_heads=2, head_dim=128,
                 linear_num_key_heads=4, linear_num_value_heads=16, linear_key_head_dim=64, linear_value_head_dim=64,
                 linear_conv_kernel_dim=4, intermediate_size=1024, moe_intermediate_size=256,
                 shared_expert_intermediate_size=512, num_experts=16, num_experts_per_tok=4, vocab_size=4096),
    "dense_tail": dict(hidden_size=384, num_hidden_layers=6, num_attention_heads=6, num_key_value_heads=3,
                       head_dim=64, linear_num_key_heads=2, linear_num_value_heads=4, linear_key_head_dim=48,
                       linear_value_head_dim=48, linear_conv_kernel_dim=4, intermediate_size=768,
                       moe_intermediate_size=96, shared_expert_intermediate_size=96, num_experts=8,
                       num_experts_per_tok=2, vocab_size=2000, mlp_only_layers=[5],
                       layer_types=["linear_attention", "full_attention"] * 3),
}


def main() -> None:
    import torch
    from transformers import Qwen3NextConfig, Qwen3NextForCausalLM
    out = {}
    for name, kw in VARIANTS.items():
        cfg = Qwen3NextConfig(**kw)
        with torch.device("meta"):
            m = Qwen3NextForCausalLM(cfg)

        def n(mod) -> int:
            return sum(p.numel() for p in mod.parameters())
        out[name] = {"total": n(m), "last_layer": n(m.model.layers[-1]), "hidden": cfg.hidden_size}
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
