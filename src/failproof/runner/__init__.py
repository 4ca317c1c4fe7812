"""The runner: send cases to targets, score, store; and scoring of recorded responses."""

from failproof.runner._execute import execute_cases
from failproof.runner._ids import new_run_id
from failproof.runner._score import ScoreOutcome, score_responses

__all__ = ["ScoreOutcome", "execute_cases", "new_run_id", "score_responses"]
