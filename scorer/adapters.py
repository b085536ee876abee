"""PEFT adapter repos (``adapter_config.json`` and no ``config.json``): which base model they adapt, and whether
vLLM serves them as LoRA adapters. Pure: :mod:`scorer.sources` reads the files and loads the base model.

A LoRA adapter does not change the base model's architecture: the sheet of an adapter repo is its base model's
sheet, with a note naming the adapter and the flags vLLM needs to serve it (``--enable-lora`` and a
``--max-lora-rank`` of at least the adapter's rank), or why vLLM refuses it (data/engines.json ``lora``, read from
vLLM 0.33.0's ``vllm/lora/peft_helper.py`` ``PEFTHelper.validate_legal``).
"""

from __future__ import annotations

import math
from typing import Any

from .errors import BadInputError

#: the file of a PEFT adapter repo
ADAPTER_CONFIG = "adapter_config.json"


def lora_rules() -> dict:
    """vLLM's LoRA rules (data/engines.json ``vllm.lora``: allowed --max-lora-rank values, its default, sources)."""
    from .resources import load_json
    return load_json("engines.json")["engines"]["vllm"].get("lora") or {}


def _short(text: Any, limit: int = 60) -> str:
    s = str(text)
    return s if len(s) <= limit else s[:limit] + "…"


def base_model(adapter: Any, where: str) -> str:
    """The base model an adapter config names (``base_model_name_or_path``), stripped.

    Raises:
        BadInputError: the file is not a JSON object, or names no base model as a non-empty string.
    """
    if not isinstance(adapter, dict):
        raise BadInputError(f"{where}: {ADAPTER_CONFIG} is not a JSON object", "invalid_json")
    base = adapter.get("base_model_name_or_path")
    if not isinstance(base, str) or not base.strip():
        raise BadInputError(f"{where}: {ADAPTER_CONFIG} names no base model (base_model_name_or_path), so there is "
                            "no architecture to read", "missing_config")
    if len(base) > 300 or any(ord(c) < 32 for c in base):
        raise BadInputError(f"{where}: {ADAPTER_CONFIG} base_model_name_or_path {_short(base)!r} is not a model id "
                            "or path", "missing_config")
    return base.strip()


def adapter_rank(adapter: dict) -> int | None:
    """The adapter's largest LoRA rank (``r`` and every ``rank_pattern`` value), or None where it states none. An
    integral float (``64.0``, as some writers serialize PEFT's int) is that integer.

    Raises:
        BadInputError: a rank that is not a positive integer (``0``, ``-1``, ``"8"``, ``true``, ``1.5``), or a
            ``rank_pattern`` that is not an object: PEFT's LoraConfig and vLLM's PEFTHelper take ``r`` as an int.
    """
    pattern = adapter.get("rank_pattern")
    if pattern is not None and not isinstance(pattern, dict):
        raise BadInputError(f"{ADAPTER_CONFIG}: rank_pattern must be an object of module -> rank, got "
                            f"{_short(pattern, 40)}", "invalid_config")
    ranks = [("r", adapter.get("r"))] + [(f"rank_pattern[{_short(k, 40)!r}]", v) for k, v in (pattern or {}).items()]
    ok = []
    for name, r in ranks:
        if r is None and name == "r":
            continue
        if isinstance(r, bool) or not isinstance(r, (int, float)) or not math.isfinite(r) or r != int(r) or r < 1:
            raise BadInputError(f"{ADAPTER_CONFIG}: {name} must be a positive integer (the LoRA rank), got "
                                f"{_short(repr(r), 40)}", "invalid_config")
        ok.append(int(r))
    return max(ok) if ok else None


def vllm_refusal(adapter: dict) -> str | None:
    """Why vLLM 0.33.0 refuses to load the adapter at any ``--max-lora-rank`` (PEFTHelper.validate_legal /
    _validate_features), or None."""
    rules = lora_rules()
    why = []
    peft_type = str(adapter.get("peft_type") or "LORA").upper()
    if peft_type != "LORA":
        why.append(f"peft_type {_short(peft_type, 30)!r} (vLLM serves LoRA adapters only)")
    saved = adapter.get("modules_to_save") or []
    if isinstance(saved, list) and [m for m in saved if m not in rules.get("modules_to_save", [])]:
        why.append(f"modules_to_save {_short(saved)} (only {', '.join(rules.get('modules_to_save', []))})")
    if adapter.get("use_dora"):
        why.append("DoRA (use_dora)")
    if adapter.get("lora_bias"):
        why.append("lora_bias")
    if adapter.get("bias") not in (None, "none"):
        why.append(f"bias {_short(adapter.get('bias'), 20)!r}")
    if adapter.get("layer_replication"):
        why.append("layer_replication")
    init = adapter.get("init_lora_weights")
    if isinstance(init, str) and init.lower().startswith(("pissa", "olora", "corda", "loftq")):
        why.append(f"init_lora_weights {_short(init, 20)!r}")
    rank = adapter_rank(adapter)
    ranks = rules.get("max_lora_ranks") or []
    if rank is not None and ranks and rank > max(ranks):
        why.append(f"rank {rank} above the largest --max-lora-rank {max(ranks)}")
    return "; ".join(why) or None


def adapter_note(adapter: dict, repo: str, base: str) -> str:
    """The sheet's note on an adapter repo: what it adapts, its rank and targets, and how vLLM serves it."""
    rank = adapter_rank(adapter)
    targets = adapter.get("target_modules")
    tgt = (", ".join(_short(t, 30) for t in targets[:8]) + (", …" if len(targets) > 8 else "")) \
        if isinstance(targets, list) and targets else (_short(targets, 60) if isinstance(targets, str) else None)
    peft_type = _short(str(adapter.get("peft_type") or "LORA").upper(), 30)
    desc = f"{peft_type} adapter" + (f" of rank {rank}" if rank else "") + (f" on {tgt}" if tgt else "")
    head = (f"{_short(repo, 120)} holds a PEFT {desc} (adapter_config.json, no config.json) for base model "
            f"{_short(base, 120)}: the architecture, parameter counts, fit and predictions here are the base model's "
            "(the adapter's low-rank weights are not counted)")
    rules = lora_rules()
    refused = vllm_refusal(adapter)
    if refused:
        return head + f"; vllm 0.33.0 refuses it as a LoRA adapter: {refused} ({_short(rules.get('src', ''), 80)})"
    need = max_lora_rank(rank)
    default = rules.get("max_lora_rank_default", 16)
    flag = "--enable-lora" + (f" --max-lora-rank {need}" if need is not None else "")
    return head + (f"; vllm 0.33.0 serves it with `{flag}` (default --max-lora-rank {default}; vllm/config/lora.py), or "
                   "merged into the base weights")


def max_lora_rank(rank: int | None) -> int | None:
    """The ``--max-lora-rank`` vLLM needs for an adapter of LoRA rank ``rank``: the smallest allowed value at or above
    it, or None where the default (16) covers it or the rank is unknown."""
    rules = lora_rules()
    default = rules.get("max_lora_rank_default", 16)
    need = next((r for r in rules.get("max_lora_ranks") or [] if rank is not None and r >= rank), default)
    return need if need > default else None
