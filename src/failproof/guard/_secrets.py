"""The one place secrets are remembered and removed from text.

A secret is any value failproof was given to reach a target: an API key, a header value read
from ``${ENV}``, a secret in a URL's query. The code that reads it from the environment calls
`add_secret` once; everything that writes or prints (the store, reports, responses files, the
console, error messages) passes its text through `redact`. Each secret is also matched in the
forms it takes inside JSON, HTML and URLs.
"""

from __future__ import annotations

import html
import json
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO
from urllib.parse import quote

__all__ = [
    "REDACTED",
    "RedactingStream",
    "add_secret",
    "forget_secrets",
    "redact",
    "redact_data",
    "redacting_std_streams",
]

REDACTED = "[redacted]"
#: Values shorter than this are not treated as secrets (they would blank out ordinary words).
MIN_SECRET_CHARS = 4

_lock = threading.Lock()
_forms: list[str] = []


def _variants(secret: str) -> set[str]:
    escaped = json.dumps(secret)[1:-1]
    return {
        secret,
        escaped,
        json.dumps(secret, ensure_ascii=False)[1:-1],
        html.escape(secret),
        html.escape(escaped),
        quote(secret, safe=""),
        quote(secret),
    }


def add_secret(secret: str | None) -> None:
    """Redact ``secret`` (and its JSON-, HTML- and URL-escaped forms) from now on."""
    if not secret or len(secret) < MIN_SECRET_CHARS:
        return
    with _lock:
        known = set(_forms)
        new = [v for v in _variants(secret) if len(v) >= MIN_SECRET_CHARS and v not in known]
        if new:
            _forms.extend(new)
            _forms.sort(key=len, reverse=True)


def forget_secrets() -> None:
    """Forget every secret (tests; a long-lived process between unrelated runs)."""
    with _lock:
        _forms.clear()


def redact(text: str) -> str:
    """``text`` with every known secret replaced by ``[redacted]``."""
    for form in _forms:
        if form in text:
            text = text.replace(form, REDACTED)
    return text


def redact_data(value: Any) -> Any:
    """A JSON-like value with every string (keys too) redacted; other values as they are."""
    if not _forms:
        return value
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {redact_data(k): redact_data(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [redact_data(v) for v in value]
    return value


class RedactingStream:
    """A text stream that redacts everything written to it before passing it on."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(redact(text))
        return len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


@contextmanager
def redacting_std_streams() -> Iterator[None]:
    """``sys.stdout`` and ``sys.stderr`` redact every write while the block runs."""
    saved = sys.stdout, sys.stderr
    sys.stdout = RedactingStream(saved[0])
    sys.stderr = RedactingStream(saved[1])
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved
