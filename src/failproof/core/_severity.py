"""A case's severity, in a module of its own so the command line can offer it without pydantic."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Severity"]


class Severity(StrEnum):
    """How bad a failure on this case would be (probe scoring's severity label)."""

    low = "low"
    medium = "medium"
    high = "high"
    critical = "critical"
