"""Whether a run computes its failure geometry in a process of its own, and that process's life."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from failproof.runner._gc import quiet_gc
from failproof.runner._pool import can_fork

if TYPE_CHECKING:  # the geometry's models load with the process, not with the runner
    from failproof.metrics._geometry_process import GeometryProcess

__all__ = ["closing_geometry"]


@contextmanager
def closing_geometry(wanted: bool) -> Iterator[GeometryProcess | None]:
    """A `GeometryProcess` for a run that ``wanted`` one (its report is built as it stores, and
    large enough for scipy) where there is a core to spare and processes fork; else None. The
    process is closed when the block ends."""
    if not (wanted and can_fork() and (os.cpu_count() or 1) >= 2):
        yield None
        return
    from failproof.metrics._geometry_process import GeometryProcess

    with quiet_gc():  # the fork's collector leaves the run's objects (and pages) alone
        process = GeometryProcess()
    try:
        yield process
    finally:
        process.close()
