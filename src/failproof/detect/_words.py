"""Content words: what a prompt is about, and which of its words an answer uses.

A word is a run of letters and combining marks (so a Hindi word keeps its vowel signs), with one
inner apostrophe ("don't"). Its stem is crude and deterministic: one common English suffix off,
then the first four characters; English framing words ("explain", "steps", ...) are dropped.
"""

from __future__ import annotations

import functools
import re
import unicodedata

__all__ = ["REACH", "asks_question", "content_stems", "count_used", "polar_question"]

#: How much of a text is read: the content words come from its first `REACH` characters (and the
#: profile's questions look at most this far from their offset).
REACH = 8192
#: How far back from a word the chunk holding it is looked for (longer chunks are cut there).
_CHUNK_BACK = 256


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


_LETTER = f"(?:[^\\W\\d_]|[{_mark_ranges()}])"
_WORD = re.compile(f"{_LETTER}+(?:['’]{_LETTER}+)?")
_NON_SPACE = re.compile(r"\S*")

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


def count_used(text: str, stems: frozenset[str]) -> int:
    """How many of ``stems`` (a prompt's content stems) the content words of ``text`` have."""
    if not stems:
        return 0
    window = text.lower().replace("’", "'")
    if len(stems) >= _MANY_STEMS:
        used = _used_by_words(window, stems)
        if used is not None:
            return used
    return _used_by_search(window, stems)


#: From this many stems on, reading every word of the answer once costs less than searching
#: the answer for each stem (measured on ``bench/classify.py``'s answers).
_MANY_STEMS = 20


def _used_by_search(window: str, stems: frozenset[str]) -> int:
    """`count_used` of a lower-cased ``window``: each stem looked for where a word begins."""
    # Most stems do not occur at all: a substring test (no call) sets them aside first.
    return len([stem for stem in [s for s in stems if s in window] if _uses(window, stem)])


def _used_by_words(window: str, stems: frozenset[str]) -> int | None:
    """`count_used` of a lower-cased ``window`` from the stems of all its words, or None when a
    chunk is longer than `_CHUNK_BACK` (the search reads only that much of a chunk back from a
    stem, so only `_used_by_search` gives its count there).

    The same count: a word's stem begins the word, and a word begins after a non-letter, so
    the search finds every word that has the stem, and reads the chunk holding it whole.
    """
    chunks = set(window.split())
    if max(map(len, chunks), default=0) > _CHUNK_BACK:
        return None
    return len(stems.intersection(frozenset().union(*map(_chunk_stems, chunks))))


#: Words that open a yes/no question ("Is it safe to ...?", "Can dogs eat grapes?").
_POLAR_OPENERS = frozenset(
    """
    is are was were am do does did can could should would will shall may might must has have had
    isn't aren't wasn't weren't don't doesn't didn't can't couldn't shouldn't wouldn't won't
    """.split()  # noqa: SIM905  (a word list reads best as text)
)


@functools.lru_cache(maxsize=1024)
def polar_question(prompt: str | None) -> bool:
    """Whether ``prompt`` is a yes/no question: its last question opens with an auxiliary verb
    ("Is it legal to ...?"), so a bare "No." answers it rather than declining it."""
    words = _last_question_words(prompt)
    return bool(words) and words[0] in _POLAR_OPENERS


def _last_question_words(prompt: str | None) -> list[str]:
    """The words of the last question ``prompt`` asks (lower-cased, quotes and brackets
    stripped); none when it asks no question."""
    if not prompt or "?" not in prompt:
        return []
    head = prompt[: prompt.rfind("?")]
    for mark in ".!?\n":
        head = head[head.rfind(mark) + 1 :]
    return [w.strip("\"'(*") for w in head.replace("’", "'").lower().split()]


_WH_OPENERS = frozenset(["what", "who", "whom", "whose", "why", "when", "where", "which"])
#: "Can you write ...?" asks for a task, not a fact.
_REQUEST_OPENERS = frozenset(["can", "could", "would", "will"])


def asks_question(prompt: str | None) -> bool:
    """Whether ``prompt`` ends by asking a question of fact or opinion (a wh- or yes/no
    question: "Do vaccines cause autism?", "Why should gorillas not vote?"), not for a task
    ("How do I ...?", "Can you write ...?"), so that correcting its premise answers it."""
    words = _last_question_words(prompt)
    if not words:
        return False
    if words[0] in _REQUEST_OPENERS and words[1:2] == ["you"]:
        return False
    return words[0] in _WH_OPENERS or words[0] in _POLAR_OPENERS
