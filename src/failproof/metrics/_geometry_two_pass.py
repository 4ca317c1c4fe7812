"""The failure geometry of a run too large to embed at once, its second pass: TF-IDF, the truncated
SVD and KMeans fitted on the sample, then every case transformed in chunks and assigned to its
nearest centroid (`GeometryAccumulator` in `_geometry_stream` keeps the sample and the cases).
"""

from __future__ import annotations

import itertools
from array import array
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import islice

import numpy as np
from numpy.typing import NDArray

from failproof.config import ProbeSettings
from failproof.metrics._accumulate import TopN
from failproof.metrics._geometry import method_of, nearest, normalise, points_of
from failproof.metrics._geometry_clusters import cluster_row, mutual_information_of, term_lists
from failproof.metrics._geometry_csr import Csr
from failproof.metrics._geometry_docs import GeometryCase
from failproof.metrics._geometry_k import choose_k, fit_kmeans
from failproof.metrics._geometry_section import Assignment, Observability, Point
from failproof.metrics._geometry_svd import truncated_svd_fit
from failproof.metrics._geometry_tfidf import SampledTfidf
from failproof.metrics._geometry_tokens import Tokenizer, tokenize

__all__ = ["Model", "two_pass"]

_CHUNK = 2048


class Model:
    """TF-IDF, SVD and centroids fitted on the sample; embeds and assigns any case."""

    def __init__(
        self,
        cases: Sequence[GeometryCase],
        settings: ProbeSettings,
        tokenizer: Tokenizer = tokenize,
    ) -> None:
        self.vectorizer = SampledTfidf(settings.geometry_max_features, tokenizer=tokenizer)
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


def two_pass(
    sample: Sequence[GeometryCase],
    n: int,
    cases: Iterator[GeometryCase],
    pointed: frozenset[int],
    settings: ProbeSettings,
    tokenizer: Tokenizer = tokenize,
) -> Observability:
    model = Model(sample, settings, tokenizer)
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
