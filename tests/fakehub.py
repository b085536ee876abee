"""A fake Hugging Face Hub on loopback that the real ``huggingface_hub`` client talks to.

Serves the endpoints huggingface_hub 2.4 calls to read a model (hub-and-github.md §1.7):
``GET /api/models/{repo}[/revision/{rev}]``, ``HEAD``/``GET /{repo}/resolve/{rev}/{file}`` (with
``X-Repo-Commit`` and ``ETag``), and answers the side call ``/api/agent-harnesses`` with 404.
A ``GET`` with ``Range: bytes=a-b`` (how ``get_safetensors_metadata`` / ``parse_safetensors_file_metadata`` read
safetensors headers) is answered ``206 Partial Content`` with those bytes and ``Content-Range``, and logged in
``ranges`` as (path, Range header); ``ignore_ranges = True`` answers the whole file instead, as a server without
range support would.
Errors carry ``X-Error-Code`` as the real Hub does (RepoNotFound, GatedRepo, EntryNotFound,
RevisionNotFound). Every request is logged in ``requests`` for assertions.

Model-card pull requests (hub-and-github.md §1.3, huggingface_hub ``create_commit``):
``POST /api/validate-yaml``, ``POST /api/models/{repo}/preupload/{rev}`` (regular upload mode, with the
git-blob oid of the file already there so an unchanged file is a no-op) and
``POST /api/models/{repo}/commit/{rev}[?create_pr=1]`` with the ndjson body; ``create_pr`` opens a
draft pull request whose branch is ``refs/pr/N``, and a commit to ``refs/pr/N`` updates that branch.

Fault injection (issue 15): ``fail_next`` (answer these statuses first), ``fail_paths`` (a prefix always fails),
``throttle_every`` (every n-th request a 429), and for every write a "5xx after the write landed" list:
``fail_after_create`` (a discussion or a pull request is stored, then the answer is an error), ``fail_after_comment``,
``fail_after_edit``, ``fail_after_status`` and ``fail_after_commit`` (a commit to ``refs/pr/N`` or ``main``);
``fail_comment`` fails a comment before it is stored. An entry ``"reset"`` in a ``fail_after_*`` list drops the
connection (TCP RST) instead of answering. ``chaos`` (a :class:`Chaos`) injects all of these at random,
seeded: 429s, 5xx, connection resets (the socket is closed with RST before any answer), short stalls and
5xx-after-the-write-landed; what it injected is counted in ``injected``. Every state the first message of a
discussion or pull request takes (created, then each edit) is appended to ``history``, for assertions on the order
of edits.

Dataset repos (``HfApi.create_repo(repo_type="dataset")`` then ``upload_folder``): ``POST /api/repos/create``
(409 when the repo exists, as the Hub answers), ``GET /api/datasets/{repo}``, and the same preupload/commit
routes under ``/api/datasets/``. Dataset repos live in ``datasets``, apart from the model repos; the
Authorization header of every write is logged in ``write_auth``.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from dataclasses import dataclass, field
from typing import Any

from werkzeug import Request, Response


@dataclass
class FakeRepo:
    repo_id: str
    files: dict[str, bytes]
    sha: str = ""
    gated: bool = False
    safetensors: dict[str, int] | None = None
    extra_files: list[str] = field(default_factory=list)
    card_data: dict[str, Any] | None = None
    branches: dict[str, str] = field(default_factory=dict)
    info_override: dict[str, Any] | bytes | None = None  # malformed answers for robustness tests
    tags: list[str] = field(default_factory=lambda: ["transformers"])
    downloads: int = 0
    likes: int = 0
    pipeline_tag: str | None = "text-generation"
    history: dict[str, dict[str, bytes]] = field(default_factory=dict)  # every commit pushed: sha -> files

    def __post_init__(self):
        if not self.sha:
            self.sha = hashlib.sha1(self.repo_id.encode() + b"".join(self.files.values())).hexdigest()
        self.branches.setdefault("main", self.sha)
        self.history.setdefault(self.sha, self.files)


@dataclass
class Chaos:
    """Random faults, seeded. Probabilities are per request (``after_write``: per write that lands)."""
    seed: int = 0
    p429: float = 0.0
    p5xx: float = 0.0
    reset: float = 0.0
    stall: float = 0.0
    stall_s: float = 0.2
    after_write: float = 0.0

    def __post_init__(self):
        import random
        self.rng = random.Random(self.seed)


class FakeHub:
    def __init__(self, httpserver, bot_name: str = "deploysheet-bot"):
        self.server = httpserver
        self.repos: dict[str, FakeRepo] = {}
        self.requests: list[tuple[str, str]] = []
        self.ranges: list[tuple[str, str]] = []  # (path, Range header) of every ranged GET
        self.ignore_ranges = False
        self.fail_next: list[int] = []  # status codes to answer before serving normally
        self.fail_after_create: list[int] = []  # store the discussion, then answer with this status
        self.fail_comment: list[int] = []  # answer a comment with this status without storing it
        self.fail_after_comment: list[int] = []  # store a comment, then answer with this status
        self.fail_after_edit: list[int] = []  # apply an edit, then answer with this status
        self.fail_after_status: list[int] = []  # change a discussion's status, then answer with this status
        self.fail_after_commit: list[int] = []  # store a commit (to refs/pr/N or main), then answer with this status
        self.chaos: Chaos | None = None
        self.injected: dict[str, int] = {}  # what chaos injected: 429, 5xx, reset, stall, after-write
        self.history: list[dict] = []  # repo, num, comment id, kind (create/edit), content: every first-message state
        self.bot_name = bot_name
        self.discussions: dict[str, list[dict]] = {}
        self.pr_files: dict[tuple[str, int], dict[str, bytes]] = {}
        self.commits: list[dict] = []  # every commit received: repo, revision, create_pr, summary, files
        self.datasets: dict[str, FakeRepo] = {}  # dataset repos (created by POST /api/repos/create)
        self.write_auth: list[str | None] = []  # the Authorization header of every POST
        self._ids = 0
        self.page_size = 100  # the listing pages with a Link: rel="next" header, as the Hub does
        self.throttle_every = 0  # > 0: every n-th request is answered 429 (Retry-After: 0), a rate limiter
        self.throttled = 0
        self.busy_headers: dict[str, str] = {"Retry-After": "0"}  # headers of every 429/5xx answered
        self.latency_s = 0.0  # > 0: sleep this long before answering (a WAN round trip, for benchmarks)
        self.fail_paths: dict[str, int] = {}
        self.list_override: bytes | None = None  # the listing answers these bytes (malformed-answer tests)
        self.list_loop = False  # every listing page links back to the first one (a pagination loop)  # path prefix -> status answered to every request under it
        import threading
        self.lock = threading.RLock()  # push() takes it too, also from _commit, which holds it
        httpserver.expect_request(re.compile(".*")).respond_with_handler(self.handle)

    # ------------------------------------------------------------------ discussions
    def _event(self, author: str, content: str) -> dict:
        self._ids += 1
        return {"id": f"{self._ids:024x}", "type": "comment", "createdAt": "2026-01-01T00:00:00.000Z",
                "author": {"name": author}, "data": {"edited": False, "hidden": False, "latest": {"raw": content}}}

    def add_discussion(self, repo_id: str, title: str, body: str, author: str, status: str = "open",
                       pull_request: bool = False) -> dict:
        lst = self.discussions.setdefault(repo_id, [])
        d = {"num": len(lst) + 1, "title": title, "status": status, "isPullRequest": pull_request,
             "createdAt": "2026-01-01T00:00:00.000Z", "author": {"name": author},
             "repo": {"name": repo_id, "type": "model"}, "events": [self._event(author, body)]}
        lst.append(d)
        return d

    def _after_write(self, queued: list, req: Request | None = None) -> Response | None:
        """The error to answer once a write has landed: the next queued status (``"reset"``: drop the connection
        instead of answering), else a chaos roll."""
        code = queued.pop(0) if queued else None
        if code == "reset":
            return self._reset(req)
        if code is None and self.chaos and self.chaos.after_write and self.chaos.rng.random() < self.chaos.after_write:
            code = self.chaos.rng.choice([500, 502, 503])
            self._count("after-write")
        return None if code is None else Response("upstream error", status=code)

    def _count(self, what: str) -> None:
        self.injected[what] = self.injected.get(what, 0) + 1

    def _record(self, repo_id: str, d: dict, kind: str) -> None:
        ev = d["events"][0]
        self.history.append({"repo": repo_id, "num": d["num"], "comment": ev["id"], "kind": kind,
                             "content": ev["data"]["latest"]["raw"]})

    def _summary(self, d: dict) -> dict:
        return {k: d[k] for k in ("num", "title", "status", "isPullRequest", "createdAt", "author", "repo")}

    def _discussions(self, req: Request, repo_id: str, rest: str) -> Response:
        lst = self.discussions.setdefault(repo_id, [])
        j = lambda obj, status=200: Response(json.dumps(obj), status=status, content_type="application/json")
        if rest == "" and req.method == "GET":
            sel = [d for d in lst
                   if (req.args.get("author") is None or d["author"]["name"].lower() == req.args["author"].lower())
                   and (req.args.get("type") in (None, "all") or d["isPullRequest"] == (req.args["type"] ==
                                                                                       "pull_request"))
                   and (req.args.get("status") in (None, "all") or d["status"] == req.args["status"])]
            page = int(req.args.get("p", "0"))
            chunk = sel[page * 50:(page + 1) * 50]
            return j({"discussions": [self._summary(d) for d in chunk], "count": len(sel), "start": page * 50})
        if rest == "" and req.method == "POST":
            body = json.loads(req.get_data() or b"{}")
            d = self.add_discussion(repo_id, body["title"], body.get("description", ""), self.bot_name,
                                    pull_request=bool(body.get("pullRequest")))
            self._record(repo_id, d, "create")
            failed = self._after_write(self.fail_after_create, req)
            return failed if failed is not None else j({"num": d["num"]})
        m = re.match(r"^/(\d+)(/.*)?$", rest)
        if not m:
            return Response("not found", status=404)
        num = int(m.group(1))
        d = next((x for x in lst if x["num"] == num), None)
        if d is None:
            return Response("not found", status=404)
        sub = m.group(2) or ""
        if sub == "" and req.method == "GET":
            out = dict(d)
            if d["isPullRequest"]:
                out["changes"] = {"base": "refs/heads/main"}
                out["filesWithConflicts"] = []
            return j(out)
        body = json.loads(req.get_data() or b"{}")
        if sub == "/comment":
            if self.fail_comment:
                return Response("upstream error", status=self.fail_comment.pop(0))
            ev = self._event(self.bot_name, body["comment"])
            d["events"].append(ev)
            failed = self._after_write(self.fail_after_comment, req)
            return failed if failed is not None else j({"newMessage": ev})
        m2 = re.match(r"^/comment/([0-9a-f]+)/edit$", sub)
        if m2:
            ev = next((e for e in d["events"] if e["id"] == m2.group(1)), None)
            if ev is None:
                return Response("not found", status=404)
            ev["data"]["latest"]["raw"] = body["content"]
            ev["data"]["edited"] = True
            if ev is d["events"][0]:
                self._record(repo_id, d, "edit")
            failed = self._after_write(self.fail_after_edit, req)
            return failed if failed is not None else j({"updatedComment": ev})
        if sub == "/status":
            d["status"] = body["status"]
            ev = {"id": "s" * 24, "type": "status-change", "createdAt": "2026-01-01T00:00:00.000Z",
                  "author": {"name": self.bot_name}, "data": {"status": body["status"]}}
            d["events"].append(ev)
            failed = self._after_write(self.fail_after_status, req)
            return failed if failed is not None else j({"newStatus": ev})
        return Response("not found", status=404)

    def writes(self) -> list[tuple[str, str]]:
        return [(m, p) for m, p in self.requests if m == "POST"]

    @property
    def endpoint(self) -> str:
        return self.server.url_for("").rstrip("/")

    def add(self, repo_id: str, config: dict | bytes, **kw) -> FakeRepo:
        body = config if isinstance(config, bytes) else json.dumps(config).encode()
        files = {"config.json": body}
        files.update(kw.pop("more_files", {}))
        repo = FakeRepo(repo_id=repo_id, files=files, **kw)
        self.repos[repo_id] = repo
        return repo

    # ------------------------------------------------------------------ handler
    def handle(self, req: Request) -> Response:
        path = req.path
        self.requests.append((req.method, path))
        if self.latency_s:
            import time
            time.sleep(self.latency_s)
        if req.method == "POST":
            self.write_auth.append(req.headers.get("Authorization"))
        if path.startswith("/api/agent-harnesses"):
            return Response("{}", status=404)
        with self.lock:
            code = self.fail_next.pop(0) if self.fail_next else None
            if code is None and self.throttle_every and len(self.requests) % self.throttle_every == 0:
                code = 429
                self.throttled += 1
        code = code or next((c for prefix, c in self.fail_paths.items() if path.startswith(prefix)), None)
        if code is None and self.chaos is not None:
            fault = self._chaos_roll()
            if fault == "reset":
                return self._reset(req)
            code = fault
        if code is not None:
            return Response("busy", status=code, headers=dict(self.busy_headers))
        if path == "/api/whoami-v2":
            return Response(json.dumps({"name": self.bot_name, "id": "b" * 24, "type": "user"}), status=200,
                            content_type="application/json")
        m = re.match(r"^/api/models/([^/]+/[^/]+)/discussions(.*)$", path)
        if m:
            with self.lock:
                return self._discussions(req, m.group(1), m.group(2))
        if path == "/api/models":
            return self._list(req)
        if path == "/api/validate-yaml":
            return Response(json.dumps({"errors": [], "warnings": []}), status=200, content_type="application/json")
        if path == "/api/repos/create" and req.method == "POST":
            with self.lock:
                return self._create(req)
        m = re.match(r"^/api/(models|datasets)/([^/]+/[^/]+)/(preupload|commit)/(.+)$", path)
        if m:
            kind = m.group(1)[:-1]
            with self.lock:
                return (self._preupload if m.group(3) == "preupload" else self._commit)(req, m.group(2), m.group(4),
                                                                                         kind)
        m = re.match(r"^/api/datasets/([^/]+/[^/]+)(?:/revision/([^/]+))?$", path)
        if m:
            return self._info(m.group(1), m.group(2), "dataset")
        m = re.match(r"^/api/models/([^/]+/[^/]+)(?:/revision/([^/]+|refs/pr/\d+))?$", path)
        if m:
            return self._info(m.group(1), m.group(2))
        m = re.match(r"^/([^/]+/[^/]+)/resolve/(refs/pr/\d+|[^/]+)/(.+)$", path)
        if m:
            return self._file(req, m.group(1), m.group(2), m.group(3))
        return Response("not found", status=404)

    def _chaos_roll(self) -> int | str | None:
        """A 429, a 5xx, ``"reset"`` or None (after a possible short stall), drawn from ``chaos``."""
        import time
        c = self.chaos
        with self.lock:
            r, stall = c.rng.random(), c.rng.random() < c.stall
            code = c.rng.choice([500, 502, 503, 504])
        if stall:
            self._count("stall")
            time.sleep(c.stall_s)
        if r < c.p429:
            self._count("429")
            return 429
        if r < c.p429 + c.p5xx:
            self._count("5xx")
            return code
        if r < c.p429 + c.p5xx + c.reset:
            self._count("reset")
            return "reset"
        return None

    def _reset(self, req: Request) -> Response:
        """Drop the connection with a TCP RST before any answer (the client sees a reset / disconnect)."""
        import socket
        import struct
        sock = req.environ.get("werkzeug.socket")
        if sock is not None:
            try:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        return Response("", status=500)

    # ------------------------------------------------------------------ commits and pull requests
    def files_at(self, repo: FakeRepo, rev: str) -> dict[str, bytes] | None:
        m = re.fullmatch(r"refs/pr/(\d+)", rev)
        if m:
            return self.pr_files.get((repo.repo_id, int(m.group(1))))
        return repo.files if self._resolve(repo, rev) == repo.sha else None

    def _create(self, req: Request) -> Response:
        body = json.loads(req.get_data() or b"{}")
        kind = body.get("type") or "model"
        repo_id = f"{body['organization']}/{body['name']}" if body.get("organization") else \
            f"{self.bot_name}/{body['name']}"
        store = self.datasets if kind == "dataset" else self.repos
        prefix = "datasets/" if kind == "dataset" else ""
        if repo_id in store:
            return Response(json.dumps({"error": "You already created this repo", "url": f"{self.endpoint}/{prefix}"
                                        f"{repo_id}"}), status=409, content_type="application/json")
        store[repo_id] = FakeRepo(repo_id=repo_id, files={}, tags=[])
        return Response(json.dumps({"url": f"{self.endpoint}/{prefix}{repo_id}", "name": repo_id}), status=200,
                        content_type="application/json")

    def _preupload(self, req: Request, repo_id: str, rev: str, kind: str = "model") -> Response:
        repo = self._repo(repo_id, kind)
        if isinstance(repo, Response):
            return repo
        files = self.files_at(repo, rev) or {}
        body = json.loads(req.get_data() or b"{}")
        out = []
        for f in body.get("files", []):
            old = files.get(f["path"])
            oid = hashlib.sha1(b"blob %d\0" % len(old) + old).hexdigest() if old is not None else None
            out.append({"path": f["path"], "uploadMode": "regular", "shouldIgnore": False, "oid": oid})
        return Response(json.dumps({"files": out, "commitOid": repo.sha}), status=200,
                        content_type="application/json")

    def _commit(self, req: Request, repo_id: str, rev: str, kind: str = "model") -> Response:
        repo = self._repo(repo_id, kind)
        if isinstance(repo, Response):
            return repo
        lines = [json.loads(x) for x in (req.get_data() or b"").splitlines() if x.strip()]
        header = next(x["value"] for x in lines if x["key"] == "header")
        changes = {x["value"]["path"]: base64.b64decode(x["value"]["content"]) for x in lines if x["key"] == "file"}
        create_pr = req.args.get("create_pr") == "1"
        self.commits.append({"repo": repo_id, "revision": rev, "create_pr": create_pr,
                             "summary": header["summary"], "files": changes, "repo_type": kind})
        j = lambda obj: Response(json.dumps(obj), status=200, content_type="application/json")
        oid = hashlib.sha1(json.dumps([rev, header["summary"], len(self.commits)]).encode()).hexdigest()
        if create_pr:
            if rev != "main":
                return Response("create_pr needs main", status=400)
            d = self.add_discussion(repo_id, header["summary"], header.get("description", ""), self.bot_name,
                                    status="draft", pull_request=True)
            self.pr_files[(repo_id, d["num"])] = {**repo.files, **changes}
            self._record(repo_id, d, "create")
            failed = self._after_write(self.fail_after_create, req)
            if failed is not None:
                return failed
            return j({"commitUrl": f"{self.endpoint}/{repo_id}/commit/{oid}", "commitOid": oid,
                      "pullRequestUrl": f"{self.endpoint}/{repo_id}/discussions/{d['num']}"})
        m = re.fullmatch(r"refs/pr/(\d+)", rev)
        if m:
            key = (repo_id, int(m.group(1)))
            if key not in self.pr_files:
                return Response("", status=404, headers={"X-Error-Code": "RevisionNotFound"})
            self.pr_files[key].update(changes)
            failed = self._after_write(self.fail_after_commit, req)
            if failed is not None:
                return failed
            return j({"commitUrl": f"{self.endpoint}/{repo_id}/commit/{oid}", "commitOid": oid})
        if rev != "main":
            return Response("", status=404, headers={"X-Error-Code": "RevisionNotFound"})
        self.push(repo_id, changes, kind)
        failed = self._after_write(self.fail_after_commit, req)
        if failed is not None:
            return failed
        prefix = "datasets/" if kind == "dataset" else ""
        return j({"commitUrl": f"{self.endpoint}/{prefix}{repo_id}/commit/{repo.sha}", "commitOid": repo.sha})

    def push(self, repo_id: str, changes: dict[str, bytes], kind: str = "model") -> FakeRepo:
        """A new commit on main with ``changes`` (as an owner's push or a merge would make)."""
        repo = (self.datasets if kind == "dataset" else self.repos)[repo_id]
        files = {**repo.files, **changes}
        sha = hashlib.sha1(repo.sha.encode() + json.dumps(sorted(changes)).encode() +
                           b"".join(changes.values())).hexdigest()
        with self.lock:  # a concurrent reader (the server thread) never pairs a sha with another commit's files
            repo.history[sha] = files
            repo.branches["main"] = sha
            repo.files, repo.sha = files, sha
        return repo

    def merge_pr(self, repo_id: str, num: int) -> FakeRepo:
        d = next(x for x in self.discussions[repo_id] if x["num"] == num)
        d["status"] = "merged"
        return self.push(repo_id, {"README.md": self.pr_files[(repo_id, num)]["README.md"]})

    def _list(self, req: Request) -> Response:
        """``GET /api/models``: filter (tags, all must match), author, pipeline_tag, search, sort (descending),
        limit, and cursor pages of ``page_size`` linked by ``Link: <...>; rel="next"``."""
        from urllib.parse import urlencode
        if self.list_override is not None:
            return Response(self.list_override, status=200, content_type="application/json")
        filters = req.args.getlist("filter")
        author, task, search = req.args.get("author"), req.args.get("pipeline_tag"), req.args.get("search")
        limit = int(req.args.get("limit", "100000"))
        start = int(req.args.get("cursor", "0"))
        repos = [r for r in self.repos.values() if all(f in set(r.tags) for f in filters)
                 and (author is None or r.repo_id.split("/")[0] == author)
                 and (task is None or r.pipeline_tag == task)
                 and (search is None or search.lower() in r.repo_id.lower())]
        sort = req.args.get("sort")
        if sort in ("downloads", "likes"):
            repos.sort(key=lambda r: -getattr(r, sort))
        repos = repos[:limit]
        page = repos[start:start + self.page_size]
        out = [{"id": r.repo_id, "_id": "x" * 24, "sha": r.sha, "tags": sorted(set(r.tags)), "downloads": r.downloads,
                "likes": r.likes, "gated": "manual" if r.gated else False, "pipeline_tag": r.pipeline_tag}
               for r in page]
        headers = {}
        if start + self.page_size < len(repos) or self.list_loop:
            query = [(k, v) for k in req.args for v in req.args.getlist(k) if k != "cursor"]
            query.append(("cursor", str(0 if self.list_loop else start + self.page_size)))
            headers["Link"] = f'<{self.endpoint}/api/models?{urlencode(query)}>; rel="next"'
        return Response(json.dumps(out), status=200, content_type="application/json", headers=headers)

    def _repo(self, repo_id: str, kind: str = "model") -> FakeRepo | Response:
        repo = (self.datasets if kind == "dataset" else self.repos).get(repo_id)
        if repo is None:
            return Response(json.dumps({"error": "Repository not found"}), status=404,
                            headers={"X-Error-Code": "RepoNotFound", "Content-Type": "application/json"})
        return repo

    def _gate(self, repo: FakeRepo) -> Response | None:
        if repo.gated:
            return Response(json.dumps({"error": "Access to model is restricted"}), status=403,
                            headers={"X-Error-Code": "GatedRepo", "Content-Type": "application/json"})
        return None

    def _files_of(self, repo: FakeRepo, sha: str | None) -> dict[str, bytes]:
        """The files at commit ``sha``: the repo's current files (tests edit them in place) unless an older commit."""
        return repo.files if sha == repo.sha else repo.history.get(sha, repo.files)

    def _resolve(self, repo: FakeRepo, rev: str | None) -> str | None:
        if rev is None:
            return repo.sha
        if rev in repo.branches:
            return repo.branches[rev]
        m = re.fullmatch(r"refs/pr/(\d+)", rev)
        if m and (repo.repo_id, int(m.group(1))) in self.pr_files:  # a PR branch: a sha of its files
            files = self.pr_files[(repo.repo_id, int(m.group(1)))]
            return hashlib.sha1(rev.encode() + b"".join(files.values())).hexdigest()
        if re.fullmatch(r"[0-9a-f]{40}", rev) and (rev in repo.branches.values() or rev in repo.history):
            return rev
        return None

    def _info(self, repo_id: str, rev: str | None, kind: str = "model") -> Response:
        repo = self._repo(repo_id, kind)
        if isinstance(repo, Response):
            return repo
        with self.lock:
            sha = self._resolve(repo, rev)
            files = self._files_of(repo, sha)
        if sha is None:
            return Response("{}", status=404, headers={"X-Error-Code": "RevisionNotFound"})
        body = {
            "_id": "x" * 24, "id": repo_id, "sha": sha, "private": False, "gated": "manual" if repo.gated else False,
            "siblings": [{"rfilename": f} for f in [*files, *repo.extra_files]],
            "tags": repo.tags, "lastModified": "2026-01-01T00:00:00.000Z", "downloads": repo.downloads,
            "likes": repo.likes,
        }
        if repo.safetensors:
            body["safetensors"] = {"parameters": repo.safetensors, "total": sum(repo.safetensors.values())}
        if repo.card_data is not None:
            body["cardData"] = repo.card_data
        if isinstance(repo.info_override, bytes):
            return Response(repo.info_override, status=200, content_type="text/html")
        if repo.info_override:
            body.update(repo.info_override)
        return Response(json.dumps(body), status=200, content_type="application/json")

    def _file(self, req: Request, repo_id: str, rev: str, fname: str) -> Response:
        repo = self._repo(repo_id)
        if isinstance(repo, Response):
            return repo
        gate = self._gate(repo)
        if gate is not None:
            return gate
        with self.lock:
            sha = self._resolve(repo, rev)
            files = self.files_at(repo, rev) if rev.startswith("refs/pr/") else self._files_of(repo, sha)
        if rev.startswith("refs/pr/") and files is not None:
            sha = hashlib.sha1(rev.encode() + b"".join(files.values())).hexdigest()
        if sha is None or files is None:
            return Response("", status=404, headers={"X-Error-Code": "RevisionNotFound"})
        data = files.get(fname)
        if data is None:
            return Response("", status=404, headers={"X-Error-Code": "EntryNotFound", "X-Repo-Commit": sha})
        etag = '"' + hashlib.sha1(data).hexdigest() + '"'
        headers = {"X-Repo-Commit": sha, "ETag": etag}
        rng = req.headers.get("Range")
        if rng and req.method == "GET":
            self.ranges.append((req.path, rng))
            m = re.fullmatch(r"bytes=(\d+)-(\d*)", rng.strip())
            if m and not self.ignore_ranges:
                start = int(m.group(1))
                end = min(int(m.group(2)) if m.group(2) else len(data) - 1, len(data) - 1)
                if start >= len(data):
                    return Response("", status=416, headers={"Content-Range": f"bytes */{len(data)}"})
                headers["Content-Range"] = f"bytes {start}-{end}/{len(data)}"
                return Response(data[start:end + 1], status=206, headers=headers,
                                content_type="application/octet-stream")
        # werkzeug sends headers only (Content-Length of the full body) when answering a HEAD request
        return Response(data, status=200, headers=headers, content_type="application/json")
