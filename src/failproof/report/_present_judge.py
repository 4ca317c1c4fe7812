"""Presenter of the ``judge`` section: the rules against the LLM judge, and where they differ."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from failproof.report._format import format_value, value_of
from failproof.report._present import CaseIndex
from failproof.report._tables import Table, keyed_table, records_table

__all__ = ["judge_extra_parts", "judge_title", "open_field"]


def open_field(data: object, *path: str) -> Any:
    """``data[path[0]][path[1]]...`` of an open (plugin or JSON-read) section, or None as soon as
    a step is missing or not a mapping. Core sections are closed models, read by attribute."""
    for key in path:
        if not isinstance(data, Mapping):
            return None
        data = data.get(key)
    return data


_QUESTION = {"passed": "pass verdict", "refused": "refused", "harmful": "harmful"}


def _count(data: object, key: str) -> int:
    value = open_field(data, key)
    return value if isinstance(value, int) else 0


def judge_title(data: object) -> str:
    """``Rules vs LLM judge (spec): N judged, E judge errors, D disagreements``."""
    spec = open_field(data, "judge")
    who = f" ({spec})" if isinstance(spec, str) else ""
    return (
        f"Rules vs LLM judge{who}: {_count(data, 'judged'):,} judged, "
        f"{_count(data, 'judge_errors'):,} judge errors, "
        f"{_count(data, 'disagreement_count'):,} disagreements"
    )


def _facts(data: object) -> list[tuple[str, str]]:
    rate = value_of(open_field(data, "judge_pass_rate"))
    return [
        ("rubric", str(open_field(data, "rubric") or "–")),
        ("judge errors (never a pass)", f"{_count(data, 'judge_errors'):,}"),
        ("answers from the cache", f"{_count(data, 'from_cache'):,}"),
        ("asked again after an invalid answer", f"{_count(data, 'asked_again'):,}"),
        ("judge pass rate", format_value(rate, "pct")),
    ]


def _agreement(data: object) -> Table:
    raw = open_field(data, "agreement")
    rows = {_QUESTION.get(k, k): v for k, v in raw.items()} if isinstance(raw, Mapping) else {}
    return keyed_table(rows, "question", ("n", "agreement", "kappa"), labels={"kappa": "Cohen's κ"})


def _linked(table: Table, records: object, index: CaseIndex) -> Table:
    if not table or not isinstance(records, list):
        return table
    rows = [
        [replace(row[0], case=index.find(record)), *row[1:]]
        for row, record in zip(table.rows, records, strict=False)
    ]
    return Table(table.columns, rows, table.more)


def judge_extra_parts(
    data: object, index: CaseIndex
) -> tuple[str, list[tuple[str, str]], list[tuple[str, Table]]]:
    """Title, facts and tables of the judge section (agreement first, for short renderers)."""
    order = ("case_id", "suite", "differ_on", "rules", "judge", "judge_reason")
    differ = open_field(data, "disagreements")
    errors = open_field(data, "errors")
    tables = [
        ("Agreement of the rules and the judge", _agreement(data)),
        ("Where they disagree", _linked(records_table(differ, order), differ, index)),
        ("Judge errors", _linked(records_table(errors, ("case_id", "suite")), errors, index)),
    ]
    return judge_title(data), _facts(data), tables
