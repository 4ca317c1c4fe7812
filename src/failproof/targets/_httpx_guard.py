"""The guard that httpx clients handed to an SDK carry: the same limits as `_aio.fetch`.

The ``openai-sdk:`` and ``litellm:`` targets call through an SDK that owns its requests; what
failproof controls is the httpx client it gives the SDK. Its response hooks (run for every
answer, redirects included, before httpx follows or reads one) refuse a redirect to another
scheme, host or port, so no key, header or case goes to a server nobody named (a redirect
within the origin is followed, as by ``openai:``), and read the answer at most
`MAX_BODY_BYTES` after decoding, so a compression bomb stops there too. Both raise a
`CallError`. Works with ``httpx`` and ``httpx2`` clients alike; the answer is read whole, so a
guarded client does not stream.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urljoin

from failproof.targets._aio import MAX_BODY_BYTES, REDIRECTS, same_origin, too_large

__all__ = ["guard_hooks"]


Hook = Callable[[Any], Awaitable[None]]


def guard_hooks() -> dict[str, list[Hook]]:
    """The ``event_hooks`` of a guarded httpx client."""
    return {"response": [_stay_in_origin, _read_capped]}


async def _stay_in_origin(response: Any) -> None:
    location = response.headers.get("location")
    if response.status_code in REDIRECTS and location:
        url = str(response.url)
        same_origin(url, urljoin(url, location))


async def _read_capped(response: Any) -> None:
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():  # decoded, in bounded pieces
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise too_large()
        chunks.append(chunk)
    response._content = b"".join(chunks)  # where httpx keeps a read body: `aread()` returns it
