"""Scoring in worker processes: a batch that finishes after the run stopped is dropped quietly."""

from __future__ import annotations

import asyncio
from concurrent.futures import Future

from failproof.core import CaseResult
from failproof.runner._scoring import _deliver, _deliver_soon


def test_a_batch_finishing_after_the_loop_closed_raises_nothing_in_the_pool_thread() -> None:
    loop = asyncio.new_event_loop()
    loop.close()
    done: Future[list[CaseResult]] = Future()
    done.set_result([])

    _deliver_soon(loop, [])(done)  # the pool calls this from its own thread after a Ctrl-C

    assert loop.is_closed()


def test_a_cancelled_batch_cancels_the_results_waiting_for_it() -> None:
    async def scenario() -> asyncio.Future[CaseResult]:
        waiting: asyncio.Future[CaseResult] = asyncio.get_running_loop().create_future()
        batch: Future[list[CaseResult]] = Future()
        batch.cancel()
        _deliver(batch, [waiting])
        return waiting

    assert asyncio.run(scenario()).cancelled()
