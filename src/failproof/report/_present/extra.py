"""What a renderer draws of an extension section: a title, a few facts, and tables."""

from __future__ import annotations

from dataclasses import dataclass

from failproof.render._table import Table

__all__ = ["Extra"]


@dataclass(frozen=True, slots=True)
class Extra:
    """An extension section: a title, a few facts, and tables."""

    key: str
    title: str
    facts: list[tuple[str, str]]
    tables: list[tuple[str, Table]]
