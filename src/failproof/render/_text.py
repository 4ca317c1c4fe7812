"""Text from outside made safe once per format: a line of a table, Markdown, HTML, XML.

Model outputs, suite files and server replies are hostile. Every renderer (run, attack, SAFE and
MCP reports) passes such text through one of these functions, so a fix to escaping lands here.
"""

from __future__ import annotations

import html
import re

from failproof.guard._text import strip_controls

__all__ = ["excerpt", "html_text", "md_code", "md_text", "xml_text"]

_SPACE = re.compile(r"\s+")
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|~])")
_TICKS = re.compile(r"`+")
_PIPE = re.compile(r"(\\*)\|")
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
#: The ASCII characters `_NOT_XML` matches: the C0 controls but tab, newline and carriage return.
_ASCII_NOT_XML = bytes(c for c in range(0x20) if c not in b"\t\n\r")


def excerpt(text: object, limit: int | None = 120) -> str:
    """``text`` on one line, whitespace collapsed, control characters shown as ``\\xNN``, cut to
    ``limit`` characters with an ellipsis (None: never cut)."""
    flat = strip_controls(_SPACE.sub(" ", str(text or "")).strip())
    if limit is None or len(flat) <= limit:
        return flat
    return flat[: limit - 1].rstrip() + "…"


def md_text(text: object, limit: int | None = 160) -> str:
    """Text on one line with Markdown punctuation, pipes and HTML escaped, and mentions defused."""
    flat = excerpt(text, limit).replace("&", "&amp;")
    return _MD_SPECIAL.sub(r"\\\1", flat).replace("@", "@\u200b")


def md_code(text: object, limit: int | None = 120) -> str:
    """Untrusted text as an inline code span on one line: nothing in it renders or links."""
    # GitHub splits table cells on pipes before it reads code spans: every pipe gets a backslash,
    # and backslashes already before a pipe are doubled so that they cannot escape that one
    flat = _PIPE.sub(lambda m: m.group(1) * 2 + "\\|", excerpt(text, limit))
    if not flat:
        return ""
    longest = max((len(m) for m in _TICKS.findall(flat)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if flat.startswith("`") or flat.endswith("`") else ""
    return f"{fence}{pad}{flat}{pad}{fence}"


def html_text(text: object) -> str:
    """Text (``None``: empty) as HTML character data or a quoted attribute value, control
    characters shown as ``\\xNN`` (the page is inert in a browser, and stays so on a terminal
    that prints the file)."""
    return html.escape(strip_controls("" if text is None else str(text)))


def xml_text(text: object) -> str:
    """``text`` with every character XML 1.0 forbids written as a visible ``\\uXXXX`` escape."""
    value = "" if text is None else str(text)
    if value.isascii() and len(value.encode("ascii").translate(None, _ASCII_NOT_XML)) == len(value):
        return value  # the common case, found without the expression's walk: nothing to escape
    return _NOT_XML.sub(lambda m: f"\\u{ord(m.group()):04x}", value)
