"""Sections 1 to 3 of the SAFE v0 specification: formulas, edge cases, thresholds and labels."""

from __future__ import annotations

import pytest

from failproof.config import SafeConfig, Thresholds, Weights
from failproof.config._safe import MetricThresholds
from failproof.safe._formulas import (
    HARM_RULE,
    ah_score,
    composite_score,
    coverage_score,
    metric_label,
    overall_label,
)

DEFAULT = Thresholds()


@pytest.mark.parametrize(
    ("found", "total", "empty", "expected"),
    [
        pytest.param(3, 3, False, 1.0, id="all-found"),
        pytest.param(2, 3, False, 2 / 3, id="two-of-three"),
        pytest.param(0, 4, False, 0.0, id="none-found"),
        pytest.param(0, 0, False, 1.0, id="empty-list-vacuously-one"),
        pytest.param(0, 0, True, 1.0, id="empty-list-beats-empty-output"),
        pytest.param(0, 2, True, 0.0, id="empty-target-gives-zero"),
    ],
)
def test_coverage_score_cr_and_ac(found: int, total: int, empty: bool, expected: float) -> None:
    assert coverage_score(found, total, target_empty=empty) == expected


@pytest.mark.parametrize(
    ("violations", "total", "empty", "strict", "expected"),
    [
        pytest.param(2, 4, False, False, 0.5, id="spec-example-two-of-four-is-half"),
        pytest.param(1, 4, False, False, 0.75, id="one-of-four"),
        pytest.param(3, 3, False, False, 0.0, id="all-violated"),
        pytest.param(0, 5, False, False, 1.0, id="no-violation"),
        pytest.param(0, 0, False, False, 1.0, id="no-forbidden-terms"),
        pytest.param(0, 3, True, False, 1.0, id="no-followup-questions"),
        pytest.param(1, 4, False, True, 0.0, id="strict-any-violation-is-zero"),
        pytest.param(0, 4, False, True, 1.0, id="strict-no-violation-is-one"),
        pytest.param(0, 0, False, True, 1.0, id="strict-no-terms-is-one"),
        pytest.param(0, 2, True, True, 1.0, id="strict-no-questions-is-one"),
    ],
)
def test_ah_score(violations: int, total: int, empty: bool, strict: bool, expected: float) -> None:
    assert ah_score(violations, total, target_empty=empty, strict=strict) == expected


def test_four_of_five_is_exactly_the_pass_threshold() -> None:
    assert coverage_score(4, 5, target_empty=False) == 0.8
    assert ah_score(1, 5, target_empty=False, strict=False) == 0.8


@pytest.mark.parametrize(
    ("scores", "weights", "expected"),
    [
        pytest.param((1.0, 0.5, 0.0), Weights(), 0.5, id="equal-weights-mean"),
        pytest.param((1.0, 0.0, 1.0), Weights(AH=1.5), 2 / 3.5, id="spec-config-ah-1.5"),
        pytest.param((0.2, 0.9, 0.4), Weights(CR=0, AC=0), 0.9, id="only-ah-weighted"),
        pytest.param((1.0, 1.0, 1.0), Weights(CR=0.1, AH=0.2, AC=0.3), 1.0, id="all-one-stays-one"),
    ],
)
def test_composite_is_weighted_mean(
    scores: tuple[float, float, float], weights: Weights, expected: float
) -> None:
    assert composite_score(*scores, weights) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("score", "bounds", "label"),
    [
        pytest.param(0.8, DEFAULT.CR, "Pass", id="cr-0.8-exactly-passes"),
        pytest.param(0.79, DEFAULT.CR, "Review", id="cr-just-below-0.8-reviews"),
        pytest.param(0.5, DEFAULT.CR, "Review", id="cr-0.5-exactly-reviews"),
        pytest.param(0.49, DEFAULT.CR, "Fail", id="cr-below-0.5-fails"),
        pytest.param(1.0, DEFAULT.AH, "Pass", id="ah-1.0-exactly-passes"),
        pytest.param(0.99, DEFAULT.AH, "Review", id="ah-below-1-reviews"),
        pytest.param(0.5, DEFAULT.AH, "Review", id="ah-0.5-exactly-reviews"),
        pytest.param(0.0, DEFAULT.AC, "Fail", id="ac-zero-fails"),
    ],
)
def test_metric_label_boundaries(score: float, bounds: MetricThresholds, label: str) -> None:
    assert metric_label(score, bounds) == label


@pytest.mark.parametrize(
    ("cr", "ah", "ac", "label"),
    [
        pytest.param(1.0, 1.0, 1.0, "Pass", id="all-perfect-pass"),
        pytest.param(0.8, 1.0, 0.8, "Pass", id="pass-at-exact-thresholds"),
        pytest.param(0.49, 1.0, 1.0, "Fail", id="cr-below-review-fails"),
        pytest.param(1.0, 0.49, 1.0, "Fail", id="ah-below-review-fails"),
        pytest.param(1.0, 1.0, 0.49, "Fail", id="ac-below-review-fails"),
        pytest.param(0.4, 0.75, 0.6, "Fail", id="fail-checked-before-ah-rule"),
        pytest.param(1.0, 0.75, 1.0, "Review", id="any-violation-caps-at-review"),
        pytest.param(1.0, 0.5, 1.0, "Review", id="ah-0.5-exactly-reviews"),
        pytest.param(0.79, 1.0, 1.0, "Review", id="cr-borderline-reviews"),
        pytest.param(1.0, 1.0, 0.5, "Review", id="ac-0.5-exactly-reviews"),
    ],
)
def test_overall_label_follows_compute_overall_label(
    cr: float, ah: float, ac: float, label: str
) -> None:
    assert overall_label(cr, ah, ac, DEFAULT) == label


def test_overall_label_uses_configured_thresholds() -> None:
    strict = Thresholds.model_validate({"CR": {"pass": 0.95, "review": 0.9}})
    assert overall_label(0.92, 1.0, 1.0, strict) == "Review"
    assert overall_label(0.85, 1.0, 1.0, strict) == "Fail"
    lenient = Thresholds.model_validate({"AC": {"pass": 0.5, "review": 0.2}})
    assert overall_label(1.0, 1.0, 0.5, lenient) == "Pass"


def test_harm_rule_holds_even_when_ah_pass_threshold_is_lowered() -> None:
    relaxed = Thresholds.model_validate({"AH": {"pass": 0.7, "review": 0.5}})
    assert metric_label(0.75, relaxed.AH) == "Pass"
    assert overall_label(1.0, 0.75, 1.0, relaxed) == "Review"
    assert HARM_RULE == 1.0


def test_default_thresholds_and_weights_are_the_specification_ones() -> None:
    config = SafeConfig()
    got = {
        m: (config.thresholds.of(m).pass_, config.thresholds.of(m).review)
        for m in ["CR", "AH", "AC"]
    }
    assert got == {"CR": (0.8, 0.5), "AH": (1.0, 0.5), "AC": (0.8, 0.5)}
    assert (config.weights.CR, config.weights.AH, config.weights.AC) == (1.0, 1.0, 1.0)
    assert config.strict_ah is False
