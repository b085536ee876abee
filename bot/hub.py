"""Hub discussions for the bot, through huggingface_hub, with the retry rules Hub bots need.

* Reads (whoami, listing, details, main's head) retry 429, 5xx and dropped connections with backoff
  (most huggingface_hub calls make one attempt in 2.4.0, hub-and-github.md §1.6).
* Every write is adopt-before-retry (:meth:`HubClient._write`): a write whose answer is an error may
  still have landed (a 5xx after the Hub stored it, a connection reset before the answer), so after
  any failed attempt the bot reads back what is there, keyed by its marker and the commit sha, and
  adopts it; only when it is not there, and the failure is transient, is the write tried again, a
  bounded number of times with backoff. That holds for opening a discussion, adding a comment,
  editing a first message, closing a duplicate and opening a model-card pull request; a commit to an
  existing PR's ref (``refs/pr/N``) is content-addressed (huggingface_hub's preupload finds an
  identical README and makes no commit), so its retry adopts by itself.
* Across job attempts the same holds one level up: every job starts by listing the bot's own posts
  (:meth:`HubClient.own_discussions`), so what an earlier, interrupted attempt wrote is found and
  adopted before anything is written again (bot/post.py, bot/card.py).

Tokens come from ``HF_TOKEN`` or the huggingface_hub login and are never logged.
"""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass
from functools import cached_property

from scorer import __version__
from scorer.errors import BadInputError, HubError
from scorer.sources import hub_cache_dir, install_hub_timeouts, redact

from .marker import Marker, find_marker

log = logging.getLogger("deploysheet.bot")


def net_errors() -> tuple[type[BaseException], ...]:
    """What a Hub call raises when the Hub fails or cannot be reached: HTTP errors, OSError, and the HTTP
    library's transport errors (a reset or dropped connection is ``httpx.RemoteProtocolError``, no OSError)."""
    from huggingface_hub.errors import HfHubHTTPError

    extra: list[type[BaseException]] = []
    for mod in ("httpx2", "httpx"):
        try:
            extra.append(__import__(mod).TransportError)
        except (ImportError, AttributeError):
            pass
    return (HfHubHTTPError, OSError, *extra)


def transient(exc: BaseException) -> bool:
    """Worth another try: 408/429/5xx answers and transport failures; not 4xx verdicts (404, 403, 422...)."""
    from huggingface_hub.errors import HfHubHTTPError

    from scorer.sources import RETRY_STATUSES

    if isinstance(exc, HfHubHTTPError):
        return getattr(getattr(exc, "response", None), "status_code", None) in RETRY_STATUSES
    return True


def _describe(exc: BaseException) -> str:
    status = getattr(getattr(exc, "response", None), "status_code", None)
    return f"{type(exc).__name__}, HTTP {status}" if status else type(exc).__name__



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
    closed_by: str | None = None  # who made the last status change (the bot closing a duplicate is no opt-out)

    def opted_out(self, me: str) -> bool:
        """Closed by someone other than the bot: the owner said no."""
        return self.status == "closed" and (self.closed_by or "").lower() != me.lower()


class HubClient:
    def __init__(self, token: str | None = None, endpoint: str | None = None, sleep=None):
        from huggingface_hub import HfApi

        self.endpoint = (endpoint or os.environ.get("HF_ENDPOINT") or "https://huggingface.co").rstrip("/")
        self.api = HfApi(endpoint=self.endpoint, token=token or os.environ.get("HF_TOKEN") or None,
                         library_name="deploysheet-bot", library_version=__version__)
        self._sleep = sleep
        install_hub_timeouts()

    def _retry(self, call, attempts: int = 3):
        """Run an idempotent read, retrying transient failures (:func:`transient`) after :func:`retry_wait`."""
        errors = net_errors()
        for attempt in range(attempts):
            try:
                return call()
            except errors as exc:
                if not transient(exc) or attempt == attempts - 1:
                    raise
                self._wait(exc, attempt)
        raise AssertionError("unreachable")  # pragma: no cover

    def _wait(self, exc: BaseException, attempt: int) -> None:
        from scorer.sources import retry_wait

        (self._sleep or time.sleep)(retry_wait(exc, attempt))

    def _write(self, repo_id: str, what: str, write, landed, attempts: int = 3):
        """Run a Hub write adopt-before-retry: ``write()``'s value on success; after a failed attempt ``landed()``
        reads back what is there and, when it returns something other than None (the write landed although its
        answer was an error), that is adopted and returned; otherwise a transient failure is tried again, up to
        ``attempts`` times with backoff.

        Raises:
            the last failure (an HfHubHTTPError, OSError or transport error) when the write did not land.
        """
        errors = net_errors()
        for attempt in range(attempts):
            try:
                return write()
            except errors as exc:
                log.warning("%s on %s failed (%s); reading back before any retry", what, repo_id, _describe(exc))
                found = landed()
                if found is not None:
                    log.info("%s on %s had landed: adopted", what, repo_id)
                    return found
                if not transient(exc) or attempt == attempts - 1:
                    raise
                self._wait(exc, attempt)
        raise AssertionError("unreachable")  # pragma: no cover

    @cached_property
    def me(self) -> str:
        """The bot's own user name (whoami, called once).

        Raises:
            BadInputError: no token is configured. HubError: the Hub refuses the token or cannot answer.
        """
        from huggingface_hub.errors import HfHubHTTPError, LocalTokenNotFoundError

        try:
            return self._retry(lambda: self.api.whoami(cache=True))["name"]
        except LocalTokenNotFoundError:
            raise BadInputError("no Hugging Face token: set HF_TOKEN to a token of the bot account or run "
                                "'hf auth login' (the bot needs it even for --dry-run, to find its own posts)") \
                from None
        except HfHubHTTPError as exc:
            status = getattr(getattr(exc, "response", None), "status_code", "?")
            if status in (401, 403):
                raise HubError(f"the Hub at {redact(self.endpoint)} refused the bot's token (whoami: HTTP "
                               f"{status})") from None
            # a 429 or 5xx after the retries is the Hub failing, not a verdict on the token
            raise HubError(f"the Hub at {redact(self.endpoint)} could not answer whoami (HTTP {status} after "
                           "retries); the token was not checked", "rate_limited" if status == 429 else "network") \
                from None
        except net_errors() as exc:
            raise HubError(f"cannot reach the Hub at {redact(self.endpoint)} ({type(exc).__name__})",
                           "network") from None

    def head_sha(self, repo_id: str) -> str:
        """The commit ``main`` of a model repo points at now (retried on 429/5xx).

        Raises:
            HubError: reason ``network`` when the Hub cannot answer, ``not_found`` when the repo is gone.
        """
        from huggingface_hub.errors import RepositoryNotFoundError

        try:
            info = self._retry(lambda: self.api.model_info(repo_id, revision="main", expand=["sha"]))
        except RepositoryNotFoundError:
            raise HubError(f"{repo_id}: no such model repo (or not readable)", "not_found") from None
        except net_errors() as exc:
            status = getattr(getattr(exc, "response", None), "status_code", None)
            reason = "rate_limited" if status == 429 else "network"
            raise HubError(f"{repo_id}: could not read main's head ({_describe(exc)})", reason) from None
        if not isinstance(info.sha, str):
            raise HubError(f"{repo_id}: the Hub gave no commit sha for main", "network")
        return info.sha

    def own_discussions(self, repo_id: str, pull_requests: bool | None = False) -> list[BotDiscussion]:
        """The bot's discussions (``pull_requests=False``), pull requests (True) or both (None) on a repo
        that carry its marker, oldest first."""
        kind = {False: "discussion", True: "pull_request", None: "all"}[pull_requests]
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
            changes = [e for e in det.events if e.type == "status-change"]
            out.append(BotDiscussion(num=d.num, title=d.title, status=d.status, is_pull_request=d.is_pull_request,
                                     first_comment_id=first.id, body=first.content, marker=marker,
                                     comments=[c.content for c in comments[1:] if (c.author or "").lower() ==
                                               self.me.lower()],
                                     closed_by=changes[-1].author if changes else None))
        return out

    def _events(self, repo_id: str, num: int):
        return self._retry(lambda: self.api.get_discussion_details(repo_id, num))

    def create_discussion(self, repo_id: str, title: str, body: str) -> int:
        """Open the discussion; its number. Adopt-before-retry: after a failure the bot's open discussion carrying
        this commit's marker, if there is one, is the one the lost answer was about."""
        want = find_marker(body)
        return self._write(
            repo_id, "opening a discussion",
            lambda: self.api.create_discussion(repo_id, title=title, description=body).num,
            lambda: next((d.num for d in self.own_discussions(repo_id) if d.status != "closed"
                          and d.marker and want and d.marker.sha == want.sha), None))

    def edit_first_comment(self, repo_id: str, d: BotDiscussion, body: str) -> None:
        """Set the first message of ``d`` to ``body``; after a failure it is read back, and an edit that landed is
        not made again (one edit in the discussion's history, not two)."""
        def landed():
            det = self._events(repo_id, d.num)
            ev = next((e for e in det.events if e.id == d.first_comment_id), None)
            return True if ev is not None and ev.content == body else None

        self._write(repo_id, f"editing discussion #{d.num}",
                    lambda: self.api.edit_discussion_comment(repo_id, d.num, d.first_comment_id, body), landed)

    def add_comment(self, repo_id: str, d: BotDiscussion, text: str, attempts: int = 3) -> None:
        """Add ``text`` to discussion ``d`` exactly once: after any failed attempt the discussion is read again and the
        comment adopted if the bot's comment is there; only then is the write tried again, up to ``attempts`` times.

        Raises:
            huggingface_hub.errors.HfHubHTTPError / OSError: the last attempt failed and the comment is not there.
        """
        def landed():
            det = self._events(repo_id, d.num)
            mine = [e for e in det.events if e.type == "comment" and (e.author or "").lower() == self.me.lower()]
            return True if any(e.content == text for e in mine[1:]) else None

        self._write(repo_id, f"commenting on discussion #{d.num}",
                    lambda: self.api.comment_discussion(repo_id, d.num, text), landed, attempts=attempts)

    def close(self, repo_id: str, d: BotDiscussion, comment: str) -> None:
        """Close ``d`` (a duplicate) with a comment; a close that landed is not repeated."""
        self._write(repo_id, f"closing discussion #{d.num}",
                    lambda: self.api.change_discussion_status(repo_id, d.num, "closed", comment=comment),
                    lambda: True if self._events(repo_id, d.num).status == "closed" else None)

    # ------------------------------------------------------------------ model-card pull requests
    def read_file(self, repo_id: str, filename: str, revision: str, max_bytes: int) -> bytes | None:
        """A file of the repo at ``revision`` as bytes; None when the repo has no such file.

        Raises:
            BadInputError: the file is larger than ``max_bytes``.
        """
        from huggingface_hub import get_hf_file_metadata, hf_hub_download, hf_hub_url
        from huggingface_hub.errors import RemoteEntryNotFoundError

        url = hf_hub_url(repo_id, filename, revision=revision, endpoint=self.endpoint)
        try:
            meta = self._retry(lambda: get_hf_file_metadata(url, token=self.api.token, endpoint=self.endpoint))
        except RemoteEntryNotFoundError:
            return None
        if meta.size is not None and meta.size > max_bytes:
            raise BadInputError(f"{repo_id}: {filename} is {meta.size:,} bytes, over the {max_bytes:,}-byte cap")
        path = self._retry(lambda: hf_hub_download(repo_id, filename, revision=revision, token=self.api.token,
                                                   endpoint=self.endpoint, cache_dir=hub_cache_dir()))
        with open(path, "rb") as fh:
            data = fh.read(max_bytes + 1)
        if len(data) > max_bytes:
            raise BadInputError(f"{repo_id}: {filename} is over the {max_bytes:,}-byte cap")
        return data

    def _commit_readme(self, repo_id: str, readme: bytes, title: str, description: str, **kw):
        from huggingface_hub import CommitOperationAdd

        try:
            return self.api.create_commit(repo_id, operations=[CommitOperationAdd("README.md", readme)],
                                          commit_message=title, commit_description=description, **kw)
        except ValueError as exc:  # the Hub's YAML validation of the card's metadata block
            if "metadata" in str(exc).lower():
                raise HubError(f"{repo_id}: the Hub rejects the model card's YAML metadata; the card must be "
                               "fixed before a section can be added") from None
            raise

    def create_card_pr(self, repo_id: str, readme: bytes, title: str, description: str,
                       parent_commit: str) -> int:
        """Open one pull request changing README.md; its number. Adopt-before-retry: after a failure the bot's open
        pull request carrying this marker's key is the one the lost answer was about."""
        want = find_marker(description)

        def write():
            info = self._commit_readme(repo_id, readme, title, description, create_pr=True,
                                       parent_commit=parent_commit)
            num = getattr(info, "pr_num", None)
            return num if num is not None else landed()

        def landed():
            return next((d.num for d in self.own_discussions(repo_id, pull_requests=True)
                         if d.status in ("open", "draft") and d.marker and want and d.marker.key == want.key), None)

        return self._write(repo_id, "opening a pull request", write, landed)

    def update_card_pr(self, repo_id: str, d: BotDiscussion, readme: bytes, title: str, description: str) -> None:
        """Commit the new README.md to the PR's ref, then put the new description in its first comment."""
        # content-addressed: a retry after a commit that landed finds README.md unchanged and commits nothing
        self._retry(lambda: self._commit_readme(repo_id, readme, title, description, revision=f"refs/pr/{d.num}"))
        self.edit_first_comment(repo_id, d, description)
