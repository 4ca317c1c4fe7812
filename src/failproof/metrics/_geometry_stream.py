"""The failure geometry of a run too large to embed at once: fit on a sample, assign every case.

The section's one implementation: the registered list aggregator is this accumulator folded over
the list. A seeded reservoir (Algorithm R) keeps ``geometry_vocab_sample`` evaluated cases,
uniformly, whatever the run's size. When the run has no more cases than that, the sample is the
whole run and the section is `failure_geometry` of it, every case embedded at once. Otherwise every
case's labels and document also go to a temporary file as they arrive (no second read of the
results), TF-IDF, the truncated SVD and KMeans are fitted on the sample, and every case of the
file is transformed in chunks and assigned to its nearest centroid: cluster sizes, categories,
failure rates, mean risks, top terms and the mutual information with the labels are over every
case. The scatter has a point for every case up to `POINTS` cases (its cluster, and its place in
the fitted embedding), and for a seeded sample of `POINTS` of them past that.
"""

from __future__ import annotations

import itertools
import json
import random
import tempfile
from array import array
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import islice
from typing import Generic, TypeVar

import numpy as np
from numpy.typing import NDArray

from failproof.config import ProbeSettings
from failproof.core import CaseResult
from failproof.metrics._accumulate import TopN, accumulators, folded
from failproof.metrics._base import AggregateContext, aggregators
from failproof.metrics._geometry import (
    blas_threads,
    failure_geometry,
    method_of,
    nearest,
    normalise,
    points_of,
    says_something,
)
from failproof.metrics._geometry_clusters import cluster_row, mutual_information_of, term_lists
from failproof.metrics._geometry_csr import Csr
from failproof.metrics._geometry_docs import GeometryCase, geometry_case
from failproof.metrics._geometry_k import choose_k, fit_kmeans
from failproof.metrics._geometry_section import Assignment, Observability, Point
from failproof.metrics._geometry_svd import truncated_svd_fit
from failproof.metrics._geometry_tfidf import SampledTfidf

__all__ = ["POINTS", "GeometryAccumulator"]

_CHUNK = 2048
T = TypeVar("T")
#: Cases given a point on the scatter past the fitted sample (the report's bounded scatter).
POINTS = 2_000


class GeometryAccumulator:
    """``observability`` with bounded memory: a seeded sample, then every case assigned."""

    def __init__(self, ctx: AggregateContext) -> None:
        self.ctx = ctx
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
        if case is None:
            return
        if self.n == self.size:  # past the sample's size: every case is kept on disk
            self.spill = _Spill()
            for _, kept in self.sample.kept:
                self.spill.add(kept)
        if self.spill is not None:
            self.spill.add(case)
        self.sample.add(self.n, (self.n, case))
        self.pointed.add(self.n, self.n)
        self.n += 1
        self.failures += not case.passed

    def finish(self) -> Observability | None:
        if not says_something(self.n, self.failures, self.settings):
            return None
        cases = [case for _, case in sorted(self.sample.kept, key=lambda item: item[0])]
        if self.spill is None:
            return failure_geometry(cases, self.settings)
        with self.spill, blas_threads(self.n, self.settings.geometry_threads):
            pointed = frozenset(self.pointed.kept)
            return _two_pass(cases, self.n, self.spill.cases(), pointed, self.settings)


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
    """Every case (labels and document), one JSON line each, in a temporary file."""

    def __init__(self) -> None:
        self.file = tempfile.TemporaryFile("w+", encoding="utf-8", newline="\n")  # noqa: SIM115

    def __enter__(self) -> _Spill:
        return self

    def __exit__(self, *exc: object) -> None:
        self.file.close()

    def add(self, case: GeometryCase) -> None:
        self.file.write(json.dumps(case) + "\n")

    def cases(self) -> Iterator[GeometryCase]:
        self.file.seek(0)
        for line in self.file:
            yield GeometryCase(*json.loads(line))


class _Model:
    """TF-IDF, SVD and centroids fitted on the sample; embeds and assigns any case."""

    def __init__(self, cases: Sequence[GeometryCase], settings: ProbeSettings) -> None:
        self.vectorizer = SampledTfidf(settings.geometry_max_features)
        tfidf = self.vectorizer.fit_transform([c.document for c in cases])
        self.components = max(2, settings.geometry_components)
        usable = min(self.components, tfidf.shape[1] - 1, tfidf.shape[0] - 1)
        self.directions: NDArray[np.floating] | None = None
        if usable >= 1 and tfidf.nnz:
            self.directions = truncated_svd_fit(tfidf, usable, settings.seed)[1]
        vectors = normalise(self.embed(tfidf))
        self.choice = choose_k(
            vectors,
            fixed=settings.geometry_clusters,
            max_k=settings.geometry_max_clusters,
            sample=settings.geometry_silhouette_sample,
            seed=settings.seed,
        )
        self.centers = (
            fit_kmeans(vectors, self.choice.k, settings.seed, self.choice.centers)[1]
            if self.choice.k > 1
            else np.zeros((1, vectors.shape[1]))
        )

    def embed(self, tfidf: Csr) -> NDArray[np.floating]:
        out = np.zeros((tfidf.shape[0], self.components), dtype=np.float64)
        if self.directions is not None:
            out[:, : len(self.directions)] = np.asarray(tfidf @ self.directions.T)
        return out

    def assign(
        self, cases: Sequence[GeometryCase]
    ) -> tuple[Csr, NDArray[np.int_], NDArray[np.floating]]:
        """The cases' TF-IDF, nearest centroids and scatter coordinates."""
        tfidf = self.vectorizer.transform(c.document for c in cases)
        reduced = self.embed(tfidf)
        return tfidf, nearest(normalise(reduced), self.centers), reduced[:, :2]


class _Clusters:
    """Per cluster over every case: members, categories, failures, risk, TF-IDF sums, examples."""

    def __init__(self, k: int, terms: int) -> None:
        self.sizes = np.zeros(k, dtype=np.int64)
        self.failures = np.zeros(k, dtype=np.int64)
        self.risk = np.zeros(k, dtype=np.float64)
        self.tfidf = np.zeros((k, terms), dtype=np.float64)
        self.categories: list[Counter[str]] = [Counter() for _ in range(k)]
        self.examples = [
            TopN(3, key=lambda c: (-c.weighted, -c.risk, c.suite, c.case_id)) for _ in range(k)
        ]
        self.labels: list[NDArray[np.int_]] = []
        # each case's labels as small integers (MI and entropy depend on the grouping only)
        self.codes: dict[str, dict[str, int]] = {"category": {}, "severity": {}, "pass_fail": {}}
        self.targets = {name: array("H") for name in self.codes}

    def add(self, cases: Sequence[GeometryCase], tfidf: Csr, labels: NDArray[np.int_]) -> None:
        self.tfidf += tfidf.group_sums(labels, len(self.sizes))
        self.labels.append(labels)
        for case, label in zip(cases, labels.tolist(), strict=True):
            self.sizes[label] += 1
            self.failures[label] += not case.passed
            self.risk[label] += case.risk
            self.categories[label][case.category] += 1
            self.examples[label].add(case)
            for name, value in (
                ("category", case.category),
                ("severity", case.severity),
                ("pass_fail", case.outcome),
            ):
                self.targets[name].append(self.codes[name].setdefault(value, len(self.codes[name])))


def _two_pass(
    sample: Sequence[GeometryCase],
    n: int,
    cases: Iterator[GeometryCase],
    pointed: frozenset[int],
    settings: ProbeSettings,
) -> Observability:
    model = _Model(sample, settings)
    terms = model.vectorizer.terms
    clusters = _Clusters(len(model.centers), len(terms))
    points: list[Point] = []
    for start in itertools.count(0, _CHUNK):
        if not (chunk := list(islice(cases, _CHUNK))):
            break
        tfidf, labels, scatter = model.assign(chunk)
        clusters.add(chunk, tfidf, labels)
        points += _points(chunk, start, labels, scatter, pointed)
    labels = np.concatenate(clusters.labels) if clusters.labels else np.zeros(0, dtype=np.int_)
    means = clusters.tfidf / np.maximum(clusters.sizes, 1)[:, None]
    if len(means) > 1:
        means = means - clusters.tfidf.sum(axis=0)[None, :] / max(1, len(labels))
    top = term_lists(means, terms)
    rows = [
        cluster_row(
            cluster,
            int(clusters.sizes[cluster]),
            len(labels),
            top[cluster],
            clusters.categories[cluster],
            int(clusters.failures[cluster]),
            float(clusters.risk[cluster]),
            clusters.examples[cluster].items(),
        )
        for cluster in range(len(means))
        if clusters.sizes[cluster]
    ]
    method = method_of(len(terms), len(sample), model.choice, settings)
    assigned = Assignment(cases=n, by="nearest centroid of the sample's KMeans")
    return Observability(
        n=n,
        mutual_information=mutual_information_of(
            {name: np.asarray(values) for name, values in clusters.targets.items()}, labels
        ),
        clusters=rows,
        points=points,
        method=method.model_copy(update={"assigned": assigned}),
    )


def _points(
    chunk: Sequence[GeometryCase],
    start: int,
    labels: NDArray[np.int_],
    scatter: NDArray[np.floating],
    pointed: frozenset[int],
) -> list[Point]:
    """The points of the chunk's cases that have one (the chunk starts at case ``start``)."""
    rows = [i for i in range(len(chunk)) if start + i in pointed]
    return points_of([chunk[i] for i in rows], labels[rows], scatter[rows])


accumulators.register("observability")(GeometryAccumulator)
aggregators.register("observability")(folded(GeometryAccumulator))
