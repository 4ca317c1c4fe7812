"""Work a run's report will need, done on a thread while the run waits for its first answers."""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextlib import suppress

__all__ = ["Ahead"]


class Ahead:
    """``work`` run at most once, on a daemon thread, from `start` on; `wait` until it is done.
    ``first`` runs before it, on the thread that calls `start` (what must not run on another).

    What they do is what the report would otherwise do on first use (import modules, build
    models), so a failure there is left for the report to meet and report: it is swallowed here.
    """

    def __init__(
        self, work: Callable[[], None], *, first: Callable[[], None] | None = None
    ) -> None:
        self.work, self.first = work, first
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is None:
            if self.first is not None:
                with suppress(Exception):
                    self.first()
            self._thread = threading.Thread(target=self._run, name="failproof-ahead", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        with suppress(Exception):
            self.work()

    def wait(self) -> None:
        """Return once the work is done (at once when it never started)."""
        if self._thread is not None:
            self._thread.join()
