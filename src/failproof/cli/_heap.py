"""What a command keeps until it exits, left out of the cyclic garbage collector's scans."""

from __future__ import annotations

import gc

__all__ = ["settle_heap"]


def settle_heap() -> None:
    """Move every object alive now out of the collector's reach (`gc.freeze`).

    A command's modules, settings and, once scored, the results held for its report live until
    it exits; every full collection would walk them again, and a larger run triggers more of
    them. Objects made later are collected as usual (cycles among them are still freed).
    """
    gc.freeze()
