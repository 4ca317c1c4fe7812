"""The console scorecard of section 5.2: the boxed summary, the per-case breakdown, the top issues.

Intervals (95% by default) follow each mean and pass rate in brackets. ``verbose`` adds each case's
found / missing phrases, violations, semantic matches and the edge cases that decided a score.
"""

from __future__ import annotations

from collections.abc import Sequence
from io import StringIO
from typing import Any

from rich import box
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from failproof.config._safe import METRICS
from failproof.render._console import plain
from failproof.render._text import excerpt
from failproof.safe._aggregate import PhraseCount
from failproof.safe._report import SafeReport
from failproof.safe._result import SafeResult, SemanticMatch

__all__ = ["console_text", "print_console"]

_LABEL_STYLE = {"Pass": "green", "Review": "yellow", "Fail": "red"}
_LEVEL_STYLE = {"OK": "green", "WARN": "yellow", "FAIL": "red"}


def _pct(value: float) -> str:
    return f"{value:.0%}"


def _ci(interval: dict[str, Any], percent: bool) -> str:
    low, high = interval.get("low"), interval.get("high")
    if low is None or high is None:
        return ""
    if percent:
        return f" [{low:.0%}-{high:.0%}]"
    return f" [{low:.2f}-{high:.2f}]"


def _totals(report: SafeReport) -> Text:
    agg = report.aggregate
    n = agg.total_cases or 1
    parts = [f"Total Cases: {agg.total_cases}"]
    for label in ("Pass", "Review", "Fail"):
        count = agg.label_distribution[label]
        parts.append(f"{label}: {count} ({count / n:.0%})")
    if report.skipped:
        parts.append(f"Skipped: {len(report.skipped)}")
    return Text("    ".join(parts))


def _metric_table(report: SafeReport) -> Table:
    agg, ci = report.aggregate, report.aggregate.intervals
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, expand=True)
    table.add_column("Metric", justify="center")
    table.add_column("Mean Score", justify="center")
    table.add_column("Pass Rate", justify="center")
    table.add_column("Status")
    for metric in METRICS:
        status = report.metric_status(metric)
        table.add_row(
            metric,
            f"{agg.mean_scores[metric]:.2f}{_ci(ci['mean_scores'][metric], False)}",
            f"{_pct(agg.pass_rates[metric])}{_ci(ci['pass_rates'][metric], True)}",
            Text(status.text, style=_LEVEL_STYLE[status.level]),
        )
    return table


def _scorecard(report: SafeReport) -> Table:
    agg, ci = report.aggregate, report.aggregate.intervals
    outer = Table(box=box.DOUBLE_EDGE, show_header=False, show_lines=True, expand=False)
    outer.add_column(min_width=71)
    title = f"SAFE v0 Scorecard - {excerpt(report.concern_id, None)}"
    outer.add_row(Text(title, justify="center", style="bold"))
    outer.add_row(_totals(report))
    outer.add_row(_metric_table(report))
    composite = agg.mean_scores["composite"]
    overall = agg.pass_rates["overall"]
    outer.add_row(
        Text(
            f"Composite: {composite:.2f}{_ci(ci['mean_scores']['composite'], False)}    "
            f"Overall pass rate: {_pct(overall)}{_ci(ci['pass_rates']['overall'], True)}"
        )
    )
    return outer


def _label(result: SafeResult) -> Text:
    return Text(result.label.upper(), style=_LABEL_STYLE[result.label])


def _cases(results: Sequence[SafeResult]) -> Table:
    table = Table(box=box.SQUARE, title="Per-Case Breakdown:", title_justify="left")
    for column in ("Test ID", "Archetype"):
        table.add_column(column, overflow="fold")
    for column in ("CR", "AH", "AC"):
        table.add_column(column, justify="center")
    table.add_column("Label")
    for r in results:
        s = r.scores
        scores = (f"{s.CR:.2f}", f"{s.AH:.2f}", f"{s.AC:.2f}")
        table.add_row(plain(r.test_id, None), plain(r.archetype, None), *scores, _label(r))
    return table


def _quoted(phrases: Sequence[str]) -> str:
    return ", ".join(f'"{excerpt(p, None)}"' for p in phrases) or "none"


def _semantic_lines(metric: str, matches: Sequence[SemanticMatch]) -> list[str]:
    return [
        f'  {metric} semantic: "{excerpt(m.phrase, None)}" ~ "{excerpt(m.sentence, None)}" '
        f"(similarity {m.similarity:.2f}, {'matched' if m.matched else 'below threshold'})"
        for m in matches
    ]


def _details(result: SafeResult) -> Text:
    lines = [
        f"{excerpt(result.test_id, None)} ({excerpt(result.archetype, None)}, "
        f"batch {excerpt(result.batch_id, None)}): {result.label.upper()}",
        f"  CR found: {_quoted(result.cr.found)}   missing: {_quoted(result.cr.missing)}",
        f"  AH violations: {_quoted(result.ah_violations)}",
        f"  AC found: {_quoted(result.ac.found)}   missing: {_quoted(result.ac.missing)}",
        *_semantic_lines("CR", result.cr_semantic),
        *_semantic_lines("AC", result.ac_semantic),
        *(f"  note: {excerpt(note, None)}" for note in result.notes),
    ]
    return Text("\n".join(lines))


def _issue(name: str, items: Sequence[PhraseCount], limit: int = 3) -> str:
    if not items:
        return f"  {name}: none"
    shown = [f'"{excerpt(p, None)}" ({n} case{"s" if n != 1 else ""})' for p, n in items[:limit]]
    return f"  {name}: " + ", ".join(shown)


def _top_issues(report: SafeReport) -> Text:
    fa = report.aggregate.failure_analysis
    lines = [
        "Top Issues:",
        _issue("CR Misses", fa.cr_misses),
        _issue("AH Violations", fa.ah_violations),
        _issue("AC Misses", fa.ac_misses),
    ]
    if report.skipped:
        lines.append(f"Skipped records ({len(report.skipped)}):")
        lines.extend(f"  {excerpt(s.describe(), None)}" for s in report.skipped)
    return Text("\n".join(lines))


def _shown(report: SafeReport) -> tuple[list[SafeResult], Text | None]:
    """The cases to list: all, or the lowest composites (in report order) past the limit."""
    results, limit = report.results, report.config.console_max_cases
    if len(results) <= limit:
        return list(results), None
    order = sorted(range(len(results)), key=lambda i: (results[i].scores.composite, i))
    keep = sorted(order[:limit])
    note = Text(
        f"Showing the {limit} lowest composites of {len(results):,} cases; every case is in "
        "the JSON and Markdown reports (consoleMaxCases sets the limit)."
    )
    return [results[i] for i in keep], note


def _renderables(report: SafeReport, verbose: bool) -> Group:
    shown, note = _shown(report)
    parts: list[Any] = [_scorecard(report), Text(""), _cases(shown)]
    if note is not None:
        parts.append(note)
    if verbose:
        parts.extend([Text("Case Details:"), *(_details(r) for r in shown)])
    parts.extend([Text(""), _top_issues(report)])
    return Group(*parts)


def print_console(report: SafeReport, console: Console, *, verbose: bool = False) -> None:
    """Print the scorecard to ``console`` (colours when it is a terminal)."""
    console.print(_renderables(report, verbose))


def console_text(report: SafeReport, *, verbose: bool = False, width: int = 110) -> str:
    """The scorecard as plain text (for files and tests)."""
    buffer = StringIO()
    console = Console(file=buffer, width=width, force_terminal=False, color_system=None)
    print_console(report, console, verbose=verbose)
    return buffer.getvalue()
