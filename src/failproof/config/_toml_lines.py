"""Where a key is written in a TOML file, so that an invalid setting is reported by its line.

`tomllib` parses values but keeps no positions; this reads the lines once more for table
headers (``[a.b]``, ``[[a.b]]``, counted) and ``key = value`` lines. A key inside a multi-line
string could be mistaken for one; the first match wins, and a key not found falls back to its
nearest written parent.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["key_lines", "line_of"]

Path_ = tuple[str | int, ...]

_TABLE = re.compile(r"^\s*(\[\[?)\s*([^\[\]]+?)\s*\]\]?\s*(?:#.*)?$")
_KEY = re.compile(
    r"""^\s*((?:"[^"]*"|'[^']*'|[A-Za-z0-9_-]+)(?:\s*\.\s*(?:"[^"]*"|'[^']*'|[A-Za-z0-9_-]+))*)\s*="""
)
_PART = re.compile(r""""([^"]*)"|'([^']*)'|([A-Za-z0-9_-]+)""")


def _parts(dotted: str) -> tuple[str, ...]:
    return tuple(m.group(1) or m.group(2) or m.group(3) or "" for m in _PART.finditer(dotted))


def key_lines(text: str) -> dict[Path_, int]:
    """Every table and key written in ``text`` with its 1-based line (the first if repeated)."""
    table: Path_ = ()
    arrays: dict[Path_, int] = {}
    found: dict[Path_, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        header = _TABLE.match(line)
        if header:
            path: Path_ = _parts(header.group(2))
            if header.group(1) == "[[":
                arrays[path] = arrays.get(path, -1) + 1
                found.setdefault(path, number)
                path = (*path, arrays[path])
            table = path
            found.setdefault(table, number)
            continue
        key = _KEY.match(line)
        if key:
            found.setdefault((*table, *_parts(key.group(1))), number)
    return found


def line_of(text: str, loc: Sequence[str | int]) -> int | None:
    """The line of ``loc`` (a validation error's location), or of its nearest written parent."""
    found = key_lines(text)
    path = tuple(loc)
    while path:
        if path in found:
            return found[path]
        path = path[:-1]
    return None
