"""The runner: send cases to targets, score, store; score recorded responses; rescore a run."""

from failproof.runner._engine import Engine, EngineStats, RunAborted
from failproof.runner._ids import new_run_id
from failproof.runner._plan import RunRequest, WorkItem, suite_source
from failproof.runner._progress import ProgressMode
from failproof.runner._record import SafeSource, resolve_scoring
from failproof.runner._rescore import RESCORED_FROM, rescore_run
from failproof.runner._run import RunInterrupted, RunOutcome, resume_run, start_run
from failproof.runner._score import ScoreOutcome, score_responses

__all__ = [
    "RESCORED_FROM",
    "Engine",
    "EngineStats",
    "ProgressMode",
    "RunAborted",
    "RunInterrupted",
    "RunOutcome",
    "RunRequest",
    "SafeSource",
    "ScoreOutcome",
    "WorkItem",
    "new_run_id",
    "rescore_run",
    "resolve_scoring",
    "resume_run",
    "score_responses",
    "start_run",
    "suite_source",
]
