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
RUN_THRESHOLD = 10_000


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
