"""Hostile HTTP servers on 127.0.0.1: an endless event stream, broken JSON, an error status.
Each is recorded as not scanned (exit 3) within the deadline; nothing it sent reaches a report
unescaped."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from aiohttp import web
from tests.fakes.app_thread import AppThread

from failproof.cli import main
from failproof.mcp import McpScan


async def endless(request: web.Request) -> web.StreamResponse:
    """An event stream that never carries an answer."""
    response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
    await response.prepare(request)
    while True:
        await response.write(b": <script>alert(1)</script>\n\n")
        await asyncio.sleep(0.01)


async def broken(request: web.Request) -> web.Response:
    return web.Response(
        text='{"jsonrpc": "2.0", "id": 0, "result": {', content_type="application/json"
    )


async def refused(request: web.Request) -> web.Response:
    return web.Response(status=500, text="<h1>down</h1>")


@pytest.fixture
def hostile() -> Iterator[str]:
    def build() -> web.Application:
        app = web.Application()
        app.router.add_post("/endless/mcp", endless)
        app.router.add_post("/broken/mcp", broken)
        app.router.add_post("/refused/mcp", refused)
        return app

    thread = AppThread(build)
    port = thread.start()
    yield f"http://127.0.0.1:{port}"
    thread.stop()


@pytest.mark.parametrize(
    "path",
    [
        pytest.param("endless", id="endless-event-stream"),
        pytest.param("broken", id="malformed-json"),
        pytest.param("refused", id="http-500"),
    ],
)
def test_a_hostile_http_server_is_recorded_as_not_scanned(
    workdir: Path, hostile: str, path: str
) -> None:
    out = workdir / "r.json"
    code = main(
        ["mcp", "scan", f"{hostile}/{path}/mcp", "--timeout", "1", "-f", "json", "-o", str(out)]
    )
    result = McpScan.model_validate_json(out.read_text("utf-8"))
    assert code == 3
    [server] = result.servers
    assert server.error is not None and server.surface is None
