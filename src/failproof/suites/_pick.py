"""Choosing part of streamed suites: the cases `select_cases` keeps, read as they are asked for.

`pick_suites` narrows `SuiteSource`s (`stream_suites`) to the (suite, id) pairs of ``only``, then
to a `Selection`, exactly as `select_cases` narrows loaded suites: the same checks, the same
errors, the same seeded sample. It reads the suites once to count what matches (only when there
is something to narrow); each `PickedSuite` then reads its cases again, keeping the chosen ones.
Memory holds the sample's indexes, never the cases.
"""

from __future__ import annotations

import random
from array import array
from bisect import bisect_left
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, field

from failproof.core import Case
from failproof.errors import InputError
from failproof.suites._select import Selection, check_found, matches
from failproof.suites._stream import SuiteSource

__all__ = ["PickedSuite", "pick_suites"]

Pairs = Collection[tuple[str, str]]


@dataclass(frozen=True)
class PickedSuite:
    """The cases of one suite a selection keeps, in the suite's order, read again each time.

    ``start`` is how many cases of the suites before it matched the selection's filters: the
    sample's indexes count across every suite, as `select_cases` counts them.
    """

    source: SuiteSource
    count: int
    only: Pairs | None = None
    selection: Selection = field(default_factory=Selection)
    start: int = 0
    chosen: Sequence[int] | None = None  # sorted indexes of the sampled cases

    @property
    def name(self) -> str:
        return self.source.name

    @property
    def weight(self) -> float:
        return self.source.weight

    @property
    def has_expectations(self) -> bool:
        """Whether a kept case carries SAFE expectations (read again when the suite is narrowed)."""
        if self.count == self.source.count:
            return self.source.has_expectations
        return any(case.expectations is not None for case in self.cases())

    def cases(self) -> Iterator[Case]:
        """The kept cases, in the file's order."""
        index = self.start
        for case in self.source.cases():
            if self.only is not None and case.key not in self.only:
                continue
            if not matches(case, self.selection):
                continue
            index += 1
            if self.chosen is None or _has(self.chosen, index - 1):
                yield case


def _has(chosen: Sequence[int], index: int) -> bool:
    at = bisect_left(chosen, index)
    return at < len(chosen) and chosen[at] == index


@dataclass
class _Count:
    """One suite's cases after ``only`` and those that match the selection's filters."""

    source: SuiteSource
    narrowed: int = 0
    matching: int = 0


def pick_suites(
    sources: Sequence[SuiteSource], selection: Selection, only: Pairs | None = None
) -> list[PickedSuite]:
    """The suites narrowed to ``only`` (suites left empty dropped), then to ``selection``.

    Raises `InputError` as `select_cases` does: ``--only`` names an unknown case, or nothing is
    left.
    """
    if only is None and selection.empty:
        return [PickedSuite(s, s.count) for s in sources]
    counts = _count(sources, selection, only)
    kept = [c for c in counts if c.narrowed]
    if selection.empty:
        return [PickedSuite(c.source, c.narrowed, only) for c in kept]
    return _sampled(kept, selection, only)


def _count(
    sources: Sequence[SuiteSource], selection: Selection, only: Pairs | None
) -> list[_Count]:
    """Every suite read once: its cases left by ``only`` and those matching; ``--only`` ids
    that name no case are refused."""
    wanted = set(selection.ids)
    found: set[str] = set()
    counts = [_Count(s) for s in sources]
    for count in counts:
        for case in count.source.cases():
            if only is not None and case.key not in only:
                continue
            count.narrowed += 1
            if wanted:
                found.update(wanted.intersection((case.id, f"{case.suite}/{case.id}")))
            count.matching += matches(case, selection)
    check_found(found, selection.ids)
    return counts


def _sampled(counts: list[_Count], selection: Selection, only: Pairs | None) -> list[PickedSuite]:
    total = sum(c.matching for c in counts)
    chosen: array[int] | None = None
    if selection.sample is not None and selection.sample < total:
        drawn = random.Random(selection.seed).sample(range(total), selection.sample)
        chosen = array("q", sorted(drawn))
    picked: list[PickedSuite] = []
    start = 0
    for count in counts:
        end = start + count.matching
        kept = count.matching if chosen is None else _between(chosen, start, end)
        if kept:
            picked.append(PickedSuite(count.source, kept, only, selection, start, chosen))
        start = end
    if not picked:
        raise InputError(
            f"no case matches {selection.describe()}",
            hint="'failproof suites show SUITE' lists the ids, categories and severities",
        )
    return picked


def _between(chosen: Sequence[int], start: int, end: int) -> int:
    return bisect_left(chosen, end) - bisect_left(chosen, start)
