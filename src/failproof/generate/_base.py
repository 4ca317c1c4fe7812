"""The mutator interface, its registry, and what a mutation returns.

A mutator turns one case into a variant: new user text and, when the mutation changes what a good
answer looks like, adjusted expectations. It draws every random choice from the ``rng`` it is
given (never from global state), so a seed always gives the same variants.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from random import Random
from typing import ClassVar

from failproof.core import Case, Expect, Message
from failproof.registry import Registry

__all__ = ["Mutation", "Mutator", "mutators"]


@dataclass(frozen=True, slots=True)
class Mutation:
    """A mutated case's new input, and its expectations when the mutation changed them."""

    input: str | list[Message]
    note: str
    expect: Expect | None = None
    add_failure_modes: tuple[str, ...] = field(default_factory=tuple)
    expect_changed: bool = False


class Mutator(ABC):
    """Turns a case into a variant. Subclasses set ``name`` and a docstring saying what they do."""

    name: ClassVar[str] = "mutator"

    def applies_to(self, case: Case) -> bool:  # noqa: ARG002
        """Whether this mutator can make a variant of ``case``."""
        return True

    @abstractmethod
    def mutate(self, case: Case, rng: Random) -> Mutation | None:
        """A variant of ``case`` drawn with ``rng``, or None when nothing could be changed."""


mutators: Registry[type[Mutator]] = Registry("mutator")
