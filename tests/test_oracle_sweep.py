"""The normalizer against the meta-device oracle over all of transformers (issue 12).

tests/data/meta_oracle_sweep.json holds, for every model_type of transformers' CONFIG_MAPPING with
a text-generating model (plus the supported encoders), the default config and resized variants
built through the config class, with the parameter counts of the model instantiated on torch's
meta device (the command and versions are in the file; no torch is needed here).

* a type in ``VERIFIED`` counts exactly: total (language model without MTP), vision, active;
* a type outside it is never presented as exact: its sheet says the counts are estimated, or
  ``score`` refuses it with one line (``REFUSED``);
* ``VERIFIED`` lists every swept type that agrees, so the claim and the evidence stay equal.
"""

from __future__ import annotations

import json
from collections import defaultdict
from functools import lru_cache
from pathlib import Path

import pytest

from scorer.architecture import normalize
from scorer.architecture.families import REFUSED, VERIFIED
from scorer.errors import ConfigError
from scorer.params import count_params

def _floats(obj: dict):
    """The sweep file writes non-finite floats (time_step_limit's Infinity) as {"__float__": "Infinity"}."""
    return float(obj["__float__"]) if set(obj) == {"__float__"} else obj


SWEEP = json.loads((Path(__file__).parent / "data" / "meta_oracle_sweep.json").read_text(), object_hook=_floats)
BY_TYPE: dict[str, list[dict]] = defaultdict(list)
for _v in SWEEP["variants"]:  # keyed by the config's model_type (gpt-sw3 ships a GPT2Config: it is gpt2)
    BY_TYPE[_v["config"].get("model_type") or _v["model_type"]].append(_v)


def _config(v: dict) -> dict:
    """A fresh copy of a variant's config (normalize may not mutate, but the tests share the dicts)."""
    import copy
    return copy.deepcopy(v["config"])


def _longcat_zero_expert_rows(cfg: dict) -> int:
    """transformers' LongcatFlashExperts allocates ``gate_up_proj`` for routed + zero experts
    (``torch.empty(self.total_experts, 2 * intermediate, hidden)``, modeling_longcat_flash.py) while ``down_proj``
    holds the routed ones: the zero ("identity") experts have no weights, and LongCat-Flash's checkpoint stores
    none (560 B parameters as published, against the meta device's 741 B for the default config). The rows the
    meta device over-counts: num_layers x zero_expert_num x 2 x expert_ffn_hidden_size x hidden_size."""
    return (cfg["num_layers"] * (cfg.get("zero_expert_num") or 0) * 2 * cfg["expert_ffn_hidden_size"]
            * cfg["hidden_size"])


#: model_type -> rows the meta device builds that the family's checkpoints do not store (each derived above)
ORACLE_OVERCOUNT = {"longcat_flash": _longcat_zero_expert_rows}


def expected(v: dict) -> dict[str, int]:
    """The oracle's numbers in the normalizer's terms: ``total`` excludes MTP and vision; ``active``
    removes the routed experts not chosen (routed x (1 - top_k / experts)); rows in :data:`ORACLE_OVERCOUNT`
    come off the language model and the routed experts."""
    c = v["counts"]
    over = ORACLE_OVERCOUNT.get(v["config"].get("model_type"), lambda cfg: 0)(v["config"])
    total = c["language_model"] - c.get("mtp", 0) - over
    routed = c.get("routed_experts", 0) - over
    active = total
    if routed and c.get("num_experts") and c.get("top_k"):
        active = total - round(routed * (1 - c["top_k"] / c["num_experts"]))
    return {"total": total, "vision": c.get("vision", 0), "active": active}


@lru_cache(maxsize=None)
def outcome(model_type: str) -> tuple[bool, str]:
    """(every variant exact, first difference) for one swept type."""
    for v in BY_TYPE[model_type]:
        try:
            arch = normalize(_config(v))
        except ConfigError as exc:
            return False, f"{v['variant']}: {exc}"
        got = count_params(arch)
        exp = expected(v)
        have = {"total": got.total, "vision": got.vision or 0, "active": got.active}
        if abs(have["active"] - exp["active"]) <= 1:  # the oracle's active is a rounded product
            have["active"] = exp["active"]
        if have != exp:
            return False, f"{v['variant']}: got {have}, meta device {exp}"
    return True, ""


def test_sweep_records_its_command_versions_and_covers_150_types():
    assert SWEEP["command"].startswith("python scripts/meta_oracle.py --sweep")
    assert SWEEP["versions"]["transformers"] and SWEEP["versions"]["torch"]
    assert len(BY_TYPE) >= 150
    assert all(len(vs) >= 3 for vs in BY_TYPE.values())  # the default and two resized variants


@pytest.mark.parametrize("model_type", sorted(VERIFIED & set(BY_TYPE)))
def test_verified_type_counts_exactly(model_type):
    ok, why = outcome(model_type)
    assert ok, why
    for v in BY_TYPE[model_type]:
        arch = normalize(_config(v))
        assert arch.structure_verified, v["variant"]


def test_every_type_that_agrees_is_verified():
    agree = {t for t in BY_TYPE if t not in REFUSED and outcome(t)[0]}
    missing = sorted(agree - VERIFIED)
    assert not missing, f"agree with the meta device but not in VERIFIED: {missing}"


def test_unverified_types_are_labelled_estimated_or_refused():
    for model_type in sorted(set(BY_TYPE) - VERIFIED):
        for v in BY_TYPE[model_type]:
            try:
                arch = normalize(_config(v))
            except ConfigError as exc:
                msg = str(exc)
                assert "\n" not in msg and len(msg) < 400, (model_type, msg)
                continue
            assert arch.exact is False, (model_type, v["variant"])


def test_refused_types_are_refused_in_one_line():
    from scorer.architecture import normalize as norm
    for model_type, reason in REFUSED.items():
        assert reason and "\n" not in reason
        with pytest.raises(ConfigError, match=f"model_type '{model_type}' is not supported"):
            norm({"model_type": model_type, "hidden_size": 8, "num_hidden_layers": 1, "num_attention_heads": 1,
                  "vocab_size": 8, "intermediate_size": 8})


def test_coverage_report(capsys):
    """Prints how many swept types count exactly (seen with pytest -s); fails only if none do."""
    exact = sorted(t for t in BY_TYPE if outcome(t)[0])
    with capsys.disabled():
        print(f"\noracle sweep: {len(exact)} of {len(BY_TYPE)} model types exact "
              f"({len(SWEEP['variants'])} variants, {len(SWEEP.get('skipped', {}))} skipped by the oracle)")
    assert exact
