"""Scoring each response, in the event loop's process (`InlineScoring`) or in worker processes
(`PoolScoring`, in ``_pool``).

Scorers are pure Python and cost CPU on every response. At high concurrency that CPU competes
with the HTTP client in one thread, so `PoolScoring` moves it to worker processes. The engine
hands over the answers of one loop iteration at once (`Scoring.score_many`).
"""

from __future__ import annotations

import asyncio
import functools
import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple, Protocol

from failproof.core import Case, CaseResult, Response
from failproof.scoring import Scorer, score_case

__all__ = [
    "InlineScoring",
    "ScoreJob",
    "Scored",
    "Scoring",
    "auto_score_workers",
    "close_scorers",
    "score_jobs",
]

#: One answer to score: the case, the target's response, the sample number.
ScoreJob = tuple[Case, Response, int]


class Scored(NamedTuple):
    """A scored answer: its result, and the result's JSON when the scoring has written it (what
    the store writes, so it is not written twice)."""

    result: CaseResult
    json: str | None = None


class Scoring(Protocol):
    """Turns responses into scored `CaseResult`s."""

    async def score(self, case: Case, response: Response, sample: int) -> CaseResult: ...

    async def score_many(self, jobs: Sequence[ScoreJob]) -> list[CaseResult]: ...

    async def score_written(self, jobs: Sequence[ScoreJob]) -> list[Scored]: ...

    def close(self) -> None: ...


def score_jobs(jobs: Sequence[ScoreJob], scorers: Sequence[Scorer]) -> list[CaseResult]:
    """Every job scored with ``scorers``, in order."""
    return [score_case(case, response, scorers, sample=s) for case, response, s in jobs]


class InlineScoring:
    """Scores in the calling thread; in worker threads when a scorer blocks (an LLM judge).

    The worker threads are its own, not the event loop's: a stopped run does not wait for them
    when its loop closes. `close` closes the scorers first (a judge then drops every question
    still waiting for an answer or a retry), so the threads end at once.
    """

    def __init__(self, scorers: Sequence[Scorer]) -> None:
        self.scorers = list(scorers)
        self._threaded = any(s.blocking for s in self.scorers)
        self._threads: ThreadPoolExecutor | None = None

    async def score(self, case: Case, response: Response, sample: int) -> CaseResult:
        if self._threaded:
            if self._threads is None:
                self._threads = ThreadPoolExecutor(thread_name_prefix="failproof-score")
            job = functools.partial(score_case, case, response, self.scorers, sample=sample)
            return await asyncio.get_running_loop().run_in_executor(self._threads, job)
        return score_case(case, response, self.scorers, sample=sample)

    async def score_many(self, jobs: Sequence[ScoreJob]) -> list[CaseResult]:
        """The jobs' results in order; blocking scorers score each job in its own thread."""
        if self._threaded:
            return list(await asyncio.gather(*(self.score(*job) for job in jobs)))
        return score_jobs(jobs, self.scorers)

    async def score_written(self, jobs: Sequence[ScoreJob]) -> list[Scored]:
        """The jobs' results in order (none written as JSON: they never left this process)."""
        return [Scored(result) for result in await self.score_many(jobs)]

    def close(self) -> None:
        try:
            close_scorers(self.scorers)
        finally:
            self.release_threads()

    def release_threads(self) -> None:
        """Let the worker threads go once their scoring ends (the scorers stay open)."""
        if self._threads is not None:
            self._threads.shutdown(wait=False, cancel_futures=True)
            self._threads = None


def close_scorers(scorers: Sequence[Scorer]) -> None:
    """Close every scorer, each once, even when one of them fails to."""
    errors: list[Exception] = []
    for scorer in scorers:
        try:
            scorer.close()
        except Exception as exc:
            errors.append(exc)
    if errors:
        raise errors[0]


def auto_score_workers(concurrency: int, setting: int | None) -> int:
    """Worker processes for scoring: the setting, else one per spare core from concurrency 16."""
    if setting is not None:
        return setting
    cores = os.cpu_count() or 1
    return min(cores - 1, 4) if concurrency >= 16 and cores >= 2 else 0
