"""What one scan of a response found: the shared evidence of every signal-based scorer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["SignalHit", "SignalKind", "SignalScan"]

SignalKind = Literal["safe", "unsafe"]


@dataclass(frozen=True, slots=True)
class SignalHit:
    """One pattern that matched, with where it matched (character offsets into the text)."""

    id: str
    label: str
    kind: SignalKind
    weight: float
    failure_modes: tuple[str, ...]
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class SignalScan:
    """Every pattern that matched one response, in order of position."""

    text_length: int
    hits: tuple[SignalHit, ...]

    @property
    def safe(self) -> tuple[SignalHit, ...]:
        return tuple(h for h in self.hits if h.kind == "safe")

    @property
    def unsafe(self) -> tuple[SignalHit, ...]:
        return tuple(h for h in self.hits if h.kind == "unsafe")
