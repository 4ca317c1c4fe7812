"""``failproof rescore``: score a stored run again under today's settings, as a new linked run."""

from __future__ import annotations

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
    scoring_flags,
    settings_from,
)
from failproof.cli._output import plan_reports, report_and_exit, stderr


@app.command()
def rescore(
    run_id: Annotated[
        str,
        typer.Argument(metavar="RUN_ID", help="The run to score again ('failproof runs list')."),
    ],
    patterns: PatternsOpt = None,
    fail_under: FailUnderOpt = None,
    format: FormatOpt = None,
    output: OutputOpt = None,
    config: ConfigOpt = None,
    verbose: VerboseOpt = False,
) -> None:
    """Score a stored run's answers again with today's settings; the target is not called.

    Settings come from the flags, FAILPROOF_* / SAFE_V0_* and the config files, as for a new run.

    The result is a new run linked to RUN_ID (config: rescored_from): 'failproof view' compares
    the two. Exits like 'failproof run'.
    """
    from failproof.runner import rescore_run
    from failproof.safe import load_safe_config
    from failproof.store import Store

    settings = settings_from(config, **scoring_flags(fail_under, patterns))
    plan = plan_reports(format, output, settings)
    with Store(settings.db_path) as store:
        outcome = rescore_run(run_id, settings=settings, store=store, safe_config=load_safe_config)
    stderr.print(f"run {outcome.run.id}: run {run_id} rescored", highlight=False)
    report_and_exit(outcome.report, plan, settings)
