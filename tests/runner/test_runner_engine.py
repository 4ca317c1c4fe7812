"""The engine with the mock target: retries, backoff, abort, cache, storage as results arrive."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import warnings
from collections.abc import Sequence
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from failproof.core import Case, CaseResult, Response, Run
from failproof.runner import RunAborted
from failproof.runner._calls import Caller
from failproof.runner._engine import Engine
from failproof.runner._finish import Finished, Finisher
from failproof.runner._limits import AdaptiveGate
from failproof.runner._plan import WorkItem, cache_key, plan_work
from failproof.runner._responses import ResponsesWriter
from failproof.runner._retry import RetryPolicy
from failproof.runner._scoring import InlineScoring
from failproof.store import Store
from failproof.targets import CallError, MockTarget, Target

CASES = [Case(id=f"c{i}", suite="s", input=f"say c{i}") for i in range(5)]


class Flaky(Target):
    """Fails the first ``failures`` calls of each case with ``error``, then echoes."""

    name = "flaky"

    def __init__(self, failures: int, error: CallError) -> None:
        self.failures = failures
        self.error = error
        self.calls: dict[str, int] = {}

    async def generate(self, case: Case) -> Response:
        self.calls[case.id] = self.calls.get(case.id, 0) + 1
        if self.calls[case.id] <= self.failures:
            raise self.error
        return Response.from_output(case.messages()[-1].content)


class Sleeps:
    """An injectable sleep that records the delays instead of waiting."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


def make_engine(
    target: Target,
    store: Store,
    *,
    retries: int = 3,
    sleep: Sleeps | None = None,
    use_cache: bool = False,
    abort_after: int = 0,
    workers: int = 4,
    sinks: Sequence[object] = (),
) -> Engine:
    caller = Caller(
        target=target,
        timeout_s=5.0,
        policy=RetryPolicy(retries=retries, base_s=1.0, max_s=8.0, rng=random.Random(0)),
        gate=AdaptiveGate(workers),
        sleep=sleep or Sleeps(),
    )
    return Engine(
        caller=caller,
        scoring=InlineScoring([]),
        store=store,
        run_id="r1",
        workers=workers,
        use_cache=use_cache,
        max_consecutive_failures=abort_after,
        sinks=list(sinks),  # type: ignore[arg-type]
    )


@pytest.fixture
def store(tmp_path: Path) -> Store:
    from failproof.core import Run

    db = Store(tmp_path / "f.db")
    db.create_run(Run(id="r1", target={"name": "t"}))
    return db


def run(engine: Engine, cases: Sequence[Case] = CASES) -> None:
    asyncio.run(engine.run(WorkItem(c) for c in cases))


def test_every_result_is_stored_and_handed_to_sinks(store: Store) -> None:
    seen: list[CaseResult] = []
    run(make_engine(MockTarget(), store, sinks=[seen.append]))
    assert store.count_results("r1") == len(CASES)
    assert sorted(r.case_id for r in seen) == [c.id for c in CASES]
    assert {r.output for r in store.results("r1")} == {f"say c{i}" for i in range(5)}


class CountingStore(Store):
    """A real store that also records how many results each commit held."""

    commits: list[int]

    def add_results(
        self, run_id: str, results: Sequence[CaseResult], *rest: Any, **options: Any
    ) -> None:
        super().add_results(run_id, results, *rest, **options)
        self.commits = [*getattr(self, "commits", []), len(results)]


def test_answers_arriving_together_share_one_commit_and_each_is_reported_after_it(
    tmp_path: Path,
) -> None:
    store = CountingStore(tmp_path / "f.db")
    store.create_run(Run(id="r1", target={"name": "t"}))
    committed: list[bool] = []

    def sink(result: CaseResult) -> None:  # reads the way another process (or a resume) would
        with closing(sqlite3.connect(tmp_path / "f.db")) as other:
            query = "SELECT COUNT(*) FROM results WHERE case_id = ?"
            committed.append(other.execute(query, (result.case_id,)).fetchone() == (1,))

    run(make_engine(MockTarget(), store, workers=5, sinks=[sink]))

    assert committed == [True] * len(CASES)
    assert sum(store.commits) == len(CASES)
    assert len(store.commits) < len(CASES)


def test_the_responses_file_holds_every_stored_result_before_it_is_closed(
    store: Store, tmp_path: Path
) -> None:
    writer = ResponsesWriter(tmp_path / "responses.jsonl")
    run(make_engine(MockTarget(), store, sinks=[writer]))
    lines = (tmp_path / "responses.jsonl").read_text(encoding="utf-8").splitlines()
    writer.close()
    assert sorted(json.loads(line)["case_id"] for line in lines) == [c.id for c in CASES]


def test_a_retryable_error_is_retried_with_growing_jittered_delays(store: Store) -> None:
    sleeps = Sleeps()
    target = Flaky(2, CallError("HTTP 500: boom", retryable=True, status=500))
    run(make_engine(target, store, sleep=sleeps), CASES[:1])
    assert target.calls == {"c0": 3}
    assert [r.error for r in store.results("r1")] == [None]
    first, second = sleeps.delays
    assert 0.5 <= first <= 1.0 and 1.0 <= second <= 2.0


def test_retry_after_is_a_floor_for_the_delay(store: Store) -> None:
    sleeps = Sleeps()
    target = Flaky(1, CallError("HTTP 429: slow down", retryable=True, retry_after=7, status=429))
    run(make_engine(target, store, sleep=sleeps), CASES[:1])
    assert sleeps.delays == [7]


def test_a_non_retryable_error_is_called_once_and_stored_as_an_error(store: Store) -> None:
    target = Flaky(99, CallError("HTTP 401: bad key", status=401))
    run(make_engine(target, store), CASES[:1])
    assert target.calls == {"c0": 1}
    (result,) = store.results("r1")
    assert result.error == "HTTP 401: bad key"


def test_retries_run_out_and_the_error_says_so(store: Store) -> None:
    target = Flaky(99, CallError("HTTP 503: down", retryable=True, status=503))
    run(make_engine(target, store, retries=2), CASES[:1])
    assert target.calls == {"c0": 3}
    (result,) = store.results("r1")
    assert result.error == "HTTP 503: down (gave up after 3 attempts)"


def test_a_target_that_raises_anything_else_gives_an_error_result(store: Store) -> None:
    class Broken(Target):
        async def generate(self, case: Case) -> Response:
            raise ValueError("bug in plugin")

    run(make_engine(Broken(), store), CASES[:2])
    assert {r.error for r in store.results("r1")} == {"the target raised ValueError: bug in plugin"}


def test_consecutive_failures_abort_with_what_the_target_answered(store: Store) -> None:
    target = Flaky(99, CallError("HTTP 401: invalid api key", status=401))
    engine = make_engine(target, store, abort_after=3, workers=1)
    with pytest.raises(RunAborted, match=r"3 failed calls in a row.*HTTP 401: invalid api key"):
        run(engine, CASES)
    assert store.count_results("r1") == 3  # the failures are kept; resume calls them again
    assert sum(target.calls.values()) == 3


def test_cache_serves_identical_requests_and_never_caches_errors(store: Store) -> None:
    target = MockTarget({"c1": CallError("nope")})
    run(make_engine(target, store, use_cache=True), CASES[:2])
    run(make_engine(target, store, use_cache=True), CASES[:2])
    assert target.calls == {"c0": 1, "c1": 2}
    cached = {r.case_id: r.cached for r in store.results("r1")}
    assert cached == {"c0": True, "c1": False}


def test_cache_key_depends_on_identity_and_messages() -> None:
    case = CASES[0]
    base = cache_key({"name": "openai", "params": {"temperature": 0}}, case)
    assert base == cache_key({"params": {"temperature": 0}, "name": "openai"}, case)
    assert base != cache_key({"name": "openai", "params": {"temperature": 1}}, case)
    assert base != cache_key({"name": "openai", "params": {"temperature": 0}}, CASES[1])


def test_throttling_halves_the_gate_and_success_restores_it() -> None:
    gate = AdaptiveGate(16, recover_after=2)
    gate.throttled(None)
    gate.throttled(None)
    assert gate.limit == 4
    for _ in range(4):
        gate.succeeded()
    assert gate.limit == 6
    for _ in range(10):
        gate.throttled(None)
    assert gate.limit == 1


def test_a_429_storm_reduces_effective_concurrency(store: Store) -> None:
    target = Flaky(1, CallError("HTTP 429", retryable=True, status=429))
    engine = make_engine(target, store, workers=8)
    run(engine, CASES)
    assert engine.caller.gate.limit < 8
    assert engine.caller.stats.throttled == len(CASES)


def test_plan_skips_done_keys_and_repeats_samples() -> None:
    from failproof.core import Suite

    suite = Suite(name="s", cases=tuple(CASES[:2]))
    keys = [w.key for w in plan_work(suite.cases, 3, skip={("s", "c0", 1)})]
    assert keys == [("s", "c0", 0), ("s", "c0", 2), ("s", "c1", 0), ("s", "c1", 1), ("s", "c1", 2)]


class Held(Target):
    """Holds every call until released; counts the calls begun."""

    name = "held"

    def __init__(self) -> None:
        self.begun = 0
        self.release = asyncio.Event()

    async def generate(self, case: Case) -> Response:
        self.begun += 1
        await self.release.wait()
        return Response.from_output(case.messages()[-1].content)


def test_started_is_told_once_when_every_worker_has_made_its_first_call(store: Store) -> None:
    target = Held()
    engine = make_engine(target, store, workers=3)
    begun_when_told: list[int] = []

    def started() -> None:
        begun_when_told.append(target.begun)
        target.release.set()

    engine.started = started
    run(engine)
    assert begun_when_told == [3]
    assert store.count_results("r1") == len(CASES)


def test_answers_handed_over_as_the_run_stops_stay_unstored_for_the_stop_to_keep(
    store: Store,
) -> None:
    """The end-of-iteration flush of answers that came as the run's task group stopped: no
    traceback from the event loop, nothing scored or stored, the answers kept as unstored."""
    errors: list[dict[str, Any]] = []
    stored: list[CaseResult] = []
    finished = Finished(WorkItem(CASES[0]), Response.from_output("an answer"), None)

    async def stopped_with_an_answer_waiting() -> Finisher:
        asyncio.get_running_loop().set_exception_handler(lambda _loop, ctx: errors.append(ctx))
        try:
            async with asyncio.TaskGroup() as group:
                finisher = Finisher(
                    InlineScoring([]), store, "r1", group.create_task, stored.append, lambda _: None
                )
                finisher.add(finished)  # its flush runs at the end of this loop iteration
                raise KeyboardInterrupt
        except KeyboardInterrupt:
            pass
        await asyncio.sleep(0)  # the iteration ends: the flush runs
        return finisher

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a coroutine never awaited would warn
        finisher = asyncio.run(stopped_with_an_answer_waiting())
    assert errors == []
    assert finisher.unstored() == [finished]
    assert stored == []
    assert store.answered_keys("r1") == set()
