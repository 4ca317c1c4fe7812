"""The garbage collector kept out of the way while a run's calls are in flight.

A run starts with a large heap of long-lived objects (suites, scorers, models) that a full
collection walks every time, while each answer allocates many short-lived ones. For the length
of the run the long-lived objects are frozen (left out of collections) and the youngest
generation is collected less often; both are restored when the run ends.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["quiet_gc"]

#: Allocations between two collections of the youngest generation during a run (default 700).
#: A collection costs about as much per object whatever the threshold, but each one that runs
#: while answers are held moves them on to be walked again by the older generations: a 2,000-case
#: run at 100,000 pays one young collection instead of a dozen and an older one.
RUN_THRESHOLD = 100_000


@contextmanager
def quiet_gc() -> Iterator[None]:
    """Freeze what exists now and collect young objects less often, until the block ends."""
    before = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(before[0] and max(before[0], RUN_THRESHOLD), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()
