"""High 4: a `python:` target that never returns cannot keep failproof from ending."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from tests.hostile.conftest import write_suite

HUNG = """
import pathlib, threading

def answer(messages):
    pathlib.Path("called").touch()
    threading.Event().wait()  # never returns
"""
#: Not a timing: the most a test waits for a process that should end before calling it hung.
GUARD_S = 60


@contextmanager
def start(folder: Path, *args: str) -> Iterator[subprocess.Popen[str]]:
    """The run in a process of its own, killed at the end of the test if it is still there."""
    (folder / "hung_bot.py").write_text(HUNG, encoding="utf-8")
    env = {**os.environ, "FAILPROOF_HOME": str(folder / "home")}
    process = subprocess.Popen(
        [sys.executable, "-m", "failproof", "run", *args, "-t", "python:hung_bot.py:answer"],
        cwd=folder,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()


def cases(n: int) -> list[dict[str, object]]:
    return [{"id": f"c{i}", "input": "x", "expect": {"must_contain": ["y"]}} for i in range(n)]


@pytest.mark.slow
def test_every_call_timing_out_ends_the_run_with_a_report(tmp_path: Path) -> None:
    suite = write_suite(tmp_path, cases(3))
    with start(
        tmp_path, suite, "--timeout", "0.2", "--retries", "0", "-q", "-f", "json"
    ) as process:
        _, err = process.communicate(timeout=GUARD_S)
    assert process.returncode == 1, err
    assert len(list(tmp_path.glob("failproof-results/*/report.json"))) == 1


@pytest.mark.slow
def test_a_run_aborted_by_timeouts_still_writes_its_report(tmp_path: Path) -> None:
    suite = write_suite(tmp_path, cases(6))
    args = ["--timeout", "0.2", "--retries", "0", "--max-consecutive-failures", "2", "-c", "1"]
    with start(tmp_path, suite, *args, "-q", "-f", "json") as process:
        _, err = process.communicate(timeout=GUARD_S)
    assert process.returncode == 3, err
    assert "resume with" in err
    assert len(list(tmp_path.glob("failproof-results/*/report.json"))) == 1


@pytest.mark.slow
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["sigterm", "sigint"])
def test_a_stop_signal_ends_a_run_stuck_in_a_hung_call(tmp_path: Path, stop: int) -> None:
    suite = write_suite(tmp_path, cases(2))
    with start(tmp_path, suite, "--timeout", "1000", "-q") as process:
        deadline = time.monotonic() + GUARD_S
        while not (tmp_path / "called").exists():
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "the target was never called"
            time.sleep(0.02)
        process.send_signal(stop)
        _, err = process.communicate(timeout=GUARD_S)
    assert process.returncode == 130, err
    assert "--resume" in err
