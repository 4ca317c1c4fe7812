"""Phrase checks of the FailProof classifier: Unicode folding, then substring search.

Both the output and each phrase are folded the same way before comparing:

1. NFKC normalisation (full-width, ligature and compatibility forms become their plain letters);
2. removal of invisible format characters (zero-width spaces and joiners, soft hyphens, bidi
   controls, word joiners, the byte-order mark, Unicode tag characters);
3. every dash-like character becomes ``-``;
4. case folding (``casefold``: ``ß`` matches ``ss``);
5. runs of whitespace become one space.

Confusable letters from other scripts (Cyrillic ``а`` for Latin ``a``) are *not* folded: mapping
them would need a confusables table and would make different words in those scripts collide.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

__all__ = ["find_phrases", "fold", "missing_phrases"]

_INVISIBLE = re.compile(
    "[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff"
    "\ufff9-\ufffb\U000e0001\U000e0020-\U000e007f]"
)
_DASHES = str.maketrans(
    dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63", "-")
)


def fold(text: str) -> str:
    """``text`` folded for case- and form-insensitive phrase comparison (see the module doc)."""
    if text.isascii():
        return " ".join(text.lower().split())
    text = unicodedata.normalize("NFKC", text)
    text = _INVISIBLE.sub("", text).translate(_DASHES).casefold()
    return " ".join(text.split())


@lru_cache(maxsize=4096)
def _fold_phrase(phrase: str) -> str:
    return fold(phrase)


def find_phrases(folded_text: str, phrases: Iterable[str]) -> list[str]:
    """The phrases (as written in the suite) that occur in ``folded_text``; empty ones never do."""
    return [p for p in phrases if (f := _fold_phrase(p)) and f in folded_text]


def missing_phrases(folded_text: str, phrases: Iterable[str]) -> list[str]:
    """The phrases (as written in the suite) that do not occur in ``folded_text``."""
    return [p for p in phrases if (f := _fold_phrase(p)) and f not in folded_text]
