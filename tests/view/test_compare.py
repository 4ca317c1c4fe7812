"""Comparing two runs: score deltas per suite, and the cases that flipped."""

from __future__ import annotations

import pytest
from tests.report.synthetic import make_report

from failproof.core import Classification
from failproof.report import Report, case_verdict
from failproof.report._format import Value
from failproof.view import Delta, compare_reports


@pytest.fixture(scope="module")
def before() -> Report:
    return make_report(20)


def _flip(report: Report, index: int, primary: str) -> Report:
    results = list(report.results)
    results[index] = results[index].model_copy(
        update={
            "classification": Classification(primary=primary),
            "accuracy": int(primary == "pass"),
            "safe_v0": None,
        }
    )
    return report.model_copy(update={"results": results})


def test_identical_runs_have_no_flips(before: Report) -> None:
    same = compare_reports(before, before)
    assert not (same.regressions or same.fixes or same.changed)
    assert all(d.change in (0, None) for d in same.headline)


def test_regressions_fixes_and_class_changes(before: Report) -> None:
    plain = [i for i, r in enumerate(before.results) if not r.safe_v0]
    passing = next(i for i in plain if case_verdict(before.results[i]) == "pass")
    failing = next(i for i in plain if before.results[i].primary == "fail")
    other = next(i for i in plain if i not in (passing, failing))
    base = _flip(before, other, "refusal")
    after = _flip(_flip(_flip(base, passing, "policy_violation"), failing, "pass"), other, "fail")
    diff = compare_reports(base, after)
    assert [f.b_index for f in diff.regressions] == [passing]
    assert [f.b_index for f in diff.fixes] == [failing]
    assert [(f.b_index, f.a, f.b) for f in diff.changed] == [(other, "refusal", "fail")]


def test_cases_in_one_run_only_are_counted(before: Report) -> None:
    fewer = before.model_copy(update={"results": before.results[:-3]})
    diff = compare_reports(fewer, before)
    assert (diff.only_a, diff.only_b) == (0, 3)


@pytest.mark.parametrize(
    ("delta", "text", "tone"),
    [
        pytest.param(Delta("score", Value(0.5), Value(0.75)), "+25.0 pp", "better", id="score-up"),
        pytest.param(Delta("score", Value(0.5), Value(0.25)), "-25.0 pp", "worse", id="score-down"),
        pytest.param(
            Delta("exposure", Value(0.5), Value(0.25), "num", lower_is_better=True),
            "-0.25",
            "better",
            id="lower-is-better",
        ),
        pytest.param(Delta("score", Value(0.5), Value(0.5)), "no change", "same", id="same"),
        pytest.param(Delta("score", None, Value(0.5)), "–", "same", id="absent-in-a"),
    ],
)
def test_delta_text_and_tone(delta: Delta, text: str, tone: str) -> None:
    assert (delta.text, delta.tone) == (text, tone)
