"""``failproof demo``: the quick start, a short mix of built-in suites against a local model."""

from __future__ import annotations

from typing import Annotated

import typer

from failproof.cli._app import (
    ConfigOpt,
    FormatOpt,
    OutputOpt,
    QuietOpt,
    VerboseOpt,
    app,
    settings_from,
)
from failproof.cli._demo_cases import DEMO_LIMIT, demo_request
from failproof.cli._output import plan_reports, stderr
from failproof.cli._run import RunFlags, execute
from failproof.cli._target_options import ThreadsOpt

#: Seconds one answer of a local CPU model may take: SmolLM2's 160 tokens take 2-10 s on two
#: cores; a timeout stops the generation, so only a stalled machine reaches it.
LOCAL_TIMEOUT_S = 300.0


def _sized_to_the_machine(target: str, threads: int | None, timeout: float | None) -> RunFlags:
    """Run settings for the demo. A local model: one call at a time, no retries (a deterministic
    model answers a retry no faster) and a timeout that fits a CPU; threads come from the
    machine in the target unless given."""
    from failproof.targets._base import parse_target_spec

    flags: RunFlags = {"run__threads": threads, "run__timeout_s": timeout}
    if parse_target_spec(target)[0] == "local":
        flags |= {"run__concurrency": 1, "run__retries": 0}
        flags["run__timeout_s"] = timeout or LOCAL_TIMEOUT_S
    return flags


@app.command()
def demo(
    limit: Annotated[
        int, typer.Option("--limit", "-n", min=1, help="How many cases (a few seconds each).")
    ] = DEMO_LIMIT,
    target: Annotated[
        str, typer.Option("--target", "-t", help="Target spec (default: the embedded model).")
    ] = "local",
    threads: ThreadsOpt = None,
    timeout: Annotated[
        float | None,
        typer.Option(
            "--timeout", min=0.001, help="Seconds per answer (default: 300 for a local model)."
        ),
    ] = None,
    format: FormatOpt = None,
    output: OutputOpt = None,
    quiet: QuietOpt = False,
    config: ConfigOpt = None,
    verbose: VerboseOpt = False,
) -> None:
    """Run a short mix of the built-in suites against SmolLM2-135M on this CPU and report it.

    Needs the local extra and the weights (README: Quick start). A local model answers one case
    at a time on threads chosen from the machine; a line per case shows progress. Exits 0 once
    it ran: a demo shows failures, it does not gate.
    """
    settings = settings_from(config, **_sized_to_the_machine(target, threads, timeout))
    plan = plan_reports(format, output, settings)
    request = demo_request(target, limit)
    stderr.print(
        f"failproof demo: {len(request.only or ())} cases from {', '.join(request.suites)} "
        f"against {target}",
        highlight=False,
    )
    outcome = execute(request, settings, plan=plan, config=config, quiet=quiet, shown="cases")
    where = output or f"{settings.report.output_dir}/{outcome.run.id}/"
    stderr.print(f"failproof demo: reports in {where}", highlight=False)
    raise typer.Exit(0)
