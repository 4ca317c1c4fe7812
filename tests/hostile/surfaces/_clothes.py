"""A secret in the clothes a leak takes: how a target, judge or attacker may echo a key back."""

from __future__ import annotations

import base64
import codecs
import html
import json
from collections.abc import Callable
from urllib.parse import quote


def _each(form: str) -> Callable[[str], str]:
    return lambda key: "".join(form.format(code=ord(c)) for c in key)


def _wide(key: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in key)


def _b64_in(prefix: str, encode: Callable[[bytes], bytes]) -> Callable[[str], str]:
    return lambda key: encode((prefix + key).encode()).decode()


CLOTHES: dict[str, Callable[[str], str]] = {
    "raw": lambda key: key,
    "json": lambda key: json.dumps(key),
    "html": html.escape,
    "url": lambda key: quote(key, safe=""),
    "base64": _b64_in("", base64.b64encode),
    "base64-basic-auth": _b64_in("user:", base64.b64encode),
    "base64-bearer": _b64_in("Bearer ", base64.b64encode),
    "base64-urlsafe-offset2": _b64_in("ab", base64.urlsafe_b64encode),
    "base64-mime-lines": lambda key: base64.encodebytes((key * 3).encode()).decode(),
    "hex": lambda key: key.encode().hex(),
    "hex-upper": lambda key: key.encode().hex().upper(),
    "hex-spaced": lambda key: " ".join(f"{b:02x}" for b in key.encode()),
    "upper": str.upper,
    "lower": str.lower,
    "swapcase": str.swapcase,
    "reversed": lambda key: key[::-1],
    "reversed-upper": lambda key: key[::-1].upper(),
    "spaced": " ".join,
    "tabbed": "\t".join,
    "split-lines": lambda key: "\n".join(key[i : i + 7] for i in range(0, len(key), 7)),
    "split-crlf": lambda key: key[:9] + "\r\n" + key[9:],
    "zero-width": "\u200b".join,
    "soft-hyphen": "\u00ad".join,
    "json-u-escapes": _each("\\u{code:04x}"),
    "json-u-escapes-upper": _each("\\u{code:04X}"),
    "html-decimal": _each("&#{code};"),
    "html-hex": _each("&#x{code:x};"),
    "percent-each": _each("%{code:02X}"),
    "percent-each-lower": _each("%{code:02x}"),
    "python-x": _each("\\x{code:02x}"),
    "fullwidth": _wide,
    "fullwidth-upper": lambda key: _wide(key.upper()),
    "minus-last": lambda key: key[:-1],
    "minus-first": lambda key: key[1:],
    "minus-last-upper": lambda key: key[:-1].upper(),
    "rot13-free-json-in-html": lambda key: html.escape(json.dumps({"k": key})),
    "escaped-json-of-json": lambda key: json.dumps(json.dumps(key)),
    "unicode-escape": lambda key: codecs.encode(key, "unicode_escape").decode(),
}


def dressed(key: str) -> dict[str, str]:
    """Every form of ``key`` above, by name."""
    return {name: dress(key) for name, dress in CLOTHES.items()}


def leaked(key: str, text: str) -> list[str]:
    """The names of the forms of ``key`` that ``text`` still carries."""
    return [name for name, form in dressed(key).items() if form in text]
