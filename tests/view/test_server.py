"""The HTTP server: loopback by default, GET only, security headers, no write to the store."""

from __future__ import annotations

import hashlib
import http.client
from collections.abc import Iterator

import pytest
from tests.view.conftest import RUN_A

from failproof.config import Settings
from failproof.errors import ConfigError
from failproof.view import ViewServer, make_server
from failproof.view._server import check_host


@pytest.fixture(scope="module")
def server(settings: Settings) -> Iterator[ViewServer]:
    with make_server(settings, port=0, quiet=True).start() as running:
        yield running


def _request(
    server: ViewServer, method: str, path: str, host: str | None = None
) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    headers = {"Host": host} if host else {}
    conn.request(method, path, headers=headers)
    response = conn.getresponse()
    response.read()
    conn.close()
    return response


def test_it_binds_loopback_on_a_free_port(server: ViewServer) -> None:
    assert server.url == f"http://127.0.0.1:{server.port}/"
    assert server.port > 0


def test_pages_carry_the_security_headers(server: ViewServer) -> None:
    response = _request(server, "GET", f"/runs/{RUN_A}")
    assert response.status == 200
    assert response.getheader("X-Content-Type-Options") == "nosniff"
    assert response.getheader("Referrer-Policy") == "no-referrer"
    policy = response.getheader("Content-Security-Policy") or ""
    assert "default-src 'none'" in policy and "frame-ancestors 'none'" in policy


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH"])
def test_it_is_read_only(server: ViewServer, method: str) -> None:
    response = _request(server, method, "/")
    assert response.status == 405
    assert response.getheader("Allow") == "GET, HEAD"


def test_head_answers_without_a_body(server: ViewServer) -> None:
    assert _request(server, "HEAD", "/").status == 200


@pytest.mark.parametrize(
    ("host", "status"),
    [
        pytest.param(None, 200, id="its-own-address"),
        pytest.param("localhost:{port}", 200, id="localhost"),
        pytest.param("evil.example", 421, id="dns-rebinding"),
        pytest.param("127.0.0.1:1", 421, id="other-port"),
    ],
)
def test_host_header_must_name_this_server(
    server: ViewServer, host: str | None, status: int
) -> None:
    value = host.format(port=server.port) if host else None
    assert _request(server, "GET", "/", host=value).status == status


def test_serving_never_writes_the_store(settings: Settings) -> None:
    before = hashlib.sha256(settings.db_path.read_bytes()).hexdigest()
    with make_server(settings, port=0, quiet=True).start() as running:
        for path in ("/", f"/runs/{RUN_A}", f"/runs/{RUN_A}/report.json"):
            assert _request(running, "GET", path).status == 200
    assert hashlib.sha256(settings.db_path.read_bytes()).hexdigest() == before


@pytest.mark.parametrize(
    "host",
    [
        pytest.param("127.0.0.1", id="ipv4-loopback"),
        pytest.param("127.0.0.2", id="any-127"),
        pytest.param("::1", id="ipv6-loopback"),
        pytest.param("localhost", id="localhost"),
    ],
)
def test_loopback_hosts_are_allowed(host: str) -> None:
    check_host(host)


@pytest.mark.parametrize(
    "host",
    [
        pytest.param("0.0.0.0", id="all-interfaces"),
        pytest.param("192.168.1.10", id="lan"),
        pytest.param("::", id="ipv6-any"),
        pytest.param("example.com", id="a-name"),
    ],
)
def test_other_hosts_need_allow_remote(host: str) -> None:
    with pytest.raises(ConfigError, match="--allow-remote"):
        check_host(host)
    check_host(host, allow_remote=True)
