"""Coverage: which categories of OWASP LLM Top 10, MITRE ATLAS and failproof's own a set of cases
(or a run) tests, and which nothing tests."""

from typing import TYPE_CHECKING

from failproof._lazy import lazy_exports

if TYPE_CHECKING:
    from failproof.coverage._model import Coverage, CoverageCategory, CoverageFramework
    from failproof.coverage._tally import Tally, suite_coverage

__all__ = ["Coverage", "CoverageCategory", "CoverageFramework", "Tally", "suite_coverage"]

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "._model": ("Coverage", "CoverageCategory", "CoverageFramework"),
        "._tally": ("Tally", "suite_coverage"),
    },
)
