"""Group finishing: answers that arrive in the same loop iteration are scored as one batch and
stored in one commit; each result reaches the sinks only after that commit.

The guarantee of one commit per result stays: a result is reported (stats, sinks, JSONL) only
once the transaction holding it is committed, so a kill at any moment loses no result that was
reported stored; it only shares its commit with the results that finished beside it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from failproof.core import CaseResult, Response
from failproof.runner._plan import WorkItem
from failproof.runner._scoring import ScoreJob, Scoring
from failproof.store import Store

__all__ = ["Finished", "Finisher"]


@dataclass(frozen=True, slots=True)
class Finished:
    """An answer waiting to be scored and stored; ``cache_key`` when it goes in the cache."""

    item: WorkItem
    response: Response
    cache_key: str | None


@dataclass
class Finisher:
    """Collects answers during one loop iteration, then scores, stores and reports them.

    ``spawn`` starts a batch's task (the engine's task group, so a failure stops the run);
    ``stored`` is called with each result after its commit; ``done`` once per answer whatever
    happened to it (the engine's back-pressure).
    """

    scoring: Scoring
    store: Store
    run_id: str
    spawn: Callable[[Coroutine[Any, Any, None]], asyncio.Task[None]]
    stored: Callable[[CaseResult], None]
    done: Callable[[int], None]
    _waiting: list[Finished] = field(default_factory=list, init=False)
    _batches: set[asyncio.Task[None]] = field(default_factory=set, init=False)
    _unstored: dict[int, Finished] = field(default_factory=dict, init=False)

    def add(self, finished: Finished) -> None:
        """Queue an answer; the first of an iteration schedules the batch for its end."""
        if not self._waiting:
            asyncio.get_running_loop().call_soon(self._flush)
        self._waiting.append(finished)
        self._unstored[id(finished)] = finished

    def unstored(self) -> list[Finished]:
        """The answers handed over whose results are not stored: those a stop must keep."""
        return list(self._unstored.values())

    async def drain(self) -> None:
        """Wait until every answer handed over so far is stored (or has failed)."""
        self._flush()
        while self._batches:
            await asyncio.gather(*self._batches, return_exceptions=True)

    def _flush(self) -> None:
        batch, self._waiting = self._waiting, []
        if not batch:
            return
        finishing = self._finish(batch)
        try:
            task = self.spawn(finishing)
        except RuntimeError:  # the run stopped before this iteration's end (its task group is
            finishing.close()  # shutting down): the answers stay unstored, for the stop to keep
            return
        self._batches.add(task)
        task.add_done_callback(self._batches.discard)

    async def _finish(self, batch: list[Finished]) -> None:
        try:
            jobs: list[ScoreJob] = [(f.item.case, f.response, f.item.sample) for f in batch]
            scored = await self.scoring.score_written(jobs)
            results = [s.result for s in scored]
            cached = [(f.cache_key, f.response) for f in batch if f.cache_key is not None]
            self.store.add_results(self.run_id, results, cached, written=[s.json for s in scored])
            for finished in batch:
                self._unstored.pop(id(finished), None)
            for result in results:
                self.stored(result)
        finally:
            self.done(len(batch))
