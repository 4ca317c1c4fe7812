"""``openai-sdk:`` and ``litellm:`` keep the limits of ``openai:`` against a hostile server on
127.0.0.1: no redirect to another origin is followed (the other server hears nothing), and no
answer is read past `MAX_BODY_BYTES`, compressed or not."""

from __future__ import annotations

import asyncio
import gzip
import json
import tracemalloc
import zlib
from functools import cache
from importlib.util import find_spec
from pathlib import Path

import pytest
from aiohttp import web
from tests.hostile.servers import Handler, HostileServer, answer_with, raw, sequence

from failproof.cli import main
from failproof.core import Case
from failproof.targets import CallError, create_target
from failproof.targets._aio import MAX_BODY_BYTES

KEY = "sk-guarded-0123456789abcdef"
CASE = Case(id="c", suite="s", input="private case text")
_LITELLM = pytest.mark.skipif(find_spec("litellm") is None, reason="providers extra")
GUARDED = [
    pytest.param(["-t", "openai-sdk:m"], id="sdk-aiohttp"),
    pytest.param(["-t", "openai-sdk:m", "-p", "http_client=httpx"], id="sdk-httpx"),
    pytest.param(["-t", "litellm:openai/m"], id="litellm-openai", marks=_LITELLM),
]


@pytest.fixture(autouse=True)
def _key(workdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)  # litellm's openai/ needs one
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)


def redirect_to(url: str, status: int) -> Handler:
    async def handler(request: web.Request) -> web.StreamResponse:
        return web.Response(status=status, headers={"Location": url})

    return handler


def _run(workdir: Path, target: list[str], base_url: str) -> dict[str, object]:
    suite = workdir / "s.yaml"
    suite.write_text(json.dumps({"suite": "s", "cases": [{"id": "c", "input": CASE.input}]}))
    args = [*target, "--base-url", base_url, "-q", "-f", "json", "--retries", "0"]
    assert main(["run", str(suite), *args]) == 1
    (report,) = workdir.glob("failproof-results/*/report.json")
    (result,) = json.loads(report.read_text())["results"]
    return dict(result)


@pytest.mark.parametrize("target", GUARDED)
@pytest.mark.parametrize("status", [302, 307, 308])
def test_a_redirect_to_another_origin_ends_the_case_as_an_error_and_sends_nothing_there(
    workdir: Path, target: list[str], status: int
) -> None:
    with HostileServer({"/v1/chat/completions": answer_with("stolen")}) as elsewhere:
        trap = redirect_to(elsewhere.url("/v1/chat/completions"), status)
        with HostileServer({"/v1/chat/completions": trap}) as server:
            result = _run(workdir, target, server.base_url)
    assert elsewhere.requests == []
    assert f"another origin (http://127.0.0.1:{elsewhere.port}); not followed" in str(
        result["error"]
    )
    assert result["output"] == ""


@_LITELLM
def test_litellm_anthropic_refuses_a_redirect_to_another_origin(workdir: Path) -> None:
    with HostileServer({"/v1/messages": answer_with("stolen")}) as elsewhere:
        trap = redirect_to(elsewhere.url("/v1/messages"), 307)
        with HostileServer({"/v1/messages": trap}) as server:
            result = _run(workdir, ["-t", "litellm:anthropic/m"], server.url())
    assert elsewhere.requests == []
    assert f"another origin (http://127.0.0.1:{elsewhere.port})" in str(result["error"])


@pytest.mark.parametrize("target", GUARDED)
def test_a_redirect_within_the_origin_is_followed(workdir: Path, target: list[str]) -> None:
    routes = {
        "/v1/chat/completions": redirect_to("/v2/chat/completions", 307),
        "/v2/chat/completions": answer_with("moved here"),
    }
    with HostileServer(routes) as server:
        output = asyncio.run(_generate(target[1], server.base_url))
    assert output == "moved here"
    assert [r["path"] for r in server.requests] == ["/v1/chat/completions", "/v2/chat/completions"]


async def _generate(spec: str, base_url: str) -> str:
    target = create_target(spec, {"base_url": base_url})
    async with target:
        return (await target.generate(CASE)).output


@cache
def _completion_of(size: int) -> bytes:
    """A chat completion whose content is ``size`` bytes of "a"."""
    return b'{"choices": [{"message": {"content": "' + b"a" * size + b'"}}]}'


@cache
def _bomb(size: int) -> bytes:
    """A gzip body of a few hundred KB that inflates to a ``size``-byte chat completion."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    parts = [packer.compress(b'{"choices": [{"message": {"content": "')]
    parts += [packer.compress(b"a" * (1 << 20)) for _ in range(size >> 20)]
    return b"".join([*parts, packer.compress(b'"}}]}'), packer.flush()])


SPECS = ["openai-sdk:m", pytest.param("litellm:openai/m", marks=_LITELLM)]


@pytest.mark.parametrize("spec", SPECS)
def test_a_compression_bomb_is_cut_off_at_the_cap_and_never_held(spec: str) -> None:
    """A first, small answer warms the target up; the second, a gzip body that inflates to four
    times the cap, is cut off there: the call never holds twice the cap (reading it whole
    holds the inflated body and its copies)."""
    body = _bomb(4 * MAX_BODY_BYTES)
    assert len(body) < 1 << 20 and len(gzip.decompress(body)) > 4 * MAX_BODY_BYTES
    bomb = raw(200, body, {"Content-Encoding": "gzip"})
    with HostileServer({"/v1/chat/completions": sequence(answer_with("warm"), bomb)}) as server:
        error, peak = asyncio.run(_second_call_error(spec, server.base_url))
    assert f"larger than {MAX_BODY_BYTES:,} bytes; failproof reads no more" in error
    assert peak < 2 * MAX_BODY_BYTES


@pytest.mark.parametrize("spec", SPECS)
def test_a_plain_answer_past_the_cap_is_an_error(spec: str) -> None:
    huge = raw(200, _completion_of(MAX_BODY_BYTES + 10))
    with HostileServer({"/v1/chat/completions": sequence(answer_with("warm"), huge)}) as server:
        error, _ = asyncio.run(_second_call_error(spec, server.base_url))
    assert f"larger than {MAX_BODY_BYTES:,} bytes; failproof reads no more" in error


async def _second_call_error(spec: str, base_url: str) -> tuple[str, int]:
    """The second call's error and the most memory it held at once."""
    target = create_target(spec, {"base_url": base_url})
    async with target:
        await target.generate(CASE)
        tracemalloc.start()
        try:
            with pytest.raises(CallError) as caught:
                await target.generate(CASE)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    return caught.value.message, peak
