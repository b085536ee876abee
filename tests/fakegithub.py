"""A fake GitHub REST API on loopback for the Action (hub-and-github.md §4.6).

Serves ``GET /user``; ``GET|POST /repos/{o}/{r}/issues/{n}/comments`` (paged with ``Link: rel="next"``);
``PATCH|DELETE /repos/{o}/{r}/issues/comments/{id}``; ``GET|PATCH /repos/{o}/{r}/releases/{id}``;
``GET /repos/{o}/{r}/releases/tags/{tag}``; ``GET /repos/{o}/{r}/contents/{path}?ref=`` and
``GET /repos/{o}/{r}/commits/{sha}/pulls``. Requests without the GitHub headers are refused (400), so
the client's headers are checked on every call. Faults: ``forbid`` (methods answered 403 "Resource not
accessible by integration", as for a fork's read-only token), ``fail_next`` (statuses answered first).
"""

from __future__ import annotations

import base64
import json
import re
import threading

from werkzeug import Request, Response


class FakeGitHub:
    def __init__(self, httpserver, login: str | None = None, token: str = "ghs_fake"):
        self.server = httpserver
        self.token = token
        self.login = login  # None: GET /user is 403 (GITHUB_TOKEN installation tokens)
        self.bot_login = "github-actions[bot]"
        self.comments: dict[int, list[dict]] = {}
        self.releases: dict[int, dict] = {}
        self.files: dict[tuple[str, str], bytes] = {}  # (ref, path) -> bytes
        self.pulls_for: dict[str, list[dict]] = {}
        self.requests: list[tuple[str, str]] = []
        self.forbid: set[str] = set()
        self.fail_next: list[int] = []
        self.raw_next: list[tuple[str, str, int, bytes]] = []  # (method, path regex, status, body) served once
        self.page_size = 100
        self._id = 1000
        self.lock = threading.Lock()
        httpserver.expect_request(re.compile(".*")).respond_with_handler(self.handle)

    @property
    def url(self) -> str:
        return self.server.url_for("").rstrip("/")

    def add_comment(self, number: int, body: str, login: str) -> dict:
        self._id += 1
        c = {"id": self._id, "body": body, "user": {"login": login},
             "html_url": f"https://github.com/o/r/pull/{number}#issuecomment-{self._id}"}
        self.comments.setdefault(number, []).append(c)
        return c

    def writes(self) -> list[tuple[str, str]]:
        return [(m, p) for m, p in self.requests if m in ("POST", "PATCH", "DELETE")]

    @staticmethod
    def _j(obj, status: int = 200, headers: dict | None = None) -> Response:
        return Response(json.dumps(obj), status=status, content_type="application/json", headers=headers or {})

    def handle(self, req: Request) -> Response:
        with self.lock:
            return self._handle(req)

    def _handle(self, req: Request) -> Response:
        self.requests.append((req.method, req.path))
        if (req.headers.get("Authorization") != f"Bearer {self.token}"
                or req.headers.get("Accept") != "application/vnd.github+json"
                or req.headers.get("X-GitHub-Api-Version") != "2022-11-28"):
            return self._j({"message": "missing GitHub headers or token"}, 400)
        if self.fail_next:
            return self._j({"message": "server error"}, self.fail_next.pop(0), {"Retry-After": "0"})
        for k, (method, rx, status, body) in enumerate(self.raw_next):
            if req.method == method and re.fullmatch(rx, req.path):
                del self.raw_next[k]
                return Response(body, status=status, content_type="text/html")
        if req.method in self.forbid:
            return self._j({"message": "Resource not accessible by integration"}, 403)
        path = req.path
        if path == "/user":
            return self._j({"login": self.login}) if self.login else self._j(
                {"message": "Resource not accessible by integration"}, 403)
        m = re.fullmatch(r"/repos/[^/]+/[^/]+/issues/(\d+)/comments", path)
        if m:
            n = int(m.group(1))
            lst = self.comments.setdefault(n, [])
            if req.method == "POST":
                body = json.loads(req.get_data())["body"]
                if len(body) > 65536:
                    return self._j({"message": "Validation Failed: body is too long (maximum is 65536 characters)"},
                                   422)
                return self._j(self.add_comment(n, body, self.login or self.bot_login), 201)
            page = int(req.args.get("page", "1"))
            per = min(int(req.args.get("per_page", "30")), self.page_size)
            chunk = lst[(page - 1) * per: page * per]
            headers = {}
            if page * per < len(lst):
                headers["Link"] = f'<{self.url}{path}?per_page={per}&page={page + 1}>; rel="next"'
            return self._j(chunk, 200, headers)
        m = re.fullmatch(r"/repos/[^/]+/[^/]+/issues/comments/(\d+)", path)
        if m:
            cid = int(m.group(1))
            for lst in self.comments.values():
                for c in lst:
                    if c["id"] == cid:
                        if req.method == "DELETE":
                            lst.remove(c)
                            return Response(status=204)
                        if req.method == "PATCH":
                            c["body"] = json.loads(req.get_data())["body"]
                            return self._j(c)
                        return self._j(c)
            return self._j({"message": "Not Found"}, 404)
        m = re.fullmatch(r"/repos/[^/]+/[^/]+/releases/tags/(.+)", path)
        if m:
            rel = next((r for r in self.releases.values() if r["tag_name"] == m.group(1)), None)
            return self._j(rel) if rel else self._j({"message": "Not Found"}, 404)
        m = re.fullmatch(r"/repos/[^/]+/[^/]+/releases/(\d+)", path)
        if m:
            rel = self.releases.get(int(m.group(1)))
            if rel is None:
                return self._j({"message": "Not Found"}, 404)
            if req.method == "PATCH":
                rel["body"] = json.loads(req.get_data())["body"]
            return self._j(rel)
        if re.fullmatch(r"/repos/[^/]+/[^/]+/contents/?", path):  # the root listing at a ref
            ref = req.args.get("ref", "")
            return self._j([{"type": "file", "path": p, "name": p.rsplit("/", 1)[-1]}
                            for (r, p) in self.files if r == ref])
        m = re.fullmatch(r"/repos/[^/]+/[^/]+/contents/(.+)", path)
        if m:
            data = self.files.get((req.args.get("ref", ""), m.group(1)))
            if data is None:
                return self._j({"message": "Not Found"}, 404)
            return self._j({"type": "file", "encoding": "base64", "size": len(data), "path": m.group(1),
                            "content": base64.encodebytes(data).decode()})
        m = re.fullmatch(r"/repos/[^/]+/[^/]+/commits/([0-9a-f]+)/pulls", path)
        if m:
            return self._j(self.pulls_for.get(m.group(1), []))
        return self._j({"message": "Not Found"}, 404)
