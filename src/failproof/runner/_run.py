"""``failproof run``: a new run or a resumed one, from the plan to the stored results and report."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from failproof.config import ScoringConfig, Settings
from failproof.config._record import RECORD_KEY
from failproof.core import Run, Unsupported
from failproof.core._result import utc_now
from failproof.errors import ConfigError
from failproof.report._prepare import is_large, prepare_report
from failproof.runner._ahead import Ahead
from failproof.runner._calls import CallStats
from failproof.runner._engine import Engine, EngineStats, ResultSink
from failproof.runner._gc import quiet_gc
from failproof.runner._geometry import closing_geometry
from failproof.runner._held import HELD_RESULTS, HeldResults
from failproof.runner._ids import new_run_id
from failproof.runner._live import LiveReport
from failproof.runner._plan import RunRequest, WorkItem, plan_work
from failproof.runner._planned import RunSuites
from failproof.runner._pool import PoolScoring, can_fork
from failproof.runner._progress import ProgressMode, RunProgress, make_progress
from failproof.runner._record import SafeSource, recorded_scoring, scoring_record
from failproof.runner._responses import ResponsesWriter
from failproof.runner._scoring import InlineScoring, Scoring, auto_score_workers
from failproof.runner._setup import drive, make_engine
from failproof.runner._sharded import WorkExecutor, WorkPlan
from failproof.runner._stop import stop_signals
from failproof.runner._unsupported import find_unsupported, store_unsupported, unsupported_line
from failproof.scoring import Scorer, build_scorers
from failproof.store import Store, StoredResults
from failproof.targets import Target, create_target

if TYPE_CHECKING:  # the report, with numpy, is loaded while the first calls are awaited
    from failproof.metrics._geometry_process import GeometryProcess
    from failproof.report import Report

__all__ = ["RunInterrupted", "RunOutcome", "resume_run", "start_run"]

#: Targets whose answers must never come from the response cache.
_NEVER_CACHED = frozenset({"mock", "replay"})
#: Planned results up to which a new run builds its report as it stores them (their keys are kept
#: in memory, about 200 bytes each); a larger run's report reads the store.
LIVE_RESULTS = 100_000


class RunInterrupted(Exception):
    """The run was stopped (Ctrl-C, SIGTERM); what finished is stored, ``--resume`` finishes it."""

    def __init__(self, run_id: str, done: int, total: int, kept: int = 0) -> None:
        message = f"run {run_id} interrupted after {done} of {total} results"
        if kept:
            message += f" ({kept} more answered, kept to be scored on resume)"
        super().__init__(message)
        self.run_id = run_id
        self.done = done
        self.total = total
        self.kept = kept


@dataclass
class RunOutcome:
    """A finished run: the stored run, its report, and the engine's counts."""

    run: Run
    report: Report
    stats: EngineStats
    responses_path: Path | None
    warnings: list[str] = field(default_factory=list)


@dataclass
class _Job:
    run: Run
    request: RunRequest
    suites: RunSuites
    scoring: ScoringConfig
    scorers: list[Scorer]
    responses_path: Path | None
    progress: RunProgress
    sinks: Sequence[ResultSink] = ()
    executor: WorkExecutor | None = None
    ahead: Ahead | None = None


@quiet_gc()
def start_run(
    request: RunRequest,
    *,
    settings: Settings,
    store: Store,
    run_id: str | None = None,
    responses_path: Path | None = None,
    progress: ProgressMode = "quiet",
    sinks: Sequence[ResultSink] = (),
    safe_config: SafeSource = None,
    executor: WorkExecutor | None = None,
) -> RunOutcome:
    """Create a run of ``request``, execute it and return its report (built from the store).

    ``responses_path`` receives the responses as JSONL while they arrive; each of ``sinks`` is
    called with every result right after it is stored. Everything that shapes a score is
    resolved here and stored with the run (`ScoringConfig`); ``safe_config`` (a `SafeConfig`, or
    a function reading it) is asked for only when a case carries SAFE expectations.
    ``executor`` runs the work elsewhere (`failproof.scale`); by default it runs here.
    """
    suites = request.stream()
    scoring = scoring_record(settings, suites.weights, has_safe=suites.has_safe, safe=safe_config)
    scorers = build_scorers(scoring)
    run = Run(
        id=run_id or new_run_id(),
        target={},
        suites=suites.names,
        config={
            **request.to_config(),
            "suite_hash": suites.fingerprint,
            "scorers": [s.spec() for s in scorers],
            "run_settings": settings.run.model_dump(exclude={"fail_under"}),
            "planned": suites.count * request.repeat,
            RECORD_KEY: scoring.to_json(),
        },
    )
    job = _Job(run, request, suites, scoring, scorers, responses_path, make_progress(progress))
    job = replace(job, sinks=sinks, executor=executor)
    return _execute(job, settings, store, resumed=False)


@quiet_gc()
def resume_run(
    run_id: str,
    *,
    settings: Settings,
    store: Store,
    responses_path: Path | None = None,
    progress: ProgressMode = "quiet",
    sinks: Sequence[ResultSink] = (),
    safe_config: SafeSource = None,
    executor: WorkExecutor | None = None,
) -> RunOutcome:
    """Finish a stopped run: only cases without a stored answer (or whose call failed) are sent
    again.

    The cases are scored with the run's recorded scoring, whatever ``settings`` say (they set
    only how the target is called); ``safe_config`` stands in for a run made before records.
    Any ``executor`` finishes any run: what is missing is found in the store.
    """
    run = store.get_run(run_id)
    request = RunRequest.from_config(run.config)
    suites = request.stream()
    _check_unchanged(run, suites)
    weights, has_safe = suites.weights, suites.has_safe
    scoring = recorded_scoring(run, settings, weights, has_safe=has_safe, safe=safe_config)
    scorers = build_scorers(scoring)
    job = _Job(run, request, suites, scoring, scorers, responses_path, make_progress(progress))
    job = replace(job, sinks=sinks, executor=executor)
    return _execute(job, settings, store, resumed=True)


def _check_unchanged(run: Run, suites: RunSuites) -> None:
    """Refuse to resume a run whose suites changed: its results would mix two sets of rules."""
    stored = run.config.get("suite_hash")
    if stored is None or stored == suites.fingerprint:
        return
    sources = " ".join(str(s) for s in run.config.get("suite_sources") or [])
    raise ConfigError(
        f"the suites of run {run.id} changed since it started ({sources}); resuming would mix "
        "results graded under the old and the new expectations",
        hint=f"start a new run: {_same_target(run, sources)} (or restore the suite files as "
        "they were)",
    )


def _same_target(run: Run, sources: str) -> str:
    """The command that runs ``sources`` against the run's target where it was: the base URL
    given, since without it an OpenAI-compatible target calls api.openai.com."""
    options = run.config.get("target_options") or {}
    command = f"failproof run {sources} --target {run.config.get('target_spec')}"
    if options.get("base_url"):
        command += f" --base-url {options['base_url']}"
    others = sorted(set(options) - {"base_url"})
    return command + (f" and the same target options ({', '.join(others)})" if others else "")


def _execute(job: _Job, settings: Settings, store: Store, *, resumed: bool) -> RunOutcome:
    with store.lock_run(job.run.id):
        return _execute_locked(job, settings, store, resumed=resumed)


def _execute_locked(job: _Job, settings: Settings, store: Store, *, resumed: bool) -> RunOutcome:
    target = _make_target(job.request, settings)
    unsupported = find_unsupported(target, job.suites.cases())
    warnings = target.warnings()
    run = job.run.model_copy(update={"target": target.identity()})
    if resumed:
        store.reopen_run(run.id)
    else:
        store.create_run(run)
    skip = store.answered_keys(run.id) if resumed else set()
    total = job.suites.count * job.request.repeat
    if unsupported:
        job.progress.notice(unsupported_line(unsupported, job.suites.count, target))
    samples = range(job.request.repeat)
    not_sent = sum((*key, i) not in skip for key in unsupported for i in samples)
    job.progress.start(total, len(skip), not_sent=not_sent)
    held = HeldResults(0 if resumed or job.executor is not None else HELD_RESULTS)
    live = _live_report(job, total, resumed)
    redacted = store.redacted
    with closing_geometry(live is not None and is_large(total)) as geometry:
        ahead = _ahead(total, live, run, settings, geometry)
        job = replace(job, sinks=(*job.sinks, held, *([live] if live else [])), ahead=ahead)
        try:
            stats = _go(job, target, settings, store, skip, resumed, unsupported)
        finally:
            ahead.wait()  # nothing of the report is built on two threads at once
        store.finish_run(run.id, "finished", utc_now())
        store.drop_kept_answers(run.id)
        changed = store.redacted > redacted
        report = _report(store.get_run(run.id), store, held, live, changed, settings)
    path = job.responses_path
    return RunOutcome(report.run, report, stats, path, warnings)


def _live_report(job: _Job, total: int, resumed: bool) -> LiveReport | None:
    """The sink that builds the report as results are stored: for a new run in this process
    (a resumed run's store holds results it did not make) of at most `LIVE_RESULTS`."""
    if resumed or job.executor is not None or total > LIVE_RESULTS:
        return None
    return LiveReport(_planned_keys(job))


def _planned_keys(job: _Job) -> list[tuple[str, str, int]]:
    """Every result the run will store: each planned case and sample, sent or not."""
    return [item.key for item in plan_work(job.suites.cases(), job.request.repeat)]


def _ahead(
    total: int,
    live: LiveReport | None,
    run: Run,
    settings: Settings,
    geometry: GeometryProcess | None,
) -> Ahead:
    """What the report will need, prepared while the run waits for its first answers; numpy
    first, on the run's thread, for a large report whose geometry is computed here."""
    first = _load_numpy if is_large(total) and geometry is None else None
    return Ahead(partial(_prepare_report, total, live, run, settings, geometry), first=first)


def _load_numpy() -> None:
    """Import numpy (a large report's geometry uses it) on the run's own thread: the command line
    sets an environment variable while numpy loads, which no other thread may do while the run
    may start processes."""
    import numpy  # noqa: F401


def _prepare_report(
    total: int,
    live: LiveReport | None,
    run: Run,
    settings: Settings,
    geometry: GeometryProcess | None,
) -> None:
    """What the report of ``run`` will need, done while the run waits for answers: the builder
    its results go to as they are stored (``live``; its geometry computed by ``geometry`` when
    given), then what building it loads on first use."""
    from failproof.report._model import ReportBuilder

    if live is not None:
        given = {"observability": geometry.accumulator} if geometry is not None else None
        live.begin(ReportBuilder(run, settings, given=given))
    prepare_report(total, geometry=geometry is None)


def _report(
    run: Run,
    store: Store,
    held: HeldResults,
    live: LiveReport | None,
    redacted: bool,
    settings: Settings,
) -> Report:
    """The run's report, from the results this process just stored when they are what the store
    holds (``redacted``: the store redacted a secret in some), else read back from the store.
    The sections built while the results were stored (``live``) serve when they had them all."""
    from failproof.report import build_report

    kept = held.as_stored(store.stream(run.id), redacted=redacted)
    with quiet_gc():  # the results held for the report are frozen while it is built
        source = store.stream(run.id, held=kept)
        built = None
        if live is not None and (kept is not None or _live_stored(live, source, redacted)):
            built = live.report(run, source)
        return built if built is not None else build_report(run, source, settings)


def _live_stored(live: LiveReport, source: StoredResults, redacted: bool) -> bool:
    """Whether the results a run too large to hold gives ``live`` can be what its store holds:
    as many as the store has, none of them redacted by the store (`LiveReport.report` then
    checks that each planned one came once)."""
    return not redacted and len(live.order) == len(source)


def _go(
    job: _Job,
    target: Target,
    settings: Settings,
    store: Store,
    skip: set[tuple[str, str, int]],
    resumed: bool,
    unsupported: dict[tuple[str, str], Unsupported],
) -> EngineStats:
    """Store the cases the target cannot take (never sent), then run the engine (or the job's
    executor) over the missing work; a stop or failure is recorded on the run."""
    run_id = job.run.id
    writer = _writer(job, store, resumed)
    sinks = [s for s in (writer, job.progress, *job.sinks) if s is not None]
    scoring: Scoring | None = None
    calls: CallStats | None = None
    engine: Engine | None = None
    try:
        args = (job.suites.cases(), job.request.repeat, skip, store, run_id, sinks)
        skip = skip | store_unsupported(unsupported, *args)
        work = plan_work(job.suites.cases(), job.request.repeat, skip)
        if job.executor is not None:
            plan = _work_plan(job, target, settings, store, tuple(work))
            with stop_signals():
                done = job.executor.execute(plan, store, sinks)
            calls = done.calls
            return done.stats
        scoring = _scoring(job, settings, target)
        engine = make_engine(
            settings.run,
            target,
            scoring,
            store,
            run_id,
            use_cache=_use_cache(job, settings, target),
            sinks=sinks,
            progress=job.progress,
        )
        engine.started = job.ahead.start if job.ahead is not None else None
        engine.kept = store.kept_answers(run_id) if resumed else {}
        calls = engine.caller.stats
        with stop_signals(), asyncio.Runner() as loop:
            return loop.run(drive(engine, target, work))
    except (KeyboardInterrupt, asyncio.CancelledError):
        # answers still being scored (a slow judge) are kept: the resume scores them
        kept = store.keep_answers(run_id, engine.unfinished()) if engine is not None else 0
        store.finish_run(run_id, "interrupted")
        total = job.suites.count * job.request.repeat
        raise RunInterrupted(run_id, store.count_results(run_id), total, kept) from None
    except BaseException:
        store.finish_run(run_id, "failed")
        raise
    finally:
        if calls is not None:
            _record_calls(store, run_id, calls)
        if scoring is not None:
            scoring.close()
        job.progress.close()
        if writer is not None:
            writer.close()
        if engine is not None:  # the engine and its finisher refer to each other: only the
            engine.sinks.clear()  # cycle collector frees them; the results held go at once


def _use_cache(job: _Job, settings: Settings, target: Target) -> bool:
    cacheable = getattr(target, "cacheable", target.name not in _NEVER_CACHED)
    return bool(settings.run.cache and job.request.repeat == 1 and cacheable)


def _work_plan(
    job: _Job, target: Target, settings: Settings, store: Store, items: tuple[WorkItem, ...]
) -> WorkPlan:
    """The missing work as an executor receives it, with the cache hits the store holds."""
    plan = WorkPlan(
        run=job.run,
        items=items,
        scoring=job.scoring,
        scorer_names=tuple(s.name for s in job.scorers),
        settings=settings.run,
        target=job.request.target,
        target_options=_target_options(job.request, settings),
        use_cache=_use_cache(job, settings, target),
        identity=target.identity(),
    )
    hits = {key: store.cache_get(key) for key in plan.cache_keys()}
    return replace(plan, cached={k: r for k, r in hits.items() if r is not None})


def _record_calls(store: Store, run_id: str, stats: CallStats) -> None:
    """Add this stretch's calls, 429s and waits to the run's record (a resume adds to it)."""
    before = store.get_run(run_id).config.get("calls") or {}
    now = stats.as_dict()
    total = {k: round(v + (before.get(k) or 0), 3) for k, v in now.items()}
    total["longest_wait_s"] = max(now["longest_wait_s"], before.get("longest_wait_s") or 0)
    store.update_run_config(run_id, {"calls": total})


def _scoring(job: _Job, settings: Settings, target: Target) -> Scoring:
    concurrency = target.calls_at_once(settings.run.concurrency)
    workers = auto_score_workers(concurrency, settings.run.score_workers)
    if workers <= 0 or not job.scorers or any(s.blocking for s in job.scorers) or not can_fork():
        return InlineScoring(job.scorers)
    return PoolScoring(job.scoring, job.scorers, workers)


def _make_target(request: RunRequest, settings: Settings) -> Target:
    return create_target(request.target, _target_options(request, settings))


def _target_options(request: RunRequest, settings: Settings) -> dict[str, object]:
    return {
        **request.target_options,
        "concurrency": settings.run.concurrency,
        "timeout_s": settings.run.timeout_s,
        "threads": settings.run.threads,
    }


def _writer(job: _Job, store: Store, resumed: bool) -> ResponsesWriter | None:
    if job.responses_path is None:
        return None
    kept = store.answered_results(job.run.id) if resumed else ()
    return ResponsesWriter(job.responses_path, kept)
