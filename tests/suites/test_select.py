"""Choosing part of the suites: --only, --category, --severity, --sample with --seed."""

from __future__ import annotations

import pytest

from failproof.core import Case, Severity, Suite
from failproof.errors import InputError
from failproof.suites import Selection, select_cases
from failproof.suites._select import parse_list


def _suite(name: str, n: int) -> Suite:
    cases = tuple(
        Case(
            id=f"{name}-{i}",
            suite=name,
            input=f"q{i}",
            category="alpha" if i % 2 else "beta",
            severity=Severity.high if i % 3 == 0 else Severity.low,
        )
        for i in range(n)
    )
    return Suite(name=name, cases=cases)


SUITES = [_suite("a", 10), _suite("b", 10)]


def ids(suites: list[Suite]) -> list[str]:
    return [f"{c.suite}/{c.id}" for s in suites for c in s.cases]


@pytest.mark.parametrize(
    ("selection", "expected"),
    [
        pytest.param(Selection(), 20, id="empty-keeps-all"),
        pytest.param(Selection(ids=("a-1", "b/b-2")), 2, id="ids-plain-and-suite-qualified"),
        pytest.param(Selection(categories=("alpha",)), 10, id="category"),
        pytest.param(Selection(severities=("high",)), 8, id="severity"),
        pytest.param(Selection(categories=("alpha",), severities=("high",)), 4, id="and"),
        pytest.param(Selection(sample=5, seed=1), 5, id="sample"),
        pytest.param(Selection(categories=("beta",), sample=50), 10, id="sample-larger-than-pool"),
    ],
)
def test_filters_combine_with_and_and_the_sample_comes_last(
    selection: Selection, expected: int
) -> None:
    assert len(ids(select_cases(SUITES, selection))) == expected


def test_a_sample_is_the_same_for_one_seed_and_differs_across_seeds() -> None:
    first = ids(select_cases(SUITES, Selection(sample=6, seed=7)))
    assert first == ids(select_cases(SUITES, Selection(sample=6, seed=7)))
    assert first != ids(select_cases(SUITES, Selection(sample=6, seed=8)))
    assert first == sorted(first, key=ids(SUITES).index)  # suite order is kept


def test_the_sample_is_drawn_from_the_filtered_cases() -> None:
    chosen = select_cases(SUITES, Selection(categories=("alpha",), sample=3, seed=2))
    assert all(c.category == "alpha" for s in chosen for c in s.cases)


def test_suites_left_empty_are_dropped() -> None:
    assert [s.name for s in select_cases(SUITES, Selection(ids=("b-3",)))] == ["b"]


@pytest.mark.parametrize(
    ("make", "message"),
    [
        pytest.param(
            lambda: select_cases(SUITES, Selection(ids=("nope",))), "nope", id="unknown-id"
        ),
        pytest.param(
            lambda: select_cases(SUITES, Selection(categories=("gamma",))),
            "no case matches --category gamma",
            id="nothing-left",
        ),
        pytest.param(lambda: Selection(severities=("urgent",)), "urgent", id="unknown-severity"),
        pytest.param(lambda: Selection(sample=0), "at least 1", id="empty-sample"),
    ],
)
def test_a_selection_that_cannot_be_met_says_why(make: object, message: str) -> None:
    with pytest.raises(InputError, match=message):
        make()  # type: ignore[operator]


def test_a_selection_survives_the_run_record() -> None:
    selection = Selection(
        ids=("a-1",), categories=("alpha",), severities=("low",), sample=3, seed=9
    )
    assert Selection.from_config(selection.to_config()) == selection
    assert selection.describe() == "--only a-1 --category alpha --severity low --sample 3 --seed 9"
    assert Selection.from_config(None).empty


def test_flag_values_split_on_commas_and_repeat() -> None:
    assert parse_list(["a,b", " c ", "a", ""]) == ("a", "b", "c")
