"""The runner against a real OpenAI-compatible server on 127.0.0.1, one scripted failure at a time.

Each test counts the requests the server saw.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.fakes.openai_server import (
    Answer,
    Behaviour,
    Drop,
    FakeOpenAI,
    Malformed,
    NoChoices,
    Slow,
    Status,
)
from tests.runner.helpers import numbered_cases, settings, write_suite

from failproof.metrics._consistency import ConsistencySection
from failproof.runner import RunAborted, RunOutcome, RunRequest, start_run
from failproof.store import Store


def run(
    fake: FakeOpenAI, tmp_path: Path, n: int = 4, repeat: int = 1, **run_settings: Any
) -> RunOutcome:
    tmp_path.mkdir(parents=True, exist_ok=True)
    suite = write_suite(tmp_path / "s.yaml", "s", numbered_cases(n))
    request = RunRequest(
        suites=(str(suite),),
        target="openai:test-model",
        target_options={"base_url": fake.base_url, "params": {"temperature": 0}},
        repeat=repeat,
    )
    config = settings(tmp_path / "home", **run_settings)
    with Store(config.db_path) as store:
        return start_run(
            request, settings=config, store=store, responses_path=tmp_path / "out/responses.jsonl"
        )


def test_a_normal_run_stores_every_case_and_writes_replayable_responses(
    fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    outcome = run(fake_openai, tmp_path, n=6, concurrency=3)
    assert fake_openai.total == 6
    assert outcome.report.summary.total_cases == 6
    assert outcome.report.summary.counts["pass"] == 6
    assert outcome.run.status == "finished"
    lines = (tmp_path / "out/responses.jsonl").read_text().splitlines()
    assert sorted(json.loads(line)["case_id"] for line in lines) == [f"q{i}" for i in range(6)]
    assert outcome.run.target == {
        "name": "openai",
        "model": "test-model",
        "base_url": fake_openai.base_url,
        "params": {"temperature": 0},
    }


@pytest.mark.parametrize(
    ("steps", "requests", "error"),
    [
        pytest.param([Status(429, "0"), Answer()], 2, None, id="429-then-ok-is-retried"),
        pytest.param([Status(503, "0"), Answer()], 2, None, id="503-then-ok-is-retried"),
        pytest.param([Status(500)], 3, "HTTP 500", id="500-retried-until-retries-run-out"),
        pytest.param([Drop(), Answer()], 2, None, id="dropped-connection-is-retried"),
        pytest.param([Slow(1.0)], 3, "no answer within", id="slow-past-the-timeout-is-retried"),
        pytest.param([Status(400)], 1, "HTTP 400", id="400-is-not-retried"),
        pytest.param([Malformed()], 1, "not valid JSON", id="malformed-json-is-not-retried"),
        pytest.param([NoChoices()], 1, "without any choice", id="empty-choices-is-not-retried"),
    ],
)
def test_scripted_failures(
    fake_openai: FakeOpenAI,
    tmp_path: Path,
    steps: list[Behaviour],
    requests: int,
    error: str | None,
) -> None:
    fake_openai.script = {"q0": steps}
    outcome = run(fake_openai, tmp_path, n=2, retries=2, timeout_s=0.3)
    assert fake_openai.counts["q0"] == requests
    assert fake_openai.counts["q1"] == 1
    result = {r.case_id: r for r in outcome.report.results}["q0"]
    if error is None:
        assert result.error is None and result.output == "q0"
    else:
        assert result.error is not None and error in result.error
        assert result.primary == "error"


def test_the_cache_answers_a_second_run_without_calling_the_server(
    fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    run(fake_openai, tmp_path, n=3)
    second = run(fake_openai, tmp_path, n=3)
    assert fake_openai.total == 3
    assert all(r.cached for r in second.report.results)


def test_no_cache_calls_the_server_again(fake_openai: FakeOpenAI, tmp_path: Path) -> None:
    run(fake_openai, tmp_path, n=3)
    run(fake_openai, tmp_path, n=3, cache=False)
    assert fake_openai.total == 6


def test_repeat_samples_every_case_and_reports_consistency(
    fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    fake_openai.script = {"q1": [Answer("wrong"), Answer()]}
    outcome = run(fake_openai, tmp_path, n=2, repeat=3)
    assert fake_openai.counts == {"q0": 3, "q1": 3}
    assert sorted(r.sample for r in outcome.report.results if r.case_id == "q0") == [0, 1, 2]
    section = outcome.report.extensions["consistency"]
    assert isinstance(section, ConsistencySection)
    assert section.pass_hat_n == 0.5
    flips = {c.case_id: c.flip_rate for c in section.cases}
    assert flips == {"q0": 0.0, "q1": 0.5}
    assert (tmp_path / "out/responses.sample2.jsonl").is_file()


def test_consecutive_failures_abort_the_run_saying_what_the_target_answered(
    fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    fake_openai.default = Status(401, message="invalid api key")
    with pytest.raises(RunAborted, match="HTTP 401: invalid api key"):
        run(fake_openai, tmp_path, n=20, concurrency=1, max_consecutive_failures=5)
    assert fake_openai.total == 5
    with Store(tmp_path / "home/failproof.db") as store:
        (summary,) = store.list_runs()
    assert summary.status == "failed"


def test_scoring_in_worker_processes_gives_the_same_results(
    fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    fake_openai.script = {"q1": [Answer("something else")]}
    pooled = run(fake_openai, tmp_path / "a", n=5, concurrency=16, score_workers=1, cache=False)
    inline = run(fake_openai, tmp_path / "b", n=5, concurrency=16, score_workers=0, cache=False)

    def verdicts(outcome: RunOutcome) -> list[tuple[str, str, object]]:
        return [(r.case_id, r.primary, r.case_score) for r in outcome.report.results]

    assert verdicts(pooled) == verdicts(inline)
    assert [p for _, p, _ in verdicts(pooled)] == ["pass", "fail", "pass", "pass", "pass"]
