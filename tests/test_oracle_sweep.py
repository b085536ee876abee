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
        # LongCat's zero-compute experts: top_k x E / (E + Z) real experts a token on average (tests/test_zero_experts)
        z = v["config"].get("zero_expert_num") or 0
        top_k = c["top_k"] * c["num_experts"] / (c["num_experts"] + z)
        active = total - round(routed * (1 - top_k / c["num_experts"]))
    return {"total": total, "vision": c.get("vision", 0), "active": active}


#: (model_type, variant) of the sweep that the meta device builds but no forward can run: refused (exit 2), not
#: counted. MiMoV2FlashAttention doubles num_key_value_heads on sliding layers (modeling_mimo_v2_flash.py), so
#: resize_b's 12 query heads meet 8 KV heads there and repeat_kv (12 // 8 = 1 copy each) builds 8 of them.
#: Zamba2's resized variants keep the default's mamba_headdim 640, which a saved config's value overrides
#: (Zamba2Config.__post_init__ derives it, the file's key is set after): 1 or 2 heads x 640 is not the 1,024 or
#: 1,536 inner channels Zamba2MambaMixer views as heads x head_dim (the parameter shapes do not depend on it).
UNRUNNABLE = {("mimo_v2_flash", "resize_b"): "not a multiple of its 8 key/value heads",
              ("zamba2", "resize_a"): "not the Mamba inner width 1024",
              ("zamba2", "resize_b"): "not the Mamba inner width 1536",
              # the resize kept num_layers_per_stack 1 and set num_hidden_layers: DynamicCache(config) allocates
              # 6 / 9 slots, HrmTextModel's loop writes 1 * 2 * (3 + 1) = 8 (modeling_hrm_text.py)
              ("hrm_text", "resize_a"): "num_hidden_layers 6 is not",
              ("hrm_text", "resize_b"): "num_hidden_layers 9 is not"}


def test_unrunnable_variants_are_refused_naming_the_layer():
    for (model_type, variant), why in UNRUNNABLE.items():
        with pytest.raises(ConfigError, match=why):
            normalize(_config(_VARIANTS[(model_type, variant)]))


@lru_cache(maxsize=None)
def outcome(model_type: str) -> tuple[bool, str]:
    """(every variant exact, first difference) for one swept type; :data:`UNRUNNABLE` variants are skipped."""
    for v in BY_TYPE[model_type]:
        if (model_type, v["variant"]) in UNRUNNABLE:
            continue
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
        if (model_type, v["variant"]) in UNRUNNABLE:
            continue
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


def _hub_style(v: dict) -> tuple[dict, bool] | None:
    """The variant as a Hub checkpoint of an earlier transformers writes it: ``text_config`` without the values equal
    to its class's defaults (``to_diff_dict`` / ``recursive_diff_dict`` of transformers 4.x: Gemma 3's published
    text_config has no vocab_size), and whether transformers builds the same text config from it (a composite that
    fills a partial text_config with defaults of its own does not: the meta-device numbers are then another
    model's). None when the variant has no text sub-config of a known class."""
    import warnings

    from transformers.models.auto.configuration_auto import CONFIG_MAPPING
    cfg = _config(v)
    sub = cfg.get("text_config")
    if not isinstance(sub, dict) or sub.get("model_type") not in CONFIG_MAPPING:
        return None
    cls = CONFIG_MAPPING[cfg["model_type"]]

    def text_of(c: dict) -> dict:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            d = cls(**{k: x for k, x in c.items() if k != "model_type"}).get_text_config(decoder=True).to_dict()
        return {k: x for k, x in d.items() if k not in ("transformers_version", "_name_or_path")}

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        defaults = json.loads(CONFIG_MAPPING[sub["model_type"]]().to_json_string(use_diff=False))
    before = text_of(cfg)
    cfg["text_config"] = {k: x for k, x in sub.items() if k == "model_type" or k not in defaults or defaults[k] != x}
    try:
        same = text_of(cfg) == before
    except Exception:  # transformers cannot build it back: not a file it would write
        same = False
    return cfg, same


COMPOSITE = sorted(t for t in VERIFIED & set(BY_TYPE) if isinstance(BY_TYPE[t][0]["config"].get("text_config"), dict))


@pytest.mark.parametrize("model_type", COMPOSITE)
def test_hub_style_text_configs_count_the_same(model_type):
    """Every verified composite type's sweep variants, with text_config stripped of its class defaults as the Hub's
    files are, count what the meta device counted for the full config, wherever transformers reads the stripped
    file back to the same text config."""
    for v in BY_TYPE[model_type]:
        made = _hub_style(v)
        if made is None or not made[1]:
            continue
        arch = normalize(made[0])
        got = count_params(arch)
        exp = expected(v)
        have = {"total": got.total, "vision": got.vision or 0, "active": got.active}
        if abs(have["active"] - exp["active"]) <= 1:
            have["active"] = exp["active"]
        assert have == exp, (model_type, v["variant"])


def test_hub_style_sweep_covers_the_composites():
    usable = sum(1 for t in COMPOSITE for v in BY_TYPE[t] if (m := _hub_style(v)) is not None and m[1])
    assert len(COMPOSITE) >= 60 and usable >= 200, (len(COMPOSITE), usable)


def _hunyuan_keys(c: dict) -> dict:
    return {"use_qk_norm": True, "norm_type": "rms", "org_vocab_size": c["vocab_size"], "use_cla": False,
            "cla_share_factor": 2, "add_classification_head": False, "class_num": 0,
            "dense_list": [c["hidden_size"], 0], "pool_type": "last"}


def _mimo_keys(c: dict) -> dict:
    return {"swa_head_dim": c["head_dim"], "swa_v_head_dim": c["v_head_dim"],
            "swa_num_attention_heads": c["num_attention_heads"],
            "swa_num_key_value_heads": 2 * c["num_key_value_heads"], "add_swa_attention_sink_bias": True,
            "add_full_attention_sink_bias": False, "sliding_window_size": c["sliding_window"] - 1,
            "hybrid_layer_pattern": [0 if t == "full_attention" else 1 for t in c["layer_types"]]}


def _vlm_keys(c: dict) -> dict:  # Idefics3-8B-Llama3 / SmolVLM2 as published
    vision = dict(c["vision_config"], model_type=c["model_type"], size={"longest_edge": 1536},
                  max_image_size={"longest_edge": 384})
    text = dict(c["text_config"], perceiver_config={"model_type": "vllama3"})
    return {"vision_config": vision, "text_config": text}


def _in_text(keys: dict):
    return lambda c: {"text_config": dict(c["text_config"], **keys)}


#: model_type -> (the keys its published configs carry, at the values of the layout transformers builds from that
#: config (transformers 5.24.0 reads none of them, or derives them: MiMoV2FlashConfig sliding_window =
#: sliding_window_size + 1, its sliding layers 2x the KV heads with sinks, full at layer 0 and every 6th),
#: one departure the engines would build differently: (key, value) or None)
PUBLISHED_KEYS = {
    "hunyuan_v1_dense": (_hunyuan_keys, ("cla_share_factor", 2, {"use_cla": True})),
    "hunyuan_v1_moe": (_hunyuan_keys, ("cla_share_factor", 2, {"use_cla": True})),
    "starcoder2": (lambda c: {"mlp_type": "default", "norm_type": "layer_norm"}, ("norm_type", "rms_norm", {})),
    "bamba": (lambda c: {"mamba_dt_rank": 256}, None),
    "zamba2": (lambda c: {"use_shared_mlp_adapter": True}, ("use_shared_mlp_adapter", False, {})),
    "solar_open": (lambda c: {"use_qk_norm": False}, ("use_qk_norm", True, {})),
    "afmoe": (lambda c: {"num_expert_groups": 1, "num_limited_groups": 1, "route_norm": True}, None),
    "mimo_v2_flash": (_mimo_keys, ("swa_num_key_value_heads", None, {})),
    "qwen3_next": (lambda c: {"attn_output_gate": True, "mtp_use_dedicated_embeddings": False},
                   ("attn_output_gate", False, {})),
    "qwen3_5_moe": (_in_text({"attn_output_gate": True, "mtp_use_dedicated_embeddings": False}), None),
    "longcat_flash": (lambda c: {"mla_scale_q_lora": True, "mla_scale_kv_lora": True, "zero_expert_type": "identity"},
                      ("zero_expert_type", "mlp", {})),
    "idefics3": (_vlm_keys, None),
    "smolvlm": (_vlm_keys, None),
    # second newcomer trial (2026-12-02): keys transformers 5.24.0 does not read, at its layout's values
    "cohere2": (lambda c: {"use_parallel_block": True, "use_parallel_embedding": True},
                ("use_parallel_block", False, {})),  # Cohere2DecoderLayer: attention and MLP off one norm
    "falcon_h1": (lambda c: {"mlp_expansion_factor": 8}, None),  # FalconH1MLP: intermediate_size wide
    "mamba2": (lambda c: {"norm_before_gate": False, "rms_norm": True}, ("rms_norm", False, {})),
    "gemma2": (lambda c: {"sliding_window_size": c["sliding_window"]}, ("sliding_window_size", 1, {})),
    "phimoe": (lambda c: {"original_max_position_embeddings": 4096}, None),  # LongRoPE's original context
    "cohere": (lambda c: {"model_max_length": 131072}, None),  # a tokenizer setting
    "recurrent_gemma": (lambda c: {"embeddings_scale_by_sqrt_dim": True}, None),  # a non-persistent buffer
    # a wrapper re-saved with the language model's keys flat beside text_config (transformers reads the nested
    # ones); a flat copy that differs is listed
    "qwen2_5_vl": (lambda c: {k: c["text_config"][k] for k in ("hidden_size", "num_hidden_layers", "vocab_size")},
                   ("hidden_size", 12345, {})),
    "llava_next": (lambda c: {"vocab_size": c["text_config"]["vocab_size"]}, ("vocab_size", 12345, {})),
    # Voxtral's audio_config as published: head_dim and num_key_value_heads, which VoxtralEncoder derives / lacks
    "voxtral": (lambda c: {"audio_config": dict(c["audio_config"], head_dim=c["audio_config"]["hidden_size"]
                                                // c["audio_config"]["num_attention_heads"],
                                                num_key_value_heads=c["audio_config"]["num_attention_heads"])},
                None),
}


@pytest.mark.parametrize("model_type", sorted(PUBLISHED_KEYS))
def test_published_keys_at_transformers_layout_count_as_the_meta_device(model_type):
    """A newcomer trial's recent configs (issue 12): keys the Hub files carry that transformers does not read, at
    the values its layout has, leave the counts exact and equal to the meta device's; a departure is listed."""
    add, departure = PUBLISHED_KEYS[model_type]
    for v in BY_TYPE[model_type]:
        if (model_type, v["variant"]) in UNRUNNABLE:
            continue
        cfg = _config(v)
        cfg.update(add(cfg))
        arch = normalize(cfg)
        got = count_params(arch)
        exp = expected(v)
        assert (got.total, got.vision or 0) == (exp["total"], exp["vision"]), v["variant"]
        assert arch.exact and not arch.unmodelled_keys and not arch.guesses, (v["variant"], arch.unmodelled_keys)
    if departure is not None:
        key, value, extra = departure
        cfg = _config(BY_TYPE[model_type][0])
        cfg.update(add(cfg))
        cfg.update(extra)
        cfg[key] = value if value is not None else cfg["num_key_value_heads"]  # MiMo: 1x instead of 2x
        arch = normalize(cfg)
        assert not arch.exact and key in arch.unmodelled_keys


def test_a_hybrid_configured_all_attention_ignores_its_mamba_keys():
    """Granite-4.0-Micro: granitemoehybrid with every layer attention (layer_types) still publishes the mamba_*
    keys; GraniteMoeHybridConfig only validates them and no Mamba layer is built, so they must not make the count
    an estimate (a hybrid variant reads them, exact as the sweep shows)."""
    v = BY_TYPE["granitemoehybrid"][0]
    cfg = _config(v)
    hybrid = normalize(cfg)
    assert hybrid.exact and not hybrid.unmodelled_keys
    cfg["layer_types"] = ["attention"] * len(cfg["layer_types"])
    cfg["mamba_d_state"] = 999  # shapes nothing without a Mamba layer
    arch = normalize(cfg)
    assert not any(getattr(lay.mixer, "kind", "") == "mamba" for lay in arch.layers)
    assert arch.exact and not arch.unmodelled_keys, arch.unmodelled_keys


def test_an_omni_thinker_leaving_the_tie_to_its_class_default_is_exact():
    """Qwen3-Omni-30B-A3B publishes no tie_word_embeddings at any level: Qwen3OmniMoeThinkerConfig's class
    default (False) is what transformers builds, so the count is exact, not a guess."""
    for v in BY_TYPE["qwen3_omni_moe"]:
        cfg = _config(v)
        cfg.pop("tie_word_embeddings", None)
        cfg["thinker_config"].pop("tie_word_embeddings", None)
        cfg["thinker_config"]["text_config"].pop("tie_word_embeddings", None)
        assert not v["counts"]["tied"]
        arch = normalize(cfg)
        assert count_params(arch).total == expected(v)["total"] and arch.exact and not arch.guesses, v["variant"]


def test_a_flat_wrapper_config_that_transformers_reads_flat_is_exact():
    """Qwen2.5-VL's Hub configs are flat (no text_config): Qwen2_5_VLConfig builds its text config from those
    top-level keys, so they are read, and the count equals the meta device's for the nested variant; a flat
    sliding_window beside use_sliding_window false (the config then says None) is no contradiction."""
    for v in BY_TYPE["qwen2_5_vl"]:
        cfg = _config(v)
        text = cfg.pop("text_config")
        cfg.update({k: val for k, val in text.items() if k not in cfg and k != "model_type"})
        cfg.update(use_sliding_window=False, sliding_window=32768)
        arch = normalize(cfg)
        got = count_params(arch)
        exp = expected(v)
        assert (got.total, got.vision or 0) == (exp["total"], exp["vision"]), v["variant"]
        assert arch.exact and not arch.unmodelled_keys and not arch.guesses, (v["variant"], arch.unmodelled_keys,
                                                                                arch.guesses)


HEADS = json.loads((Path(__file__).parent / "data" / "meta_oracle_heads.json").read_text())
_VARIANTS = {(v["config"].get("model_type"), v["variant"]): v for v in SWEEP["variants"]}


def _head_config(case: dict) -> dict:
    """The sweep variant's config as the heads oracle built it: its family's class and ``labels`` labels."""
    cfg = _config(_VARIANTS[(case["model_type"], case["variant"])])
    cfg["architectures"] = [case["class"]]
    if case["labels"]:
        cfg["id2label"] = {str(i): f"LABEL_{i}" for i in range(case["labels"])}
        cfg["label2id"] = {f"LABEL_{i}": i for i in range(case["labels"])}
    return cfg


def test_decoder_heads_count_as_the_meta_device_across_the_sweep():
    """Every text-only decoder variant of the sweep (default and resized configs) rebuilt as its family's
    sequence / token classification, question-answering and bare-model class on the meta device
    (tests/data/meta_oracle_heads.json, its command inside): the count equals the oracle's (less the rows
    ORACLE_OVERCOUNT names), or is labelled estimated with a guess (a family's own head class)."""
    checked, estimated, misses = 0, 0, []
    for case in HEADS["cases"]:
        if case["model_type"] in REFUSED or (case["model_type"], case["variant"]) in UNRUNNABLE:
            continue
        cfg = _head_config(case)
        arch = normalize(cfg)
        if arch.kind != "decoder":
            continue  # encoder and encoder-decoder heads: the encoder tests
        checked += 1
        want = case["total"] - ORACLE_OVERCOUNT.get(case["model_type"], lambda c: 0)(cfg)
        got = count_params(arch).total
        if got != want:
            if arch.exact or not arch.guesses:
                misses.append((case["model_type"], case["variant"], case["class"], got - want))
            else:
                estimated += 1
    assert checked >= 700 and not misses, misses[:10]
    # ModernBertDecoder's own classification head; XLM / XLNet SequenceSummary (classification, multiple choice)
    # and Reformer's heads (their own classes)
    assert estimated <= 21


def test_encoder_question_answering_heads_count_as_the_meta_device():
    """BertForQuestionAnswering and its kin: the encoder without its pooler plus qa_outputs (hidden -> 2, with a
    bias); the pooler was counted instead. BigBird's own QA head adds an intermediate / output block."""
    cases = [c for c in HEADS["cases"] if c["kind"] == "ForQuestionAnswering" and c["model_type"] not in REFUSED]
    checked = 0
    for case in cases:
        arch = normalize(_head_config(case))
        if arch.kind != "encoder":
            continue
        checked += 1
        assert count_params(arch).total == case["total"], (case["model_type"], case["variant"])
    assert checked >= 33


def test_encoder_and_encoder_decoder_heads_count_as_the_meta_device():
    """Every encoder and encoder-decoder case of the heads oracle (its sequence / token classification, QA, bare
    and *EncoderModel classes): the count equals the meta device's, or is labelled estimated with a guess
    (Marian's bare model, T5Gemma2's heads, types without a reader). Pre-training, next-sentence and
    multiple-choice heads included (BertForPreTraining: pooler, MLM head and NSP; ElectraForPreTraining: the
    discriminator head, not the generator's MLM head; *ForMultipleChoice: a 1-output classifier). Before: BART-family classification / QA heads were not counted
    (BartForSequenceClassification -1,052,675), BigBird's were BERT's (its ClassificationHead's dense, its token
    classifier's pooler, its QA block missing), ElectraModel / RoFormerModel had a pooler they do not build,
    T5EncoderModel was the whole encoder-decoder; all labelled exact."""
    checked, estimated, misses = 0, 0, []
    kinds = set()
    for case in HEADS["cases"]:
        if case["model_type"] in REFUSED or (case["model_type"], case["variant"]) in UNRUNNABLE:
            continue
        arch = normalize(_head_config(case))
        if arch.kind == "decoder":
            continue
        checked += 1
        kinds.add((arch.kind, case["kind"]))
        if count_params(arch).total != case["total"]:
            if arch.exact or not arch.guesses:
                misses.append((case["model_type"], case["variant"], case["class"], count_params(arch).total
                               - case["total"]))
            else:
                estimated += 1
    assert checked >= 240 and not misses, misses[:10]
    assert estimated <= 17  # Marian's and T5Gemma2's, and LongT5 / SwitchTransformers (no reader: estimated)
    # the T5 encoder alone is an encoder; every head kind of both groups was checked
    assert ("encoder", "EncoderModel") in kinds and ("encoder-decoder", "ForSequenceClassification") in kinds
