"""Choosing part of a suite: by id, category, severity, and a seeded random sample.

One `Selection` narrows loaded suites for ``run``, ``score`` (and any command that sends cases);
it is stored with a run (`Selection.to_config`) so that ``--resume`` and the reports know the
subset. Filters combine with AND; within one filter any listed value matches. The sample is drawn
last, from the cases that passed the filters, reproducibly for one seed.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from failproof.core import Case, Severity, Suite
from failproof.errors import InputError
from failproof.guard._json import JsonObject

__all__ = ["Selection", "check_found", "matches", "parse_list", "select_cases"]


def parse_list(values: Iterable[str] | None) -> tuple[str, ...]:
    """``["a,b", "c"]`` -> ``("a", "b", "c")``: repeatable, comma-separated flag values."""
    items = (part.strip() for value in values or () for part in value.split(","))
    return tuple(dict.fromkeys(item for item in items if item))


@dataclass(frozen=True)
class Selection:
    """Which cases of the loaded suites to keep. The empty selection keeps every case."""

    ids: tuple[str, ...] = ()  # ``ID`` or ``SUITE/ID``
    categories: tuple[str, ...] = ()
    severities: tuple[str, ...] = ()
    sample: int | None = None
    seed: int = 0

    def __post_init__(self) -> None:
        known = {s.value for s in Severity}
        bad = [s for s in self.severities if s not in known]
        if bad:
            raise InputError(
                f"unknown severity {bad[0]!r}", hint=f"one of {', '.join(sorted(known))}"
            )
        if self.sample is not None and self.sample < 1:
            raise InputError("--sample must be at least 1", hint="e.g. --sample 20 --seed 7")

    @property
    def empty(self) -> bool:
        return not (self.ids or self.categories or self.severities or self.sample)

    def describe(self) -> str:
        """The selection as the flags that make it (for reports and messages)."""
        parts = [
            f"--only {','.join(self.ids)}" if self.ids else "",
            f"--category {','.join(self.categories)}" if self.categories else "",
            f"--severity {','.join(self.severities)}" if self.severities else "",
            f"--sample {self.sample} --seed {self.seed}" if self.sample else "",
        ]
        return " ".join(p for p in parts if p)

    def to_config(self) -> JsonObject:
        return {
            "ids": list(self.ids),
            "categories": list(self.categories),
            "severities": list(self.severities),
            "sample": self.sample,
            "seed": self.seed,
            "flags": self.describe(),
        }

    @classmethod
    def from_config(cls, config: Mapping[str, Any] | None) -> Selection:
        if not config:
            return cls()
        sample = config.get("sample")
        return cls(
            ids=tuple(str(v) for v in config.get("ids") or ()),
            categories=tuple(str(v) for v in config.get("categories") or ()),
            severities=tuple(str(v) for v in config.get("severities") or ()),
            sample=int(sample) if sample is not None else None,
            seed=int(config.get("seed") or 0),
        )


def matches(case: Case, selection: Selection) -> bool:
    """Whether ``case`` passes the selection's filters (ids, categories, severities)."""
    if selection.ids and not {case.id, f"{case.suite}/{case.id}"} & set(selection.ids):
        return False
    if selection.categories and case.category not in selection.categories:
        return False
    return not selection.severities or case.severity.value in selection.severities


def _check_ids(cases: Sequence[Case], ids: Sequence[str]) -> None:
    check_found({key for c in cases for key in (c.id, f"{c.suite}/{c.id}")}, ids)


def check_found(known: Collection[str], ids: Sequence[str]) -> None:
    """Refuse ``--only`` ids that are not among the ``known`` ``ID`` and ``SUITE/ID`` keys."""
    missing = [i for i in ids if i not in known]
    if missing:
        raise InputError(
            f"--only names {len(missing)} case(s) that are in none of the suites: "
            f"{', '.join(missing[:5])}",
            hint="use the case ids of 'failproof suites show SUITE', or SUITE/ID",
        )


def select_cases(suites: Sequence[Suite], selection: Selection) -> list[Suite]:
    """The suites narrowed to ``selection``; suites left with no case are dropped.

    Raises `InputError` when ``--only`` names an unknown case or nothing is left.
    """
    if selection.empty:
        return list(suites)
    every = [case for suite in suites for case in suite.cases]
    _check_ids(every, selection.ids)
    kept = [case for case in every if matches(case, selection)]
    if selection.sample is not None and selection.sample < len(kept):
        chosen = set(random.Random(selection.seed).sample(range(len(kept)), selection.sample))
        kept = [case for i, case in enumerate(kept) if i in chosen]
    if not kept:
        raise InputError(
            f"no case matches {selection.describe()}",
            hint="'failproof suites show SUITE' lists the ids, categories and severities",
        )
    keys = {case.key for case in kept}
    narrowed = [
        s.model_copy(update={"cases": tuple(c for c in s.cases if c.key in keys)}) for s in suites
    ]
    return [s for s in narrowed if s.cases]
