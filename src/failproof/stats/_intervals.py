"""Confidence intervals: Wilson for proportions, a seeded percentile bootstrap for means."""

from __future__ import annotations

import math
from collections.abc import Sequence

from failproof.core import Interval

__all__ = ["Interval", "bootstrap_mean", "interval", "wilson"]

_Z95 = 1.959963984540054


def interval(
    estimate: float | None,
    low: float | None,
    high: float | None,
    n: int,
    method: str,
    confidence: float,
) -> Interval:
    """An `Interval` from its parts, in the order they are written."""
    return Interval(estimate=estimate, low=low, high=high, n=n, method=method, level=confidence)


def _z(confidence: float) -> float:
    if confidence == 0.95:
        return _Z95
    from statistics import NormalDist

    return NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson(successes: int, n: int, confidence: float = 0.95) -> Interval:
    """Wilson score interval of ``successes / n``; with n = 0 every field but n is None."""
    if n < 0 or successes < 0 or successes > n:
        raise ValueError(f"need 0 <= successes <= n, got {successes} of {n}")
    if n == 0:
        return interval(None, None, None, 0, "wilson", confidence)
    z = _z(confidence)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return interval(p, max(0.0, centre - half), min(1.0, centre + half), n, "wilson", confidence)


def bootstrap_mean(
    values: Sequence[float],
    *,
    seed: int = 0,
    resamples: int = 2000,
    confidence: float = 0.95,
) -> Interval:
    """Percentile bootstrap interval of the mean, from an explicit seed (never global state)."""
    n = len(values)
    if n == 0:
        return interval(None, None, None, 0, "bootstrap", confidence)
    import numpy as np  # the intervals of a report without bootstraps load none

    data = np.asarray(values, dtype=float)
    mean = float(data.mean())
    if n == 1 or float(data.min()) == float(data.max()):
        return interval(mean, mean, mean, n, "bootstrap", confidence)
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, n, size=(resamples, n))
    means = data[idx].mean(axis=1)
    alpha = (1 - confidence) / 2
    low, high = np.quantile(means, [alpha, 1 - alpha])
    return interval(mean, float(low), float(high), n, "bootstrap", confidence)
