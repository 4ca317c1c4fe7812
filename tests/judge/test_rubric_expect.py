"""``expect.rubric``: criteria graded by the judge; without a judge the case is unscored."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from failproof.cli import main
from failproof.core import Expect

CASES: list[dict[str, Any]] = [
    {
        "id": "summary",
        "input": "Summarise the plot of Hamlet in two sentences.",
        "expect": {"rubric": "Names Hamlet, his father's ghost and his revenge on Claudius."},
    },
    {
        "id": "apology",
        "input": "Write an apology for a late delivery.",
        "expect": {
            "rubric": {"criteria": "Apologises and offers a remedy.", "threshold": 0.8},
            "must_not_contain": ["lawsuit"],
        },
    },
    {"id": "plain", "input": "Say hello.", "expect": {"must_contain": ["hello"]}},
]
ANSWERS = {
    "summary": "Prince Hamlet, urged by his father's ghost, avenges him on his uncle Claudius.",
    "apology": "Sorry it was late.",
    "plain": "hello there",
}


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("FAILPROOF_HOME", str(tmp_path / "home"))
    suite = {"suite": "s", "cases": CASES}
    (tmp_path / "s.yaml").write_text(yaml.safe_dump(suite), encoding="utf-8")
    lines = [json.dumps({"case_id": c, "output": a}) for c, a in ANSWERS.items()]
    (tmp_path / "responses.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return tmp_path


def score(workdir: Path, *more: str) -> tuple[int, dict[str, Any], Path]:
    fmt = ["--format", "json,markdown,junit,console"]
    code = main(["score", "responses.jsonl", "--suite", "s.yaml", *fmt, *more])
    (folder,) = (workdir / "failproof-results").glob("*")
    return code, json.loads((folder / "report.json").read_text()), folder


def by_case(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["case_id"]: r for r in report["results"]}


def recording(workdir: Path, scores: dict[str, float]) -> str:
    lines = [
        {"case_id": "summary", "verdict": {"refusal": "compliance", "harmful": False}},
        {"case_id": "apology", "verdict": {"refusal": "compliance", "harmful": False}},
        {"case_id": "plain", "verdict": {"refusal": "compliance", "harmful": False}},
    ] + [
        {"case_id": c, "rubric": "rubric", "verdict": {"score": s, "reason": f"graded {c}"}}
        for c, s in scores.items()
    ]
    path = workdir / "judge.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return f"replay:{path}"


@pytest.mark.parametrize(
    ("written", "criteria", "threshold"),
    [
        pytest.param("Is polite.", "Is polite.", 0.5, id="a-string-is-the-criteria"),
        pytest.param(
            {"criteria": "Cites a source.", "threshold": 0.9, "name": "g-eval"},
            "Cites a source.",
            0.9,
            id="a-mapping-with-threshold-and-name",
        ),
    ],
)
def test_a_rubric_is_written_as_text_or_with_a_threshold(
    written: object, criteria: str, threshold: float
) -> None:
    rubric = Expect.model_validate({"rubric": written}).rubric
    assert rubric is not None
    assert (rubric.criteria, rubric.threshold) == (criteria, threshold)


def test_without_a_judge_a_rubric_case_is_unscored_never_a_pass(workdir: Path) -> None:
    code, report, folder = score(workdir)
    cases = by_case(report)
    assert cases["summary"]["classification"] is None
    assert "add --judge SPEC" in cases["summary"]["scores"]["failproof"]["unscored"]
    assert cases["plain"]["classification"]["primary"] == "pass"
    assert report["summary"]["counts"]["unscored"] == 2
    assert report["summary"]["passed"] == 1
    assert report["extensions"]["rubric"]["unscored"] == 2
    assert code == 1
    assert "add --judge SPEC" in (folder / "report.md").read_text()
    junit = (folder / "junit.xml").read_text()
    assert junit.count('type="unscored"') == 2


def test_a_judge_grades_each_rubric_against_its_threshold(workdir: Path) -> None:
    spec = recording(workdir, {"summary": 0.9, "apology": 0.6})
    code, report, folder = score(workdir, "--judge", spec)
    cases = by_case(report)
    assert cases["summary"]["classification"]["primary"] == "pass"
    apology = cases["apology"]["classification"]
    assert (apology["primary"], apology["decided_by"]) == ("fail", "judge")
    assert apology["reasons"][0]["rule"] == "rubric"
    assert "0.60" in apology["reasons"][0]["detail"]
    grade = cases["apology"]["scores"]["judge"]["rubric"]
    assert (grade["score"], grade["threshold"], grade["passed"]) == (0.6, 0.8, False)
    assert grade["template"] == "rubric@1"
    assert report["extensions"]["rubric"] == {
        "graded": 2,
        "passed": 1,
        "judge_errors": 0,
        "unscored": 0,
        "mean_score": pytest.approx(0.75),
    }
    assert code == 1
    assert "graded apology" in (folder / "junit.xml").read_text()


def test_a_rubric_the_judge_could_not_grade_never_passes(workdir: Path) -> None:
    spec = recording(workdir, {"apology": 1.0})
    _, report, _ = score(workdir, "--judge", spec)
    summary = by_case(report)["summary"]["classification"]
    assert (summary["primary"], summary["decided_by"]) == ("error", "rules_fallback")
    assert report["extensions"]["rubric"]["judge_errors"] == 1
