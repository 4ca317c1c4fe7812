"""A run's progress as text: plain periodic lines for CI logs, one line per case, or nothing."""

from __future__ import annotations

import time
from collections import Counter
from typing import TextIO

from failproof.core import CaseResult
from failproof.guard._text import strip_controls

__all__ = ["CaseProgress", "PlainProgress", "QuietProgress", "counts_text"]


def counts_text(counts: Counter[str]) -> str:
    """``refused 3  passed 2``: the counts by class, most first."""
    return "  ".join(f"{name} {n}" for name, n in counts.most_common())


class QuietProgress:
    """Shows nothing."""

    def start(self, total: int, done: int, not_sent: int = 0) -> None:  # noqa: ARG002
        return

    def notice(self, text: str) -> None:  # noqa: ARG002
        return

    def __call__(self, result: CaseResult) -> None:  # noqa: ARG002
        return

    def waiting(self, seconds: float, why: str) -> None:  # noqa: ARG002
        return

    def close(self) -> None:
        return


class PlainProgress:
    """One line every ``interval_s`` seconds (and one at the end): for CI logs."""

    def __init__(self, stream: TextIO, interval_s: float) -> None:
        self.stream = stream
        self.interval_s = interval_s
        self.counts: Counter[str] = Counter()
        self.total = self.done = self.new = 0
        self._started = self._last = time.monotonic()
        self._waiting_until = 0.0

    def start(self, total: int, done: int, not_sent: int = 0) -> None:  # noqa: ARG002
        self.total, self.done = total, done
        self._started = self._last = time.monotonic()
        if done:
            self._line(f"resuming: {done} of {total} already done")

    def notice(self, text: str) -> None:
        """One line about the whole run (e.g. the cases the target cannot take)."""
        self._line(strip_controls(text, keep_newlines=False))

    def __call__(self, result: CaseResult) -> None:
        self.done += 1
        self.new += 1
        self.counts[result.primary] += 1
        now = time.monotonic()
        if now - self._last >= self.interval_s:
            self._last = now
            self._report(now)

    def waiting(self, seconds: float, why: str) -> None:
        """Say the run waits, unless an earlier line already covers this wait."""
        until = time.monotonic() + seconds
        if until <= self._waiting_until + 1.0:
            return
        self._waiting_until = until
        self._line(f"waiting {seconds:.0f} s: {strip_controls(why, keep_newlines=False)[:200]}")

    def close(self) -> None:
        self._report(time.monotonic())

    def _report(self, now: float) -> None:
        rate = self.new / max(now - self._started, 1e-9)
        left = self.total - self.done
        eta = f"{left / rate:.0f} s" if rate > 0 else "?"
        share = self.done / self.total if self.total else 1.0
        self._line(
            f"{self.done}/{self.total} ({share:.0%})  {rate:.1f}/s  ETA {eta}  "
            + counts_text(self.counts)
        )

    def _line(self, text: str) -> None:
        self.stream.write(f"failproof: {text}\n")
        self.stream.flush()


def _printable(text: str, limit: int = 60) -> str:
    """``text`` on one line with control characters escaped (case ids come from suite files)."""
    safe = strip_controls(text, keep_newlines=False)
    return safe if len(safe) <= limit else safe[: limit - 1] + "…"


class CaseProgress(PlainProgress):
    """One line per answered case, with its class and the seconds since the start: the demo's."""

    def __init__(self, stream: TextIO) -> None:
        super().__init__(stream, interval_s=float("inf"))

    def start(self, total: int, done: int, not_sent: int = 0) -> None:
        super().start(total, done)
        apart = f" ({not_sent} more not sent: unsupported)" if not_sent else ""
        self._line(
            f"{total - done - not_sent} cases to answer{apart}; the first waits for the model "
            "to load"
        )

    def __call__(self, result: CaseResult) -> None:
        super().__call__(result)
        took = time.monotonic() - self._started
        name = _printable(f"{result.suite}/{result.case_id}")
        self._line(f"[{self.done}/{self.total}] {took:6.1f} s  {result.primary:<16} {name}")
