"""Numbers, intervals and text are formatted the same way by every renderer."""

from __future__ import annotations

import pytest

from failproof.render._numbers import Value, format_value, human_size, interval_text, value_of
from failproof.render._text import excerpt
from failproof.report._format import format_cell, kind_of


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        pytest.param(0.5, Value(0.5), id="plain-number"),
        pytest.param(3, Value(3.0), id="integer"),
        pytest.param(
            {"estimate": 0.75, "low": 0.3, "high": 0.95, "n": 4, "method": "wilson"},
            Value(0.75, 0.3, 0.95),
            id="interval-object",
        ),
        pytest.param({"estimate": None, "low": None, "high": None}, None, id="empty-interval"),
        pytest.param(float("nan"), None, id="nan-is-absent"),
        pytest.param(True, None, id="bool-is-not-a-number"),
        pytest.param("0.5", None, id="text-is-not-a-number"),
        pytest.param(None, None, id="none"),
    ],
)
def test_value_of_reads_numbers_and_interval_objects(raw: object, expected: Value | None) -> None:
    assert value_of(raw) == expected


@pytest.mark.parametrize(
    ("key", "kind"),
    [
        pytest.param("pass_rate", "pct", id="rate-is-percent"),
        pytest.param("overall_run_score", "pct", id="run-score-is-percent"),
        pytest.param("mean_risk", "num", id="risk-is-a-number"),
        pytest.param("resilience_index", "num", id="index-is-a-number"),
        pytest.param("n", "count", id="n-is-a-count"),
        pytest.param("critical_failures", "num", id="unknown-is-a-number"),
        pytest.param("p50_ms", "ms", id="milliseconds"),
    ],
)
def test_kind_of_a_key(key: str, kind: str) -> None:
    assert kind_of(key) == kind


@pytest.mark.parametrize(
    ("value", "kind", "text"),
    [
        pytest.param(Value(0.6667), "pct", "66.7%", id="percent-one-decimal"),
        pytest.param(Value(0.4567), "num", "0.46", id="number-two-decimals"),
        pytest.param(Value(12345.0), "count", "12,345", id="count-with-separators"),
        pytest.param(Value(1339.95), "ms", "1,340 ms", id="milliseconds-rounded"),
        pytest.param(None, "pct", "–", id="absent-is-a-dash"),
    ],
)
def test_format_value(value: Value | None, kind: str, text: str) -> None:
    assert format_value(value, kind) == text  # type: ignore[arg-type]


def test_interval_text_in_percent_and_absent_without_bounds() -> None:
    assert interval_text(Value(0.75, 0.3006, 0.9544), "pct") == "30.1–95.4%"
    assert interval_text(Value(0.75), "pct") == ""


@pytest.mark.parametrize(
    ("key", "raw", "text"),
    [
        pytest.param(
            "pass_rate",
            {"estimate": 0.5, "low": 0.1, "high": 0.9},
            "50.0% (10.0–90.0%)",
            id="rate-with-interval",
        ),
        pytest.param("critical_failures", 3, "3", id="integers-stay-integers"),
        pytest.param("passed", False, "no", id="booleans-read-yes-no"),
        pytest.param("categories", ["a", "b"], "a, b", id="lists-joined"),
        pytest.param("label", None, "–", id="none-is-a-dash"),
    ],
)
def test_format_cell(key: str, raw: object, text: str) -> None:
    assert format_cell(key, raw) == text


def test_excerpt_collapses_whitespace_and_cuts_with_an_ellipsis() -> None:
    assert excerpt("a\n\n b\tc", 10) == "a b c"
    assert excerpt("x" * 50, 10) == "x" * 9 + "…"


@pytest.mark.parametrize(
    ("size", "text"),
    [
        pytest.param(812, "812 B", id="bytes"),
        pytest.param(48_200, "48.2 KB", id="kilobytes"),
        pytest.param(4_164_355, "4.2 MB", id="megabytes"),
    ],
)
def test_human_size(size: int, text: str) -> None:
    assert human_size(size) == text
