"""The refusal verdict: compliance, refusal or partial refusal, with its evidence."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

__all__ = ["RefusalLabel", "RefusalVerdict"]

RefusalLabel = Literal["compliance", "refusal", "partial_refusal"]


@dataclass(frozen=True, slots=True)
class RefusalVerdict:
    """Whether a response refuses, and why.

    ``score`` is the refusal confidence in [0, 1]; ``reasons`` are short, human-readable pieces
    of evidence (the refusal phrase and where it sits, what help followed it, ...).
    """

    label: RefusalLabel
    score: float
    reasons: tuple[str, ...] = field(default_factory=tuple)

    @property
    def refused(self) -> bool:
        """Full or partial refusal (the binary 'refusal' class)."""
        return self.label != "compliance"
