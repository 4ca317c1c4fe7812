"""Showing a comparison: console tables and Markdown (JSON is `Comparison.to_json`)."""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from failproof.safe._compare import CaseChange, Comparison, MetricDelta
from failproof.safe._markdown import escape_markdown

__all__ = ["comparison_markdown", "print_comparison"]

_VERDICT_STYLE = {"regression": "red", "improvement": "green", "no significant change": ""}


def _ci(d: MetricDelta) -> str:
    if d.low is None or d.high is None:
        return "-"
    return f"[{d.low:+.3f}, {d.high:+.3f}]"


def _deltas_table(comparison: Comparison) -> Table:
    level = f"{1 - comparison.alpha:.0%}"
    table = Table(box=box.SQUARE, title="Mean-score changes (paired, current - baseline)")
    for column in ("Metric", "Baseline", "Current", "Delta", f"{level} CI", "p (Holm)", "Verdict"):
        table.add_column(column, justify="left" if column in {"Metric", "Verdict"} else "right")
    for d in comparison.deltas:
        table.add_row(
            d.metric,
            f"{d.baseline:.3f}",
            f"{d.current:.3f}",
            f"{d.delta:+.3f}",
            _ci(d),
            f"{d.p_adjusted:.4f}",
            Text(d.verdict, style=_VERDICT_STYLE[d.verdict]),
        )
    return table


def _changes_table(title: str, changes: Sequence[CaseChange]) -> Table | Text:
    if not changes:
        return Text(f"{title}: none")
    table = Table(box=box.SQUARE, title=f"{title} ({len(changes)})", title_justify="left")
    for column in ("Test ID", "Batch", "Archetype", "Label", "Composite"):
        table.add_column(column)
    for c in changes:
        table.add_row(
            Text(c.test_id),
            Text(c.batch_id),
            Text(c.archetype),
            f"{c.before} -> {c.after}",
            f"{c.composite_before:.2f} -> {c.composite_after:.2f}",
        )
    return table


def _headline(comparison: Comparison) -> Text:
    verdict = "REGRESSION" if comparison.regression else "no significant regression"
    lines = [
        f"SAFE v0 comparison - {comparison.current.concern_id}: {verdict}",
        f"baseline {comparison.baseline.path} ({comparison.baseline.generated_at})",
        f"current  {comparison.current.path} ({comparison.current.generated_at})",
        f"paired cases: {comparison.paired}; alpha {comparison.alpha:g} (Holm-adjusted)",
    ]
    if comparison.only_baseline:
        lines.append(f"only in baseline: {', '.join(comparison.only_baseline)}")
    if comparison.only_current:
        lines.append(f"only in current: {', '.join(comparison.only_current)}")
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
    lines += ["| Test ID | Batch | Label | Composite |", "|---|---|---|---|"]
    lines += [
        f"| {escape_markdown(c.test_id)} | {escape_markdown(c.batch_id)} | {c.before} -> "
        f"{c.after} | {c.composite_before:.2f} -> {c.composite_after:.2f} |"
        for c in changes
    ]
    return [*lines, ""]


def comparison_markdown(comparison: Comparison) -> str:
    """The comparison as Markdown."""
    verdict = "**Regression**" if comparison.regression else "No significant regression"
    lines = [
        f"# SAFE v0 comparison - {escape_markdown(comparison.current.concern_id)}",
        "",
        f"{verdict}. Baseline `{comparison.baseline.generated_at}`, current "
        f"`{comparison.current.generated_at}`, {comparison.paired} paired cases, "
        f"alpha {comparison.alpha:g} (Holm-adjusted).",
        "",
        "| Metric | Baseline | Current | Delta | CI | p (Holm) | Verdict |",
        "|---|---|---|---|---|---|---|",
    ]
    lines += [
        f"| {d.metric} | {d.baseline:.3f} | {d.current:.3f} | {d.delta:+.3f} | {_ci(d)} | "
        f"{d.p_adjusted:.4f} | {d.verdict} |"
        for d in comparison.deltas
    ]
    lines.append("")
    lines += _md_changes("Label got worse", comparison.worse)
    lines += _md_changes("Label got better", comparison.better)
    return "\n".join(lines).rstrip() + "\n"
