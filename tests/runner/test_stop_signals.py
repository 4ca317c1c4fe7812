"""SIGTERM stops a run as Ctrl-C does: while the event loop runs, by cancelling the running task,
so the stop is never lost in code that swallows an interrupt where it lands (a finaliser, a
callback)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

#: A run's event loop with a callback that, like a finaliser, swallows any interrupt raised in it;
#: it spins until the run's task is told to stop.
_PROBE = """
import asyncio, sys
from failproof.runner._stop import stop_signals

async def run():
    task = asyncio.current_task()

    def swallowing():
        print("spinning", flush=True)
        while not task.cancelling():
            try:
                while not task.cancelling():
                    pass
            except KeyboardInterrupt:
                print("an interrupt was swallowed", flush=True)

    asyncio.get_running_loop().call_soon(swallowing)
    try:
        await asyncio.Event().wait()
    except asyncio.CancelledError:
        print("the run was cancelled", flush=True)
        raise

try:
    with stop_signals(), asyncio.Runner() as runner:
        runner.run(run())
except KeyboardInterrupt:
    print("stopped", flush=True)
"""

#: Not a timing: how long the stopped probe may take before the test calls the stop lost.
_GUARD_S = 60


def _stopped_by(sig: signal.Signals) -> list[str]:
    probe = subprocess.Popen(
        [sys.executable, "-c", _PROBE], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert probe.stdout is not None
    try:
        assert probe.stdout.readline() == "spinning\n"
        os.kill(probe.pid, sig)
        out, err = probe.communicate(timeout=_GUARD_S)
    except subprocess.TimeoutExpired:
        probe.kill()
        probe.communicate()
        pytest.fail(f"{sig.name} was lost: the run went on")
    assert probe.returncode == 0, err
    return ["spinning", *out.splitlines()]


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=lambda s: s.name)
def test_a_stop_cancels_the_running_task_and_is_never_swallowed(sig: signal.Signals) -> None:
    assert _stopped_by(sig) == ["spinning", "the run was cancelled", "stopped"]
