"""The learned part of the refusal decision: two logistic regressions, shipped as JSON weights."""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from operator import mul
from pathlib import Path
from typing import Any

from failproof.detect._features import PARTIAL_FEATURES, REFUSAL_FEATURES
from failproof.detect._types import RefusalLabel
from failproof.errors import InputError
from failproof.guard._json import JsonObject

__all__ = [
    "MODEL_FORMAT",
    "LinearModel",
    "RefusalModel",
    "default_model",
    "load_model",
    "packaged_json",
    "parse_linear",
    "read_model_json",
    "save_or_check",
]

#: The ``format`` tag of a refusal-model file; bumped when the feature set changes.
MODEL_FORMAT = "failproof.refusal-model/2"


@dataclass(frozen=True, slots=True)
class LinearModel:
    """``sigmoid(bias + sum(weight * feature))``, compared with ``threshold``."""

    features: tuple[str, ...]
    weights: tuple[float, ...]
    bias: float
    threshold: float = 0.5

    def __post_init__(self) -> None:
        if len(self.weights) != len(self.features):
            raise ValueError(f"{len(self.weights)} weights for {len(self.features)} features")

    def logit(self, values: Mapping[str, float]) -> float:
        # The products summed left to right, as a generator of ``w * values[f]`` would: the
        # same float, iterated at C speed.
        total: float = self.bias + sum(
            map(mul, self.weights, map(values.__getitem__, self.features))
        )
        return total

    def probability(self, values: Mapping[str, float]) -> float:
        z = self.logit(values)
        return 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))

    def contributions(self, values: Mapping[str, float]) -> dict[str, float]:
        """Each feature's share of the logit (weight x value), for explanations."""
        products = map(mul, self.weights, map(values.__getitem__, self.features))
        return dict(zip(self.features, products, strict=True))

    def to_json(self) -> JsonObject:
        return {
            "features": list(self.features),
            "weights": [round(w, 6) for w in self.weights],
            "bias": round(self.bias, 6),
            "threshold": self.threshold,
        }


@dataclass(frozen=True, slots=True)
class RefusalModel:
    """Stage one: refused or not. Stage two, for refusals: partial (help follows) or full."""

    refusal: LinearModel
    partial: LinearModel
    meta: dict[str, Any] = field(default_factory=dict)

    def decide(
        self, features: Mapping[str, float], blend: Callable[[float], float] | None = None
    ) -> tuple[RefusalLabel, float]:
        """The label and the refusal probability of one response's features.

        ``blend``, when given, turns the model's probability into the ensemble's (the semantic
        member). A partial refusal needs a refusal phrase to be partial about: an answer judged a
        refusal without one (an off-topic deflection) is a full refusal.
        """
        score = self.refusal.probability(features)
        score = blend(score) if blend is not None else score
        if score < self.refusal.threshold:
            return "compliance", score
        has_phrase = features["decline_strength"] > 0
        if has_phrase and self.partial.probability(features) >= self.partial.threshold:
            return "partial_refusal", score
        return "refusal", score

    def to_json(self) -> JsonObject:
        return {
            "format": MODEL_FORMAT,
            "refusal": self.refusal.to_json(),
            "partial": self.partial.to_json(),
            "meta": self.meta,
        }


def parse_linear(data: Any, expected: tuple[str, ...], where: str) -> LinearModel:
    """A `LinearModel` from its JSON form, its features checked against ``expected``."""
    if not isinstance(data, dict):
        raise InputError(f"{where}: expected an object with features, weights and bias")
    features = tuple(data.get("features", ()))
    if features != expected:
        raise InputError(
            f"{where}: features {list(features)} do not match this version's {list(expected)}",
            hint="retrain with the script in scripts/ that wrote it",
        )
    weights = tuple(float(w) for w in data.get("weights", ()))
    if len(weights) != len(features):
        raise InputError(f"{where}: {len(weights)} weights for {len(features)} features")
    return LinearModel(features, weights, float(data["bias"]), float(data.get("threshold", 0.5)))


def parse_model(data: Any, where: str = "refusal model") -> RefusalModel:
    """A `RefusalModel` from its JSON form; `InputError` if it does not fit this version."""
    if not isinstance(data, dict) or data.get("format") != MODEL_FORMAT:
        raise InputError(f"{where}: not a {MODEL_FORMAT} file")
    return RefusalModel(
        refusal=parse_linear(data.get("refusal"), REFUSAL_FEATURES, f"{where}: refusal"),
        partial=parse_linear(data.get("partial"), PARTIAL_FEATURES, f"{where}: partial"),
        meta=dict(data.get("meta") or {}),
    )


def read_model_json(path: str | Path, what: str) -> Any:
    """The JSON of a model file; `InputError` naming ``what`` when it cannot be read."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(f"{path}: cannot read {what}: {exc}") from None


def packaged_json(name: str) -> Any:
    """The JSON of a model file shipped in ``failproof/detect/data/``."""
    return json.loads(resources.files("failproof.detect").joinpath(f"data/{name}").read_text())


def load_model(path: str | Path) -> RefusalModel:
    """Read a refusal model written by ``scripts/train_refusal.py``."""
    return parse_model(read_model_json(path, "refusal model"), str(path))


@functools.cache
def default_model() -> RefusalModel:
    """The model shipped in the package (``failproof/detect/data/refusal_model.json``)."""
    return parse_model(packaged_json("refusal_model.json"), "built-in refusal model")


def save_or_check(model_json: dict[str, Any], output: Path, check: bool, what: str) -> int:
    """Write ``model_json`` to ``output`` (0), or with ``check`` compare it with the file
    there: 0 when identical, 1 when stale. Prints one line either way."""
    text = json.dumps(model_json, indent=2, ensure_ascii=False) + "\n"
    if check:
        same = output.exists() and output.read_text(encoding="utf-8") == text
        print(f"{what} is up to date" if same else f"{what} is stale: retrain")
        return 0 if same else 1
    output.write_text(text, encoding="utf-8")
    print(f"wrote {output} ({len(text)} bytes)")
    return 0
