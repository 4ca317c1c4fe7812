"""Coverage: which categories of OWASP LLM Top 10, MITRE ATLAS and failproof's own a set of cases
(or a run) tests, and which nothing tests."""

from failproof.coverage._model import Coverage
from failproof.coverage._tally import suite_coverage

__all__ = [
    "Coverage",
    "suite_coverage",
]
