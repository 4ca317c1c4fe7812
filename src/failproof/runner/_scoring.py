"""Scoring each response, in the event loop's process or in worker processes.

Scorers are pure Python and cost CPU on every response. At high concurrency that CPU competes
with the HTTP client in one thread, so `PoolScoring` moves it to worker processes: responses
that arrive in the same loop iteration go out as one batch, results come back as `CaseResult`.
The workers are forked before the event loop starts (no threads yet), with the scorers built
once per worker from the run's scoring record.
"""

from __future__ import annotations

import asyncio
import gc
import multiprocessing
import os
import signal
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Protocol

from failproof.config import ScoringConfig
from failproof.core import Case, CaseResult, Response
from failproof.scoring import Scorer, build_scorers, score_case

__all__ = ["InlineScoring", "PoolScoring", "Scoring", "auto_score_workers", "close_scorers"]

_Job = tuple[Case, Response, int]
_worker_scorers: list[Scorer] = []


class Scoring(Protocol):
    """Turns a response into a scored `CaseResult`."""

    async def score(self, case: Case, response: Response, sample: int) -> CaseResult: ...

    def close(self) -> None: ...


class InlineScoring:
    """Scores in the calling thread; in worker threads when a scorer blocks (an LLM judge)."""

    def __init__(self, scorers: Sequence[Scorer]) -> None:
        self.scorers = list(scorers)
        self._threaded = any(s.blocking for s in self.scorers)

    async def score(self, case: Case, response: Response, sample: int) -> CaseResult:
        if self._threaded:
            return await asyncio.to_thread(score_case, case, response, self.scorers, sample=sample)
        return score_case(case, response, self.scorers, sample=sample)

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


def _init_worker(scoring: ScoringConfig, names: list[str]) -> None:
    global _worker_scorers
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the runner, which stops us
    _worker_scorers = build_scorers(scoring, names)


def _score_batch(jobs: list[_Job]) -> list[CaseResult]:
    return [score_case(case, response, _worker_scorers, sample=s) for case, response, s in jobs]


def _ready() -> None:
    return


def auto_score_workers(concurrency: int, setting: int | None) -> int:
    """Worker processes for scoring: the setting, else one per spare core from concurrency 16."""
    if setting is not None:
        return setting
    cores = os.cpu_count() or 1
    return min(cores - 1, 4) if concurrency >= 16 and cores >= 2 else 0


class PoolScoring:
    """Scores in ``workers`` processes, batching the responses of one loop iteration."""

    def __init__(self, scoring: ScoringConfig, scorers: Sequence[Scorer], workers: int) -> None:
        self._scorers = list(scorers)
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        self._pool = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=multiprocessing.get_context(method),
            initializer=_init_worker,
            initargs=(scoring, [s.name for s in scorers]),
        )
        gc.freeze()  # the workers' garbage collector leaves the runner's objects (and pages) alone
        try:
            self._pool.submit(_ready).result()  # start the workers now, before any thread exists
        finally:
            gc.unfreeze()
        self._pending: list[tuple[_Job, asyncio.Future[CaseResult]]] = []
        self._flush_scheduled = False
        self.batch_size = 64

    async def score(self, case: Case, response: Response, sample: int) -> CaseResult:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[CaseResult] = loop.create_future()
        self._pending.append(((case, response, sample), future))
        if len(self._pending) >= self.batch_size:
            self._flush()
        elif not self._flush_scheduled:
            self._flush_scheduled = True
            loop.call_soon(self._flush)
        return await future

    def _flush(self) -> None:
        self._flush_scheduled = False
        batch, self._pending = self._pending, []
        if not batch:
            return
        done = self._pool.submit(_score_batch, [job for job, _ in batch])
        futures = [future for _, future in batch]
        done.add_done_callback(_deliver_soon(asyncio.get_running_loop(), futures))

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
        close_scorers(self._scorers)


def _deliver_soon(
    loop: asyncio.AbstractEventLoop, futures: list[asyncio.Future[CaseResult]]
) -> Callable[[Future[list[CaseResult]]], None]:
    """The pool's callback: hand a finished batch to the loop, unless the run has stopped.

    A stopped run (Ctrl-C, SIGTERM) closes its loop while the pool finishes the batches it had;
    their callbacks then have nobody to deliver to and must not raise in the pool's thread.
    """

    def callback(done: Future[list[CaseResult]]) -> None:
        try:
            loop.call_soon_threadsafe(_deliver, done, futures)
        except RuntimeError:  # the loop is closed: the run stopped, the results are not wanted
            return

    return callback


def _deliver(done: Future[list[CaseResult]], futures: list[asyncio.Future[CaseResult]]) -> None:
    if done.cancelled():
        for future in futures:
            future.cancel()
        return
    error = done.exception()
    for index, future in enumerate(futures):
        if future.done():
            continue
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(done.result()[index])
