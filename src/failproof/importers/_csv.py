"""``failproof import csv``: one case per row of a CSV of prompts.

Covers HarmBench (``Behavior``, ``SemanticCategory``, ``ContextString``, ``BehaviorID``),
AdvBench (``goal``, ``target``) and JailbreakBench (``Goal``, ``Category``, ``Behavior``) style
files: the prompt column becomes the case input, an optional context column is put before it,
an optional category and id column name the case, every other column is kept in the case's
metadata. A row without a prompt becomes no case and is counted as skipped.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from failproof.core import Expect, Severity
from failproof.errors import InputError
from failproof.guard import for_console
from failproof.guard._json import JsonObject
from failproof.guard._problem import first_problem
from failproof.importers._common import ImportResult, ImportSummary, case_id, suite_name
from failproof.importers._files import csv_rows, read_source

__all__ = ["CsvColumns", "import_csv", "parse_expect"]


@dataclass(frozen=True)
class CsvColumns:
    """Which column holds what; only ``prompt`` is required."""

    prompt: str
    category: str | None = None
    id: str | None = None
    context: str | None = None
    severity: Severity = Severity.medium
    expect: Mapping[str, Any] = field(default_factory=dict)


def parse_expect(items: Sequence[str]) -> JsonObject:
    """``["refusal=required"]`` -> ``{"refusal": "required"}``, checked against `Expect`."""
    values: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise InputError(
                f"--expect {item!r} is not key=value", hint="e.g. --expect refusal=required"
            )
        values[key.strip()] = value.strip()
    try:
        Expect(**values)
    except ValidationError as exc:
        where, what = first_problem(exc)
        raise InputError(
            f"--expect {where}: {what}", hint="e.g. --expect refusal=required"
        ) from None
    return values


def _rows(path: Path, text: str, columns: CsvColumns) -> list[tuple[int, dict[str, str]]]:
    header = next(csv.reader(io.StringIO(text, newline="")), [])
    named = [c for c in (columns.prompt, columns.category, columns.id, columns.context) if c]
    missing = [c for c in named if c not in header]
    if missing:
        shown = ", ".join(for_console(h[:60]) for h in header[:40])
        raise InputError(
            f"{path}: the CSV has no column {missing[0]!r}",
            hint=f"its columns: {shown or '(none)'}",
        )
    return csv_rows(text, path)


def _case(row: dict[str, str], number: int, columns: CsvColumns, taken: set[str]) -> JsonObject:
    text = row[columns.prompt].strip()
    context = row[columns.context].strip() if columns.context else ""
    used = {c for c in (columns.prompt, columns.category, columns.id, columns.context) if c}
    ident = row[columns.id].strip() if columns.id else ""
    case: dict[str, Any] = {
        "id": case_id(ident or f"row-{number:04d}", taken),
        "input": f"{context}\n\n{text}" if context else text,
        "severity": columns.severity.value,
    }
    category = row[columns.category].strip() if columns.category else ""
    if category:
        case["category"] = category
    if columns.expect:
        case["expect"] = dict(columns.expect)
    extra = {k: v for k, v in row.items() if k not in used and v.strip()}
    case["metadata"] = {"source_row": number, **extra}
    return case


def import_csv(
    path: Path, columns: CsvColumns, name: str | None = None, *, encoding: str | None = None
) -> ImportResult:
    """The rows of ``path`` as a suite (rows are numbered from 1, after the header); the file is
    read by its byte-order mark, or ``encoding``, else as UTF-8."""
    summary = ImportSummary(source=path.name)
    taken: set[str] = set()
    cases = []
    rows = _rows(path, read_source(path, encoding), columns)
    for number, (_, row) in enumerate(rows, start=1):
        if not row[columns.prompt].strip():
            summary.skip(f"row without a prompt in {columns.prompt!r}")
            continue
        cases.append(_case(row, number, columns, taken))
        summary.map(f"row -> case (prompt from {columns.prompt!r})")
    summary.cases = len(cases)
    data = {
        "suite": suite_name(name or path.stem),
        "description": f"imported from {path.name}",
        "cases": cases,
    }
    return ImportResult(data, summary)
