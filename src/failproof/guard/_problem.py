"""What was wrong with data from outside that a model refused: its first error, said plainly."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pydantic import ValidationError

__all__ = ["first_problem"]


def first_problem(exc: ValidationError, top: str = "") -> tuple[str, str]:
    """Where the first error is (its dotted path; ``top`` when it is the whole value) and what
    it says."""
    first = exc.errors()[0]
    return ".".join(str(p) for p in first["loc"]) or top, first["msg"]
