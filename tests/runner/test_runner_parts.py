"""The runner's small parts: rate limits, retry delays, options, consistency, demo, progress."""

from __future__ import annotations

import asyncio
import io
import random
from pathlib import Path

import pytest
from rich.console import Console

from failproof.cli._demo_cases import demo_cases
from failproof.cli._target_options import (
    parse_headers,
    parse_params,
    target_options,
    templatize_env,
)
from failproof.core import Case, CaseResult, Classification, Suite
from failproof.errors import ConfigError
from failproof.metrics._consistency import case_consistency
from failproof.runner import RunRequest
from failproof.runner._limits import RateLimiter
from failproof.runner._progress_bar import BarProgress
from failproof.runner._progress_lines import CaseProgress, PlainProgress
from failproof.runner._responses import ResponsesWriter
from failproof.runner._retry import RetryPolicy
from failproof.runner._scoring import auto_score_workers
from failproof.targets import CallError
from failproof.targets._replay import load_responses


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(round(seconds, 6))
        self.now += seconds


def test_rate_limiter_spreads_requests_evenly() -> None:
    clock = FakeClock()
    limiter = RateLimiter(120, clock=clock, sleep=clock.sleep)  # one every 0.5 s

    async def go() -> None:
        for _ in range(4):
            await limiter.acquire()

    asyncio.run(go())
    assert clock.slept == [0.5, 0.5, 0.5]


def test_token_limiter_charges_what_a_response_really_used() -> None:
    clock = FakeClock()
    limiter = RateLimiter(600, clock=clock, sleep=clock.sleep)  # 10 tokens a second

    async def go() -> None:
        await limiter.acquire(10)
        limiter.charge(20)  # the answer used 20 more tokens than estimated
        await limiter.acquire(10)

    asyncio.run(go())
    assert clock.slept == [3.0]


@pytest.mark.parametrize(
    ("attempt", "low", "high"),
    [
        pytest.param(0, 0.5, 1.0, id="first-retry-half-to-full-base"),
        pytest.param(2, 2.0, 4.0, id="doubles-every-retry"),
        pytest.param(10, 4.0, 8.0, id="capped-at-max"),
    ],
)
def test_backoff_is_exponential_jittered_and_capped(attempt: int, low: float, high: float) -> None:
    policy = RetryPolicy(retries=20, base_s=1.0, max_s=8.0, rng=random.Random(3))
    delays = [policy.delay(CallError("x", retryable=True), attempt) for _ in range(50)]
    assert all(low <= d <= high for d in delays)
    assert len(set(delays)) > 1


def test_backoff_with_a_seed_is_reproducible() -> None:
    def delays(seed: int) -> list[float]:
        policy = RetryPolicy(rng=random.Random(seed))
        return [policy.delay(CallError("x", retryable=True), n) for n in range(3)]

    assert delays(5) == delays(5)
    assert delays(5) != delays(6)


def test_retry_after_beyond_the_cap_is_capped() -> None:
    policy = RetryPolicy(base_s=0.0)
    assert policy.delay(CallError("x", retryable=True, retry_after=9999), 0) == 300.0


@pytest.mark.parametrize(
    ("items", "expected"),
    [
        pytest.param(["temperature=0"], {"temperature": 0}, id="number"),
        pytest.param(['stop=["\\n"]'], {"stop": ["\n"]}, id="json-list"),
        pytest.param(["user=bob smith"], {"user": "bob smith"}, id="plain-text"),
        pytest.param(["a=1", "a=2"], {"a": 2}, id="last-wins"),
    ],
)
def test_params(items: list[str], expected: dict[str, object]) -> None:
    assert parse_params(items) == expected


def test_a_param_without_equals_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="key=value"):
        parse_params(["temperature"])


def test_an_expanded_secret_in_a_header_is_stored_as_its_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("APP_TOKEN", "tok-abcdefgh-123")
    headers = parse_headers(["Authorization=Bearer tok-abcdefgh-123", "X-Team: red"])
    assert headers == {"Authorization": "Bearer ${APP_TOKEN}", "X-Team": "red"}
    assert templatize_env("no secret here", {"A": "secret-value"}) == "no secret here"


def test_a_base_url_with_a_password_is_refused() -> None:
    with pytest.raises(ConfigError, match="password"):
        target_options(base_url="https://user:pw@host/v1")


def test_target_options_keep_only_what_was_given() -> None:
    options = target_options(params=["seed=1"], body='{"q": "{{input}}"}', json_path="$.a")
    assert options == {"params": {"seed": 1}, "body": {"q": "{{input}}"}, "json_path": "$.a"}


def result(case_id: str, passed: bool, sample: int) -> CaseResult:
    primary = "pass" if passed else "fail"
    return CaseResult(
        case_id=case_id,
        suite="s",
        category="c",
        severity="low",
        sample=sample,
        classification=Classification(primary=primary),
        accuracy=int(passed),
    )


@pytest.mark.parametrize(
    ("verdicts", "pass_all", "pass_rate", "flip_rate"),
    [
        pytest.param([True, True, True], 1, 1.0, 0.0, id="stable-pass"),
        pytest.param([False, False], 0, 0.0, 0.0, id="stable-fail"),
        pytest.param([True, False, True, False], 0, 0.5, 1.0, id="alternating"),
        pytest.param([True, True, False, False], 0, 0.5, 1 / 3, id="one-flip-in-three-pairs"),
    ],
)
def test_case_consistency(
    verdicts: list[bool], pass_all: int, pass_rate: float, flip_rate: float
) -> None:
    samples = [result("c", v, i) for i, v in enumerate(verdicts)]
    out = case_consistency(list(reversed(samples)))
    assert (out.pass_all, out.pass_rate) == (pass_all, pass_rate)
    assert out.flip_rate == pytest.approx(flip_rate)


def suite(name: str, n: int, demo: set[int] = frozenset()) -> Suite:  # type: ignore[assignment]
    cases = tuple(
        Case(id=f"{name}{i}", suite=name, input="x", metadata={"demo": i in demo}) for i in range(n)
    )
    return Suite(name=name, cases=cases)


def test_demo_takes_marked_cases_mixed_across_suites() -> None:
    picked = demo_cases([suite("a", 5, {1, 3, 4}), suite("b", 5, {0})], limit=3)
    assert [c.id for c in picked] == ["a1", "b0", "a3"]


def test_demo_without_marks_takes_the_first_cases_in_turn() -> None:
    picked = demo_cases([suite("a", 3), suite("b", 1)], limit=4)
    assert [c.id for c in picked] == ["a0", "b0", "a1", "a2"]


@pytest.mark.parametrize(
    ("concurrency", "setting", "workers"),
    [
        pytest.param(64, 0, 0, id="zero-means-inline"),
        pytest.param(64, 3, 3, id="explicit-count"),
        pytest.param(4, None, 0, id="low-concurrency-scores-inline"),
    ],
)
def test_score_workers(concurrency: int, setting: int | None, workers: int) -> None:
    assert auto_score_workers(concurrency, setting) == workers


def test_request_round_trips_through_the_run_config() -> None:
    request = RunRequest(
        suites=("a", "/x/b.yaml"),
        target="openai:m",
        target_options={"params": {"seed": 1}},
        repeat=2,
        only=(("a", "1"),),
    )
    assert RunRequest.from_config(request.to_config()) == request


def test_responses_file_is_rewritten_from_the_store_on_resume_and_replays(tmp_path: Path) -> None:
    path = tmp_path / "responses.jsonl"
    path.write_text('{"case_id": "stale"}\n{"case_id": "half-writ', encoding="utf-8")
    writer = ResponsesWriter(path, kept=[result("a", True, 0)])
    writer(result("b", False, 0))
    writer(result("b", False, 1))
    writer.close()
    assert sorted(load_responses(path).by_key) == [("s", "a"), ("s", "b")]
    assert list(load_responses(tmp_path / "responses.sample1.jsonl").by_key) == [("s", "b")]


def test_plain_progress_prints_counts_rate_and_eta() -> None:
    stream = io.StringIO()
    progress = PlainProgress(stream, interval_s=3600)
    progress.start(total=4, done=1)
    progress(result("a", True, 0))
    progress(result("b", False, 0))
    progress.close()
    lines = stream.getvalue().splitlines()
    assert lines[0] == "failproof: resuming: 1 of 4 already done"
    assert lines[1].startswith("failproof: 3/4 (75%)")
    assert "ETA" in lines[1] and "pass 1" in lines[1] and "fail 1" in lines[1]


def test_the_bar_moves_once_per_stored_group_and_shows_every_result_by_the_end() -> None:
    progress = BarProgress(Console(file=io.StringIO(), force_terminal=True))
    progress.start(total=3, done=0)
    progress(result("a", True, 0))
    progress(result("b", False, 0))
    progress.flush()
    progress(result("c", True, 0))
    progress.close()
    (task,) = progress._bar.tasks
    assert task.completed == 3
    assert "pass 2" in task.fields["counts"] and "fail 1" in task.fields["counts"]


def test_case_progress_prints_one_line_per_answer_with_ids_escaped() -> None:
    stream = io.StringIO()
    progress = CaseProgress(stream)
    progress.start(total=2, done=0)
    progress(result("a", True, 0))
    progress(result("b\x1b[2Jc", False, 0))
    lines = stream.getvalue().splitlines()
    assert lines[0] == "failproof: 2 cases to answer; the first waits for the model to load"
    assert lines[1].startswith("failproof: [1/2]") and lines[1].endswith("pass             s/a")
    assert lines[2].startswith("failproof: [2/2]") and lines[2].endswith("s/b\\x1b[2Jc")
    assert "\x1b" not in stream.getvalue()
