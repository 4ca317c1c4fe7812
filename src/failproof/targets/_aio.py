"""What the HTTP targets share: an aiohttp session sized to the run, and error mapping.

HTTP statuses become `CallError`: 429, 503 (with ``Retry-After``), other 5xx and 408 are
retryable; every other 4xx is not. Connection failures are retryable. Every message passes through
a redactor, so a secret the server echoes back never reaches the store or a log.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urljoin, urlsplit

from failproof.errors import TargetError
from failproof.guard import add_secret, redact
from failproof.targets._base import CallError, capped_wait

if TYPE_CHECKING:
    import aiohttp

__all__ = [
    "MAX_BODY_BYTES",
    "MAX_REDIRECTS",
    "REDIRECTS",
    "Answer",
    "HttpClient",
    "Redactor",
    "check_url",
    "connection_error",
    "fetch",
    "is_connection_error",
    "make_session",
    "parse_retry_after",
    "same_origin",
    "status_error",
    "too_large",
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


#: The largest answer body read; a larger one is an error (the output itself is capped later).
MAX_BODY_BYTES = 16 << 20
#: Redirects within the origin followed at most.
MAX_REDIRECTS = 5
#: The statuses of a redirect (one to another origin is never followed).
REDIRECTS = frozenset({301, 302, 303, 307, 308})


@dataclass(frozen=True)
class Answer:
    """A server's answer, read once and in full (up to `MAX_BODY_BYTES`)."""

    status: int
    reason: str
    retry_after: str | None
    body: bytes


def check_url(url: str, flag: str) -> str:
    """``url`` if it is an http(s) URL with a host, else a `TargetError` saying so."""
    try:
        parts = urlsplit(url)
        port_ok = parts.port is None or parts.port > 0
    except ValueError:
        port_ok = False
        parts = urlsplit("")
    if parts.scheme not in ("http", "https") or not parts.hostname or not port_ok:
        raise TargetError(
            f"{flag} is not an http(s) URL with a host: {url[:200]!r}",
            hint=f"e.g. {flag} http://127.0.0.1:8000/v1",
        )
    return url


def _origin(url: str) -> tuple[str, str, int | None]:
    parts = urlsplit(url)
    return parts.scheme.lower(), (parts.hostname or "").lower(), parts.port


async def fetch(
    session: aiohttp.ClientSession, method: str, url: str, *, data: bytes, headers: dict[str, str]
) -> Answer:
    """One request, following redirects only within the URL's own origin.

    A redirect to another scheme, host or port is refused: following it would hand the key,
    the secret headers and the case to a server nobody named.
    """
    for _ in range(MAX_REDIRECTS + 1):
        async with session.request(
            method, url, data=data, headers=headers, allow_redirects=False
        ) as ans:
            location = ans.headers.get("Location")
            if ans.status not in REDIRECTS or not location:
                body = await _read_capped(ans)
                return Answer(ans.status, ans.reason or "", ans.headers.get("Retry-After"), body)
        url = same_origin(url, urljoin(url, location))
    raise CallError(f"more than {MAX_REDIRECTS} redirects", status="redirect")


def same_origin(url: str, target: str) -> str:
    """``target``, a redirect from ``url``, if it stays in ``url``'s origin; else a `CallError`."""
    if _origin(target) != _origin(url):
        scheme, host, port = _origin(target)
        where = f"{scheme}://{host}" + (f":{port}" if port else "")
        raise CallError(
            f"the server redirected to another origin ({where}); not followed, so that the "
            "key, secret headers and request body are not sent there",
            status="redirect",
        )
    return target


async def _read_capped(ans: aiohttp.ClientResponse) -> bytes:
    length = ans.content_length
    plain = "Content-Encoding" not in ans.headers  # a compressed body's length says nothing
    if plain and length is not None and length <= MAX_BODY_BYTES:  # the usual answer
        return await ans.content.readexactly(length) if length else b""
    chunks: list[bytes] = []
    size = 0
    async for chunk in ans.content.iter_chunked(1 << 16):
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise too_large()
        chunks.append(chunk)
    return b"".join(chunks)


def too_large() -> CallError:
    """The `CallError` for an answer past `MAX_BODY_BYTES` (decoded, when it was compressed)."""
    return CallError(
        f"the answer is larger than {MAX_BODY_BYTES:,} bytes; failproof reads no more",
        status="too_large",
    )


def make_session(concurrency: int, timeout_s: float) -> aiohttp.ClientSession:
    """A client session whose pool holds ``concurrency`` connections (aiohttp's default is 100)."""
    import aiohttp

    connector = aiohttp.TCPConnector(limit=max(1, concurrency), limit_per_host=0)
    timeout = aiohttp.ClientTimeout(total=timeout_s, sock_connect=min(timeout_s, 30.0))
    return aiohttp.ClientSession(connector=connector, timeout=timeout, raise_for_status=False)


class HttpClient:
    """An HTTP target's connection pool, opened on the first call, and the one way it sends.

    A 2xx answer's body is returned; any other answer, a timeout and a lost connection are
    raised as a `CallError` whose message went through ``redact``.
    """

    def __init__(self, concurrency: int, timeout_s: float, redact: Redactor) -> None:
        self.concurrency = concurrency
        self.timeout_s = timeout_s
        self.redact = redact
        self._session: aiohttp.ClientSession | None = None

    async def send(self, method: str, url: str, *, data: bytes, headers: dict[str, str]) -> bytes:
        """The body of the server's 2xx answer to one request."""
        if self._session is None:
            self._session = make_session(self.concurrency, self.timeout_s)
        try:
            ans = await fetch(self._session, method, url, data=data, headers=headers)
        except TimeoutError:
            raise CallError(
                f"no answer within {self.timeout_s:g} s", retryable=True, status="timeout"
            ) from None
        except Exception as exc:
            if is_connection_error(exc):
                raise connection_error(exc, self.redact) from None
            raise
        if ans.status >= 300:
            raise status_error(ans.status, ans.reason, ans.body, ans.retry_after, self.redact)
        return ans.body

    async def close(self) -> None:
        """Close the pool (a later call opens a new one)."""
        if self._session is not None:
            await self._session.close()
            self._session = None
            await asyncio.sleep(0)


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
