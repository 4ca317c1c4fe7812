"""Medium 11: token counts from a server cannot stall a run or cost a good answer."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from tests.hostile.conftest import read_report, write_suite
from tests.hostile.servers import HostileServer, raw

from failproof.cli import main
from failproof.core import Response
from failproof.runner._limits import RateLimiter

OK_CHOICE = '"choices": [{"index": 0, "message": {"role": "assistant", "content": "ok"}}]'


@pytest.mark.parametrize(
    "usage",
    [
        pytest.param('{"prompt_tokens": "12", "completion_tokens": 3}', id="string"),
        pytest.param('{"prompt_tokens": -5, "completion_tokens": 3}', id="negative"),
        pytest.param('{"prompt_tokens": 1.5, "completion_tokens": 3}', id="fraction"),
        pytest.param('{"prompt_tokens": true, "completion_tokens": 3}', id="bool"),
        pytest.param('{"prompt_tokens": 1e400, "completion_tokens": 3}', id="infinite"),
        pytest.param('{"prompt_tokens": ' + "9" * 5000 + "}", id="5000-digits"),
        pytest.param('{"prompt_tokens": [1], "completion_tokens": {"a": 1}}', id="containers"),
        pytest.param('"lots"', id="not-an-object"),
        pytest.param('{"prompt_tokens": 100000000000000}', id="absurd"),
    ],
)
def test_malformed_usage_keeps_the_answer(workdir: Path, usage: str) -> None:
    suite = write_suite(workdir, [{"id": "c", "input": "x", "expect": {"must_contain": ["ok"]}}])
    body = f'{{{OK_CHOICE}, "usage": {usage}}}'
    with HostileServer({"/v1/chat/completions": raw(200, body)}) as server:
        args = ["-t", "openai:m", "--base-url", server.base_url, "-q", "-f", "json"]
        assert main(["run", suite, *args, "--tpm", "1000000"]) == 0
    (result,) = read_report(workdir)["results"]
    assert result["output"] == "ok"
    assert result["completion_tokens"] in (None, 3)


def test_unusable_token_counts_are_dropped_and_noted() -> None:
    response = Response(output="ok", prompt_tokens=10**15, completion_tokens=3)
    assert response.prompt_tokens is None
    assert response.completion_tokens == 3
    assert response.repairs is not None and response.repairs.dropped == ["prompt_tokens"]


def test_one_huge_count_delays_later_calls_by_at_most_a_minute() -> None:
    now = [0.0]
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    limiter = RateLimiter(1000, clock=lambda: now[0], sleep=sleep)
    limiter.charge(9_000_000)
    asyncio.run(limiter.acquire(1))
    assert slept and max(slept) <= 60.0
    limiter.charge(float("inf"))
    limiter.charge(float("nan"))
    asyncio.run(limiter.acquire(float("inf")))
    assert max(slept) <= 121.0  # two capped charges: two minutes at most
