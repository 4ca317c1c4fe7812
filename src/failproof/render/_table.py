"""A table model every renderer draws, and the one writer of tables in Markdown and in HTML.

Presenters build `Table`s of `Cell`s (text already formatted); the writers escape nothing they
are given as Markdown (callers pass `md_text` / `md_code` output, which decides code or text per
column) and escape every HTML cell themselves.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from failproof.render._numbers import Kind
from failproof.render._text import html_text, md_code, md_text

__all__ = [
    "Cell",
    "Column",
    "Table",
    "html_table",
    "md_heading",
    "md_row",
    "md_table",
    "table_markdown",
]


@dataclass(frozen=True, slots=True)
class Column:
    """A column: the field it shows, its label, and how its numbers read."""

    key: str
    label: str
    kind: Kind = "text"

    @property
    def numeric(self) -> bool:
        return self.kind != "text"


@dataclass(frozen=True, slots=True)
class Cell:
    """One cell: its text, and what a graphical renderer may draw with it."""

    text: str
    ci: str = ""  # the 95% interval of a number, when the report gives one
    bar: float | None = None  # 0..1, drawn as a bar in HTML
    tone: str | None = None  # a class name (pass, fail, ...) or good / bad
    case: int | None = None  # index into the report's cases: the cell opens that case
    parts: tuple[tuple[str, int], ...] = ()  # counts by class, drawn as a stacked bar

    @property
    def full(self) -> str:
        """The text with its interval, for renderers that draw both on one line."""
        return f"{self.text} ({self.ci})" if self.ci else self.text


@dataclass(frozen=True, slots=True)
class Table:
    """Columns and rows of cells; ``more`` counts rows left out."""

    columns: list[Column]
    rows: list[list[Cell]] = field(default_factory=list)
    more: int = 0

    def __bool__(self) -> bool:
        return bool(self.rows)


def md_row(cells: Iterable[str]) -> str:
    """``| a | b |``: cells already escaped."""
    return "| " + " | ".join(cells) + " |"


def md_table(
    header: Sequence[str], rows: Iterable[Sequence[str]], numeric: Sequence[bool] = ()
) -> list[str]:
    """A GitHub-flavoured table: header, alignment (numeric columns to the right), rows."""
    align = [i < len(numeric) and numeric[i] for i in range(len(header))]
    rule = md_row("---:" if right else "---" for right in align)
    return [md_row(header), rule, *(md_row(row) for row in rows)]


def table_markdown(table: Table, code: Sequence[int] = (0,)) -> list[str]:
    """``table`` in Markdown: the columns in ``code`` as code spans (ids, outputs), the others
    as escaped text; a line after it counts the rows left out."""
    rows = [
        [md_code(c.full) if i in code else md_text(c.full) for i, c in enumerate(cells)]
        for cells in table.rows
    ]
    header = [md_text(c.label) for c in table.columns]
    lines = md_table(header, rows, [c.numeric for c in table.columns])
    if table.more:
        lines.append(f"\n_{table.more:,} more rows in the full report._")
    return lines


def md_heading(level: int, title: str) -> list[str]:
    """A heading (``title`` already escaped) and the blank line after it."""
    return [f"{'#' * level} {title}", ""]


def html_table(
    header: Sequence[str], rows: Iterable[Sequence[object]], numeric: Sequence[bool] = ()
) -> str:
    """An HTML table of plain texts, every cell escaped; numeric columns are ``class='num'``."""
    head = "".join(f"<th>{html_text(h)}</th>" for h in header)
    body = [
        "<tr>"
        + "".join(f"<td{_num(i, numeric)}>{html_text(value)}</td>" for i, value in enumerate(row))
        + "</tr>"
        for row in rows
    ]
    return f"<table><tr>{head}</tr>{''.join(body)}</table>"


def _num(i: int, numeric: Sequence[bool]) -> str:
    return " class='num'" if i < len(numeric) and numeric[i] else ""
