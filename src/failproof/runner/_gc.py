"""The garbage collector kept out of the way while a run is set up, called and reported.

A run starts with a large heap of long-lived objects (modules, suites, scorers, models) that a
full collection walks every time, while each case and answer allocates many short-lived ones.
For the length of the run the long-lived objects are frozen (left out of collections) and the
youngest generation is collected less often; both are restored when the run ends. Blocks nest:
an inner one freezes what exists by then too, and only the outermost one restores.

A host program that froze objects of its own (``gc.freeze()`` before forking workers, say) keeps
them frozen: `gc.unfreeze` cannot tell its objects from ours, so inside such a host the blocks
only change the threshold. A process the command line owns (`own_process`) freezes for good:
what a block froze lives until the command exits anyway, so it is never unfrozen.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["keep_alive", "own_process", "quiet_gc"]

#: Allocations between two collections of the youngest generation during a run (default 700).
#: A collection costs about as much per object whatever the threshold, but each one that runs
#: while answers are held moves them on to be walked again by the older generations: a 2,000-case
#: run at 100,000 pays one young collection instead of a dozen and an older one.
RUN_THRESHOLD = 100_000

_lock = threading.Lock()
_depth = [0]
#: Whether the outermost block froze (the host had frozen nothing of its own).
_freezing = [False]
#: Whether the command line owns the process (see `own_process`).
_owned = [False]


def own_process() -> None:
    """The process is the command line's: blocks freeze whatever was frozen before them, and
    what they freeze stays frozen when they end."""
    _owned[0] = True


@contextmanager
def quiet_gc() -> Iterator[None]:
    """Freeze what exists now and collect young objects less often, until the block ends."""
    with _lock:
        outermost = _depth[0] == 0
        _depth[0] += 1
        before = gc.get_threshold()
        if outermost:
            _freezing[0] = _owned[0] or gc.get_freeze_count() == 0
            gc.set_threshold(before[0] and max(before[0], RUN_THRESHOLD), *before[1:])
        if _freezing[0]:
            gc.freeze()
    try:
        yield
    finally:
        with _lock:
            _depth[0] -= 1
            if outermost:
                gc.set_threshold(*before)
                if _freezing[0] and not _owned[0]:
                    gc.unfreeze()


def keep_alive() -> None:
    """What exists now lives to the end of the command: in a process the command line owns,
    freeze it, so that no collection walks it again (a young collection walks every object kept
    since the last one, and results kept for the report are kept by the thousand). Elsewhere
    nothing changes: a host's collector is its own."""
    if _owned[0]:
        gc.freeze()
