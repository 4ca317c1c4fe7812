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
    settings_from,
)
from failproof.cli._output import emit_reports, stderr


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
    from failproof.report import exit_code
    from failproof.runner import rescore_run
    from failproof.safe import load_safe_config
    from failproof.store import Store

    settings = settings_from(
        config,
        run__fail_under=fail_under,
        probe__patterns=[str(p) for p in patterns] if patterns else None,
    )
    with Store(settings.db_path) as store:
        outcome = rescore_run(run_id, settings=settings, store=store, safe_config=load_safe_config)
    stderr.print(f"run {outcome.run.id}: run {run_id} rescored", highlight=False)
    emit_reports(outcome.report, format, output, settings)
    raise typer.Exit(int(exit_code(outcome.report, settings.run.fail_under)))
