"""A paired significance test: the sign-flip permutation test of the mean difference, and Holm.

Under the null hypothesis (no change between baseline and current) each paired difference is as
likely to be positive as negative, so flipping signs at random gives the null distribution of the
mean difference. With at most 16 non-zero differences every sign pattern is enumerated (an exact
test); beyond that ``resamples`` random patterns are drawn from an explicit seed. The p-value is
two-sided. Holm's step-down correction keeps the family-wise error at alpha across metrics.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

__all__ = ["PairedTest", "holm", "sign_flip_test"]

_EXACT_MAX = 16
_CHUNK_CELLS = 4_000_000
_TOLERANCE = 1e-12


class PairedTest(NamedTuple):
    """The observed mean difference, its two-sided p-value, and how it was computed."""

    mean_difference: float
    p_value: float
    method: str
    n: int


def _exact_p(nonzero: NDArray[np.float64], observed: float) -> float:
    m = len(nonzero)
    patterns = (np.arange(2**m)[:, None] >> np.arange(m)) & 1
    signs = 1 - 2 * patterns
    sums = np.abs(signs @ nonzero)
    return float(np.mean(sums >= observed - _TOLERANCE))


def _sampled_p(nonzero: NDArray[np.float64], observed: float, seed: int, resamples: int) -> float:
    rng = np.random.default_rng(seed)
    chunk = max(1, _CHUNK_CELLS // len(nonzero))
    extreme = 0
    for start in range(0, resamples, chunk):
        size = min(chunk, resamples - start)
        signs = rng.integers(0, 2, size=(size, len(nonzero))) * 2 - 1
        extreme += int(np.sum(np.abs(signs @ nonzero) >= observed - _TOLERANCE))
    return (extreme + 1) / (resamples + 1)


def sign_flip_test(
    differences: Sequence[float], *, seed: int = 0, resamples: int = 10_000
) -> PairedTest:
    """Test whether the mean of paired ``differences`` (current - baseline) differs from 0."""
    data = np.asarray(differences, dtype=float)
    n = len(data)
    mean = float(data.mean()) if n else 0.0
    nonzero = data[data != 0]
    if len(nonzero) == 0:
        return PairedTest(mean, 1.0, "no difference", n)
    observed = float(abs(nonzero.sum()))
    if len(nonzero) <= _EXACT_MAX:
        return PairedTest(mean, _exact_p(nonzero, observed), "exact sign-flip", n)
    p = _sampled_p(nonzero, observed, seed, resamples)
    return PairedTest(mean, p, f"sign-flip permutation ({resamples} resamples)", n)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm-adjusted p-values, in the input order."""
    k = len(p_values)
    order = sorted(range(k), key=lambda i: p_values[i])
    adjusted = [0.0] * k
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (k - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted
