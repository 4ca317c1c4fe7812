"""The shape of a response, read where the judge asks: lists, code, sentences, quotes, words.

The judge asks a handful of questions of a text: where does the sentence holding this phrase end,
is this phrase inside quotation marks, how many list items or code blocks follow it, which content
words does the answer use. Each is answered at the offset it is asked about, by searches that run
at C speed (compiled regular expressions and ``str`` methods) and look at most `REACH` characters
from that offset. The cost of judging is therefore bounded, however long the output is: a 10 MB
answer costs about as much as an 8 KB one.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass

__all__ = ["REACH", "TextProfile", "content_stems", "profile_text"]

#: How far from an offset a question looks: a sentence, a quoted span or a run of list items
#: longer than this is cut here, and the content words are read from this much of the answer.
REACH = 8192


def _mark_ranges(first: int = 0x0300, last: int = 0x1CFF) -> str:
    """A character-class body of the combining marks from Latin to Khmer (vowel signs and
    viramas of Devanagari and the other Indic scripts, Arabic and Hebrew points, ...).

    Python's ``\\w`` does not count them as word characters, so without them a Hindi word falls
    apart at every vowel sign.
    """
    runs: list[tuple[int, int]] = []
    for code in range(first, last + 1):
        if unicodedata.category(chr(code)).startswith("M"):
            if runs and runs[-1][1] == code - 1:
                runs[-1] = (runs[-1][0], code)
            else:
                runs.append((code, code))
    return "".join(chr(a) if a == b else f"{chr(a)}-{chr(b)}" for a, b in runs)


# A list item or numbered step, or a code fence, at the start of a line.
_BLOCK_BODY = r"[ \t]*(?:(?:[-*•+]|\d{1,3}[.)])[ \t]|```)"
_BLOCK_AT_START = re.compile(_BLOCK_BODY)
_BLOCK = re.compile("\n" + _BLOCK_BODY)
# A sentence end (Latin, CJK, Devanagari danda, Arabic question mark and full stop).
_STOP = re.compile(r"[.!?。！？।؟۔](?=\s|$)")
#: Double quotation marks of any shape (they open and close alternately on one line), and the
#: corner brackets of Chinese, Japanese and Korean dialogue.
QUOTES = '"“”„«»「」『』'
_QUOTE_OR_NEWLINE = re.compile("[\n" + re.escape(QUOTES) + "]")
_NON_SPACE = re.compile(r"\S*")
#: How far back from a word the chunk holding it is looked for (longer chunks are cut there).
_CHUNK_BACK = 256
_LETTER = f"(?:[^\\W\\d_]|[{_mark_ranges()}])"
_WORD = re.compile(f"{_LETTER}+(?:['’]{_LETTER}+)?")

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
    lowered = word.replace("’", "'").removesuffix("'s")
    if len(lowered) < 3 or lowered in _STOPWORDS:
        return None
    return _stem(lowered)


@functools.lru_cache(maxsize=1 << 16)
def _chunk_stems(chunk: str) -> frozenset[str]:
    """The content stems of one lower-cased, whitespace-free chunk ("oven," -> {"oven"}).

    Cached: answers reuse their words, so most chunks are looked up, not tokenized.
    """
    stems = (_content_stem(word) for word in _WORD.findall(chunk))
    return frozenset(s for s in stems if s)


def _stems_of(text: str) -> frozenset[str]:
    # Words never span whitespace, so the chunks between spaces give the words of the text.
    return frozenset().union(*map(_chunk_stems, set(text.lower().split())))


@functools.lru_cache(maxsize=1024)
def _prompt_stems(prompt: str) -> frozenset[str]:
    return _stems_of(prompt)


def content_stems(text: str) -> frozenset[str]:
    """The content-word stems of ``text`` (what it is about, from its first `REACH` characters),
    e.g. for a prompt. Cached: one prompt is asked of many answers."""
    return _prompt_stems(text[:REACH])


def _chunk_at(text: str, at: int) -> str:
    """The whitespace-free chunk of ``text`` around ``at`` (looking back at most `_CHUNK_BACK`)."""
    start, floor = at, max(0, at - _CHUNK_BACK)
    while start > floor and not text[start - 1].isspace():
        start -= 1
    end = _NON_SPACE.match(text, at)
    return text[start : end.end() if end else at]


def _uses(window: str, stem: str) -> bool:
    """Whether a content word of ``window`` (lower-cased) has this stem. A word's stem is its own
    beginning, so only the places where ``stem`` occurs after a non-letter are looked at."""
    at = window.find(stem)
    while at >= 0:
        if (at == 0 or not window[at - 1].isalpha()) and stem in _chunk_stems(
            _chunk_at(window, at)
        ):
            return True
        at = window.find(stem, at + 1)
    return False


@dataclass(frozen=True, slots=True)
class TextProfile:
    """One text and the questions the judge asks of it (character offsets throughout).

    ``lead`` is the leading whitespace.
    """

    text: str
    length: int
    lead: int

    def shares(self, stems: frozenset[str]) -> int:
        """How many of ``stems`` (a prompt's content stems) the content words of the answer's
        first `REACH` characters also have."""
        if not stems:
            return 0
        window = self.text[self.lead : self.lead + REACH].lower().replace("’", "'")
        return sum(1 for stem in stems if _uses(window, stem))

    def blocks_between(self, start: int, end: int) -> int:
        """List items, numbered steps and code fences whose line begins in [start, end), counted
        over at most `REACH` characters from ``start``."""
        text, start = self.text, max(start, 0)
        end = min(end, self.length, start + REACH)
        if start >= end:
            return 0
        # A block's line begins right after a newline: look from the newline before ``start``.
        count = len(_BLOCK.findall(text, max(start - 1, 0), end))
        if start == 0 and _BLOCK_AT_START.match(text):
            count += 1
        # The last line beginning before ``end`` may hold a block that runs past it.
        newline = text.rfind("\n", max(start - 1, 0), end - 1)
        straddling = _BLOCK.match(text, newline) if newline >= 0 else None
        return count + (straddling is not None and straddling.end() > end)

    def sentence_end_after(self, offset: int) -> int:
        """Where the sentence holding ``offset`` ends: just after the next sentence mark (the
        text's end if there is none; ``offset + REACH`` if none comes within `REACH`)."""
        limit = min(self.length, offset + REACH)
        at = offset
        while (found := _STOP.search(self.text, at, min(self.length, limit + 1))) is not None:
            stop = found.start()
            if stop >= limit:
                break
            if not self._numbered_step(stop):
                return stop + 1
            at = stop + 1
        return limit

    def _numbered_step(self, stop: int) -> bool:
        """Whether the full stop at ``stop`` is the "12." of a numbered step, not a sentence end."""
        text = self.text
        if text[stop] != "." or stop + 1 >= self.length or text[stop + 1] not in " \t":
            return False
        digits = stop
        while digits > 0 and stop - digits < 3 and text[digits - 1].isdecimal():
            digits -= 1
        if digits == stop:
            return False
        indent = digits
        while indent > 0 and text[indent - 1] in " \t":
            indent -= 1
        return indent == 0 or text[indent - 1] == "\n"

    def quoted(self, start: int, end: int) -> bool:
        """Whether [start, end) lies inside a quoted span: an odd number of quotation marks
        before it on its line, and the closing mark (or the line's end) after it."""
        text = self.text
        reach = max(0, start - REACH)
        newline = text.rfind("\n", reach, start)
        if newline < 0 < reach:  # the line is longer than the reach: read as not quoted
            return False
        before = text[newline + 1 : start]
        if sum(map(before.count, QUOTES)) % 2 == 0:
            return False
        closing = _QUOTE_OR_NEWLINE.search(text, start, min(self.length, start + REACH))
        if closing is None:
            return start + REACH >= self.length and end <= self.length
        mark = closing.start()
        return end <= (mark if text[mark] == "\n" else mark + 1)


def profile_text(text: str) -> TextProfile:
    """The profile of ``text``: cheap to make; each question is answered when it is asked."""
    lead = len(text) - len(text.lstrip()) if text[:1].isspace() else 0
    return TextProfile(text=text, length=len(text), lead=lead)
