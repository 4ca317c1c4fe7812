"""AH matchers: which forbidden terms the follow-up questions use.

The built-in ``exact`` matcher takes the case-insensitive substring hits of the batch automaton,
as the specification asks. The interface is where an LLM-as-judge for AH plugs in (a future
extension of the specification): register a subclass in `ah_matchers` (from a plugin, through
the ``failproof`` entry-point group) and select it with ``"ahMatcher"`` in ``safe.config.json``.
A judge sees the record and the exact hits, and may confirm, drop or add violations; the AH
formula, strict mode and labels stay the same. failproof's own ``judge`` matcher
(`failproof.judge`) adds the forbidden ideas an LLM judge finds written in other words.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import ClassVar

from failproof.config import JudgeSettings, SafeConfig
from failproof.guard._json import JsonObject
from failproof.registry import Registry
from failproof.safe._records import SafeRecord

__all__ = ["AhMatcher", "ExactAhMatcher", "ah_matchers"]


class AhMatcher(ABC):
    """Decides which of a record's forbidden terms its follow-up questions violate."""

    name: ClassVar[str] = "ah_matcher"

    def __init__(self, config: SafeConfig) -> None:
        self.config = config

    @classmethod
    def from_settings(cls, config: SafeConfig, judge: JudgeSettings | None) -> AhMatcher:  # noqa: ARG003
        """The matcher for a scoring job; ``judge`` is the LLM judge a matcher may ask."""
        return cls(config)

    @property
    def blocking(self) -> bool:
        """Whether `prepare` or `violations` wait on I/O (a judge)."""
        return False

    def notes(self, record: SafeRecord) -> tuple[str, ...]:  # noqa: ARG002
        """What the matcher wants said about ``record`` in its scorecard (e.g. a judge's error)."""
        return ()

    def details(self, record: SafeRecord) -> JsonObject | None:  # noqa: ARG002
        """What the matcher wants kept about ``record`` beside its scorecard (a judge's call)."""
        return None

    def close(self) -> None:  # noqa: B027  (optional hook)
        """Release what the matcher holds (a judge's connections) once scoring is over."""

    def prepare(self, records: Sequence[SafeRecord]) -> None:  # noqa: B027  (optional hook)
        """Called once per batch before any `violations` call (e.g. to batch judge calls)."""

    @abstractmethod
    def violations(self, record: SafeRecord, exact_hits: Sequence[str]) -> tuple[str, ...]:
        """The violated terms, each one of ``record``'s forbidden terms, in expectation order.

        ``exact_hits`` are the forbidden terms that occur in the joined follow-up questions as
        case-insensitive substrings.
        """


#: AH matchers by name (``"ahMatcher"`` in the config); ``exact`` is built in.
ah_matchers: Registry[type[AhMatcher]] = Registry("SAFE AH matcher")


@ah_matchers.register("exact")
class ExactAhMatcher(AhMatcher):
    """Case-insensitive substring matching, exactly as the SAFE v0 specification defines AH."""

    name = "exact"

    def violations(self, record: SafeRecord, exact_hits: Sequence[str]) -> tuple[str, ...]:  # noqa: ARG002
        return tuple(exact_hits)
