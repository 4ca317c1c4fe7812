"""Faulty servers on 127.0.0.1: each route answers the way a broken or hostile server would.

`HostileServer` runs an aiohttp app on a free port (`AppThread`). Routes are plain aiohttp
handlers; the builders below make the ones the hostile tests share, and the server keeps every
request it saw (method, path, headers, body).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from aiohttp import web
from tests.fakes.app_thread import AppThread

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class HostileServer:
    """``with HostileServer({"/v1/chat/completions": handler}) as server: server.url(...)``."""

    def __init__(self, routes: Mapping[str, Handler]) -> None:
        self.routes = dict(routes)
        self.requests: list[dict[str, Any]] = []
        self.port = 0
        self._app = AppThread(self._build)

    def url(self, path: str = "") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    @property
    def base_url(self) -> str:
        """The OpenAI-style base URL (``/v1``)."""
        return self.url("/v1")

    def __enter__(self) -> HostileServer:
        self.port = self._app.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._app.stop()

    async def _record(self, request: web.Request) -> None:
        body = await request.read()
        self.requests.append(
            {
                "method": request.method,
                "path": request.path_qs,
                "headers": dict(request.headers),
                "body": body,
            }
        )

    def _wrap(self, handler: Handler) -> Handler:
        async def recorded(request: web.Request) -> web.StreamResponse:
            await self._record(request)
            return await handler(request)

        return recorded

    def _build(self) -> web.Application:
        app = web.Application()
        for path, handler in self.routes.items():
            app.router.add_route("*", path, self._wrap(handler))
        return app


def completion_body(content: Any, usage: Any = None) -> bytes:
    """A chat-completions body whose message content is ``content`` (any JSON value)."""
    payload: dict[str, Any] = {
        "id": "chatcmpl-hostile",
        "object": "chat.completion",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
    }
    if usage is not None:
        payload["usage"] = usage
    return json.dumps(payload).encode("utf-8")


def answer_with(content: Any, usage: Any = None) -> Handler:
    """A handler that answers every call with ``content``."""

    async def handler(request: web.Request) -> web.StreamResponse:
        return web.Response(body=completion_body(content, usage), content_type="application/json")

    return handler


def raw(status: int, body: bytes | str, headers: Mapping[str, str] | None = None) -> Handler:
    """A handler that answers with exactly this status, body and headers."""
    data = body.encode("utf-8") if isinstance(body, str) else body

    async def handler(request: web.Request) -> web.StreamResponse:
        return web.Response(
            status=status, body=data, headers=dict(headers or {}), content_type="application/json"
        )

    return handler


def sequence(*handlers: Handler) -> Handler:
    """A handler that answers the n-th call with the n-th handler (the last one repeats)."""
    calls = [0]

    async def handler(request: web.Request) -> web.StreamResponse:
        index = min(calls[0], len(handlers) - 1)
        calls[0] += 1
        return await handlers[index](request)

    return handler
