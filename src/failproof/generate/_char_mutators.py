"""Character-level mutators: typos, homoglyphs, zero-width characters, leetspeak, case flips.

Each rewrites the user's text outside protected phrases (see `failproof.generate._text`), always
changes at least one character when it can, and keeps the case's expectations as they are: the
request means the same, only its spelling changed.
"""

from __future__ import annotations

import re
from abc import abstractmethod
from random import Random
from typing import ClassVar

from failproof.core import Case
from failproof.generate._base import Mutation, Mutator, mutators
from failproof.generate._text import (
    data,
    editable_mask,
    pick,
    protected_phrases,
    rewrite_user_text,
)

__all__ = [
    "CaseFlipMutator",
    "CharMutator",
    "HomoglyphsMutator",
    "LeetspeakMutator",
    "TyposMutator",
    "ZeroWidthMutator",
]

_WORD = re.compile(r"[A-Za-z]{3,}")


class CharMutator(Mutator):
    """Base of the character-level mutators: subclasses implement `rewrite`."""

    note: ClassVar[str] = "characters changed"

    def mutate(self, case: Case, rng: Random) -> Mutation | None:
        phrases = protected_phrases(case)
        new_input = rewrite_user_text(case, lambda text: self.rewrite(text, phrases, rng))
        if new_input == case.input:
            return None
        return Mutation(input=new_input, note=self.note)

    @abstractmethod
    def rewrite(self, text: str, phrases: list[str], rng: Random) -> str:
        """``text`` with this mutator's change, leaving ``phrases`` untouched."""


def _substitute(
    text: str, phrases: list[str], rng: Random, table: dict[str, str], rate: float
) -> str:
    mask = editable_mask(text, phrases)
    candidates = [i for i, ch in enumerate(text) if mask[i] and ch in table]
    chars = list(text)
    for i in pick(rng, candidates, rate):
        chars[i] = table[chars[i]]
    return "".join(chars)


@mutators.register("typos")
class TyposMutator(CharMutator):
    """Typos: about one word in six gets a swap, drop, doubled letter or QWERTY-neighbour key."""

    name = "typos"
    note = "typos in about one word in six"
    rate: ClassVar[float] = 1 / 6

    def rewrite(self, text: str, phrases: list[str], rng: Random) -> str:
        mask = editable_mask(text, phrases)
        words = [m for m in _WORD.finditer(text) if all(mask[m.start() : m.end()])]
        chosen = set(pick(rng, range(len(words)), self.rate))
        out, last = [], 0
        for index, match in enumerate(words):
            if index in chosen:
                out += [text[last : match.start()], self._typo(match.group(), rng)]
                last = match.end()
        return "".join([*out, text[last:]])

    @staticmethod
    def _typo(word: str, rng: Random) -> str:
        i = rng.randrange(1, len(word) - 1)
        kind = rng.choice(("swap", "drop", "double", "neighbour"))
        if kind == "swap" and word[i] != word[i + 1]:
            return word[:i] + word[i + 1] + word[i] + word[i + 2 :]
        if kind == "drop":
            return word[:i] + word[i + 1 :]
        neighbours: str = data()["keyboard_neighbours"].get(word[i].lower(), "")
        if kind == "neighbour" and neighbours:
            return word[:i] + rng.choice(neighbours) + word[i + 1 :]
        return word[:i] + word[i] + word[i:]


@mutators.register("homoglyphs")
class HomoglyphsMutator(CharMutator):
    """Homoglyphs: about a third of the Latin letters that have one become a Cyrillic/Greek twin."""

    name = "homoglyphs"
    note = "Latin letters replaced by Cyrillic/Greek look-alikes"

    def rewrite(self, text: str, phrases: list[str], rng: Random) -> str:
        return _substitute(text, phrases, rng, data()["homoglyphs"], 1 / 3)


@mutators.register("zero_width")
class ZeroWidthMutator(CharMutator):
    """Zero-width: invisible characters (ZWSP, ZWNJ, ZWJ, word joiner) inside about a third of
    the gaps between two letters."""

    name = "zero_width"
    note = "zero-width characters inserted inside words"

    def rewrite(self, text: str, phrases: list[str], rng: Random) -> str:
        mask = editable_mask(text, phrases)
        gaps = [
            i
            for i in range(1, len(text))
            if mask[i - 1] and mask[i] and text[i - 1].isalpha() and text[i].isalpha()
        ]
        invisible: list[str] = data()["zero_width"]
        chars = list(text)
        for i in sorted(pick(rng, gaps, 1 / 3), reverse=True):
            chars.insert(i, rng.choice(invisible))
        return "".join(chars)


@mutators.register("leetspeak")
class LeetspeakMutator(CharMutator):
    """Leetspeak: half of the letters that have a digit twin (a→4, e→3, o→0, ...) become it."""

    name = "leetspeak"
    note = "letters replaced by leetspeak digits"

    def rewrite(self, text: str, phrases: list[str], rng: Random) -> str:
        table: dict[str, str] = data()["leetspeak"]
        both = table | {k.upper(): v for k, v in table.items()}
        return _substitute(text, phrases, rng, both, 1 / 2)


@mutators.register("case_flip")
class CaseFlipMutator(CharMutator):
    """Case flip: every letter flips between upper and lower case with probability one half."""

    name = "case_flip"
    note = "letter case flipped at random"

    def rewrite(self, text: str, phrases: list[str], rng: Random) -> str:
        table = {ch: ch.swapcase() for ch in set(text) if ch.isalpha() and ch.swapcase() != ch}
        return _substitute(text, phrases, rng, table, 1 / 2)
