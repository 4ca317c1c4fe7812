"""Presenter of the ``judge`` section: the rules against the LLM judge, and where they differ."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from failproof.core import CaseResult
from failproof.render._numbers import format_value, value_of
from failproof.render._table import Table
from failproof.report._present.cases import CaseIndex
from failproof.report._tables import keyed_table, records_table

__all__ = [
    "decided_note",
    "decided_words",
    "judge_extra_parts",
    "judge_title",
    "open_field",
    "usage_words",
]


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
    """``Rules vs LLM judge (spec, role R): N judged, E judge errors, D disagreements; verdicts
    by rules n, judge m, rules_fallback k``."""
    spec = open_field(data, "judge")
    role = open_field(data, "role")
    named = [str(spec)] if isinstance(spec, str) else []
    named += [f"role {role}"] if isinstance(role, str) else []
    who = f" ({', '.join(named)})" if named else ""
    words = decided_words(data)
    decided = f"; verdicts by {words}" if words != "–" else ""
    decided += usage_words(open_field(data, "tokens"))
    return (
        f"Rules vs LLM judge{who}: {_count(data, 'judged'):,} judged, "
        f"{_count(data, 'judge_errors'):,} judge errors, "
        f"{_count(data, 'disagreement_count'):,} disagreements{decided}"
    )


def usage_words(tokens: object) -> str:
    """``; 12 judge calls, 3,400 tokens, $0.0021``: what asking the judge used (nothing
    when no call was made)."""
    calls = open_field(tokens, "calls")
    if not isinstance(calls, int) or not calls:
        return ""
    used = sum(
        v
        for k in ("prompt_tokens", "completion_tokens")
        if isinstance(v := open_field(tokens, k), int)
    )
    cost = open_field(tokens, "cost_usd")
    price = f", ${cost:.4f}" if isinstance(cost, int | float) else ""
    return f"; {calls:,} judge calls, {used:,} tokens{price}"


def decided_note(result: CaseResult) -> str:
    """``by judge: `` before a verdict a judge took part in (nothing for a rules-only run)."""
    found = result.classification
    if found is None or (found.decided_by == "rules" and not found.decided_why):
        return ""
    return f"by {found.decided_by.replace('_', ' ')}: "


def decided_words(data: object) -> str:
    """``rules 12, judge 30, rules fallback 1``: who gave the verdicts of the judged cases."""
    raw = open_field(data, "decided_by")
    counts = raw if isinstance(raw, Mapping) else {}
    words = [
        f"{str(k).replace('_', ' ')} {v:,}" for k, v in counts.items() if isinstance(v, int) and v
    ]
    return ", ".join(words) or "–"


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
        [replace(row[0], case=_opens(index, record)), *row[1:]]
        for row, record in zip(table.rows, records, strict=False)
    ]
    return Table(table.columns, rows, table.more)


def _opens(index: CaseIndex, record: object) -> int | None:
    """The case a record of the open judge section names."""
    case_id, suite, sample = (open_field(record, k) for k in ("case_id", "suite", "sample"))
    if not isinstance(case_id, str):
        return None
    return index.find(
        case_id,
        suite if isinstance(suite, str) else None,
        sample if isinstance(sample, int) else None,
    )


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
