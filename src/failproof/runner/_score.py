"""``failproof score``: score recorded responses against suites, store the run, report it."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from failproof.config import RECORD_KEY, ScoringConfig, Settings
from failproof.core import Case, Run, utc_now
from failproof.report import Report, build_report
from failproof.runner._execute import execute_cases
from failproof.runner._ids import new_run_id
from failproof.runner._plan import WorkItem
from failproof.runner._record import SafeSource, resolve_scoring
from failproof.runner._scoring import close_scorers
from failproof.runner._sharded import WorkExecutor, WorkPlan
from failproof.scoring import Scorer, build_scorers
from failproof.store import Store
from failproof.suites import Selection, load_suites, select_cases
from failproof.targets import RecordedResponses, ReplayTarget, load_responses

__all__ = ["ScoreOutcome", "score_responses"]


@dataclass
class ScoreOutcome:
    """What ``score_responses`` produced: the stored run, its report, and unmatched responses."""

    run: Run
    report: Report
    unmatched: list[tuple[str | None, str]] = field(default_factory=list)


def score_responses(
    responses: str | Path,
    suites: Sequence[str | Path],
    *,
    settings: Settings,
    store: Store | None = None,
    selection: Selection | None = None,
    safe_config: SafeSource = None,
    executor: WorkExecutor | None = None,
) -> ScoreOutcome:
    """Join recorded responses to the suites' cases, score every case, store and report the run.

    A case with no recorded response becomes an ``error`` result; a response for a case that is
    in none of the suites is returned in ``unmatched``. The scoring is resolved here and stored
    with the run; ``safe_config`` is asked for only when a case carries SAFE expectations.
    ``selection`` scores part of the suites. ``executor`` scores elsewhere (`failproof.scale`).
    """
    every = load_suites(suites)
    selection = selection or Selection()
    loaded = select_cases(every, selection)
    recorded = load_responses(responses)
    cases = [case for suite in loaded for case in suite.cases]
    scoring = resolve_scoring(settings, loaded, safe=safe_config)
    scorer_list = build_scorers(scoring)
    run = Run(
        id=new_run_id(),
        target={"name": "replay", "source": str(responses)},
        suites=[s.name for s in loaded],
        config={
            "suite_sources": [str(s) for s in suites],
            "scorers": [s.spec() for s in scorer_list],
            "selection": None if selection.empty else selection.to_config(),
            "planned": len(cases),
            RECORD_KEY: scoring.to_json(),
        },
    )
    own_store = store is None
    db = store or Store(settings.db_path)
    try:
        db.create_run(run)
        if executor is not None:
            plan = _replay_plan(run, cases, recorded, scoring, scorer_list, settings)
            executor.execute(plan, db, ())
        else:
            asyncio.run(
                execute_cases(
                    cases,
                    ReplayTarget(recorded),
                    run_id=run.id,
                    store=db,
                    scorers=scorer_list,
                    concurrency=1,
                    timeout_s=settings.run.timeout_s,
                )
            )
        finished = utc_now()
        db.finish_run(run.id, "finished", finished)
        run = run.model_copy(update={"status": "finished", "finished_at": finished})
        report = build_report(run, db.stream(run.id), settings)
    finally:
        close_scorers(scorer_list)
        if own_store:
            db.close()
    every_case = [case for suite in every for case in suite.cases]
    return ScoreOutcome(run=run, report=report, unmatched=recorded.unmatched(every_case))


def _replay_plan(
    run: Run,
    cases: list[Case],
    recorded: RecordedResponses,
    scoring: ScoringConfig,
    scorers: list[Scorer],
    settings: Settings,
) -> WorkPlan:
    """The replay as `execute_cases` does it: one at a time, no retries, limits, cache or abort."""
    calm = settings.run.model_copy(
        update={
            "concurrency": 1,
            "retries": 0,
            "rpm": None,
            "tpm": None,
            "cache": False,
            "max_consecutive_failures": 0,
        }
    )
    return WorkPlan(
        run=run,
        items=tuple(WorkItem(case) for case in cases),
        scoring=scoring,
        scorer_names=tuple(s.name for s in scorers),
        settings=calm,
        target="replay",
        recorded=recorded,
    )
