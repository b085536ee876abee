"""A small GitHub REST client for the Action: issue comments, releases, file contents (requests).

Every request carries ``Authorization: Bearer``, ``Accept: application/vnd.github+json`` and
``X-GitHub-Api-Version: 2022-11-28`` and goes to ``GITHUB_API_URL`` (GitHub Enterprise Server has its
own; hub-and-github.md §4.3, §4.6). Idempotent requests (GET, PATCH, DELETE) are retried on 429 and
5xx with exponential backoff and full jitter, honouring ``Retry-After``; a POST that creates a comment
is never retried (a lost response would post twice — the caller re-lists instead). Lists follow the
``Link: rel="next"`` header. The token is never logged or put in an error message.
"""

from __future__ import annotations

import base64
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import requests

from scorer import __version__

#: retried statuses of idempotent requests: rate limited and server-side errors (GitHub REST docs,
#: "Rate limits for the REST API": wait for ``retry-after`` when given, else back off exponentially)
RETRY_STATUS = (429, 500, 502, 503, 504)
#: seconds per request; an assumption, well above GitHub's own 10 s server-side request timeout
#: (GitHub REST docs, "Troubleshooting the REST API": timeouts)
TIMEOUT_S = 20
#: tries per idempotent request, and the backoff: 0.5 s doubling, capped at 8 s, full jitter — the
#: schedule of scorer.sources.with_backoff with huggingface_hub's 8 s cap (hub-and-github.md 1.6);
#: an assumption that three tries (two waits) ride out a transient error without stalling the job
ATTEMPTS = 3
BACKOFF_BASE_S, BACKOFF_MAX_S = 0.5, 8.0


class GitHubError(Exception):
    """A GitHub API answer that is not a success. ``status`` is the HTTP status (0: no answer)."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


@dataclass
class Comment:
    id: int
    body: str
    login: str
    url: str


class GitHub:
    def __init__(self, api_url: str, token: str | None, repository: str,
                 sleep: Callable[[float], None] = time.sleep):
        self.api = api_url.rstrip("/")
        self.repo = repository
        self.sleep = sleep
        self.session = requests.Session()
        self.session.headers.update({
            "Accept": "application/vnd.github+json", "X-GitHub-Api-Version": "2022-11-28",
            "User-Agent": f"deploysheet-action/{__version__}"})
        if token:
            self.session.headers["Authorization"] = f"Bearer {token}"

    # ------------------------------------------------------------------ transport
    def _request(self, method: str, url: str, **kw) -> requests.Response:
        if not url.startswith("http"):
            url = self.api + url
        idempotent = method in ("GET", "PATCH", "DELETE", "PUT")
        for attempt in range(ATTEMPTS):
            last = attempt == ATTEMPTS - 1
            try:
                r = self.session.request(method, url, timeout=TIMEOUT_S, **kw)
            except requests.RequestException as exc:
                if idempotent and not last:
                    self.sleep(self._backoff(attempt))
                    continue
                raise GitHubError(0, f"cannot reach the GitHub API at {self.api} ({type(exc).__name__})") from None
            if r.status_code in RETRY_STATUS and idempotent and not last:
                ra = r.headers.get("Retry-After", "")
                self.sleep(min(BACKOFF_MAX_S, float(ra)) if ra.isdigit() else self._backoff(attempt))
                continue
            if r.status_code >= 400:
                try:
                    body = r.json()
                    msg = str(body.get("message", ""))[:200] if isinstance(body, dict) else ""
                except ValueError:
                    msg = ""
                raise GitHubError(r.status_code, f"GitHub API {method} {url.split('?')[0][len(self.api):]} "
                                                 f"answered {r.status_code}{': ' + msg if msg else ''}")
            return r
        raise AssertionError("unreachable")  # pragma: no cover

    @staticmethod
    def _backoff(attempt: int) -> float:
        return min(BACKOFF_MAX_S, BACKOFF_BASE_S * 2 ** attempt) * random.random()

    def _json(self, method: str, path: str, **kw) -> Any:
        r = self._request(method, path, **kw)
        if r.status_code == 204 or not r.content:
            return None
        try:
            return r.json()
        except ValueError:
            raise GitHubError(r.status_code, f"GitHub API {method} {path} answered with non-JSON data") from None

    def _pages(self, path: str) -> list[Any]:
        out: list[Any] = []
        url: str | None = self.api + path
        params: dict[str, Any] | None = {"per_page": 100}
        for _ in range(100):  # at most 10,000 items
            r = self._request("GET", url, params=params)
            try:
                page = r.json()
            except ValueError:
                page = None
            if not isinstance(page, list):
                raise GitHubError(r.status_code, f"GitHub API GET {path} answered with a non-list")
            out.extend(page)
            url, params = (r.links.get("next") or {}).get("url"), None
            if not url:
                break
        return out

    # ------------------------------------------------------------------ endpoints
    def login(self) -> str | None:
        """The token's user login; None when the token cannot say (GITHUB_TOKEN: GET /user is 403)."""
        try:
            data = self._json("GET", "/user")
        except GitHubError:
            return None
        return data.get("login") if isinstance(data, dict) else None

    @staticmethod
    def _comment(c: Any) -> Comment | None:
        """A comment from the API's JSON; None when it lacks what the Action relies on."""
        if not isinstance(c, dict) or type(c.get("id")) is not int:
            return None
        user = c.get("user") if isinstance(c.get("user"), dict) else {}
        body, url = c.get("body"), c.get("html_url")
        return Comment(id=c["id"], body=body if isinstance(body, str) else "",
                       login=user.get("login") if isinstance(user.get("login"), str) else "",
                       url=url if isinstance(url, str) else "")

    def comments(self, number: int) -> list[Comment]:
        found = (self._comment(c) for c in self._pages(f"/repos/{self.repo}/issues/{number}/comments"))
        return sorted((c for c in found if c is not None), key=lambda c: c.id)

    def create_comment(self, number: int, body: str) -> Comment | None:
        """POST the comment once (never retried). None when the answer does not describe it."""
        try:
            data = self._json("POST", f"/repos/{self.repo}/issues/{number}/comments", json={"body": body})
        except GitHubError as exc:
            if exc.status != 201:
                raise
            data = None
        return self._comment(data)

    def update_comment(self, comment_id: int, body: str) -> str:
        c = self._comment(self._json("PATCH", f"/repos/{self.repo}/issues/comments/{comment_id}", json={"body": body}))
        return c.url if c else ""

    def delete_comment(self, comment_id: int) -> None:
        """Delete; a comment already gone (404: another run deleted it) counts as deleted."""
        try:
            self._request("DELETE", f"/repos/{self.repo}/issues/comments/{comment_id}")
        except GitHubError as exc:
            if exc.status != 404:
                raise

    def release(self, release_id: int) -> dict:
        data = self._json("GET", f"/repos/{self.repo}/releases/{release_id}")
        if not isinstance(data, dict):
            raise GitHubError(200, f"GitHub API GET releases/{release_id} answered with an unexpected shape")
        return data

    def release_by_tag(self, tag: str) -> dict | None:
        try:
            data = self._json("GET", f"/repos/{self.repo}/releases/tags/{requests.utils.quote(tag, safe='')}")
        except GitHubError as exc:
            if exc.status == 404:
                return None
            raise
        return data if isinstance(data, dict) else None

    def update_release(self, release_id: int, body: str) -> dict:
        data = self._json("PATCH", f"/repos/{self.repo}/releases/{release_id}", json={"body": body})
        return data if isinstance(data, dict) else {}

    def readable(self, ref: str) -> bool:
        """The token can read the repository's files at ``ref`` (the root listing answers)."""
        try:
            self._json("GET", f"/repos/{self.repo}/contents", params={"ref": ref})
            return True
        except GitHubError:
            return False

    def pulls_for_commit(self, sha: str) -> list[int]:
        return [p["number"] for p in self._pages(f"/repos/{self.repo}/commits/{sha}/pulls")
                if isinstance(p, dict) and p.get("state") == "open" and type(p.get("number")) is int]

    def file(self, path: str, ref: str, max_bytes: int) -> bytes | None:
        """A file at ``ref`` through the contents API; None when it does not exist there."""
        try:
            data = self._json("GET", f"/repos/{self.repo}/contents/{requests.utils.quote(path)}",
                              params={"ref": ref})
        except GitHubError as exc:
            if exc.status == 404:
                return None
            raise
        if not isinstance(data, dict) or data.get("type") != "file":
            return None
        size = data.get("size")
        if type(size) is int and size > max_bytes:
            raise GitHubError(413, f"{path} at {ref[:7]} is over the {max_bytes:,}-byte cap")
        if data.get("encoding") != "base64" or not isinstance(data.get("content"), str):
            raise GitHubError(200, f"GitHub API gave {path} without base64 content")
        try:
            content = base64.b64decode(data["content"])
        except ValueError:
            raise GitHubError(200, f"GitHub API gave {path} with invalid base64 content") from None
        if len(content) > max_bytes:
            raise GitHubError(413, f"{path} at {ref[:7]} is over the {max_bytes:,}-byte cap")
        return content
