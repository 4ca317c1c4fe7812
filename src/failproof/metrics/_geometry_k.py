"""Choosing the number of clusters: the best silhouette over a small range of k, on a sample.

KMeans (k-means++ seeding, Lloyd iterations) and the silhouette are written here with numpy:
at the sizes the geometry clusters (at most ``geometry_silhouette_sample`` rows for the choice,
64 dimensions) they take milliseconds, while importing scikit-learn for them took about a
second of CPU, most of a small run's scoring time. Every random step draws from a generator
seeded with the configured seed, so one seed gives one clustering.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

__all__ = ["KChoice", "choose_k", "distinct_rows", "fit_kmeans", "pairwise", "silhouette"]

Matrix = NDArray[np.floating]

#: k-means++ starts per k (the best inertia is kept), and the Lloyd iteration limits.
_STARTS = 4
_MAX_ITER = 300
_TOL = 1e-4


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
    # return_index: without it numpy asks numpy.ma whether the array is masked (an import)
    return len(np.unique(np.round(matrix, decimals), axis=0, return_index=True)[0])


def _sq_distances(matrix: Matrix, centers: Matrix) -> Matrix:
    """Squared Euclidean distances of every row to every centre (never negative)."""
    rows = np.einsum("ij,ij->i", matrix, matrix)[:, None]
    cols = np.einsum("ij,ij->i", centers, centers)[None, :]
    out: Matrix = np.maximum(rows - 2.0 * (matrix @ centers.T) + cols, 0.0)
    return out


def _plus_plus(matrix: Matrix, k: int, rng: np.random.Generator) -> Matrix:
    """Greedy k-means++: the first centre uniformly; then, of ``2 + ln k`` rows drawn with
    probability ~ D(x)^2, the one that leaves the smallest total D(x)^2."""
    trials = 2 + int(np.log(k))
    chosen = [int(rng.integers(len(matrix)))]
    closest = _sq_distances(matrix, matrix[chosen])[:, 0]
    for _ in range(1, k):
        total = float(closest.sum())
        if total <= 0:  # every row sits on a centre: any row will do
            picks = rng.integers(len(matrix), size=1)
        else:
            draws = rng.random(trials) * total
            picks = np.minimum(np.searchsorted(np.cumsum(closest), draws), len(matrix) - 1)
        candidates = np.minimum(closest[:, None], _sq_distances(matrix, matrix[picks]))
        best = int(candidates.sum(axis=0).argmin())
        chosen.append(int(picks[best]))
        closest = candidates[:, best]
    centers: Matrix = matrix[chosen].astype(np.float64, copy=True)
    return centers


def _lloyd(matrix: Matrix, centers: Matrix) -> tuple[NDArray[np.int_], Matrix, float]:
    """Lloyd iterations from ``centers`` until the labels settle: labels, centres, inertia.

    A cluster left empty takes the row farthest from its own centre (deterministically).
    """
    k = len(centers)
    labels = np.full(len(matrix), -1, dtype=np.int_)
    for _ in range(_MAX_ITER):
        distances = _sq_distances(matrix, centers)
        new = distances.argmin(axis=1).astype(np.int_)
        if np.array_equal(new, labels):
            break
        labels = new
        moved = _update(matrix, labels, distances, k)
        shift = float(((moved - centers) ** 2).sum())
        centers = moved
        if shift <= _TOL * _TOL:
            labels = _sq_distances(matrix, centers).argmin(axis=1).astype(np.int_)
            break
    inertia = float(_sq_distances(matrix, centers)[np.arange(len(matrix)), labels].sum())
    return labels, centers, inertia


def _update(matrix: Matrix, labels: NDArray[np.int_], distances: Matrix, k: int) -> Matrix:
    """The mean of each cluster's rows; an empty cluster moves to the worst-served row."""
    sums = np.eye(k)[labels].T @ matrix
    sizes = np.bincount(labels, minlength=k)
    own = distances[np.arange(len(matrix)), labels]
    for empty in np.flatnonzero(sizes == 0):
        far = int(own.argmax())
        own[far] = -1.0
        sizes[labels[far]] -= 1
        sums[labels[far]] -= matrix[far]
        sums[empty], sizes[empty] = matrix[far], 1
    centers: Matrix = sums / np.maximum(sizes, 1)[:, None]
    return centers


def fit_kmeans(
    matrix: Matrix, k: int, seed: int, init: Matrix | None = None
) -> tuple[NDArray[np.int_], Matrix]:
    """KMeans labels and centres (k-means++ with 4 starts, or one start from ``init``)."""
    data = np.asarray(matrix, dtype=np.float64)
    if init is not None:
        labels, centers, _ = _lloyd(data, np.array(init, dtype=np.float64))
        return _in_order(labels, centers)
    rng = np.random.default_rng(seed)
    best: tuple[NDArray[np.int_], Matrix, float] | None = None
    for _ in range(_STARTS):
        run = _lloyd(data, _plus_plus(data, k, rng))
        if best is None or run[2] < best[2]:
            best = run
    assert best is not None
    return _in_order(best[0], best[1])


def _in_order(labels: NDArray[np.int_], centers: Matrix) -> tuple[NDArray[np.int_], Matrix]:
    """Clusters numbered in order of their first row (empty ones last), centres to match."""
    # first occurrences via return_index: a plain np.unique asks numpy.ma about masks (an import)
    used = labels[np.sort(np.unique(labels, return_index=True)[1])]
    unused = np.ones(len(centers), dtype=bool)
    unused[used] = False
    order = np.concatenate([used, np.flatnonzero(unused)])
    number = np.empty(len(centers), dtype=np.int_)
    number[order] = np.arange(len(centers))
    return number[labels], centers[order]


def silhouette(matrix: Matrix, labels: NDArray[np.int_], distances: Matrix | None = None) -> float:
    """Mean silhouette coefficient (Euclidean); a point alone in its cluster scores 0.

    ``labels`` must hold at least two clusters; ``distances`` (the rows' pairwise Euclidean
    distances, see `pairwise`) may be passed when several labellings of one matrix are scored.
    """
    if distances is None:
        distances = pairwise(matrix)
    _, codes = np.unique(labels, return_inverse=True)
    members = np.eye(codes.max() + 1)[codes.reshape(-1)]
    sizes = members.sum(axis=0)
    totals = distances @ members
    own = codes.reshape(-1)
    rows = np.arange(len(own))
    a = totals[rows, own] / np.maximum(sizes[own] - 1, 1)
    means = totals / sizes[None, :]
    means[rows, own] = np.inf
    b = means.min(axis=1)
    spread = np.maximum(a, b)
    scores = np.where((sizes[own] > 1) & (spread > 0), (b - a) / np.where(spread > 0, spread, 1), 0)
    return float(scores.mean())


def pairwise(matrix: Matrix) -> Matrix:
    """The Euclidean distances between every two rows of ``matrix`` (zero diagonal)."""
    data = np.asarray(matrix, dtype=np.float64)
    distances = np.sqrt(_sq_distances(data, data))
    np.fill_diagonal(distances, 0.0)
    return distances


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
    scores: dict[int, float] = {}
    centers: dict[int, Matrix] = {}
    distances = pairwise(rows)  # once for every k
    for k in ks:
        labels, centers[k] = fit_kmeans(rows, k, seed)
        if len(set(labels.tolist())) < 2:
            continue
        scores[k] = round(silhouette(rows, labels, distances), 6)
    if not scores:
        return KChoice(1, "silhouette_undefined")
    best = max(scores, key=lambda k: (scores[k], -k))
    return KChoice(best, "silhouette", scores, centers[best])
