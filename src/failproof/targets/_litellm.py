"""``litellm:PROVIDER/MODEL``: every provider LiteLLM reaches (Anthropic, Bedrock, Vertex AI, Azure,
Gemini, Mistral, Groq, ...), called through ``litellm.acompletion`` (extra ``providers``).

Keys come from each provider's usual environment variables, which LiteLLM reads itself
(``ANTHROPIC_API_KEY``, ``AWS_ACCESS_KEY_ID`` / ``AWS_SECRET_ACCESS_KEY``, ``GEMINI_API_KEY``,
``AZURE_API_KEY``, ...); ``api_key_env`` names another variable, and ``base_url`` is LiteLLM's
``api_base`` (a proxy, a private endpoint, a test server). Every value of a variable that looks like
a credential, and the key named, are redacted from everything failproof writes. LiteLLM's own
retries are off: the runner retries (with ``Retry-After``), rate-limits and caches as for
``openai:``. Tool definitions are sent in the chat-completions format, which LiteLLM translates.

For the ``openai/`` and ``anthropic/`` providers the target hands LiteLLM its own client, whose
httpx client carries `guard_hooks`: a redirect to another origin is refused (one within the
origin is followed, as by ``openai:``) and an answer is read up to `MAX_BODY_BYTES` after
decoding; either ends the case as an error saying why. Other providers use LiteLLM's own
clients, which follow redirects anywhere and read answers of any size.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import time
import warnings
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from failproof.core import Case, Response
from failproof.errors import MissingExtraError, TargetError
from failproof.guard._json import JsonObject
from failproof.targets._aio import MAX_REDIRECTS, Redactor, check_url, parse_retry_after
from failproof.targets._base import CallError, Target, targets
from failproof.targets._httpx_guard import guard_hooks
from failproof.targets._openai import (
    chat_messages,
    chat_tools,
    public_url,
    sdk_completion_response,
)

__all__ = ["LiteLLMTarget", "credential_values", "import_litellm"]

_RETRYABLE = frozenset({408, 409, 429, 500, 502, 503, 504, 529})
#: Names of environment variables that hold provider credentials.
_CREDENTIAL = re.compile(r"(KEY|TOKEN|SECRET|PASSWORD|CREDENTIALS?)(_[A-Z0-9]+)?$")
_MIN_SECRET = 8


def import_litellm() -> Any:
    """LiteLLM, imported on first use: quietly, offline (the bundled model-cost map, no fetch)."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import litellm
    except ImportError:
        raise MissingExtraError("litellm", "providers", "the litellm: target") from None
    litellm.suppress_debug_info = True
    litellm.telemetry = False
    return litellm


def credential_values(environ: Mapping[str, str]) -> list[str]:
    """The values of every variable whose name says it holds a credential."""
    return [
        value
        for name, value in environ.items()
        if _CREDENTIAL.search(name.upper()) and len(value) >= _MIN_SECRET
    ]


class LiteLLMTarget(Target):
    """Any LiteLLM provider's chat model, as a target, attacker, generator or judge."""

    name = "litellm"

    def __init__(
        self,
        model: str,
        *,
        api_base: str | None = None,
        api_key_env: str | None = None,
        params: Mapping[str, Any] | None = None,
        concurrency: int = 8,
        timeout_s: float = 60.0,
    ) -> None:
        if "/" not in model:
            raise TargetError(
                f"litellm needs PROVIDER/MODEL, got {model!r}",
                hint="e.g. --target litellm:anthropic/claude-3-5-haiku-latest",
            )
        self._litellm = import_litellm()
        self.model = model
        self.api_base = check_url(api_base, "--base-url") if api_base else None
        self.api_key = _named_key(api_key_env)
        self.params = dict(params or {})
        self.concurrency = concurrency
        self.timeout_s = timeout_s
        secrets = credential_values(os.environ) + ([self.api_key] if self.api_key else [])
        self._redact = Redactor(secrets)  # registered: redacted from everything written
        self._client: _Guarded | None = None

    def identity(self) -> JsonObject:
        return {
            "name": self.name,
            "model": self.model,
            "base_url": public_url(self.api_base) if self.api_base else None,
            "params": self.params,
        }

    async def generate(self, case: Case) -> Response:
        request: dict[str, Any] = {
            **self.params,
            "model": self.model,
            "messages": chat_messages(case),
            "timeout": self.timeout_s,
            "num_retries": 0,
        }
        if case.tools:
            request["tools"] = chat_tools(case)
        if self.api_base:
            request["api_base"] = self.api_base
        if self.api_key:
            request["api_key"] = self.api_key
        client = self._guarded()
        if client is not None:
            request["client"] = client.client
        start = time.perf_counter()
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                answer = await self._litellm.acompletion(**request)
        except Exception as exc:
            raise self._call_error(exc) from None
        latency_ms = round((time.perf_counter() - start) * 1000, 3)
        return sdk_completion_response(answer, latency_ms, self._redact)

    async def aclose(self) -> None:
        client, self._client = self._client, None
        if client is not None and client.loop is asyncio.get_running_loop():
            await client.client.close()
        await _stop_logging_worker()

    def _guarded(self) -> _Guarded | None:
        """This loop's guarded client for the provider, if failproof has one for it."""
        loop = asyncio.get_running_loop()
        if self._client is None or self._client.loop is not loop:
            made = _guarded_client(self.model.split("/", 1)[0], self.api_base, self._key())
            self._client = _Guarded(made, loop) if made is not None else None
        return self._client

    def _key(self) -> str | None:
        return self.api_key or os.environ.get("OPENAI_API_KEY")

    def _call_error(self, exc: Exception) -> CallError:
        refused = _refusal(exc)
        if refused is not None:
            return refused
        litellm = self._litellm
        text = self._redact(f"{type(exc).__name__}: {_without_traceback(str(exc))}")[:400]
        if isinstance(exc, litellm.Timeout):
            return CallError(
                f"no answer within {self.timeout_s:g} s", retryable=True, status="timeout"
            )
        status = getattr(exc, "status_code", None)
        if isinstance(exc, litellm.APIConnectionError) and status in (None, 500):
            return CallError(text, retryable=True, status="connection")
        if isinstance(status, int):
            wait = _retry_after(exc) if status in (429, 503, 529) else None
            shown = f"HTTP {status}: {text}"[:400]
            return CallError(shown, retryable=status in _RETRYABLE, retry_after=wait, status=status)
        return CallError(text)


def _without_traceback(message: str) -> str:
    """LiteLLM's message without the Python traceback some of its errors carry (this machine's
    paths, and nothing the user can act on)."""
    return message.split("Traceback (most recent call last)", 1)[0].rstrip(" \n:")


class _Guarded(NamedTuple):
    client: Any
    loop: asyncio.AbstractEventLoop


def _guarded_client(provider: str, api_base: str | None, openai_key: str | None) -> Any:
    """LiteLLM's client for ``provider`` over a guarded httpx client (None: LiteLLM's own)."""
    if provider == "openai" and openai_key:
        import openai

        http = openai.DefaultAsyncHttpxClient(
            event_hooks=guard_hooks(), max_redirects=MAX_REDIRECTS
        )
        return openai.AsyncOpenAI(
            api_key=openai_key, base_url=api_base, http_client=http, max_retries=0
        )
    if provider == "anthropic":
        from litellm.llms.custom_httpx.http_handler import AsyncHTTPHandler

        hooks: dict[str, list[Callable[..., object]]] = {
            name: [*each] for name, each in guard_hooks().items()
        }
        return AsyncHTTPHandler(event_hooks=hooks)
    return None


def _refusal(exc: BaseException | None) -> CallError | None:
    """The guard's `CallError` that LiteLLM wrapped in its own exception, if it is one."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, CallError):
            return exc
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return None


async def _stop_logging_worker() -> None:
    """LiteLLM's background logging task, bound to the running loop: stopped before the loop
    ends (nothing of it is used; left pending it is destroyed with a warning). LiteLLM logs a
    call after it returns, so an earlier loop may have started one after its stop: that loop is
    closed and its task is forgotten, never awaited (the target works in loop after loop)."""
    from litellm.litellm_core_utils.logging_worker import GLOBAL_LOGGING_WORKER as worker

    left = worker._worker_task
    if left is not None and left.get_loop() is not asyncio.get_running_loop():
        worker._worker_task = None
    logger = logging.getLogger("LiteLLM")
    logger.addFilter(_quiet_discard)  # the discard is ours, on purpose: not the user's warning
    try:
        await worker.stop(discard_pending=True)
    finally:
        logger.removeFilter(_quiet_discard)


def _quiet_discard(record: logging.LogRecord) -> bool:
    """Drops LiteLLM's notice that its logging callbacks were discarded (which we asked for)."""
    return not str(record.msg).startswith("LoggingWorker shutdown")


def _retry_after(exc: Exception) -> float | None:
    headers = getattr(exc, "litellm_response_headers", None)
    if headers is None:
        response = getattr(exc, "response", None)
        headers = getattr(response, "headers", None)
    value = headers.get("retry-after") if headers is not None else None
    return parse_retry_after(value) if isinstance(value, str) else None


def _named_key(api_key_env: str | None) -> str | None:
    if not api_key_env:
        return None
    key = os.environ.get(api_key_env) or None
    if key is None:
        raise TargetError(
            f"no API key: the environment variable {api_key_env} is not set",
            hint=f"export {api_key_env}=..., or leave out --api-key-env to use the provider's own",
        )
    return key


@targets.register("litellm")
def _litellm_factory(argument: str, options: Mapping[str, Any]) -> Target:
    """Any provider LiteLLM reaches: ``litellm:anthropic/claude-3-5-haiku-latest``."""
    return LiteLLMTarget(
        argument,
        api_base=options.get("base_url"),
        api_key_env=options.get("api_key_env"),
        params=options.get("params") or {},
        concurrency=int(options.get("concurrency", 8)),
        timeout_s=float(options.get("timeout_s", 60.0)),
    )
