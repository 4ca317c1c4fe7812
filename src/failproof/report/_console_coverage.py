"""The coverage table for a terminal: the run's (with failures) and ``suites coverage``'s."""

from __future__ import annotations

from rich.console import Group, OverflowMethod
from rich.table import Table as RichTable
from rich.text import Text

from failproof.coverage import Coverage
from failproof.coverage._model import CoverageFramework
from failproof.render._console import plain

__all__ = ["coverage_renderable"]


def _table(framework: CoverageFramework, run: bool, wrap: bool) -> RichTable:
    out = RichTable(
        title=framework.title,
        title_justify="left",
        show_edge=False,
        pad_edge=False,
        header_style="bold",
    )
    tested = [c for c in framework.categories if c.tested]
    widest = max((len(c.code) for c in tested), default=8)
    fold: OverflowMethod = "fold" if wrap else "ellipsis"
    out.add_column("category", no_wrap=True, min_width=min(max(widest, 8), 24))
    out.add_column("name", overflow=fold, no_wrap=not wrap, max_width=40, ratio=2)
    out.add_column("answers" if run else "cases", justify="right", no_wrap=True, min_width=7)
    if run:
        out.add_column("failed", justify="right", no_wrap=True, min_width=6)
    out.add_column("suites", overflow=fold, no_wrap=not wrap, ratio=3)
    for category in tested:
        cells = [plain(category.code, 24), plain(category.name, 60), Text(f"{category.cases:,}")]
        if run:
            failed = category.failed or 0
            cells.append(Text(f"{failed:,}", style="red" if failed else ""))
        cells.append(plain(", ".join(category.suites), 300 if wrap else 60))
        out.add_row(*cells)
    return out


def _untested(framework: CoverageFramework, run: bool, detail: bool) -> list[Text]:
    missing = framework.untested
    if not missing or (framework.key == "atlas" and run):
        return []
    what = "this run" if run else "these suites"
    lines = [
        Text.assemble(
            (f"not tested by {what} ({framework.key}): ", "yellow"),
            plain(", ".join(c.code if run else f"{c.code} {c.name}" for c in missing), 400),
        )
    ]
    for category in missing if detail else ():
        if category.needs:
            lines.append(Text.assemble("  ", plain(f"{category.code}: {category.needs}", 1998)))
    return lines


def coverage_renderable(coverage: Coverage, *, run: bool, detail: bool = False) -> Group:
    """Every framework's tested categories, then what nothing tested (``detail``: and what a
    user needs to test it)."""
    parts: list[RichTable | Text] = []
    for framework in coverage.frameworks:
        if any(c.tested for c in framework.categories):
            parts.append(_table(framework, run, wrap=detail))
        parts.extend(_untested(framework, run, detail))
    if coverage.unlabelled:
        unit = "answers" if run else "cases"
        count = f"{coverage.unlabelled:,} of {coverage.cases:,} {unit}"
        parts.append(Text(f"{count} carry no taxonomy"))
    return Group(*parts)
