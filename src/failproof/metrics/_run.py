"""The aggregation step of a run: every registered section over its results, in one pass."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from failproof.config import Settings
from failproof.core import CaseResult, Run
from failproof.metrics._accumulate import Accumulator, Collect, accumulators
from failproof.metrics._base import AggregateContext, aggregators, context_for, section_models

__all__ = [
    "CORE_SECTIONS",
    "Aggregation",
    "Given",
    "RunAggregates",
    "aggregate_run",
    "aggregate_stream",
]

#: Accumulators given by name in place of the registered ones, made from the run's context.
Given = Mapping[str, Callable[[AggregateContext], Accumulator[object]]]

#: Sections the report names; every other aggregator's section goes under ``extensions``.
CORE_SECTIONS = ("summary", "suites", "aggregate_metrics", "observability", "safe_v0")


@dataclass(frozen=True)
class RunAggregates:
    """A run's results in report order (empty when streamed), its core and plugin sections."""

    results: list[CaseResult]
    sections: dict[str, Any] = field(default_factory=dict)
    extensions: dict[str, Any] = field(default_factory=dict)


def aggregate_run(
    run: Run,
    results: Iterable[CaseResult],
    fallback: Settings | None = None,
) -> RunAggregates:
    """Every aggregator's section of ``run``, from the scoring recorded with it.

    ``fallback`` stands in only for a run made before scoring records. The results are sorted
    into report order and kept (`aggregate_stream` reads a store instead and keeps none).
    """
    ordered = sorted(results, key=lambda r: r.key)
    done = aggregate_stream(run, ordered, fallback)
    return RunAggregates(results=ordered, sections=done.sections, extensions=done.extensions)


def aggregate_stream(
    run: Run,
    source: Iterable[CaseResult],
    fallback: Settings | None = None,
    *,
    also: Sequence[Accumulator[object]] = (),
) -> RunAggregates:
    """Every section of ``run`` in one pass over ``source``: re-iterable, in report order.

    Each section is an accumulator (`accumulators`); an aggregator registered without one is
    run on the results kept for it (`Collect`). ``also`` are more accumulators fed in the same
    pass (a report's per-case digest). Accumulators that need a second look read ``source``
    again.
    """
    aggregation = Aggregation(run, fallback, also=also)
    for result in source:
        aggregation.add(result)
    return aggregation.finish(source)


class Aggregation:
    """Every section of ``run``, its results given one at a time in report order (as they are
    stored, say); `finish` gives the sections (`aggregate_stream` is this over a source).

    ``given`` makes some sections' accumulators in place of the registered ones (a run's
    geometry computed in another process)."""

    def __init__(
        self,
        run: Run,
        fallback: Settings | None = None,
        *,
        also: Sequence[Accumulator[object]] = (),
        given: Given | None = None,
    ) -> None:
        self.ctx = context_for(run, fallback)
        made = given or {}
        self.given = frozenset(made)
        self.sections = {
            entry.name: made[entry.name](self.ctx)
            if entry.name in made
            else _accumulator(entry.name, self.ctx)
            for entry in aggregators
        }
        self._feed = [*self.sections.values(), *also]

    def add(self, result: CaseResult) -> None:
        for accumulator in self._feed:
            accumulator.add(result)

    def finish(self, source: Iterable[CaseResult]) -> RunAggregates:
        """The sections; ``source`` gives the same results again, in the same order, to the
        accumulators that need a second look. The ``given`` sections finish last: one computed
        elsewhere is computed meanwhile."""
        self.ctx.source = source
        out = RunAggregates(results=[])
        ordered = sorted(self.sections, key=lambda name: name in self.given)
        values = {name: self.sections[name].finish() for name in ordered}
        for name in self.sections:
            value = values[name]
            if value is None:
                continue
            if name in CORE_SECTIONS:
                out.sections[name] = value
            else:
                model = section_models.get(name)
                out.extensions[name] = model.model_validate(value) if model else value
        return out


def _accumulator(name: str, ctx: AggregateContext) -> Accumulator[object]:
    if name in accumulators:
        return accumulators.get(name)(ctx)
    return Collect(aggregators.get(name), ctx)
