"""The runner: send cases to targets, score, store; score recorded responses; rescore a run.

Attacks (``failproof.attack``) drive targets with the same parts: a `Caller` with retries,
an `AdaptiveGate` and `RateLimiter`s, scoring inline or in worker processes, the agent loop.
"""

from typing import TYPE_CHECKING

from failproof._lazy import lazy_exports

if TYPE_CHECKING:
    from failproof.runner._engine import RunAborted
    from failproof.runner._plan import RunRequest
    from failproof.runner._rescore import rescore_run
    from failproof.runner._retry import RetryPolicy
    from failproof.runner._run import RunInterrupted, RunOutcome, resume_run, start_run
    from failproof.runner._score import ScoreOutcome, score_responses
    from failproof.runner._sharded import WorkPlan, run_shard

__all__ = [
    "RetryPolicy",
    "RunAborted",
    "RunInterrupted",
    "RunOutcome",
    "RunRequest",
    "ScoreOutcome",
    "WorkPlan",
    "rescore_run",
    "resume_run",
    "run_shard",
    "score_responses",
    "start_run",
]

if not TYPE_CHECKING:  # type checkers see the imports above, never a catch-all
    __getattr__, __dir__ = lazy_exports(__name__)
