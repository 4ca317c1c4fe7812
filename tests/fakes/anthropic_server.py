"""A scripted Anthropic Messages API (``POST /v1/messages``) on 127.0.0.1, for the litellm: target.

``reply(body)`` decides each answer: text, or a dict ``{"tool": name, "input": {...}}`` for a
``tool_use`` block. ``failures`` holds statuses to send first (``(429, "1")``: status and
Retry-After). Every request's headers and body are kept.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web
from tests.fakes.app_thread import AppThread

Reply = Callable[[dict[str, Any]], "str | dict[str, Any]"]


def _last_text(body: dict[str, Any]) -> str:
    content = body["messages"][-1]["content"]
    if isinstance(content, str):
        return content
    return " ".join(str(part.get("text", "")) for part in content if isinstance(part, dict))


@dataclass
class FakeAnthropic:
    reply: Reply = _last_text
    failures: list[tuple[int, str | None]] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)
    port: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def handle(self, request: web.Request) -> web.Response:
        body = await request.json()
        with self._lock:
            self.requests.append({"headers": dict(request.headers), "body": body})
            failure = self.failures.pop(0) if self.failures else None
        if failure is not None:
            status, retry_after = failure
            headers = {"retry-after": retry_after} if retry_after else {}
            error = {"type": "error", "error": {"type": "rate_limit_error", "message": "slow down"}}
            return web.json_response(error, status=status, headers=headers)
        answer = self.reply(body)
        if isinstance(answer, str):
            blocks: list[dict[str, Any]] = [{"type": "text", "text": answer}]
            stop = "end_turn"
        else:
            blocks = [
                {
                    "type": "tool_use",
                    "id": "toolu_01",
                    "name": answer["tool"],
                    "input": answer["input"],
                }
            ]
            stop = "tool_use"
        return web.json_response(
            {
                "id": "msg_test",
                "type": "message",
                "role": "assistant",
                "model": body["model"],
                "content": blocks,
                "stop_reason": stop,
                "stop_sequence": None,
                "usage": {"input_tokens": 11, "output_tokens": 5},
            }
        )


class AnthropicThread:
    def __init__(self, fake: FakeAnthropic) -> None:
        self.fake = fake
        self._app = AppThread(self._build)

    def __enter__(self) -> FakeAnthropic:
        self.fake.port = self._app.start()
        return self.fake

    def __exit__(self, *exc: object) -> None:
        self._app.stop()

    def _build(self) -> web.Application:
        app = web.Application()
        app.router.add_post("/v1/messages", self.fake.handle)
        return app
