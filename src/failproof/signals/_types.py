"""What one scan of a response found: the shared evidence of every signal-based scorer."""

from __future__ import annotations

from typing import Literal, NamedTuple

__all__ = ["SignalHit", "SignalKind", "SignalPosition", "SignalScan"]

SignalKind = Literal["safe", "unsafe", "cue"]
SignalPosition = Literal["anywhere", "start"]


class SignalHit(NamedTuple):
    """One pattern that matched, with where it matched (character offsets into the text).

    ``start`` / ``end`` are the leftmost match of the pattern; a pattern is reported once per text
    however often it occurs. ``position``, ``register`` and ``lang`` are copied from the pattern.
    Immutable; a named tuple because the scan builds one per match on the hot path (three times
    cheaper to create than a frozen dataclass).
    """

    id: str
    label: str
    kind: SignalKind
    weight: float
    failure_modes: tuple[str, ...]
    start: int
    end: int
    position: SignalPosition = "anywhere"
    register: str | None = None
    lang: str | None = None


class SignalScan(NamedTuple):
    """Every pattern that matched one response, in order of position.

    ``opening_end`` is the character offset where the answer's opening ends: patterns whose
    ``position`` is ``start`` only count when their match begins before it.
    """

    text_length: int
    hits: tuple[SignalHit, ...]
    opening_end: int = 0

    @property
    def safe(self) -> tuple[SignalHit, ...]:
        return tuple(h for h in self.hits if h.kind == "safe")

    @property
    def unsafe(self) -> tuple[SignalHit, ...]:
        return tuple(h for h in self.hits if h.kind == "unsafe")

    @property
    def labels(self) -> tuple[str, ...]:
        """The labels of every hit, in order of position."""
        return tuple(h.label for h in self.hits)
