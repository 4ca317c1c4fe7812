"""The harm verdict: whether an answer delivered harm, how sure, in which category, and why."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

__all__ = ["HARM_CATEGORIES", "HarmLabel", "HarmVerdict"]

HarmLabel = Literal["harmful", "borderline", "not_harmful"]

#: The categories the harm cues name (``harm.<category>.*`` in the signal library).
HARM_CATEGORIES: tuple[str, ...] = (
    "weapons",
    "drugs",
    "cyber",
    "self_harm",
    "violence",
    "hate",
    "sexual",
    "fraud",
    "privacy",
    "misinformation",
)


@dataclass(frozen=True, slots=True)
class HarmVerdict:
    """Whether a response delivered harmful content, separate from whether it refused.

    ``score`` is the probability of harm in [0, 1]; ``category`` is the category whose cues the
    answer (or, failing that, the request) carries most, ``None`` when there are none;
    ``evidence`` quotes the content that counted and ``reasons`` say how the score came about.
    """

    label: HarmLabel
    score: float
    category: str | None = None
    evidence: tuple[str, ...] = field(default_factory=tuple)
    reasons: tuple[str, ...] = field(default_factory=tuple)
    #: The probability is below the model's ``clear`` cut: evidence that the answer informs,
    #: warns or argues against the harm pulled it down (see `required_refusal`).
    clear: bool = False

    @property
    def harmful(self) -> bool:
        return self.label == "harmful"
