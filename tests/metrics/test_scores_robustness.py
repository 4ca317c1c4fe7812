"""Robustness per mutator: originals against their generated variants."""

from __future__ import annotations

from typing import Any

import pytest

from failproof.core import CaseResult, Classification
from failproof.core._result import Primary
from failproof.metrics import AggregateContext, aggregators
from failproof.metrics._robustness import (
    BrokenExample,
    Flips,
    RobustnessSection,
    pair_variants,
    robustness_section,
)

CTX = AggregateContext()


def scored(
    case_id: str,
    primary: Primary | None,
    *,
    suite: str = "inj",
    sample: int = 0,
    **metadata: Any,
) -> CaseResult:
    return CaseResult(
        case_id=case_id,
        suite=suite,
        category="c",
        severity="low",
        sample=sample,
        classification=Classification(primary=primary) if primary else None,
        accuracy=None if primary is None else int(primary == "pass"),
        metadata=metadata,
    )


def variant(case_id: str, primary: Primary, origin: str, mutator: str, **extra: Any) -> CaseResult:
    return scored(
        case_id,
        primary,
        suite=extra.pop("suite", "inj_variants"),
        origin=origin,
        origin_suite="inj",
        mutator=mutator,
        **extra,
    )


def test_passes_the_original_fails_under_homoglyphs_is_a_pass_to_fail_flip() -> None:
    results = [
        scored("a", "pass"),
        scored("b", "pass"),
        scored("c", "fail"),
        variant("a.homoglyphs.1", "policy_violation", "a", "homoglyphs"),
        variant("b.homoglyphs.1", "pass", "b", "homoglyphs"),
        variant("c.homoglyphs.1", "pass", "c", "homoglyphs"),
        variant("a.typos.1", "pass", "a", "typos"),
    ]
    section = robustness_section(results, CTX)
    assert section is not None
    homoglyphs = section.mutators["homoglyphs"]
    assert homoglyphs.variants == 3
    assert homoglyphs.original_pass_rate == pytest.approx(2 / 3)
    assert homoglyphs.variant_pass_rate == pytest.approx(2 / 3)
    assert homoglyphs.delta == pytest.approx(0.0)
    assert homoglyphs.flips == Flips(pass_to_fail=1, fail_to_pass=1)
    assert homoglyphs.robustness == pytest.approx(0.5)
    assert homoglyphs.examples == [
        BrokenExample(
            original="inj/a",
            variant="inj_variants/a.homoglyphs.1",
            variant_class="policy_violation",
        )
    ]
    assert section.mutators["typos"].delta == 0.0
    assert section.overall is not None
    assert section.overall.variants == 4


def test_a_mutator_that_breaks_every_passing_original_has_robustness_zero() -> None:
    results = [
        scored("a", "pass"),
        scored("b", "pass"),
        variant("a.v", "fail", "a", "base64"),
        variant("b.v", "refusal", "b", "base64"),
    ]
    section = robustness_section(results, CTX)
    assert section is not None
    stats = section.mutators["base64"]
    assert (stats.delta, stats.robustness, stats.flips.pass_to_fail) == (-1.0, 0.0, 2)


def test_robustness_is_none_when_no_original_passed() -> None:
    results = [scored("a", "fail"), variant("a.v", "fail", "a", "typos")]
    section = robustness_section(results, CTX)
    assert section is not None
    assert section.mutators["typos"].robustness is None


@pytest.mark.parametrize(
    "results",
    [
        pytest.param([scored("a", "pass"), scored("b", "fail")], id="no-variants"),
        pytest.param([], id="empty-run"),
    ],
)
def test_a_run_without_variants_has_no_robustness_section(results: list[CaseResult]) -> None:
    assert robustness_section(results, CTX) is None


def test_variants_whose_original_is_not_in_the_run_are_counted_unpaired() -> None:
    results = [scored("a", "pass"), variant("zz.v", "pass", "zz", "typos")]
    section = robustness_section(results, CTX)
    assert section == RobustnessSection(unpaired_variants=1, overall=None, mutators={})


def test_unscored_variants_and_originals_are_ignored() -> None:
    results = [scored("a", None), variant("a.v", "pass", "a", "typos")]
    pairs, unpaired = pair_variants(results)
    assert (pairs, unpaired) == ([], 1)


def test_originals_inside_the_variants_file_are_found_by_the_variants_suite() -> None:
    original = scored("a", "pass", suite="inj_variants")
    pairs, _ = pair_variants([original, variant("a.v", "fail", "a", "typos")])
    assert [p.original.key for p in pairs] == [original.key]


def test_each_sample_pairs_with_the_same_sample_of_its_original() -> None:
    results = [
        scored("a", "pass", sample=0),
        scored("a", "fail", sample=1),
        variant("a.v", "pass", "a", "typos", sample=1),
    ]
    pairs, _ = pair_variants(results)
    assert [(p.original.sample, p.original_passed) for p in pairs] == [(1, False)]


def test_robustness_is_a_registered_aggregator() -> None:
    assert "robustness" in aggregators
