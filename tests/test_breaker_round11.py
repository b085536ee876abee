"""Breaker round 11 (multimodal towers on transformers 5.25's meta device): the cases it found, each derived here.

* BLIP-2's ``Blip2ForImageTextRetrieval`` (modeling_blip_2.py: vision_model, query_tokens, Q-Former embeddings,
  qformer, vision / text projections and an ITM head; no language_model) was counted as the OPT decoder its
  text_config describes, labelled exact: refused now, naming the class.
* ``tie_word_embeddings`` given both at the top level and in text_config with different values: transformers ties
  each PreTrainedModel module by its own config (modeling_utils get_expanded_tied_weights_keys), so the class
  holding lm_head decides, read from the modeling source (Llama 4's Llama4ForCausalLM(text_config): the text
  config; Gemma 3n's wrapper: the top level); where the source does not settle it, a guess naming both.
* ``pi05`` (a vision-language-action policy, like ``pi0``) was refused for a missing hidden_size.
"""

from __future__ import annotations

import pytest
from transformers import Blip2Config, Kosmos2Config, Llama4Config

from scorer.architecture import normalize
from scorer.errors import ConfigError
from scorer.params import count_params


def _blip2(arch: str) -> dict:
    cfg = Blip2Config().to_dict()
    cfg["architectures"] = [arch]
    return cfg


@pytest.mark.parametrize("arch", ["Blip2ForImageTextRetrieval", "Blip2VisionModelWithProjection"])
def test_blip2_classes_without_a_language_model_are_refused(arch):
    with pytest.raises(ConfigError) as exc:
        normalize(_blip2(arch))
    msg = str(exc.value)
    assert arch in msg and "no language model" in msg and "\n" not in msg


def test_blip2_generator_still_reads():
    arch = normalize(_blip2("Blip2ForConditionalGeneration"))
    assert arch.family == "opt"


def _composite(config_cls, arch: str, top_tie, text_tie) -> dict:
    """A composite config's defaults with its top-level and text_config tie flags set."""
    cfg = config_cls().to_dict()
    cfg["architectures"] = [arch]
    cfg["tie_word_embeddings"] = top_tie
    cfg["text_config"]["tie_word_embeddings"] = text_tie
    return cfg


def _llama4(top_tie, text_tie) -> dict:
    return _composite(Llama4Config, "Llama4ForConditionalGeneration", top_tie, text_tie)


@pytest.mark.parametrize("top_tie, text_tie", [(False, True), (True, False)])
def test_llama4_lm_head_follows_the_text_config(top_tie, text_tie):
    """modeling_llama4.py: Llama4ForConditionalGeneration builds ``Llama4ForCausalLM(config.text_config)``, which owns
    lm_head and ties it by the text config: tied (no lm_head parameters) exactly when text_config says so."""
    cfg = _llama4(top_tie, text_tie)
    arch = normalize(cfg)
    vocab, hidden = cfg["text_config"]["vocab_size"], cfg["text_config"]["hidden_size"]
    assert count_params(arch).by_component["lm_head"] == (0 if text_tie else vocab * hidden)
    assert not [g for g in arch.guesses if "tie_word_embeddings" in g]


def _kosmos2(top_tie, text_tie) -> dict:
    return _composite(Kosmos2Config, "Kosmos2ForConditionalGeneration", top_tie, text_tie)


def test_disagreeing_tie_flags_the_source_does_not_settle_are_a_guess_naming_both():
    """Kosmos-2's wrapper declares ties of its own beside its Kosmos2TextForCausalLM(config.text_config)
    (modeling_kosmos2.py): which flag wins is not read from the source, so the count is a guess naming both."""
    cfg = _kosmos2(True, False)
    arch = normalize(cfg)
    vocab, hidden = cfg["text_config"]["vocab_size"], cfg["text_config"]["embed_dim"]
    guess = [g for g in arch.guesses if g.startswith("tie_word_embeddings: the top level gives")]
    assert guess and "text_config gives False" in guess[0] and f"{vocab * hidden:,}" in guess[0]
    assert not arch.exact


def test_agreeing_tie_flags_are_not_a_guess():
    arch = normalize(_llama4(False, False))
    assert not [g for g in arch.guesses if "tie_word_embeddings" in g]


def test_pi05_is_refused_as_an_action_policy():
    with pytest.raises(ConfigError) as exc:
        normalize({"model_type": "pi05", "architectures": ["PI05ForConditionalGeneration"]})
    assert "vision-language-action" in str(exc.value)
