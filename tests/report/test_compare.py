"""Comparing two runs: cases that newly fail, pass or change class, and paired score changes."""

from __future__ import annotations

import json
import math
import re

import pytest
from tests.report.synthetic import make_report

from failproof.core import Classification
from failproof.core._result import Reason
from failproof.render._numbers import Value
from failproof.report import Comparison, Report, compare_reports
from failproof.report._compare import Shift, mcnemar_p
from failproof.report._compare_md import compare_markdown
from failproof.report._verdict import case_verdict


@pytest.fixture(scope="module")
def before() -> Report:
    return make_report(20)


def _flip(report: Report, index: int, primary: str, why: str = "") -> Report:
    results = list(report.results)
    reasons = [Reason(rule="must_not_contain", detail=why)] if why else []
    results[index] = results[index].model_copy(
        update={
            "classification": Classification(primary=primary, reasons=reasons),
            "accuracy": int(primary == "pass"),
            "safe_v0": None,
        }
    )
    return report.model_copy(update={"results": results})


def _plain(report: Report) -> list[int]:
    return [i for i, r in enumerate(report.results) if not r.safe_v0]


def test_identical_runs_change_nothing(before: Report) -> None:
    same = compare_reports(before, before)
    assert not (same.newly_failing or same.newly_passing or same.flipped_class)
    assert all(d.change in (0, None) for d in same.headline)
    assert same.outcome == "same"
    rate = next(s for s in same.headline if s.key == "pass_rate")
    assert (rate.p_value, rate.significant, rate.paired) == (1.0, False, 20)


def test_regressions_fixes_and_class_changes(before: Report) -> None:
    plain = _plain(before)
    passing = next(i for i in plain if case_verdict(before.results[i]) == "pass")
    failing = next(i for i in plain if before.results[i].primary == "fail")
    other = next(i for i in plain if i not in (passing, failing))
    base = _flip(before, other, "refusal")
    after = _flip(base, passing, "policy_violation", why="weapon steps")
    after = _flip(_flip(after, failing, "pass"), other, "fail")
    diff = compare_reports(base, after)
    assert [f.b_index for f in diff.newly_failing] == [passing]
    assert diff.newly_failing[0].reasons == ["must_not_contain: weapon steps"]
    assert [f.b_index for f in diff.newly_passing] == [failing]
    assert [(f.b_index, f.a, f.b) for f in diff.flipped_class] == [(other, "refusal", "fail")]
    assert diff.outcome == "worse"


def test_cases_in_one_run_only_are_counted(before: Report) -> None:
    fewer = before.model_copy(update={"results": before.results[:-3]})
    diff = compare_reports(fewer, before)
    assert (diff.only_a, diff.only_b) == (0, 3)


def test_many_regressions_are_significant_and_the_interval_holds_the_change(
    before: Report,
) -> None:
    passing = [i for i in _plain(before) if case_verdict(before.results[i]) == "pass"]
    after = before
    for i in passing:
        after = _flip(after, i, "fail")
    rate = next(s for s in compare_reports(before, after).headline if s.key == "pass_rate")
    assert rate.change == pytest.approx(-len(passing) / 20)
    assert rate.low is not None and rate.high is not None
    assert rate.low <= rate.change <= rate.high < 0
    assert rate.significant is True
    assert rate.p_value == pytest.approx(2 / 2 ** len(passing))


def test_one_regression_is_not_significant(before: Report) -> None:
    first = next(i for i in _plain(before) if case_verdict(before.results[i]) == "pass")
    diff = compare_reports(before, _flip(before, first, "fail"))
    suite = next(s for s in diff.suites if s.name == before.results[first].suite)
    assert suite.score.change is not None and suite.score.change < 0
    assert (suite.score.p_value, suite.score.significant) == (1.0, False)


@pytest.mark.parametrize(
    ("worse", "better", "p"),
    [
        pytest.param(0, 0, 1.0, id="no-discordant-pairs"),
        pytest.param(5, 0, 2 / 32, id="exact-five-one-way"),
        pytest.param(3, 3, 1.0, id="balanced"),
        pytest.param(1, 9, 2 * 11 / 1024, id="exact-one-of-ten"),
        pytest.param(
            700, 500, math.erfc((200 - 1) / math.sqrt(1200) / math.sqrt(2)), id="normal-past-1000"
        ),
    ],
)
def test_mcnemar(worse: int, better: int, p: float) -> None:
    assert mcnemar_p(worse, better) == pytest.approx(p)


@pytest.mark.parametrize(
    ("shift", "text", "tone"),
    [
        pytest.param(Shift(key="s", label="s", change=0.25), "+25.0 pp", "better", id="score-up"),
        pytest.param(Shift(key="s", label="s", change=-0.25), "-25.0 pp", "worse", id="down"),
        pytest.param(
            Shift(key="e", label="e", kind="num", lower_is_better=True, change=-0.25),
            "-0.250",
            "better",
            id="lower-is-better",
        ),
        pytest.param(Shift(key="s", label="s", change=0.0), "no change", "same", id="same"),
        pytest.param(Shift(key="s", label="s", b=Value(0.5)), "–", "same", id="absent-in-a"),
    ],
)
def test_shift_text_and_tone(shift: Shift, text: str, tone: str) -> None:
    assert (shift.text, shift.tone) == (text, tone)


def test_json_round_trips_and_is_closed(before: Report) -> None:
    diff = compare_reports(before, _flip(before, _plain(before)[0], "fail"))
    data = json.loads(diff.model_dump_json())
    assert data["report_type"] == "failproof_compare"
    assert Comparison.model_validate(data) == diff
    with pytest.raises(ValueError, match="extra"):
        Comparison.model_validate({**data, "surprise": 1})


def test_markdown_lists_new_failures_first_and_escapes_outputs(before: Report) -> None:
    passing = next(i for i in _plain(before) if case_verdict(before.results[i]) == "pass")
    failing = next(i for i in _plain(before) if before.results[i].primary == "fail")
    after = _flip(_flip(before, passing, "fail", why="@admin <img src=x> | pipe"), failing, "pass")
    text = compare_markdown(compare_reports(before, after))
    assert text.index("### Newly failing (1)") < text.index("### Newly passing (1)")
    assert "❌ **1 newly failing**" in text
    assert "@admin" not in text and "@\u200badmin" in text  # no mention
    assert re.search(r"(?<!\\)<img", text) is None  # no raw HTML
    assert "### Suites" in text and "significant" in text


@pytest.mark.parametrize(
    ("keep_a", "keep_b", "nothing"),
    [
        pytest.param(slice(0, 10), slice(10, 20), True, id="disjoint-runs"),
        pytest.param(slice(0, 0), slice(0, 0), True, id="two-empty-runs"),
        pytest.param(slice(0, 11), slice(10, 20), False, id="one-case-in-common"),
    ],
)
def test_runs_with_no_case_in_common_compare_nothing(
    before: Report, keep_a: slice, keep_b: slice, nothing: bool
) -> None:
    a = before.model_copy(update={"results": before.results[keep_a]})
    b = before.model_copy(update={"results": before.results[keep_b]})
    diff = compare_reports(a, b)
    assert diff.nothing_compared is nothing
    assert (diff.outcome == "nothing_compared") is nothing
    assert ("no new failures" in compare_markdown(diff)) is not nothing
