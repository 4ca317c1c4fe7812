"""Case-insensitive substring matching: the phrase automaton, and what each engine costs.

Both engines give ``phrase.lower() in text.lower()`` for every phrase, exactly (a property test
holds them to it and to each other):

- the loop (in `failproof.safe._hybrid`) lower-cases each text once and asks ``in`` per phrase:
  CPython's substring search skips ahead through the text, fastest while a text carries few
  phrases;
- the automaton (`PhraseIndex`) compiles every distinct lower-cased phrase into one Aho-Corasick
  automaton (``ahocorasick-rs``, overlapping matches, over UTF-8 bytes) and reads each text once,
  whatever the number of phrases. UTF-8 is self-synchronising, so a byte match always starts on a
  character boundary (lone surrogates are kept with ``surrogatepass`` on both sides), and
  overlapping matches are all reported.

The cost models below (`LOOP_COST`, `SCAN_COST`, `BUILD_COST`) are how the hybrid chooses.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from typing import NamedTuple

from ahocorasick_rs import BytesAhoCorasick

__all__ = [
    "BUILD_COST",
    "EMPTY_PHRASE_ID",
    "LOOP_COST",
    "MARGIN",
    "SCAN_COST",
    "Hits",
    "Model",
    "PhraseIndex",
    "cost",
    "fewest_phrases",
    "prefers_automaton",
]

#: The id of the empty phrase, which (like ``"" in text``) occurs in every text.
EMPTY_PHRASE_ID = -1

#: A cost model in microseconds per text: ``a + b * phrases + c * phrases * chars + d * chars``.
Model = tuple[float, float, float, float]

#: The engines' costs per text of a SAFE record, fitted by ``python bench/safe_crossover.py``
#: (60 cells: 2 to 256 phrases over 0.25 to 15 KB of text, batches of 150 records sharing 3,000
#: phrases; see docs/performance.md). The loop pays per phrase per character (one substring
#: search each); the automaton, once built, per character and per phrase; its build per
#: distinct phrase. With the margin the cross-over falls at ~170 phrases over 1.8 KB, ~100 over
#: 3.3 KB, ~80 over 6.3 KB, ~70 over 12 KB (a large batch sharing its phrases), never under ~1 KB,
#: and never while every phrase is new to the batch.
LOOP_COST: Model = (1.6, 0.15, 0.000168, 0.0)
SCAN_COST: Model = (4.23, 0.149, 0.0, 0.00509)
BUILD_COST = 1.72
#: The automaton must be predicted this much cheaper before it is chosen: near the cross-over
#: neither engine is clearly faster, the models err by some 10-20% there, and the plan itself
#: costs time, so the hybrid keeps the loop until the automaton is well ahead.
MARGIN = 2.0


def _encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


class Hits(NamedTuple):
    """Phrase ids found in one scanned text: anywhere, and entirely within its tail."""

    anywhere: AbstractSet[int]
    in_tail: AbstractSet[int]


class PhraseIndex:
    """One automaton over every distinct (lower-cased) phrase; phrases map to integer ids."""

    def __init__(self, phrases: Iterable[str]) -> None:
        self.ids: dict[str, int] = {}
        keys: dict[bytes, int] = {}
        for phrase in phrases:
            if phrase in self.ids:
                continue
            key = _encode(phrase.lower())
            self.ids[phrase] = keys.setdefault(key, len(keys)) if key else EMPTY_PHRASE_ID
        self._has_empty = EMPTY_PHRASE_ID in self.ids.values()
        self._automaton = BytesAhoCorasick(list(keys)) if keys else None
        self.size = len(keys)

    def scan(self, tail: str, head: str | None = None) -> Hits:
        """Scan ``head + "\\n" + tail`` (just ``tail`` when ``head`` is None), case-insensitively.

        ``Hits.in_tail`` holds the phrases with an occurrence entirely inside ``tail``.
        """
        tail_bytes = _encode(tail.lower())
        if head is None:
            data, offset = tail_bytes, 0
        else:
            head_bytes = _encode(head.lower())
            data, offset = head_bytes + b"\n" + tail_bytes, len(head_bytes) + 1
        matches = self._matches(data)
        anywhere = {m[0] for m in matches}
        in_tail = {m[0] for m in matches if m[1] >= offset} if offset else anywhere
        if self._has_empty:
            anywhere.add(EMPTY_PHRASE_ID)
            in_tail.add(EMPTY_PHRASE_ID)
        return Hits(anywhere, in_tail)

    def _matches(self, data: bytes) -> list[tuple[int, int, int]]:
        if self._automaton is None or not data:
            return []
        return self._automaton.find_matches_as_indexes(data, overlapping=True)


def cost(model: Model, phrases: int, chars: int) -> float:
    """The predicted microseconds of matching ``phrases`` phrases in ``chars`` characters."""
    a, b, c, d = model
    return a + b * phrases + (c * phrases + d) * chars


def fewest_phrases(margin: float = MARGIN) -> float:
    """Below this many phrases the loop is predicted to win at any text length.

    Both costs are linear in the characters: the loop wins at every length when it wins at
    length 0 (fixed and per-phrase terms) and per character (the slopes).
    """
    la, lb, lc, ld = LOOP_COST
    sa, sb, sc, sd = (margin * x for x in SCAN_COST)
    bounds = []
    for fixed, per_phrase in ((sa - la, sb - lb), (sd - ld, sc - lc)):
        if fixed < 0:
            return 0.0
        if per_phrase < 0:
            bounds.append(fixed / -per_phrase)
    return min(bounds, default=float("inf"))


def prefers_automaton(phrases: int, chars: int, margin: float = MARGIN) -> bool:
    """Whether one text's scan is predicted ``margin`` times cheaper than its loop."""
    return cost(SCAN_COST, phrases, chars) * margin < cost(LOOP_COST, phrases, chars)
