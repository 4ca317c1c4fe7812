"""Scoring: the scorer interface, the registry, and the pipeline that runs every scorer."""

from typing import TYPE_CHECKING

from failproof._lazy import lazy_exports

if TYPE_CHECKING:
    from failproof.scoring._base import Evidence, Scorer, scorers
    from failproof.scoring._classifier import accuracy_of, rules_classification
    from failproof.scoring._classify_rules import RULES
    from failproof.scoring._pipeline import ScorerWarning, build_scorers, score_case
    from failproof.scoring._refusal import asked, harm_verdict, refusal_verdict
    from failproof.scoring._result import ScoreResult
    from failproof.scoring._versions import installed_versions

__all__ = [
    "RULES",
    "Evidence",
    "ScoreResult",
    "Scorer",
    "ScorerWarning",
    "accuracy_of",
    "asked",
    "build_scorers",
    "harm_verdict",
    "installed_versions",
    "refusal_verdict",
    "rules_classification",
    "score_case",
    "scorers",
]

if not TYPE_CHECKING:  # type checkers see the imports above, never a catch-all
    __getattr__, __dir__ = lazy_exports(
        __name__,
        {
            "._base": ("Evidence", "Scorer", "scorers"),
            "._classifier": ("accuracy_of", "rules_classification"),
            "._classify_rules": ("RULES",),
            "._pipeline": ("ScorerWarning", "build_scorers", "score_case"),
            "._refusal": ("asked", "harm_verdict", "refusal_verdict"),
            "._result": ("ScoreResult",),
            "._versions": ("installed_versions",),
        },
    )
