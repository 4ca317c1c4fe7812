"""JUnit XML: one testcase per case, grouped by suite, always well-formed."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from tests.report.synthetic import make_report

from failproof.core import Classification
from failproof.core._result import Reason
from failproof.render._text import xml_text
from failproof.report import Report
from failproof.report._junit import JUnitRenderer
from failproof.report._verdict import case_verdict


def _xml(report: Report) -> ET.Element:
    return ET.fromstring(JUnitRenderer().render(report).encode("utf-8"))


def test_one_testsuite_per_suite_and_one_testcase_per_case(report: Report) -> None:
    root = _xml(report)
    assert root.tag == "testsuites"
    assert [s.get("name") for s in root.iter("testsuite")] == list(
        dict.fromkeys(r.suite for r in report.results)
    )
    assert len(list(root.iter("testcase"))) == len(report.results) == int(root.get("tests", 0))


def test_counts_match_the_verdicts(report: Report) -> None:
    root = _xml(report)
    failing = sum(case_verdict(r) == "fail" for r in report.results)
    errors = sum(r.primary == "error" for r in report.results)
    assert int(root.get("errors", -1)) == errors == len(list(root.iter("error")))
    assert int(root.get("failures", -1)) == failing - errors == len(list(root.iter("failure")))


def test_a_failure_carries_its_class_and_reasons(report: Report) -> None:
    root = _xml(report)
    result = next(r for r in report.results if r.primary == "policy_violation")
    case = next(c for c in root.iter("testcase") if c.get("name") == result.case_id)
    failure = case.find("failure")
    assert failure is not None
    assert failure.get("type") == "policy_violation"
    reason = result.classification.reasons[0]
    assert failure.get("message") == f"{reason.rule}: {reason.detail} [{reason.evidence}]"
    assert result.output in (failure.text or "")
    assert case.get("classname") == f"{result.suite}.{result.category}"


def test_properties_carry_the_run_id_and_scores(report: Report) -> None:
    suite = next(_xml(report).iter("testsuite"))
    props = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert props["run_id"] == report.run.id
    assert float(props["overall_run_score"]) == report.summary.overall_run_score
    assert "suite_score" in props and "resilience_index" in props


def test_unscored_cases_are_skipped() -> None:
    report = make_report(3)
    bare = [
        r.model_copy(
            update={
                "classification": None,
                "case_score": None,
                "safe_v0": None,
                "accuracy": None,
                "error": None,
            }
        )
        for r in report.results
    ]
    root = _xml(report.model_copy(update={"results": bare}))
    assert len(list(root.iter("skipped"))) == 3


@pytest.mark.parametrize(
    "nasty",
    [
        pytest.param("\x00\x01\x08\x0b\x0c\x1b[31m", id="control-characters"),
        pytest.param("\ud800 lone surrogate", id="lone-surrogate"),
        pytest.param("\ufffe\uffff", id="non-characters"),
        pytest.param("]]><!-- <x/> &amp; \"'", id="markup"),
    ],
)
def test_outputs_xml_cannot_hold_still_give_a_well_formed_file(nasty: str) -> None:
    report = make_report(3, outputs=[nasty] * 3)
    results = [
        r.model_copy(
            update={
                "case_id": f"id{nasty}",
                "classification": Classification(
                    primary="fail", reasons=[Reason(rule="r", detail=nasty, evidence=nasty)]
                ),
            }
        )
        for r in report.results
    ]
    root = _xml(report.model_copy(update={"results": results}))
    failure = next(root.iter("failure"))
    assert xml_text(nasty) in (failure.text or "")


def test_xml_text_makes_forbidden_characters_visible() -> None:
    assert xml_text("a\x00b\x1bc\td\n") == "a\\u0000b\\u001bc\td\n"


def _tree_written(tag: str, text: str | None, attrs: dict[str, str]) -> str:
    """The element as `xml.etree.ElementTree` writes it, the reference of the direct writer."""
    node = ET.Element(tag, {k: xml_text(v) for k, v in attrs.items()})
    if text:
        node.text = xml_text(text)
    return ET.tostring(node, encoding="unicode")


@pytest.mark.parametrize(
    "value",
    [
        pytest.param("plain words", id="plain"),
        pytest.param("", id="empty"),
        pytest.param("a & b < c > d \" e ' f", id="markup-characters"),
        pytest.param("line\nbreak\r\nand\ttab", id="whitespace"),
        pytest.param("&amp; already escaped &#10;", id="entities"),
        pytest.param("\x00\x1b[31m \ud800 \ufffe", id="characters-xml-cannot-hold"),
        pytest.param("]]><![CDATA[x]]>", id="cdata-end"),
    ],
)
def test_a_case_element_is_written_as_elementtree_writes_it(value: str) -> None:
    from failproof.report._junit import _tag

    attrs = {"type": value, "message": f"m {value}"}
    assert _tag("failure", value, **attrs) == _tree_written("failure", value, attrs)
    assert _tag("skipped", None, **attrs) == _tree_written("skipped", None, attrs)
