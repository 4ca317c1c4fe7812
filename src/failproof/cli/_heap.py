"""The garbage collector tuned for a command that owns its process."""

from __future__ import annotations

import gc

__all__ = ["own_process", "settle_heap"]

#: Container objects allocated between two young collections (Python's default: 700), as during
#: a run (`failproof.runner._gc.RUN_THRESHOLD`). A score allocates a few hundred per answer and
#: keeps many of them for its report: with the default, the collector walked the same live results
#: over and over (at 10,000 a 2,828-answer score still spent 0.05 CPU-s collecting, at 100,000
#: 0.03; a 1,414-answer one 0.03 and 0.004).
YOUNG_THRESHOLD = 100_000

_owner = False


def own_process() -> None:
    """The CLI runs as its own process (the console script, ``python -m failproof``), not called
    from a Python program: collect young garbage less often, and let `settle_heap` act."""
    global _owner
    _owner = True
    _, middle, old = gc.get_threshold()
    gc.set_threshold(max(YOUNG_THRESHOLD, gc.get_threshold()[0]), middle, old)


def settle_heap() -> None:
    """In a process the CLI owns, move every object alive now out of the collector's reach
    (`gc.freeze`). A command's modules, settings and, once scored, the results held for its
    report live until it exits; every full collection would walk them again, and a larger run
    triggers more of them. Objects made later are collected as usual."""
    if _owner:
        gc.freeze()
        # the runner's blocks then freeze too, for good (loaded here: help loads no runner)
        from failproof.runner._gc import own_process as runner_owns

        runner_owns()
