"""Webhook server for the Hub bot: FastAPI + uvicorn, a SQLite queue and one worker thread.

``POST /webhook`` checks ``X-Webhook-Secret`` in constant time (401 missing, 403 wrong), parses the
raw JSON itself (huggingface_hub's WebhookPayload drops ``repo.headSha``, hub-and-github.md §2.2),
keeps only pushes to ``refs/heads/main`` of public model repos, queues ``(repo, sha)`` and answers
at once (202). The worker posts sheets one repo at a time; a job whose commit changes neither
``config.json`` nor the weights is skipped; repos must be allowed (``allow`` patterns: ``org/*``,
``org/name``); a per-hour posting budget holds work back instead of dropping it; jobs survive
restarts. A job that fails for a transient reason (the Hub answering 429/5xx, a dropped
connection) goes back on the queue with exponential backoff, ``max_attempts`` times, then is
marked ``failed``: ``GET /healthz`` lists failed jobs (``failed``, with their last error) beside the
per-status counts, and the next delivery for that repo or the worker's periodic sweep (every
``sweep_s``) makes them pending again.
"""

from __future__ import annotations

import fnmatch
import hmac
import json
import logging
import os
import threading
import time
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from starlette.requests import ClientDisconnect

from scorer.sources import _REPO_ID as _REPO  # the Hub's repo-id and commit patterns: one definition
from scorer.sources import _SHA

from .queue import Queue

log = logging.getLogger("deploysheet.bot")
MAX_BODY_BYTES = 1_000_000  # Hub webhook payloads are a few kB (hub-and-github.md §5.1: cap at ~1 MiB)


@dataclass
class Settings:
    secret: str
    db: str = "deploysheet-bot.sqlite"
    allow: list[str] = field(default_factory=list)  # fnmatch patterns on repo ids; empty = nothing allowed
    posts_per_hour: int = 30
    poll_s: float = 0.5
    max_attempts: int = 5  # tries of a job that fails transiently before it is marked failed
    backoff_s: float = 2.0  # first retry delay; doubles per attempt
    backoff_max_s: float = 300.0
    sweep_s: float = 600.0  # how often failed jobs are retried (and how long they stay failed first)
    private_ok: bool = False
    mode: str = "discussion"  # or "pr": model-card pull requests (bot/card.py)


def classify(payload: dict) -> tuple[str, str | None, str | None, str | None]:
    """('queue', repo, sha, old_sha) for a push to main of a public model repo, else ('ignore', reason, ...)."""
    if not isinstance(payload, dict):
        return "ignore", "payload is not an object", None, None
    event = payload.get("event") if isinstance(payload.get("event"), dict) else {}
    repo = payload.get("repo") if isinstance(payload.get("repo"), dict) else {}
    scope, action = str(event.get("scope", "")), str(event.get("action", ""))
    if repo.get("type") != "model":
        return "ignore", f"not a model repo ({repo.get('type')!r})", None, None
    name = repo.get("name")
    if not isinstance(name, str) or not _REPO.fullmatch(name) or ".." in name:
        return "ignore", "repo.name missing or not a repo id", None, None
    if scope.startswith("discussion"):
        return "ignore", "discussion events are not acted on (the bot's own posts trigger them)", None, None
    if not (scope.startswith("repo.content") and action == "update") and not (scope == "repo" and action ==
                                                                                 "create"):
        return "ignore", f"event {scope}/{action} is not a push", None, None
    if repo.get("private"):
        return "ignore", "private repo", None, None
    refs = payload.get("updatedRefs") if isinstance(payload.get("updatedRefs"), list) else []
    main = next((r for r in refs if isinstance(r, dict) and r.get("ref") == "refs/heads/main"), None)
    sha = (main or {}).get("newSha") or (repo.get("headSha") if scope == "repo" else None)
    if not isinstance(sha, str) or not _SHA.fullmatch(sha):
        return "ignore", "no push to refs/heads/main (or no valid commit sha)", None, None
    old = (main or {}).get("oldSha")
    return "queue", name, sha, old if isinstance(old, str) and _SHA.fullmatch(old) else None


def allowed(repo: str, patterns: list[str]) -> bool:
    return any(fnmatch.fnmatchcase(repo.lower(), p.lower()) for p in patterns)


def touches_config_or_weights(client, repo: str, old_sha: str | None, new_sha: str) -> bool:
    """True unless config.json and the weight index are byte-identical (same ETag) at both commits."""
    if not old_sha:
        return True
    from huggingface_hub import get_hf_file_metadata, hf_hub_url
    from huggingface_hub.errors import EntryNotFoundError, HfHubHTTPError

    for fname in ("config.json", "hf_quant_config.json", "model.safetensors.index.json", "model.safetensors"):
        tags = []
        for sha in (old_sha, new_sha):
            try:
                meta = get_hf_file_metadata(hf_hub_url(repo, fname, revision=sha, endpoint=client.endpoint),
                                            token=client.api.token, endpoint=client.endpoint)
                tags.append(meta.etag)
            except EntryNotFoundError:
                tags.append(None)
            except (HfHubHTTPError, OSError):
                return True  # cannot tell: treat as changed
        if tags[0] != tags[1]:
            return True
    return False


class Worker(threading.Thread):
    def __init__(self, queue: Queue, settings: Settings, client_factory=None):
        super().__init__(daemon=True, name="deploysheet-bot-worker")
        self.queue = queue
        self.settings = settings
        self.stop = threading.Event()
        self.client_factory = client_factory

    def run(self) -> None:
        next_sweep = time.monotonic() + self.settings.sweep_s
        while not self.stop.is_set():
            try:
                if time.monotonic() >= next_sweep:
                    next_sweep = time.monotonic() + self.settings.sweep_s
                    n = self.queue.sweep(self.settings.sweep_s)
                    if n:
                        log.info("sweep: %d failed job(s) queued again", n)
                job = None
                job = self.queue.claim()
                if job is None:
                    self.stop.wait(self.settings.poll_s)
                    continue
                self.process(job)
            except Exception:  # noqa: BLE001 - the worker must outlive any one failure (say, a locked database)
                log.exception("worker loop error; going on")
                if job is not None:  # never leave it 'running': that would hold its repo's queue until a restart
                    try:
                        self._transient(job, "worker error")
                    except Exception:  # noqa: BLE001
                        pass
                self.stop.wait(self.settings.poll_s)

    def _transient(self, job, message: str) -> None:
        """Back on the queue with exponential backoff, or ``failed`` (visible, swept later) after max_attempts."""
        if job.attempts >= self.settings.max_attempts:
            self.queue.finish(job, "failed", f"after {job.attempts} attempts: {message}")
            log.warning("job %s on %s failed after %d attempts (%s)", job.id, job.repo, job.attempts, message)
        else:
            delay = min(self.settings.backoff_max_s, self.settings.backoff_s * 2 ** (job.attempts - 1))
            self.queue.retry_later(job, delay, message)
            log.warning("job %s on %s: transient failure, retry in %.1fs (%s)", job.id, job.repo, delay, message)

    def process(self, job) -> None:
        from scorer.errors import DeploysheetError

        from .card import post_card_pr
        from .hub import HubClient
        from .post import post_discussion

        if not allowed(job.repo, self.settings.allow):
            self.queue.finish(job, "skipped", "not on the allow-list")
            log.info("skip %s: not on the allow-list", job.repo)
            return
        if self.queue.posts_in_last_hour() >= self.settings.posts_per_hour:
            self.queue.retry_later(job, 300, "posting budget for this hour used up")
            log.info("hold %s: posting budget used up", job.repo)
            return
        client = self.client_factory() if self.client_factory else HubClient()
        try:
            head = client.head_sha(job.repo)  # never write an older commit's sheet over a newer one
            if head != job.sha:
                again = self.queue.enqueue(job.repo, head, job.sha)
                self.queue.finish(job, "skipped", f"superseded: main is at {head[:7]} now"
                                                  + (" (queued)" if again else ""))
                log.info("skip %s %s: superseded by %s", job.repo, job.sha[:7], head[:7])
                return
            if not touches_config_or_weights(client, job.repo, job.old_sha, job.sha):
                self.queue.finish(job, "skipped", "commit changes neither config.json nor the weights")
                return
            poster = post_card_pr if self.settings.mode == "pr" else post_discussion
            out = poster(job.repo, job.sha, client=client)
        except DeploysheetError as exc:  # gated, private, gone (HubError) or an unusable config: nothing to post
            if getattr(exc, "reason", None) in ("network", "rate_limited"):  # transient: back on the queue
                self._transient(job, str(exc))
                return
            self.queue.finish(job, "skipped", str(exc))
            log.info("skip %s: %s", job.repo, exc)
            return
        except Exception as exc:  # noqa: BLE001 - a transient failure: retry with backoff, then mark it failed
            self._transient(job, f"{type(exc).__name__}: {exc}")
            return
        if out.action in ("created", "updated", "updated+comment"):
            self.queue.record_post(job.repo, out.action)
        self.queue.finish(job, "done", out.action)
        log.info("%s %s -> %s", job.repo, job.sha[:7], out.action)


def create_app(settings: Settings, client_factory=None):
    """The FastAPI application (the worker starts and stops with it)."""
    queue = Queue(settings.db)

    @asynccontextmanager
    async def lifespan(app):
        worker = Worker(queue, settings, client_factory)
        worker.start()
        app.state.worker = worker
        try:
            yield
        finally:
            worker.stop.set()
            worker.join(timeout=10)

    app = FastAPI(title="deploysheet Hub bot", lifespan=lifespan)
    app.state.queue = queue

    @app.post("/webhook")
    async def webhook(request: Request):
        given = request.headers.get("x-webhook-secret")
        if given is None:
            return JSONResponse({"error": "missing X-Webhook-Secret"}, status_code=401)
        if not hmac.compare_digest(given.encode("utf-8", "replace"), settings.secret.encode("utf-8")):
            return JSONResponse({"error": "wrong X-Webhook-Secret"}, status_code=403)
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
            return JSONResponse({"error": "payload too large"}, status_code=413)
        chunks, size = [], 0
        try:
            async for chunk in request.stream():  # never hold more than the cap in memory
                size += len(chunk)
                if size > MAX_BODY_BYTES:
                    return JSONResponse({"error": "payload too large"}, status_code=413)
                chunks.append(chunk)
        except ClientDisconnect:  # the sender hung up mid-body: nothing to answer, nothing queued
            log.info("webhook: the client disconnected after %d of %s bytes", size, declared or "?")
            return JSONResponse({"error": "client disconnected"}, status_code=400)
        try:
            payload = json.loads(b"".join(chunks))
        except (ValueError, UnicodeDecodeError, RecursionError):
            return JSONResponse({"error": "payload is not JSON"}, status_code=400)
        verdict, repo, sha, old = classify(payload)
        if verdict != "queue":
            log.info("ignored webhook: %s", repo)
            return JSONResponse({"ignored": repo}, status_code=200)
        new = queue.enqueue(repo, sha, old)
        log.info("webhook %s %s: %s", repo, sha[:7], "queued" if new else "already known")
        return JSONResponse({"queued": new, "repo": repo, "sha": sha}, status_code=202)

    @app.get("/healthz")
    def healthz():  # sync: FastAPI runs it in a thread, so SQLite never blocks the event loop
        worker = getattr(app.state, "worker", None)
        return {"ok": True, "worker_alive": bool(worker and worker.is_alive()), "jobs": queue.counts(),
                "due": queue.due(), "failed": queue.failed(), "posts_last_hour": queue.posts_in_last_hour(),
                "time": time.time()}

    return app


def check_start(settings: Settings, host: str, port: int) -> None:
    """Refuse to start in a state that cannot work. Raises BadInputError (exit 2) naming the problem."""
    import socket
    import sqlite3

    from huggingface_hub import get_token

    from scorer.errors import BadInputError

    if not (os.environ.get("HF_TOKEN") or get_token()):
        raise BadInputError("hub serve: no Hugging Face token: set HF_TOKEN (a write token of the bot account) or "
                            "run 'hf auth login'")
    try:
        Queue(settings.db)
    except (OSError, sqlite3.Error) as exc:
        raise BadInputError(f"hub serve: cannot open the queue database {settings.db}: {exc}") from None
    try:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind((host, port))
    except OSError as exc:
        raise BadInputError(f"hub serve: cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def serve(settings: Settings, host: str = "0.0.0.0", port: int = 7860) -> None:  # pragma: no cover - CLI glue
    import uvicorn

    check_start(settings, host, port)
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False
    if not settings.allow:
        log.warning("no --allow pattern (nor DEPLOYSHEET_BOT_ALLOW): webhooks are accepted but nothing is posted")
    log.info("mode %s, allow %s, %d posts/hour, queue %s", settings.mode, ", ".join(settings.allow) or "-",
             settings.posts_per_hour, settings.db)
    uvicorn.run(create_app(settings), host=host, port=port, log_level="info")
