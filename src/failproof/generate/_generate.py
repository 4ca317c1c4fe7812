"""Generate variants of suites' cases with registered mutators, deterministically from a seed.

Every variant draws from its own ``random.Random``, seeded from (seed, suite, case id, mutator,
attempt): the same seed gives the same variants whatever other cases or mutators are chosen.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Any

from failproof.core import Case, Suite
from failproof.errors import InputError
from failproof.generate._base import Mutation, Mutator, mutators

__all__ = ["Generated", "generate_variants", "variant_rng"]

#: Attempts per wanted variant before giving up on finding a new, distinct one.
_ATTEMPTS = 4


@dataclass(frozen=True)
class Generated:
    """The generated suite, with how many variants each mutator made and how many cases it
    skipped (not applicable, or nothing it could change)."""

    suite: Suite
    made: dict[str, int] = field(default_factory=dict)
    skipped: dict[str, int] = field(default_factory=dict)


def variant_rng(seed: int, suite: str, case_id: str, mutator: str, attempt: int) -> Random:
    """The random generator of one variant attempt, derived from its identity (never global)."""
    key = "\x00".join((str(seed), suite, case_id, mutator, str(attempt))).encode("utf-8")
    return Random(int.from_bytes(hashlib.sha256(key).digest()[:8], "big"))


def generate_variants(
    suites: Sequence[Suite],
    mutator_names: Sequence[str],
    *,
    per_case: int = 1,
    seed: int = 0,
    name: str | None = None,
) -> Generated:
    """Up to ``per_case`` distinct variants of every case of ``suites`` for each mutator.

    The variants form one suite, ``<suite>_variants`` for one suite (``variants`` for several,
    unless ``name`` is given); with several suites, variant ids are prefixed by their suite.
    """
    if per_case < 1:
        raise InputError(f"per-case must be at least 1, got {per_case}")
    chosen = [mutators.get(n)() for n in dict.fromkeys(mutator_names)]
    if not chosen:
        raise InputError("no mutator chosen", hint="known: " + ", ".join(mutators.names()))
    out_name = name or (f"{suites[0].name}_variants" if len(suites) == 1 else "variants")
    made: Counter[str] = Counter()
    skipped: Counter[str] = Counter()
    cases: list[Case] = []
    for suite in suites:
        target = _Target(out_name, f"{suite.name}." if len(suites) > 1 else "", seed)
        for case in suite.cases:
            for mutator in chosen:
                found = _variants(case, mutator, per_case, seed)
                made[mutator.name] += len(found)
                skipped[mutator.name] += not found
                cases += [
                    _variant_case(case, mutator.name, m, k, target)
                    for k, m in enumerate(found, start=1)
                ]
    if not cases:
        raise InputError("the mutators made no variant of any case", hint="try other mutators")
    suite_out = Suite(
        name=out_name,
        description=_description(suites, chosen, per_case, seed),
        weight=suites[0].weight if len(suites) == 1 else 1.0,
        cases=tuple(cases),
    )
    return Generated(suite=suite_out, made=dict(made), skipped=dict(skipped))


def _fingerprint(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps([m.model_dump() for m in value], sort_keys=True)


@dataclass(frozen=True)
class _Target:
    suite: str
    prefix: str
    seed: int


def _variants(case: Case, mutator: Mutator, per_case: int, seed: int) -> list[Mutation]:
    """Up to ``per_case`` mutations with distinct inputs, none equal to the original."""
    if not mutator.applies_to(case):
        return []
    seen = {_fingerprint(case.input)}
    found: list[Mutation] = []
    for attempt in range(per_case * _ATTEMPTS):
        if len(found) == per_case:
            break
        rng = variant_rng(seed, case.suite, case.id, mutator.name, attempt)
        mutation = mutator.mutate(case, rng)
        if mutation is None or _fingerprint(mutation.input) in seen:
            continue
        seen.add(_fingerprint(mutation.input))
        found.append(mutation)
    return found


def _variant_case(case: Case, mutator: str, mutation: Mutation, k: int, target: _Target) -> Case:
    modes = [*case.failure_modes]
    modes += [m for m in mutation.add_failure_modes if m not in modes]
    metadata = {
        **case.metadata,
        "origin": case.id,
        "origin_suite": case.suite,
        "mutator": mutator,
        "variant": k,
        "seed": target.seed,
        "mutation": mutation.note,
    }
    fields = case.model_dump()
    fields.update(
        id=f"{target.prefix}{case.id}.{mutator}.{k}",
        suite=target.suite,
        input=mutation.input,
        expect=mutation.expect if mutation.expect_changed else case.expect,
        failure_modes=modes,
        metadata=metadata,
    )
    return Case.model_validate(fields)


def _description(
    suites: Sequence[Suite], chosen: Sequence[Mutator], per_case: int, seed: int
) -> str:
    names = ", ".join(s.name for s in suites)
    used = ", ".join(m.name for m in chosen)
    return (
        f"Variants of {names} made by failproof generate "
        f"(mutators: {used}; per case: {per_case}; seed: {seed})"
    )
