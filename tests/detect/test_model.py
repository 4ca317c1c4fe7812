"""The shipped refusal model: small, readable JSON, trained on the current patterns."""

from __future__ import annotations

import json
import math
from importlib import resources
from pathlib import Path

import pytest

from failproof.detect._features import PARTIAL_FEATURES, REFUSAL_FEATURES
from failproof.detect._model import LinearModel, default_model, load_model
from failproof.detect._train import refusal_matcher
from failproof.errors import InputError

MODEL_FILE = resources.files("failproof.detect").joinpath("data/refusal_model.json")


def test_the_model_ships_as_kilobytes_of_json() -> None:
    assert len(MODEL_FILE.read_bytes()) < 8_000
    model = default_model()
    assert model.refusal.features == REFUSAL_FEATURES
    assert model.partial.features == PARTIAL_FEATURES


def test_the_model_was_trained_on_the_current_refusal_patterns() -> None:
    # Editing refusal.yaml changes what the features mean: retrain with scripts/train_refusal.py.
    assert default_model().meta["patterns"] == refusal_matcher().library.digest


def test_a_refusal_phrase_raises_the_refusal_probability() -> None:
    model = default_model().refusal
    none = dict.fromkeys(REFUSAL_FEATURES, 0.0)
    strong = none | {"decline_strength": 1.0, "decline_strong": 1.0, "opening_decline": 1.0}
    assert model.probability(none) < 0.5 < model.probability(strong)


def test_probability_is_the_logistic_of_the_logit() -> None:
    model = LinearModel(("a", "b"), (2.0, -1.0), 0.5)
    values = {"a": 1.0, "b": 3.0}
    assert model.logit(values) == pytest.approx(-0.5)
    assert model.probability(values) == pytest.approx(1 / (1 + math.exp(0.5)))
    assert model.contributions(values) == {"a": 2.0, "b": -3.0}


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        pytest.param(lambda d: d.update(format="other/1"), "not a failproof", id="wrong-format"),
        pytest.param(
            lambda d: d["refusal"].update(features=["x"]), "do not match", id="other-features"
        ),
        pytest.param(
            lambda d: d["partial"].update(weights=[1.0]), "weights for", id="weights-count"
        ),
    ],
)
def test_a_model_file_that_does_not_fit_is_refused(
    tmp_path: Path, edit: object, message: str
) -> None:
    data = json.loads(MODEL_FILE.read_text())
    edit(data)  # type: ignore[operator]
    path = tmp_path / "model.json"
    path.write_text(json.dumps(data))
    with pytest.raises(InputError, match=message):
        load_model(path)


def test_a_model_file_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "model.json"
    path.write_text(json.dumps(default_model().to_json()))
    assert load_model(path).refusal == default_model().refusal
