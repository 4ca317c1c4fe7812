"""The judges' fast paths give exactly what the general computations give (property tests)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from failproof.detect._features import _decline_features, _no_decline_features
from failproof.detect._harm import _NOTABLE, notable
from failproof.detect._harm_features import (
    HARM_PREFIX,
    UNSAFE_HARM_PREFIX,
    _answer_hits,
    _log_scale,
    _scaled,
    _weight,
)
from failproof.detect._model import LinearModel
from failproof.detect._profile import profile_text
from failproof.signals import SignalHit, SignalScan

_weights = st.floats(min_value=0.01, max_value=10, allow_nan=False)
_hits = st.builds(
    lambda kind, name, register, weight, start, length: SignalHit(
        f"{kind}{name}", name, "cue", weight, (), start, start + length, "anywhere", register
    ),
    st.sampled_from(["harm.", "unsafe.harm.", "unsafe.secret.", "refusal.", "harmx."]),
    st.sampled_from(["cyber.a", "drugs.b", "shape.c", "ask.knowledge"]),
    st.sampled_from([None, "cyber", "drugs", "shape", "counter", "redirection", "apology"]),
    _weights,
    st.integers(0, 300),
    st.integers(1, 40),
)


@settings(max_examples=150, deadline=None)
@given(text=st.text(alphabet="ab .\n-1", max_size=300), hits=st.lists(_hits, max_size=6))
def test_features_without_a_decline_are_the_general_ones(text: str, hits: list[SignalHit]) -> None:
    profile = profile_text(text)
    for opening in (0, 200):
        assert _no_decline_features(hits) == _decline_features(profile, [], hits, opening)


@settings(max_examples=150, deadline=None)
@given(hits=st.lists(_hits, max_size=8))
def test_the_answers_harm_hits_are_read_in_one_pass(hits: list[SignalHit]) -> None:
    scan = SignalScan(400, tuple(hits))
    cues, unsafe = _answer_hits(scan)
    expected: dict[str, list[SignalHit]] = {}
    for hit in hits:
        if hit.id.startswith(HARM_PREFIX) and hit.register is not None:
            expected.setdefault(hit.register, []).append(hit)
    assert cues == expected
    assert list(cues) == list(expected)
    assert unsafe == [h for h in hits if h.id.startswith(UNSAFE_HARM_PREFIX)]
    for full in (2, 6):
        for register in ("shape", "none"):
            got = cues.get(register)
            assert _scaled(got, full) == _log_scale(_weight(got or []), full)


_shares = st.dictionaries(
    st.sampled_from("abcdefghijklmn"),
    st.one_of(st.floats(-3, 3), st.sampled_from([_NOTABLE, -_NOTABLE, 0.0, -0.0, 1.0])),
    max_size=14,
)


@settings(max_examples=150, deadline=None)
@given(shares=_shares)
def test_notable_contributions_rank_as_ranking_them_all(shares: dict[str, float]) -> None:
    ranked = sorted(shares.items(), key=lambda kv: -kv[1])
    up = [f for f, v in ranked if v > _NOTABLE][:3]
    down = [f for f, v in reversed(ranked) if v < -_NOTABLE][:2]
    assert notable(shares) == (up, down)


_finite = st.floats(-50, 50, allow_nan=False)


@settings(max_examples=150, deadline=None)
@given(weights=st.lists(_finite, min_size=1, max_size=14), bias=_finite, data=st.data())
def test_a_linear_model_sums_its_terms_in_order(
    weights: list[float], bias: float, data: st.DataObject
) -> None:
    names = tuple(f"f{i}" for i in range(len(weights)))
    values = {n: data.draw(_finite) for n in names}
    model = LinearModel(names, tuple(weights), bias)
    expected = bias + sum(w * values[f] for f, w in zip(names, weights, strict=True))
    assert model.logit(values) == expected
    assert model.contributions(values) == {
        f: w * values[f] for f, w in zip(names, weights, strict=True)
    }
    assert list(model.contributions(values)) == list(names)
    assert not math.isnan(model.probability(values))


def test_a_linear_model_needs_one_weight_per_feature() -> None:
    with pytest.raises(ValueError, match="1 weights for 2 features"):
        LinearModel(("a", "b"), (1.0,), 0.0)
