"""Building the engine of a run from its settings: the caller, its retries, limits and gate."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from failproof.config import RunSettings
from failproof.runner._calls import Caller
from failproof.runner._engine import Engine, EngineStats, ResultSink
from failproof.runner._limits import AdaptiveGate, RateLimiter
from failproof.runner._plan import WorkItem
from failproof.runner._progress import RunProgress, make_progress
from failproof.runner._retry import RetryPolicy
from failproof.runner._scoring import Scoring
from failproof.store import Store
from failproof.targets import Target

__all__ = ["drive", "make_engine"]


def make_engine(
    run: RunSettings,
    target: Target,
    scoring: Scoring,
    store: Store,
    run_id: str,
    *,
    use_cache: bool,
    sinks: Sequence[ResultSink] = (),
    progress: RunProgress | None = None,
) -> Engine:
    """The engine that calls ``target`` as ``run`` says, scores with ``scoring`` into ``store``;
    ``progress`` hears of the waits the rate limits impose."""
    shown = progress or make_progress("quiet")
    workers = target.calls_at_once(run.concurrency)
    caller = Caller(
        target=target,
        timeout_s=run.timeout_s,
        policy=RetryPolicy.of(run),
        gate=AdaptiveGate(workers, max_pause_s=run.max_wait_s),
        rpm=_limiter(run.rpm, "the request budget (--rpm)", shown),
        tpm=_limiter(run.tpm, "the token budget (--tpm)", shown),
        on_wait=shown.waiting,
    )
    return Engine(
        caller=caller,
        scoring=scoring,
        store=store,
        run_id=run_id,
        workers=workers,
        use_cache=use_cache,
        max_consecutive_failures=run.max_consecutive_failures,
        sinks=list(sinks),
    )


def _limiter(per_minute: float | None, budget: str, progress: RunProgress) -> RateLimiter | None:
    if not per_minute:
        return None
    limiter = RateLimiter(per_minute)
    limiter.on_wait = lambda seconds: progress.waiting(seconds, f"pacing calls to {budget}")
    return limiter


async def drive(engine: Engine, target: Target, work: Iterator[WorkItem]) -> EngineStats:
    """Open the target, run the engine over ``work``, close the target."""
    async with target:
        return await engine.run(work)
