"""The engine: workers that call, score and store each case the moment it completes."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from failproof.core import Case, CaseResult, Response
from failproof.errors import FailproofError
from failproof.runner._agent import play_agent
from failproof.runner._calls import Caller
from failproof.runner._conversation import Conversation
from failproof.runner._finish import Finished, Finisher
from failproof.runner._gc import quiet_gc
from failproof.runner._plan import WorkItem, cache_key
from failproof.runner._scoring import Scoring
from failproof.store import Store

__all__ = ["Engine", "EngineStats", "ResultSink", "RunAborted", "flush_sinks"]

#: Told of every result once it is stored. A sink with a ``flush()`` method is also told each
#: time a group of results is through: output that costs per call (a file flush, a progress bar
#: redraw) is best done there, once per group.
ResultSink = Callable[[CaseResult], None]

#: Answers that may wait to be scored and stored at once (at least; 4 per worker above that).
#: Groups are scored and committed together, so the room must hold a few groups' answers, or
#: the workers stop calling while a group is in the scoring workers.
FINISHING_ROOM = 256


def flush_sinks(sinks: Iterable[ResultSink]) -> None:
    """Call ``flush()`` on every sink that has one."""
    for sink in sinks:
        flush = getattr(sink, "flush", None)
        if flush is not None:
            flush()


class RunAborted(FailproofError):
    """The target failed too many calls in a row; the run stopped (finished cases are kept)."""


@dataclass
class EngineStats:
    """Counts of one engine run."""

    completed: int = 0
    cache_hits: int = 0
    errors: int = 0
    consecutive_failures: int = 0


@dataclass
class Engine:
    """Runs work items with ``workers`` in parallel (the caller's gate may admit fewer).

    A worker calls the target, hands the answer to the `Finisher` and goes on with its next
    call at once. The finisher scores the answers of one loop iteration with ``scoring`` as a
    batch, writes their results to ``store`` in one commit (with the fresh answers for the
    response cache when ``use_cache``; errors are never cached), then hands each result to
    every sink. ``kept`` holds answers a stopped run received and never scored: they are scored
    without a call. ``max_consecutive_failures`` (0 = never) stops
    the run with `RunAborted` once the answers already received are stored.
    """

    caller: Caller
    scoring: Scoring
    store: Store
    run_id: str
    workers: int
    use_cache: bool = True
    max_consecutive_failures: int = 0
    sinks: list[ResultSink] = field(default_factory=list)
    #: Called once every worker has made its first call (the run then waits for answers).
    started: Callable[[], None] | None = None
    kept: dict[tuple[str, str, int], Response] = field(default_factory=dict)
    stats: EngineStats = field(default_factory=EngineStats)
    _identity: dict[str, Any] = field(default_factory=dict, init=False)
    _finishing: asyncio.Semaphore = field(init=False)
    _finisher: Finisher = field(init=False)
    _stopping: Response | None = field(default=None, init=False)

    async def run(self, work: Iterable[WorkItem]) -> EngineStats:
        items = iter(work)
        self._identity = self.caller.target.identity()
        self._finishing = asyncio.Semaphore(max(FINISHING_ROOM, 4 * self.workers))
        try:
            with quiet_gc():
                await self._run_workers(items)
        except* RunAborted as aborted:
            raise aborted.exceptions[0] from None
        return self.stats

    async def _run_workers(self, items: Iterator[WorkItem]) -> None:
        async with asyncio.TaskGroup() as group:
            hooks = (group.create_task, self._stored, self._done)
            self._finisher = Finisher(self.scoring, self.store, self.run_id, *hooks)
            for _ in range(max(1, self.workers)):
                group.create_task(self._worker(items))
            if self.started is not None:  # after every worker's first step
                asyncio.get_running_loop().call_soon(self.started)

    async def _worker(self, items: Iterator[WorkItem]) -> None:
        """Call, hand the answer to the finisher, and go on with the next call at once."""
        for item in items:
            if item.case.turns or item.case.tools or item.case.mcp_servers:
                await self._play(item)
                continue
            key = cache_key(self._identity, item.case) if self.use_cache else None
            response, cached = await self._answer(item, key)
            await self._finishing.acquire()
            self._finisher.add(Finished(item, response, None if cached else key))
            if not cached and self._failed_too_often(response):
                await self._finisher.drain()  # keep every answer already received
                raise self._abort(response)

    async def _answer(self, item: WorkItem, key: str | None) -> tuple[Response, bool]:
        """The item's answer, and whether it came from the response cache: the answer a stopped
        run kept, else the cache's, else a call."""
        kept = self.kept.pop(item.key, None)
        if kept is not None:
            return kept, False
        cached = self.store.cache_get(key) if key is not None else None
        if cached is not None:
            self.stats.cache_hits += 1
            return cached.model_copy(update={"cached": True}), True
        return await self.caller.call(item.case), False

    def unfinished(self) -> list[tuple[tuple[str, str, int], Response]]:
        """The answers received and not stored yet, by (suite, case, sample): what a stop keeps
        (`Store.keep_answers`) so that a resume scores them without calling again."""
        finisher: Finisher | None = getattr(self, "_finisher", None)
        waiting = finisher.unstored() if finisher is not None else []
        return [(f.item.key, f.response) for f in waiting]

    def _stored(self, result: CaseResult) -> None:
        """A result is committed: count it and tell the sinks."""
        self.stats.completed += 1
        for sink in self.sinks:
            sink(result)

    def _done(self, count: int) -> None:
        """A group of answers is through: free their places, let the sinks flush."""
        for _ in range(count):
            self._finishing.release()
        flush_sinks(self.sinks)

    async def _play(self, item: WorkItem) -> None:
        """Play a conversation turn by turn (each turn stored as answered), or an agent's tool
        calls (each model call cached), then store the case's result."""
        if item.case.turns:
            conversation = Conversation(self.scoring, self.store, self.run_id, self._turn)
            result = await conversation.play(item)
        else:
            last, response = await self._agent(item)
            result = await self.scoring.score(last, response, item.sample)
        self.store.add_result(self.run_id, result)
        self._stored(result)
        flush_sinks(self.sinks)
        if self._stopping is not None:
            await self._finisher.drain()  # keep every answer already received
            raise self._abort(self._stopping)

    async def _agent(self, item: WorkItem) -> tuple[Case, Response]:
        """An agent case: its stub tools, and the tools of its MCP servers (called for real)."""
        if not item.case.mcp_servers:
            return await play_agent(item.case, self._turn)
        from failproof.runner._mcp_tools import CallRecord, play_with_mcp

        record = CallRecord(self.store, self.run_id, item.key)
        return await play_with_mcp(
            item.case, self._turn, timeout_s=self.caller.timeout_s, record=record
        )

    async def _turn(self, case: Case) -> Response:
        """One turn's answer: from the response cache, else from the target (then cached)."""
        key = cache_key(self._identity, case) if self.use_cache else None
        cached = self.store.cache_get(key) if key is not None else None
        if cached is not None:
            self.stats.cache_hits += 1
            return cached.model_copy(update={"cached": True})
        response = await self.caller.call(case)
        if key is not None:
            self.store.cache_put(key, response)
        if self._failed_too_often(response):
            self._stopping = response
        return response

    def _failed_too_often(self, response: Response) -> bool:
        if response.error is None:
            self.stats.consecutive_failures = 0
            return False
        self.stats.errors += 1
        self.stats.consecutive_failures += 1
        limit = self.max_consecutive_failures
        return bool(limit) and self.stats.consecutive_failures >= limit

    def _abort(self, response: Response) -> RunAborted:
        return RunAborted(
            f"stopped after {self.max_consecutive_failures} failed calls in a row; "
            f"the target last answered: {response.error}",
            hint="check the target and its key (read again on resume), then resume the run; "
            "a wrong address or model needs a new run",
        )
