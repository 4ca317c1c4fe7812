"""``failproof score``: score recorded responses against suites, store the run, report it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from failproof.config import ScoringConfig, Settings
from failproof.config._record import RECORD_KEY
from failproof.core import Case, CaseResult, Run
from failproof.core._result import utc_now
from failproof.report import Report, build_report
from failproof.runner._execute import execute_cases
from failproof.runner._gc import quiet_gc
from failproof.runner._held import HELD_RESULTS, HeldResults
from failproof.runner._ids import new_run_id
from failproof.runner._plan import WorkItem
from failproof.runner._record import SafeSource, scoring_record
from failproof.runner._run import RunInterrupted
from failproof.runner._scoring import close_scorers
from failproof.runner._sharded import WorkExecutor, WorkPlan
from failproof.runner._stop import stop_signals
from failproof.scoring import Scorer, build_scorers
from failproof.store import Store
from failproof.suites import Selection, load_suites, select_cases
from failproof.suites._pick import PickedSuite, pick_suites
from failproof.suites._stream import SuiteSource, stream_suites
from failproof.targets import RecordedResponses, ReplayTarget
from failproof.targets._replay import Recorded, load_responses, refuse_shared_answers
from failproof.targets._replay_index import index_responses

__all__ = ["ScoreOutcome", "score_responses"]


@dataclass
class ScoreOutcome:
    """What ``score_responses`` produced: the stored run, its report, and unmatched responses."""

    run: Run
    report: Report
    unmatched: list[tuple[str | None, str]] = field(default_factory=list)


@quiet_gc()
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
    in none of the suites is returned in ``unmatched``; a response without suite for a case id
    of several suites is refused (`ResponsesError`) before anything is scored. The scoring is
    resolved here and stored with the run; ``safe_config`` is asked for only when a case
    carries SAFE expectations. ``selection`` scores part of the suites. ``executor`` scores
    elsewhere (`failproof.scale`). Without it, JSONL suites and the responses are read as the
    cases run (`stream_suites`, `pick_suites`, `index_responses`): memory does not grow with
    their size.
    """
    selection = selection or Selection()
    if executor is None:
        sources = stream_suites(suites)
        picked = pick_suites(sources, selection)
        with index_responses(responses) as index:
            _refuse_shared(index, picked)
            args = (index, settings, store, safe_config, None, selection)
            outcome = _score(responses, suites, picked, *args)
            others = () if selection.empty else (c for s in sources for c in s.cases())
            outcome.unmatched = index.unmatched(others)
        return outcome
    every = load_suites(suites)
    loaded = [SuiteSource.of(s) for s in select_cases(every, selection)]
    recorded = load_responses(responses)
    _refuse_shared(recorded, loaded)
    outcome = _score(
        responses, suites, loaded, recorded, settings, store, safe_config, executor, selection
    )
    outcome.unmatched = recorded.unmatched([c for suite in every for c in suite.cases])
    return outcome


def _refuse_shared(recorded: Recorded, loaded: Sequence[SuiteSource | PickedSuite]) -> None:
    """Refuse, before anything is scored, an answer without suite that cases of several suites
    would each count (one suite needs no look: its ids are unique)."""
    if len(loaded) > 1:
        refuse_shared_answers(recorded, (case for suite in loaded for case in suite.cases()))


def _score(
    responses: str | Path,
    suites: Sequence[str | Path],
    loaded: Sequence[SuiteSource | PickedSuite],
    recorded: Recorded,
    settings: Settings,
    store: Store | None,
    safe_config: SafeSource,
    executor: WorkExecutor | None,
    selection: Selection | None = None,
) -> ScoreOutcome:
    weights = {s.name: s.weight for s in loaded}
    has_safe = any(s.has_expectations for s in loaded)
    scoring = scoring_record(settings, weights, has_safe=has_safe, safe=safe_config)
    scorer_list = build_scorers(scoring)
    run = Run(
        id=new_run_id(),
        target={"name": "replay", "source": str(responses)},
        suites=[s.name for s in loaded],
        config={
            "suite_sources": [str(s) for s in suites],
            "scorers": [s.spec() for s in scorer_list],
            "selection": None if selection is None or selection.empty else selection.to_config(),
            "planned": sum(s.count for s in loaded),
            RECORD_KEY: scoring.to_json(),
        },
    )
    cases = (case for suite in loaded for case in suite.cases())
    held = HeldResults(HELD_RESULTS, settle=True)
    own_store = store is None
    db = store or Store(settings.db_path)
    try:
        db.create_run(run)
        if executor is not None:
            assert isinstance(recorded, RecordedResponses)
            plan = _replay_plan(run, list(cases), recorded, scoring, scorer_list, settings)
            executor.execute(plan, db, ())
        else:
            _score_here(run, cases, recorded, db, scorer_list, settings, held.add)
        finished = utc_now()
        db.finish_run(run.id, "finished", finished)
        run = run.model_copy(update={"status": "finished", "finished_at": finished})
        source = db.stream(run.id)
        with quiet_gc():  # the results held for the report are frozen while it is built
            report = build_report(run, db.stream(run.id, held=held.as_stored(source)), settings)
    finally:
        close_scorers(scorer_list)
        if own_store:
            db.close()
    return ScoreOutcome(run=run, report=report)


def _score_here(
    run: Run,
    cases: Iterable[Case],
    recorded: Recorded,
    store: Store,
    scorers: list[Scorer],
    settings: Settings,
    on_result: Callable[[CaseResult], None],
) -> None:
    """Score in this process; a stop drops the judge's pending questions, marks the run
    interrupted and raises `RunInterrupted` (the judge's verdicts received are in its cache)."""
    work = execute_cases(
        cases,
        ReplayTarget(recorded),
        run_id=run.id,
        store=store,
        scorers=scorers,
        concurrency=1,
        timeout_s=settings.run.timeout_s,
        on_result=on_result,
    )
    try:
        with stop_signals():
            asyncio.run(work)
    except (KeyboardInterrupt, asyncio.CancelledError):
        store.finish_run(run.id, "interrupted")
        planned = int(run.config.get("planned") or 0)
        raise RunInterrupted(run.id, store.count_results(run.id), planned) from None


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
