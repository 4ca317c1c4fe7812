"""The case-selection options shared by ``run`` and ``score`` (and any command that sends cases)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from failproof.suites import Selection

__all__ = ["CategoryOpt", "OnlyOpt", "SampleOpt", "SeedOpt", "SeverityOpt", "selection_from"]

OnlyOpt = Annotated[
    list[str] | None,
    typer.Option("--only", help="Only these cases: ID or SUITE/ID, comma-separated; repeatable."),
]
CategoryOpt = Annotated[
    list[str] | None,
    typer.Option("--category", help="Only cases of these categories (comma-separated)."),
]
SeverityOpt = Annotated[
    list[str] | None,
    typer.Option("--severity", help="Only cases of these severities: low, medium, high, critical."),
]
SampleOpt = Annotated[
    int | None,
    typer.Option("--sample", min=1, help="A random sample of N of the chosen cases (see --seed)."),
]
SeedOpt = Annotated[int, typer.Option("--seed", help="Seed of --sample: one seed, one sample.")]


def selection_from(
    only: list[str] | None,
    category: list[str] | None,
    severity: list[str] | None,
    sample: int | None,
    seed: int,
) -> Selection:
    """The flags as a `Selection` (recorded with the run)."""
    from failproof.suites import Selection
    from failproof.suites._select import parse_list

    return Selection(
        ids=parse_list(only),
        categories=parse_list(category),
        severities=tuple(s.lower() for s in parse_list(severity)),
        sample=sample,
        seed=seed,
    )
