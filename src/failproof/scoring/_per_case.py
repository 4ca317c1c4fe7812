"""Work that depends only on the case, done once per case however many answers it has."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from failproof.core import Case

__all__ = ["per_case"]

T = TypeVar("T")

#: Recent cases by identity: the case itself (held, so that its id is not reused while the
#: entry lives) and what was worked out from it. A case is frozen, so the work stays valid.
#: The samples of a case are scored close together (at most a run's concurrency apart), so the
#: most recent cases are enough; holding more only keeps finished cases alive.
_MEMO: dict[int, tuple[Case, dict[str, Any]]] = {}
_MAX_CASES = 1024


def per_case(case: Case, key: str, compute: Callable[[Case], T]) -> T:
    """``compute(case)``, worked out on the first call for this case object and ``key``."""
    entry = _MEMO.get(id(case))
    if entry is None or entry[0] is not case:
        if len(_MEMO) >= _MAX_CASES:
            del _MEMO[next(iter(_MEMO))]  # the oldest case
        entry = _MEMO[id(case)] = (case, {})
    memo = entry[1]
    if key not in memo:
        memo[key] = compute(case)
    value: T = memo[key]
    return value
