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
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from failproof.core import PRIMARY_CLASSES, CaseResult
from failproof.metrics._base import AggregateContext, aggregators
from failproof.stats import wilson

__all__ = [
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


def latency_summary(latencies: Sequence[float], budget_ms: float | None) -> dict[str, Any]:
    """p50 / p95 in milliseconds and, given a budget, the share of responses within it."""
    within = sum(1 for v in latencies if v <= budget_ms) if budget_ms is not None else None
    return {
        "n": len(latencies),
        "p50_ms": percentile(latencies, 50),
        "p95_ms": percentile(latencies, 95),
        "budget_ms": budget_ms,
        "within_budget": within,
        "score": within / len(latencies) if within is not None and latencies else None,
    }


def _by_suite(results: Sequence[CaseResult]) -> dict[str, list[CaseResult]]:
    groups: dict[str, list[CaseResult]] = {}
    for result in results:
        groups.setdefault(result.suite, []).append(result)
    return groups


def _accuracies(group: Sequence[CaseResult]) -> list[int]:
    return [r.accuracy for r in group if r.accuracy is not None]


def _classified(group: Sequence[CaseResult]) -> list[str]:
    return [r.primary for r in group if r.classification is not None]


def _latencies(group: Sequence[CaseResult]) -> list[float]:
    return [r.latency_ms for r in group if r.latency_ms is not None]


def _suite_row(group: Sequence[CaseResult], name: str, ctx: AggregateContext) -> dict[str, Any]:
    classifier = ctx.settings.classifier
    accuracies = _accuracies(group)
    return {
        "n": len(group),
        "passed": sum(accuracies),
        "score": suite_score(accuracies),
        "weight": ctx.suite_weights.get(name, 1.0),
        "counts": dict(Counter(r.primary for r in group)),
        "penalty_score": penalty_score(_classified(group), classifier.penalties),
        "latency": latency_summary(_latencies(group), classifier.latency_budget_ms),
    }


@aggregators.register("suites")
def suites_section(results: Sequence[CaseResult], ctx: AggregateContext) -> dict[str, Any]:
    """Per suite: n, passed, score, weight, counts by class, penalty score and latency."""
    return {
        name: _suite_row(group, name, ctx) for name, group in sorted(_by_suite(results).items())
    }


def _per_suite(results: Sequence[CaseResult], ctx: AggregateContext) -> dict[str, dict[str, Any]]:
    return {name: _suite_row(group, name, ctx) for name, group in _by_suite(results).items()}


def _scored(rows: Mapping[str, Mapping[str, Any]], key: str) -> dict[str, float]:
    return {name: row[key] for name, row in rows.items() if row[key] is not None}


def verdict_counts(results: Sequence[CaseResult], planned: int | None) -> dict[str, Any]:
    """The run's verdict in numbers: the classifier's passes over every case it was to judge.

    Target errors and unanswered cases (planned but never stored: a stopped or aborted run) are
    counted apart and stay in the denominator: they are never passes. Cases no classifier judged
    (no ``expect``) are not in it.
    """
    errors = sum(r.error is not None for r in results)
    judged = sum(r.accuracy is not None or r.error is not None for r in results)
    passed = sum(r.accuracy == 1 for r in results)
    return verdict_fields(passed, judged, errors, len(results), planned)


def verdict_fields(
    passed: int, judged: int, errors: int, total: int, planned: int | None
) -> dict[str, Any]:
    """`verdict_counts` from its counts: passes, cases judged, target errors, cases stored."""
    unanswered = max(0, planned - total) if planned is not None else 0
    rate = wilson(passed, judged + unanswered)
    return {
        "passed": passed,
        "pass_rate": rate.estimate,
        "pass_rate_ci": rate.as_dict(),
        "errors": errors,
        "unanswered": unanswered,
    }


@aggregators.register("summary")
def summary_section(results: Sequence[CaseResult], ctx: AggregateContext) -> dict[str, Any]:
    """Totals, counts by class, the verdict's pass rate, errors and unanswered cases, overall /
    weighted run score, penalty score and latency."""
    counts = Counter(r.primary for r in results)
    rows = _per_suite(results, ctx)
    scores = _scored(rows, "score")
    penalties = _scored(rows, "penalty_score")
    return {
        "total_cases": len(results),
        **verdict_counts(results, ctx.planned),
        "counts": {cls: counts.get(cls, 0) for cls in PRIMARY_CLASSES}
        | {k: v for k, v in counts.items() if k not in PRIMARY_CLASSES},
        "overall_run_score": overall_run_score(list(scores.values())),
        "weighted_run_score": weighted_run_score(scores, ctx.suite_weights),
        "penalty_score": overall_run_score(list(penalties.values())),
        "weighted_penalty_score": weighted_run_score(penalties, ctx.suite_weights),
        "latency": latency_summary(_latencies(results), ctx.settings.classifier.latency_budget_ms),
    }
