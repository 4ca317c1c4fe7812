"""Builders of `Table`s, the model every renderer draws.

`typed_table` draws a typed section: its presenter reads each row's fields by attribute and
declares each column's label and how its numbers read (`Spec`). The other builders draw a section
known only as JSON-like data (a plugin's, or one written by another version in another shape):
they show what is present (known keys first, in a stable order; unknown scalar keys after), read
units from key names (`kind_of`), skip what is absent, and never raise on a missing or oddly
typed key.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from failproof.render._numbers import Kind, format_value, interval_text, value_of
from failproof.render._table import Cell, Column, Table
from failproof.report._format import format_cell, kind_of, label_of

__all__ = [
    "Spec",
    "flatten",
    "keyed_table",
    "records_table",
    "scalars",
    "typed_table",
]

_MAX_ROWS = 200


def scalars(section: object) -> dict[str, Any]:
    """The scalar (or interval) entries of a mapping, in order."""
    if not isinstance(section, Mapping):
        return {}
    return {
        str(k): v
        for k, v in section.items()
        if not isinstance(v, Mapping | list | tuple) or value_of(v) is not None
    }


def flatten(row: object, prefix: str = "", depth: int = 2) -> dict[str, Any]:
    """A record with nested mappings flattened (``{"a": {"b": 1}}`` -> ``{"a_b": 1}``), and each
    ``<key>_ci`` interval merged into ``<key>``."""
    if not isinstance(row, Mapping):
        return {}
    out: dict[str, Any] = {}
    for key, value in row.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping) and value_of(value) is None and depth > 0:
            if not (str(key).endswith("_ci") and str(key)[:-3] in row):
                out.update(flatten(value, f"{name}_", depth - 1))
        else:
            out[name] = value
    return _merge_intervals(out)


def _merge_intervals(row: dict[str, Any]) -> dict[str, Any]:
    for key in [k for k in row if k.endswith("_ci") and k[:-3] in row]:
        ci, point = value_of(row.pop(key)), value_of(row[key[:-3]])
        if ci is not None and point is not None and ci.has_interval:
            row[key[:-3]] = {"estimate": point.estimate, "low": ci.low, "high": ci.high}
    return row


def _fields(value: object) -> dict[str, Any]:
    if isinstance(value, Mapping) and value_of(value) is None:
        return flatten(value)
    return {"value": value}


def _columns(rows: Sequence[Mapping[str, Any]], order: Sequence[str]) -> list[str]:
    """Keys with a value in some row: those of ``order`` first, then the others as they come."""
    present: dict[str, None] = {}
    for row in rows:
        for key, value in row.items():
            if value is not None and (
                not isinstance(value, Mapping) or value_of(value) is not None
            ):
                present.setdefault(key, None)
    known = [k for k in order if k in present]
    return known + [k for k in present if k not in known]


def _kind(key: str, rows: Sequence[Mapping[str, Any]]) -> Kind:
    """Text when every value of the column is text, else by the key's name."""
    values = [row.get(key) for row in rows if row.get(key) is not None]
    if all(isinstance(v, str) for v in values):
        return "text"
    return kind_of(key)


_TONED = {"class", "variant_class", "label", "verdict"}


def _cell(key: str, raw: object, bars: Mapping[str, str], kind: Kind | None = None) -> Cell:
    """A cell of ``raw``: a class name toned, a number formatted as ``kind`` (a typed column
    declares it; an open section's is read from ``key``'s name) with its interval and bar."""
    if key in _TONED and isinstance(raw, str):
        return Cell(raw, tone=raw)
    value = value_of(raw)
    if value is None or isinstance(raw, bool | int):
        return Cell(format_cell(key, raw))
    kind = kind or kind_of(key)
    text, ci = format_value(value, kind), interval_text(value, kind)
    if key not in bars:
        return Cell(text, ci)
    return Cell(text, ci, bar=min(1.0, max(0.0, value.estimate)), tone=bars[key])


@dataclass(frozen=True, slots=True)
class Spec:
    """A column of a typed section's table: the field it shows, its label, how its values read."""

    key: str
    label: str
    kind: Kind = "num"


def typed_table(
    first: Column,
    rows: Sequence[tuple[str, Mapping[str, object]]],
    specs: Sequence[Spec],
    *,
    bars: Mapping[str, str] | None = None,
) -> Table:
    """A table of a typed section: one row per ``(name, values)`` (the values read from the
    model by attribute), the columns ``specs`` declare, but those no row has a value for."""
    shown = [s for s in specs if any(values.get(s.key) is not None for _, values in rows)]
    columns = [first, *(Column(s.key, s.label, s.kind) for s in shown)]
    body = [
        [Cell(name), *(_cell(s.key, values.get(s.key), bars or {}, s.kind) for s in shown)]
        for name, values in rows[:_MAX_ROWS]
    ]
    return Table(columns, body, more=max(0, len(rows) - _MAX_ROWS))


def records_table(
    records: object,
    order: Sequence[str] = (),
    *,
    labels: Mapping[str, str] | None = None,
    bars: Mapping[str, str] | None = None,
    limit: int = _MAX_ROWS,
    hide: Collection[str] = (),
) -> Table:
    """A table of a list of records (dicts); non-dict items become one-column rows.

    Columns in ``hide`` are left out (the JSON report keeps them)."""
    if not isinstance(records, list | tuple):
        return Table([])
    rows = [flatten(r) if isinstance(r, Mapping) else {"value": r} for r in records]
    rows = [{k: v for k, v in row.items() if k not in hide} for row in rows]
    keys = _columns(rows, order)
    names = {**{k: label_of(k) for k in keys}, **(labels or {})}
    columns = [Column(k, names[k], "text" if k == keys[0] else _kind(k, rows)) for k in keys]
    body = [[_cell(k, row.get(k), bars or {}) for k in keys] for row in rows[:limit]]
    return Table(columns, body, more=max(0, len(rows) - limit))


def keyed_table(
    section: object,
    first: str,
    order: Sequence[str] = (),
    *,
    labels: Mapping[str, str] | None = None,
    bars: Mapping[str, str] | None = None,
    sort: Sequence[str] | None = None,
    hide: Collection[str] = (),
) -> Table:
    """A table of a ``{name: {stat: value}}`` mapping, one row per name (``first`` names it)."""
    if not isinstance(section, Mapping):
        return Table([])
    names = [n for n in (sort or []) if n in section] + [
        n for n in section if n not in (sort or [])
    ]
    records = [{first: name, **_fields(section[name])} for name in names]
    return records_table(records, [first, *order], labels=labels, bars=bars, hide=hide)
