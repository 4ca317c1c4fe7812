"""``failproof generate --purpose``: cases written by a generator model for the user's app."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from failproof.cli._output import stderr
from failproof.errors import InputError
from failproof.guard import for_console

if TYPE_CHECKING:
    from failproof.author import GenerationOutcome
    from failproof.author._record import GenerationRecord

__all__ = ["generate_for_purpose", "record_path", "replay_record"]

_SAYS = {
    "refused": "the generator declined to write these cases (a safety-tuned or too small model); "
    "use a generator that writes red-team cases",
    "echoed": "the generator only repeated the request back: too small a model to write cases",
    "error": "every ask failed",
    "unusable": "no case failproof could check",
}


def record_path(output: Path) -> Path:
    """Where the generation record of ``output`` is kept: ``NAME.generation.json`` beside it."""
    return output.with_name(f"{output.stem}.generation.json")


def _report(outcome: GenerationOutcome) -> None:
    for plugin in outcome.plugins:
        note = f"{len(plugin.kept)} of {plugin.wanted} cases"
        extra = [f"{plugin.rejected} rejected"] if plugin.rejected else []
        extra += [f"{plugin.duplicates} duplicates"] if plugin.duplicates else []
        extra += [f"{plugin.rubrics} with a rubric"] if plugin.rubrics else []
        if plugin.rubric_drops:
            drops = len(plugin.rubric_drops)
            extra.append(f"{drops} rubric(s) dropped, e.g. {plugin.rubric_drops[0]}")
        if plugin.verdict in _SAYS:
            extra.append(_SAYS[plugin.verdict])
        if plugin.reasons and plugin.verdict != "ok":
            extra.append("e.g. " + plugin.reasons[0])
        tail = f" ({'; '.join(extra)})" if extra else ""
        line = for_console(f"  {plugin.plugin}: {note}{tail}", keep_newlines=False)
        stderr.print(line, highlight=False, soft_wrap=True)


def _write(
    record: GenerationRecord, outcome: GenerationOutcome, output: Path, keep_record: bool
) -> None:
    from failproof.generate import write_suite

    if keep_record:
        record_file = record_path(output)
        record_file.parent.mkdir(parents=True, exist_ok=True)
        record_file.write_text(record.model_dump_json(indent=2), "utf-8")
    _report(outcome)
    if outcome.suite is None:
        reasons = sorted({p.verdict for p in outcome.plugins})
        raise InputError(
            f"the generator wrote no usable case ({', '.join(reasons)}); no suite written",
            hint=_SAYS["refused"] if "refused" in reasons else "see the plugins above",
        )
    path = write_suite(outcome.suite, output)
    stderr.print(
        for_console(
            f"wrote {path}: suite {outcome.suite.name!r}, {len(outcome.suite)} cases "
            f"(record {record_path(output) if keep_record else 'unchanged'})"
        ),
        highlight=False,
        soft_wrap=True,
    )


def generate_for_purpose(
    purpose: str,
    generator: str | None,
    plugins: str | None,
    per_plugin: int,
    seed: int,
    name: str | None,
    output: Path,
    generator_options: dict[str, Any],
) -> None:
    """Ask the generator, check what it wrote, write the suite and its record."""
    from failproof.author import GenerationRequest, generate_cases
    from failproof.author._plugins import resolve_plugins
    from failproof.targets import create_target

    if not generator:
        raise InputError("--purpose needs --generator SPEC", hint="e.g. --generator openai:gpt-4o")
    request = GenerationRequest(
        purpose=purpose,
        generator=generator,
        plugins=tuple(p.name for p in resolve_plugins(plugins)),
        per_plugin=per_plugin,
        seed=seed,
        name=name or "generated",
    )
    target = create_target(generator, generator_options)

    async def run() -> tuple[GenerationRecord, GenerationOutcome]:
        async with target:
            return await generate_cases(request, target)

    asking = f"asking {generator} for {len(request.plugins)} plugins"
    stderr.print(for_console(asking), highlight=False)
    record, outcome = asyncio.run(run())
    _write(record, outcome, output, keep_record=True)


def replay_record(path: Path, output: Path) -> None:
    """Build the suite again from a stored generation record (no model is called)."""
    from pydantic import ValidationError

    from failproof.author._build import build_suite
    from failproof.author._record import GenerationRecord

    try:
        record = GenerationRecord.model_validate_json(path.read_text("utf-8"))
    except (OSError, ValidationError, json.JSONDecodeError) as exc:
        raise InputError(f"{path}: not a generation record ({str(exc).splitlines()[0]})") from None
    _write(record, build_suite(record), output, keep_record=False)
    raise typer.Exit(0)
