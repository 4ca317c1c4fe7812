"""failproof: stress-test large language models and score what breaks.

The library API; the ``failproof`` command is a thin layer over it::

    import failproof

    settings = failproof.load_settings()
    with failproof.Store(settings.db_path) as store:
        request = failproof.RunRequest(suites=("injection",), target="mock:I can't help.")
        outcome = failproof.start_run(request, settings=settings, store=store)
    print(outcome.report.summary.overall_run_score)
"""

from typing import TYPE_CHECKING

from failproof._lazy import lazy_exports as _lazy_exports
from failproof._version import __version__

if TYPE_CHECKING:
    from failproof.config import Settings, load_settings
    from failproof.core import Case, CaseResult, Response, Run, Suite
    from failproof.errors import FailproofError
    from failproof.report import Report, build_report, exit_code, write_reports
    from failproof.runner import (
        RunOutcome,
        RunRequest,
        ScoreOutcome,
        rescore_run,
        resume_run,
        score_responses,
        start_run,
    )
    from failproof.store import Store
    from failproof.suites import load_suite, load_suites, resolve_suite
    from failproof.targets import Target, create_target

__all__ = [
    "Case",
    "CaseResult",
    "FailproofError",
    "Report",
    "Response",
    "Run",
    "RunOutcome",
    "RunRequest",
    "ScoreOutcome",
    "Settings",
    "Store",
    "Suite",
    "Target",
    "__version__",
    "build_report",
    "create_target",
    "exit_code",
    "load_settings",
    "load_suite",
    "load_suites",
    "rescore_run",
    "resolve_suite",
    "resume_run",
    "score_responses",
    "start_run",
    "write_reports",
]

if not TYPE_CHECKING:  # type checkers see the imports above, never a catch-all
    __getattr__, __dir__ = _lazy_exports(__name__)
