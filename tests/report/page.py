"""Reading a rendered HTML page back: its tags, scripts, styles and policy (stdlib parser)."""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any


@dataclass
class ParsedPage:
    tags: list[tuple[str, dict[str, str | None]]] = field(default_factory=list)
    scripts: list[tuple[dict[str, str | None], str]] = field(default_factory=list)
    styles: list[str] = field(default_factory=list)
    texts: dict[str, str] = field(default_factory=dict)

    @property
    def csp(self) -> str:
        for tag, attrs in self.tags:
            if tag == "meta" and attrs.get("http-equiv") == "Content-Security-Policy":
                return attrs.get("content") or ""
        return ""

    def data(self) -> Any:
        for attrs, text in self.scripts:
            if attrs.get("type") == "application/json":
                return json.loads(text)
        raise AssertionError("no embedded data")


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = ParsedPage()
        self._raw: tuple[str, dict[str, str | None]] | None = None
        self._buffer: list[str] = []
        self._id_stack: list[str | None] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        self.page.tags.append((tag, values))
        if tag in ("script", "style"):
            self._raw, self._buffer = (tag, values), []

    def handle_data(self, data: str) -> None:
        if self._raw is not None:
            self._buffer.append(data)

    def handle_endtag(self, tag: str) -> None:
        if self._raw is not None and tag == self._raw[0]:
            text = "".join(self._buffer)
            if tag == "script":
                self.page.scripts.append((self._raw[1], text))
            else:
                self.page.styles.append(text)
            self._raw = None


def parse(html: str) -> ParsedPage:
    parser = _Parser()
    parser.feed(html)
    parser.close()
    return parser.page


def sha256_source(text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode()}'"


def element_text(html: str, element_id: str) -> str:
    """The text of the first element with ``id=element_id`` (no nesting in what we look up)."""
    marker = f'id="{element_id}">'
    start = html.index(marker) + len(marker)
    return html[start : html.index("<", start)]
