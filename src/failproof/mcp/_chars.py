"""Characters a reviewer does not see, and names that pass for others.

Invisible: zero-width characters, bidirectional controls, Unicode tag characters (which spell
ASCII text no screen shows: it is decoded and quoted), variation selectors past the first
block, and the other format characters (category Cf). Deceptive names: a name whose letters come
from more than one script, or that holds a letter from the confusables table.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping

__all__ = ["hidden_tag_text", "invisible", "mixed_scripts", "show", "skeleton"]

_BIDI = frozenset(range(0x202A, 0x202F)) | frozenset(range(0x2066, 0x206A)) | {0x200E, 0x200F}
_TAGS = range(0xE0000, 0xE0080)


def _is_invisible(char: str) -> bool:
    code = ord(char)
    if code in _BIDI or code in _TAGS or 0xE0100 <= code <= 0xE01EF:
        return True
    return unicodedata.category(char) == "Cf" or code in (0x115F, 0x1160, 0x3164, 0xFFA0)


def invisible(text: str) -> list[tuple[int, str]]:
    """Every invisible character of ``text`` with its index."""
    if text.isascii():  # no ASCII character is invisible in this sense (controls are shown)
        return []
    return [(i, c) for i, c in enumerate(text) if _is_invisible(c)]


def hidden_tag_text(text: str) -> str:
    """The ASCII text spelled by Unicode tag characters (U+E0020..U+E007E), '' if none."""
    return "".join(chr(ord(c) - 0xE0000) for c in text if 0xE0020 <= ord(c) <= 0xE007E)


def show(text: str) -> str:
    """``text`` with every invisible character written as ``<U+XXXX>``."""
    return "".join(f"<U+{ord(c):04X}>" if _is_invisible(c) else c for c in text)


def _script(char: str) -> str | None:
    if not char.isalpha():
        return None
    name = unicodedata.name(char, "")
    return name.split(" ", 1)[0] if name else "UNKNOWN"


def mixed_scripts(name: str) -> list[str]:
    """The scripts of the letters of ``name`` when there is more than one (else [])."""
    scripts = sorted({s for s in map(_script, name) if s is not None})
    return scripts if len(scripts) > 1 else []


def skeleton(name: str, confusables: Mapping[str, str]) -> str:
    """``name`` folded for comparison: NFKC, lower case, confusable letters replaced, invisible
    characters dropped."""
    folded = unicodedata.normalize("NFKC", name).lower()
    return "".join(confusables.get(c, c) for c in folded if not _is_invisible(c))
