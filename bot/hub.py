"""Hub discussions for the bot, through huggingface_hub, with the retry rules Hub bots need.

* Reads (whoami, listing, details) retry 429 and 5xx with backoff (most huggingface_hub calls make
  one attempt in 2.4.0, hub-and-github.md §1.6).
* ``create_discussion`` is never retried blindly: it is two requests, and a POST that succeeded
  before an error would be posted twice. After a failure the bot re-lists the repo's discussions
  and adopts its own post if it exists (§1.3).
* Editing a comment is idempotent (it sets the content) and is retried; adding a comment is not, so
  a failed one is checked against the discussion before one more attempt.
* Model-card pull requests: ``create_commit(create_pr=True)`` is treated like ``create_discussion``
  (re-list before one more try); a commit to an existing PR's ref (``refs/pr/N``) is content-addressed
  (an identical README is a no-op), so it is retried.

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
from scorer.sources import hub_cache_dir, install_hub_timeouts, redact, with_backoff

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

    def _retry(self, call):
        kw = {"sleep": self._sleep} if self._sleep else {}
        return with_backoff(call, **kw)

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
                           "retries); the token was not checked") from None
        except OSError as exc:
            raise HubError(f"cannot reach the Hub at {redact(self.endpoint)} ({type(exc).__name__})") from None

    def head_sha(self, repo_id: str) -> str:
        """The commit ``main`` of a model repo points at now (retried on 429/5xx).

        Raises:
            HubError: reason ``network`` when the Hub cannot answer, ``not_found`` when the repo is gone.
        """
        from huggingface_hub.errors import HfHubHTTPError, RepositoryNotFoundError

        try:
            info = self._retry(lambda: self.api.model_info(repo_id, revision="main", expand=["sha"]))
        except RepositoryNotFoundError:
            raise HubError(f"{repo_id}: no such model repo (or not readable)", "not_found") from None
        except (HfHubHTTPError, OSError) as exc:
            raise HubError(f"{repo_id}: could not read main's head ({type(exc).__name__})", "network") from None
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

    def _post_once(self, repo_id: str, what: str, post, adopt) -> BotDiscussion:
        """Run a POST that creates something (not idempotent) at most twice. After each try re-list and
        adopt the bot's post if it landed, so a lost response never posts twice; try again only when
        the listing shows it did not land.

        Raises:
            RuntimeError: neither try left a post to adopt.
        """
        from huggingface_hub.errors import HfHubHTTPError

        for attempt in range(2):
            try:
                post()
            except (HfHubHTTPError, OSError) as exc:
                log.warning("%s on %s failed (%s); re-listing before any retry", what, repo_id, type(exc).__name__)
            found = adopt()
            if found is not None:
                return found
            if attempt == 0:
                (self._sleep or time.sleep)(1.0)
        raise RuntimeError(f"{what} on {repo_id} was not created")

    def create_discussion(self, repo_id: str, title: str, body: str) -> BotDiscussion:
        """Open the discussion once; on any failure re-list and adopt the bot's post if the POST landed."""
        want = find_marker(body)
        return self._post_once(
            repo_id, "discussion", lambda: self.api.create_discussion(repo_id, title=title, description=body),
            lambda: next((d for d in self.own_discussions(repo_id)
                          if d.marker and want and d.marker.sha == want.sha), None))

    def edit_first_comment(self, repo_id: str, d: BotDiscussion, body: str) -> None:
        self._retry(lambda: self.api.edit_discussion_comment(repo_id, d.num, d.first_comment_id, body))

    def add_comment(self, repo_id: str, d: BotDiscussion, text: str, attempts: int = 3) -> None:
        """Add ``text`` to discussion ``d`` exactly once: after any failed attempt (the answer may be lost after the
        comment landed) the discussion is read again and the comment adopted if it is there; only then is the
        write tried again, up to ``attempts`` times.

        Raises:
            huggingface_hub.errors.HfHubHTTPError / OSError: the last attempt failed and the comment is not there.
        """
        from huggingface_hub.errors import HfHubHTTPError

        from scorer.sources import retry_wait

        for attempt in range(attempts):
            try:
                self.api.comment_discussion(repo_id, d.num, text)
                return
            except (HfHubHTTPError, OSError) as exc:
                again = next((x for x in self.own_discussions(repo_id) if x.num == d.num), None)
                if again is not None and text in again.comments:
                    return  # it landed: adopt it
                if attempt == attempts - 1:
                    raise
                wait = retry_wait(exc, attempt) if isinstance(exc, HfHubHTTPError) else 1.0 * (attempt + 1)
                (self._sleep or time.sleep)(wait)

    def close(self, repo_id: str, d: BotDiscussion, comment: str) -> None:
        self._retry(lambda: self.api.change_discussion_status(repo_id, d.num, "closed", comment=comment))

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
                       parent_commit: str) -> BotDiscussion:
        """Open one pull request changing README.md; on failure re-list and adopt it if it landed."""
        want = find_marker(description)
        return self._post_once(
            repo_id, "pull request",
            lambda: self._commit_readme(repo_id, readme, title, description, create_pr=True,
                                        parent_commit=parent_commit),
            lambda: next((d for d in self.own_discussions(repo_id, pull_requests=True)
                          if d.status in ("open", "draft") and d.marker and want and d.marker.key == want.key), None))

    def update_card_pr(self, repo_id: str, d: BotDiscussion, readme: bytes, title: str, description: str) -> None:
        """Commit the new README.md to the PR's ref, then put the new description in its first comment."""
        self._retry(lambda: self._commit_readme(repo_id, readme, title, description, revision=f"refs/pr/{d.num}"))
        self.edit_first_comment(repo_id, d, description)
