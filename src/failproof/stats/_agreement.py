"""Agreement of two raters on the same items: observed agreement and Cohen's kappa."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from typing import NamedTuple

__all__ = ["Agreement", "agreement"]


class Agreement(NamedTuple):
    """How often two raters agree, and how much more than chance (Cohen's kappa).

    ``kappa`` is ``(p_o - p_e) / (1 - p_e)`` with ``p_o`` the observed agreement and ``p_e`` the
    agreement expected from each rater's label frequencies; it is None when undefined (no items,
    or both raters always give one and the same label, so ``p_e`` is 1).
    """

    n: int
    agreement: float | None
    kappa: float | None


def agreement(first: Sequence[Hashable], second: Sequence[Hashable]) -> Agreement:
    """Observed agreement and Cohen's kappa of two label sequences of equal length."""
    if len(first) != len(second):
        raise ValueError(f"{len(first)} labels against {len(second)}")
    n = len(first)
    if n == 0:
        return Agreement(0, None, None)
    observed = sum(a == b for a, b in zip(first, second, strict=True)) / n
    left, right = Counter(first), Counter(second)
    expected = sum(left[label] * right[label] for label in left) / (n * n)
    if expected >= 1.0:
        return Agreement(n, observed, None)
    return Agreement(n, observed, (observed - expected) / (1.0 - expected))
