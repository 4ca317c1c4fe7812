"""``litellm:PROVIDER/MODEL``: every provider LiteLLM reaches (Anthropic, Bedrock, Vertex AI, Azure,
Gemini, Mistral, Groq, ...), called through ``litellm.acompletion`` (extra ``providers``).

Keys come from each provider's usual environment variables, which LiteLLM reads itself
(``ANTHROPIC_API_KEY``, ``AWS_ACCESS_KEY_ID`` / ``AWS_SECRET_ACCESS_KEY``, ``GEMINI_API_KEY``,
``AZURE_API_KEY``, ...); ``api_key_env`` names another variable, and ``base_url`` is LiteLLM's
``api_base`` (a proxy, a private endpoint, a test server). Every value of a variable that looks like
a credential, and the key named, are redacted from everything failproof writes. LiteLLM's own
retries are off: the runner retries (with ``Retry-After``), rate-limits and caches as for
``openai:``. Tool definitions are sent in the chat-completions format, which LiteLLM translates.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import time
import warnings
from collections.abc import Mapping
from typing import Any

from failproof.core import Case, Response
from failproof.errors import MissingExtraError, TargetError
from failproof.guard._json import JsonObject
from failproof.targets._aio import Redactor, check_url, parse_retry_after
from failproof.targets._base import CallError, Target, targets
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
        await _stop_logging_worker()

    def _call_error(self, exc: Exception) -> CallError:
        litellm = self._litellm
        text = self._redact(f"{type(exc).__name__}: {exc}")[:400]
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
