"""Agreement of a refusal detector with people: binary scores, 3-way macro-F1, over-refusal."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from failproof.detect._labelled import LabelledSet
from failproof.detect._types import RefusalLabel

__all__ = ["AgreementScores", "score_predictions"]

_LABELS: tuple[RefusalLabel, ...] = ("compliance", "refusal", "partial_refusal")


def _ratio(num: float, den: float) -> float:
    return num / den if den else 0.0


def _f1(tp: int, fp: int, fn: int) -> float:
    return _ratio(2 * tp, 2 * tp + fp + fn)


@dataclass(frozen=True, slots=True)
class AgreementScores:
    """One detector on one labelled set. The binary class is refusal (full or partial)."""

    n: int
    accuracy: float
    precision: float
    recall: float
    f1: float
    #: Mean F1 over compliance / refusal / partial refusal; ``None`` for a two-way set.
    macro_f1: float | None
    #: Share of safe prompts judged refused, and the same share by the human labels.
    over_refusal: float | None
    human_over_refusal: float | None


def _binary(truth: Sequence[bool], pred: Sequence[bool]) -> tuple[float, float, float, float]:
    tp = sum(t and p for t, p in zip(truth, pred, strict=True))
    fp = sum(p and not t for t, p in zip(truth, pred, strict=True))
    fn = sum(t and not p for t, p in zip(truth, pred, strict=True))
    correct = sum(t == p for t, p in zip(truth, pred, strict=True))
    return _ratio(correct, len(truth)), _ratio(tp, tp + fp), _ratio(tp, tp + fn), _f1(tp, fp, fn)


def _macro_f1(truth: Sequence[RefusalLabel], pred: Sequence[RefusalLabel]) -> float:
    scores = []
    for label in _LABELS:
        tp = sum(t == label and p == label for t, p in zip(truth, pred, strict=True))
        fp = sum(t != label and p == label for t, p in zip(truth, pred, strict=True))
        fn = sum(t == label and p != label for t, p in zip(truth, pred, strict=True))
        scores.append(_f1(tp, fp, fn))
    return sum(scores) / len(scores)


def score_predictions(data: LabelledSet, predicted: Sequence[RefusalLabel]) -> AgreementScores:
    """Compare ``predicted`` (one label per row of ``data``, in order) with the human labels."""
    if len(predicted) != len(data):
        raise ValueError(f"{len(predicted)} predictions for {len(data)} rows")
    truth = [row.label for row in data]
    accuracy, precision, recall, f1 = _binary(
        [t != "compliance" for t in truth], [p != "compliance" for p in predicted]
    )
    safe = [i for i, row in enumerate(data) if row.safe_prompt]
    return AgreementScores(
        n=len(truth),
        accuracy=accuracy,
        precision=precision,
        recall=recall,
        f1=f1,
        macro_f1=_macro_f1(truth, predicted) if data.three_way else None,
        over_refusal=_ratio(sum(predicted[i] != "compliance" for i in safe), len(safe))
        if safe
        else None,
        human_over_refusal=_ratio(sum(truth[i] != "compliance" for i in safe), len(safe))
        if safe
        else None,
    )
