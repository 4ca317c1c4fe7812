"""``failproof run``: send suites to a target, score, store, report; ``--resume`` a stopped run."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from failproof.cli._app import (
    ConfigOpt,
    FailUnderOpt,
    FormatOpt,
    OutputOpt,
    PatternsOpt,
    QuietOpt,
    SuitesArg,
    VerboseOpt,
    app,
    scoring_flags,
)
from failproof.cli._executor import ExecutorOpt, WorkersOpt, executor_from
from failproof.cli._judge import (
    JudgeBaseUrlOpt,
    JudgeKeyEnvOpt,
    JudgeOpt,
    JudgeRoleOpt,
    judged_settings,
)
from failproof.cli._output import (
    ReportPlan,
    emit_reports,
    plan_reports,
    run_folder,
    say,
    stderr,
)
from failproof.cli._project import planned_suites, planned_targets
from failproof.cli._select import (
    CategoryOpt,
    OnlyOpt,
    SampleOpt,
    SeedOpt,
    SeverityOpt,
    selection_from,
)
from failproof.cli._target_options import (
    ApiKeyEnvOpt,
    BaseUrlOpt,
    ParamOpt,
    TargetOpt,
    ThreadsOpt,
    target_options,
)
from failproof.errors import ConfigError, ExecutorLost
from failproof.guard import for_console

if TYPE_CHECKING:
    from failproof.attack import AttackRequest
    from failproof.config import Settings
    from failproof.runner import RunOutcome, RunRequest
    from failproof.runner._progress import ProgressMode
    from failproof.runner._sharded import WorkExecutor

__all__ = ["RunFlags", "execute"]

RunFlags = dict[str, object]


def responses_path(plan: ReportPlan, run_id: str, settings: Settings) -> Path:
    """Where the run's responses JSONL goes: beside the reports."""
    if plan.output is None:
        return run_folder(settings, run_id) / "responses.jsonl"
    if not plan.folder:  # --output is the report's file
        return plan.output.with_name(f"{plan.output.stem}.responses.jsonl")
    return plan.output / "responses.jsonl"


def _resume_hint(run_id: str, config: Path | None) -> str:
    extra = f" --config {config}" if config else ""
    return f"failproof run --resume {run_id}{extra}"


def execute(
    request: RunRequest | str,
    settings: Settings,
    *,
    plan: ReportPlan,
    config: Path | None,
    quiet: bool,
    shown: ProgressMode = "auto",
    executor: WorkExecutor | None = None,
) -> RunOutcome:
    """Start ``request`` (or resume the run id) with progress, then write the reports."""
    from failproof.runner import RunAborted, RunInterrupted, resume_run, start_run
    from failproof.runner._ids import new_run_id
    from failproof.safe import load_safe_config
    from failproof.store import Store

    run_id = request if isinstance(request, str) else new_run_id()
    path = responses_path(plan, run_id, settings)
    progress: ProgressMode = "quiet" if quiet else shown
    begin = (
        partial(resume_run, request)
        if isinstance(request, str)
        else partial(start_run, request, run_id=run_id)
    )
    with Store(settings.db_path) as store:
        try:
            outcome = begin(
                settings=settings,
                store=store,
                responses_path=path,
                progress=progress,
                safe_config=load_safe_config,
                executor=executor,
            )
        except RunInterrupted as stop:
            say(f"failproof: {stop}; resume with: {_resume_hint(run_id, config)}")
            raise typer.Exit(130) from None
        except ExecutorLost as lost:
            say(f"failproof: error: {lost}; resume with: {_resume_hint(run_id, config)}")
            raise typer.Exit(3) from None
        except RunAborted as abort:
            from failproof.report import build_report

            say(f"failproof: error: {abort}")
            report = build_report(store.get_run(run_id), store.stream(run_id), settings)
            emit_reports(report, plan, settings)
            say(f"failproof: resume with: {_resume_hint(run_id, config)}")
            raise typer.Exit(3) from None
    for line in outcome.warnings:
        say(line)
    emit_reports(outcome.report, plan, settings)
    say(f"wrote {path}")
    return outcome


def _labelled(plan: ReportPlan, label: str | None) -> str | None:
    """One target's ``--output`` among several: a file gets the label in its name, a folder a
    sub-folder."""
    output = plan.output
    if output is None or label is None:
        return str(output.resolve()) if output else None
    if not plan.folder:
        return str(output.with_name(f"{output.stem}-{label}{output.suffix}").resolve())
    return str((output / label).resolve())


def run_side_by_side(
    labels: list[str],
    requests: list[RunRequest],
    settings: Settings,
    config: Path | None,
    quiet: bool,
    executor: str,
    workers: int | None,
    folder: Path | None = None,
) -> int:
    """Run each target's request in turn, then report them together (``side-by-side.md`` and
    ``.json`` in ``folder``, else ``side-by-side-<first run id>`` in the results folder); the
    worst exit code."""
    from failproof.report import exit_code
    from failproof.report._side_by_side import side_by_side, side_by_side_markdown

    reports, codes = [], []
    for label, request in zip(labels, requests, strict=True):
        say(f"failproof: target {label}")
        output = Path(request.output) if request.output else None
        outcome = execute(
            request,
            settings,
            plan=plan_reports(request.formats, output, settings),
            config=config,
            quiet=quiet,
            executor=executor_from(executor, workers),
        )
        reports.append(outcome.report)
        codes.append(int(exit_code(outcome.report, settings.run.fail_under)))
    table = side_by_side(labels, reports, codes)
    if folder is None:
        stem = Path(settings.report.output_dir) / f"side-by-side-{reports[0].run.id}"
    else:
        stem = folder / "side-by-side"
    stem.parent.mkdir(parents=True, exist_ok=True)
    text = side_by_side_markdown(table)
    stem.with_suffix(".md").write_text(text, encoding="utf-8")
    stem.with_suffix(".json").write_text(table.model_dump_json(indent=2), encoding="utf-8")
    if not quiet:
        stderr.print(for_console(text), highlight=False, soft_wrap=True)
    say(f"wrote {stem}.md and {stem}.json")
    return 1 if 1 in codes else 2 if 2 in codes else 0


def _request(
    suites: list[str], target: str | None, repeat: int, options: Mapping[str, object]
) -> RunRequest:
    if not suites or not target:
        raise ConfigError(
            "give the suites and --target (or --resume RUN_ID)",
            hint="e.g. failproof run injection --target openai:gpt-4o-mini",
        )
    from failproof.runner import RunRequest
    from failproof.runner._plan import suite_source

    return RunRequest(
        suites=tuple(suite_source(s) for s in suites),
        target=target,
        target_options=dict(options),
        repeat=repeat,
    )


def _stored_config(settings: Settings, run_id: str) -> dict[str, object]:
    from failproof.store import Store

    with Store(settings.db_path) as store:
        return store.get_run(run_id).config


def _attack_request(
    suites: list[str],
    target: str | None,
    attacker: str | None,
    strategy: str,
    budget: int | None,
    options: Mapping[str, object],
) -> AttackRequest:
    """``run --strategy``: the same as ``failproof attack``, with the run's target options."""
    if not attacker:
        raise ConfigError("--strategy needs --attacker", hint="e.g. --attacker openai:gpt-4o-mini")
    from failproof.attack import AttackRequest

    plain = _request(suites, target, 1, options)
    return AttackRequest(
        suites=plain.suites,
        target=plain.target,
        attacker=attacker,
        strategy=strategy,
        budget=budget or 20,
        target_options=options,
    )


def _check_resumable(**given: object) -> None:
    """``--resume`` finishes the run it names: a flag that would change the suites, the target
    or how it is called is refused, never ignored."""
    named = [f"--{name.replace('_', '-')}" for name, value in given.items() if value]
    if named:
        shown = ["the suites" if n == "--suites" else n for n in named]
        raise ConfigError(
            f"--resume finishes the run on its own suites and target; {', '.join(shown)} "
            "cannot change them",
            hint="a key is read from its environment variable at each call: fix it there and "
            "resume; for another address, model or suite, start a new run",
        )


def _check_strategy_flags(strategy: str | None, **given: object) -> None:
    """The flags of ``--strategy`` are refused without it, not ignored."""
    named = [f"--{name}" for name, value in given.items() if value is not None]
    if named and not strategy:
        raise ConfigError(
            f"{' and '.join(named)} only mean something with --strategy",
            hint="add --strategy NAME to attack each case (see 'failproof attack --help'), "
            f"or drop {' and '.join(named)}",
        )


@app.command()
def run(
    suites: SuitesArg = None,
    target: TargetOpt = None,
    concurrency: Annotated[
        int | None, typer.Option("--concurrency", "-c", min=1, help="Requests in flight.")
    ] = None,
    resume: Annotated[
        str | None,
        typer.Option(
            "--resume",
            help="Finish a stopped run; calls only what is missing, on the run's own suites, "
            "target and target options (those flags are refused with it).",
        ),
    ] = None,
    fail_under: FailUnderOpt = None,
    format: FormatOpt = None,
    output: OutputOpt = None,
    base_url: BaseUrlOpt = None,
    api_key_env: ApiKeyEnvOpt = None,
    param: ParamOpt = None,
    header: Annotated[
        list[str] | None,
        typer.Option(
            "--header", "-H", help="http: header 'Name=value', ${VAR} from the environment."
        ),
    ] = None,
    body: Annotated[
        str | None,
        typer.Option("--body", help="http: JSON body template with {{input}}, {{messages}}..."),
    ] = None,
    json_path: Annotated[
        str | None, typer.Option("--json-path", help="http: where the output is in the answer.")
    ] = None,
    allow_dropped_system: Annotated[
        bool,
        typer.Option(
            "--allow-dropped-system",
            help="http: send cases even though --body leaves out their system prompt or "
            "earlier turns (the reports show the body sent).",
        ),
    ] = False,
    timeout: Annotated[
        float | None, typer.Option("--timeout", min=0.001, help="Per-request timeout in seconds.")
    ] = None,
    retries: Annotated[
        int | None, typer.Option("--retries", min=0, help="Retries per request.")
    ] = None,
    threads: ThreadsOpt = None,
    rpm: Annotated[
        float | None, typer.Option("--rpm", min=0.001, help="Requests per minute.")
    ] = None,
    tpm: Annotated[
        float | None, typer.Option("--tpm", min=0.001, help="Tokens per minute.")
    ] = None,
    repeat: Annotated[
        int | None, typer.Option("--repeat", min=1, help="Samples per case (consistency).")
    ] = None,
    max_consecutive_failures: Annotated[
        int | None,
        typer.Option(
            "--max-consecutive-failures", min=0, help="Abort after N failed calls in a row."
        ),
    ] = None,
    no_cache: Annotated[
        bool, typer.Option("--no-cache", help="Call the target for every case.")
    ] = False,
    quiet: QuietOpt = False,
    patterns: PatternsOpt = None,
    only: OnlyOpt = None,
    category: CategoryOpt = None,
    severity: SeverityOpt = None,
    sample: SampleOpt = None,
    seed: SeedOpt = 0,
    strategy: Annotated[
        str | None,
        typer.Option("--strategy", help="Attack each case instead (see 'failproof attack')."),
    ] = None,
    attacker: Annotated[
        str | None, typer.Option("--attacker", help="With --strategy: the attacker's spec.")
    ] = None,
    budget: Annotated[
        int | None,
        typer.Option("--budget", min=1, help="With --strategy: target calls per case (20)."),
    ] = None,
    judge: JudgeOpt = None,
    judge_base_url: JudgeBaseUrlOpt = None,
    judge_api_key_env: JudgeKeyEnvOpt = None,
    judge_role: JudgeRoleOpt = None,
    executor: ExecutorOpt = "local",
    workers: WorkersOpt = None,
    config: ConfigOpt = None,
    verbose: VerboseOpt = False,
) -> None:
    """Send every case to the target, score and store each answer, write the reports.

    Exit 0 all passed (or the --fail-under gate met), 1 any failure, 2 review only, 3 error;
    130 when interrupted (the command to resume is printed).
    """
    flags: RunFlags = {
        "run__concurrency": concurrency,
        "run__timeout_s": timeout,
        "run__threads": threads,
        "run__retries": retries,
        "run__rpm": rpm,
        "run__tpm": tpm,
        "run__repeat": repeat,
        "run__max_consecutive_failures": max_consecutive_failures,
        "run__cache": False if no_cache else None,
        **scoring_flags(fail_under, patterns),
    }
    settings = judged_settings(
        config, judge, judge_base_url, judge_api_key_env, judge_role, **flags
    )
    if resume:
        _check_resumable(
            suites=suites or None,
            target=target,
            base_url=base_url,
            api_key_env=api_key_env,
            param=param,
            header=header,
            body=body,
            json_path=json_path,
            allow_dropped_system=allow_dropped_system or None,
        )
    if resume and (only or category or severity or sample):
        raise ConfigError(
            "--resume finishes the run's own selection of cases",
            hint="start a new run to choose other cases",
        )
    _check_strategy_flags(strategy, attacker=attacker, budget=budget)
    if strategy and executor != "local":
        raise ConfigError("--strategy runs here only", hint="drop --executor")
    if strategy:
        from failproof.cli._attack import attack_formats, execute_attack

        options = target_options(
            base_url=base_url, api_key_env=api_key_env, params=param or [], headers=header or []
        )
        planned = _attack_request(suites or [], target, attacker, strategy, budget, options)
        execute_attack(planned, settings, attack_formats(format or "all"), output, quiet)
    if resume:
        if patterns:
            raise ConfigError(
                "--patterns cannot change a resumed run: it is scored as it was recorded",
                hint=f"finish it with 'failproof run --resume {resume}', then 'failproof rescore "
                f"{resume} --patterns ...'",
            )
        stored = _stored_config(settings, resume)
        output = output or (Path(str(stored["output"])) if stored.get("output") else None)
        format = format or (str(stored["formats"]) if stored.get("formats") else None)
        plan = plan_reports(format, output, settings)
        request: RunRequest | str = resume
    else:
        plan = plan_reports(format, output, settings)
        options = target_options(
            base_url=base_url,
            api_key_env=api_key_env,
            params=param or [],
            headers=header or [],
            body=body,
            json_path=json_path,
            allow_dropped_system=allow_dropped_system,
        )
        chosen = planned_suites(suites or [], settings, config)
        aimed = planned_targets(target, options, settings)
        selection = selection_from(only, category, severity, sample, seed)
        if len(aimed) > 1:
            several = [
                replace(
                    _request(chosen, p.spec, settings.run.repeat, p.options),
                    selection=selection,
                    output=_labelled(plan, p.label),
                    formats=format,
                )
                for p in aimed
            ]
            labels = [p.label or p.spec for p in aimed]
            folder = plan.output if plan.folder else None
            code = run_side_by_side(
                labels, several, settings, config, quiet, executor, workers, folder
            )
            raise typer.Exit(code)
        request = _request(chosen, aimed[0].spec, settings.run.repeat, aimed[0].options)
        request = replace(request, selection=selection)
        request = replace(request, output=_labelled(plan, None), formats=format)
    outcome = execute(
        request,
        settings,
        plan=plan,
        config=config,
        quiet=quiet,
        executor=executor_from(executor, workers),
    )
    if verbose:
        stats = outcome.stats
        stderr.print(f"calls done {stats.completed}, from cache {stats.cache_hits}")
    from failproof.report import exit_code  # loaded with the report, while the calls ran

    raise typer.Exit(int(exit_code(outcome.report, settings.run.fail_under)))
