"""The local HTTP server of ``failproof view`` (stdlib ``ThreadingHTTPServer``), GET only.

It binds 127.0.0.1 by default and refuses a non-loopback address unless remote access is asked
for explicitly. While bound to loopback it also rejects requests whose ``Host`` header names
another host, so a web page elsewhere cannot reach it through DNS rebinding.
"""

from __future__ import annotations

import ipaddress
import socket
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Self

from failproof.config import Settings
from failproof.core._closing import Closing
from failproof.errors import ConfigError
from failproof.view._app import Reply, ViewApp
from failproof.view._reader import ReadOnlyStore

__all__ = ["ViewServer", "check_host", "make_server"]

_SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Cache-Control": "no-store",
}
_LOOPBACK_NAMES = {"localhost"}


def check_host(host: str, *, allow_remote: bool = False) -> None:
    """Refuse to serve on a non-loopback address unless ``allow_remote`` is set."""
    if allow_remote or host.lower() in _LOOPBACK_NAMES:
        return
    try:
        loopback = ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        loopback = False
    if not loopback:
        raise ConfigError(
            f"refusing to serve on {host!r}: it is not a loopback address, and the store's "
            "model outputs and prompts would be readable from the network",
            hint="use --host 127.0.0.1, or pass --allow-remote if you really mean it",
        )


class _Handler(BaseHTTPRequestHandler):
    app: ViewApp
    allowed_hosts: frozenset[str] | None
    quiet: bool
    server_version = "failproof-view"
    sys_version = ""

    def do_GET(self) -> None:
        self._answer(send_body=True)

    def do_HEAD(self) -> None:
        self._answer(send_body=False)

    def _refuse(self) -> None:
        self._send(
            Reply.error(405, "failproof view is read-only: only GET and HEAD."),
            extra={"Allow": "GET, HEAD"},
        )

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_TRACE = do_CONNECT = _refuse

    def _answer(self, *, send_body: bool) -> None:
        host = (self.headers.get("Host") or "").lower()
        if self.allowed_hosts is not None and host not in self.allowed_hosts:
            self._send(Reply.error(421, "Unexpected Host header."), send_body=send_body)
            return
        try:
            reply = self.app.handle(self.path)
        except Exception as exc:  # one bad run must not take the server down
            reply = Reply.error(500, f"failproof could not build this page: {exc}")
        self._send(reply, send_body=send_body)

    def _send(
        self, reply: Reply, *, send_body: bool = True, extra: dict[str, str] | None = None
    ) -> None:
        self.send_response(reply.status)
        headers = {
            **_SECURITY_HEADERS,
            "Content-Type": reply.content_type,
            "Content-Length": str(len(reply.body)),
            **reply.headers,
            **(extra or {}),
        }
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        if send_body:
            self.wfile.write(reply.body)

    def log_message(self, format: str, *args: object) -> None:
        if not self.quiet:
            sys.stderr.write(f"failproof view: {self.address_string()} {format % args}\n")


def _handler_class(app: ViewApp, quiet: bool) -> type[_Handler]:
    class Handler(_Handler):
        pass

    Handler.app, Handler.allowed_hosts, Handler.quiet = app, None, quiet
    return Handler


class _IPv6Server(ThreadingHTTPServer):
    address_family = socket.AF_INET6


class ViewServer(Closing):
    """A running ``failproof view``: its URL, and how to serve and stop it."""

    def __init__(
        self, app: ViewApp, host: str, port: int, *, allow_remote: bool, quiet: bool
    ) -> None:
        server_class = _IPv6Server if ":" in host else ThreadingHTTPServer
        handler = _handler_class(app, quiet)
        self.httpd = server_class((host.strip("[]"), port), handler)
        self.httpd.daemon_threads = True
        self.host, self.port = host, int(self.httpd.server_address[1])
        if not allow_remote:
            handler.allowed_hosts = frozenset(_host_names(host, self.port))
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host = f"[{self.host.strip('[]')}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"

    def serve_forever(self) -> None:
        self.httpd.serve_forever()

    def start(self) -> Self:
        """Serve from a background thread (tests, notebooks); `close` stops it."""
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        if self._thread is not None:
            self.httpd.shutdown()
            self._thread.join()
            self._thread = None
        self.httpd.server_close()


def _host_names(host: str, port: int) -> set[str]:
    bound = f"[{host.strip('[]')}]" if ":" in host else host
    names = {bound.lower(), "localhost", "127.0.0.1", "[::1]"}
    return {f"{name}:{port}" for name in names} | (names if port == 80 else set())


def make_server(
    settings: Settings,
    *,
    host: str = "127.0.0.1",
    port: int = 8765,
    allow_remote: bool = False,
    quiet: bool = False,
) -> ViewServer:
    """A server over ``settings.db_path`` (opened read-only); ``port=0`` picks a free port."""
    check_host(host, allow_remote=allow_remote)
    app = ViewApp(ReadOnlyStore(settings.db_path), settings)
    return ViewServer(app, host, port, allow_remote=allow_remote, quiet=quiet)
