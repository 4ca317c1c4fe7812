"""Progress of a run: a live bar on a terminal, plain periodic lines elsewhere, or nothing."""

from __future__ import annotations

import sys
from typing import Literal, Protocol

from failproof.core import CaseResult
from failproof.runner._progress_lines import CaseProgress, PlainProgress, QuietProgress

__all__ = ["ProgressMode", "RunProgress", "make_progress"]

ProgressMode = Literal["auto", "bar", "plain", "cases", "quiet"]


class RunProgress(Protocol):
    """Told of every stored result; shows how far the run is."""

    def start(self, total: int, done: int, not_sent: int = 0) -> None: ...
    def notice(self, text: str) -> None: ...
    def __call__(self, result: CaseResult) -> None: ...
    def waiting(self, seconds: float, why: str) -> None: ...
    def close(self) -> None: ...


def make_progress(mode: ProgressMode, interval_s: float = 10.0) -> RunProgress:
    """``auto`` is a bar on a terminal and plain lines otherwise; all of them write to stderr."""
    if mode == "quiet":
        return QuietProgress()
    if mode == "auto":
        mode = "bar" if sys.stderr.isatty() else "plain"
    if mode == "bar":  # rich's live display is loaded only for a bar
        from rich.console import Console

        from failproof.runner._progress_bar import BarProgress

        return BarProgress(Console(stderr=True))
    if mode == "cases":
        return CaseProgress(sys.stderr)
    return PlainProgress(sys.stderr, interval_s)
