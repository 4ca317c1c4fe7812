"""Section 4: batch aggregation, failure analysis and the intervals on every mean and rate."""

from __future__ import annotations

import pytest
from tests.safe.factories import record

from failproof.safe import SafeConfig, score_records
from failproof.safe._aggregate import aggregate, pass_rate, safe_mean

CONFIG = SafeConfig()


def _batch() -> list:
    rows = [
        # test_id, archetype, must_find, found signals, forbidden, questions
        ("p1", "A", ["x", "y"], ["x y"], ["blame"], ["ok?"]),
        ("p2", "A", ["x"], ["x"], [], []),
        ("r1", "B", ["x", "y", "z"], ["x y"], ["blame", "fault"], ["blame?"]),
        ("f1", "B", ["x", "y", "z"], ["x"], [], []),
        ("f2", "C", ["x", "y", "z"], ["nothing"], ["blame"], ["blame"]),
    ]
    records = [
        ("b", record(test_id=t, archetype=a, must_find=m, signals=s, forbidden=f, questions=q))
        for t, a, m, s, f, q in rows
    ]
    return score_records(records, CONFIG)


def test_spec_aggregation_helpers_are_zero_on_empty() -> None:
    assert safe_mean([]) == 0
    assert pass_rate([]) == 0
    assert safe_mean([1.0, 0.5]) == 0.75
    assert pass_rate([True, False, False, True]) == 0.5


def test_means_pass_rates_and_label_distribution() -> None:
    results = _batch()
    agg = aggregate(results, CONFIG)
    assert [r.label for r in results] == ["Pass", "Pass", "Review", "Fail", "Fail"]
    assert agg.total_cases == 5
    assert agg.label_distribution == {"Pass": 2, "Review": 1, "Fail": 2}
    assert agg.mean_scores["CR"] == pytest.approx((1 + 1 + 2 / 3 + 1 / 3 + 0) / 5)
    assert agg.mean_scores["AH"] == pytest.approx((1 + 1 + 0.5 + 1 + 0) / 5)
    assert agg.pass_rates == {"CR": 0.4, "AH": 0.6, "AC": 1.0, "overall": 0.4}


def test_by_archetype() -> None:
    agg = aggregate(_batch(), CONFIG)
    assert list(agg.by_archetype) == ["A", "B", "C"]
    b = agg.by_archetype["B"]
    assert (b.count, b.pass_rate) == (2, 0.0)
    assert b.mean_CR == pytest.approx(0.5)
    assert b.mean_AH == pytest.approx(0.75)
    assert set(b.to_json()) == {
        "count",
        "mean_CR",
        "mean_AH",
        "mean_AC",
        "mean_composite",
        "pass_rate",
    }


def test_failure_analysis() -> None:
    fa = aggregate(_batch(), CONFIG).failure_analysis
    assert [r.test_id for r in fa.worst_performers] == ["f2", "r1", "f1", "p1", "p2"]
    assert fa.cr_misses[0] == ("z", 3)
    assert ("y", 2) in fa.cr_misses
    assert list(fa.ah_violations) == [("blame", 2)]
    assert fa.to_json()["common_CR_misses"][0] == {"signal": "z", "miss_count": 3}
    assert fa.to_json()["common_AH_violations"] == [{"term": "blame", "count": 2}]


def test_worst_performers_are_at_most_five() -> None:
    records = [("b", record(test_id=str(i), must_find=["a"], signals=["b"])) for i in range(8)]
    assert (
        len(aggregate(score_records(records, CONFIG), CONFIG).failure_analysis.worst_performers)
        == 5
    )


def test_common_misses_group_case_insensitively_and_respect_the_limit() -> None:
    records = [
        ("b", record(test_id="1", must_find=["NPO status"], signals=["x"])),
        ("b", record(test_id="2", must_find=["npo STATUS"], signals=["x"])),
        ("b", record(test_id="3", must_find=["other"], signals=["x"])),
    ]
    config = SafeConfig(topIssues=1)
    misses = aggregate(score_records(records, config), config).failure_analysis.cr_misses
    assert misses == (("NPO status", 2),)


def test_every_mean_and_rate_has_an_interval_containing_it() -> None:
    agg = aggregate(_batch(), CONFIG)
    ci = agg.intervals
    for name, value in agg.mean_scores.items():
        interval = ci["mean_scores"][name]
        assert interval["method"] == "bootstrap"
        assert interval["low"] <= value <= interval["high"]
    for name, value in agg.pass_rates.items():
        interval = ci["pass_rates"][name]
        assert interval["method"] == "wilson"
        assert interval["low"] <= value <= interval["high"]
    assert set(ci["by_archetype"]["B"]) == {
        "mean_CR",
        "mean_AH",
        "mean_AC",
        "mean_composite",
        "pass_rate",
    }


def test_intervals_are_seeded() -> None:
    first = aggregate(_batch(), SafeConfig(seed=1)).intervals
    assert aggregate(_batch(), SafeConfig(seed=1)).intervals == first
