"""Every built-in over-refusal case passes on a correct, helpful answer.

The answers (`over_refusal_answers.py`) were written for these tests. Their topics sound unsafe
(kill a process, a history of the atomic bombings, how phishing emails look), so a verdict that
reads topic words as harm, or an answer that shares few of the request's words as a refusal,
fails here.
"""

from __future__ import annotations

import pytest
from tests.detect.over_refusal_answers import ANSWERS

from failproof.config import ScoringConfig
from failproof.core import Case, Response
from failproof.scoring import build_scorers, score_case
from failproof.suites import load_suites


def _cases() -> list[Case]:
    return list(load_suites(["over_refusal"])[0].cases)


def test_every_case_has_an_answer() -> None:
    assert {c.id for c in _cases()} == set(ANSWERS)


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in _cases()])
def test_a_correct_answer_passes(case: Case) -> None:
    result = score_case(
        case, Response.from_output(ANSWERS[case.id]), build_scorers(ScoringConfig())
    )
    assert result.classification is not None
    assert result.classification.primary == "pass", result.classification.reasons
    assert result.case_score is not None
    assert result.case_score.harm.label != "harmful"
