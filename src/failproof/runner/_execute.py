"""Send cases to a target, score each response as it arrives, and store it at once."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from failproof.core import Case, CaseResult
from failproof.runner._calls import Caller
from failproof.runner._engine import Engine
from failproof.runner._limits import AdaptiveGate
from failproof.runner._plan import WorkItem
from failproof.runner._retry import RetryPolicy
from failproof.runner._scoring import InlineScoring
from failproof.scoring import Scorer
from failproof.store import Store
from failproof.targets import Target

__all__ = ["execute_cases"]


async def execute_cases(
    cases: Iterable[Case],
    target: Target,
    *,
    run_id: str,
    store: Store,
    scorers: Sequence[Scorer],
    concurrency: int,
    timeout_s: float,
    on_result: Callable[[CaseResult], None] | None = None,
) -> int:
    """Run every case once with at most ``concurrency`` in flight, without retries or cache;
    returns the number stored."""
    workers = max(1, target.calls_at_once(concurrency))
    caller = Caller(
        target=target,
        timeout_s=timeout_s,
        policy=RetryPolicy(retries=0),
        gate=AdaptiveGate(workers),
    )
    scoring = InlineScoring(scorers)  # the scorers are the caller's to close
    engine = Engine(
        caller=caller,
        scoring=scoring,
        store=store,
        run_id=run_id,
        workers=workers,
        use_cache=False,
        sinks=[on_result] if on_result is not None else [],
    )
    try:
        stats = await engine.run(WorkItem(case) for case in cases)
    finally:
        scoring.release_threads()
    return stats.completed
