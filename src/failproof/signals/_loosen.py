"""A pattern with its large counted repetitions loosened, for the set that finds candidates.

RE2 compiles ``x{0,1000}`` as a thousand copies of ``x``: the hundred patterns of the signal
library that count past a few made most of the time its set took to compile (about 0.06 of
0.075 CPU-seconds, paid by every process that scans).
The set only says which patterns *may* match; each one it names is then searched alone, exactly,
for its span (`SignalMatcher.scan`), and a pattern whose exact search finds nothing is dropped.
So the set may be given looser patterns, as long as each matches at least every text its exact
pattern matches: ``x{m,n}`` with ``n`` above `KEPT` becomes ``x*`` (``m`` = 0) or ``x+``, as does
``x{n}`` and ``x{m,}``. Repetition is monotone (a looser bound never removes a match from the
pattern it sits in, whatever surrounds it), so the loosened pattern matches a superset of texts.

Only the pattern's own syntax is rewritten: braces inside a character class, an escape
(``\\{``, ``\\x{093C}``, ``\\p{Greek}``) or a ``\\Q...\\E`` quotation are left as they are.
"""

from __future__ import annotations

import re

__all__ = ["KEPT", "loosened"]

#: Counted repetitions up to this many are kept as written (they cost the compile little).
KEPT = 8

_REPEAT = re.compile(r"\{(\d+)(,(\d*))?\}")
_SPECIAL = re.compile(r"[\\\[{]")  # where an escape, a class or a repetition may start
_BRACED_ESCAPES = frozenset("xpP")


def loosened(regex: str) -> str:
    """``regex`` with every counted repetition above `KEPT` loosened to ``*`` or ``+``."""
    if "{" not in regex:
        return regex
    out: list[str] = []
    i = 0
    while (special := _SPECIAL.search(regex, i)) is not None:
        at = special.start()
        out.append(regex[i:at])
        repeat = _REPEAT.match(regex, at) if regex[at] == "{" else None
        end = repeat.end() if repeat is not None else _atom_end(regex, at)
        out.append(_loose(repeat) if repeat is not None else regex[at:end])
        i = end
    out.append(regex[i:])
    return "".join(out)


def _loose(repeat: re.Match[str]) -> str:
    low = int(repeat.group(1))
    high = low if repeat.group(2) is None else (int(repeat.group(3)) if repeat.group(3) else None)
    if high is not None and high <= KEPT:
        return repeat.group(0)
    return "*" if low == 0 else "+"


def _atom_end(regex: str, i: int) -> int:
    """Where the piece of syntax starting at ``i`` ends: an escape, a character class, or one
    character."""
    if regex[i] == "\\":
        return _escape_end(regex, i)
    if regex[i] == "[":
        return _class_end(regex, i)
    return i + 1


def _escape_end(regex: str, i: int) -> int:
    """The end of the escape at ``i``: ``\\Q...\\E``, a braced ``\\x{...}``/``\\p{...}``, or
    the backslash and one character."""
    kind = regex[i + 1 : i + 2]
    if kind == "Q":
        close = regex.find("\\E", i + 2)
        return len(regex) if close < 0 else close + 2
    if kind in _BRACED_ESCAPES and regex[i + 2 : i + 3] == "{":
        close = regex.find("}", i + 3)
        return len(regex) if close < 0 else close + 1
    return min(len(regex), i + 2)


def _class_end(regex: str, i: int) -> int:
    """The end of the character class opening at ``i`` (a leading ``]`` is a member, as are
    ``[:alpha:]`` and escapes)."""
    j = i + 1
    if regex[j : j + 1] == "^":
        j += 1
    if regex[j : j + 1] == "]":
        j += 1
    while j < len(regex):
        if regex[j] == "\\":
            j = _escape_end(regex, j)
        elif regex.startswith("[:", j) and (close := regex.find(":]", j + 2)) >= 0:
            j = close + 2
        elif regex[j] == "]":
            return j + 1
        else:
            j += 1
    return len(regex)
