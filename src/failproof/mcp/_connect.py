"""Connections to MCP servers through the official SDK (the ``mcp`` extra).

`connect` opens one session and always closes it: a ``stdio:`` server's process tree is stopped
(stdin closed, then SIGTERM, then SIGKILL to its process group) on every way out, a timeout, an
error or a cancellation included. What a server writes to stderr goes to a temporary file, never
to our terminal; its last lines, escaped, explain a server that died.
"""

from __future__ import annotations

import logging
import tempfile
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any, TextIO, cast

from failproof.errors import MissingExtraError
from failproof.guard import redact
from failproof.guard._text import strip_controls
from failproof.mcp._model import ServerSpec
from failproof.mcp._servers import expand_headers

if TYPE_CHECKING:
    from mcp import ClientSession

__all__ = ["Connection", "McpServerError", "ServerLog", "connect", "require_sdk"]

_STDERR_TAIL = 600


class McpServerError(Exception):
    """A server could not be reached, answered wrongly, hung or died."""


def require_sdk() -> None:
    """Raise `MissingExtraError` unless the MCP SDK is installed."""
    try:
        import mcp  # noqa: F401
    except ImportError:
        raise MissingExtraError("mcp", "mcp", "talking to MCP servers") from None


class ServerLog:
    """What a stdio server writes to stderr: a temporary file, and its tail once closed."""

    def __init__(self, file: IO[str]) -> None:
        self.file = file
        self.tail: str | None = None

    def read_tail(self) -> str:
        """The last characters written, controls escaped (kept once the file is closed)."""
        if self.tail is not None:
            return self.tail
        self.file.flush()
        self.file.seek(0)
        return strip_controls(redact(self.file.read()[-_STDERR_TAIL:])).strip()

    def close(self) -> None:
        self.tail = self.read_tail()


@dataclass
class Connection:
    """An open session with one server."""

    spec: ServerSpec
    session: ClientSession
    timeout_s: float
    log: ServerLog

    def stderr_tail(self) -> str:
        """The end of what a stdio server wrote to stderr, controls escaped."""
        return self.log.read_tail()


@asynccontextmanager
async def connect(
    spec: ServerSpec, *, timeout_s: float = 30.0, log: ServerLog | None = None
) -> AsyncIterator[Connection]:
    """An initialized session with ``spec``'s server; closed (and its process stopped) on exit.

    ``log``, when given, is filled with the server's stderr and keeps its tail after the exit.
    """
    require_sdk()
    from mcp import ClientSession

    logging.getLogger("mcp").addHandler(logging.NullHandler())  # no tracebacks on our stderr
    with tempfile.TemporaryFile("w+", encoding="utf-8") as errlog:
        server_log = log or ServerLog(errlog)
        server_log.file = errlog
        try:
            async with AsyncExitStack() as stack:
                streams = await stack.enter_async_context(_transport(spec, timeout_s, errlog))
                session = ClientSession(streams[0], streams[1], read_timeout_seconds=timeout_s)
                await stack.enter_async_context(session)
                await session.initialize()
                yield Connection(spec, session, timeout_s, server_log)
        finally:
            server_log.close()


def _transport(spec: ServerSpec, timeout_s: float, errlog: IO[str]) -> Any:
    if spec.transport == "stdio":
        from mcp import StdioServerParameters, stdio_client

        program, *args = spec.command
        params = StdioServerParameters(command=program, args=args, encoding_error_handler="replace")
        return stdio_client(params, errlog=cast(TextIO, errlog))
    headers = expand_headers(spec.headers)
    assert spec.url is not None
    if spec.transport == "sse":
        from mcp.client.sse import sse_client

        return sse_client(spec.url, headers=headers, timeout=timeout_s, sse_read_timeout=timeout_s)
    return _streamable(spec.url, headers, timeout_s)


@asynccontextmanager
async def _streamable(url: str, headers: dict[str, str], timeout_s: float) -> AsyncIterator[Any]:
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    timeout = httpx2.Timeout(timeout_s)
    async with (
        httpx2.AsyncClient(headers=headers, timeout=timeout) as client,
        streamable_http_client(url, http_client=client) as streams,
    ):
        yield streams
