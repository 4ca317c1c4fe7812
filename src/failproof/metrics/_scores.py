"""FailProof LLM's scores: accuracy, suite and run scores, and the seed's future enhancements.

From the FailProof scoring criteria: a case's ``accuracy`` is 1 for ``pass`` and 0 otherwise; a
suite score is the mean accuracy of the suite's cases; the overall run score is the mean of the
suite scores. Cases without an ``accuracy`` (no classifier applied) are left out of both means.

The enhancements, reported next to them in the ``suites`` and ``summary`` sections:

- **weighted run score**: suite scores averaged with each suite file's ``weight``;
- **penalty score**: the mean of ``1 - penalty`` of each case's class (``classifier.penalties``),
  per suite, and for the run as the mean of the suite penalty scores;
- **latency**: p50 / p95 of ``latency_ms`` and, with ``classifier.latency_budget_ms``, the share
  of responses within the budget (the latency score). Failed calls that took time count: a
  timeout is a slow response.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from failproof.core import Interval
from failproof.metrics._summary_section import Latency
from failproof.stats import wilson

__all__ = [
    "Verdict",
    "latency_summary",
    "overall_run_score",
    "penalty_score",
    "percentile",
    "suite_score",
    "weighted_run_score",
]


def suite_score(accuracies: Sequence[int]) -> float | None:
    """Sum of accuracy / number of cases; None for a suite with no scored case."""
    return sum(accuracies) / len(accuracies) if accuracies else None


def overall_run_score(suite_scores: Sequence[float]) -> float | None:
    """Sum of suite scores / number of suites; None when no suite was scored."""
    return sum(suite_scores) / len(suite_scores) if suite_scores else None


def weighted_run_score(
    suite_scores: Mapping[str, float], weights: Mapping[str, float]
) -> float | None:
    """Suite scores averaged with each suite's ``weight`` (default 1.0)."""
    total = sum(weights.get(name, 1.0) for name in suite_scores)
    if not suite_scores or total == 0:
        return None
    return sum(score * weights.get(name, 1.0) for name, score in suite_scores.items()) / total


def penalty_score(primaries: Sequence[str], penalties: Mapping[str, float]) -> float | None:
    """Mean of ``1 - penalty`` over the classes; an unknown class takes the full penalty."""
    if not primaries:
        return None
    return sum(1.0 - penalties.get(p, 1.0) for p in primaries) / len(primaries)


def percentile(values: Sequence[float], q: float) -> float | None:
    """The ``q``-th percentile (0-100), linearly interpolated between ranks; None when empty."""
    if not values:
        return None
    data = sorted(values)
    position = (len(data) - 1) * q / 100
    low = math.floor(position)
    high = min(low + 1, len(data) - 1)
    return data[low] + (data[high] - data[low]) * (position - low)


def latency_summary(latencies: Sequence[float], budget_ms: float | None) -> Latency:
    """p50 / p95 in milliseconds and, given a budget, the share of responses within it."""
    within = sum(1 for v in latencies if v <= budget_ms) if budget_ms is not None else None
    return Latency(
        n=len(latencies),
        p50_ms=percentile(latencies, 50),
        p95_ms=percentile(latencies, 95),
        budget_ms=budget_ms,
        within_budget=within,
        score=within / len(latencies) if within is not None and latencies else None,
    )


@dataclass(frozen=True, slots=True)
class Verdict:
    """The run's verdict in numbers: the classifier's passes over every case it was to judge.

    Target errors and unanswered cases (planned but never stored: a stopped or aborted run) are
    counted apart and stay in the denominator: they are never passes. Cases no classifier judged
    (no ``expect``) are not in it.
    """

    passed: int
    rate: Interval
    errors: int
    unanswered: int

    @classmethod
    def of(cls, passed: int, judged: int, errors: int, total: int, planned: int | None) -> Verdict:
        """From the passes, the cases judged, the target errors and the cases stored."""
        unanswered = max(0, planned - total) if planned is not None else 0
        return cls(passed, wilson(passed, judged + unanswered), errors, unanswered)
