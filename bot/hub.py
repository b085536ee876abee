"""Hub discussions for the bot, through huggingface_hub, with the retry rules Hub bots need.

* Reads (whoami, listing, details) retry 429 and 5xx with backoff (most huggingface_hub calls make
  one attempt in 2.4.0, hub-and-github.md §1.6).
* ``create_discussion`` is never retried blindly: it is two requests, and a POST that succeeded
  before an error would be posted twice. After a failure the bot re-lists the repo's discussions
  and adopts its own post if it exists (§1.3).
* Editing a comment is idempotent (it sets the content) and is retried; adding a comment is not, so
  a failed one is checked against the discussion before one more attempt.

Tokens come from ``HF_TOKEN`` or the huggingface_hub login and are never logged.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from functools import cached_property

from scorer import __version__
from scorer.sources import with_backoff

from .marker import Marker, find_marker

log = logging.getLogger("deploysheet.bot")


@dataclass
class BotDiscussion:
    num: int
    title: str
    status: str
    is_pull_request: bool
    first_comment_id: str
    body: str
    marker: Marker | None
    comments: list[str]


class HubClient:
    def __init__(self, token: str | None = None, endpoint: str | None = None, sleep=None):
        from huggingface_hub import HfApi

        self.endpoint = (endpoint or os.environ.get("HF_ENDPOINT") or "https://huggingface.co").rstrip("/")
        self.api = HfApi(endpoint=self.endpoint, token=token or os.environ.get("HF_TOKEN") or None,
                         library_name="deploysheet-bot", library_version=__version__)
        self._sleep = sleep

    def _retry(self, call):
        kw = {"sleep": self._sleep} if self._sleep else {}
        return with_backoff(call, **kw)

    @cached_property
    def me(self) -> str:
        """The bot's own user name (whoami, called once)."""
        return self._retry(lambda: self.api.whoami(cache=True))["name"]

    def own_discussions(self, repo_id: str, pull_requests: bool = False) -> list[BotDiscussion]:
        """The bot's discussions (or pull requests) on a repo that carry its marker, oldest first."""
        kind = "pull_request" if pull_requests else "discussion"
        listed = self._retry(lambda: list(self.api.get_repo_discussions(
            repo_id, author=self.me, discussion_type=kind, discussion_status="all")))
        out = []
        for d in sorted(listed, key=lambda d: d.num):
            if (d.author or "").lower() != self.me.lower():  # compare user names case-insensitively
                continue
            det = self._retry(lambda d=d: self.api.get_discussion_details(repo_id, d.num))
            comments = [e for e in det.events if e.type == "comment"]
            if not comments:
                continue
            first = comments[0]
            marker = find_marker(first.content)
            if marker is None or marker.repo.lower() != repo_id.lower():
                continue
            out.append(BotDiscussion(num=d.num, title=d.title, status=d.status, is_pull_request=d.is_pull_request,
                                     first_comment_id=first.id, body=first.content, marker=marker,
                                     comments=[c.content for c in comments[1:] if (c.author or "").lower() ==
                                               self.me.lower()]))
        return out

    def create_discussion(self, repo_id: str, title: str, body: str) -> BotDiscussion:
        """Open the discussion once; on any failure re-list and adopt the bot's post if the POST landed."""
        import time

        from huggingface_hub.errors import HfHubHTTPError

        want = find_marker(body)
        for attempt in range(2):
            try:
                self.api.create_discussion(repo_id, title=title, description=body)
            except (HfHubHTTPError, OSError) as exc:
                log.warning("create_discussion on %s failed (%s); re-listing before any retry", repo_id,
                            type(exc).__name__)
            for d in self.own_discussions(repo_id):
                if d.marker and want and d.marker.sha == want.sha:
                    return d
            if attempt == 0:  # the POST did not land: one more try is safe now
                (self._sleep or time.sleep)(1.0)
        raise RuntimeError(f"discussion on {repo_id} was not created")

    def edit_first_comment(self, repo_id: str, d: BotDiscussion, body: str) -> None:
        self._retry(lambda: self.api.edit_discussion_comment(repo_id, d.num, d.first_comment_id, body))

    def add_comment(self, repo_id: str, d: BotDiscussion, text: str) -> None:
        from huggingface_hub.errors import HfHubHTTPError

        try:
            self.api.comment_discussion(repo_id, d.num, text)
        except (HfHubHTTPError, OSError):
            again = next((x for x in self.own_discussions(repo_id) if x.num == d.num), None)
            if again is None or text not in again.comments:
                self._retry(lambda: self.api.comment_discussion(repo_id, d.num, text))

    def close(self, repo_id: str, d: BotDiscussion, comment: str) -> None:
        self._retry(lambda: self.api.change_discussion_status(repo_id, d.num, "closed", comment=comment))
