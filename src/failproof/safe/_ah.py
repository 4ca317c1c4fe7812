"""AH matchers: which forbidden terms the follow-up questions use.

The built-in ``exact`` matcher takes the case-insensitive substring hits of the batch automaton,
as the specification asks. The interface is where an LLM-as-judge for AH will plug in (a future
extension of the specification, not built yet): register a subclass in `ah_matchers` (from a
plugin, through the ``failproof`` entry-point group) and select it with ``"ahMatcher"`` in
``safe.config.json``. A judge sees the record and the exact hits, and may confirm, drop or add
violations; the AH formula, strict mode and labels stay the same.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import ClassVar

from failproof.config import SafeConfig
from failproof.registry import Registry
from failproof.safe._records import SafeRecord

__all__ = ["AhMatcher", "ExactAhMatcher", "ah_matchers"]


class AhMatcher(ABC):
    """Decides which of a record's forbidden terms its follow-up questions violate."""

    name: ClassVar[str] = "ah_matcher"

    def __init__(self, config: SafeConfig) -> None:
        self.config = config

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
