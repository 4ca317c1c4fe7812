"""``failproof generate``: write adversarial variants of suites to a new suite file."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from failproof.cli._app import VerboseOpt, app
from failproof.cli._output import stderr


def _mutator_names(value: str) -> list[str]:
    from failproof.generate import mutators

    names = [n.strip() for n in value.split(",") if n.strip()]
    return mutators.names() if "all" in names else names


@app.command()
def generate(
    suites: Annotated[
        list[str], typer.Argument(help="Suite files or built-in suite names to mutate.")
    ],
    mutator: Annotated[
        str,
        typer.Option(
            "--mutators",
            "-m",
            help="Comma list of mutators, or 'all'. Built-in: typos, homoglyphs, zero_width, "
            "leetspeak, case_flip, padding, base64, mixed_language, json_break, injection_wrap, "
            "contradiction.",
        ),
    ],
    output: Annotated[
        Path, typer.Option("--output", "-o", help="Suite file to write (.yaml, .yml or .json).")
    ],
    per_case: Annotated[
        int, typer.Option("--per-case", "-n", min=1, help="Variants per case and mutator.")
    ] = 1,
    seed: Annotated[int, typer.Option("--seed", help="Seed: the same seed, the same file.")] = 0,
    name: Annotated[
        str | None,
        typer.Option("--name", help="Suite name (default <suite>_variants, or variants)."),
    ] = None,
    verbose: VerboseOpt = False,
) -> None:
    """Write variants of every case (typos, homoglyphs, base64, injection, ...) as a suite."""
    from failproof.generate import generate_variants, write_suite
    from failproof.suites import load_suites

    loaded = load_suites(suites)
    outcome = generate_variants(
        loaded, _mutator_names(mutator), per_case=per_case, seed=seed, name=name
    )
    path = write_suite(outcome.suite, output)
    originals = sum(len(s) for s in loaded)
    stderr.print(
        f"wrote {path}: suite {outcome.suite.name!r}, {len(outcome.suite)} variants "
        f"of {originals} cases (seed {seed})",
        highlight=False,
        soft_wrap=True,
    )
    for mutator_name, count in sorted(outcome.made.items()):
        skipped = outcome.skipped.get(mutator_name, 0)
        note = f", {skipped} cases skipped" if skipped else ""
        stderr.print(f"  {mutator_name}: {count} variants{note}", highlight=False)
