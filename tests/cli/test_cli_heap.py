"""The collector is tuned only in a process the CLI owns, never in a program that calls it."""

from __future__ import annotations

import gc
import subprocess
import sys

from failproof.cli._heap import YOUNG_THRESHOLD, settle_heap


def test_a_program_calling_the_cli_keeps_its_collector_as_it_was() -> None:
    threshold, frozen = gc.get_threshold(), gc.get_freeze_count()
    settle_heap()
    assert (gc.get_threshold(), gc.get_freeze_count()) == (threshold, frozen)


def test_the_cli_process_collects_young_garbage_less_often_and_freezes_what_it_keeps() -> None:
    probe = (
        "import gc, sys\n"
        "from failproof.cli._heap import own_process, settle_heap\n"
        "own_process()\n"
        "before = gc.get_freeze_count()\n"
        "settle_heap()\n"
        "print(gc.get_threshold()[0], gc.get_freeze_count() > before)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout.split() == [str(YOUNG_THRESHOLD), "True"]
