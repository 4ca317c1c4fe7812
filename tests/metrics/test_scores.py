"""FailProof suite and run scores: the seed's worked examples, weights, penalties and latency."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError
from tests.metrics import reference_scores
from tests.report.synthetic import make_results

from failproof.config import ClassifierSettings, ScoringConfig, Settings, load_settings
from failproof.core import CaseResult, Classification, Run
from failproof.core._result import Primary
from failproof.metrics import AggregateContext, fold
from failproof.metrics._scores import (
    latency_summary,
    overall_run_score,
    penalty_score,
    percentile,
    suite_score,
    weighted_run_score,
)
from failproof.metrics._scores_acc import SuitesAccumulator, SummaryAccumulator
from failproof.metrics._summary_section import SuiteRow, Summary
from failproof.report import ExitCode, build_report, exit_code


def result(
    suite: str, index: int, primary: Primary | None, latency_ms: float | None = None
) -> CaseResult:
    """A scored (or, with primary None, unscored) result."""
    classification = Classification(primary=primary) if primary else None
    return CaseResult(
        case_id=f"{suite}-{index:03d}",
        suite=suite,
        category="general",
        severity="medium",
        classification=classification,
        accuracy=None if primary is None else int(primary == "pass"),
        latency_ms=latency_ms,
    )


def suite_of(name: str, **classes: int) -> list[CaseResult]:
    """``classes`` maps a primary class to how many results of it the suite has."""
    out: list[CaseResult] = []
    for primary, count in classes.items():
        out += [result(name, len(out) + i, primary) for i in range(count)]  # type: ignore[arg-type]
    return out


def suites_section(results: list[CaseResult], context: AggregateContext) -> dict[str, SuiteRow]:
    return fold(SuitesAccumulator(context), results)


def summary_section(results: list[CaseResult], context: AggregateContext) -> Summary:
    return fold(SummaryAccumulator(context), results)


def ctx(weights: dict[str, float] | None = None, **classifier: Any) -> AggregateContext:
    record = ScoringConfig(classifier=ClassifierSettings(**classifier), suite_weights=weights or {})
    return AggregateContext(record)


# -- the seed's worked examples --------------------------------------------------------------


def test_example_1_single_suite_json_api_scores_0_70() -> None:
    results = suite_of("json_api", **{"pass": 7, "fail": 3})
    suites = suites_section(results, ctx())
    assert suites["json_api"].n == 10
    assert suites["json_api"].passed == 7
    assert suites["json_api"].score == pytest.approx(0.70)
    assert summary_section(results, ctx()).overall_run_score == pytest.approx(0.70)


def test_example_2_overall_run_score_is_the_mean_of_suite_scores_0_85() -> None:
    results = suite_of("injection", **{"pass": 18, "fail": 2}) + suite_of(
        "contradictions", **{"pass": 8, "fail": 2}
    )
    suites = suites_section(results, ctx())
    assert suites["injection"].score == pytest.approx(0.90)
    assert suites["contradictions"].score == pytest.approx(0.80)
    summary = summary_section(results, ctx())
    assert summary.overall_run_score == pytest.approx(0.85)
    assert summary.total_cases == 30
    assert summary.counts["pass"] == 26
    assert summary.counts["fail"] == 4


@pytest.mark.parametrize(
    ("accuracies", "expected"),
    [
        pytest.param([1, 1, 0, 0], 0.5, id="half"),
        pytest.param([0, 0], 0.0, id="all-fail"),
        pytest.param([1], 1.0, id="one-pass"),
        pytest.param([], None, id="no-scored-case-gives-none"),
    ],
)
def test_suite_score_is_sum_of_accuracy_over_cases(
    accuracies: list[int], expected: float | None
) -> None:
    assert suite_score(accuracies) == expected


def test_overall_run_score_of_no_suite_is_none() -> None:
    assert overall_run_score([]) is None


def test_unscored_cases_are_left_out_of_the_suite_score() -> None:
    results = [*suite_of("s", **{"pass": 1, "fail": 1}), result("s", 9, None)]
    row = suites_section(results, ctx())["s"]
    assert (row.n, row.score, row.counts["unscored"]) == (3, 0.5, 1)


def test_every_class_is_every_kind_of_failure_for_accuracy() -> None:
    classes = ("fail", "refusal", "wrong_format", "policy_violation", "error")
    results = suite_of("s", **dict.fromkeys(classes, 1))
    assert suites_section(results, ctx())["s"].score == 0.0


# -- weighted suites -------------------------------------------------------------------------


EXAMPLE_2 = {"injection": 0.9, "contradictions": 0.8}


@pytest.mark.parametrize(
    ("weights", "expected"),
    [
        pytest.param({}, 0.85, id="default-weight-1-equals-overall"),
        pytest.param({"injection": 3.0, "contradictions": 1.0}, 0.875, id="injection-3x"),
        pytest.param({"injection": 0.0}, 0.8, id="weight-0-drops-a-suite"),
        pytest.param({"injection": 0.0, "contradictions": 0.0}, None, id="all-zero-is-none"),
    ],
)
def test_weighted_run_score_averages_suite_scores_by_weight(
    weights: dict[str, float], expected: float | None
) -> None:
    got = weighted_run_score(EXAMPLE_2, weights)
    assert got == (pytest.approx(expected) if expected is not None else None)


def test_weighted_run_score_and_suite_weight_reach_the_report_sections() -> None:
    results = suite_of("injection", **{"pass": 18, "fail": 2}) + suite_of(
        "contradictions", **{"pass": 8, "fail": 2}
    )
    weights = {"injection": 3.0, "contradictions": 1.0}
    assert summary_section(results, ctx(weights)).weighted_run_score == pytest.approx(0.875)
    assert suites_section(results, ctx(weights))["injection"].weight == 3.0


# -- penalty scores --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("primaries", "penalties", "expected"),
    [
        pytest.param(
            ["pass", "refusal", "policy_violation", "pass"],
            {"pass": 0.0, "refusal": 0.5, "policy_violation": 1.0},
            0.625,
            id="refusal-half-policy-violation-full",
        ),
        pytest.param(["pass", "pass"], {"pass": 0.0}, 1.0, id="all-pass-is-1"),
        pytest.param(["fail", "error"], {"fail": 1.0, "error": 1.0}, 0.0, id="all-fail-is-0"),
        pytest.param(["refusal"], {}, 0.0, id="class-without-penalty-takes-full-penalty"),
        pytest.param([], {}, None, id="nothing-classified-is-none"),
    ],
)
def test_penalty_score_is_mean_of_one_minus_penalty(
    primaries: list[str], penalties: dict[str, float], expected: float | None
) -> None:
    assert penalty_score(primaries, penalties) == expected


def test_penalty_scores_per_suite_and_for_the_run_follow_configured_penalties() -> None:
    results = suite_of("a", **{"pass": 2, "refusal": 2}) + suite_of(
        "b", **{"pass": 1, "policy_violation": 1}
    )
    context = ctx(penalties={"refusal": 0.25})
    suites = suites_section(results, context)
    assert suites["a"].penalty_score == pytest.approx((2 + 2 * 0.75) / 4)
    assert suites["b"].penalty_score == pytest.approx(0.5)
    summary = summary_section(results, context)
    assert summary.penalty_score == pytest.approx((0.875 + 0.5) / 2)


def test_default_penalties_rank_a_refusal_above_a_policy_violation() -> None:
    refused = suites_section(suite_of("s", refusal=1), ctx())["s"].penalty_score
    violated = suites_section(suite_of("s", policy_violation=1), ctx())["s"].penalty_score
    assert refused > violated


def test_weighted_penalty_score_uses_suite_weights() -> None:
    results = suite_of("a", **{"pass": 1}) + suite_of("b", fail=1)
    summary = summary_section(results, ctx({"a": 3.0, "b": 1.0}))
    assert summary.weighted_penalty_score == pytest.approx(0.75)


# -- latency ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "q", "expected"),
    [
        pytest.param([10.0], 95, 10.0, id="single-value"),
        pytest.param([1.0, 2.0, 3.0, 4.0], 50, 2.5, id="median-interpolates"),
        pytest.param([float(v) for v in range(1, 101)], 95, 95.05, id="p95-of-1-to-100"),
        pytest.param([5.0, 1.0, 3.0], 0, 1.0, id="unsorted-input-min"),
        pytest.param([], 50, None, id="empty-is-none"),
    ],
)
def test_percentile_interpolates_linearly_between_ranks(
    values: list[float], q: float, expected: float | None
) -> None:
    got = percentile(values, q)
    assert got == (pytest.approx(expected) if expected is not None else None)


def test_latency_score_is_the_share_within_budget() -> None:
    summary = latency_summary([100.0, 200.0, 300.0, 2000.0], budget_ms=300.0)
    assert summary.within_budget == 3
    assert summary.score == pytest.approx(0.75)
    assert summary.p50_ms == pytest.approx(250.0)


def test_latency_without_budget_reports_percentiles_but_no_score() -> None:
    summary = latency_summary([100.0, 200.0], budget_ms=None)
    assert (summary.score, summary.within_budget, summary.p95_ms) == (None, None, 195.0)


def test_latency_per_suite_and_for_the_run_skips_missing_latencies() -> None:
    results = [
        result("a", 1, "pass", 100.0),
        result("a", 2, "pass", 900.0),
        result("a", 3, "error", None),
        result("b", 1, "error", 60000.0),
    ]
    context = ctx(latency_budget_ms=500.0)
    suites = suites_section(results, context)
    assert suites["a"].latency.n == 2
    assert suites["a"].latency.score == pytest.approx(0.5)
    assert suites["b"].latency.score == 0.0
    summary = summary_section(results, context).latency
    assert (summary.n, summary.within_budget, summary.budget_ms) == (3, 1, 500.0)


def test_build_report_carries_every_score_in_summary_and_suites() -> None:
    results = suite_of("injection", **{"pass": 18, "fail": 2}) + suite_of(
        "contradictions", **{"pass": 8, "fail": 2}
    )
    run = Run(id="r1", target={"name": "mock"}, config={"suite_weights": {"injection": 3.0}})
    report = build_report(run, results, Settings())
    assert report.summary.overall_run_score == pytest.approx(0.85)
    assert report.summary.weighted_run_score == pytest.approx(0.875)
    assert report.summary.penalty_score == pytest.approx(0.85)
    row = report.suites["injection"]
    assert row.score is not None and row.weight == 3.0
    assert row.penalty_score is not None and row.latency is not None


# -- configuration of the penalties ----------------------------------------------------------


def test_configured_penalties_keep_the_default_of_classes_left_out() -> None:
    penalties = ClassifierSettings(penalties={"refusal": 0.2}).penalties
    assert penalties == ClassifierSettings.DEFAULT_PENALTIES | {"refusal": 0.2}


def test_penalties_come_from_the_environment_as_json(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAILPROOF_CLASSIFIER__PENALTIES", '{"wrong_format": 0.1}')
    monkeypatch.setenv("FAILPROOF_CLASSIFIER__LATENCY_BUDGET_MS", "800")
    settings = load_settings(cwd=Path("/nonexistent"))
    assert settings.classifier.penalties["wrong_format"] == 0.1
    assert settings.classifier.latency_budget_ms == 800.0


@pytest.mark.parametrize(
    ("penalties", "message"),
    [
        pytest.param({"refusals": 0.5}, "unknown class 'refusals'", id="unknown-class"),
        pytest.param({"refusal": 1.5}, "between 0 and 1", id="above-one"),
        pytest.param({"fail": -0.1}, "between 0 and 1", id="negative"),
    ],
)
def test_bad_penalties_are_rejected_with_what_to_fix(
    penalties: dict[str, float], message: str
) -> None:
    with pytest.raises(ValidationError, match=message):
        ClassifierSettings(penalties=penalties)


def test_errors_and_unanswered_cases_are_counted_apart_and_never_pass() -> None:
    error = result("s", 9, "error").model_copy(update={"error": "HTTP 500"})
    unjudged = result("s", 8, None)  # no expect: the classifier did not judge it
    results = [*suite_of("s", **{"pass": 2, "fail": 1}), error, unjudged]
    run = Run(id="r1", target={"name": "mock"}, config={"planned": 7})
    report = build_report(run, results, Settings())
    summary = report.summary
    assert (summary.passed, summary.errors, summary.unanswered) == (2, 1, 2)
    assert summary.pass_rate == pytest.approx(2 / 6)  # 3 judged + 1 error + 2 unanswered
    assert exit_code(report) == ExitCode.FAILURE


def test_a_run_without_a_recorded_plan_has_nothing_unanswered() -> None:
    report = build_report(Run(id="r1", target={}), suite_of("s", **{"pass": 2}), Settings())
    assert (report.summary.unanswered, report.summary.pass_rate) == (0, 1.0)
    assert exit_code(report) == ExitCode.OK


@pytest.mark.parametrize(
    "samples", [pytest.param(1, id="one-sample"), pytest.param(3, id="repeats")]
)
def test_the_accumulators_equal_the_plain_reference(samples: int) -> None:
    results = make_results(90, seed=5, samples=samples)
    context = AggregateContext(
        ScoringConfig(suite_weights={"injection": 2.0}), planned=len(results) + 4
    )
    rows = suites_section(results, context)
    expected = reference_scores.suites_section(results, context)
    assert rows == {name: SuiteRow.model_validate(row) for name, row in expected.items()}
    summary = Summary.model_validate(reference_scores.summary_section(results, context))
    assert summary_section(results, context) == summary
