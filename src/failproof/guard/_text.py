"""Text from outside made valid Unicode, and made safe to show on a terminal."""

from __future__ import annotations

import re
from typing import Any

__all__ = ["clean_data", "clean_parsed", "clean_text", "for_console", "strip_controls"]

_SURROGATE = re.compile("[\ud800-\udfff]")
#: C0 controls but tab and newline, DEL, C1 controls (ESC starts terminal sequences, BEL ends
#: OSC), and the bidi overrides that reorder what a terminal shows
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def clean_text(text: str) -> tuple[str, int]:
    """``text`` with every lone surrogate replaced by U+FFFD, and how many were replaced."""
    if text.isascii():
        return text, 0
    return _SURROGATE.subn("\ufffd", text)


def clean_data(value: Any) -> tuple[Any, int]:
    """A JSON-like value with every string (keys too) cleaned, and the total replaced."""
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, dict):
        total = 0
        out: dict[Any, Any] = {}
        for key, item in value.items():
            key, n = clean_data(key)
            item, m = clean_data(item)
            out[key] = item
            total += n + m
        return out, total
    if isinstance(value, list | tuple):
        cleaned = [clean_data(v) for v in value]
        return [v for v, _ in cleaned], sum(n for _, n in cleaned)
    return value, 0


#: What can put a lone surrogate in parsed JSON: one in its text, or the escape of one
_MAY_HOLD_SURROGATE = re.compile(r"[\ud800-\udfff]|\\u[dD][89a-fA-F]")
#: What can put one in parsed JSON when the text is ASCII: only the escape (a search for a literal
#: start, about ten times cheaper than the character class over every character).
_MAY_HOLD_SURROGATE_ASCII = re.compile(r"\\u[dD][89a-fA-F]")


def clean_parsed(value: Any, text: str) -> tuple[Any, int]:
    """`clean_data` of ``value``, parsed from the JSON ``text``; the walk is skipped when the
    text can hold no lone surrogate (none in it and none escaped), the common case."""
    pattern = _MAY_HOLD_SURROGATE_ASCII if text.isascii() else _MAY_HOLD_SURROGATE
    if pattern.search(text) is None:
        return value, 0
    return clean_data(value)


def strip_controls(text: str, *, keep_newlines: bool = True) -> str:
    """``text`` with control characters (ESC, BEL, CR, ...) shown as ``\\xNN`` and bidi
    controls as ``\\uNNNN`` (``\\x202e`` would read as ``\\x20`` then ``2e``)."""
    text = clean_text(text)[0]
    shown = _CONTROL.sub(_escaped, text)
    return shown if keep_newlines else shown.replace("\n", "\\n").replace("\t", "\\t")


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def for_console(text: str, *, keep_newlines: bool = True) -> str:
    """Text from outside, safe to pass to rich: controls shown, markup escaped."""
    from rich.markup import escape  # with the console that shows it: a quiet run never does

    return escape(strip_controls(text, keep_newlines=keep_newlines))
