"""Cases written for the user's own application: a generator model writes them per category for
a stated purpose, failproof checks, deduplicates and labels them, and keeps the record."""

from failproof.author._build import GenerationOutcome
from failproof.author._record import GenerationRequest
from failproof.author._run import generate_cases

__all__ = [
    "GenerationOutcome",
    "GenerationRequest",
    "generate_cases",
]
