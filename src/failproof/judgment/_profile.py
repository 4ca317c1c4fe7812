"""The shape of a response, read in one linear pass: lists, code, sentences, quotes, words."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass

__all__ = ["TextProfile", "content_stems", "profile_text"]

# One tokenizer, one left-to-right pass. Each alternative is a fixed, non-nested shape, so the
# scan is linear in the text; the order matters only at a line start (list item before word).
_SHAPES = r"""
    (?P<item>^[ \t]*(?:[-*•+]|\d{1,3}[.)])[ \t])     # a list item or numbered step
    |(?P<fence>^[ \t]*```)                         # a code fence
    |(?P<nl>\n)
    |(?P<quote>["“”„«»])                          # double quotes (dialogue, citations)
    |(?P<stop>[.!?。！？](?=\s|$))                   # a sentence end
"""
_WORD = r"|(?P<word>[^\W\d_]+(?:['’][^\W\d_]+)?)"
_TOKEN = re.compile(_SHAPES + _WORD, re.MULTILINE | re.VERBOSE)
#: The same pass without words, when no prompt asks what the answer is about.
_SHAPE_ONLY = re.compile(_SHAPES, re.MULTILINE | re.VERBOSE)

#: Words too common to say what a text is about (English; other languages keep all words).
_STOPWORDS = frozenset(
    """
    a about above after again against all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further
    had has have having he her here hers him his how i if in into is it its itself just me more
    most my no nor not now of off on once only or other our out over own same she should so some
    such than that the their them then there these they this those through to too under until up
    very was we were what when where which while who whom why will with would you your yours
    tell give write make explain describe please want need know get like also one way ways
    help simple short brief quick detailed example examples list step steps guide tips best
    good easiest concept idea ideas thing things summarize summary create generate
    provide offer recommend suggest instruct
    """.split()  # noqa: SIM905  (a word list reads best as text)
)
_SUFFIXES = ("ing", "ies", "ied", "es", "ed", "ly", "s")
_STEM_CHARS = 4


def _stem(word: str) -> str:
    """A crude, deterministic stem: drop one common English suffix, keep the first few letters."""
    for suffix in _SUFFIXES:
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            word = word[: -len(suffix)]
            break
    return word[:_STEM_CHARS]


def _content_stem(word: str) -> str | None:
    lowered = word.lower().replace("’", "'").removesuffix("'s")
    if len(lowered) < 3 or lowered in _STOPWORDS:
        return None
    return _stem(lowered)


def _stems_of(words: set[str]) -> frozenset[str]:
    stems = (_content_stem(word) for word in words)
    return frozenset(s for s in stems if s)


def content_stems(text: str) -> frozenset[str]:
    """The content-word stems of ``text`` (what it is about), e.g. for a prompt."""
    return _stems_of({m.group() for m in _TOKEN.finditer(text) if m.lastgroup == "word"})


@dataclass(frozen=True, slots=True)
class TextProfile:
    """Offsets of the structural tokens of one text (all character offsets, ascending)."""

    length: int
    lead: int
    items: tuple[int, ...]
    fences: tuple[int, ...]
    sentence_ends: tuple[int, ...]
    quote_spans: tuple[tuple[int, int], ...]
    stems: frozenset[str]

    def blocks_between(self, start: int, end: int) -> int:
        """List items and code fences that begin in [start, end)."""
        return _count(self.items, start, end) + _count(self.fences, start, end)

    def sentence_end_after(self, offset: int) -> int:
        """Where the sentence holding ``offset`` ends (the text's end if it never does)."""
        i = bisect_left(self.sentence_ends, offset)
        return self.sentence_ends[i] + 1 if i < len(self.sentence_ends) else self.length

    def quoted(self, start: int, end: int) -> bool:
        """Whether [start, end) lies inside a double-quoted span."""
        i = bisect_right(self.quote_spans, (start, self.length + 1)) - 1
        return i >= 0 and self.quote_spans[i][0] < start and end <= self.quote_spans[i][1]


def _count(offsets: tuple[int, ...], start: int, end: int) -> int:
    return bisect_left(offsets, end) - bisect_left(offsets, start)


class _Builder:
    """Accumulates tokens during the single pass."""

    def __init__(self) -> None:
        self.items: list[int] = []
        self.fences: list[int] = []
        self.stops: list[int] = []
        self.spans: list[tuple[int, int]] = []
        self.open_at: int | None = None
        self.words: set[str] = set()

    def quote(self, at: int) -> None:
        # Marks alternate open / close whatever their shape: typography varies by language
        # (“…”, „…“, «…», »…«), and the straight mark is both.
        if self.open_at is None:
            self.open_at = at
        else:
            self.spans.append((self.open_at, at + 1))
            self.open_at = None

    def newline(self, at: int) -> None:
        if self.open_at is not None:  # dialogue quotes do not run across lines
            self.spans.append((self.open_at, at))
            self.open_at = None


def profile_text(text: str, *, words: bool = True) -> TextProfile:
    """Read ``text`` once and record its structure (and its content words, unless ``words`` is
    false: then ``stems`` is empty and the pass is faster)."""
    b = _Builder()
    for m in (_TOKEN if words else _SHAPE_ONLY).finditer(text):
        kind, at = m.lastgroup, m.start()
        if kind == "word":
            b.words.add(m.group())
        elif kind == "stop":
            b.stops.append(at)
        elif kind == "nl":
            b.newline(at)
        elif kind == "item":
            b.items.append(at)
        elif kind == "fence":
            b.fences.append(at)
        elif kind == "quote":
            b.quote(at)
    b.newline(len(text))
    return TextProfile(
        length=len(text),
        lead=len(text) - len(text.lstrip()),
        items=tuple(b.items),
        fences=tuple(b.fences),
        sentence_ends=tuple(b.stops),
        quote_spans=tuple(b.spans),
        stems=_stems_of(b.words),
    )
