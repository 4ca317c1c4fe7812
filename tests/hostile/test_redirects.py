"""Medium 12 and Low: where requests go, and how much of an answer is read."""

from __future__ import annotations

from pathlib import Path

import pytest
from aiohttp import web
from tests.hostile.conftest import read_report, write_suite
from tests.hostile.servers import HostileServer, answer_with, raw

from failproof.cli import main
from failproof.targets._aio import MAX_BODY_BYTES

KEY = "sk-redirect-0123456789"


def redirect_to(url: str, status: int = 307) -> web.StreamResponse:
    async def handler(request: web.Request) -> web.StreamResponse:
        return web.Response(status=status, headers={"Location": url})

    return handler  # type: ignore[return-value]


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_a_redirect_to_another_origin_is_not_followed(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, status: int
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    suite = write_suite(workdir, [{"id": "c", "input": "private case text"}])
    with HostileServer({"/v1/chat/completions": answer_with("stolen")}) as elsewhere:
        trap = redirect_to(elsewhere.url("/v1/chat/completions"), status)
        with HostileServer({"/v1/chat/completions": trap}) as server:
            args = ["-t", "openai:m", "--base-url", server.base_url, "-q", "-f", "json"]
            assert main(["run", suite, *args, "--retries", "0"]) == 1
    assert elsewhere.requests == []
    (result,) = read_report(workdir)["results"]
    assert f"another origin (http://127.0.0.1:{elsewhere.port})" in result["error"]


def test_a_redirect_within_the_origin_is_followed(workdir: Path) -> None:
    suite = write_suite(workdir, [{"id": "c", "input": "x", "expect": {"must_contain": ["ok"]}}])
    routes = {
        "/v1/chat/completions": redirect_to("/v2/chat/completions"),
        "/v2/chat/completions": answer_with("ok"),
    }
    with HostileServer(routes) as server:
        args = ["-t", "openai:m", "--base-url", server.base_url, "-q"]
        assert main(["run", suite, *args]) == 0
    assert [r["path"] for r in server.requests] == ["/v1/chat/completions", "/v2/chat/completions"]


def test_the_http_target_keeps_its_header_secret_from_another_origin(
    workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("APP_TOKEN", KEY)
    suite = write_suite(workdir, [{"id": "c", "input": "x"}])
    elsewhere = HostileServer({"/app": answer_with("stolen")})
    with elsewhere, HostileServer({"/app": redirect_to(elsewhere.url("/app"))}) as server:
        args = ["-t", f"http:{server.url('/app')}", "-H", "X-Api-Key=${APP_TOKEN}", "-q"]
        assert main(["run", suite, *args, "--retries", "0", "-f", "json"]) == 1
    assert elsewhere.requests == []
    (result,) = read_report(workdir)["results"]
    assert f"127.0.0.1:{elsewhere.port}" in result["error"]


@pytest.mark.parametrize(
    "base_url",
    ["notaurl", "http://", "ftp://example.test/v1", "http://[::1", "127.0.0.1:8000/v1"],
)
def test_a_malformed_base_url_exits_3_naming_it(
    workdir: Path, base_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    suite = write_suite(workdir, [{"id": "c", "input": "x"}])
    assert main(["run", suite, "-t", "openai:m", "--base-url", base_url, "-q"]) == 3
    assert "--base-url is not an http(s) URL" in capsys.readouterr().err


def test_an_endless_answer_is_cut_off_at_the_body_cap(workdir: Path) -> None:
    suite = write_suite(workdir, [{"id": "c", "input": "x"}])
    huge = b'{"choices": [{"message": {"content": "' + b"a" * (MAX_BODY_BYTES + 10) + b'"}}]}'
    with HostileServer({"/v1/chat/completions": raw(200, huge)}) as server:
        args = ["-t", "openai:m", "--base-url", server.base_url, "-q", "-f", "json"]
        assert main(["run", suite, *args, "--retries", "0"]) == 1
    (result,) = read_report(workdir)["results"]
    assert "larger than" in result["error"]
