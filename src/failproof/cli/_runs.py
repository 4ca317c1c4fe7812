"""``failproof runs``: the runs in the store."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from failproof.cli._app import ConfigOpt, app, settings_from
from failproof.cli._output import stdout
from failproof.guard import for_console

runs_app = typer.Typer(help="List the stored runs and show one.")
app.add_typer(runs_app, name="runs")


@runs_app.command("list")
def list_runs(
    limit: Annotated[int, typer.Option(help="How many runs, newest first.")] = 20,
    config: ConfigOpt = None,
) -> None:
    """The newest runs in the store."""
    from failproof.store import Store

    settings = settings_from(config)
    with Store(settings.db_path) as store:
        rows = store.list_runs(limit)
    table = Table(title=f"Runs in {settings.db_path}")
    table.add_column("run id", no_wrap=True)
    for column in ("target", "suites", "status", "started", "passed / cases"):
        table.add_column(column)
    for row in rows:
        cells = (row.id, row.target, ", ".join(row.suites), row.status)
        table.add_row(
            *(for_console(c, keep_newlines=False) for c in cells),
            row.started_at[:19].replace("T", " "),
            f"{row.passed} / {row.total}",
        )
    stdout.print(table)


@runs_app.command("show")
def show_run(
    run_id: Annotated[str, typer.Argument(help="A run id from 'failproof runs list'.")],
    config: ConfigOpt = None,
) -> None:
    """One run's summary, from the store."""
    from failproof.report import build_report, renderers
    from failproof.store import Store

    settings = settings_from(config)
    with Store(settings.db_path) as store:
        run = store.get_run(run_id)
        report = build_report(run, store.stream(run_id), settings)
    typer.echo(renderers.get("console")().render(report), nl=False)
