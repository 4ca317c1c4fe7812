"""The one place secrets are remembered and removed from text.

A secret is any value failproof was given to reach a target: an API key, a header value read
from ``${ENV}``, a secret in a URL's query. The code that reads it from the environment calls
`add_secret` once; everything that writes or prints (the store, reports, responses files, the
console, error messages) passes its text through `redact`.

A secret is found in the clothes a leak takes in practice, not only as given: escaped for JSON,
HTML or URLs as a whole or character by character (``\\u0073``, ``&#115;``, ``&#x73;``,
``%73``, ``\\x73``), hex-encoded, base64-encoded (standard or URL-safe, at any offset inside a
longer encoding), upper- or lower-cased, in fullwidth forms, reversed, spread out by spaces, line
breaks or invisible characters, and cut by its first or last character. Whatever matches is
replaced by ``[redacted]``.
"""

from __future__ import annotations

import base64
import html
import json
import re
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO
from urllib.parse import quote

__all__ = [
    "ENV_REFERENCE",
    "REDACTED",
    "SECRET_NAME",
    "RedactingStream",
    "a_secret_holds",
    "add_secret",
    "forget_secrets",
    "knows_secrets",
    "redact",
    "redact_data",
    "redacting_std_streams",
]

REDACTED = "[redacted]"
#: What the name of a header or parameter that holds a secret looks like: its value may only
#: come from the environment (`ENV_REFERENCE`), never be given literally.
SECRET_NAME = re.compile(r"auth|token|secret|key|cookie|password", re.IGNORECASE)
#: A reference to an environment variable in a header or parameter value: ``${NAME}``.
ENV_REFERENCE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
#: Values shorter than this are not treated as secrets (they would blank out ordinary words).
MIN_SECRET_CHARS = 4
#: Secrets at least this long are also found cut by a character, and base64-encoded.
MIN_LOOSE_CHARS = 8
#: Longer secrets (rare: keys are far shorter) are not looked for spread out by gaps.
MAX_SPREAD_CHARS = 2048
#: Longer secrets are found cut by a character only when nothing else in the cut form changed.
MAX_SPREAD_CUT_CHARS = 200
#: What may sit between two characters of a leaked secret: whitespace, line breaks (also as
#: JSON escapes), soft hyphens, zero-width characters, HTML breaks.
_GAP = (
    "(?:[\\s\u00a0\u00ad\u200b-\u200f\u2028\u2029\u2060\u3000\ufeff]|\\\\[nrt]|\\\\u(?:00[aA][dD]|200[bBcCdDeEfF]|"
    "2060|[fF][eE][fF][fF])|&nbsp;|<br\\s*/?>){0,4}"
)

_lock = threading.Lock()
_secrets: list[str] = []
#: What may break a base64 text: line breaks (MIME wraps at 76), also as JSON escapes.
_BASE64_GAP = "(?:\r?\n|\\\\r)?(?:\\\\n)?"
_UNENCODABLE_FREE = re.compile("[^\ud800-\udfff]+")
#: Each secret's forms, compiled by RE2 (linear time; one regex per secret keeps each small).
_patterns: list[Any] = []


def _each(secret: str, form: str) -> str:
    """``secret`` with every character written as ``form`` (given its code point)."""
    return "".join(form.format(code=ord(c)) for c in secret)


def _literal_forms(secret: str) -> list[str]:
    """The forms of a whole secret: escaped, encoded, widened, reversed."""
    in_json = json.dumps(secret)[1:-1]
    forms = [
        secret,
        in_json,
        json.dumps(secret, ensure_ascii=False)[1:-1],
        html.escape(secret),
        html.escape(in_json),
        json.dumps(in_json)[1:-1],
        quote(secret, safe=""),
        quote(secret),
        _each(secret, "\\u{code:04x}"),
        _each(secret, "&#{code};"),
        _each(secret, "&#x{code:x};"),
        "".join(f"%{b:02x}" for b in secret.encode("utf-8")),
        "".join(f"\\x{b:02x}" for b in secret.encode("utf-8")),
        secret.encode("utf-8").hex(),
        "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in secret),
        secret[::-1],
    ]
    return [f for f in dict.fromkeys(forms) if len(f) >= MIN_SECRET_CHARS]


def _spread(text: str) -> str:
    """A regex for ``text`` character by character, any gap allowed between characters."""
    return _GAP.join(re.escape(c) for c in text)


def _base64_cores(secret: str) -> list[str]:
    """The part of any base64 text that carries ``secret``, for each of the three offsets."""
    data = secret.encode("utf-8")
    cores = []
    for offset in range(3):
        encoded = base64.b64encode(b"\0" * offset + data).decode("ascii")
        start, end = -(-8 * offset // 6), 8 * (offset + len(data)) // 6
        core = encoded[start:end]
        cores += [core, core.translate(str.maketrans("+/", "-_"))]
    return [c for c in cores if len(c) >= MIN_LOOSE_CHARS]


def _secret_pattern(secret: str) -> str:
    """Every form of one secret as one case-insensitive regex, a whole match before a cut one."""
    literal = _literal_forms(secret)
    spread = [secret] if len(secret) <= MAX_SPREAD_CHARS else []
    if len(secret) >= MIN_LOOSE_CHARS:  # a long secret's cut forms as text: its regex stays small
        (spread if len(secret) <= MAX_SPREAD_CUT_CHARS else literal).extend(
            [secret[:-1], secret[1:]]
        )
    literal.sort(key=len, reverse=True)
    cores = _base64_cores(secret) + _base64_cores(
        secret[:-1] if len(secret) >= MIN_LOOSE_CHARS else ""
    )
    forms = [re.escape(f) for f in literal] + [_spread(s) for s in spread]
    forms += [_BASE64_GAP.join(re.escape(c) for c in core) for core in dict.fromkeys(cores)]
    forms.append("[ :,-]?".join(f"{b:02x}" for b in secret.encode("utf-8")))  # hex, bytes apart
    return "(?i)" + "|".join(forms)


def add_secret(secret: str | None) -> None:
    """Redact ``secret`` (in every form listed above) from now on."""
    if not secret or len(secret.strip()) < MIN_SECRET_CHARS:
        return
    with _lock:
        if secret in _secrets:
            return
        _secrets.append(secret)
        _secrets.sort(key=len, reverse=True)
        _patterns[:] = [_compiled(_secret_pattern(s)) for s in _secrets]


def _compiled(pattern: str) -> Any:
    import re2  # only once a secret is known: the command line starts without it

    options = re2.Options()
    options.max_mem = 128 << 20
    return re2.compile(pattern, options)


def forget_secrets() -> None:
    """Forget every secret (tests; a long-lived process between unrelated runs)."""
    with _lock:
        _secrets.clear()
        _patterns.clear()


def knows_secrets() -> bool:
    """Whether any secret is known, i.e. whether `redact` can change a text."""
    return bool(_patterns)


def a_secret_holds(chars: str) -> bool:
    """Whether a known secret holds any of ``chars``. When none does, no form of a secret can
    match one of them (the forms are a secret's characters, escaped, encoded or spread by
    gaps), so a text cut where they stand redacts piece by piece as it does whole."""
    with _lock:
        return any(char in secret for secret in _secrets for char in chars)


def redact(text: str) -> str:
    """``text`` with every known secret, in any of its forms, replaced by ``[redacted]``."""
    for pattern in tuple(_patterns):
        text = _redacted(pattern, text)
    return text


def _redacted(pattern: Any, text: str) -> str:
    try:
        done: str = pattern.sub(REDACTED, text)
        return done
    except UnicodeEncodeError:  # lone surrogates (RE2 reads UTF-8): the runs between them

        def run(match: re.Match[str]) -> str:
            part: str = pattern.sub(REDACTED, match.group())
            return part

        return _UNENCODABLE_FREE.sub(run, text)


def redact_data(value: Any) -> Any:
    """A JSON-like value with every string (keys too) redacted; other values as they are."""
    if not _patterns:
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
        if isinstance(text, bytes | bytearray):  # some writers hand over bytes
            raw = redact(bytes(text).decode("utf-8", "surrogateescape"))
            self.stream.write(raw.encode("utf-8", "surrogateescape"))
            return len(text)
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
