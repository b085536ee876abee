"""Vision towers, counted under ``params.vision`` (apart from the language model).

A multimodal checkpoint's tower is two parts, read by two tables:

* the **encoder**, a ViT-style stack driven by ``vision_config``: :data:`.encoders.ENCODERS` maps the
  vision config's ``model_type`` (``clip_vision_model``, ``siglip_vision_model``, ``pixtral``,
  ``qwen3_vl_vision``, ...) to one declarative :class:`~.encoders.Encoder` entry — which keys give
  the depth, width, heads and MLP width, whether the MLP is gated, which biases exist, the norm type,
  the patch embedding (channels x patch x patch x temporal patch), the learned position table, a class
  token, pre/post norms, layer scales, Siglip's pooling head — read by one generic reader;
* the **projector** (merger, multi_modal_projector, connector, aligner, ...), registered per
  top-level ``model_type`` in :data:`TOWERS` with :func:`tower`: a small function that reads the
  encoder and adds the modules the ``...ForConditionalGeneration`` class builds around it, from the
  top-level keys.

Keys go through :class:`~scorer.architecture.reader.Reader` objects over the raw dicts and
transformers' own config objects (their defaults fill keys a ``config.json`` leaves out): every
key a reader uses, or marks as changing no shape, is recorded, so the unread shape keys of
``vision_config`` are listed in ``ModelArch.unmodelled_keys``.

Counts follow the parameter layout transformers 5.24 instantiates for the class in
``architectures`` (checked on torch's meta device: ``tests/data/vision_oracle.json``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ...reader import Reader
from .. import registrar
from ...specs import VisionTower


@dataclass
class TowerContext:
    """What a tower reader may use.

    ``vr`` reads ``vision_config`` (the raw dict and transformers' vision config object; its
    consumed set is the vision keys' record); ``tr`` reads the top-level keys that shape the
    projector (its consumed set joins the top-level record); ``text_hidden`` is the language
    model's hidden size (elements).
    """

    vr: Reader
    tr: Reader
    text_hidden: int
    model_type: str

    @property
    def where(self) -> str:
        return self.vr.where

    @property
    def vision_type(self) -> str | None:
        """``vision_config.model_type`` (raw, else the config object's), None when neither says."""
        mt = self.vr.raw.get("model_type")
        if isinstance(mt, str) and mt:
            return mt
        mt = getattr(self.vr.cfg, "model_type", None) if self.vr.cfg is not None else None
        return mt if isinstance(mt, str) and mt else None


TowerReader = Callable[[TowerContext], "VisionTower | None"]

#: top-level model_type (or text family) -> tower reader; a reader returns None for a tower it cannot read
TOWERS: dict[str, TowerReader] = {}


#: register a tower reader under each top-level ``model_type`` it answers to
tower = registrar(TOWERS, "vision tower")


def run_tower_reader(table: dict[str, Any], sub_key: str, model_type: str | None, family: str,
                     sub_raw: dict[str, Any], sub_obj: Any, top_raw: dict[str, Any], top_obj: Any, text_hidden: int,
                     sub_consumed: set[str], top_consumed: set[str]) -> Any:
    """Run the reader ``table`` holds for ``model_type`` (else ``family``) over the sub-config at ``sub_key``
    (``vision_config``, ``audio_config``), recording the keys it consumes; None when no reader knows the type.

    Raises:
        ConfigError: a tower dimension is missing, malformed, absurd or inconsistent.
    """
    fn = table.get(model_type or "") or table.get(family)
    if fn is None:
        return None
    obj = sub_obj if sub_obj is not None and not isinstance(sub_obj, dict) else None
    ctx = TowerContext(vr=Reader(sub_raw, obj, f"config.{sub_key}", sub_consumed),
                       tr=Reader(top_raw, top_obj, "config", top_consumed), text_hidden=text_hidden,
                       model_type=model_type or family)
    return fn(ctx)


def read_tower(model_type: str | None, family: str, vision_raw: dict[str, Any], vision_obj: Any,
               top_raw: dict[str, Any], top_obj: Any, text_hidden: int, vision_consumed: set[str],
               top_consumed: set[str]) -> VisionTower | None:
    """The tower of a multimodal config, or None when no reader knows it (the caller notes that).

    Raises:
        ConfigError: a tower dimension is missing, malformed, absurd or inconsistent.
    """
    return run_tower_reader(TOWERS, "vision_config", model_type, family, vision_raw, vision_obj, top_raw, top_obj,
                            text_hidden, vision_consumed, top_consumed)


from . import towers  # noqa: E402,F401  (registration)
from . import audio, qformer  # noqa: E402,F401  (registration; group: audio and omni)
from . import generators  # noqa: E402,F401  (registration; group: omni models and image tokenizer towers)
from . import muse  # noqa: E402,F401  (registration; group: longcat_flash, muse_*, axk2, hy_v4, hy_v4_vl)
from . import gemma3n  # noqa: E402,F401  (registration; Gemma 3n's USM audio encoder and timm MobileNetV5 tower)
