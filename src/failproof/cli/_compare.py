"""``failproof compare``: what changed from one run to another, in Markdown or JSON."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import typer

from failproof.cli._app import ConfigOpt, VerboseOpt, app, settings_from
from failproof.cli._compared import Compared
from failproof.cli._output import say
from failproof.errors import InputError

CompareFormat = Literal["markdown", "json"]

_SOURCE_HELP = "A run id from 'failproof runs list', or a report.json file."


@app.command("compare")
def compare(
    run_a: Annotated[str, typer.Argument(metavar="RUN_A", help="Before: " + _SOURCE_HELP)],
    run_b: Annotated[str, typer.Argument(metavar="RUN_B", help="After: " + _SOURCE_HELP)],
    format: Annotated[
        CompareFormat, typer.Option("--format", "-f", help="markdown or json.")
    ] = "markdown",
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write to this file (default: stdout).")
    ] = None,
    limit: Annotated[
        int, typer.Option("--limit", min=1, help="Markdown: cases listed per group.")
    ] = 50,
    fail_on_regression: Annotated[
        bool,
        typer.Option(
            "--fail-on-regression", help="Exit 1 when any case that passed in RUN_A fails in RUN_B."
        ),
    ] = False,
    config: ConfigOpt = None,
    verbose: VerboseOpt = False,
) -> None:
    """Cases that newly fail (first), newly pass or changed class from RUN_A to RUN_B, and each
    score's change with its 95% interval and significance (paired over the cases in both).

    Given two MCP scan ids ('failproof mcp scans'), it compares the scans: new and fixed
    findings, changed definitions (--fail-on-regression: exit 1 on either).

    Runs with no case in common are not compared: a warning, and with --fail-on-regression
    exit 3, as nothing says whether anything regressed.

    Exit 0, or 1 with --fail-on-regression when something newly fails; 3 on errors.
    """
    from failproof.cli._mcp import compare_scan_ids, is_scan_id

    if is_scan_id(run_a) and is_scan_id(run_b):  # two MCP scans: their findings and definitions
        done = compare_scan_ids(run_a, run_b, as_json=format == "json", config=config)
    else:
        done = _compare_runs(run_a, run_b, format, limit, config)
    if output is None:
        typer.echo(done.text, nl=False)
    else:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(done.text, encoding="utf-8")
        say(f"wrote {output}")
    if done.void is not None and fail_on_regression:
        raise done.void
    if done.void is not None:
        say(f"failproof: warning: {done.void}")
    if fail_on_regression and done.regressed:
        raise typer.Exit(1)


def _compare_runs(
    run_a: str, run_b: str, format: CompareFormat, limit: int, config: Path | None
) -> Compared:
    from failproof.report import compare_reports, load_report
    from failproof.report._compare_md import compare_markdown

    settings = settings_from(config)
    comparison = compare_reports(load_report(run_a, settings), load_report(run_b, settings))
    if format == "json":
        text = comparison.model_dump_json(indent=2) + "\n"
    else:
        text = compare_markdown(comparison, limit=limit)
    void = None
    if comparison.nothing_compared:
        void = InputError(
            f"nothing compared: no case of {run_a} is in {run_b} "
            f"({comparison.only_a:,} only in A, {comparison.only_b:,} only in B)",
            hint="compare two runs of the same suites",
        )
    return Compared(text, bool(comparison.newly_failing), void)
