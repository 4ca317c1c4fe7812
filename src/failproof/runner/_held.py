"""The results a process just stored, kept in memory for its report while they are few."""

from __future__ import annotations

from failproof.core import CaseResult
from failproof.guard._secrets import knows_secrets
from failproof.runner._gc import keep_alive
from failproof.store import StoredResults

__all__ = ["HELD_RESULTS", "HeldResults"]

#: Results a run or a score keeps in memory for its report (about 16 KB each); past that the
#: report reads the store.
HELD_RESULTS = 5_000
#: Results kept between two calls of `keep_alive`.
SETTLE_EVERY = 256


class HeldResults:
    """The results of a run as they are stored, kept while there are at most ``limit``: the
    report then reads them instead of reading the store back (the same results)."""

    def __init__(self, limit: int, *, settle: bool = False) -> None:
        """``settle``: every `SETTLE_EVERY` results, `keep_alive` what exists (the results, and
        any garbage cycle not collected yet: meant for answers read from a file, where no failed
        network call leaves large cycles behind)."""
        self.limit, self.settle = limit, settle
        self.results: list[CaseResult] | None = []

    def add(self, result: CaseResult) -> None:
        if self.results is None:
            return
        if len(self.results) >= self.limit:
            self.results = None  # too many: the report reads the store
        else:
            self.results.append(result)
            if self.settle and len(self.results) % SETTLE_EVERY == 0:
                keep_alive()

    __call__ = add  # a result sink

    def as_stored(
        self, source: StoredResults, *, redacted: bool | None = None
    ) -> list[CaseResult] | None:
        """The results in the store's order, or None unless they are exactly what it holds: every
        one of them, none changed by the store's redaction (``redacted``: whether the store
        redacted any; unknown, whenever a secret is known)."""
        changed = knows_secrets() if redacted is None else redacted
        if self.results is None or changed or len(self.results) != len(source):
            return None
        ordered = sorted(self.results, key=lambda r: r.key)
        keys = [r.key for r in ordered]
        return ordered if len(set(keys)) == len(keys) else None
