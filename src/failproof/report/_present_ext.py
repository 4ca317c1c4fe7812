"""Presenters of the extension sections: robustness, consistency, and any plugin's section."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from failproof.render._numbers import Kind, format_value, value_of
from failproof.render._table import Cell, Column, Table
from failproof.report._format import format_cell, label_of
from failproof.report._model import Report
from failproof.report._present import CaseIndex
from failproof.report._present_coverage import coverage_facts, coverage_tables
from failproof.report._present_judge import judge_extra_parts, open_field
from failproof.report._tables import keyed_table, records_table, scalars

__all__ = ["Extra", "extras"]


@dataclass(frozen=True, slots=True)
class Extra:
    """An extension section: a title, a few facts, and tables."""

    key: str
    title: str
    facts: list[tuple[str, str]]
    tables: list[tuple[str, Table]]


def extras(report: Report, index: CaseIndex) -> list[Extra]:
    """Every extension section with something to show: robustness, consistency, then the rest."""
    order = [k for k in _BUILDERS if k in report.extensions] + sorted(
        k for k in report.extensions if k not in _BUILDERS
    )
    out = [_BUILDERS.get(k, _generic)(k, report.extensions[k], index) for k in order]
    out = [replace(e, tables=[(title, t) for title, t in e.tables if t]) for e in out]
    return [e for e in out if e.facts or e.tables]


def _points(raw: object) -> str:
    value = value_of(raw)
    return "–" if value is None else f"{value.estimate * 100:+.1f} pp"


def _ref(text: object) -> dict[str, str]:
    suite, _, case_id = str(text).partition("/")
    return {"suite": suite, "case_id": case_id} if case_id else {"case_id": suite}


def _robustness(key: str, data: object, index: CaseIndex) -> Extra:
    stats = open_field(data, "mutators")
    rows = {"all mutators": open_field(data, "overall")} if open_field(data, "overall") else {}
    rows.update(stats if isinstance(stats, Mapping) else {})
    records = [
        {
            "mutator": name,
            "variants": open_field(s, "variants"),
            "original_pass_rate": open_field(s, "original_pass_rate"),
            "variant_pass_rate": open_field(s, "variant_pass_rate"),
            "delta": _points(open_field(s, "delta")),
            "broken": open_field(s, "flips", "pass_to_fail"),
            "fixed": open_field(s, "flips", "fail_to_pass"),
            "kept_pass_rate": open_field(s, "robustness"),
        }
        for name, s in rows.items()
        if isinstance(s, Mapping)
    ]
    labels = {
        "original_pass_rate": "originals pass",
        "variant_pass_rate": "variants pass",
        "delta": "Δ pass rate",
        "broken": "pass → fail",
        "fixed": "fail → pass",
        "kept_pass_rate": "passes kept",
    }
    table = _toned_deltas(
        records_table(
            records,
            list(records[0]) if records else [],
            labels=labels,
            bars={"variant_pass_rate": "good"},
        ),
        "delta",
    )
    unpaired = open_field(data, "unpaired_variants")
    facts = [("variants without their original in the run", str(unpaired))] if unpaired else []
    return Extra(
        key,
        "Robustness: originals vs generated variants",
        facts,
        [("", table), ("Variants that broke a passing case", _flips(data, index))],
    )


def _toned_deltas(table: Table, key: str) -> Table:
    """Colour a column of signed changes: up is better, down is worse."""
    if key not in [c.key for c in table.columns]:
        return table
    at = [c.key for c in table.columns].index(key)
    rows = []
    for row in table.rows:
        text = row[at].text
        tone = (
            "delta-better"
            if text.startswith("+")
            else "delta-worse"
            if text.startswith("-")
            else None
        )
        rows.append([*row[:at], replace(row[at], tone=tone), *row[at + 1 :]])
    return Table(table.columns, rows, table.more)


def _flips(data: object, index: CaseIndex) -> Table:
    examples = open_field(data, "overall", "examples")
    if not isinstance(examples, list):
        return Table([])
    rows = []
    for ex in examples:
        if not isinstance(ex, Mapping):
            continue
        pair = [_ref(ex.get("original")), _ref(ex.get("variant"))]
        cls = str(ex.get("variant_class", ""))
        rows.append(
            [
                Cell(str(ex.get(k)), case=index.find(r))
                for k, r in zip(("original", "variant"), pair, strict=True)
            ]
            + [Cell(cls, tone=cls)]
        )
    columns = [
        Column("original", "original"),
        Column("variant", "variant"),
        Column("variant_class", "variant class"),
    ]
    return Table(columns, rows)


_CONSISTENCY: tuple[tuple[str, str, Kind], ...] = (
    ("samples_per_case", "samples per case", "count"),
    ("pass_hat_n", "pass^N (every sample passed)", "pct"),
    ("pass_at_1", "pass@1 (mean pass rate)", "pct"),
    ("inconsistent", "cases with mixed verdicts", "pct"),
    ("mean_flip_rate", "mean flip rate", "pct"),
)


def _consistency(key: str, data: object, index: CaseIndex) -> Extra:
    facts = [
        (label, format_value(value_of(open_field(data, name)), kind))
        for name, label, kind in _CONSISTENCY
        if value_of(open_field(data, name)) is not None
    ]
    cases = open_field(data, "cases")
    mixed = (
        [c for c in cases if isinstance(c, Mapping) and (c.get("flip_rate") or 0) > 0]
        if (isinstance(cases, list))
        else []
    )
    mixed.sort(key=lambda c: (-(c.get("flip_rate") or 0), str(c.get("case_id"))))
    table = records_table(
        mixed[:50],
        ("case_id", "suite", "n", "passed", "pass_rate", "flip_rate"),
        bars={"pass_rate": "good"},
    )
    if table:
        rows = [
            [replace(r[0], case=index.find(c)), *r[1:]]
            for r, c in zip(table.rows, mixed, strict=False)
        ]
        table = Table(table.columns, rows, max(0, len(mixed) - 50))
    return Extra(
        key,
        "Consistency across repeated samples",
        facts,
        [("Cases whose verdict changed between samples", table)],
    )


def _is_table(value: object) -> bool:
    """A mapping of records (``{name: {stat: value}}``), drawn as a table of its own."""
    return (
        isinstance(value, Mapping)
        and bool(value)
        and all(isinstance(v, Mapping) and value_of(v) is None for v in value.values())
    )


def _generic(key: str, data: object, index: CaseIndex) -> Extra:  # noqa: ARG001
    title = label_of(key).capitalize()
    if isinstance(data, list):
        return Extra(key, title, [], [("", records_table(data))])
    if not isinstance(data, Mapping):
        return Extra(key, title, [], [])
    facts = [(label_of(k), format_cell(k, v)) for k, v in scalars(data).items()]
    tables: list[tuple[str, Table]] = []
    rows: dict[str, Any] = {}
    for name, value in data.items():
        if isinstance(value, list) and value and isinstance(value[0], Mapping):
            tables.append((label_of(name), records_table(value)))
        elif _is_table(value):
            tables.append((label_of(name), keyed_table(value, "name")))
        elif isinstance(value, Mapping) and value_of(value) is None:
            rows[str(name)] = value
    if rows:
        tables.insert(0, ("", keyed_table(rows, "name")))
    return Extra(key, title, facts, [(t, tab) for t, tab in tables if tab])


def _judge(key: str, data: object, index: CaseIndex) -> Extra:
    return Extra(key, *judge_extra_parts(data, index))


def _coverage(key: str, data: object, index: CaseIndex) -> Extra:
    title = "Coverage by taxonomy (OWASP LLM Top 10 2025, MITRE ATLAS, failproof)"
    return Extra(key, title, coverage_facts(data), coverage_tables(data, index))


_BUILDERS: dict[str, Callable[[str, object, CaseIndex], Extra]] = {
    "coverage": _coverage,
    "robustness": _robustness,
    "consistency": _consistency,
    "judge": _judge,
}
