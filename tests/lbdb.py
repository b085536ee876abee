"""Crawl databases for the leaderboard tests and bench: ok rows built from real sheets of the bundled examples,
plus error rows as the crawl records them."""

from __future__ import annotations

import hashlib
import zlib
from functools import cache
from pathlib import Path

from scorer.crawldb import CrawlDB, Listed, Result, costs_of

HOSTILE_NAME = "evil/<img src=x onerror=window.__xss=1>"
HOSTILE_LICENSE = '"><script>window.__xss=2</script><img src=x onerror=alert(1)>|`x`'
HOSTILE_TYPE = "<img src=x onerror=window.__xss=3>"


def sha_of(repo_id: str, salt: str = "") -> str:
    return hashlib.sha1((repo_id + salt).encode()).hexdigest()


@cache
def real_ok(example: str, gpus: tuple[str, ...] = ("H100-SXM",)) -> Result:
    """An ok Result (no repo id yet) from the real sheet of ``example:NAME``."""
    from scorer.sheet import Options, build_sheet
    from scorer.sources import load_example

    s = build_sheet(load_example(example), Options(gpus=list(gpus), recommendations=False))
    costs = costs_of(s)
    return Result(repo_id="-", sha="-", status="ok", model_type=s.model.model_type, family=s.model.family,
                  kind=s.model.kind, params_total=s.params.total, params_active=s.params.active,
                  precision=s.options.precision, score=s.score.total, grade=s.score.grade,
                  kv_bytes_per_token=s.kv_cache.bytes_per_token_all_layers, custom_code=s.model.custom_code, gated="False",
                  license="apache-2.0", safetensors=True, options="test",
                  sheet_json=zlib.compress(s.model_dump_json().encode("utf-8"), 6), costs=costs)


def ok_row(repo_id: str, example: str, gpus: tuple[str, ...] = ("H100-SXM",), **over) -> Result:
    return real_ok(example, gpus).model_copy(update={"repo_id": repo_id, "sha": sha_of(repo_id), **over})


def scale_costs(r: Result, factor: float) -> Result:
    costs = [c.model_copy(update={"usd_per_1m_output_tokens": None if c.usd_per_1m_output_tokens is None
                                  else c.usd_per_1m_output_tokens * factor}) for c in r.costs]
    return r.model_copy(update={"costs": costs})


ERRORS = [
    ("meta-llama/Llama-Gated-70B", "gated", "meta-llama/Llama-Gated-70B is gated: accept its conditions on the Hub"),
    ("someone/gguf-only", "missing_config", "someone/gguf-only has no config.json (GGUF/adapter only)"),
    ("someone/broken-json", "invalid_json", "config.json: invalid JSON at line 3 column 5"),
    ("someone/remote-code", "custom_code", "auto_map config needs the repository's code: unknown model_type 'xyz'"),
    ("someone/flaky", "error", "cannot reach the Hub at https://huggingface.co for someone/flaky: ReadTimeout"),
]

#: (repo id, example, score override, cost factor, license, downloads)
MODELS = [
    ("meta-llama/Llama-3.1-8B-Instruct", "llama-3.1-8b", None, 1.0, "llama3.1", 5_000_000),
    ("mistralai/Mixtral-8x7B-v0.1", "mixtral-8x7b", None, 1.0, "apache-2.0", 400_000),
    ("Qwen/Qwen3-4B", "qwen3-4b", None, 1.0, "apache-2.0", 2_000_000),
    ("google/gemma-7b", "gemma-7b", None, 1.0, "gemma", 300_000),
    ("mistralai/Mistral-Nemo-Base-2407", "mistral-nemo-12b", None, 1.0, "apache-2.0", 150_000),
    (HOSTILE_NAME, "llama-2-7b", 42.5, 3.7, HOSTILE_LICENSE, 7),
]


def make_db(path: str | Path, gpus: tuple[str, ...] = ("H100-SXM",), errors: bool = True) -> list[Result]:
    """A database of the MODELS (real sheets) and ERRORS; returns the current ok Results put."""
    out = []
    with CrawlDB(path) as db:
        for repo, ex, score, factor, lic, downloads in MODELS:
            over = {"license": lic}
            if score is not None:
                over["score"] = score
                over["grade"] = "D"
            if repo == HOSTILE_NAME:
                over["model_type"] = HOSTILE_TYPE
            r = scale_costs(ok_row(repo, ex, gpus, **over), factor)
            # an older commit of the same repo, scored higher: history, not the current row
            old = r.model_copy(update={"sha": sha_of(repo, "old"), "score": 99.9})
            db.put(old)
            db.put(r)
            out.append(r)
        if errors:
            for repo, status, err in ERRORS:
                db.put(Result(repo_id=repo, sha=sha_of(repo), status=status, error=err, gated="manual"
                              if status == "gated" else None))
        db.note_listed([Listed(repo_id=repo, downloads=dl) for repo, _, _, _, _, dl in MODELS])
    return out
