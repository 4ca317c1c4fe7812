"""Work handed to an executor that runs it in other processes or machines, and one shard of it.

`WorkPlan` holds everything a shard needs, resolved at the edge: the run, its items, the
scoring record (scorers are built from it, never from the environment), the run settings and
the target's spec. `run_shard` is what a worker calls: the same engine, scorers and target code
as a local run, over an in-memory store; the results come back to the process that owns the
run's store (`WorkExecutor`), which commits them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from failproof.config import RunSettings, ScoringConfig
from failproof.core import CaseResult, Response, Run
from failproof.runner._calls import CallStats
from failproof.runner._engine import Engine, EngineStats, ResultSink
from failproof.runner._plan import WorkItem, cache_key
from failproof.runner._scoring import InlineScoring
from failproof.runner._setup import drive, make_engine
from failproof.scoring import build_scorers
from failproof.store import Store
from failproof.store._rows import load_result
from failproof.store._store import ResultRow
from failproof.targets import Target, create_target

if TYPE_CHECKING:
    from failproof.targets import RecordedResponses

__all__ = ["Executed", "ShardOutcome", "WorkExecutor", "WorkPlan", "run_shard"]


@dataclass(frozen=True)
class WorkPlan:
    """A run's missing work and what scoring and calling it depends on.

    ``recorded`` replays recorded responses instead of calling ``target`` (``failproof score``);
    ``cached`` holds the response-cache hits the run's store already has for ``items`` (keyed
    with the target's ``identity``).
    """

    run: Run
    items: tuple[WorkItem, ...]
    scoring: ScoringConfig
    scorer_names: tuple[str, ...]
    settings: RunSettings
    target: str
    target_options: Mapping[str, Any] = field(default_factory=dict)
    recorded: RecordedResponses | None = None
    use_cache: bool = False
    identity: Mapping[str, Any] = field(default_factory=dict)
    cached: Mapping[str, Response] = field(default_factory=dict)

    def cache_keys(self) -> dict[str, WorkItem]:
        """The response-cache key of each single-call item (conversations cache per turn), by
        the target's ``identity``."""
        if not self.use_cache:
            return {}
        plain = (i for i in self.items if not i.case.turns and not i.case.tools)
        return {cache_key(self.identity, item.case): item for item in plain}


@dataclass
class ShardOutcome:
    """What one shard produced: its scored results as stored rows (moved and committed without
    parsing their JSON), and the responses it added to the cache."""

    rows: list[ResultRow]
    cached: dict[str, Response]
    stats: EngineStats
    calls: CallStats

    def results(self) -> list[CaseResult]:
        """The results, parsed (for the sinks that need them: progress, responses file)."""
        return [load_result(row[4]) for row in self.rows]


@dataclass
class Executed:
    """The totals of a sharded execution, for the run's record."""

    stats: EngineStats = field(default_factory=EngineStats)
    calls: CallStats = field(default_factory=CallStats)

    def add(self, shard: ShardOutcome) -> None:
        for name in ("completed", "cache_hits", "errors"):
            setattr(self.stats, name, getattr(self.stats, name) + getattr(shard.stats, name))
        for name in ("attempts", "retries", "throttled", "waits", "waited_s"):
            setattr(self.calls, name, getattr(self.calls, name) + getattr(shard.calls, name))
        self.calls.longest_wait_s = max(self.calls.longest_wait_s, shard.calls.longest_wait_s)
        self.calls.last_error = shard.calls.last_error or self.calls.last_error


class WorkExecutor(Protocol):
    """Runs a `WorkPlan` elsewhere; each result is committed to ``store``, then given to
    ``sinks``, as its shard comes back."""

    def execute(self, plan: WorkPlan, store: Store, sinks: Sequence[ResultSink]) -> Executed: ...


def run_shard(plan: WorkPlan) -> ShardOutcome:
    """Call (or replay), score and collect ``plan``'s items, as a local run does them."""
    scoring = InlineScoring(build_scorers(plan.scoring, list(plan.scorer_names)))
    target = _target(plan)
    try:
        with Store(":memory:") as store:
            store.create_run(plan.run)
            for key, response in plan.cached.items():
                store.cache_put(key, response)
            engine = make_engine(
                plan.settings, target, scoring, store, plan.run.id, use_cache=plan.use_cache
            )
            stats = asyncio.run(drive(engine, target, iter(plan.items)))
            return _outcome(plan, store, engine, stats)
    finally:
        scoring.close()


def _target(plan: WorkPlan) -> Target:
    if plan.recorded is not None:
        from failproof.targets import ReplayTarget  # a recorded run only

        return ReplayTarget(plan.recorded)
    return create_target(plan.target, dict(plan.target_options))


def _outcome(plan: WorkPlan, store: Store, engine: Engine, stats: EngineStats) -> ShardOutcome:
    fresh = {}
    for key in plan.cache_keys():
        response = store.cache_get(key) if key not in plan.cached else None
        if response is not None:
            fresh[key] = response
    rows = store.result_rows(plan.run.id)
    return ShardOutcome(rows=rows, cached=fresh, stats=stats, calls=engine.caller.stats)
