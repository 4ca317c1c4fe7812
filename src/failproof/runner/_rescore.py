"""``failproof rescore``: score a stored run's answers again under new settings, as a new run.

The target is not called: every stored answer is scored again with a scoring record resolved
from today's settings. The new run is linked to the first (``config.rescored_from``) and keeps
its target and suites, so the two compare side by side.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from failproof.config import Settings
from failproof.config._record import RECORD_KEY
from failproof.core import Case, CaseResult, Response, Run, Suite
from failproof.core._result import utc_now
from failproof.errors import ConfigError, InputError
from failproof.report import build_report
from failproof.runner._ids import new_run_id
from failproof.runner._plan import RunRequest
from failproof.runner._record import SafeSource, resolve_scoring
from failproof.runner._score import ScoreOutcome
from failproof.scoring import build_scorers, score_case
from failproof.store import Store
from failproof.suites import load_suites

__all__ = ["RESCORED_FROM", "rescore_run"]

#: The key of ``Run.config`` naming the run a rescored run was scored from.
RESCORED_FROM = "rescored_from"
#: Keys older runs kept beside their scoring record, now only in it.
_IN_THE_RECORD = frozenset({"suite_weights", "patterns"})


def rescore_run(
    run_id: str, *, settings: Settings, store: Store, safe_config: SafeSource = None
) -> ScoreOutcome:
    """A new run holding ``run_id``'s answers scored under ``settings`` (and ``safe_config``).

    The suites the run was made from must still load: the cases' expectations come from them.
    """
    first = store.get_run(run_id)
    suites = _suites(first)
    scoring = resolve_scoring(settings, suites, safe=safe_config)
    scorers = build_scorers(scoring)
    run = Run(
        id=new_run_id(),
        target=first.target,
        suites=first.suites,
        config={
            **{k: v for k, v in first.config.items() if k not in _IN_THE_RECORD},
            "scorers": [s.spec() for s in scorers],
            RECORD_KEY: scoring.to_json(),
            RESCORED_FROM: first.id,
        },
    )
    cases = {case.key: case for suite in suites for case in suite.cases}
    _check_cases(store.done_keys(first.id), cases, first.id)
    store.create_run(run)
    # streamed through a second, read-only connection: memory does not grow with the run, and
    # the writes never touch the cursor being read
    with Store(store.path, readonly=True) as reader:
        for result in reader.results(first.id):
            if result.unsupported is not None:  # never sent: there is no answer to score
                store.add_result(run.id, result)
                continue
            case = cases[(result.suite, result.case_id)]
            rescored = score_case(case, _response(result), scorers, sample=result.sample)
            store.add_result(run.id, rescored)
    store.finish_run(run.id, "finished", utc_now())
    run = store.get_run(run.id)
    return ScoreOutcome(run=run, report=build_report(run, store.stream(run.id)))


def _suites(run: Run) -> list[Suite]:
    sources = run.config.get("suite_sources")
    if not isinstance(sources, list) or not sources:
        raise InputError(f"run {run.id} does not say which suites it ran; it cannot be rescored")
    if "target_spec" in run.config:
        return RunRequest.from_config(run.config).load()
    return load_suites([str(s) for s in sources])


def _check_cases(
    keys: Iterable[tuple[str, str, int]], cases: Mapping[tuple[str, str], Case], run_id: str
) -> None:
    """Every stored result still has its case (its expectations come from the suite file)."""
    for suite, case_id, _ in sorted(keys):
        if (suite, case_id) not in cases:
            raise ConfigError(
                f"case {case_id!r} of run {run_id} is no longer in suite {suite!r}",
                hint="rescore needs the suite files the run was made from",
            )


def _response(result: CaseResult) -> Response:
    """The stored answer, as the target gave it."""
    fields = {
        "latency_ms": result.latency_ms,
        "prompt_tokens": result.prompt_tokens,
        "completion_tokens": result.completion_tokens,
        "finish_reason": result.finish_reason,
        "cached": result.cached,
    }
    if result.error is not None:
        return Response(output=result.output, error=result.error, **fields)
    return Response.from_output(result.output, **fields)
