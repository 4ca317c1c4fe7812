"""The runner: send cases to targets, score, store; and scoring of recorded responses."""

from failproof.runner._calls import Caller, CallStats
from failproof.runner._consistency import case_consistency, consistency_section
from failproof.runner._demo import DEMO_LIMIT, demo_cases, demo_request
from failproof.runner._engine import Engine, EngineStats, RunAborted
from failproof.runner._execute import execute_cases
from failproof.runner._ids import new_run_id
from failproof.runner._limits import AdaptiveGate, RateLimiter
from failproof.runner._options import parse_headers, parse_params, target_options, templatize_env
from failproof.runner._plan import (
    RunRequest,
    WorkItem,
    cache_key,
    plan_work,
    suite_fingerprint,
    suite_source,
)
from failproof.runner._progress import ProgressMode, make_progress
from failproof.runner._responses import ResponsesWriter, recorded_line
from failproof.runner._retry import RetryPolicy
from failproof.runner._run import RunInterrupted, RunOutcome, resume_run, start_run
from failproof.runner._score import ScoreOutcome, score_responses
from failproof.runner._scoring import InlineScoring, PoolScoring, Scoring, auto_score_workers

__all__ = [
    "DEMO_LIMIT",
    "AdaptiveGate",
    "CallStats",
    "Caller",
    "Engine",
    "EngineStats",
    "InlineScoring",
    "PoolScoring",
    "ProgressMode",
    "RateLimiter",
    "ResponsesWriter",
    "RetryPolicy",
    "RunAborted",
    "RunInterrupted",
    "RunOutcome",
    "RunRequest",
    "ScoreOutcome",
    "Scoring",
    "WorkItem",
    "auto_score_workers",
    "cache_key",
    "case_consistency",
    "consistency_section",
    "demo_cases",
    "demo_request",
    "execute_cases",
    "make_progress",
    "new_run_id",
    "parse_headers",
    "parse_params",
    "plan_work",
    "recorded_line",
    "resume_run",
    "score_responses",
    "start_run",
    "suite_fingerprint",
    "suite_source",
    "target_options",
    "templatize_env",
]
