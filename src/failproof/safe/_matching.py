"""Case-insensitive substring matching of many phrases at once.

Every distinct phrase of a batch is lower-cased and compiled into one Aho-Corasick automaton
(``ahocorasick-rs``, overlapping matches, over UTF-8 bytes); each text is lower-cased and scanned
once. The result equals ``phrase.lower() in text.lower()`` for every phrase, exactly: UTF-8 is
self-synchronising, so a byte match always starts on a character boundary (lone surrogates are
kept with ``surrogatepass`` on both sides), and overlapping matches are all reported.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from typing import NamedTuple

from ahocorasick_rs import BytesAhoCorasick

__all__ = ["EMPTY_PHRASE_ID", "Hits", "PhraseIndex"]

#: The id of the empty phrase, which (like ``"" in text``) occurs in every text.
EMPTY_PHRASE_ID = -1


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
