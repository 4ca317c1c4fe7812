"""Accumulators: run-level sections computed in one pass, reading each result once.

An accumulator is made for a run (`AggregateContext`), sees every result in report order through
``add`` and gives its section with ``finish`` (None: leave it out). It keeps what it needs in
bounded or compact form (counters, arrays of floats, bounded heaps), never the results
themselves, and gives its section's model. A section built this way has one implementation: its
list aggregator is the accumulator folded over the list (`folded`). An accumulator that needs a
second look at the results (the failure geometry assigning every case to a cluster) reads them
again through ``ctx.source``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol, TypeVar

from failproof.core import CaseResult
from failproof.metrics._base import AggregateContext, Aggregator
from failproof.registry import Registry

__all__ = ["Accumulator", "Collect", "TopN", "accumulators", "fold", "folded"]


#: What an accumulator gives: its section's model (a built-in's exact type).
S_co = TypeVar("S_co", covariant=True)
S = TypeVar("S")


class Accumulator(Protocol[S_co]):
    """One report section, built one result at a time."""

    def add(self, result: CaseResult) -> None:
        """Take one result (results arrive in report order)."""

    def finish(self) -> S_co:
        """The section: its model (a plugin may give a JSON-ready mapping), or None to leave it
        out."""


#: Accumulator factories by the report key they fill, like `aggregators`.
accumulators: Registry[Callable[[AggregateContext], Accumulator[object]]] = Registry("accumulator")


class Collect:
    """A list aggregator run as an accumulator: keeps the results ``keep`` accepts (all by
    default) and calls it at the end. For plugins without an accumulator: memory grows with
    the results kept."""

    def __init__(
        self,
        aggregator: Aggregator,
        ctx: AggregateContext,
        keep: Callable[[CaseResult], bool] | None = None,
    ) -> None:
        self.aggregator, self.ctx, self.keep = aggregator, ctx, keep
        self.results: list[CaseResult] = []

    def add(self, result: CaseResult) -> None:
        if self.keep is None or self.keep(result):
            self.results.append(result)

    def finish(self) -> object:
        return self.aggregator(self.results, self.ctx)


def fold(accumulator: Accumulator[S], results: Iterable[CaseResult]) -> S:
    """Every result through ``accumulator``, then its section."""
    for result in results:
        accumulator.add(result)
    return accumulator.finish()


def folded(
    factory: Callable[[AggregateContext], Accumulator[S]],
) -> Callable[[Sequence[CaseResult], AggregateContext], S]:
    """The list aggregator of an accumulator: the same section, from a list of results (one
    implementation per section). The list is also the accumulator's second pass when the
    context has none (``ctx.source``)."""

    def aggregate(results: Sequence[CaseResult], ctx: AggregateContext) -> S:
        return fold(factory(ctx if ctx.source is not None else ctx.reading(results)), results)

    return aggregate


class TopN:
    """The ``limit`` smallest items by ``key`` (ties keep arrival order), in bounded memory.

    Keeps at most ``2 * limit`` items between trims, so adding n items costs O(n log limit)
    amortised; ``items()`` equals ``sorted(all, key=key)[:limit]``.
    """

    def __init__(self, limit: int, key: Callable[[Any], Any]) -> None:
        self.limit, self.key = max(0, limit), key
        self._items: list[tuple[Any, int, Any]] = []
        self._seen = 0

    def add(self, item: Any) -> None:
        if not self.limit:
            return
        self._items.append((self.key(item), self._seen, item))
        self._seen += 1
        if len(self._items) >= 2 * self.limit:
            self._trim()

    def _trim(self) -> None:
        self._items.sort(key=lambda entry: entry[:2])
        del self._items[self.limit :]

    def items(self) -> list[Any]:
        self._trim()
        return [entry[2] for entry in self._items]
