"""The hidden marker that identifies the bot's own post, and what it records.

``<!-- deploysheet-bot v=1 repo=org/name sha=<40 hex> score=85.7 grade=A -->`` sits at the end of
the first comment of the bot's discussion (and inside the model-card block of its pull request).
Matching needs both the marker and the bot's own author name, so a user who copies the marker
into their own post is never mistaken for the bot.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MARKER_VERSION = 1
_RE = re.compile(r"<!-- deploysheet-bot v=(\d+) repo=(\S+) sha=([0-9a-f]{7,40}) score=([0-9.]+) grade=([A-F])"
                 r"(?: key=([0-9a-f]{16}))? -->")


@dataclass(frozen=True)
class Marker:
    repo: str
    sha: str
    score: float
    grade: str
    version: int = MARKER_VERSION
    key: str | None = None  # model-card mode: digest of what the sheet was computed from (bot/card.py)

    def render(self) -> str:
        key = f" key={self.key}" if self.key else ""
        return (f"<!-- deploysheet-bot v={self.version} repo={self.repo} sha={self.sha} "
                f"score={self.score:.1f} grade={self.grade}{key} -->")


def find_marker(text: str | None) -> Marker | None:
    """The last well-formed marker in ``text`` (None if absent)."""
    if not text:
        return None
    found = _RE.findall(text)
    if not found:
        return None
    v, repo, sha, score, grade, key = found[-1]
    return Marker(repo=repo, sha=sha, score=float(score), grade=grade, version=int(v), key=key or None)
