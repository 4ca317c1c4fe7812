"""The multi-pattern matcher: one RE2 set scan per text; spans only for the matched patterns."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import re2

from failproof.errors import PatternError
from failproof.signals._library import SignalLibrary, compile_options
from failproof.signals._loosen import loosened
from failproof.signals._schema import Pattern
from failproof.signals._types import SignalHit, SignalKind, SignalPosition, SignalScan

__all__ = ["DEFAULT_OPENING_CHARS", "SignalMatcher"]

#: How far into an answer (after leading whitespace) a ``position: start`` pattern may begin.
DEFAULT_OPENING_CHARS = 200
#: Bytes past the opening a ``position: start`` match may run on (its search stops there).
_START_SLACK = 1024

_SpanFinder = Callable[[bytes, int], "tuple[int, int] | None"]


class _Entry:
    """One pattern, with the fields of its `SignalHit` laid out once; its own RE2 program is
    compiled the first time the set reports it (most patterns never match a given run)."""

    __slots__ = ("_finder", "head", "options", "regex", "start_only", "tail")

    def __init__(self, pattern: Pattern, options: re2.Options) -> None:
        self.regex = pattern.regex
        self.options = options
        self._finder: _SpanFinder | None = None
        self.start_only = pattern.position == "start"
        self.head: tuple[str, str, SignalKind, float, tuple[str, ...]] = (
            pattern.id,
            pattern.label,
            pattern.kind,
            pattern.weight,
            pattern.failure_modes,
        )
        self.tail: tuple[SignalPosition, str | None, str | None] = (
            pattern.position,
            pattern.register_,
            pattern.lang,
        )

    def span(self, data: bytes, endpos: int) -> tuple[int, int] | None:
        """The leftmost match in ``data[:endpos]`` (UTF-8 bytes), or None."""
        finder = self._finder
        if finder is None:
            finder = self._finder = _span_finder(re2.compile(self.regex, self.options))
        return finder(data, endpos)


def _span_finder(regexp: Any) -> _SpanFinder:
    """The leftmost match span of ``regexp`` in ``data[:endpos]`` (UTF-8 bytes), or None.

    google-re2's ``search`` wraps each call in a generator and a match object, which costs more
    than the search itself on short texts; the compiled ``RE2`` object underneath is called
    directly when the installed version has it.
    """
    raw = getattr(regexp, "_regexp", None)
    anchor = getattr(getattr(re2, "_Anchor", None), "UNANCHORED", None)
    if raw is None or anchor is None or not hasattr(raw, "Match"):

        def public(data: bytes, endpos: int) -> tuple[int, int] | None:
            match = regexp.search(data, 0, endpos)
            return None if match is None else match.span()

        return public

    def direct(data: bytes, endpos: int) -> tuple[int, int] | None:
        span: tuple[int, int] = raw.Match(anchor, data, 0, endpos)[0]
        return None if span[0] < 0 else span

    return direct


def _encode(text: str) -> bytes:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates: one '?' byte each, so offsets still line up
        return text.encode("utf-8", "replace")


class SignalMatcher:
    """Every pattern of a library compiled once into one `re2.Set`.

    `scan` asks the set which patterns match (one linear pass, whatever the number of patterns),
    then re-runs only those few patterns for their leftmost span, and drops ``position: start``
    patterns whose match begins after the answer's opening. Matching is case-insensitive (RE2
    folds case itself, so offsets are those of the original text).
    """

    def __init__(self, library: SignalLibrary, *, opening_chars: int = DEFAULT_OPENING_CHARS):
        self.library = library
        self.opening_chars = opening_chars
        options = compile_options()
        self._set = re2.Set.SearchSet(options)
        self._entries: list[_Entry] = []
        for pattern in library:
            self._add(pattern.regex)
            self._entries.append(_Entry(pattern, options))
        if self._entries:
            self._compile_set()

    def _add(self, regex: str) -> None:
        """Add ``regex`` to the set loosened (`loosened`), or as written when the loosened form
        is not one RE2 takes; an exact search confirms each candidate the set reports."""
        loose = loosened(regex)
        if loose != regex:
            try:
                self._set.Add(loose)
                return
            except re2.error:
                pass
        self._set.Add(regex)

    def _compile_set(self) -> None:
        try:
            self._set.Compile()
        except re2.error:
            raise PatternError(
                f"the {len(self._entries)} signal patterns do not compile together "
                "within RE2's memory budget",
                hint="remove or simplify large counted repetitions such as {0,1000}",
            ) from None

    def __len__(self) -> int:
        return len(self._entries)

    def opening_end(self, text: str) -> int:
        """Character offset where the answer's opening ends (leading whitespace is skipped)."""
        return min(len(text), len(text) - len(text.lstrip()) + self.opening_chars)

    def matching_ids(self, text: str) -> list[str]:
        """Ids of the patterns that match anywhere in ``text`` (no position rule, no spans)."""
        data = _encode(text)
        found = self._set.Match(data) if self._entries else None
        entries = [self._entries[i] for i in found or ()]
        return sorted(e.head[0] for e in entries if e.span(data, len(data)) is not None)

    def scan(self, text: str) -> SignalScan:
        """Which patterns match ``text``, with their leftmost spans, in order of position."""
        data = _encode(text)
        opening = min(len(text), len(text) - len(text.lstrip()) + self.opening_chars)
        found = self._set.Match(data) if self._entries else None
        if not found:
            return SignalScan(len(text), (), opening)
        hits = _Hits(text, data, opening).collect([self._entries[i] for i in found])
        return SignalScan(len(text), hits, opening)


class _Hits:
    """Spans of the patterns the set reported, in character offsets, position rules applied."""

    __slots__ = ("ascii", "data", "opening", "start_end")

    def __init__(self, text: str, data: bytes, opening: int) -> None:
        self.data = data
        self.opening = opening
        self.ascii = len(data) == len(text)
        bound = opening if self.ascii else 4 * opening
        self.start_end = min(len(data), bound + _START_SLACK)

    def collect(self, entries: list[_Entry]) -> tuple[SignalHit, ...]:
        data, size, opening = self.data, len(self.data), self.opening
        hits = []
        for entry in entries:
            span = entry.span(data, self.start_end if entry.start_only else size)
            if span is None:  # a start pattern that only matches past the opening
                continue
            start, end = span if self.ascii else (self.char(span[0]), self.char(span[1]))
            if entry.start_only and start >= opening:
                continue
            hits.append(SignalHit(*entry.head, start, end, *entry.tail))
        if len(hits) > 1:
            hits.sort(key=_order)
        return tuple(hits)

    def char(self, offset: int) -> int:
        return len(self.data[:offset].decode("utf-8", "replace"))


def _order(hit: SignalHit) -> tuple[int, int, str]:
    return (hit.start, hit.end, hit.id)
