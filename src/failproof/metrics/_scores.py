"""FailProof LLM's scores: per-case accuracy, suite score and overall run score.

From the FailProof scoring criteria: a case's ``accuracy`` is 1 for ``pass`` and 0 otherwise; a
suite score is the mean accuracy of the suite's cases; the overall run score is the mean of the
suite scores. Cases without an ``accuracy`` (no classifier applied) are left out of both means.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from failproof.core import PRIMARY_CLASSES, CaseResult
from failproof.metrics._base import AggregateContext, aggregators

__all__ = ["overall_run_score", "suite_score", "weighted_run_score"]


def suite_score(accuracies: Sequence[int]) -> float | None:
    """Sum of accuracy / number of cases; None for a suite with no scored case."""
    return sum(accuracies) / len(accuracies) if accuracies else None


def overall_run_score(suite_scores: Sequence[float]) -> float | None:
    """Sum of suite scores / number of suites; None when no suite was scored."""
    return sum(suite_scores) / len(suite_scores) if suite_scores else None


def weighted_run_score(suite_scores: Mapping[str, float], weights: Mapping[str, float]) -> float | None:
    """Suite scores averaged with each suite's ``weight`` (default 1.0)."""
    total = sum(weights.get(name, 1.0) for name in suite_scores)
    if not suite_scores or total == 0:
        return None
    return sum(score * weights.get(name, 1.0) for name, score in suite_scores.items()) / total


def _by_suite(results: Sequence[CaseResult]) -> dict[str, list[CaseResult]]:
    groups: dict[str, list[CaseResult]] = {}
    for result in results:
        groups.setdefault(result.suite, []).append(result)
    return groups


@aggregators.register("suites")
def suites_section(results: Sequence[CaseResult], ctx: AggregateContext) -> dict[str, Any]:
    """Per suite: n, passed, score, weight and counts by primary class."""
    out: dict[str, Any] = {}
    for name, group in sorted(_by_suite(results).items()):
        accuracies = [r.accuracy for r in group if r.accuracy is not None]
        out[name] = {
            "n": len(group),
            "passed": sum(accuracies),
            "score": suite_score(accuracies),
            "weight": ctx.suite_weights.get(name, 1.0),
            "counts": dict(Counter(r.primary for r in group)),
        }
    return out


@aggregators.register("summary")
def summary_section(results: Sequence[CaseResult], ctx: AggregateContext) -> dict[str, Any]:
    """Totals, counts by primary class, overall run score and weighted run score."""
    counts = Counter(r.primary for r in results)
    per_suite = {
        name: score
        for name, group in _by_suite(results).items()
        if (score := suite_score([r.accuracy for r in group if r.accuracy is not None]))
        is not None
    }
    return {
        "total_cases": len(results),
        "counts": {cls: counts.get(cls, 0) for cls in PRIMARY_CLASSES}
        | {k: v for k, v in counts.items() if k not in PRIMARY_CLASSES},
        "overall_run_score": overall_run_score(list(per_suite.values())),
        "weighted_run_score": weighted_run_score(per_suite, ctx.suite_weights),
    }
