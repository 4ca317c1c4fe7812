"""A document's tokens for the failure geometry's TF-IDF: runs of word characters of length two
or more that do not start with a digit, lower-cased (ASCII texts take a faster, equivalent
regex). Without numpy: the geometry's own process tokenizes its cases as they come."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable

__all__ = ["TokenMemo", "Tokenizer", "tokenize"]

_UNICODE = re.compile(r"\b[^\W\d]\w+\b")
_ASCII = re.compile(r"\b[^\W\d]\w+\b", re.ASCII)


def tokenize(text: str) -> list[str]:
    """The lower-cased tokens of ``text``."""
    lowered = text.lower()
    pattern = _ASCII if lowered.isascii() else _UNICODE
    return pattern.findall(lowered)


#: How a document becomes tokens: `tokenize`, or a `TokenMemo` that did it ahead.
Tokenizer = Callable[[str], list[str]]


class TokenMemo:
    """The tokens of up to ``limit`` documents, worked out as they come (by a process with time
    to spare before the fit), so that the fit does not tokenize them again; any other document
    is tokenized when asked for. Tokens are interned: a document holds references to them."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.tokens: dict[str, list[str]] = {}

    def add(self, document: str) -> None:
        if len(self.tokens) < self.limit and document not in self.tokens:
            self.tokens[document] = [sys.intern(token) for token in tokenize(document)]

    def __call__(self, document: str) -> list[str]:
        known = self.tokens.get(document)
        return tokenize(document) if known is None else known
