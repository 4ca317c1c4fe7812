"""Shared pieces of the runner benchmarks: synthetic suites and one timed run of the runner."""

from __future__ import annotations

import json
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from failproof.config import RunSettings, Settings
from failproof.runner import RunRequest, start_run
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
    """One run: cases, wall time to the last stored result, client CPU, report build time."""

    cases: int
    wall_s: float
    cpu_s: float
    report_s: float

    @property
    def rate(self) -> float:
        return self.cases / self.wall_s

    @property
    def cpu_ms_per_request(self) -> float:
        return 1000 * self.cpu_s / self.cases


def cpu_seconds() -> float:
    """CPU time of this process, user + system, all threads."""
    return time.process_time()


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
        last: list[float] = [0.0, 0.0]

        def mark(_result: object) -> None:
            last[0], last[1] = time.perf_counter(), cpu_seconds()

        with Store(settings.db_path) as store:
            start, cpu = time.perf_counter(), cpu_seconds()
            outcome = start_run(
                request, settings=settings, store=store, progress="quiet", sinks=[mark]
            )
            done = time.perf_counter()
        errors = outcome.report.summary["counts"].get("error", 0)
        assert errors == 0, f"{errors} requests failed"
        total = outcome.report.summary["total_cases"]
        return Timed(total, last[0] - start, last[1] - cpu, done - last[0])
