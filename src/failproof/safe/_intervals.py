"""Confidence intervals of SAFE means and pass rates, bounded in memory for large batches.

Pass rates use the Wilson interval. Means use the seeded percentile bootstrap of `failproof.stats`
while ``n * resamples`` is small; beyond that, the same bootstrap is drawn per *distinct value*
(a multinomial over the value counts, which has exactly the distribution of resampling the cases)
so that 100,000 cases cost as little as their few distinct scores.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from failproof.stats import bootstrap_mean, wilson
from failproof.stats._intervals import Interval, interval

__all__ = ["mean_interval", "rate_interval"]

_DIRECT_LIMIT = 4_000_000  # n * resamples below which the plain index bootstrap is used
_CHUNK_CELLS = 4_000_000  # cells per multinomial chunk (memory bound)


def rate_interval(successes: int, n: int, confidence: float) -> Interval:
    """Wilson interval of ``successes / n``."""
    return wilson(successes, n, confidence)


def mean_interval(
    values: Sequence[float], *, seed: int, resamples: int, confidence: float
) -> Interval:
    """Percentile bootstrap interval of the mean, from an explicit seed."""
    n = len(values)
    if n * resamples <= _DIRECT_LIMIT:
        return bootstrap_mean(values, seed=seed, resamples=resamples, confidence=confidence)
    data = np.asarray(values, dtype=float)
    distinct, counts = np.unique(data, return_counts=True)
    mean = float(data.mean())
    if len(distinct) == 1:
        return interval(mean, mean, mean, n, "bootstrap", confidence)
    rng = np.random.default_rng(seed)
    chunk = max(1, _CHUNK_CELLS // len(distinct))
    means: list[np.ndarray] = []
    for start in range(0, resamples, chunk):
        size = min(chunk, resamples - start)
        draws = rng.multinomial(n, counts / n, size=size)
        means.append(draws @ distinct / n)
    alpha = (1 - confidence) / 2
    low, high = np.quantile(np.concatenate(means), [alpha, 1 - alpha])
    return interval(mean, float(low), float(high), n, "bootstrap", confidence)
