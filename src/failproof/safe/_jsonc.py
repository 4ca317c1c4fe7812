"""JSON with comments: ``safe.config.json`` may have ``//`` and ``/* */`` comments."""

from __future__ import annotations

__all__ = ["strip_json_comments"]


def strip_json_comments(text: str) -> str:
    """``text`` with comments outside strings replaced by spaces (line numbers are kept)."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        char = text[i]
        if char == '"':
            end = _string_end(text, i)
            out.append(text[i:end])
            i = end
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end == -1 else end
            out.append(" " * (end - i))
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end == -1 else end + 2
            out.append("".join(c if c == "\n" else " " for c in text[i:end]))
            i = end
        else:
            out.append(char)
            i += 1
    return "".join(out)


def _string_end(text: str, start: int) -> int:
    """Index just past the JSON string that opens at ``start`` (or the end of the text)."""
    i = start + 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == '"':
            return i + 1
        i += 1
    return len(text)
