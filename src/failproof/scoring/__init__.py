"""Scoring: the scorer interface, the registry, and the pipeline that runs every scorer."""

from failproof.scoring._base import RESULT_FIELDS, Evidence, Scorer, scorers
from failproof.scoring._pipeline import ScorerWarning, build_scorers, score_case
from failproof.scoring._versions import installed_versions

__all__ = [
    "RESULT_FIELDS",
    "Evidence",
    "Scorer",
    "ScorerWarning",
    "build_scorers",
    "installed_versions",
    "score_case",
    "scorers",
]
