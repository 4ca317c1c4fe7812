"""Scoring in worker processes: the same results as inline, failures surfaced, stops quiet."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from failproof.config import Settings
from failproof.core import Case, CaseResult, Response, Suite
from failproof.errors import PluginError
from failproof.runner._pool import PoolScoring, ScoringWorkerLost, _scored, _written, can_fork
from failproof.runner._record import resolve_scoring
from failproof.runner._scoring import Scored, ScoreJob, score_jobs
from failproof.runner._stop import stop_signals
from failproof.scoring import build_scorers

pytestmark = pytest.mark.skipif(not can_fork(), reason="scoring workers are forked")

CASES = [
    Case(id=f"c{i}", suite="s", input=f"question {i}", expect={"must_not_contain": ["secret"]})
    for i in range(150)
]


def answers() -> list[ScoreJob]:
    outputs = ["a plain answer", "the secret is 42", "I can't help with that."]
    return [(case, Response.from_output(outputs[i % 3]), i % 2) for i, case in enumerate(CASES)]


@pytest.fixture
def pool(tmp_path: Path) -> Iterator[PoolScoring]:
    settings = Settings(home=tmp_path)
    scoring = resolve_scoring(settings, [Suite(name="s", cases=CASES)])
    pool = PoolScoring(scoring, build_scorers(scoring), workers=2)
    yield pool
    pool.close()


def inline(tmp_path: Path, jobs: list[ScoreJob]) -> list[dict[str, object]]:
    settings = Settings(home=tmp_path)
    scoring = resolve_scoring(settings, [Suite(name="s", cases=CASES)])
    return [r.model_dump() for r in score_jobs(jobs, build_scorers(scoring))]


def test_the_workers_score_a_batch_exactly_as_inline_scoring_does(
    pool: PoolScoring, tmp_path: Path
) -> None:
    jobs = answers()  # more than one message's worth: split over both workers, order kept

    results = asyncio.run(pool.score_many(jobs))

    assert [r.model_dump() for r in results] == inline(tmp_path, jobs)
    assert len({r.primary for r in results}) == 3  # the three answers are told apart


def test_each_result_comes_back_with_the_json_the_store_writes(pool: PoolScoring) -> None:
    scored = asyncio.run(pool.score_written(answers()[:5]))

    assert [s.json for s in scored] == [s.result.model_dump_json() for s in scored]


def test_a_result_json_cannot_carry_travels_as_itself() -> None:
    broken = CaseResult(case_id="c", suite="s", category="c", severity="low", output="a\ud800b")

    sent = _written(broken)

    assert sent is broken
    assert _scored(sent) == Scored(broken, None)


def test_one_answer_scored_alone_is_scored_like_the_batch(
    pool: PoolScoring, tmp_path: Path
) -> None:
    case, response, sample = answers()[1]

    result = asyncio.run(pool.score(case, response, sample))

    assert result.model_dump() == inline(tmp_path, [(case, response, sample)])[0]


def test_a_reply_for_a_stopped_run_is_dropped_quietly(pool: PoolScoring) -> None:
    async def stop_while_scoring() -> None:
        waiting = asyncio.ensure_future(pool.score_many(answers()))
        await asyncio.sleep(0)  # the batch is on its way to the workers
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting

    asyncio.run(stop_while_scoring())  # the loop closes with the replies still coming

    pool.close()  # the workers finish their batch and leave; nothing raises


def test_scoring_after_every_worker_died_fails_instead_of_waiting(pool: PoolScoring) -> None:
    for worker in pool._workers:
        assert worker.process.pid is not None
        os.kill(worker.process.pid, signal.SIGKILL)
        worker.process.join()

    with pytest.raises(ScoringWorkerLost, match="stopped"):
        asyncio.run(pool.score_many(answers()[:3]))


def test_a_worker_killed_mid_batch_fails_the_answers_it_had(pool: PoolScoring) -> None:
    pids = [worker.process.pid for worker in pool._workers]
    for pid in pids:  # held still, so that the batch is surely theirs when they die
        assert pid is not None
        os.kill(pid, signal.SIGSTOP)

    async def kill_then_wait() -> None:
        waiting = asyncio.ensure_future(pool.score_many(answers()))
        await asyncio.sleep(0)  # the batch is handed to the workers
        for pid in pids:
            assert pid is not None
            os.kill(pid, signal.SIGKILL)
        with pytest.raises(ScoringWorkerLost, match="exit code -9"):
            await waiting

    asyncio.run(kill_then_wait())


def test_a_worker_that_cannot_build_its_scorers_fails_the_start_with_the_reason(
    tmp_path: Path,
) -> None:
    class Unknown:
        name = "no-such-scorer"
        closed = False

        def close(self) -> None:
            self.closed = True

    scoring = resolve_scoring(Settings(home=tmp_path), [Suite(name="s", cases=CASES)])
    unknown = Unknown()

    with pytest.raises(PluginError, match="unknown scorer 'no-such-scorer'"):
        PoolScoring(scoring, [unknown], workers=1)  # type: ignore[list-item]

    assert unknown.closed


def test_a_stop_signal_to_the_process_group_leaves_the_workers_to_the_runner(
    tmp_path: Path,
) -> None:
    """A run stopped with SIGTERM (``kill`` of its process group, a container's stop) stops in
    its runner, which closes the workers; a worker that took the signal itself would die with a
    traceback from inside whatever it was scoring."""
    scoring = resolve_scoring(Settings(home=tmp_path), [Suite(name="s", cases=CASES)])
    with stop_signals():  # the run's handlers, inherited by the forked workers
        pool = PoolScoring(scoring, build_scorers(scoring), workers=2)
    try:
        for worker in pool._workers:
            assert worker.process.pid is not None
            os.kill(worker.process.pid, signal.SIGTERM)

        results = asyncio.run(pool.score_many(answers()))

        assert [r.model_dump() for r in results] == inline(tmp_path, answers())
        assert all(worker.process.is_alive() for worker in pool._workers)
    finally:
        pool.close()
