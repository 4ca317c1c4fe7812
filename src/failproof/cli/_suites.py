"""``failproof suites``: list, show, validate, schema."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from failproof.cli._app import app
from failproof.cli._output import say, stdout
from failproof.errors import SuiteError
from failproof.guard import for_console

suites_app = typer.Typer(help="List, show and validate suites; print the suite-file schema.")
app.add_typer(suites_app, name="suites")


@suites_app.command("list")
def list_suites() -> None:
    """The built-in suites with their case counts."""
    from failproof.suites import builtin_suite_names, resolve_suite

    table = Table(title="Built-in suites")
    table.add_column("suite")
    table.add_column("cases", justify="right")
    table.add_column("weight", justify="right")
    table.add_column("description")
    total = 0
    for name in builtin_suite_names():
        suite = resolve_suite(name)
        total += len(suite)
        table.add_row(name, str(len(suite)), f"{suite.weight:g}", suite.description)
    table.caption = f"{total} cases"
    stdout.print(table)


@suites_app.command("show")
def show(name: Annotated[str, typer.Argument(help="Built-in suite name or suite file.")]) -> None:
    """The cases of one suite."""
    from failproof.suites import resolve_suite

    suite = resolve_suite(name)
    title = for_console(f"{suite.name}: {suite.description}", keep_newlines=False)
    table = Table(title=title, show_lines=False)
    for column in ("id", "category", "severity", "refusal", "input"):
        table.add_column(column, overflow="fold")
    for case in suite.cases:
        refusal = case.expect.refusal if case.expect else "-"
        text = case.messages()[-1].content.replace("\n", " ")
        cells = (case.id, case.category, case.severity.value, refusal, text[:80])
        table.add_row(*(for_console(c, keep_newlines=False) for c in cells))
    stdout.print(table)


@suites_app.command("validate")
def validate(
    paths: Annotated[list[Path], typer.Argument(help="Suite files to check.")],
) -> None:
    """Check suite files; exit 3 with the file, line, case and fix of the first problem in each."""
    from failproof.suites import load_suite

    failed = 0
    for path in paths:
        try:
            suite = load_suite(path)
        except SuiteError as exc:
            failed += 1
            say(f"failproof: error: {exc}")
            continue
        stdout.print(for_console(f"ok: {path} (suite {suite.name!r}, {len(suite)} cases)"))
    if failed:
        raise typer.Exit(3)


@suites_app.command("schema")
def schema() -> None:
    """Print the JSON Schema of suite files (for editors and CI validation)."""
    from failproof.suites._schema import suite_json_schema

    typer.echo(json.dumps(suite_json_schema(), indent=2))


@suites_app.command("coverage")
def coverage(
    names: Annotated[
        list[str] | None,
        typer.Argument(help="Built-in suite names or suite files (default: every built-in suite)."),
    ] = None,
    output_format: Annotated[
        str, typer.Option("--format", help="table (for people) or json.")
    ] = "table",
) -> None:
    """What the suites cover: OWASP LLM Top 10 2025, MITRE ATLAS and failproof's categories,
    the cases and suites that test each, and plainly what nothing tests."""
    from failproof.coverage import suite_coverage
    from failproof.report._console_coverage import coverage_renderable
    from failproof.suites import builtin_suite_names, resolve_suite

    if output_format not in ("table", "json"):
        raise typer.BadParameter("use table or json", param_hint="--format")
    suites = [resolve_suite(name) for name in names or builtin_suite_names()]
    found = suite_coverage(suites)
    if output_format == "json":
        typer.echo(found.model_dump_json(indent=2))
        return
    stdout.print(coverage_renderable(found, run=False, detail=True))
