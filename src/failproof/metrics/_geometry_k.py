"""Choosing the number of clusters: the best silhouette over a small range of k, on a sample."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

__all__ = ["KChoice", "choose_k", "distinct_rows", "fit_kmeans"]

Matrix = NDArray[np.floating]


@dataclass(frozen=True)
class KChoice:
    """The chosen k, how it was chosen, the silhouette of every k tried, and starting centres."""

    k: int
    method: str
    silhouettes: dict[int, float] = field(default_factory=dict)
    centers: Matrix | None = None


def distinct_rows(matrix: Matrix, decimals: int = 6) -> int:
    """How many different rows ``matrix`` has (after rounding), i.e. the most clusters it holds."""
    if len(matrix) == 0:
        return 0
    return len(np.unique(np.round(matrix, decimals), axis=0))


def fit_kmeans(
    matrix: Matrix, k: int, seed: int, init: Matrix | None = None
) -> tuple[NDArray[np.int_], Matrix]:
    """KMeans labels and centres (k-means++ with 4 starts, or one start from ``init``)."""
    from sklearn.cluster import KMeans

    if init is not None:
        model = KMeans(n_clusters=k, init=init, n_init=1, random_state=seed)
    else:
        model = KMeans(n_clusters=k, n_init=4, random_state=seed)
    labels = model.fit_predict(matrix)
    return labels.astype(np.int_), model.cluster_centers_


def choose_k(matrix: Matrix, *, fixed: int | None, max_k: int, sample: int, seed: int) -> KChoice:
    """``fixed`` (capped by the distinct points), else the k in 2..max_k with best silhouette.

    Silhouettes are measured on a seeded sample of at most ``sample`` rows; ties go to the
    smaller k. Fewer than three distinct points leave nothing to choose: one cluster each.
    """
    rng = np.random.default_rng(seed)
    rows = matrix if len(matrix) <= sample else matrix[rng.choice(len(matrix), sample, False)]
    distinct = distinct_rows(rows)
    if fixed is not None:
        return KChoice(max(1, min(fixed, distinct_rows(matrix))), "fixed")
    top = min(max_k, distinct - 1)
    if top < 2:
        return KChoice(max(1, min(distinct, 2)), "too_few_distinct_points")
    return _best_silhouette(rows, range(2, top + 1), seed)


def _best_silhouette(rows: Matrix, ks: range, seed: int) -> KChoice:
    from sklearn.metrics import silhouette_score

    scores: dict[int, float] = {}
    centers: dict[int, Matrix] = {}
    for k in ks:
        labels, centers[k] = fit_kmeans(rows, k, seed)
        if len(set(labels.tolist())) < 2:
            continue
        scores[k] = round(float(silhouette_score(rows, labels)), 6)
    if not scores:
        return KChoice(1, "silhouette_undefined")
    best = max(scores, key=lambda k: (scores[k], -k))
    return KChoice(best, "silhouette", scores, centers[best])
