"""A generated Hub of many model repos for the crawl tests and benchmarks (``tests/fakehub.py``).

Configs are serialized from transformers' own config classes (``XConfig(...).to_dict()``) with varied
dimensions; about one repo in eight is broken on purpose. :func:`populate` returns the status the crawl
must record for each repo, known by construction.
"""

from __future__ import annotations

import json
import random


def _dims(rng: random.Random) -> dict:
    hidden = rng.choice([1024, 1536, 2048, 2560, 3072, 4096, 5120])
    head_dim = rng.choice([64, 128])
    heads = max(1, hidden // head_dim)
    kv = rng.choice([h for h in (1, 2, 4, 8, heads) if heads % h == 0])
    return dict(hidden_size=hidden, num_attention_heads=heads, num_key_value_heads=kv,
                intermediate_size=rng.choice([2, 3, 4]) * hidden + rng.choice([0, 0, 256, 320]),
                num_hidden_layers=rng.choice([8, 16, 24, 32]), vocab_size=rng.choice([32000, 32768, 50257, 128256,
                                                                                      151936]),
                max_position_embeddings=rng.choice([4096, 8192, 32768]))


def _config(kind: str, rng: random.Random) -> dict:
    import transformers as tf
    d = _dims(rng)
    if kind == "llama":
        return tf.LlamaConfig(**d).to_dict()
    if kind == "mistral":
        return tf.MistralConfig(**d, sliding_window=rng.choice([None, 4096])).to_dict()
    if kind == "qwen2":
        return tf.Qwen2Config(**d).to_dict()
    if kind == "qwen3":
        return tf.Qwen3Config(**d, head_dim=d["hidden_size"] // d["num_attention_heads"]).to_dict()
    if kind == "mixtral":
        return tf.MixtralConfig(**d, num_local_experts=rng.choice([4, 8]), num_experts_per_tok=2).to_dict()
    if kind == "qwen2_moe":
        d.pop("intermediate_size")
        return tf.Qwen2MoeConfig(**d, num_experts=rng.choice([16, 32, 60]), num_experts_per_tok=4,
                                 moe_intermediate_size=rng.choice([704, 1408]),
                                 shared_expert_intermediate_size=2816).to_dict()
    if kind == "gemma2":
        return tf.Gemma2Config(**d, head_dim=d["hidden_size"] // d["num_attention_heads"]).to_dict()
    if kind == "phi3":
        return tf.Phi3Config(**d).to_dict()
    raise ValueError(kind)


GOOD = ["llama", "mistral", "qwen2", "qwen3", "mixtral", "qwen2_moe", "gemma2", "phi3"]
BROKEN = ["invalid_json", "missing_keys", "gated", "custom_code", "missing_config", "encoder"]


_MADE: dict[tuple[int, int], list[tuple[str, dict | bytes, dict, str]]] = {}


def populate(hub, n: int = 320, seed: int = 7) -> dict[str, str]:
    """Add ``n`` repos to ``hub``; return repo_id -> the status the crawl must record."""
    if (n, seed) not in _MADE:  # transformers' config classes are slow to build: make each set once
        _MADE[(n, seed)] = _make(n, seed)
    expected = {}
    for repo, cfg, kw, status in _MADE[(n, seed)]:
        kw = dict(kw)
        files = kw.pop("files", None)
        r = hub.add(repo, cfg, **kw)
        if files is not None:
            r.files = dict(files)
        expected[repo] = status
    return expected


class _Recorder:
    """Stands in for the hub while the repos are made once."""

    def __init__(self):
        self.made: list = []

    def add(self, repo, cfg, **kw):
        self.made.append((repo, cfg, kw, None))


def _make(n: int, seed: int) -> list[tuple[str, dict | bytes, dict, str]]:
    import transformers as tf
    hub = _Recorder()
    rng = random.Random(seed)
    expected: dict[str, str] = {}
    for i in range(n):
        org = f"org{i % 17}"
        downloads = rng.randint(0, 10**6)
        if i % 8 == 7:
            kind = BROKEN[(i // 8) % len(BROKEN)]
            repo = f"{org}/broken-{kind}-{i}"
            cfg = _config(rng.choice(GOOD), rng)
            if kind == "invalid_json":
                hub.add(repo, json.dumps(cfg).encode()[:-20], downloads=downloads)
                expected[repo] = "invalid_json"
            elif kind == "missing_keys":
                for k in ("hidden_size", "num_attention_heads"):
                    cfg.pop(k)
                hub.add(repo, cfg, downloads=downloads)
                expected[repo] = "invalid_config"
            elif kind == "gated":
                hub.add(repo, cfg, gated=True, downloads=downloads)
                expected[repo] = "gated"
            elif kind == "custom_code":
                cfg = {"model_type": "acme_recurrent", "architectures": ["AcmeForCausalLM"],
                       "auto_map": {"AutoConfig": "configuration_acme.AcmeConfig",
                                    "AutoModelForCausalLM": "modeling_acme.AcmeForCausalLM"},
                       "d_model": 2048, "n_blocks": 24}
                hub.add(repo, cfg, downloads=downloads, more_files={"modeling_acme.py": b"import os\n"})
                expected[repo] = "custom_code"
            elif kind == "missing_config":
                hub.add(repo, cfg, downloads=downloads,
                        files={"README.md": b"# an adapter\n", "adapter_config.json": b"{}"})
                expected[repo] = "missing_config"
            else:
                hub.add(repo, tf.BertConfig(hidden_size=768, num_attention_heads=12).to_dict(), downloads=downloads,
                        pipeline_tag="text-generation")
                expected[repo] = "unsupported"
            continue
        kind = GOOD[i % len(GOOD)]
        repo = f"{org}/{kind}-{i}"
        hub.add(repo, _config(kind, rng), downloads=downloads, likes=rng.randint(0, 5000),
                tags=["transformers", "safetensors", f"license:{rng.choice(['apache-2.0', 'mit', 'other'])}"],
                extra_files=["model.safetensors"])
        expected[repo] = "ok"
    return [(repo, cfg, kw, expected[repo]) for repo, cfg, kw, _ in hub.made]


if __name__ == "__main__":  # a fake Hub in its own process, for bench/bench_crawl.py
    import argparse
    import sys
    import time
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from pytest_httpserver import HTTPServer

    from fakehub import FakeHub

    ap = argparse.ArgumentParser()
    ap.add_argument("--repos", type=int, default=320)
    ap.add_argument("--latency-ms", type=float, default=0.0)
    a = ap.parse_args()
    import logging
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server = HTTPServer(threaded=True)
    server.start()
    fake = FakeHub(server)
    fake.latency_s = a.latency_ms / 1000
    populate(fake, a.repos)
    print(fake.endpoint, flush=True)
    while True:
        time.sleep(3600)
