"""A scripted OpenAI-compatible server on 127.0.0.1, run in a background thread for tests.

Each request is matched on the content of its last message. A script maps that content to the
behaviours of successive attempts (the last one repeats): ``Answer(text)``, ``Status(code,
retry_after)``, ``Slow(seconds)``, ``Malformed()``, ``NoChoices()``, ``Drop()``, ``Raw(payload)``
(this JSON body as it is), ``Hold()`` (no answer until ``release()``). Unscripted requests get
``default``, or what ``reply(body)`` returns when ``reply`` is set (a scripted model that reads
the whole request): text, or a whole assistant message (with ``tool_calls``). The server counts the
requests it saw per content and keeps every request's headers and body.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web
from tests.fakes.app_thread import AppThread


@dataclass(frozen=True)
class Answer:
    text: str | None = None  # None: echo the last message back
    delay_s: float = 0.0


@dataclass(frozen=True)
class Status:
    code: int
    retry_after: str | None = None
    message: str = "scripted error"
    after_requests: int = 0  # answer once the server has seen this many requests in all


@dataclass(frozen=True)
class Slow:
    seconds: float


@dataclass(frozen=True)
class Malformed:
    pass


@dataclass(frozen=True)
class NoChoices:
    pass


@dataclass(frozen=True)
class Drop:
    pass


@dataclass(frozen=True)
class Raw:
    """Answer with this JSON value as the whole body (a chat completion or not)."""

    payload: Any


@dataclass(frozen=True)
class Hold:
    """Hold the request, answering nothing, until the test calls ``release()``; then answer
    like ``Answer(text)``."""

    text: str | None = None


Behaviour = Answer | Status | Slow | Malformed | NoChoices | Drop | Hold | Raw


@dataclass
class FakeOpenAI:
    """The server's script and what it saw. Thread-safe enough for counting."""

    default: Behaviour = field(default_factory=Answer)
    script: dict[str, Sequence[Behaviour]] = field(default_factory=dict)
    counts: Counter[str] = field(default_factory=Counter)
    requests: list[dict[str, Any]] = field(default_factory=list)
    reply: Callable[[dict[str, Any]], str | dict[str, Any]] | None = None
    key: Callable[[str], str] = str  # what a request is counted and scripted under
    holding: int = 0  # requests held right now (``Hold``)
    port: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _released: threading.Event = field(default_factory=threading.Event)

    def release(self) -> None:
        """Let every held request (and any later one) answer."""
        self._released.set()

    async def _hold(self, step: Hold, content: str) -> web.Response:
        with self._lock:
            self.holding += 1
        try:
            while not self._released.is_set():
                await asyncio.sleep(0.01)
        finally:
            with self._lock:
                self.holding -= 1
        return _completion(step.text if step.text is not None else content)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def _next(self, content: str) -> Behaviour:
        with self._lock:
            attempt = self.counts[content]
            self.counts[content] += 1
        steps = self.script.get(content)
        if not steps:
            return self.default
        return steps[min(attempt, len(steps) - 1)]

    async def handle(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        content = self.key(body["messages"][-1]["content"])
        with self._lock:
            self.requests.append({"headers": dict(request.headers), "body": body})
        step = self._next(content)
        if self.reply is not None and content not in self.script:
            return _completion(self.reply(body))
        return await self._respond(request, step, content)

    async def handle_app(self, request: web.Request) -> web.StreamResponse:
        """An LLM app's endpoint: ``{"question": ...}`` in, ``{"data": {"answer": ...}}`` out."""
        body = await request.json()
        content = body.get("question") or body["messages"][-1]["content"]
        with self._lock:
            self.requests.append({"headers": dict(request.headers), "body": body})
        step = self._next(content)
        if isinstance(step, Answer):
            text = step.text if step.text is not None else content
            return web.json_response({"data": {"answer": text}})
        return await self._respond(request, step, content)

    async def _respond(
        self, request: web.Request, step: Behaviour, content: str
    ) -> web.StreamResponse:
        if isinstance(step, Hold):
            return await self._hold(step, content)
        if isinstance(step, Slow):
            await asyncio.sleep(step.seconds)
            return _completion(content)
        if isinstance(step, Status):
            while self.total < step.after_requests:  # every other question is in flight first
                await asyncio.sleep(0.01)
            headers = {"Retry-After": step.retry_after} if step.retry_after else {}
            payload = {"error": {"message": step.message, "type": "scripted"}}
            return web.json_response(payload, status=step.code, headers=headers)
        if isinstance(step, Malformed):
            return web.Response(text='{"choices": [ {"mess', content_type="application/json")
        if isinstance(step, NoChoices):
            return web.json_response({"id": "x", "choices": []})
        if isinstance(step, Raw):
            return web.json_response(step.payload)
        if isinstance(step, Drop):
            assert request.transport is not None
            request.transport.abort()
            await asyncio.sleep(0.01)
            return web.Response()
        if step.delay_s:
            await asyncio.sleep(step.delay_s)
        return _completion(step.text if step.text is not None else content)


def _completion(text: str | dict[str, Any]) -> web.Response:
    message = {"role": "assistant", "content": text} if isinstance(text, str) else text
    payload = {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": "tool_calls" if message.get("tool_calls") else "stop",
            }
        ],
        "usage": {"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10},
    }
    return web.Response(text=json.dumps(payload), content_type="application/json")


class ServerThread:
    """Runs a `FakeOpenAI` on 127.0.0.1 (a free port) in a daemon thread."""

    def __init__(self, fake: FakeOpenAI) -> None:
        self.fake = fake
        self._app = AppThread(self._build)

    def __enter__(self) -> FakeOpenAI:
        self.fake.port = self._app.start()
        return self.fake

    def __exit__(self, *exc: object) -> None:
        self.fake.release()
        self._app.stop()

    def _build(self) -> web.Application:
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self.fake.handle)
        app.router.add_post("/app", self.fake.handle_app)
        return app
