"""Scoring: the scorer interface, the registry, and the pipeline that runs every scorer."""

from failproof.scoring._base import RESULT_FIELDS, Evidence, Scorer, scorers
from failproof.scoring._pipeline import ScorerWarning, build_scorers, score_case

__all__ = [
    "RESULT_FIELDS",
    "Evidence",
    "Scorer",
    "ScorerWarning",
    "build_scorers",
    "score_case",
    "scorers",
]
