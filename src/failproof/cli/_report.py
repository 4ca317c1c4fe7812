"""``failproof report``: render a stored run, or a JSON report, in any format."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from failproof.cli._app import ConfigOpt, FormatOpt, OutputOpt, VerboseOpt, app, settings_from
from failproof.cli._output import emit_reports, run_folder

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
    loaded = load_report(source, settings)
    emit_reports(
        loaded, format, output or _default_output(format, loaded.run.id, settings), settings
    )


def _default_output(formats: str | None, run_id: str, settings: Settings) -> Path | None:
    """One file format and no --output: its default file name in the run's folder."""
    from failproof.report import renderers
    from failproof.report._render import parse_formats

    chosen = parse_formats(formats) if formats else []
    files = [f for f in chosen if renderers.get(f).filename]
    if len(chosen) != 1 or len(files) != 1:
        return None
    folder = run_folder(settings, run_id)
    return folder / renderers.get(files[0]).filename
