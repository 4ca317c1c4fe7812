"""The compact console summary printed by run / score / report: headline, suites, top failures.

Every string from the report goes in as `rich.text.Text` (never parsed as markup), with control
characters made visible, so a model output cannot restyle or take over the terminal.
"""

from __future__ import annotations

import os
import shutil
import sys
from io import StringIO
from pathlib import Path

from rich.console import Console, Group, RenderableType
from rich.table import Table as RichTable
from rich.text import Text

from failproof.core import CaseResult
from failproof.guard import atomic_write_text, redact
from failproof.render._console import plain
from failproof.report._calls import throttling_note
from failproof.report._console_coverage import coverage_renderable
from failproof.report._model import CONSOLE_FAILURES, Report
from failproof.report._present.breakdown import suite_table
from failproof.report._present.cases import CaseIndex
from failproof.report._present.coverage import coverage_of
from failproof.report._present.headline import (
    Stat,
    class_counts,
    headline,
    selection_text,
    verdict_counts,
    verdict_line,
)
from failproof.report._present.judge import decided_note
from failproof.report._present.registered import Terminal, presenter_of
from failproof.report._present.safe import safe_view
from failproof.report._record import record_notes
from failproof.report._render import Renderer, renderers

__all__ = ["ConsoleRenderer"]

_STYLE = {
    "pass": "green",
    "fail": "red",
    "review": "yellow",
    "refusal": "dark_orange",
    "wrong_format": "magenta",
    "policy_violation": "bold red",
    "error": "bright_black",
    "unsafe_tool_call": "bold red",
    "tool_error": "bright_black",
    "unscored": "dim",
    "unsupported": "yellow",
}
_TOP_FAILURES = CONSOLE_FAILURES
_VERDICT_KEYS = ("pass_rate", "risk_gate_pass_rate")


def _header(report: Report) -> Text:
    worst, counts = verdict_line(verdict_counts(report))
    return Text.assemble(
        ("failproof ", "bold"),
        plain(report.run.id, 60),
        "   target ",
        plain(report.run.target.get("name", "?"), 40),
        f"   {report.case_count:,} cases",
        "   selection " if (chosen := selection_text(report)) else "",
        plain(chosen, 80) if chosen else "",
        "\n",
        (f" {worst.upper()} ", f"bold reverse {_STYLE[worst]}"),
        f"  {counts}",
    )


def _throttling(report: Report) -> Text | None:
    note = throttling_note(report)
    return Text(note, style="yellow") if note else None


def _notes(report: Report) -> Text | None:
    notes = record_notes(report)
    if not notes:
        return None
    return Text("\n".join(f"note: {plain(n, 400)}" for n in notes), style="yellow")


def _headline(report: Report) -> Group:
    grid = RichTable.grid(padding=(0, 2))
    for _ in range(2):
        grid.add_column(style="dim")
        grid.add_column()
    cells: list[Text] = []
    stats = headline(report)
    verdict = [s for s in stats if s.key in _VERDICT_KEYS]
    for stat in stats:
        if stat not in verdict:
            cells += [Text(stat.label), _value(stat)]
    for i in range(0, len(cells), 4):
        grid.add_row(*cells[i : i + 4])
    first = RichTable.grid(padding=(0, 2))
    first.add_column(style="dim")
    first.add_column()
    first.add_column(style="dim")
    for stat in verdict:  # the verdict, and the risk gate beside it, with what they count
        first.add_row(Text(stat.label), _value(stat), Text(stat.note))
    counts = [
        Text.assemble((f"{name.replace('_', ' ')} ", _STYLE.get(name, "")), f"{n:,}   ")
        for name, n in class_counts(report)
    ]
    return Group(first, grid, Text.assemble(*counts))


def _value(stat: Stat) -> Text:
    ci = Text(f"  {stat.ci}", style="dim") if stat.ci else Text()
    return Text.assemble(Text(stat.text, style="bold"), ci)


def _suites(report: Report) -> RichTable | None:
    table = suite_table(report)
    if not table:
        return None
    keep = [i for i, c in enumerate(table.columns) if c.key != "counts"][:8]
    out = RichTable(show_edge=False, pad_edge=False, header_style="bold")
    for i in keep:
        col = table.columns[i]
        out.add_column(col.label, justify="right" if col.numeric else "left")
    for row in table.rows:
        out.add_row(*[plain(row[i].full, 40) for i in keep])
    return out


def _failures(report: Report) -> RichTable | None:
    failing = report.digest().failing.items()
    if not failing:
        return None
    out = RichTable(
        title="top failures",
        title_justify="left",
        show_edge=False,
        pad_edge=False,
        header_style="bold",
    )
    out.add_column("case", no_wrap=True, max_width=26)
    out.add_column("suite", no_wrap=True)
    out.add_column("class", no_wrap=True)
    out.add_column("why", no_wrap=True, overflow="ellipsis")
    for result in failing:
        cls = Text(result.primary, style=_STYLE.get(result.primary, ""))
        out.add_row(plain(result.case_id, 28), plain(result.suite, 20), cls, _why(result))
    return out


def _why(result: CaseResult) -> Text:
    if result.unsupported is not None:
        return plain(f"not sent: {result.unsupported.reason}", 44)
    reasons = result.classification.reasons if result.classification else []
    if reasons:
        evidence = f" [{reasons[0].evidence}]" if reasons[0].evidence else ""
        return plain(f"{decided_note(result)}{reasons[0].detail}{evidence}", 44)
    if result.safe_v0 is not None:
        return plain(f"SAFE v0 {result.safe_v0.label}")
    return plain(result.error or result.output, 44)


def _safe(report: Report) -> Text | None:
    view = safe_view(report, CaseIndex(report))
    if view is None or not view.labels:
        return None
    parts = [Text("SAFE v0  ", style="bold")]
    for label, n in view.labels:
        parts += [Text(f"{label} ", style=_STYLE.get(label.lower(), "")), Text(f"{n:,}   ")]
    return Text.assemble(*parts)


def _registered(report: Report) -> list[Text]:
    """The sections whose presenter is registered with a terminal view (the judge's)."""
    out = []
    for key, data in report.extensions.items():
        presenter = presenter_of(key)
        shown = presenter.terminal(data) if presenter and presenter.terminal else None
        if shown is not None:
            out.append(_terminal(shown))
    return out


def _terminal(shown: Terminal) -> Text:
    title = plain(shown.title, 400)
    title.stylize("bold")
    parts = [title]
    for line in shown.lines:
        parts += [Text("\n  "), plain(line, 120)]
    return Text.assemble(*parts)


def _coverage(report: Report) -> Group | None:
    coverage = coverage_of(report.extensions.get("coverage"))
    return coverage_renderable(coverage, run=True) if coverage is not None else None


def _use_color() -> bool:
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ


@renderers.register("console")
class ConsoleRenderer(Renderer):
    """Headline scores, counts by class, the suite table and the top failures, for a terminal."""

    format = "console"
    filename = ""

    def __init__(self, *, color: bool | None = None, width: int | None = None) -> None:
        #: ``None``: colour when stdout is a terminal and ``NO_COLOR`` is unset.
        self.color = color
        self.width = width

    def write(self, report: Report, path: Path) -> None:
        """A file gets the plain text, without the terminal's colours."""
        uncoloured = ConsoleRenderer(color=False, width=self.width)
        atomic_write_text(path, redact(uncoloured.render(report)))

    def render(self, report: Report) -> str:
        color = _use_color() if self.color is None else self.color
        width = self.width or (
            min(140, shutil.get_terminal_size((100, 24)).columns) if color else 100
        )
        buffer = StringIO()
        console = Console(
            file=buffer,
            width=width,
            force_terminal=color,
            no_color=not color,
            color_system="standard" if color else None,
            highlight=False,
            emoji=False,
            markup=False,
        )
        parts: list[RenderableType | None] = [
            _header(report),
            _notes(report),
            _headline(report),
            _throttling(report),
            _suites(report),
            _failures(report),
            _safe(report),
            _coverage(report),
            *_registered(report),
        ]
        for part in parts:
            if part is not None:
                console.print(part)
                console.print()
        return buffer.getvalue()
