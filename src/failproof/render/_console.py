"""Text from outside for a terminal: a `rich.text.Text` (never parsed as markup), on one line,
with control and bidi-override characters shown as escapes, so no output restyles the terminal."""

from __future__ import annotations

from rich.text import Text

from failproof.render._text import excerpt

__all__ = ["plain"]


def plain(text: object, limit: int | None = 80) -> Text:
    """Untrusted text as a `Text` on one line, cut to ``limit`` characters (None: never)."""
    return Text(excerpt(text, limit))
