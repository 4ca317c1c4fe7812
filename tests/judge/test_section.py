"""The judge section of the report: agreement, kappa, disagreements and errors."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import ValidationError

from failproof.config import Settings
from failproof.core import CaseResult, Run
from failproof.judge._section import JudgeErrorRow, JudgeSection
from failproof.report import Report, build_report, renderers


def opinion(refusal: str | None, harmful: bool | None, passed: bool) -> dict[str, Any]:
    return {"refusal": refusal, "harmful": harmful, "passed": passed}


def result(
    case_id: str, rules: dict[str, Any], judge: dict[str, Any], status: str = "ok"
) -> CaseResult:
    score: dict[str, Any] = {"status": status, "rules": rules, "judge": judge}
    score["call"] = {"judge": "openai:j", "rubric": "response@1", "cached": False, "answers": [{}]}
    if status == "judge_error":
        score["error"] = "no valid verdict after 3 call(s): the answer holds no JSON object"
    else:
        score["reason"] = f"reason of {case_id}"
    return CaseResult(
        case_id=case_id, suite="s", category="c", severity="low", scores={"judge": score}
    )


REFUSED, HELPED = opinion("refusal", False, True), opinion("compliance", False, True)
HARMFUL = opinion("compliance", True, False)
ERROR = opinion(None, None, False)

RESULTS = [
    result("a", REFUSED, REFUSED),
    result("b", HELPED, HELPED),
    result("c", HELPED, HARMFUL),
    result("d", REFUSED, HELPED),
    result("e", HELPED, ERROR, status="judge_error"),
    CaseResult(case_id="f", suite="s", category="c", severity="low"),
]


@pytest.fixture
def report() -> Report:
    return build_report(Run(id="r1", target={"name": "mock"}), RESULTS, Settings())


def judge_of(report: Report) -> JudgeSection:
    section = report.extensions["judge"]
    assert isinstance(section, JudgeSection)
    return section


def test_agreement_counts_only_the_answered_cases(report: Report) -> None:
    section = judge_of(report)
    assert (section.judged, section.judge_errors) == (4, 1)
    passed = section.agreement.passed
    # rules pass a, b, c, d; judge passes a, b, d: p_o = 3/4, p_e = 1 * 3/4, kappa 0
    assert passed.n == 4
    assert passed.agreement == pytest.approx(0.75)
    assert passed.kappa == pytest.approx(0.0)
    refused = section.agreement.refused
    # rules refuse a, d; judge refuses a: p_o = 3/4, p_e = 0.5 * 0.25 + 0.5 * 0.75 = 0.5
    assert refused.agreement == pytest.approx(0.75)
    assert refused.kappa == pytest.approx(0.5)


def test_the_judge_pass_rate_counts_an_error_as_not_passed(report: Report) -> None:
    assert judge_of(report).judge_pass_rate == pytest.approx(3 / 5)


def test_disagreements_say_on_what_and_why(report: Report) -> None:
    section = judge_of(report)
    assert section.disagreement_count == 2
    c, d = section.disagreements
    assert (c.case_id, c.differ_on) == ("c", "passed, harmful")
    assert c.rules == "pass: compliance, not harmful"
    assert c.judge == "fail: compliance, harmful"
    assert c.judge_reason == "reason of c"
    assert (d.case_id, d.differ_on) == ("d", "refused")
    assert [e.case_id for e in section.errors] == ["e"]


def test_the_section_refuses_a_key_it_does_not_declare(report: Report) -> None:
    written = judge_of(report).model_dump()
    assert JudgeSection.model_validate(written) == judge_of(report)
    with pytest.raises(ValidationError, match="judge_pass_rat"):
        JudgeSection.model_validate({**written, "judge_pass_rat": 1.0})


def test_a_report_read_back_from_json_holds_the_typed_section(report: Report) -> None:
    again = Report.model_validate_json(renderers.get("json")().render(report))
    assert judge_of(again) == judge_of(report)


def test_a_judge_scorer_that_raised_counts_as_a_judge_error() -> None:
    broken = CaseResult(
        case_id="x",
        suite="s",
        category="c",
        severity="low",
        scores={"judge": {"scorer_error": "RuntimeError('boom')"}},
    )
    report = build_report(Run(id="r4", target={"name": "mock"}), [broken], Settings())
    section = judge_of(report)
    assert (section.judged, section.judge_errors, section.judge_pass_rate) == (0, 1, 0.0)
    assert section.errors == [JudgeErrorRow(case_id="x", suite="s", error="RuntimeError('boom')")]


def test_no_judge_no_section() -> None:
    plain = build_report(Run(id="r2", target={"name": "mock"}), RESULTS[-1:], Settings())
    assert "judge" not in plain.extensions


@pytest.mark.parametrize("fmt", ["markdown", "console", "html"])
def test_every_human_format_shows_the_section(report: Report, fmt: str) -> None:
    renderer = renderers.get(fmt)
    text = renderer(color=False).render(report) if fmt == "console" else renderer().render(report)
    assert (
        "Rules vs LLM judge (openai:j, role advise): 4 judged, 1 judge errors, 2 disagreements"
        in text
    )


def test_the_html_section_lists_disagreements_and_errors(report: Report) -> None:
    html = renderers.get("html")().render(report)
    for text in ("Where they disagree", "Judge errors", "reason of c", "passed, harmful"):
        assert text in html


def test_a_hostile_judge_spec_is_shown_escaped_on_the_console() -> None:
    hostile = result("a", REFUSED, REFUSED)
    hostile.scores["judge"]["call"]["judge"] = "openai:\x1b[31mred"
    report = build_report(Run(id="r3", target={"name": "mock"}), [hostile], Settings())
    text = renderers.get("console")(color=False).render(report)
    assert "\x1b[31m" not in text
    assert "\\x1b[31mred" in text


def test_a_section_of_another_shape_reads_back_and_is_drawn_as_generic_tables(
    report: Report,
) -> None:
    written = json.loads(renderers.get("json")().render(report))
    written["extensions"]["judge"]["kappa_method"] = "fleiss"  # another version's key
    again = Report.model_validate(written)
    assert isinstance(again.extensions["judge"], dict)
    html = renderers.get("html")().render(again)
    assert "kappa method" in html
    assert "Rules vs LLM judge" not in html
