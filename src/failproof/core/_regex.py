"""RE2 regular expressions of suite files (``must_match``, ``must_not_match``).

RE2 runs in time linear in the text, whatever the pattern: a hostile suite or output cannot make
a check take exponential time. It has no backreferences and no lookaround.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import re2

__all__ = ["re2_compiled", "re2_problem"]


def _options() -> Any:
    options = re2.Options()
    options.log_errors = False  # a bad pattern is reported once, by the suite loader
    return options


_OPTIONS = _options()


@lru_cache(maxsize=1024)
def re2_compiled(pattern: str) -> Any:
    """The compiled pattern (cached; case-sensitive unless it says ``(?i)``); raises
    ``re2.error`` on an invalid one."""
    return re2.compile(pattern, _OPTIONS)


def re2_problem(pattern: str) -> str | None:
    """Why ``pattern`` is not a valid RE2 pattern, or None when it is."""
    try:
        re2_compiled(pattern)
    except re2.error as exc:
        detail = exc.args[0] if exc.args else exc
        return detail.decode("utf-8", "replace") if isinstance(detail, bytes) else str(detail)
    return None
