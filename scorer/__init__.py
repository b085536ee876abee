"""deploysheet: deployment sheets for LLMs from a Hugging Face config.

Data flow: ``scorer.sources`` (the only module doing I/O) → ``scorer.architecture``
(normalized :class:`~scorer.architecture.ModelArch`) → pure analyses (``params``,
``kvcache``, ``gemms``, ``fit``, ``quant``, ``costmodel``, ``regimes``, ``score``) →
``scorer.sheet.Sheet`` (pydantic) → ``scorer.render`` (jinja2 templates).
"""

__version__ = "0.1.0"
SCHEMA_VERSION = "1.0"
