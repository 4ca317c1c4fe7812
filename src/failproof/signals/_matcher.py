"""The multi-pattern matcher: one RE2 set scan per text, spans only for the patterns that matched."""

from __future__ import annotations

from dataclasses import dataclass

import re2

from failproof.signals._library import SignalLibrary, compile_options
from failproof.signals._schema import Pattern
from failproof.signals._types import SignalHit, SignalScan

__all__ = ["DEFAULT_OPENING_CHARS", "SignalMatcher"]

#: How far into an answer (after leading whitespace) a ``position: start`` pattern may begin.
DEFAULT_OPENING_CHARS = 200


@dataclass(frozen=True, slots=True)
class _Entry:
    pattern: Pattern
    regexp: re2._Regexp
    failure_modes: tuple[str, ...]


class _Text:
    """A text encoded once as UTF-8, with byte-to-character offset conversion."""

    __slots__ = ("ascii", "data", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        try:
            self.data = text.encode("utf-8")
        except UnicodeEncodeError:  # lone surrogates: one '?' byte each, so offsets still line up
            self.data = text.encode("utf-8", "replace")
        self.ascii = len(self.data) == len(text)

    def char(self, offset: int) -> int:
        if self.ascii:
            return offset
        return len(self.data[:offset].decode("utf-8", "replace"))


class SignalMatcher:
    """Every pattern of a library compiled once into one `re2.Set`.

    `scan` asks the set which patterns match (one linear pass, whatever the number of patterns),
    then re-runs only those few patterns for their leftmost span, and drops ``position: start``
    patterns whose match begins after the answer's opening.
    """

    def __init__(self, library: SignalLibrary, *, opening_chars: int = DEFAULT_OPENING_CHARS):
        self.library = library
        self.opening_chars = opening_chars
        options = compile_options()
        self._set = re2.Set.SearchSet(options)
        self._entries: list[_Entry] = []
        for pattern in library:
            self._set.Add(pattern.regex)
            regexp = re2.compile(pattern.regex, options)
            self._entries.append(_Entry(pattern, regexp, tuple(pattern.failure_modes)))
        if self._entries:
            self._set.Compile()

    def __len__(self) -> int:
        return len(self._entries)

    def opening_end(self, text: str) -> int:
        """Character offset where the answer's opening ends (leading whitespace is skipped)."""
        lead = len(text) - len(text.lstrip())
        return min(len(text), lead + self.opening_chars)

    def matching_ids(self, text: str) -> list[str]:
        """Ids of the patterns that match anywhere in ``text`` (no position rule, no spans)."""
        found = self._set.Match(_Text(text).data) if self._entries else None
        return sorted(self._entries[i].pattern.id for i in found or ())

    def scan(self, text: str) -> SignalScan:
        """Which patterns match ``text``, with their leftmost spans, in order of position."""
        encoded = _Text(text)
        opening = self.opening_end(text)
        found = self._set.Match(encoded.data) if self._entries else None
        if not found:
            return SignalScan(len(text), (), opening)
        hits = [hit for i in found if (hit := self._hit(self._entries[i], encoded, opening))]
        hits.sort(key=lambda h: (h.start, h.end, h.id))
        return SignalScan(len(text), tuple(hits), opening)

    @staticmethod
    def _hit(entry: _Entry, encoded: _Text, opening: int) -> SignalHit | None:
        match = entry.regexp.search(encoded.data)
        if match is None:  # cannot happen for a pattern the set reported; be safe anyway
            return None
        start, end = (encoded.char(offset) for offset in match.span())
        pattern = entry.pattern
        if pattern.position == "start" and start >= opening:
            return None
        return SignalHit(
            id=pattern.id,
            label=pattern.label,
            kind=pattern.kind,
            weight=pattern.weight,
            failure_modes=entry.failure_modes,
            start=start,
            end=end,
            position=pattern.position,
            register=pattern.register_,
            lang=pattern.lang,
        )
