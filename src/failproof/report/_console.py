"""The compact console summary printed by run / score."""

from __future__ import annotations

from io import StringIO

from rich.console import Console
from rich.table import Table

from failproof.report._model import Report
from failproof.report._render import Renderer, renderers

__all__ = ["ConsoleRenderer"]


def _pct(value: object) -> str:
    return f"{value:.1%}" if isinstance(value, float) else "-"


@renderers.register("console")
class ConsoleRenderer(Renderer):
    """Headline scores, counts by class, and the suite table, for a terminal."""

    format = "console"
    filename = ""

    def render(self, report: Report) -> str:
        buffer = StringIO()
        console = Console(file=buffer, width=100, force_terminal=False, color_system=None)
        summary = report.summary
        console.print(f"failproof run {report.run.id}  target: {report.run.target.get('name')}")
        console.print(
            f"overall run score {_pct(summary.get('overall_run_score'))}   "
            f"weighted {_pct(summary.get('weighted_run_score'))}   "
            f"cases {summary.get('total_cases', 0)}"
        )
        counts = summary.get("counts", {})
        console.print("   ".join(f"{k} {v}" for k, v in counts.items() if v))
        table = Table(show_edge=False)
        for column in ("suite", "cases", "passed", "score", "weight"):
            table.add_column(column, justify="left" if column == "suite" else "right")
        for name, row in report.suites.items():
            table.add_row(
                name, str(row["n"]), str(row["passed"]), _pct(row["score"]), f"{row['weight']:g}"
            )
        console.print(table)
        return buffer.getvalue()
