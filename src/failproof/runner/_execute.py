"""Send cases to a target, score each response as it arrives, and store it at once."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence

from failproof.core import Case, CaseResult, Response
from failproof.scoring import Scorer, score_case
from failproof.store import Store
from failproof.targets import CallError, Target

__all__ = ["execute_cases"]


async def _call(target: Target, case: Case, timeout_s: float) -> Response:
    start = time.perf_counter()
    try:
        return await asyncio.wait_for(target.generate(case), timeout=timeout_s)
    except CallError as exc:
        return Response.failure(exc.message, latency_ms=(time.perf_counter() - start) * 1000)
    except TimeoutError:
        return Response.failure(f"timed out after {timeout_s:g} s", latency_ms=timeout_s * 1000)


async def execute_cases(
    cases: Sequence[Case],
    target: Target,
    *,
    run_id: str,
    store: Store,
    scorers: Sequence[Scorer],
    concurrency: int,
    timeout_s: float,
    on_result: Callable[[CaseResult], None] | None = None,
) -> int:
    """Run every case with at most ``concurrency`` in flight; returns the number stored."""
    limit = asyncio.Semaphore(max(1, min(concurrency, target.max_concurrency or concurrency)))
    stored = 0

    async def one(case: Case) -> None:
        nonlocal stored
        async with limit:
            response = await _call(target, case, timeout_s)
        result = score_case(case, response, scorers)
        store.add_result(run_id, result)
        stored += 1
        if on_result is not None:
            on_result(result)

    await asyncio.gather(*(one(case) for case in cases))
    return stored
