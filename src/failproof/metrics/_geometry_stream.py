"""The failure geometry of a run too large to embed at once: fit on a sample, assign every case.

The section's one implementation: the registered list aggregator is this accumulator folded over
the list. A seeded reservoir (Algorithm R) keeps ``geometry_vocab_sample`` evaluated cases,
uniformly, whatever the run's size. When the run has no more cases than that, the sample is the
whole run and the section is `failure_geometry` of it, every case embedded at once. Otherwise every
case's labels and document are also kept as they arrive (no second read of the results): in
memory up to `IN_MEMORY` cases, in a temporary file past that. TF-IDF, the truncated SVD and
KMeans are fitted on the sample, and every kept case is transformed in chunks and assigned to its
nearest centroid: cluster sizes, categories, failure rates, mean risks, top terms and the mutual
information with the labels are over every case. The scatter has a point for every case up to
`POINTS` cases (its cluster, and its place in the fitted embedding), and for a seeded sample of
`POINTS` of them past that. The fit and the assignment (`_geometry_two_pass`, with numpy) are
imported only for a geometry that says something.
"""

from __future__ import annotations

import json
import random
import tempfile
from collections.abc import Iterator
from typing import Generic, TextIO, TypeVar

from failproof.core import CaseResult
from failproof.metrics._accumulate import accumulators, folded
from failproof.metrics._base import AggregateContext, aggregators
from failproof.metrics._geometry_docs import GeometryCase, geometry_case, says_something
from failproof.metrics._geometry_section import Observability
from failproof.metrics._geometry_tokens import TokenMemo, tokenize

__all__ = ["IN_MEMORY", "POINTS", "GeometryAccumulator"]

T = TypeVar("T")
#: Cases given a point on the scatter past the fitted sample (the report's bounded scatter).
POINTS = 2_000
#: Cases whose labels and document stay in memory for the second pass (a few MB); a larger run
#: writes them to a temporary file (a JSON round trip costs about 6 µs a case).
IN_MEMORY = 5_000


class GeometryAccumulator:
    """``observability`` with bounded memory: a seeded sample, then every case assigned.

    Given ``tokens``, each case's document is tokenized as it comes (up to the memo's limit), so
    the fit does not do it: what a process with time to spare before the fit does."""

    def __init__(self, ctx: AggregateContext, tokens: TokenMemo | None = None) -> None:
        self.ctx = ctx
        self.tokens = tokens
        self.settings = ctx.scoring.probe
        self.size = self.settings.geometry_vocab_sample
        self.sample: _Reservoir[tuple[int, GeometryCase]] = _Reservoir(
            self.size, self.settings.seed
        )
        self.pointed: _Reservoir[int] = _Reservoir(POINTS, self.settings.seed)
        self.spill: _Spill | None = None
        self.n = 0
        self.failures = 0

    def add(self, result: CaseResult) -> None:
        case = geometry_case(result, self.settings.geometry_text_chars)
        if case is not None:
            self.add_case(case)

    def add_case(self, case: GeometryCase) -> None:
        """An evaluated case's labels and document (`geometry_case` of its result)."""
        if self.n == self.size:  # past the sample's size: every case is kept for a second pass
            self.spill = _Spill()
            for _, kept in self.sample.kept:
                self.spill.add(kept)
        if self.spill is not None:
            self.spill.add(case)
        if self.tokens is not None:
            self.tokens.add(case.document)
        self.sample.add(self.n, (self.n, case))
        self.pointed.add(self.n, self.n)
        self.n += 1
        self.failures += not case.passed

    def finish(self) -> Observability | None:
        if not says_something(self.n, self.failures, self.settings):
            return None
        # numpy and the fit load only for a geometry that says something
        from failproof.metrics._geometry import blas_threads, failure_geometry
        from failproof.metrics._geometry_two_pass import two_pass

        cases = [case for _, case in sorted(self.sample.kept, key=lambda item: item[0])]
        tokenizer = tokenize if self.tokens is None else self.tokens
        if self.spill is None:
            return failure_geometry(cases, self.settings, tokenizer)
        with self.spill, blas_threads(self.n, self.settings.geometry_threads):
            pointed = frozenset(self.pointed.kept)
            spilled = self.spill.cases()
            return two_pass(cases, self.n, spilled, pointed, self.settings, tokenizer)


class _Reservoir(Generic[T]):
    """A seeded uniform sample of ``size`` items of a stream (Algorithm R): every item while
    there are no more than ``size``."""

    def __init__(self, size: int, seed: int) -> None:
        self.size, self.rng = size, random.Random(seed)
        self.kept: list[T] = []

    def add(self, index: int, item: T) -> None:
        """The stream's ``index``-th item (counted from 0)."""
        if index < self.size:
            self.kept.append(item)
        elif (slot := self.rng.randrange(index + 1)) < self.size:
            self.kept[slot] = item


class _Spill:
    """Every case (labels and document): in memory up to `IN_MEMORY` cases, past that one JSON
    line each in a temporary file (the ones held first, then each as it comes)."""

    def __init__(self) -> None:
        self.held: list[GeometryCase] = []
        self.file: TextIO | None = None

    def __enter__(self) -> _Spill:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.file is not None:
            self.file.close()

    def add(self, case: GeometryCase) -> None:
        if self.file is None:
            if len(self.held) < IN_MEMORY:
                self.held.append(case)
                return
            self.file = tempfile.TemporaryFile("w+", encoding="utf-8", newline="\n")  # noqa: SIM115
            self.file.writelines(json.dumps(kept) + "\n" for kept in self.held)
            self.held = []
        self.file.write(json.dumps(case) + "\n")

    def cases(self) -> Iterator[GeometryCase]:
        if self.file is None:
            yield from self.held
            return
        self.file.seek(0)
        for line in self.file:
            yield GeometryCase(*json.loads(line))


accumulators.register("observability")(GeometryAccumulator)
aggregators.register("observability")(folded(GeometryAccumulator))
