"""High 3: no server can make a run wait longer than the cap, and every wait is said and kept."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from tests.hostile.conftest import read_report, write_suite
from tests.hostile.servers import HostileServer, answer_with, raw, sequence

from failproof.cli import main
from failproof.runner._limits import AdaptiveGate
from failproof.targets import CallError
from failproof.targets._aio import parse_retry_after
from failproof.targets._base import MAX_RETRY_AFTER_S


@pytest.mark.parametrize(
    "header",
    [
        pytest.param("99999", id="huge-seconds"),
        pytest.param("inf", id="inf"),
        pytest.param("Infinity", id="infinity"),
        pytest.param("1e308", id="1e308"),
        pytest.param("Fri, 31 Dec 9999 23:59:59 GMT", id="year-9999"),
    ],
)
def test_a_retry_after_is_capped_whatever_the_server_says(header: str) -> None:
    assert parse_retry_after(header) == MAX_RETRY_AFTER_S


@pytest.mark.parametrize("header", ["nan", "-5", "soon", ""])
def test_a_meaningless_retry_after_is_no_wait(header: str) -> None:
    assert parse_retry_after(header) in (None, 0.0)


@pytest.mark.parametrize("seconds", [math.inf, 1e12, math.nan])
def test_no_call_error_carries_a_wait_past_the_cap(seconds: float) -> None:
    wait = CallError("429", retryable=True, retry_after=seconds, status=429).retry_after
    assert wait is None or 0 <= wait <= MAX_RETRY_AFTER_S


def test_the_pause_of_new_calls_is_capped() -> None:
    now = [0.0]
    gate = AdaptiveGate(4, clock=lambda: now[0])
    assert gate.throttled(1e12) == MAX_RETRY_AFTER_S
    gate_short = AdaptiveGate(4, clock=lambda: now[0], max_pause_s=2.0)
    assert gate_short.throttled(99999.0) == 2.0


def test_a_429_with_a_huge_retry_after_is_waited_out_said_and_reported(
    workdir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAILPROOF_RUN__MAX_WAIT_S", "0.05")
    suite = write_suite(workdir, [{"id": "c", "input": "x", "expect": {"must_contain": ["ok"]}}])
    throttle = raw(429, '{"error": "slow down"}', {"Retry-After": "inf"})
    routes = {"/v1/chat/completions": sequence(throttle, answer_with("ok"))}
    with HostileServer(routes) as server:
        code = main(["run", suite, "-t", "openai:m", "--base-url", server.base_url, "-f", "all"])
    assert code == 0
    err = capsys.readouterr().err
    assert "waiting 0 s: the server answered 429" in err
    calls = read_report(workdir)["run"]["config"]["calls"]
    assert calls["throttled"] == 1
    assert calls["waits"] >= 1
    assert calls["longest_wait_s"] <= 0.05
    (markdown,) = workdir.glob("failproof-results/*/report.md")
    assert "The server throttled 1 calls" in markdown.read_text(encoding="utf-8")
