"""Agreement of two raters: the share they agree on and Cohen's kappa."""

from __future__ import annotations

import pytest

from failproof.stats import agreement


@pytest.mark.parametrize(
    ("first", "second", "share", "kappa"),
    [
        pytest.param([1, 1, 0, 0], [1, 1, 0, 0], 1.0, 1.0, id="perfect-agreement-is-kappa-1"),
        pytest.param([1, 0, 1, 0], [0, 1, 0, 1], 0.0, -1.0, id="perfect-disagreement-is-minus-1"),
        # p_o = 0.7; p_e = 0.5 * 0.6 + 0.5 * 0.4 = 0.5; kappa = 0.2 / 0.5
        pytest.param(
            [1, 1, 1, 1, 1, 0, 0, 0, 0, 0],
            [1, 1, 1, 1, 0, 1, 1, 0, 0, 0],
            0.7,
            0.4,
            id="worked-example",
        ),
        # p_o = 2/3; p_e = 1 * 2/3: no better than chance
        pytest.param([0, 0, 0], [0, 0, 1], 2 / 3, 0.0, id="one-rater-constant-is-chance"),
        pytest.param(["a", "b", "c"], ["a", "b", "b"], 2 / 3, 0.5, id="three-labels"),
    ],
)
def test_agreement_and_kappa(
    first: list[object], second: list[object], share: float, kappa: float
) -> None:
    found = agreement(first, second)
    assert found.n == len(first)
    assert found.agreement == pytest.approx(share)
    assert found.kappa == pytest.approx(kappa)


def test_kappa_is_undefined_when_both_raters_give_one_label() -> None:
    assert agreement([True, True], [True, True]) == (2, 1.0, None)


def test_no_items_gives_no_figures() -> None:
    assert agreement([], []) == (0, None, None)


def test_sequences_of_different_length_are_refused() -> None:
    with pytest.raises(ValueError, match="2 labels against 1"):
        agreement([1, 0], [1])
