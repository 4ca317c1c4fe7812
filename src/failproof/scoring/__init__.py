"""Scoring: the scorer interface, the registry, and the pipeline that runs every scorer."""

from typing import TYPE_CHECKING

from failproof._lazy import lazy_exports

if TYPE_CHECKING:
    from failproof.scoring._base import Evidence, Scorer, scorers
    from failproof.scoring._pipeline import ScorerWarning, build_scorers, score_case
    from failproof.scoring._result import ScoreResult

__all__ = [
    "Evidence",
    "ScoreResult",
    "Scorer",
    "ScorerWarning",
    "build_scorers",
    "score_case",
    "scorers",
]

if not TYPE_CHECKING:  # type checkers see the imports above, never a catch-all
    __getattr__, __dir__ = lazy_exports(__name__)
