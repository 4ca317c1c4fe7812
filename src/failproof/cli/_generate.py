"""``failproof generate``: write adversarial variants of suites to a new suite file."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from failproof.cli._app import ForceOpt, VerboseOpt, app
from failproof.cli._generate_purpose import generate_for_purpose, replay_record
from failproof.cli._output import refuse_overwrite, stderr
from failproof.cli._target_options import role_option, target_options
from failproof.errors import InputError


def _mutator_names(value: str) -> list[str]:
    from failproof.generate import mutators

    names = [n.strip() for n in value.split(",") if n.strip()]
    return mutators.names() if "all" in names else names


@app.command()
def generate(
    suites: Annotated[
        list[str] | None, typer.Argument(help="Suite files or built-in suite names to mutate.")
    ] = None,
    mutator: Annotated[
        str | None,
        typer.Option(
            "--mutators",
            "-m",
            help="Comma list of mutators, or 'all'. Built-in: typos, homoglyphs, zero_width, "
            "leetspeak, case_flip, padding, base64, mixed_language, json_break, injection_wrap, "
            "contradiction.",
        ),
    ] = None,
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="Suite file to write (.yaml, .yml or .json)."),
    ] = None,
    per_case: Annotated[
        int | None,
        typer.Option(
            "--per-case",
            "-n",
            min=1,
            help="Variants per case and mutator (default 1); with --purpose, cases per plugin "
            "(default 5).",
        ),
    ] = None,
    purpose: Annotated[
        str | None,
        typer.Option(
            "--purpose",
            help="What your application is and does: a generator model writes cases for it.",
        ),
    ] = None,
    generator: Annotated[
        str | None,
        typer.Option("--generator", "-g", help="With --purpose: the writing model (target spec)."),
    ] = None,
    plugins: Annotated[
        str | None,
        typer.Option(
            "--plugins",
            help="With --purpose: comma list of plugins (default all): prompt_injection, "
            "sensitive_disclosure, output_handling, excessive_agency, prompt_leak, "
            "rag_poisoning, misinformation, unbounded_consumption, harmful, over_refusal.",
        ),
    ] = None,
    generator_base_url: Annotated[str | None, role_option("generator", "base-url")] = None,
    generator_api_key_env: Annotated[str | None, role_option("generator", "api-key-env")] = None,
    generator_param: Annotated[list[str] | None, role_option("generator", "param")] = None,
    replay: Annotated[
        Path | None,
        typer.Option(
            "--replay",
            help="Build the suite again from a stored generation record (no model is called).",
        ),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed: the same seed, the same file.")] = 0,
    force: ForceOpt = False,
    name: Annotated[
        str | None,
        typer.Option("--name", help="Suite name (default <suite>_variants, or variants)."),
    ] = None,
    verbose: VerboseOpt = False,
) -> None:
    """Write variants of every case (typos, homoglyphs, base64, injection, ...) as a suite; or,
    with --purpose, cases a generator model writes for your application (checked, deduplicated
    and labelled with the taxonomy, with the generation record beside the suite)."""
    from failproof.generate import generate_variants, write_suite
    from failproof.suites import load_suites

    if output is None:
        raise InputError("give --output FILE (.yaml, .yml or .json)")
    inputs: list[str | Path] = [*(suites or []), *([replay] if replay else [])]
    refuse_overwrite(output, force=force, inputs=inputs)
    if replay is not None:
        replay_record(replay, output)
    if purpose is not None:
        options = target_options(
            base_url=generator_base_url,
            api_key_env=generator_api_key_env,
            params=generator_param or [],
        )
        generate_for_purpose(
            purpose, generator, plugins, per_case or 5, seed, name, output, options
        )
        return
    if not suites or not mutator:
        raise InputError(
            "give suites and --mutators, or --purpose with --generator",
            hint="e.g. failproof generate injection -m all -o v.yaml, or "
            "failproof generate --purpose '...' --generator openai:gpt-4o -o s.yaml",
        )
    loaded = load_suites(suites)
    outcome = generate_variants(
        loaded, _mutator_names(mutator), per_case=per_case or 1, seed=seed, name=name
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
