"""``failproof demo``: a short mix of the built-in suites against the embedded local model."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from failproof.errors import InputError

if TYPE_CHECKING:
    from failproof.core import Case, Suite
    from failproof.runner import RunRequest

__all__ = ["DEMO_LIMIT", "demo_cases", "demo_request"]

#: A few minutes on two CPU cores with SmolLM2-135M.
DEMO_LIMIT = 20


def _round_robin(groups: Sequence[Sequence[Case]], limit: int) -> list[Case]:
    picked: list[Case] = []
    depth = 0
    while len(picked) < limit and any(depth < len(g) for g in groups):
        picked.extend(g[depth] for g in groups if depth < len(g))
        depth += 1
    return picked[:limit]


def demo_cases(suites: Sequence[Suite], limit: int = DEMO_LIMIT) -> list[Case]:
    """The cases marked ``metadata.demo: true``, mixed across suites; without any marked case,
    the first cases of every suite in turn. At most ``limit``."""
    marked = [[c for c in s.cases if c.metadata.get("demo") is True] for s in suites]
    if any(marked):
        return _round_robin(marked, limit)
    return _round_robin([s.cases for s in suites], limit)


def demo_request(target: str = "local", limit: int = DEMO_LIMIT) -> RunRequest:
    """The demo's run: the built-in suites narrowed to `demo_cases`."""
    from failproof.runner import RunRequest
    from failproof.suites import builtin_suite_names, load_suites

    names = builtin_suite_names()
    if not names:
        raise InputError("failproof ships no built-in suites in this installation")
    suites = load_suites(names)
    source = {suite.name: name for name, suite in zip(names, suites, strict=True)}
    picked = demo_cases(suites, limit)
    used = tuple(dict.fromkeys(source[c.suite] for c in picked))
    return RunRequest(
        suites=used,
        target=target,
        only=tuple(c.key for c in picked),
    )
