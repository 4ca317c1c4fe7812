"""A run's progress as a live rich bar on a terminal (see `make_progress`)."""

from __future__ import annotations

from collections import Counter

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeRemainingColumn,
)

from failproof.core import CaseResult
from failproof.guard import for_console
from failproof.guard._text import strip_controls
from failproof.runner._progress_lines import counts_text

__all__ = ["BarProgress"]


class BarProgress:
    """A rich progress bar with rate, ETA and live counts by class."""

    def __init__(self, console: Console) -> None:
        self.counts: Counter[str] = Counter()
        self._bar = Progress(
            TextColumn("[bold]running"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeRemainingColumn(),
            TextColumn("{task.fields[counts]}"),
            TextColumn("{task.fields[waiting]}"),
            console=console,
            transient=False,
        )
        self._task: TaskID | None = None
        self._unshown = 0

    def start(self, total: int, done: int, not_sent: int = 0) -> None:  # noqa: ARG002
        self._bar.start()
        self._task = self._bar.add_task(
            "run", total=total, completed=done, rate="", counts="", waiting=""
        )

    def notice(self, text: str) -> None:
        self._bar.console.print(
            f"failproof: {strip_controls(text, keep_newlines=False)}", highlight=False, markup=False
        )

    def __call__(self, result: CaseResult) -> None:
        self.counts[result.primary] += 1
        self._unshown += 1

    def flush(self) -> None:
        """Move the bar by the results counted since the last flush (once per stored group:
        updating a rich bar costs far more than counting)."""
        if self._task is None or not self._unshown:
            return
        advance, self._unshown = self._unshown, 0
        speed = self._bar.tasks[0].speed
        rate = f"{speed:.1f}/s" if speed else ""
        counts = counts_text(self.counts)
        self._bar.update(self._task, advance=advance, rate=rate, counts=counts, waiting="")

    def waiting(self, seconds: float, why: str) -> None:
        if self._task is None:
            return
        text = for_console(f"waiting {seconds:.0f} s: {why}", keep_newlines=False)[:120]
        self._bar.update(self._task, waiting=f"[yellow]{text}")

    def close(self) -> None:
        self.flush()
        self._bar.stop()
