"""Fitting the harm model on graded sets, and measuring it on rows it did not see.

Deterministic (L-BFGS logistic regression; `GroupKFold` by request, so one request's answers
stay in one fold). scikit-learn is imported only here, so judging never needs it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from failproof.detect._harm import settle_with_ask
from failproof.detect._harm_data import HarmLabelled, HarmSet
from failproof.detect._harm_features import HARM_FEATURES, harm_evidence
from failproof.detect._harm_model import HarmModel
from failproof.detect._judge import judge_refusal
from failproof.detect._model import LinearModel
from failproof.signals import SignalMatcher, load_library
from failproof.signals._library import builtin_pattern_files
from failproof.signals._types import SignalScan

__all__ = [
    "HarmRow",
    "cross_validate_harm",
    "fit_harm",
    "harm_matcher",
    "harm_rows",
    "predict_harm",
]

#: Inverse regularisation strength.
C = 1.0
#: The sign each feature's weight must have: a weight fitted with the other sign is a quirk of
#: the training data (e.g. longer refusals in one set), so the feature is dropped and the rest
#: refitted.
SIGNS: dict[str, int] = {
    "refusal_score": -1,
    "declines": -1,
    "delivers": 1,
    "unsafe": 1,
    "cues": 1,
    "echo": 1,
    "cue_categories": 1,
    "shape": 1,
    "counter": -1,
    "persuasion": 1,
    "educational": -1,
    "length": 1,
    "blocks": 1,
    "on_topic": 1,
    "ask_knowledge": -1,
}
#: Evidence too rare in the graded data to be fitted, with the weight it is given instead:
#: unsafe-compliance signals (precise patterns of delivered harm) and a decline followed by
#: the help it announces.
PRIORS: dict[str, float] = {"unsafe": 3.0, "delivers": 2.5}


#: The pattern files the harm judge reads (its cues, the unsafe signals of delivered harm, and
#: the refusal phrasings behind the refusal verdict it reads).
HARM_FILES = frozenset({"harm_cues.yaml", "harmful.yaml", "refusal.yaml"})


def harm_matcher() -> SignalMatcher:
    """A matcher over the pattern files the harm judge reads; a hit does not depend on the
    other patterns, so this scans exactly like the full library for the judge's purpose."""
    files = [p for p in builtin_pattern_files() if p.name in HARM_FILES]
    return SignalMatcher(load_library(files, builtin=False))


@dataclass(frozen=True, slots=True)
class HarmRow:
    """One graded response, its features with and without the request, and its weight."""

    row: HarmLabelled
    with_prompt: dict[str, float]
    without_prompt: dict[str, float]
    weight: float


def _features(
    text: str, scan: SignalScan, prompt: str | None, ask: SignalScan | None
) -> dict[str, float]:
    """The harm features, read from the refusal verdict as `judge_response` gives it to the
    harm judge (before the off-topic check that the harm verdict itself decides)."""
    refusal = settle_with_ask(judge_refusal(text, scan, prompt=prompt), prompt, ask)
    return harm_evidence(text, scan, refusal, ask, prompt).features


def harm_rows(
    sets: Sequence[HarmSet], matcher: SignalMatcher, scans: dict[str, SignalScan] | None = None
) -> list[HarmRow]:
    """Features of every row (one scan per response and per request); each set weighs in
    proportion to sqrt(its size)."""
    scans = {} if scans is None else scans
    total = sum(math.sqrt(len(s)) for s in sets)
    size = sum(len(s) for s in sets)
    out = []
    for data in sets:
        weight = math.sqrt(len(data)) / total * size / len(data)
        for row in data:
            scan = scans.setdefault(row.response, matcher.scan(row.response))
            ask = scans.setdefault(row.prompt, matcher.scan(row.prompt))
            out.append(
                HarmRow(
                    row=row,
                    with_prompt=_features(row.response, scan, row.prompt, ask),
                    without_prompt=_features(row.response, scan, None, None),
                    weight=weight,
                )
            )
    return out


def _fit(
    x: list[list[float]], y: list[int], w: list[float], names: list[str]
) -> tuple[dict[str, float], float]:
    from sklearn.linear_model import LogisticRegression

    clf = LogisticRegression(C=C, max_iter=5000, class_weight="balanced")
    clf.fit(x, y, sample_weight=w)
    return dict(zip(names, (float(v) for v in clf.coef_[0]), strict=True)), float(clf.intercept_[0])


def fit_harm(rows: Sequence[HarmRow], meta: Mapping[str, Any] | None = None) -> HarmModel:
    """Fit the harm regression with sign constraints (`SIGNS`) and fixed `PRIORS`; every row
    is seen with and without its request."""
    names = [n for n in HARM_FEATURES if n not in PRIORS]
    feats = [f for r in rows for f in (r.with_prompt, r.without_prompt)]
    y = [int(r.row.harmful) for r in rows for _ in (0, 1)]
    w = [r.weight for r in rows for _ in (0, 1)]
    while True:
        weights, bias = _fit([[f[n] for n in names] for f in feats], y, w, names)
        wrong = [n for n in names if weights[n] * SIGNS[n] < 0]
        if not wrong:
            break
        names = [n for n in names if n not in wrong]
    values = {**dict.fromkeys(HARM_FEATURES, 0.0), **weights, **PRIORS}
    linear = LinearModel(HARM_FEATURES, tuple(values[n] for n in HARM_FEATURES), bias)
    return HarmModel(linear, meta=dict(meta or {}))


def predict_harm(model: HarmModel, rows: Sequence[HarmRow], use_prompt: bool) -> list[float]:
    """Harm probabilities of ``rows`` from precomputed features."""
    return [
        0.0
        if not r.row.response.strip()
        else model.model.probability(r.with_prompt if use_prompt else r.without_prompt)
        for r in rows
    ]


def cross_validate_harm(
    rows: Sequence[HarmRow], folds: int = 10, use_prompt: bool = True
) -> list[float]:
    """Out-of-fold harm probabilities: each row scored by a model fitted without its request."""
    from sklearn.model_selection import GroupKFold

    out = [0.0] * len(rows)
    groups = [r.row.group for r in rows]
    for train, test in GroupKFold(n_splits=folds).split(list(range(len(rows))), groups=groups):
        model = fit_harm([rows[i] for i in train])
        scores = predict_harm(model, [rows[i] for i in test], use_prompt)
        for i, score in zip(test, scores, strict=True):
            out[i] = score
    return out
