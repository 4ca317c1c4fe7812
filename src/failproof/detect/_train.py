"""Fitting the refusal model on labelled sets, and measuring it on rows it did not see.

Deterministic: scikit-learn's L-BFGS logistic regression has no randomness, and the folds are
`GroupKFold` over each row's group (one prompt's answers stay in one fold). scikit-learn is
imported only here, so judging responses never needs it.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from failproof.detect._features import PARTIAL_FEATURES, REFUSAL_FEATURES, gather_evidence
from failproof.detect._harm_features import harmful_ask, rebuttal_refuses
from failproof.detect._judge import settle, settle_ask
from failproof.detect._labelled import LabelledResponse, LabelledSet
from failproof.detect._model import LinearModel, RefusalModel
from failproof.detect._semantic import SemanticHelp
from failproof.detect._types import RefusalLabel
from failproof.signals import SignalMatcher, load_library
from failproof.signals._library import builtin_pattern_files
from failproof.signals._types import SignalScan

__all__ = [
    "TrainingRow",
    "cross_validate",
    "fit_model",
    "predict_rows",
    "refusal_matcher",
    "training_rows",
]

#: Inverse regularisation strength of both regressions.
C = 1.0
#: A partial model that never fires, for training data without partial-refusal labels.
_NEVER = -30.0


def refusal_matcher() -> SignalMatcher:
    """A matcher over the built-in ``refusal.yaml`` only.

    The decision reads only ``refusal.*`` hits, and a pattern's hit does not depend on the other
    patterns, so this scans exactly like the full library for the judge's purpose (and faster).
    """
    files = [p for p in builtin_pattern_files() if p.name == "refusal.yaml"]
    return SignalMatcher(load_library(files, builtin=False))


@dataclass(frozen=True, slots=True)
class TrainingRow:
    """One labelled response, its features with and without the prompt, and its weight.

    ``delivered`` (a decline, then the help it turns back to) and ``harmful_ask`` (the request
    carries harm vocabulary) feed the rules applied after the model, as in `judge_response`.
    """

    row: LabelledResponse
    with_prompt: dict[str, float]
    without_prompt: dict[str, float]
    weight: float
    three_way: bool
    delivered: bool = False
    harmful_ask: bool = False
    argued: bool = False
    rebuttal_refuses: bool = False


def training_rows(
    sets: Sequence[LabelledSet],
    matcher: SignalMatcher,
    scans: dict[str, SignalScan] | None = None,
    semantic: SemanticHelp | None = None,
) -> list[TrainingRow]:
    """Features of every row (one scan each). Each set weighs in proportion to sqrt(its size).
    With ``semantic``, the features with the prompt get its topic check."""
    total = sum(math.sqrt(len(s)) for s in sets)
    out = []
    for data in sets:
        weight = math.sqrt(len(data)) / total * sum(len(s) for s in sets) / len(data)
        for row in data:
            scan = scans[row.response] if scans is not None else matcher.scan(row.response)
            ask = matcher.scan(row.prompt) if row.prompt else None
            evidence = gather_evidence(row.response, scan, row.prompt)
            features = evidence.features
            if semantic is not None:
                features = semantic.features(features, row.response, row.prompt)
            out.append(
                TrainingRow(
                    row=row,
                    with_prompt=features,
                    without_prompt=gather_evidence(row.response, scan, None).features,
                    weight=weight,
                    three_way=data.three_way,
                    delivered=bool(evidence.deliveries),
                    argued=evidence.argued,
                    harmful_ask=harmful_ask(ask) if ask is not None else False,
                    rebuttal_refuses=rebuttal_refuses(row.prompt, ask),
                )
            )
    return out


def _fit_linear(
    x: list[list[float]], y: list[int], w: list[float], names: tuple[str, ...], balanced: bool
) -> LinearModel:
    from sklearn.linear_model import LogisticRegression

    if len(set(y)) < 2:
        return LinearModel(names, tuple(0.0 for _ in names), _NEVER)
    clf = LogisticRegression(C=C, max_iter=5000, class_weight="balanced" if balanced else None)
    clf.fit(x, y, sample_weight=w)
    weights = tuple(float(v) for v in clf.coef_[0])
    return LinearModel(names, weights, float(clf.intercept_[0]))


def fit_model(rows: Sequence[TrainingRow], meta: Mapping[str, Any] | None = None) -> RefusalModel:
    """Fit both stages. Every row is seen twice, with and without its prompt, so the model
    works whether or not the caller knows the prompt."""
    x, y, w = [], [], []
    px, py, pw = [], [], []
    for r in rows:
        for feats in (r.with_prompt, r.without_prompt):
            x.append([feats[n] for n in REFUSAL_FEATURES])
            y.append(int(r.row.label != "compliance"))
            w.append(r.weight)
            if r.three_way and r.row.label != "compliance":
                px.append([feats[n] for n in PARTIAL_FEATURES])
                py.append(int(r.row.label == "partial_refusal"))
                pw.append(1.0)
    return RefusalModel(
        refusal=_fit_linear(x, y, w, REFUSAL_FEATURES, balanced=False),
        partial=_fit_linear(px, py, pw, PARTIAL_FEATURES, balanced=True),
        meta=dict(meta or {}),
    )


def _predict(
    model: RefusalModel, row: TrainingRow, use_prompt: bool, semantic: SemanticHelp | None
) -> RefusalLabel:
    if not row.row.response.strip():
        return "refusal"
    feats = row.with_prompt if use_prompt else row.without_prompt
    blend = functools.partial(semantic.blend, text=row.row.response) if semantic else None
    label, delivers, off_topic_only = settle(model.decide(feats, blend)[0], feats, row.delivered)
    if not use_prompt:
        return label
    label = settle_ask(label, row.argued, delivers, row.rebuttal_refuses)[0]
    return "compliance" if off_topic_only and row.harmful_ask else label


def predict_rows(
    model: RefusalModel,
    rows: Sequence[TrainingRow],
    use_prompt: bool,
    semantic: SemanticHelp | None = None,
) -> list[RefusalLabel]:
    """Labels for ``rows`` from precomputed features: the decision of `judge_response`, with
    the rules after the model, except the harm verdict's own veto of an off-topic refusal."""
    return [_predict(model, r, use_prompt, semantic) for r in rows]


def cross_validate(
    rows: Sequence[TrainingRow],
    folds: int = 10,
    use_prompt: bool = True,
    semantic: SemanticHelp | None = None,
) -> list[RefusalLabel]:
    """Out-of-fold labels: each row judged by a model fitted without its group."""
    from sklearn.model_selection import GroupKFold

    groups = [r.row.group for r in rows]
    out: list[RefusalLabel] = ["compliance"] * len(rows)
    for train, test in GroupKFold(n_splits=folds).split(list(range(len(rows))), groups=groups):
        model = fit_model([rows[i] for i in train])
        for i, label in zip(
            test, predict_rows(model, [rows[i] for i in test], use_prompt, semantic), strict=True
        ):
            out[i] = label
    return out
