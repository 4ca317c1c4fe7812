"""What the HTTP targets share: an aiohttp session sized to the run, and error mapping.

HTTP statuses become `CallError`: 429, 503 (with ``Retry-After``), other 5xx and 408 are
retryable; every other 4xx is not. Connection failures are retryable. Every message passes through
a redactor, so a secret the server echoes back never reaches the store or a log.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlsplit

from failproof.guard import add_secret, redact
from failproof.targets._base import CallError, capped_wait

if TYPE_CHECKING:
    import aiohttp

__all__ = [
    "Redactor",
    "connection_error",
    "is_connection_error",
    "make_session",
    "parse_retry_after",
    "status_error",
    "url_secrets",
]

_RETRYABLE = frozenset({408, 429, 500, 502, 503, 504})


class Redactor:
    """A target's secrets, registered with `failproof.guard.add_secret`; calling it redacts."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        for secret in secrets:
            self.add(secret)

    def add(self, secret: str) -> None:
        """Redact ``secret`` from everything failproof writes or prints, from now on."""
        add_secret(secret)

    def __call__(self, text: str) -> str:
        return redact(text)


def url_secrets(url: str) -> list[str]:
    """The secrets a URL may carry: its password and every query value."""
    parts = urlsplit(url)
    values = [value for _, value in parse_qsl(parts.query, keep_blank_values=False)]
    return [v for v in (parts.password, *values) if v]


def make_session(concurrency: int, timeout_s: float) -> aiohttp.ClientSession:
    """A client session whose pool holds ``concurrency`` connections (aiohttp's default is 100)."""
    import aiohttp

    connector = aiohttp.TCPConnector(limit=max(1, concurrency), limit_per_host=0)
    timeout = aiohttp.ClientTimeout(total=timeout_s, sock_connect=min(timeout_s, 30.0))
    return aiohttp.ClientSession(connector=connector, timeout=timeout, raise_for_status=False)


def parse_retry_after(value: str | None) -> float | None:
    """Seconds from a ``Retry-After`` header: delta-seconds or an HTTP date, capped at
    `MAX_RETRY_AFTER_S`; None if unusable."""
    if not value:
        return None
    try:
        return capped_wait(float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, OverflowError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return capped_wait((when - datetime.now(UTC)).total_seconds())


def _error_detail(body: bytes) -> str:
    text = body.decode("utf-8", errors="replace").strip()
    try:
        data: Any = json.loads(text)
    except ValueError:
        return text[:300]
    if isinstance(data, dict):
        error = data.get("error", data.get("message", data.get("detail")))
        if isinstance(error, dict):
            error = error.get("message", error)
        if error is not None:
            return str(error)[:300]
    return text[:300]


def status_error(
    status: int, reason: str, body: bytes, retry_after: str | None, redact: Redactor
) -> CallError:
    """The `CallError` for a non-2xx answer, with the server's own message when it gave one."""
    detail = _error_detail(body) or reason
    return CallError(
        redact(f"HTTP {status}: {detail}"),
        retryable=status in _RETRYABLE,
        retry_after=parse_retry_after(retry_after) if status in (429, 503) else None,
        status=status,
    )


def connection_error(exc: BaseException, redact: Redactor) -> CallError:
    """A retryable `CallError` for a refused, dropped or broken connection."""
    detail = str(exc) or type(exc).__name__
    return CallError(redact(f"connection failed: {detail}"), retryable=True, status="connection")


def is_connection_error(exc: BaseException) -> bool:
    import aiohttp

    return isinstance(exc, aiohttp.ClientError | asyncio.IncompleteReadError | ConnectionError)
