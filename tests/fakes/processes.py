"""Waiting on a failproof process started by a test: for a state, never for a duration."""

from __future__ import annotations

import signal
import subprocess
import time
from collections.abc import Callable


def wait_until(ready: Callable[[], bool], process: subprocess.Popen[str], what: str) -> None:
    """Poll ``ready`` until it holds; fail at once if ``process`` ends, or after a minute."""
    deadline = time.monotonic() + 60
    while not ready():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


def kill_hard(process: subprocess.Popen[str]) -> None:
    """SIGKILL: nothing runs after it, no handler, no cleanup."""
    process.send_signal(signal.SIGKILL)
    process.communicate(timeout=10)
