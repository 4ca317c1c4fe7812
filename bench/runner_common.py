"""Shared pieces of the runner benchmarks: synthetic suites and one timed run of the runner."""

from __future__ import annotations

import json
import os
import resource
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from failproof.config import RunSettings, Settings
from failproof.runner import RunRequest, start_run
from failproof.runner._engine import Engine, EngineStats
from failproof.runner._plan import WorkItem
from failproof.store import Store

PROMPT = (
    "You are the support assistant of ACME. A customer writes: my order {i} arrived broken, "
    "what can I do? Answer in two sentences."
)


def write_suite(folder: Path, n: int, name: str = "bench") -> Path:
    """A JSONL suite of ``n`` plain cases (~150 characters of input each)."""
    path = folder / f"{name}.jsonl"
    with path.open("w", encoding="utf-8") as out:
        for i in range(n):
            case = {
                "id": f"c{i:06d}",
                "input": PROMPT.format(i=i),
                "expect": {"must_not_contain": ["ZX-CANARY"]},
            }
            out.write(json.dumps(case) + "\n")
    return path


@dataclass
class Timed:
    """One run: cases; setup (suites, scorers, workers) and run (first call to last stored
    result) wall times; the runner's CPU over the run (its process and its scoring workers);
    report build time."""

    cases: int
    setup_s: float
    wall_s: float
    cpu_s: float
    report_s: float

    @property
    def rate(self) -> float:
        return self.cases / self.wall_s

    @property
    def cpu_ms_per_request(self) -> float:
        return 1000 * self.cpu_s / self.cases


#: When the engine started: wall time and this process's CPU time.
_engine_started: list[float] = [0.0, 0.0]
_engine_run = Engine.run


async def _timed_engine_run(self: Engine, work: Iterable[WorkItem]) -> EngineStats:
    _engine_started[:] = [time.perf_counter(), time.process_time()]
    return await _engine_run(self, work)


Engine.run = _timed_engine_run  # type: ignore[method-assign]  # instrumentation: when calls start


def load_average() -> str:
    """The machine's 1-minute load average: benchmarks on a busy machine read slow."""
    return f"{os.getloadavg()[0]:.1f}"


def best_of(runs: int, measure: Callable[[], Timed]) -> Timed:
    """The fastest of ``runs`` measurements (noise on a shared machine only ever slows down)."""
    return min((measure() for _ in range(runs)), key=lambda timed: timed.wall_s)


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the scoring workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime + children_cpu_seconds()


def children_cpu_seconds() -> float:
    """CPU time of this process's finished children (the scoring workers, once stopped)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return children.ru_utime + children.ru_stime


def timed_run(base_url: str, suite: Path, concurrency: int, *, cache: bool = False) -> Timed:
    """One `failproof run` (library API, scoring included, no progress) against ``base_url``."""
    with tempfile.TemporaryDirectory() as home:
        settings = Settings(
            home=Path(home),
            run=RunSettings(concurrency=concurrency, cache=cache, retries=0, timeout_s=120),
        )
        request = RunRequest(
            suites=(str(suite),), target="openai:bench", target_options={"base_url": base_url}
        )
        cases = len(suite.read_text(encoding="utf-8").splitlines())
        seen: list[int] = [0]
        last: list[float] = [0.0, 0.0]

        def mark(_result: object) -> None:
            seen[0] += 1
            if seen[0] == cases:
                last[:] = [time.perf_counter(), time.process_time()]

        with Store(settings.db_path) as store:
            start, workers_cpu = time.perf_counter(), children_cpu_seconds()
            outcome = start_run(
                request, settings=settings, store=store, progress="quiet", sinks=[mark]
            )
            done, workers_cpu = time.perf_counter(), children_cpu_seconds() - workers_cpu
        errors = outcome.report.summary.counts.get("error", 0)
        assert errors == 0, f"{errors} requests failed"
        total = outcome.report.summary.total_cases
        began, began_cpu = _engine_started
        # this process's CPU from the first call to the last stored result, plus the scoring
        # workers' (counted when they exit, after the run)
        cpu_s = last[1] - began_cpu + workers_cpu
        return Timed(total, began - start, last[0] - began, cpu_s, done - last[0])
