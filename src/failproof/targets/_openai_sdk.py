"""``openai-sdk:MODEL``: the same chat-completions call through the official ``openai`` SDK.

The SDK's default httpx transport collapses at high concurrency, so this target hands the SDK an
aiohttp-backed client (``openai.DefaultAioHttpClient``) unless ``http_client`` is ``httpx``.
Needs the ``openai`` extra. The SDK's own retries are off: the runner retries. The client carries
`guard_hooks`: a redirect to another origin is refused (one within the origin is followed, as by
``openai:``), and an answer is read up to `MAX_BODY_BYTES` after decoding; either ends the case
as an error saying why.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qsl

from failproof.core import Capabilities, Case, Response
from failproof.errors import MissingExtraError, TargetError
from failproof.targets._aio import MAX_REDIRECTS, parse_retry_after
from failproof.targets._base import CallError, Target, targets
from failproof.targets._httpx_guard import guard_hooks
from failproof.targets._openai import (
    OpenAICompatible,
    OpenAIConnection,
    chat_messages,
    openai_target_args,
    sdk_completion_response,
)

__all__ = ["OpenAISDKTarget"]

_RETRYABLE = frozenset({408, 429, 500, 502, 503, 504})


def _import_openai() -> Any:
    try:
        import openai
    except ImportError:
        raise MissingExtraError("openai", "openai", "the openai-sdk: target") from None
    return openai


class OpenAISDKTarget(OpenAICompatible[Any]):
    """An OpenAI-compatible endpoint through the official SDK (aiohttp transport by default)."""

    def __init__(
        self,
        model: str,
        connection: OpenAIConnection,
        *,
        params: Mapping[str, Any] | None = None,
        concurrency: int = 8,
        timeout_s: float = 60.0,
        http_client: str = "aiohttp",
    ) -> None:
        if http_client not in ("aiohttp", "httpx"):
            raise TargetError(f"unknown http_client {http_client!r}", hint="aiohttp or httpx")
        self._openai = _import_openai()
        super().__init__(
            model, connection, params=params, concurrency=concurrency, timeout_s=timeout_s
        )
        self.http_client = http_client

    def capabilities(self) -> Capabilities:
        """The SDK path sends the messages only: a case with tools goes to ``openai:``."""
        return Capabilities(
            tools=False, because="openai-sdk: sends the messages only; openai: sends tools"
        )

    def _open(self) -> Any:
        openai = self._openai
        http_cls = (
            openai.DefaultAioHttpClient
            if self.http_client == "aiohttp"
            else openai.DefaultAsyncHttpxClient
        )
        http = http_cls(
            limits=_limits(self.concurrency),
            timeout=self.timeout_s,
            event_hooks=guard_hooks(),
            max_redirects=MAX_REDIRECTS,
        )
        return openai.AsyncOpenAI(
            api_key=self.connection.api_key or "no-key",
            base_url=self.connection.base_url,
            default_query=dict(parse_qsl(self.connection.query, keep_blank_values=True)) or None,
            max_retries=0,
            timeout=self.timeout_s,
            http_client=http,
        )

    async def generate(self, case: Case) -> Response:
        client = self._opened()
        start = time.perf_counter()
        try:
            completion = await client.chat.completions.create(
                model=self.model, messages=chat_messages(case), extra_body=self.params or None
            )
        except self._openai.APIError as exc:
            raise self._call_error(exc) from None
        latency_ms = round((time.perf_counter() - start) * 1000, 3)
        return sdk_completion_response(completion, latency_ms, self._redact)

    def _call_error(self, exc: Any) -> CallError:
        openai = self._openai
        if isinstance(exc, openai.APITimeoutError):
            return CallError(
                f"no answer within {self.timeout_s:g} s", retryable=True, status="timeout"
            )
        if isinstance(exc, openai.APIConnectionError):
            return CallError(
                self._redact(f"connection failed: {exc}"), retryable=True, status="connection"
            )
        if isinstance(exc, openai.APIStatusError):
            status = exc.status_code
            retry_after = exc.response.headers.get("retry-after")
            return CallError(
                self._redact(f"HTTP {status}: {exc.message}"[:400]),
                retryable=status in _RETRYABLE,
                retry_after=parse_retry_after(retry_after) if status in (429, 503) else None,
                status=status,
            )
        return CallError(self._redact(f"the server's answer is not usable: {exc}"[:400]))


def _limits(concurrency: int) -> Any:
    import importlib

    try:  # recent SDKs ship on httpx2, older ones on httpx
        httpx: Any = importlib.import_module("httpx2")
    except ImportError:
        httpx = importlib.import_module("httpx")
    return httpx.Limits(
        max_connections=max(1, concurrency), max_keepalive_connections=max(1, concurrency)
    )


@targets.register("openai-sdk")
def _openai_sdk_factory(argument: str, options: Mapping[str, Any]) -> Target:
    """OpenAI-compatible chat completions through the official SDK: ``openai-sdk:MODEL``."""
    return OpenAISDKTarget(
        **openai_target_args("openai-sdk", argument, options),
        http_client=str(options.get("http_client", "aiohttp")),
    )
