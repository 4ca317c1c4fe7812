"""``failproof score``: score recorded responses."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from failproof.cli._app import (
    ConfigOpt,
    FailUnderOpt,
    FormatOpt,
    OutputOpt,
    PatternsOpt,
    VerboseOpt,
    app,
    command_line,
    scoring_flags,
)
from failproof.cli._executor import ExecutorOpt, WorkersOpt, executor_from
from failproof.cli._heap import settle_heap
from failproof.cli._judge import (
    JudgeBaseUrlOpt,
    JudgeKeyEnvOpt,
    JudgeOpt,
    JudgeRoleOpt,
    judged_settings,
)
from failproof.cli._output import plan_reports, report_and_exit, say
from failproof.cli._select import (
    CategoryOpt,
    OnlyOpt,
    SampleOpt,
    SeedOpt,
    SeverityOpt,
    selection_from,
)


@app.command()
def score(
    responses: Annotated[
        Path, typer.Argument(help="JSONL of recorded responses, one {case_id, output} per line.")
    ],
    suite: Annotated[
        list[str],
        typer.Option("--suite", "-s", help="Suite file or built-in suite name (repeatable)."),
    ],
    patterns: PatternsOpt = None,
    fail_under: FailUnderOpt = None,
    only: OnlyOpt = None,
    category: CategoryOpt = None,
    severity: SeverityOpt = None,
    sample: SampleOpt = None,
    seed: SeedOpt = 0,
    format: FormatOpt = None,
    output: OutputOpt = None,
    judge: JudgeOpt = None,
    judge_base_url: JudgeBaseUrlOpt = None,
    judge_api_key_env: JudgeKeyEnvOpt = None,
    judge_role: JudgeRoleOpt = None,
    executor: ExecutorOpt = "local",
    workers: WorkersOpt = None,
    config: ConfigOpt = None,
    verbose: VerboseOpt = False,
) -> None:
    """Score recorded responses against suites, store the run and write its reports.

    --only, --category, --severity and --sample score part of the suites (recorded in the run).
    """
    from failproof.runner import RunInterrupted, score_responses
    from failproof.safe import load_safe_config
    from failproof.targets._replay import unmatched_warnings

    settle_heap()  # the modules and the command's setup
    settings = judged_settings(
        config,
        judge,
        judge_base_url,
        judge_api_key_env,
        judge_role,
        **scoring_flags(fail_under, patterns),
    )
    plan = plan_reports(format, output, settings)
    selection = selection_from(only, category, severity, sample, seed)
    try:
        outcome = score_responses(
            responses,
            suite,
            settings=settings,
            safe_config=load_safe_config,
            selection=selection,
            executor=executor_from(executor, workers),
        )
    except RunInterrupted as stop:
        judged = settings.judge.spec is not None
        kept = " (the judge's verdicts so far are kept and not asked again)" if judged else ""
        say(f"failproof: {stop}{kept}; score again with: {command_line()}")
        raise typer.Exit(130) from None
    for line in unmatched_warnings(outcome.unmatched):
        say(line)
    settle_heap()  # the run's results, held for the reports
    report_and_exit(outcome.report, plan, settings)
