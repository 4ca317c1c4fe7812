"""Robustness per mutator: does a case that passes still pass once its input is mutated?

Generated variants (``failproof generate``) carry ``metadata.origin`` (the original case id),
``metadata.origin_suite`` and ``metadata.mutator``. Each variant in a run is paired with its
original's result (same sample index when there is one); for each mutator the section reports
the pass rates of the originals and of their variants, the delta, and the flips between them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import Field

from failproof.core import CaseResult, OpenModel
from failproof.metrics._base import AggregateContext, aggregators, declare_section

__all__ = ["VariantPair", "pair_variants", "robustness_section"]

_EXAMPLES = 5


@dataclass(frozen=True, slots=True)
class VariantPair:
    """A scored variant and the scored original it was generated from."""

    mutator: str
    original: CaseResult
    variant: CaseResult

    @property
    def original_passed(self) -> bool:
        return self.original.accuracy == 1

    @property
    def variant_passed(self) -> bool:
        return self.variant.accuracy == 1


@dataclass
class _Index:
    by_key: dict[tuple[str, str, int], CaseResult]
    by_id: dict[str, list[CaseResult]]

    @classmethod
    def of(cls, results: Iterable[CaseResult]) -> _Index:
        index = cls(by_key={}, by_id={})
        for result in results:
            index.by_key[result.key] = result
            index.by_id.setdefault(result.case_id, []).append(result)
        return index

    def find(self, variant: CaseResult, origin: str, origin_suite: str | None) -> CaseResult | None:
        for suite in (origin_suite, variant.suite):
            for sample in (variant.sample, 0):
                found = self.by_key.get((suite or "", origin, sample))
                if found is not None:
                    return found
        same_id = self.by_id.get(origin, [])
        return same_id[0] if len({r.suite for r in same_id}) == 1 else None


def _text(metadata: dict[str, Any], key: str) -> str | None:
    value = metadata.get(key)
    return value if isinstance(value, str) and value else None


def pair_variants(results: Sequence[CaseResult]) -> tuple[list[VariantPair], int]:
    """Scored variants paired with their scored originals, and how many variants found none."""
    scored = [r for r in results if r.accuracy is not None]
    index = _Index.of(scored)
    pairs: list[VariantPair] = []
    unpaired = 0
    for result in scored:
        origin, mutator = _text(result.metadata, "origin"), _text(result.metadata, "mutator")
        if origin is None or mutator is None:
            continue
        original = index.find(result, origin, _text(result.metadata, "origin_suite"))
        if original is None or original is result:
            unpaired += 1
            continue
        pairs.append(VariantPair(mutator=mutator, original=original, variant=result))
    return pairs, unpaired


def _rate(flags: Sequence[bool]) -> float:
    return sum(flags) / len(flags)


def _stats(pairs: Sequence[VariantPair]) -> dict[str, Any]:
    before = [p.original_passed for p in pairs]
    after = [p.variant_passed for p in pairs]
    broken = [p for p in pairs if p.original_passed and not p.variant_passed]
    fixed = sum(1 for p in pairs if not p.original_passed and p.variant_passed)
    held = [p.variant_passed for p in pairs if p.original_passed]
    return {
        "variants": len(pairs),
        "originals": len({p.original.key for p in pairs}),
        "original_pass_rate": _rate(before),
        "variant_pass_rate": _rate(after),
        "delta": _rate(after) - _rate(before),
        "flips": {"pass_to_fail": len(broken), "fail_to_pass": fixed},
        "robustness": _rate(held) if held else None,
        "examples": [
            {
                "original": f"{p.original.suite}/{p.original.case_id}",
                "variant": f"{p.variant.suite}/{p.variant.case_id}",
                "variant_class": p.variant.primary,
            }
            for p in broken[:_EXAMPLES]
        ],
    }


@aggregators.register("robustness")
def robustness_section(
    results: Sequence[CaseResult], _ctx: AggregateContext
) -> dict[str, Any] | None:
    """Pass rate of originals against their generated variants, per mutator, with flips."""
    pairs, unpaired = pair_variants(results)
    if not pairs and not unpaired:
        return None
    mutators: dict[str, list[VariantPair]] = {}
    for pair in pairs:
        mutators.setdefault(pair.mutator, []).append(pair)
    return {
        "unpaired_variants": unpaired,
        "overall": _stats(pairs) if pairs else None,
        "mutators": {name: _stats(group) for name, group in sorted(mutators.items())},
    }


class Flips(OpenModel):
    """Pairs whose verdict changed, each way."""

    pass_to_fail: int
    fail_to_pass: int


class BrokenExample(OpenModel):
    """A variant that failed where its original passed."""

    original: str
    variant: str
    variant_class: str


class RobustnessStats(OpenModel):
    """Pass rates of originals and variants, flips, and the share of passes that held."""

    variants: int
    originals: int
    original_pass_rate: float
    variant_pass_rate: float
    delta: float
    flips: Flips
    robustness: float | None = None
    examples: list[BrokenExample] = Field(default_factory=list)


class RobustnessSection(OpenModel):
    """Robustness of the generated variants: overall and per mutator."""

    unpaired_variants: int
    overall: RobustnessStats | None = None
    mutators: dict[str, RobustnessStats] = Field(default_factory=dict)


declare_section("robustness", RobustnessSection)
