"""The ``summary`` and ``suites`` sections computed the plain way, from a list of results: the
independent reference the accumulators (the one implementation that runs) must equal."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from failproof.core import CaseResult
from failproof.core._result import PRIMARY_CLASSES
from failproof.metrics import AggregateContext
from failproof.metrics._scores import (
    latency_summary,
    overall_run_score,
    penalty_score,
    suite_score,
    weighted_run_score,
)
from failproof.stats import wilson


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
    classifier = ctx.scoring.classifier
    accuracies = _accuracies(group)
    return {
        "n": len(group),
        "passed": sum(accuracies),
        "score": suite_score(accuracies),
        "weight": ctx.scoring.suite_weights.get(name, 1.0),
        "counts": dict(Counter(r.primary for r in group)),
        "penalty_score": penalty_score(_classified(group), classifier.penalties),
        "latency": latency_summary(_latencies(group), classifier.latency_budget_ms),
    }


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
        "weighted_run_score": weighted_run_score(scores, ctx.scoring.suite_weights),
        "penalty_score": overall_run_score(list(penalties.values())),
        "weighted_penalty_score": weighted_run_score(penalties, ctx.scoring.suite_weights),
        "latency": latency_summary(_latencies(results), ctx.scoring.classifier.latency_budget_ms),
    }
