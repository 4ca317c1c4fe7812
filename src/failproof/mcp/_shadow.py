"""Checks across scanned servers: tools that shadow each other, and definitions that instruct
the model about another server's tools."""

from __future__ import annotations

import re
from collections.abc import Sequence

from failproof.mcp._chars import skeleton
from failproof.mcp._checks import evidence, finding
from failproof.mcp._model import Finding, ServerSurface
from failproof.mcp._rules import rulebook
from failproof.mcp._texts import Text, surface_texts

__all__ = ["cross_server_findings"]

#: Shorter tool names (get, run, ...) are too common in prose to count as a reference.
_MIN_REFERENCE = 4

Surfaces = Sequence[tuple[str, ServerSurface]]


def cross_server_findings(surfaces: Surfaces) -> list[Finding]:
    """Shadowing and cross-server references among ``surfaces`` (label, surface)."""
    return _shadowing(surfaces) + _references(surfaces)


def _shadowing(surfaces: Surfaces) -> list[Finding]:
    book = rulebook()
    found: list[Finding] = []
    for index, (server, surface) in enumerate(surfaces):
        for other, other_surface in surfaces[:index]:
            theirs = {skeleton(t.name, book.confusables): t.name for t in other_surface.tools}
            for tool in surface.tools:
                twin = theirs.get(skeleton(tool.name, book.confusables))
                if twin is None:
                    continue
                how = "the same name" if twin == tool.name else f"a name that looks like {twin!r}"
                detail = f"{server} offers {tool.name!r}, {how} as a tool of {other}"
                text = Text("tool", tool.name, "name", tool.name, True)
                found.append(finding(book, "mcp-tool-shadowing", server, text, detail, tool.name))
    return found


def _references(surfaces: Surfaces) -> list[Finding]:
    book = rulebook()
    found: list[Finding] = []
    for server, surface in surfaces:
        others = sorted(
            {t.name for label, s in surfaces if label != server for t in s.tools}
            - {t.name for t in surface.tools}
        )
        names = [n for n in others if len(n) >= _MIN_REFERENCE]
        if not names:
            continue
        pattern = re.compile(
            r"(?<![A-Za-z0-9_])(" + "|".join(map(re.escape, names)) + r")(?![A-Za-z0-9_])"
        )
        for text in surface_texts(surface):
            match = None if text.is_name else pattern.search(text.value)
            if match is None:
                continue
            detail = f"{text.kind} {text.item!r} of {server} refers to {match.group(1)!r}"
            detail += ", a tool of another server"
            quoted = evidence(text.value, match.start(), match.end())
            found.append(finding(book, "mcp-cross-server-reference", server, text, detail, quoted))
    return found
