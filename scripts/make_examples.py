"""Write the bundled example configs in data/examples/ from public architecture facts.

Each config is built with transformers' own config class (so every default is the library's)
from the published architecture of a well-known model, then serialized. No file is copied from
anywhere. Re-run after changing a fact:

    python scripts/make_examples.py
"""

from __future__ import annotations

import json
from pathlib import Path

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent))

from transformers import GemmaConfig, GptOssConfig, LlamaConfig, MistralConfig, MixtralConfig, Qwen3Config

OUT = Path(__file__).resolve().parent.parent / "data" / "examples"

# name -> (config class, architectures, public facts with their source)
EXAMPLES = {
    "llama-3.1-8b": (LlamaConfig, ["LlamaForCausalLM"], dict(
        hidden_size=4096, intermediate_size=14336, num_hidden_layers=32, num_attention_heads=32,
        num_key_value_heads=8, vocab_size=128256, max_position_embeddings=131072, rope_theta=500000.0,
        rope_scaling={"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                      "original_max_position_embeddings": 8192},
        tie_word_embeddings=False, torch_dtype="bfloat16"),
        "Llama 3 herd of models, arXiv 2407.21783, Table 3 (8B: 32 layers, 4096 model dim, 14336 FFN, 32 heads, "
        "8 KV heads, vocab 128K)"),
    "llama-2-7b": (LlamaConfig, ["LlamaForCausalLM"], dict(
        hidden_size=4096, intermediate_size=11008, num_hidden_layers=32, num_attention_heads=32,
        num_key_value_heads=32, vocab_size=32000, max_position_embeddings=4096, tie_word_embeddings=False,
        torch_dtype="float16"),
        "Llama 2, arXiv 2307.09288 (7B: 32 layers, 4096 dim, 32 heads, 4k context); 11008 FFN from the reference code"),
    "qwen3-4b": (Qwen3Config, ["Qwen3ForCausalLM"], dict(
        hidden_size=2560, intermediate_size=9728, num_hidden_layers=36, num_attention_heads=32,
        num_key_value_heads=8, head_dim=128, vocab_size=151936, max_position_embeddings=40960,
        tie_word_embeddings=True, torch_dtype="bfloat16"),
        "Qwen3 technical report, arXiv 2505.09388, Table 1 (4B: 36 layers, 32 Q / 8 KV heads, tied embeddings)"),
    "gemma-7b": (GemmaConfig, ["GemmaForCausalLM"], dict(
        hidden_size=3072, intermediate_size=24576, num_hidden_layers=28, num_attention_heads=16,
        num_key_value_heads=16, head_dim=256, vocab_size=256000, max_position_embeddings=8192,
        torch_dtype="bfloat16"),
        "Gemma, arXiv 2403.08295, Table 1 (7B: d_model 3072, 28 layers, 16 heads, head size 256, FFN 49152/2, vocab 256k)"),
    "mistral-nemo-12b": (MistralConfig, ["MistralForCausalLM"], dict(
        hidden_size=5120, intermediate_size=14336, num_hidden_layers=40, num_attention_heads=32,
        num_key_value_heads=8, head_dim=128, vocab_size=131072, max_position_embeddings=128000,
        sliding_window=None, tie_word_embeddings=False, torch_dtype="bfloat16"),
        "Mistral NeMo announcement and model card (12B: 40 layers, dim 5120, head_dim 128, 32 heads, 8 KV heads, "
        "hidden 14336, vocab 2^17, 128k context)"),
    "mixtral-8x7b": (MixtralConfig, ["MixtralForCausalLM"], dict(
        hidden_size=4096, intermediate_size=14336, num_hidden_layers=32, num_attention_heads=32,
        num_key_value_heads=8, num_local_experts=8, num_experts_per_tok=2, vocab_size=32000,
        max_position_embeddings=32768, sliding_window=None, tie_word_embeddings=False, torch_dtype="bfloat16"),
        "Mixtral of Experts, arXiv 2401.04088, Table 1 (dim 4096, 32 layers, 32/8 heads, hidden 14336, 8 experts, "
        "top-2, vocab 32000, 32k context)"),
    "gpt-oss-20b": (GptOssConfig, ["GptOssForCausalLM"], dict(
        hidden_size=2880, intermediate_size=2880, num_hidden_layers=24, num_attention_heads=64,
        num_key_value_heads=8, head_dim=64, num_local_experts=32, num_experts_per_tok=4, vocab_size=201088,
        sliding_window=128, max_position_embeddings=131072, tie_word_embeddings=False,
        quantization_config={"quant_method": "mxfp4", "modules_to_not_convert": [
            "model.layers.*.self_attn", "model.layers.*.mlp.router", "model.embed_tokens", "lm_head"]}),
        "gpt-oss model card, arXiv 2508.10925, Table 1 (20b: 24 layers, 32 experts, top-4, residual 2880, "
        "64 query / 8 KV heads of 64, alternating 128-token banded attention) and section 2.1 (MoE weights "
        "quantized to MXFP4, attention and router in BF16)"),
}


def main() -> None:
    for name, (cls, archs, facts, source) in EXAMPLES.items():
        cfg = cls(**facts)
        cfg.architectures = archs
        data = cfg.to_dict()
        data.pop("transformers_version", None)
        data["_deploysheet_source"] = source
        folder = OUT / name
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "config.json").write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
        print(f"wrote {folder / 'config.json'}")
    write_arch_cache()
    write_compiled_templates()


def write_compiled_templates() -> None:
    """Precompile the Markdown and HTML templates (data/compiled_templates/<kind>/), with a manifest of the
    sources' SHA-256 and jinja2's version: a cold `deploysheet score` then imports them instead of compiling
    (scorer.render._compiled_loader falls back to the sources on any mismatch). tests/test_render.py checks."""
    import shutil

    import jinja2

    from scorer import render
    for kind in ("md", "html"):
        folder = OUT.parent / render.COMPILED_DIR / kind
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        env = render.make_env(kind, jinja2.FileSystemLoader(str(render.templates_dir())))
        env.compile_templates(str(folder), zip=None, filter_func=lambda n, k=kind: n in render.template_digests(k),
                              ignore_errors=False, log_function=None)
        manifest = {"jinja2": jinja2.__version__, "templates": render.template_digests(kind),
                    "command": "python scripts/make_examples.py"}
        (folder / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
        print(f"wrote {folder} ({len(manifest['templates'])} templates)")


def write_arch_cache() -> None:
    """Precompute the normalized architecture of every example (data/arch_cache/), so the default
    `deploysheet score` needs no transformers import. tests/test_examples.py checks they are current."""
    import os
    os.environ["DEPLOYSHEET_NO_CACHE"] = "1"
    from scorer import cache
    from scorer.architecture import _normalize
    cache_folder = OUT.parent / "arch_cache"
    cache_folder.mkdir(exist_ok=True)
    for old in cache_folder.glob("*.json"):
        old.unlink()
    for folder in sorted(OUT.iterdir()):
        cfg = json.loads((folder / "config.json").read_text())
        key = cache.arch_key(cfg, None)
        (cache_folder / f"{key}.json").write_text(_normalize(cfg, None).model_dump_json() + "\n")
        print(f"wrote {cache_folder / (key + '.json')}")


if __name__ == "__main__":
    main()
