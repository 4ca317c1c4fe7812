"""Mean intervals stay bounded in memory for large batches and agree with the plain bootstrap."""

from __future__ import annotations

import numpy as np
import pytest

from failproof.safe._intervals import mean_interval
from failproof.stats import bootstrap_mean


def test_small_samples_use_the_shared_bootstrap() -> None:
    values = [0.0, 0.5, 1.0, 1.0, 0.25]
    assert mean_interval(values, seed=3, resamples=2000, confidence=0.95) == bootstrap_mean(
        values, seed=3, resamples=2000, confidence=0.95
    )


def test_grouped_bootstrap_matches_the_index_bootstrap_on_large_samples() -> None:
    rng = np.random.default_rng(0)
    values = list(rng.choice([0.0, 1 / 3, 0.5, 2 / 3, 1.0], size=5000, p=[0.1, 0.1, 0.2, 0.2, 0.4]))
    grouped = mean_interval(values, seed=0, resamples=2000, confidence=0.95)
    plain = bootstrap_mean(values, seed=0, resamples=2000, confidence=0.95)
    assert grouped.estimate == pytest.approx(plain.estimate)
    assert grouped.low == pytest.approx(plain.low, abs=0.003)
    assert grouped.high == pytest.approx(plain.high, abs=0.003)
    assert grouped == mean_interval(values, seed=0, resamples=2000, confidence=0.95)


def test_constant_large_sample_has_a_zero_width_interval() -> None:
    interval = mean_interval([1.0] * 10_000, seed=0, resamples=2000, confidence=0.95)
    assert (interval.low, interval.estimate, interval.high) == (1.0, 1.0, 1.0)
