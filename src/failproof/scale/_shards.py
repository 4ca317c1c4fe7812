"""Cutting a run's work into shards, and committing a shard's results to the run's store."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from failproof.config import RunSettings
from failproof.runner import WorkPlan
from failproof.runner._engine import ResultSink
from failproof.runner._plan import WorkItem
from failproof.runner._sharded import ShardOutcome
from failproof.store import Store
from failproof.targets import RecordedResponses

__all__ = [
    "MAX_SHARD",
    "SHARDS_PER_WORKER",
    "merge_shard",
    "shard_plans",
    "shard_width",
    "share_limits",
]

#: Shards per worker: enough that a slow shard does not hold the others back and that progress
#: moves, while each still carries many records (every shard costs a task round trip).
SHARDS_PER_WORKER = 4
#: The most items in one shard: a stop loses at most this much work per worker in flight.
MAX_SHARD = 5_000


def shard_width(plan: WorkPlan, slots: int) -> int:
    """Shards run at once: one per worker slot; a live target's concurrency caps it (each
    shard keeps at least one call in flight). Replayed answers call nothing and are not capped."""
    width = max(1, min(slots, len(plan.items)))
    if plan.recorded is None:
        width = min(width, plan.settings.concurrency)
    return width


def shard_plans(plan: WorkPlan, width: int) -> list[WorkPlan]:
    """``plan`` as contiguous ranges of its items (in case order), each with its share of the
    run's limits and only the cache hits and recorded responses it needs."""
    items = plan.items
    if not items:
        return []
    count = min(len(items), max(width * SHARDS_PER_WORKER, math.ceil(len(items) / MAX_SHARD)))
    size = math.ceil(len(items) / count)
    settings = share_limits(plan.settings, width)
    return [_part(plan, items[at : at + size], settings) for at in range(0, len(items), size)]


def share_limits(settings: RunSettings, width: int) -> RunSettings:
    """Each of ``width`` shards running at once gets 1/width of the run's concurrency (at least
    one), requests per minute and tokens per minute: together they keep the run's limits."""
    return settings.model_copy(
        update={
            "concurrency": max(1, settings.concurrency // width),
            "rpm": settings.rpm / width if settings.rpm else None,
            "tpm": settings.tpm / width if settings.tpm else None,
        }
    )


def _part(plan: WorkPlan, items: tuple[WorkItem, ...], settings: RunSettings) -> WorkPlan:
    part = replace(plan, items=items, settings=settings, cached={})
    hits = {k: plan.cached[k] for k in part.cache_keys() if k in plan.cached}
    return replace(part, cached=hits, recorded=_recorded(plan.recorded, items))


def _recorded(
    recorded: RecordedResponses | None, items: Sequence[WorkItem]
) -> RecordedResponses | None:
    """Only the recorded responses of ``items``, under the keys the replay looks them up by."""
    if recorded is None:
        return None
    part = RecordedResponses(source=recorded.source)
    for item in items:
        for key in ((item.case.suite, item.case.id), (None, item.case.id)):
            if key in recorded.by_key:
                part.by_key[key] = recorded.by_key[key]
                break
    return part


def merge_shard(
    store: Store, run_id: str, shard: ShardOutcome, sinks: Sequence[ResultSink] = ()
) -> None:
    """Commit a shard's results (one transaction) and its new cache entries, then tell the sinks.

    Idempotent: a result replaces the one stored under the same (suite, case, sample), so a
    shard merged twice (a retried task) adds nothing.
    """
    store.add_result_rows(run_id, shard.rows)
    for key, response in shard.cached.items():
        store.cache_put(key, response)
    for result in shard.results() if sinks else ():
        for sink in sinks:
            sink(result)
