"""Medium 13: an `exec:` command's answer is kept and nothing it started outlives the call."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from tests.hostile.conftest import read_report, write_suite

from failproof.cli import main

#: Not a timing: how long a killed process may take to disappear before the test gives up.
GUARD_S = 30


def gone(pid: int) -> bool:
    """The process no longer runs (exited, or a zombie waiting to be reaped)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text(encoding="utf-8")
    except FileNotFoundError:
        return True
    return "\nState:\tZ" in status


def wait_gone(pid: int) -> bool:
    deadline = time.monotonic() + GUARD_S
    while not gone(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to see processes")
def test_a_background_child_neither_costs_the_answer_nor_outlives_the_call(
    workdir: Path,
) -> None:
    suite = write_suite(workdir, [{"id": "c", "input": "x", "expect": {"must_contain": ["ok"]}}])
    command = "sh -c 'sleep 1000 & echo $! > child.pid; echo ok'"
    code = main(["run", suite, "-t", f"exec:{command}", "--timeout", "30", "-q", "-f", "json"])
    assert code == 0
    (result,) = read_report(workdir)["results"]
    assert result["output"] == "ok"
    assert wait_gone(int((workdir / "child.pid").read_text()))


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to see processes")
def test_a_timeout_kills_the_whole_process_group(workdir: Path) -> None:
    suite = write_suite(workdir, [{"id": "c", "input": "x"}])
    command = "sh -c 'sleep 1000 & echo $! > child.pid; echo $$ > parent.pid; sleep 1000'"
    args = ["-t", f"exec:{command}", "--timeout", "0.5", "--retries", "0", "-q", "-f", "json"]
    assert main(["run", suite, *args]) == 1
    (result,) = read_report(workdir)["results"]
    assert "within" in result["error"]  # the runner's timeout or the command's own
    for name in ("child.pid", "parent.pid"):
        pid = int((workdir / name).read_text())
        assert wait_gone(pid), f"{name} {pid} survived"
        if not gone(pid):
            os.kill(pid, 9)


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to see processes")
@pytest.mark.parametrize(
    "start",
    [
        pytest.param("setsid sleep 1000 & echo $! > child.pid", id="setsid"),
        pytest.param("setsid sh -c 'echo $$ > child.pid; exec sleep 1000' &", id="setsid-shell"),
    ],
)
def test_a_child_that_leaves_the_group_neither_costs_the_answer_nor_outlives_the_call(
    workdir: Path, start: str
) -> None:
    suite = write_suite(workdir, [{"id": "c", "input": "x", "expect": {"must_contain": ["ok"]}}])
    (workdir / "bot.sh").write_text(f"{start}\nwhile [ ! -s child.pid ]; do :; done\necho ok\n")
    code = main(["run", suite, "-t", "exec:sh bot.sh", "--timeout", "60", "-q", "-f", "json"])
    pid = int((workdir / "child.pid").read_text())
    try:
        assert code == 0
        (result,) = read_report(workdir)["results"]
        assert result["output"] == "ok"
        assert wait_gone(pid)
    finally:
        if not gone(pid):
            os.kill(pid, 9)
