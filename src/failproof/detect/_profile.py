"""The shape of a response, read where the judge asks: lists, code, sentences, quotes, words.

The judge asks a handful of questions of a text: where does the sentence holding this phrase end,
is this phrase inside quotation marks, how many list items or code blocks follow it, which content
words does the answer use. Each is answered at the offset it is asked about, by searches that run
at C speed (compiled regular expressions and ``str`` methods) and look at most `REACH` characters
from that offset. The cost of judging is therefore bounded, however long the output is: a 10 MB
answer costs about as much as an 8 KB one.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from failproof.detect._words import REACH, count_used

__all__ = ["REACH", "TextProfile", "profile_text"]


# A list item or numbered step, or a code fence, at the start of a line.
_BLOCK_BODY = r"[ \t]*(?:(?:[-*•+]|\d{1,3}[.)])[ \t]|```)"
_BLOCK_AT_START = re.compile(_BLOCK_BODY)
_BLOCK = re.compile("\n" + _BLOCK_BODY)
# A sentence end: a mark followed by whitespace (Latin, Devanagari danda, Arabic question mark
# and full stop), or a full-width CJK mark anywhere (CJK puts no space after it).
_STOP = re.compile(r"[.!?।؟۔](?=\s|$)|[。！？]")
#: Double quotation marks of any shape (they open and close alternately on one line), and the
#: corner brackets of Chinese, Japanese and Korean dialogue.
QUOTES = '"“”„«»「」『』'
_QUOTE_OR_NEWLINE = re.compile("[\n" + re.escape(QUOTES) + "]")


class TextProfile(NamedTuple):
    """One text and the questions the judge asks of it (character offsets throughout).

    ``lead`` is the leading whitespace. A named tuple: one is made for every answer judged
    (cheaper to create than a frozen dataclass).
    """

    text: str
    length: int
    lead: int

    def shares(self, stems: frozenset[str]) -> int:
        """How many of ``stems`` (a prompt's content stems) the content words of the answer's
        first `REACH` characters also have."""
        return count_used(self.text[self.lead : self.lead + REACH], stems)

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
