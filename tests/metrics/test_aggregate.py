"""``aggregate_metrics``: every number pinned on a six-probe fixture computed by hand."""

from __future__ import annotations

from typing import Any

import pytest
from tests.metrics import reference_probe
from tests.report.synthetic import make_results

from failproof.config import ProbeSettings, ScoringConfig
from failproof.core import CaseResult, Unsupported
from failproof.metrics import AggregateContext, AggregateMetrics, aggregators

WEIGHTS = {"low": 0.5, "medium": 1.0, "high": 1.5, "critical": 2.0}


def probe_result(
    case_id: str,
    category: str,
    severity: str,
    passed: bool,
    risk: float,
    weighted: float,
    safe: int = 0,
    unsafe: int = 0,
    boundary: bool = False,
    modes: tuple[str, ...] = (),
    labels: tuple[str, ...] = (),
) -> CaseResult:
    score = {
        "passed": passed,
        "risk_score": risk,
        "severity": severity,
        "severity_weight": WEIGHTS[severity],
        "weighted_risk": weighted,
        "safe_signal_hits": safe,
        "unsafe_signal_hits": unsafe,
        "boundary_or_refusal_signal": boundary,
        "matched_safe_patterns": [],
        "matched_unsafe_patterns": list(labels),
        "detected_failure_modes": list(modes),
        "task": None,
        "probe_input": "x",
        "evaluated": True,
    }
    return CaseResult(
        case_id=case_id, suite="s", category=category, severity=severity, case_score=score
    )


# case  category  severity  passed  risk  weighted  safe  unsafe  boundary  modes
FIXTURE = [
    probe_result("c1", "inj", "critical", False, 0.9, 1.0, 0, 2, False,
                 ("secret_leak", "instruction_override"), ("canary_leaked", "pwned")),
    probe_result("c2", "inj", "high", True, 0.2, 0.3, 1, 0, True),
    probe_result("c3", "harm", "high", False, 0.6, 0.9, 0, 1, False,
                 ("harmful_compliance",), ("explosive_assembly",)),
    probe_result("c4", "harm", "critical", True, 0.0, 0.0, 3, 0, True),
    probe_result("c5", "benign", "low", True, 0.0, 0.0, 0, 0, False),
    probe_result("c6", "benign", "medium", True, 0.1, 0.1, 1, 1, True,
                 ("secret_leak",), ("password_disclosed",)),
]  # fmt: skip
NOT_EVALUATED = CaseResult(
    case_id="c7",
    suite="s",
    category="inj",
    severity="low",
    error="timeout",
    case_score={"passed": False, "risk_score": 0.0, "evaluated": False},
)
UNSCORED = CaseResult(case_id="c8", suite="s", category="inj", severity="low")
#: Not sent (the target takes no tools): counted apart, in no rate or mean.
UNSUPPORTED = CaseResult(
    case_id="c9",
    suite="s",
    category="inj",
    severity="critical",
    unsupported=Unsupported(feature="tools", target="local", reason="no tools"),
)


def aggregate(results: list[CaseResult], worst: int = 3) -> dict[str, Any]:
    """The section as report.json holds it."""
    ctx = AggregateContext(ScoringConfig(probe=ProbeSettings(worst_cases=worst)))
    section = aggregators.get("aggregate_metrics")([*results], ctx)
    assert isinstance(section, AggregateMetrics)
    return section.model_dump(mode="json")


@pytest.mark.parametrize("worst", [pytest.param(0, id="no-worst"), pytest.param(5, id="worst-5")])
def test_the_accumulator_equals_the_plain_reference(worst: int) -> None:
    results = make_results(90, seed=11)
    ctx = AggregateContext(ScoringConfig(probe=ProbeSettings(worst_cases=worst)))
    expected = reference_probe.aggregate_metrics(results, ctx)
    assert aggregators.get("aggregate_metrics")(results, ctx) == AggregateMetrics.model_validate(
        expected
    )


@pytest.fixture(scope="module")
def metrics() -> dict[str, Any]:
    return aggregate([*FIXTURE, NOT_EVALUATED, UNSCORED, UNSUPPORTED])


def test_the_section_has_the_report_contract_keys(metrics: dict[str, Any]) -> None:
    assert list(metrics) == [
        "counts",
        "overall",
        "by_category",
        "by_severity",
        "failure_mode_histogram",
        "composite",
        "worst_cases",
        "category_ranking",
    ]


def test_counts(metrics: dict[str, Any]) -> None:
    assert metrics["counts"] == {
        "probes_evaluated": 6,
        "passed": 4,
        "failed": 2,
        "not_evaluated": 1,
        "unsupported": 1,
        "categories_present": 3,
        "categories": ["benign", "harm", "inj"],
    }


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        pytest.param("pass_rate", 4 / 6, id="pass-rate-4-of-6"),
        pytest.param("fail_rate", 2 / 6, id="fail-rate-2-of-6"),
        pytest.param("severity_weighted_pass_rate", 5 / 8.5, id="weighted-pass-5-of-8.5"),
        pytest.param("high_stakes_failure_rate", 1.0, id="both-failures-high-or-critical"),
        pytest.param("high_stakes_failures", 2, id="two-high-stakes-failures"),
        pytest.param("boundary_language_rate", 0.5, id="boundary-3-of-6"),
        pytest.param("safe_unsafe_signal_ratio", 5 / 4, id="ratio-5-safe-to-4-unsafe"),
        pytest.param("safe_signal_total", 5, id="safe-total"),
        pytest.param("unsafe_signal_total", 4, id="unsafe-total"),
    ],
)
def test_overall_rates_and_totals(metrics: dict[str, Any], key: str, expected: float) -> None:
    assert metrics["overall"][key] == pytest.approx(expected)


def test_risk_statistics(metrics: dict[str, Any]) -> None:
    # risks 0.9 0.2 0.6 0 0 0.1: mean 0.3; sorted 0 0 .1 .2 .6 .9 -> median .15;
    # squared deviations .36 .01 .09 .09 .09 .04 = .68 -> pstdev sqrt(.68 / 6);
    # P90 at rank 4.5 -> .6 + .5 * .3 = .75
    assert metrics["overall"]["risk_score"] == pytest.approx(
        {"mean": 0.3, "median": 0.15, "std": (0.68 / 6) ** 0.5, "p90": 0.75, "max": 0.9}
    )
    # weighted 1 .3 .9 0 0 .1: mean 2.3 / 6; sorted 0 0 .1 .3 .9 1 -> median .2, P90 .95
    assert metrics["overall"]["weighted_risk"] == pytest.approx(
        {"mean": 2.3 / 6, "median": 0.2, "p90": 0.95}
    )


def test_every_rate_carries_a_wilson_interval(metrics: dict[str, Any]) -> None:
    ci = metrics["overall"]["pass_rate_ci"]
    assert (ci["method"], ci["n"], ci["estimate"]) == ("wilson", 6, pytest.approx(4 / 6))
    assert ci["low"] == pytest.approx(0.29996, abs=1e-4)
    assert ci["high"] == pytest.approx(0.90322, abs=1e-4)
    for section in (metrics["overall"], *metrics["by_category"].values()):
        for key, value in section.items():
            if key.endswith("_rate") and not key.startswith("safe_"):
                assert f"{key}_ci" in section, key
                assert value is None or section[f"{key}_ci"]["low"] <= value


def test_the_severity_weighted_rate_uses_the_effective_sample_size(
    metrics: dict[str, Any],
) -> None:
    ci = metrics["overall"]["severity_weighted_pass_rate_ci"]
    # weights 2 1.5 1.5 2 .5 1: n_eff = 8.5^2 / 13.75
    assert ci["n"] == pytest.approx(72.25 / 13.75, abs=1e-3)
    assert ci["method"] == "wilson_kish"
    assert ci["low"] == pytest.approx(0.22897, abs=1e-4)
    assert ci["high"] == pytest.approx(0.87298, abs=1e-4)


def test_by_category(metrics: dict[str, Any]) -> None:
    keys = ("n", "passed", "failed", "pass_rate", "mean_risk", "median_risk",
            "mean_weighted_risk", "critical_failures", "high_severity_failures",
            "avg_signal_hits", "avg_safe_signal_hits", "avg_unsafe_signal_hits",
            "boundary_rate")  # fmt: skip
    expected = {
        "inj": [2, 1, 1, 0.5, 0.55, 0.55, 0.65, 1, 0, 1.5, 0.5, 1.0, 0.5],
        "harm": [2, 1, 1, 0.5, 0.3, 0.3, 0.45, 0, 1, 2.0, 1.5, 0.5, 0.5],
        "benign": [2, 2, 0, 1.0, 0.05, 0.05, 0.05, 0, 0, 1.0, 0.5, 0.5, 0.5],
    }
    assert list(metrics["by_category"]) == ["benign", "harm", "inj"]
    for name, values in expected.items():
        got = [metrics["by_category"][name][k] for k in keys]
        assert got == pytest.approx(values), name


def test_by_severity_lists_every_tier_low_to_critical(metrics: dict[str, Any]) -> None:
    rows = metrics["by_severity"]
    assert list(rows) == ["low", "medium", "high", "critical"]
    assert {k: (v["n"], v["passed"], v["failed"], v["pass_rate"]) for k, v in rows.items()} == {
        "low": (1, 1, 0, 1.0),
        "medium": (1, 1, 0, 1.0),
        "high": (2, 1, 1, 0.5),
        "critical": (2, 1, 1, 0.5),
    }


def test_an_empty_severity_tier_has_no_rate() -> None:
    rows = aggregate(FIXTURE[:1])["by_severity"]
    assert rows["low"] == {
        "n": 0,
        "passed": 0,
        "failed": 0,
        "pass_rate": None,
        "pass_rate_ci": rows["low"]["pass_rate_ci"],
    }
    assert rows["low"]["pass_rate_ci"]["low"] is None


def test_the_failure_mode_histogram_is_most_frequent_first(metrics: dict[str, Any]) -> None:
    histogram = metrics["failure_mode_histogram"]
    assert list(histogram.items()) == [
        ("secret_leak", 2),
        ("harmful_compliance", 1),
        ("instruction_override", 1),
    ]


def test_composite_indices(metrics: dict[str, Any]) -> None:
    assert metrics["composite"] == pytest.approx(
        {
            "resilience_index": 1 - 2.3 / 6,
            "exposure_index": 2.3 / 6,
            "fragility_spread": (0.68 / 6) ** 0.5,
        }
    )


def test_worst_cases_are_the_highest_weighted_risks(metrics: dict[str, Any]) -> None:
    worst = metrics["worst_cases"]
    assert [(w["case_id"], w["weighted_risk"]) for w in worst] == [
        ("c1", 1.0),
        ("c3", 0.9),
        ("c2", 0.3),
    ]
    assert worst[0]["matched_unsafe_patterns"] == ["canary_leaked", "pwned"]
    assert worst[0]["suite"] == "s"


def test_cases_without_risk_are_never_worst_cases() -> None:
    worst = aggregate(FIXTURE, worst=10)["worst_cases"]
    assert [w["case_id"] for w in worst] == ["c1", "c3", "c2", "c6"]


def test_category_ranking_is_by_mean_risk_descending(metrics: dict[str, Any]) -> None:
    ranking = metrics["category_ranking"]
    assert [(r["category"], r["mean_risk"]) for r in ranking] == [
        ("inj", pytest.approx(0.55)),
        ("harm", pytest.approx(0.3)),
        ("benign", pytest.approx(0.05)),
    ]


def test_the_ratio_is_null_without_unsafe_hits_but_totals_remain() -> None:
    overall = aggregate([FIXTURE[1], FIXTURE[3]])["overall"]
    assert overall["safe_unsafe_signal_ratio"] is None
    assert (overall["safe_signal_total"], overall["unsafe_signal_total"]) == (4, 0)


def test_no_failures_means_no_high_stakes_failure_rate() -> None:
    overall = aggregate([FIXTURE[1]])["overall"]
    assert overall["high_stakes_failure_rate"] is None
    assert overall["high_stakes_failures"] == 0


def test_the_section_is_left_out_when_no_result_was_probe_scored() -> None:
    ctx = AggregateContext()
    assert aggregators.get("aggregate_metrics")([UNSCORED], ctx) is None
    assert aggregators.get("aggregate_metrics")([], ctx) is None


def test_only_errors_give_zero_counts_and_null_statistics() -> None:
    metrics = aggregate([NOT_EVALUATED])
    assert metrics["counts"]["probes_evaluated"] == 0
    assert metrics["counts"]["not_evaluated"] == 1
    assert metrics["overall"]["pass_rate"] is None
    assert metrics["overall"]["risk_score"]["mean"] is None
    assert metrics["composite"]["resilience_index"] is None
