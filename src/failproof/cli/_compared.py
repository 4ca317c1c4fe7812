"""What a comparison command prints: shared by run comparisons and MCP scan comparisons."""

from __future__ import annotations

from typing import NamedTuple

from failproof.errors import InputError

__all__ = ["Compared"]


class Compared(NamedTuple):
    """A comparison as text, whether something regressed, and why it tells nothing (or None)."""

    text: str
    regressed: bool
    void: InputError | None = None
