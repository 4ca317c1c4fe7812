"""``observability``: the failure geometry of the cases it is given, all embedded at once (a run
within the sample; `GeometryAccumulator` in `_geometry_stream` is the section's producer).

Each evaluated case becomes a short document (category, severity, outcome, risk band, matched
signal labels, task and input snapshot, explanation). TF-IDF (1-2 grams; vocabulary fitted on a
seeded sample, then applied to every case) and a truncated SVD embed the documents; KMeans
clusters the L2-normalised embedding with k chosen by silhouette; mutual information compares
the clusters with the category, severity and pass / fail labels; the 2-D truncated SVD of the
TF-IDF matrix (the two leading singular directions, without the normalisation KMeans sees)
places every case on a scatter plot. Every random step takes the configured seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from failproof.config import ProbeSettings
from failproof.metrics._geometry_clusters import describe_clusters, mutual_information
from failproof.metrics._geometry_csr import Csr
from failproof.metrics._geometry_docs import GeometryCase, says_something
from failproof.metrics._geometry_k import KChoice, choose_k, fit_kmeans
from failproof.metrics._geometry_section import (
    GeometryMethod,
    KMeansMethod,
    Observability,
    Point,
    TfidfMethod,
)
from failproof.metrics._geometry_svd import truncated_svd
from failproof.metrics._geometry_tfidf import SampledTfidf
from failproof.metrics._geometry_tokens import Tokenizer, tokenize

#: Cases up to which the geometry's BLAS products are too small to use a second thread.
ONE_THREAD_CASES = 60

__all__ = [
    "ONE_THREAD_CASES",
    "Embedding",
    "blas_threads",
    "embed",
    "failure_geometry",
    "method_of",
    "nearest",
    "normalise",
    "points_of",
    "says_something",
]


@dataclass(frozen=True)
class Embedding:
    """The TF-IDF matrix, its vocabulary, the SVD embedding and the 2-D scatter coordinates."""

    tfidf: Csr
    terms: NDArray[np.object_]
    vectors: NDArray[np.floating]
    scatter: NDArray[np.floating]
    fitted_on: int


def failure_geometry(
    cases: Sequence[GeometryCase], settings: ProbeSettings, tokenizer: Tokenizer = tokenize
) -> Observability:
    """The ``observability`` section for ``cases`` (see the module docstring); ``tokenizer``
    gives each document's tokens."""
    with blas_threads(len(cases), settings.geometry_threads):
        return _geometry(cases, settings, tokenizer)


def blas_threads(cases: int, threads: int) -> AbstractContextManager[object]:
    """BLAS and OpenMP held to ``threads`` while the geometry of ``cases`` cases is computed.

    Up to `ONE_THREAD_CASES` cases every product is too small for OpenBLAS to split: each of
    its sides is below the number of cases (the embedding has fewer dimensions than cases, k
    is at most 8), and OpenBLAS keeps a product of fewer than 262,144 multiply-adds on one
    thread. So nothing is set, and threadpoolctl, which inspects every loaded library, is not
    imported.
    """
    if cases <= ONE_THREAD_CASES:
        return nullcontext()
    from threadpoolctl import threadpool_limits  # type: ignore[import-untyped]

    limits: AbstractContextManager[object] = threadpool_limits(limits=threads)
    return limits


def _geometry(
    cases: Sequence[GeometryCase], settings: ProbeSettings, tokenizer: Tokenizer
) -> Observability:
    embedding = embed(cases, settings, tokenizer)
    choice = choose_k(
        embedding.vectors,
        fixed=settings.geometry_clusters,
        max_k=settings.geometry_max_clusters,
        sample=settings.geometry_silhouette_sample,
        seed=settings.seed,
    )
    labels = _labels(embedding.vectors, choice, settings.seed)
    return Observability(
        n=len(cases),
        mutual_information=mutual_information(cases, labels),
        clusters=describe_clusters(cases, labels, embedding.tfidf, embedding.terms),
        points=points_of(cases, labels, embedding.scatter),
        method=method_of(len(embedding.terms), embedding.fitted_on, choice, settings),
    )


def embed(
    cases: Sequence[GeometryCase], settings: ProbeSettings, tokenizer: Tokenizer = tokenize
) -> Embedding:
    """TF-IDF fitted on a seeded sample of the documents, SVD embedding and 2-D scatter.

    The scatter is the projection on the two leading singular vectors, i.e. the 2-D truncated
    SVD of the TF-IDF matrix; the SVD is computed once and its first two columns reused.
    """
    sample = _sample(len(cases), settings.geometry_vocab_sample, settings.seed)
    vectorizer = SampledTfidf(settings.geometry_max_features, tokenizer=tokenizer)
    if len(sample) == len(cases):  # fitted on every document: counted once
        tfidf = vectorizer.fit_transform([case.document for case in cases])
    else:
        vectorizer.fit([cases[i].document for i in sample])
        tfidf = vectorizer.transform(case.document for case in cases)
    reduced = _svd(tfidf, max(2, settings.geometry_components), settings.seed)
    return Embedding(tfidf, vectorizer.terms, normalise(reduced), reduced[:, :2], len(sample))


def _sample(n: int, size: int, seed: int) -> NDArray[np.int_]:
    if n <= size:
        return np.arange(n)
    return np.sort(np.random.default_rng(seed).choice(n, size, replace=False))


def _svd(matrix: Csr, components: int, seed: int) -> NDArray[np.floating]:
    """A truncated SVD with at most ``components`` dimensions, zero-padded when fewer fit."""
    rows, cols = matrix.shape
    usable = min(components, cols - 1, rows - 1)
    out = np.zeros((rows, components), dtype=np.float64)
    if usable >= 1 and matrix.nnz:
        out[:, :usable] = truncated_svd(matrix, usable, seed)
    return out


def normalise(vectors: NDArray[np.floating]) -> NDArray[np.floating]:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms == 0, 1.0, norms)


def _labels(vectors: NDArray[np.floating], choice: KChoice, seed: int) -> NDArray[np.int_]:
    if choice.k <= 1:
        return np.zeros(len(vectors), dtype=np.int_)
    labels, _ = fit_kmeans(vectors, choice.k, seed, choice.centers)
    return labels


def nearest(vectors: NDArray[np.floating], centers: NDArray[np.floating]) -> NDArray[np.int_]:
    """The index of each row's nearest centre (squared Euclidean distance; ties: the first)."""
    if len(centers) <= 1:
        return np.zeros(len(vectors), dtype=np.int_)
    distances = (
        (vectors * vectors).sum(axis=1)[:, None]
        - 2.0 * vectors @ centers.T
        + (centers * centers).sum(axis=1)[None, :]
    )
    return np.asarray(distances.argmin(axis=1), dtype=np.int_)


def points_of(
    cases: Sequence[GeometryCase], labels: NDArray[np.int_], scatter: NDArray[np.floating]
) -> list[Point]:
    xs = np.round(scatter[:, 0], 5).tolist()
    ys = np.round(scatter[:, 1], 5).tolist()
    return [
        Point(
            suite=case.suite,
            case_id=case.case_id,
            sample=case.sample,
            cluster=int(label),
            scatter_x=x,
            scatter_y=y,
        )
        for case, label, x, y in zip(cases, labels.tolist(), xs, ys, strict=True)
    ]


def method_of(
    vocabulary: int, fitted_on: int, choice: KChoice, settings: ProbeSettings
) -> GeometryMethod:
    """How the geometry was made: TF-IDF, SVD, k and its choice, seed."""
    return GeometryMethod(
        tfidf=TfidfMethod(
            ngram_range=[1, 2],
            max_features=settings.geometry_max_features,
            vocabulary_size=vocabulary,
            fitted_on_cases=fitted_on,
        ),
        svd_components=settings.geometry_components,
        kmeans=KMeansMethod(
            k=choice.k,
            k_selection=choice.method,
            silhouettes={str(k): s for k, s in choice.silhouettes.items()},
            silhouette_sample=settings.geometry_silhouette_sample,
            max_k=settings.geometry_max_clusters,
        ),
        seed=settings.seed,
        mutual_information_unit="nats",
    )
