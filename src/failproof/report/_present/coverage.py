"""Presenter of the ``coverage`` section: per framework and category, what ran and what failed."""

from __future__ import annotations

from failproof.coverage import Coverage
from failproof.coverage._model import CoverageCategory, CoverageFramework
from failproof.render._numbers import format_value
from failproof.render._table import Cell, Column, Table
from failproof.report._present.cases import CaseIndex
from failproof.report._present.typed import section_as

__all__ = ["coverage_facts", "coverage_of", "coverage_tables", "untested_text"]

_COLUMNS = [
    Column("id", "category"),
    Column("name", "name"),
    Column("cases", "answers", "count"),
    Column("failed", "failed", "count"),
    Column("fail_rate", "fail rate", "pct"),
    Column("suites", "suites"),
]


def coverage_of(data: object) -> Coverage | None:
    """The section as its model (a report read back from JSON holds it as a mapping)."""
    return section_as(Coverage, data)


def _row(category: CoverageCategory, index: CaseIndex) -> list[Cell]:
    failed = category.failed or 0
    rate = failed / category.cases if category.cases else None
    first = category.case_ids[0] if category.case_ids else ""
    suite, _, case_id = first.partition("/")
    opens = index.find(case_id, suite) if case_id else None
    return [
        Cell(category.id, case=opens),
        Cell(category.name),
        Cell(f"{category.cases:,}"),
        Cell(f"{failed:,}", tone="fail" if failed else None),
        Cell(format_value(rate, "pct"), bar=rate, tone="bad" if failed else None),
        Cell(", ".join(category.suites)),
    ]


def untested_text(framework: CoverageFramework) -> str:
    """The categories of ``framework`` nothing ran, or '' when all did."""
    return ", ".join(c.code for c in framework.untested)


def coverage_tables(data: object, index: CaseIndex) -> list[tuple[str, Table]]:
    """One table per framework: its categories that ran, with answers and failures."""
    coverage = coverage_of(data)
    if coverage is None:
        return []
    out = []
    for framework in coverage.frameworks:
        rows = [_row(c, index) for c in framework.categories if c.tested]
        out.append((framework.title, Table(_COLUMNS, rows)))
    return out


def coverage_facts(data: object) -> list[tuple[str, str]]:
    """What nothing in the run tested, per framework, and how many answers carried no label."""
    coverage = coverage_of(data)
    if coverage is None:
        return []
    facts = [("answers without a taxonomy", f"{coverage.unlabelled:,} of {coverage.cases:,}")]
    for framework in coverage.frameworks:
        if framework.key != "atlas" and (missing := untested_text(framework)):
            facts.append((f"{framework.title}: not tested by this run", missing))
    return facts
