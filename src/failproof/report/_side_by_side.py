"""Several targets on the same suites, reported together: one column per target.

``failproof run`` builds it when the project file names more than one target; each target's run
is stored and reported on its own as well.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import Field

from failproof.core._closed import Closed
from failproof.render._numbers import format_value, value_of
from failproof.render._text import md_code, md_text
from failproof.report._compare import Point
from failproof.report._model import Report
from failproof.report._present.headline import headline

__all__ = ["SideBySide", "SuiteScores", "TargetColumn", "side_by_side", "side_by_side_markdown"]


class TargetColumn(Closed):
    """One target's run."""

    label: str = Field(description="The target's label in the project file.")
    run_id: str
    target: str = Field(description="The target's name as its run records it.")
    cases: int
    passed: int
    pass_rate: Point | None = Field(default=None, description="Verdict pass rate, with interval.")
    run_score: Point | None = Field(default=None, description="Overall run score.")
    exit_code: int = Field(description="The run's exit code (0 pass, 1 fail, 2 review).")


class SuiteScores(Closed):
    """A suite's score under each target, in the columns' order (None: not run there)."""

    suite: str
    scores: list[Point | None]


class SideBySide(Closed):
    """The same suites against several targets (``side-by-side.json``)."""

    report_type: Literal["failproof_side_by_side"] = "failproof_side_by_side"
    targets: list[TargetColumn]
    suites: list[SuiteScores]


def _stat(report: Report, key: str) -> Point | None:
    return Point.of(next((s.value for s in headline(report) if s.key == key), None))


def _suite_score(report: Report, name: str) -> Point | None:
    row = report.suites.get(name)
    return Point.of(value_of(row.score)) if row is not None else None


def side_by_side(
    labels: Sequence[str], reports: Sequence[Report], codes: Sequence[int]
) -> SideBySide:
    """One column per (label, report, exit code), and each suite's score in every column."""
    columns = [
        TargetColumn(
            label=label,
            run_id=report.run.id,
            target=str(report.run.target.get("name", "?")),
            cases=report.digest().total,
            passed=report.digest().verdicts["pass"],
            pass_rate=_stat(report, "pass_rate"),
            run_score=_stat(report, "overall_run_score"),
            exit_code=code,
        )
        for label, report, code in zip(labels, reports, codes, strict=True)
    ]
    names = list(dict.fromkeys(name for report in reports for name in report.suites))
    suites = [
        SuiteScores(
            suite=name,
            scores=[_suite_score(r, name) for r in reports],
        )
        for name in names
    ]
    return SideBySide(targets=columns, suites=suites)


def _pct(point: Point | None) -> str:
    return format_value(point.value if point is not None else None, "pct")


_VERDICT = {0: "✅ pass", 1: "❌ fail", 2: "⚠️ review"}


def side_by_side_markdown(table: SideBySide) -> str:
    """The columns as one Markdown table: verdict, pass rate, run score, then each suite."""
    head = "| | " + " | ".join(md_code(c.label) for c in table.targets) + " |"
    rule = "| --- |" + " ---: |" * len(table.targets)
    rows = [
        ("Target", [md_text(c.target) for c in table.targets]),
        ("Run", [md_code(c.run_id) for c in table.targets]),
        ("Verdict", [_VERDICT.get(c.exit_code, "error") for c in table.targets]),
        ("Passed", [f"{c.passed:,} of {c.cases:,}" for c in table.targets]),
        ("Pass rate", [_pct(c.pass_rate) for c in table.targets]),
        ("Run score", [_pct(c.run_score) for c in table.targets]),
    ]
    rows += [(md_code(s.suite), [_pct(v) for v in s.scores]) for s in table.suites]
    body = ["| " + " | ".join([name, *cells]) + " |" for name, cells in rows]
    return "\n".join(["## failproof: side by side", "", head, rule, *body]) + "\n"
