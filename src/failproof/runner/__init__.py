"""The runner: send cases to targets, score, store; score recorded responses; rescore a run.

Attacks (``failproof.attack``) drive targets with the same parts: a `Caller` with retries,
an `AdaptiveGate` and `RateLimiter`s, scoring inline or in worker processes, the agent loop.
"""

from typing import TYPE_CHECKING

from failproof._lazy import lazy_exports

if TYPE_CHECKING:
    from failproof.runner._agent import play_agent
    from failproof.runner._calls import Caller, CallStats
    from failproof.runner._engine import Engine, EngineStats, ResultSink, RunAborted
    from failproof.runner._ids import new_run_id
    from failproof.runner._limits import AdaptiveGate, RateLimiter
    from failproof.runner._plan import RunRequest, WorkItem, suite_source
    from failproof.runner._pool import PoolScoring
    from failproof.runner._progress import ProgressMode
    from failproof.runner._record import resolve_scoring
    from failproof.runner._rescore import rescore_run
    from failproof.runner._retry import RetryPolicy
    from failproof.runner._run import (
        RunInterrupted,
        RunOutcome,
        resume_run,
        start_run,
        stop_signals,
    )
    from failproof.runner._score import ScoreOutcome, score_responses
    from failproof.runner._scoring import InlineScoring, Scoring, auto_score_workers
    from failproof.runner._setup import make_engine
    from failproof.runner._sharded import Executed, ShardOutcome, WorkExecutor, WorkPlan, run_shard

__all__ = [
    "AdaptiveGate",
    "CallStats",
    "Caller",
    "Engine",
    "EngineStats",
    "Executed",
    "InlineScoring",
    "PoolScoring",
    "ProgressMode",
    "RateLimiter",
    "ResultSink",
    "RetryPolicy",
    "RunAborted",
    "RunInterrupted",
    "RunOutcome",
    "RunRequest",
    "ScoreOutcome",
    "Scoring",
    "ShardOutcome",
    "WorkExecutor",
    "WorkItem",
    "WorkPlan",
    "auto_score_workers",
    "make_engine",
    "new_run_id",
    "play_agent",
    "rescore_run",
    "resolve_scoring",
    "resume_run",
    "run_shard",
    "score_responses",
    "start_run",
    "stop_signals",
    "suite_source",
]

if not TYPE_CHECKING:  # type checkers see the imports above, never a catch-all
    __getattr__, __dir__ = lazy_exports(
        __name__,
        {
            "._agent": ("play_agent",),
            "._calls": ("Caller", "CallStats"),
            "._engine": ("Engine", "EngineStats", "ResultSink", "RunAborted"),
            "._ids": ("new_run_id",),
            "._limits": ("AdaptiveGate", "RateLimiter"),
            "._plan": ("RunRequest", "WorkItem", "suite_source"),
            "._pool": ("PoolScoring",),
            "._progress": ("ProgressMode",),
            "._record": ("resolve_scoring",),
            "._rescore": ("rescore_run",),
            "._retry": ("RetryPolicy",),
            "._run": ("RunInterrupted", "RunOutcome", "resume_run", "start_run", "stop_signals"),
            "._score": ("ScoreOutcome", "score_responses"),
            "._scoring": ("InlineScoring", "Scoring", "auto_score_workers"),
            "._setup": ("make_engine",),
            "._sharded": ("Executed", "ShardOutcome", "WorkExecutor", "WorkPlan", "run_shard"),
        },
    )
