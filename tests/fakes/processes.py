"""Waiting on a failproof process started by a test: for a state, never for a duration."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import time
from collections.abc import Callable
from contextlib import closing
from pathlib import Path


def wait_until(ready: Callable[[], bool], process: subprocess.Popen[str], what: str) -> None:
    """Poll ``ready`` until it holds; fail at once if ``process`` ends, or after two minutes (the
    process then killed, so that a failed wait leaves nothing running into later tests)."""
    deadline = time.monotonic() + 120
    while not ready():
        assert process.poll() is None, process.communicate()
        if time.monotonic() >= deadline:
            _abandon(process)
            raise AssertionError(what)
        time.sleep(0.01)


def _abandon(process: subprocess.Popen[str]) -> None:
    """SIGKILL to the process, and to its group when it leads one."""
    try:
        if os.getpgid(process.pid) == process.pid:
            os.killpg(process.pid, signal.SIGKILL)
        else:
            process.kill()
    except ProcessLookupError:
        pass
    process.communicate()


def kill_hard(process: subprocess.Popen[str]) -> None:
    """SIGKILL: nothing runs after it, no handler, no cleanup."""
    process.send_signal(signal.SIGKILL)
    process.communicate(timeout=10)


def store_rows(db: Path, query: str) -> list[tuple[object, ...]]:
    """What another process's store holds (nothing while its file or tables are not made)."""
    if not db.exists():
        return []
    with closing(sqlite3.connect(db, timeout=5)) as conn:
        try:
            return list(conn.execute(query))
        except sqlite3.OperationalError:
            return []
