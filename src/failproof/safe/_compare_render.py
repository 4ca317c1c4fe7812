"""Showing a comparison: console tables and Markdown (JSON is `Comparison.to_json`)."""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from failproof.render._console import plain
from failproof.render._numbers import Notation
from failproof.render._table import md_table
from failproof.render._text import excerpt, md_code, md_text
from failproof.safe._compare import CaseChange, Comparison, MetricDelta

__all__ = ["comparison_markdown", "print_comparison"]

_VERDICT_STYLE = {"regression": "red", "improvement": "green", "no significant change": ""}


#: A change's bounds: ``[-0.120, +0.031]``.
_BOUNDS = Notation("+.3f", ", ", "[", "]", missing="-")


def _ci(d: MetricDelta) -> str:
    return _BOUNDS.text(d.low, d.high)


_DELTA_HEADER = ["Metric", "Baseline", "Current", "Delta", "CI", "p (Holm)", "Verdict"]
_DELTA_NUMERIC = [False, True, True, True, False, True, False]


def _delta_row(d: MetricDelta) -> list[str]:
    return [
        d.metric,
        f"{d.baseline:.3f}",
        f"{d.current:.3f}",
        f"{d.delta:+.3f}",
        _ci(d),
        f"{d.p_adjusted:.4f}",
        d.verdict,
    ]


def _deltas_table(comparison: Comparison) -> Table:
    level = f"{1 - comparison.alpha:.0%}"
    table = Table(box=box.SQUARE, title="Mean-score changes (paired, current - baseline)")
    for column in ("Metric", "Baseline", "Current", "Delta", f"{level} CI", "p (Holm)", "Verdict"):
        table.add_column(column, justify="left" if column in {"Metric", "Verdict"} else "right")
    for d in comparison.deltas:
        *cells, verdict = _delta_row(d)
        table.add_row(*cells, Text(verdict, style=_VERDICT_STYLE[d.verdict]))
    return table


def _changes_table(title: str, changes: Sequence[CaseChange]) -> Table | Text:
    if not changes:
        return Text(f"{title}: none")
    table = Table(box=box.SQUARE, title=f"{title} ({len(changes)})", title_justify="left")
    for column in ("Test ID", "Batch", "Archetype", "Label", "Composite"):
        table.add_column(column)
    for c in changes:
        table.add_row(
            plain(c.test_id, None),
            plain(c.batch_id, None),
            plain(c.archetype, None),
            f"{c.before} -> {c.after}",
            f"{c.composite_before:.2f} -> {c.composite_after:.2f}",
        )
    return table


def _headline(comparison: Comparison) -> Text:
    verdict = "REGRESSION" if comparison.regression else "no significant regression"
    base, now = comparison.baseline, comparison.current
    lines = [
        f"SAFE v0 comparison - {excerpt(now.concern_id, None)}: {verdict}",
        f"baseline {excerpt(base.path, None)} ({excerpt(base.generated_at, None)})",
        f"current  {excerpt(now.path, None)} ({excerpt(now.generated_at, None)})",
        f"paired cases: {comparison.paired}; alpha {comparison.alpha:g} (Holm-adjusted)",
    ]
    if comparison.only_baseline:
        lines.append(f"only in baseline: {excerpt(', '.join(comparison.only_baseline), None)}")
    if comparison.only_current:
        lines.append(f"only in current: {excerpt(', '.join(comparison.only_current), None)}")
    return Text("\n".join(lines), style="bold red" if comparison.regression else "")


def print_comparison(comparison: Comparison, console: Console) -> None:
    """Print the comparison: headline, mean-score changes, cases that got worse or better."""
    console.print(
        Group(
            _headline(comparison),
            _deltas_table(comparison),
            _changes_table("Label got worse", comparison.worse),
            _changes_table("Label got better", comparison.better),
        )
    )


def _md_changes(title: str, changes: Sequence[CaseChange]) -> list[str]:
    lines = [f"## {title} ({len(changes)})", ""]
    if not changes:
        return [*lines, "None.", ""]
    rows = [
        [
            md_text(c.test_id, None),
            md_text(c.batch_id, None),
            f"{c.before} -> {c.after}",
            f"{c.composite_before:.2f} -> {c.composite_after:.2f}",
        ]
        for c in changes
    ]
    return [*lines, *md_table(["Test ID", "Batch", "Label", "Composite"], rows), ""]


def comparison_markdown(comparison: Comparison) -> str:
    """The comparison as Markdown."""
    verdict = "**Regression**" if comparison.regression else "No significant regression"
    lines = [
        f"# SAFE v0 comparison - {md_text(comparison.current.concern_id, None)}",
        "",
        f"{verdict}. Baseline {md_code(comparison.baseline.generated_at)}, current "
        f"{md_code(comparison.current.generated_at)}, {comparison.paired} paired cases, "
        f"alpha {comparison.alpha:g} (Holm-adjusted).",
        "",
        *md_table(_DELTA_HEADER, map(_delta_row, comparison.deltas), _DELTA_NUMERIC),
        "",
    ]
    lines += _md_changes("Label got worse", comparison.worse)
    lines += _md_changes("Label got better", comparison.better)
    return "\n".join(lines).rstrip() + "\n"
