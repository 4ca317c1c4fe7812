"""Every extension section, in a stable order: the built-in ones by their presenters (read by
attribute; the judge's registered by its package, `presenters`), a plugin's as generic tables of
whatever it holds."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from failproof.metrics._consistency import ConsistencySection
from failproof.metrics._robustness import RobustnessSection
from failproof.render._numbers import value_of
from failproof.render._table import Table
from failproof.report._format import format_cell, label_of
from failproof.report._model import Report
from failproof.report._present.cases import CaseIndex
from failproof.report._present.coverage import coverage_facts, coverage_tables
from failproof.report._present.extra import Extra
from failproof.report._present.registered import presenter_of
from failproof.report._present.stability import consistency_extra, robustness_extra
from failproof.report._present.typed import section_as
from failproof.report._tables import keyed_table, records_table, scalars

__all__ = ["Extra", "extras"]


def extras(report: Report, index: CaseIndex) -> list[Extra]:
    """Every extension section with something to show: robustness, consistency, then the rest."""
    order = [k for k in _ORDER if k in report.extensions] + sorted(
        k for k in report.extensions if k not in _ORDER
    )
    out = [_extra(k, report.extensions[k], index) for k in order]
    out = [replace(e, tables=[(title, t) for title, t in e.tables if t]) for e in out]
    return [e for e in out if e.facts or e.tables]


def _is_table(value: object) -> bool:
    """A mapping of records (``{name: {stat: value}}``), drawn as a table of its own."""
    return (
        isinstance(value, Mapping)
        and bool(value)
        and all(isinstance(v, Mapping) and value_of(v) is None for v in value.values())
    )


def _generic(key: str, data: object, index: CaseIndex) -> Extra:  # noqa: ARG001
    """A section known only as JSON-like data (a plugin's): its scalars as facts, its lists of
    records and its mappings of records as tables."""
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


def _robustness(key: str, data: object, index: CaseIndex) -> Extra:
    section = section_as(RobustnessSection, data)
    return _generic(key, data, index) if section is None else robustness_extra(key, section, index)


def _consistency(key: str, data: object, index: CaseIndex) -> Extra:
    section = section_as(ConsistencySection, data)
    return _generic(key, data, index) if section is None else consistency_extra(key, section, index)


def _coverage(key: str, data: object, index: CaseIndex) -> Extra:
    title = "Coverage by taxonomy (OWASP LLM Top 10 2025, MITRE ATLAS, failproof)"
    return Extra(key, title, coverage_facts(data), coverage_tables(data, index))


_BUILDERS: dict[str, Callable[[str, object, CaseIndex], Extra]] = {
    "coverage": _coverage,
    "robustness": _robustness,
    "consistency": _consistency,
}
#: The built-in sections first, in this order; then the others by name.
_ORDER = (*_BUILDERS, "judge")


def _extra(key: str, data: object, index: CaseIndex) -> Extra:
    """``data`` by its presenter: the report's own, a registered one, else generic tables."""
    if key in _BUILDERS:
        return _BUILDERS[key](key, data, index)
    presenter = presenter_of(key)
    shown = presenter.extra(key, data, index) if presenter and presenter.extra else None
    return shown if shown is not None else _generic(key, data, index)
