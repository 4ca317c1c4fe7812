"""Scoring each response, in the event loop's process (`InlineScoring`) or in worker processes
(`PoolScoring`, in ``_pool``).

Scorers are pure Python and cost CPU on every response. At high concurrency that CPU competes
with the HTTP client in one thread, so `PoolScoring` moves it to worker processes. The engine
hands over the answers of one loop iteration at once (`Scoring.score_many`).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Sequence
from typing import Protocol

from failproof.core import Case, CaseResult, Response
from failproof.scoring import Scorer, score_case

__all__ = [
    "InlineScoring",
    "ScoreJob",
    "Scoring",
    "auto_score_workers",
    "close_scorers",
    "score_jobs",
]

#: One answer to score: the case, the target's response, the sample number.
ScoreJob = tuple[Case, Response, int]


class Scoring(Protocol):
    """Turns responses into scored `CaseResult`s."""

    async def score(self, case: Case, response: Response, sample: int) -> CaseResult: ...

    async def score_many(self, jobs: Sequence[ScoreJob]) -> list[CaseResult]: ...

    def close(self) -> None: ...


def score_jobs(jobs: Sequence[ScoreJob], scorers: Sequence[Scorer]) -> list[CaseResult]:
    """Every job scored with ``scorers``, in order."""
    return [score_case(case, response, scorers, sample=s) for case, response, s in jobs]


class InlineScoring:
    """Scores in the calling thread; in worker threads when a scorer blocks (an LLM judge)."""

    def __init__(self, scorers: Sequence[Scorer]) -> None:
        self.scorers = list(scorers)
        self._threaded = any(s.blocking for s in self.scorers)

    async def score(self, case: Case, response: Response, sample: int) -> CaseResult:
        if self._threaded:
            return await asyncio.to_thread(score_case, case, response, self.scorers, sample=sample)
        return score_case(case, response, self.scorers, sample=sample)

    async def score_many(self, jobs: Sequence[ScoreJob]) -> list[CaseResult]:
        """The jobs' results in order; blocking scorers score each job in its own thread."""
        if self._threaded:
            return list(await asyncio.gather(*(self.score(*job) for job in jobs)))
        return score_jobs(jobs, self.scorers)

    def close(self) -> None:
        close_scorers(self.scorers)


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
