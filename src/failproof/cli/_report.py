"""``failproof report``: render a stored run, or a JSON report, in any format."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from failproof.cli._app import ConfigOpt, FormatOpt, OutputOpt, VerboseOpt, app, settings_from
from failproof.cli._output import ReportPlan, emit_reports, plan_reports, run_folder

if TYPE_CHECKING:
    from failproof.config import Settings


@app.command("report")
def report(
    source: Annotated[
        str,
        typer.Argument(
            metavar="RUN_ID|REPORT.json|schema",
            help="A run id from 'failproof runs list', or a JSON report file; 'schema' prints "
            "the JSON Schema of report.json.",
        ),
    ],
    format: FormatOpt = None,
    output: OutputOpt = None,
    config: ConfigOpt = None,
    verbose: VerboseOpt = False,
) -> None:
    """Write a run's reports again, in any format: html, markdown, junit, json or console.

    The run-level numbers come from the settings stored with the run, not today's environment.
    'failproof report schema' prints the JSON Schema of report.json. Exits 0 once the reports
    are written (it renders; it does not gate).
    """
    from failproof.report import load_report
    from failproof.report._schema import report_json_schema

    if source == "schema" and not Path(source).exists():
        typer.echo(json.dumps(report_json_schema(), indent=2))
        return
    settings = settings_from(config)
    plan = plan_reports(format, output, settings)
    loaded = load_report(source, settings)
    emit_reports(loaded, _default_output(plan, loaded.run.id, settings), settings)


def _default_output(plan: ReportPlan, run_id: str, settings: Settings) -> ReportPlan:
    """One file format and no --output: its default file name in the run's folder."""
    from failproof.report import renderers

    files = [f for f in plan.formats if renderers.get(f).filename]
    if plan.output is not None or len(plan.formats) != 1 or len(files) != 1:
        return plan
    folder = run_folder(settings, run_id)
    return plan._replace(output=folder / renderers.get(files[0]).filename, folder=False)
