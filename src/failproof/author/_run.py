"""Asking the generator: one ask per plugin, again for a plugin short of cases, then the suite."""

from __future__ import annotations

import asyncio
import time

from failproof.author._build import GenerationOutcome, build_suite
from failproof.author._plugins import plugin_catalogue
from failproof.author._prompt import SYSTEM, ask_text
from failproof.author._record import GenerationRecord, GenerationRequest, GeneratorAnswer
from failproof.core import Case
from failproof.targets import Target

__all__ = ["generate_cases"]

#: Asks sent to the generator at once.
CONCURRENCY = 4


async def _ask(
    target: Target, plugin: str, request: GenerationRequest, attempt: int, timeout_s: float
) -> GeneratorAnswer:
    plugin_spec = plugin_catalogue()[plugin]
    user = ask_text(plugin_spec, request.purpose, request.per_plugin, request.seed, attempt)
    case = Case(id=f"{plugin}-ask-{attempt}", suite="generator", system=SYSTEM, input=user)
    started = time.perf_counter()
    try:
        response = await asyncio.wait_for(target.generate(case), timeout_s)
    except TimeoutError:
        error: str | None = f"no answer within {timeout_s:g} s"
        output = ""
    else:
        error, output = response.error, response.output
    took = (time.perf_counter() - started) * 1000
    return GeneratorAnswer(
        plugin=plugin,
        attempt=attempt,
        system=SYSTEM,
        user=user,
        output=output,
        error=error,
        latency_ms=round(took, 1),
    )


async def _round(
    target: Target, request: GenerationRequest, plugins: list[str], attempt: int, timeout_s: float
) -> list[GeneratorAnswer]:
    gate = asyncio.Semaphore(target.calls_at_once(CONCURRENCY))

    async def one(plugin: str) -> GeneratorAnswer:
        async with gate:
            return await _ask(target, plugin, request, attempt, timeout_s)

    return list(await asyncio.gather(*(one(p) for p in plugins)))


def _short(outcome: GenerationOutcome) -> list[str]:
    """Plugins that may give more when asked again (not those whose every answer declined)."""
    return [p.plugin for p in outcome.plugins if p.verdict in ("short", "unusable", "error")]


async def generate_cases(
    request: GenerationRequest, target: Target, *, timeout_s: float = 300.0
) -> tuple[GenerationRecord, GenerationOutcome]:
    """Ask ``target`` for each plugin's cases (again, up to ``request.attempts`` asks, for a
    plugin short of them); the record of every ask and the suite it builds."""
    record = GenerationRecord(request=request, generator_identity=target.identity())
    wanted = list(request.plugins)
    outcome = build_suite(record)
    for attempt in range(1, request.attempts + 1):
        answers = await _round(target, request, wanted, attempt, timeout_s)
        record = record.model_copy(update={"answers": (*record.answers, *answers)})
        outcome = build_suite(record)
        wanted = _short(outcome)
        if not wanted:
            break
    return record, outcome
