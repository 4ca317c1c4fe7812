"""Robustness per mutator: does a case that passes still pass once its input is mutated?

Generated variants (``failproof generate``) carry ``metadata.origin`` (the original case id),
``metadata.origin_suite`` and ``metadata.mutator``. Each variant in a run is paired with its
original's result (same sample index when there is one); for each mutator the section reports
the pass rates of the originals and of their variants, the delta, and the flips between them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from pydantic import Field

from failproof.core import CaseResult, Section
from failproof.metrics._accumulate import accumulators
from failproof.metrics._base import AggregateContext, aggregators, declare_section

__all__ = [
    "BrokenExample",
    "Flips",
    "RobustnessAccumulator",
    "RobustnessSection",
    "RobustnessStats",
    "Scored",
    "VariantPair",
    "pair_variants",
    "robustness_section",
]

_EXAMPLES = 5


class Scored(Protocol):
    """What robustness reads of a scored result (a `CaseResult`, or the few fields of one)."""

    @property
    def suite(self) -> str: ...
    @property
    def case_id(self) -> str: ...
    @property
    def sample(self) -> int: ...
    @property
    def accuracy(self) -> int | None: ...
    @property
    def primary(self) -> str: ...
    @property
    def key(self) -> tuple[str, str, int]: ...


@dataclass(frozen=True, slots=True)
class _Lite:
    """The fields robustness reads of one scored result."""

    suite: str
    case_id: str
    sample: int
    accuracy: int | None
    primary: str
    origin: str | None
    mutator: str | None
    origin_suite: str | None

    @classmethod
    def of(cls, result: CaseResult) -> _Lite:
        meta = result.metadata
        return cls(
            suite=result.suite,
            case_id=result.case_id,
            sample=result.sample,
            accuracy=result.accuracy,
            primary=result.primary,
            origin=_text(meta, "origin"),
            mutator=_text(meta, "mutator"),
            origin_suite=_text(meta, "origin_suite"),
        )

    @property
    def key(self) -> tuple[str, str, int]:
        return (self.suite, self.case_id, self.sample)


@dataclass(frozen=True, slots=True)
class VariantPair:
    """A scored variant and the scored original it was generated from."""

    mutator: str
    original: Scored
    variant: Scored

    @property
    def original_passed(self) -> bool:
        return self.original.accuracy == 1

    @property
    def variant_passed(self) -> bool:
        return self.variant.accuracy == 1


@dataclass
class _Index:
    by_key: dict[tuple[str, str, int], Scored]
    by_id: dict[str, list[Scored]]

    @classmethod
    def of(cls, results: Iterable[Scored]) -> _Index:
        index = cls(by_key={}, by_id={})
        for result in results:
            index.by_key[result.key] = result
            index.by_id.setdefault(result.case_id, []).append(result)
        return index

    def find(self, variant: Scored, origin: str, origin_suite: str | None) -> Scored | None:
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
    scored = [_Lite.of(r) for r in results if r.accuracy is not None]
    return _pair(scored, _Index.of(scored))


def _pair(variants: Iterable[_Lite], index: _Index) -> tuple[list[VariantPair], int]:
    pairs: list[VariantPair] = []
    unpaired = 0
    for result in variants:
        if result.origin is None or result.mutator is None:
            continue
        original = index.find(result, result.origin, result.origin_suite)
        if original is None or original.key == result.key:
            unpaired += 1
            continue
        pairs.append(VariantPair(mutator=result.mutator, original=original, variant=result))
    return pairs, unpaired


def _rate(flags: Sequence[bool]) -> float:
    return sum(flags) / len(flags)


def _stats(pairs: Sequence[VariantPair]) -> RobustnessStats:
    before = [p.original_passed for p in pairs]
    after = [p.variant_passed for p in pairs]
    broken = [p for p in pairs if p.original_passed and not p.variant_passed]
    fixed = sum(1 for p in pairs if not p.original_passed and p.variant_passed)
    held = [p.variant_passed for p in pairs if p.original_passed]
    return RobustnessStats(
        variants=len(pairs),
        originals=len({p.original.key for p in pairs}),
        original_pass_rate=_rate(before),
        variant_pass_rate=_rate(after),
        delta=_rate(after) - _rate(before),
        flips=Flips(pass_to_fail=len(broken), fail_to_pass=fixed),
        robustness=_rate(held) if held else None,
        examples=[
            BrokenExample(
                original=f"{p.original.suite}/{p.original.case_id}",
                variant=f"{p.variant.suite}/{p.variant.case_id}",
                variant_class=p.variant.primary,
            )
            for p in broken[:_EXAMPLES]
        ],
    )


@aggregators.register("robustness")
def robustness_section(
    results: Sequence[CaseResult], _ctx: AggregateContext
) -> RobustnessSection | None:
    """Pass rate of originals against their generated variants, per mutator, with flips."""
    return _section(*pair_variants(results))


def _section(pairs: Sequence[VariantPair], unpaired: int) -> RobustnessSection | None:
    if not pairs and not unpaired:
        return None
    mutators: dict[str, list[VariantPair]] = {}
    for pair in pairs:
        mutators.setdefault(pair.mutator, []).append(pair)
    return RobustnessSection(
        unpaired_variants=unpaired,
        overall=_stats(pairs) if pairs else None,
        mutators={name: _stats(group) for name, group in sorted(mutators.items())},
    )


class RobustnessAccumulator:
    """`robustness_section` in two passes: the first keeps the variants (results whose metadata
    names an origin and a mutator) and their origins' ids; only when there are variants does a
    second pass over ``ctx.source`` index the scored results of those ids. Memory grows with the
    variants, not with the run."""

    def __init__(self, ctx: AggregateContext) -> None:
        self.ctx = ctx
        self.variants: list[_Lite] = []
        self.origins: set[str] = set()

    def add(self, result: CaseResult) -> None:
        if result.accuracy is None or not result.metadata:
            return
        lite = _Lite.of(result)
        if lite.origin is not None and lite.mutator is not None:
            self.variants.append(lite)
            self.origins.add(lite.origin)

    def finish(self) -> RobustnessSection | None:
        if not self.variants or self.ctx.source is None:
            return None
        wanted = (
            _Lite.of(r)
            for r in self.ctx.source
            if r.accuracy is not None and r.case_id in self.origins
        )
        return _section(*_pair(self.variants, _Index.of(wanted)))


accumulators.register("robustness")(RobustnessAccumulator)


class Flips(Section):
    """Pairs whose verdict changed, each way."""

    pass_to_fail: int
    fail_to_pass: int


class BrokenExample(Section):
    """A variant that failed where its original passed."""

    original: str
    variant: str
    variant_class: str


class RobustnessStats(Section):
    """Pass rates of originals and variants, flips, and the share of passes that held."""

    variants: int
    originals: int
    original_pass_rate: float
    variant_pass_rate: float
    delta: float
    flips: Flips
    robustness: float | None = None
    examples: list[BrokenExample] = Field(default_factory=list)


class RobustnessSection(Section):
    """Robustness of the generated variants: overall and per mutator."""

    unpaired_variants: int
    overall: RobustnessStats | None = None
    mutators: dict[str, RobustnessStats] = Field(default_factory=dict)


declare_section("robustness", RobustnessSection)
