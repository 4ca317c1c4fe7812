"""A scripted GitHub REST API on 127.0.0.1: a pull request's issue comments (list, create, edit)."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

_LIST = re.compile(r"^/repos/acme/shop/issues/7/comments(\?.*)?$")
_EDIT = re.compile(r"^/repos/acme/shop/issues/comments/(\d+)$")


@dataclass
class FakeGitHub:
    token: str
    url: str = ""
    comments: list[dict[str, Any]] = field(default_factory=list)
    calls: list[str] = field(default_factory=list)


def _handler(fake: FakeGitHub) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            return

        def _reply(self, status: int, data: object) -> None:
            raw = json.dumps(data).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

        def _authorised(self) -> bool:
            if self.headers.get("Authorization") == f"Bearer {fake.token}":
                return True
            self._reply(401, {"message": "Bad credentials"})
            return False

        def _body(self) -> dict[str, Any]:
            length = int(self.headers.get("Content-Length") or 0)
            return dict(json.loads(self.rfile.read(length)))

        def do_GET(self) -> None:
            fake.calls.append("GET")
            if self._authorised() and _LIST.match(self.path):
                self._reply(200, fake.comments)
            elif _LIST.match(self.path) is None:
                self._reply(404, {"message": "Not Found"})

        def do_POST(self) -> None:
            fake.calls.append("POST")
            if self._authorised() and _LIST.match(self.path):
                comment = {"id": len(fake.comments) + 1, "body": self._body()["body"]}
                fake.comments.append(comment)
                self._reply(201, comment)

        def do_PATCH(self) -> None:
            fake.calls.append("PATCH")
            found = _EDIT.match(self.path)
            if self._authorised() and found:
                comment = next(c for c in fake.comments if c["id"] == int(found.group(1)))
                comment["body"] = self._body()["body"]
                self._reply(200, comment)

    return Handler


@contextmanager
def serve_github(token: str) -> Iterator[FakeGitHub]:
    fake = FakeGitHub(token)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(fake))
    fake.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield fake
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
