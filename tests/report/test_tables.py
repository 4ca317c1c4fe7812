"""Tables read report sections defensively: known keys first, intervals merged, absent skipped."""

from __future__ import annotations

from failproof.render._numbers import Value
from failproof.render._table import Column
from failproof.report._tables import Spec, flatten, keyed_table, records_table, typed_table

WILSON = {"estimate": 0.5, "low": 0.1, "high": 0.9, "n": 2, "method": "wilson"}


def test_flatten_nests_and_merges_ci_siblings() -> None:
    row = {"pass_rate": 0.5, "pass_rate_ci": WILSON, "latency": {"p50_ms": 10, "p95_ms": 20}}
    assert flatten(row) == {
        "pass_rate": {"estimate": 0.5, "low": 0.1, "high": 0.9},
        "latency_p50_ms": 10,
        "latency_p95_ms": 20,
    }


def test_flatten_drops_an_empty_ci_of_a_missing_rate() -> None:
    empty = {"estimate": None, "low": None, "high": None, "n": 0}
    assert flatten({"pass_rate": None, "pass_rate_ci": empty}) == {"pass_rate": None}


def test_records_table_orders_known_columns_first_and_skips_empty_ones() -> None:
    table = records_table(
        [{"extra": 1, "name": "a", "n": 3, "never": None}, {"name": "b", "n": 4}],
        ["name", "n"],
    )
    assert [c.key for c in table.columns] == ["name", "n", "extra"]
    assert [[cell.text for cell in row] for row in table.rows] == [["a", "3", "1"], ["b", "4", "–"]]


def test_text_columns_are_not_numeric() -> None:
    table = records_table([{"case_id": "x", "suite": "s", "risk_score": 0.5}])
    assert [c.numeric for c in table.columns] == [False, False, True]


def test_keyed_table_sorts_by_the_given_order_then_the_rest() -> None:
    section = {"low": {"n": 1}, "other": {"n": 5}, "critical": {"n": 2}}
    table = keyed_table(section, "severity", sort=["critical", "high", "low"])
    assert [row[0].text for row in table.rows] == ["critical", "low", "other"]


def test_bars_and_tones() -> None:
    table = records_table(
        [{"name": "a", "pass_rate": 0.25, "class": "fail"}, {"name": "b", "pass_rate": None}],
        bars={"pass_rate": "good"},
    )
    rate, cls = table.rows[0][1], table.rows[0][2]
    assert (rate.bar, rate.tone, cls.tone) == (0.25, "good", "fail")
    assert table.rows[1][1].bar is None


def test_rows_past_the_limit_are_counted() -> None:
    table = records_table([{"i": i} for i in range(5)], limit=2)
    assert (len(table.rows), table.more) == (2, 3)


def test_non_list_and_non_mapping_sections_give_empty_tables() -> None:
    assert not records_table("oops")
    assert not keyed_table(["not", "a", "mapping"], "name")


def test_a_typed_table_reads_units_from_its_columns_not_from_key_names() -> None:
    specs = (Spec("score", "share", "num"), Spec("hits", "hits", "pct"), Spec("unset", "unset"))
    rows = [("a", {"score": 0.5, "hits": 0.25}), ("b", {"score": 0.75, "hits": None})]
    table = typed_table(Column("name", "name"), rows, specs, bars={"hits": "bad"})
    assert [(c.key, c.label, c.kind) for c in table.columns] == [
        ("name", "name", "text"),
        ("score", "share", "num"),
        ("hits", "hits", "pct"),
    ]  # a column no row has a value for is left out
    assert [[cell.text for cell in row] for row in table.rows] == [
        ["a", "0.50", "25.0%"],
        ["b", "0.75", "–"],
    ]
    assert table.rows[0][2].bar == 0.25 and table.rows[0][2].tone == "bad"


def test_a_typed_table_draws_an_interval_beside_its_estimate() -> None:
    rows = [("a", {"rate": Value(0.5, 0.25, 0.75)})]
    table = typed_table(Column("name", "name"), rows, [Spec("rate", "rate", "pct")])
    assert table.rows[0][1].full == "50.0% (25.0–75.0%)"
