"""Agreement scores: binary refusal class, three-way macro-F1, over-refusal on safe prompts."""

from __future__ import annotations

import pytest

from failproof.detect import LabelledSet, RefusalLabel, score_predictions
from failproof.detect._labelled import LabelledResponse


def _set(*labels: RefusalLabel, safe: tuple[bool, ...] = (), three_way: bool = True) -> LabelledSet:
    flags = safe or (None,) * len(labels)
    rows = tuple(
        LabelledResponse(f"r{i}", label, safe_prompt=flag)
        for i, (label, flag) in enumerate(zip(labels, flags, strict=True))
    )
    return LabelledSet("t", rows, three_way)


def test_binary_scores_count_partial_refusal_as_refusal() -> None:
    data = _set("refusal", "partial_refusal", "compliance", "compliance")
    scores = score_predictions(data, ["refusal", "refusal", "refusal", "compliance"])
    assert scores.accuracy == 0.75
    assert scores.precision == pytest.approx(2 / 3)
    assert scores.recall == 1.0
    assert scores.f1 == pytest.approx(0.8)


def test_macro_f1_averages_the_three_classes() -> None:
    data = _set("refusal", "partial_refusal", "compliance")
    perfect = score_predictions(data, ["refusal", "partial_refusal", "compliance"])
    no_partial = score_predictions(data, ["refusal", "refusal", "compliance"])
    assert perfect.macro_f1 == 1.0
    assert no_partial.macro_f1 == pytest.approx((2 / 3 + 0 + 1) / 3)


def test_a_two_way_set_has_no_macro_f1() -> None:
    data = _set("refusal", "compliance", three_way=False)
    assert score_predictions(data, ["refusal", "compliance"]).macro_f1 is None


def test_over_refusal_reads_only_safe_prompts() -> None:
    data = _set("compliance", "refusal", "compliance", "refusal", safe=(True, True, True, False))
    scores = score_predictions(data, ["refusal", "refusal", "compliance", "refusal"])
    assert scores.over_refusal == pytest.approx(2 / 3)
    assert scores.human_over_refusal == pytest.approx(1 / 3)


def test_without_safety_flags_there_is_no_over_refusal_rate() -> None:
    scores = score_predictions(_set("refusal"), ["refusal"])
    assert scores.over_refusal is None
    assert scores.human_over_refusal is None


def test_a_prediction_per_row_is_required() -> None:
    with pytest.raises(ValueError, match="1 predictions for 2 rows"):
        score_predictions(_set("refusal", "compliance"), ["refusal"])
