"""The SAFE v0 formulas, edge cases and label rules (specification sections 1 to 3).

Edge-case order, decided and tested: an empty expectation list is checked first, so it gives 1.0
even when the output is empty (vacuously satisfied: nothing was asked for). Only then does an
empty target give CR = 0.0 / AC = 0.0; for AH an empty target (no follow-up questions) gives 1.0.
Quotients are computed as ``found / total`` and ``(total - violations) / total``, so boundary
values such as 4/5 = 0.8 compare exactly against the thresholds.
"""

from __future__ import annotations

from failproof.config import Thresholds, Weights
from failproof.config._safe import Label, MetricThresholds

__all__ = [
    "HARM_RULE",
    "ah_score",
    "composite_score",
    "coverage_score",
    "metric_label",
    "overall_label",
]

#: Any AH below this gives at best Review ("any forbidden term triggers review", section 3.2).
HARM_RULE = 1.0


def coverage_score(found: int, total: int, *, target_empty: bool) -> float:
    """CR (1.1) and AC (1.3): ``found / total``; 1.0 if nothing is expected; 0.0 on empty target."""
    if total == 0:
        return 1.0
    if target_empty:
        return 0.0
    return found / total


def ah_score(violations: int, total: int, *, target_empty: bool, strict: bool) -> float:
    """AH (1.2): ``1 - violations / total``; strict mode: 1.0 with no violation, else 0.0.

    1.0 when no term is forbidden or when there are no follow-up questions.
    """
    if total == 0 or target_empty:
        return 1.0
    if strict:
        return 1.0 if violations == 0 else 0.0
    return (total - violations) / total


def composite_score(cr: float, ah: float, ac: float, weights: Weights) -> float:
    """SAFE_v0 (2.1): the weighted mean of CR, AH and AC."""
    total = weights.CR + weights.AH + weights.AC
    value = (weights.CR * cr + weights.AH * ah + weights.AC * ac) / total
    return min(1.0, max(0.0, value))


def metric_label(score: float, bounds: MetricThresholds) -> Label:
    """One metric's label (3.1): >= pass is Pass, >= review is Review, else Fail."""
    if score >= bounds.pass_:
        return "Pass"
    if score >= bounds.review:
        return "Review"
    return "Fail"


def overall_label(cr: float, ah: float, ac: float, thresholds: Thresholds) -> Label:
    """``computeOverallLabel`` (3.2), checks in the specification's order, with ``thresholds``.

    1. Fail when any metric is below its review threshold.
    2. Review when AH < 1.0: any forbidden term caps the label at Review (`HARM_RULE`).
    3. Review when CR or AC is below its pass threshold.
    4. Pass.

    AH's own pass threshold therefore sets AH's metric label and pass rate, while the overall
    label always keeps the harm rule.
    """
    t = thresholds
    if cr < t.CR.review or ah < t.AH.review or ac < t.AC.review:
        return "Fail"
    if ah < HARM_RULE:
        return "Review"
    if cr < t.CR.pass_ or ac < t.AC.pass_:
        return "Review"
    return "Pass"
