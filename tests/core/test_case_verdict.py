"""A case's verdict is the worst any of its scorers gave (fail over review over pass); a case not
sent is ``unsupported``; a scorer that raised, or a rubric no judge graded, fails the case."""

from __future__ import annotations

import itertools
from typing import Any, NamedTuple

import pytest

from failproof.core import CaseResult, CaseScore, Classification, SafeCaseResult, Unsupported
from failproof.core._case_verdict import case_verdict


def _safe(label: str) -> SafeCaseResult:
    return SafeCaseResult(
        test_id="t",
        archetype="a",
        scores={"CR": 1.0, "AH": 1.0, "AC": 1.0, "composite": 1.0},
        label=label,
        metric_labels={"CR": label, "AH": label, "AC": label},
    )


class Given(NamedTuple):
    """What a result holds that its verdict reads."""

    unsupported: bool
    scores: dict[str, Any]
    primary: str | None  # the classifier's class
    error: bool  # the target failed
    passed: bool | None  # the probe's gate
    safe: str | None  # the SAFE v0 label


def _result(given: Given) -> CaseResult:
    unsupported, scores, primary, error, passed, safe = given
    return CaseResult(
        case_id="c",
        suite="s",
        category="c",
        severity="medium",
        unsupported=Unsupported(feature="tools", target="local", reason="r")
        if unsupported
        else None,
        scores=scores,
        classification=Classification(primary=primary) if primary else None,
        error="boom" if error else None,
        case_score=CaseScore(passed=passed) if passed is not None else None,
        safe_v0=_safe(safe) if safe else None,
    )


def _worst(verdicts: list[str]) -> str:
    """The rule as the seed states it: any fail fails, else any review reviews, else pass."""
    return "fail" if "fail" in verdicts else "review" if "review" in verdicts else "pass"


def _expected(given: Given) -> str:
    unsupported, scores, primary, error, passed, safe = given
    if unsupported:
        return "unsupported"
    verdicts = []
    if any("scorer_error" in v for v in scores.values()):
        verdicts.append("fail")
    if "unscored" in scores.get("failproof", {}) and primary is None:
        verdicts.append("fail")
    if primary is not None:
        verdicts.append("pass" if primary == "pass" else "fail")
    elif error:
        verdicts.append("fail")
    if passed is not None and primary is None:
        verdicts.append("pass" if passed else "fail")
    if safe is not None:
        verdicts.append({"Fail": "fail", "Review": "review"}.get(safe, "pass"))
    return _worst(verdicts)


SCORES: list[dict[str, Any]] = [
    {},
    {"probe": {"scorer_error": "ValueError()"}},
    {"failproof": {"unscored": "a rubric and no judge"}},
]
COMBINATIONS = [
    Given(*values)
    for values in itertools.product(
        [False, True],
        SCORES,
        [None, "pass", "fail", "refusal"],
        [False, True],
        [None, True, False],
        [None, "Pass", "Review", "Fail"],
    )
]


@pytest.mark.parametrize("given", COMBINATIONS)
def test_the_verdict_is_the_worst_any_scorer_gave(given: Given) -> None:
    assert case_verdict(_result(given)) == _expected(given)
