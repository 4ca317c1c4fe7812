"""Send cases to a target, score each response as it arrives, and store it at once."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from failproof.config import RunSettings
from failproof.core import Case, CaseResult
from failproof.runner._plan import WorkItem
from failproof.runner._scoring import InlineScoring
from failproof.runner._setup import make_engine
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
    once = RunSettings(
        concurrency=max(1, concurrency), timeout_s=timeout_s, retries=0, max_consecutive_failures=0
    )
    scoring = InlineScoring(scorers)  # the scorers are the caller's to close
    sinks = [on_result] if on_result is not None else []
    engine = make_engine(once, target, scoring, store, run_id, use_cache=False, sinks=sinks)
    try:
        stats = await engine.run(WorkItem(case) for case in cases)
    finally:
        scoring.release_threads()
    return stats.completed
