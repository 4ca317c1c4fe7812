"""``openai:MODEL``: any OpenAI-compatible chat-completions endpoint, called with aiohttp.

Covers OpenAI, vLLM, Ollama, llama.cpp server, LM Studio, LiteLLM proxy and TGI. The request is
the chat-completions call made directly with aiohttp, the runner's measured fastest client
(``bench/runner_http_clients.py``); ``openai-sdk:MODEL`` makes the same call through the official
SDK instead.

Options: ``base_url`` (else ``OPENAI_BASE_URL``, else OpenAI's), ``api_key_env`` (the name of the
variable holding the key; default ``OPENAI_API_KEY``), ``params`` (temperature, max_tokens, seed
and any other body field), ``concurrency`` and ``timeout_s`` (set by the runner).
"""

from __future__ import annotations

import json
import os
import time
from abc import abstractmethod
from collections.abc import Mapping
from typing import Any, Generic, NamedTuple, Protocol, TypedDict, TypeVar
from urllib.parse import urlsplit, urlunsplit

from failproof.core import Case, Message, Response, ToolCall
from failproof.core._response import Repairs
from failproof.core._tools import MAX_TOOL_CALLS
from failproof.errors import TargetError
from failproof.guard import loads_json
from failproof.guard._json import JsonObject, dumps_keeping_repeats, keep_repeats
from failproof.targets._aio import HttpClient, Redactor, check_url, url_secrets
from failproof.targets._base import Target, targets

__all__ = [
    "OPENAI_URL",
    "OpenAICompatible",
    "OpenAIConnection",
    "OpenAITarget",
    "openai_connection",
    "parse_chat_completion",
    "public_url",
    "sdk_completion_response",
]

OPENAI_URL = "https://api.openai.com/v1"


class OpenAIConnection:
    """Where and how to reach an OpenAI-compatible server; the key stays out of ``repr``."""

    def __init__(self, base_url: str, api_key: str | None, api_key_env: str) -> None:
        parts = urlsplit(base_url)
        #: the server's root, without its query (``query`` keeps it: api-version=...)
        self.base_url = urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/"), "", ""))
        self.query = parts.query
        self.api_key = api_key
        self.api_key_env = api_key_env

    def endpoint(self, path: str) -> str:
        """The URL of ``path`` under the base URL, the base URL's query kept after it."""
        return f"{self.base_url}/{path}" + (f"?{self.query}" if self.query else "")

    def authorization(self) -> dict[str, str]:
        """The ``Authorization`` header of the key (none without a key)."""
        return {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}

    def __repr__(self) -> str:
        return f"OpenAIConnection({public_url(self.base_url)!r}, key from ${self.api_key_env})"

    def secrets(self) -> list[str]:
        """The key and any secret in the base URL: redacted from everything failproof writes."""
        url = self.endpoint("")
        return [*([self.api_key] if self.api_key else []), *url_secrets(url)]


def public_url(url: str) -> str:
    """``url`` without user name, password, query or fragment: safe to store and show."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path, "", ""))


def openai_connection(options: Mapping[str, Any]) -> OpenAIConnection:
    """Resolve base URL and key: ``base_url`` option > ``OPENAI_BASE_URL`` > OpenAI's."""
    base_url = str(options.get("base_url") or os.environ.get("OPENAI_BASE_URL") or OPENAI_URL)
    named = options.get("api_key_env")
    env_name = str(named or "OPENAI_API_KEY")
    key = os.environ.get(env_name) or None
    if key is None and (named or base_url.rstrip("/") == OPENAI_URL):
        raise TargetError(
            f"no API key: the environment variable {env_name} is not set",
            hint=f"export {env_name}=... (or point --base-url at a server that needs no key)",
        )
    return OpenAIConnection(check_url(base_url, "--base-url"), key, env_name)


def _failure(text: str, latency_ms: float) -> Response:
    return Response.failure(text, latency_ms=latency_ms)


def _first_choice(data: Any, latency_ms: float) -> JsonObject | Response:
    if not isinstance(data, dict):
        return _failure("the server answered with JSON that is not an object", latency_ms)
    if "error" in data and not data.get("choices"):
        return _failure(
            f"the server answered with an error: {str(data['error'])[:300]}", latency_ms
        )
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        return _failure("the server answered without any choice (empty 'choices')", latency_ms)
    return choices[0]


def parse_chat_completion(body: bytes, latency_ms: float, redact: Redactor) -> Response:
    """A chat-completions body as a `Response`; a malformed body gives an error response."""
    try:
        data = loads_json(body, object_pairs_hook=keep_repeats)  # arguments keep repeated keys
    except (ValueError, RecursionError):
        head = redact(body[:200].decode("utf-8", errors="replace"))
        return _failure(f"the server's answer is not valid JSON: {head!r}", latency_ms)
    return _completion_response(data, latency_ms, redact)


def sdk_completion_response(completion: Any, latency_ms: float, redact: Redactor) -> Response:
    """An SDK's chat-completion object (the ``openai`` SDK's, LiteLLM's) as a `Response`, read
    from its fields as the JSON body they came from would be."""
    dump = getattr(completion, "model_dump", None)
    data = dump(warnings=False) if callable(dump) else completion
    return _completion_response(data, latency_ms, redact)


def _completion_response(data: Any, latency_ms: float, redact: Redactor) -> Response:
    """A decoded chat completion as a `Response`; one without a usable choice, or whose message
    is not one (content neither text, null nor text parts; tool calls that are not calls), gives
    an error response (every field is checked: the server's answer is outside input)."""
    choice = _first_choice(data, latency_ms)
    if isinstance(choice, Response):
        return choice
    message = _read_message(choice, redact)
    if isinstance(message, str):
        return _failure(f"the server's answer is not a chat completion: {message}", latency_ms)
    usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
    return Response.from_output(
        redact(message.text),
        latency_ms=latency_ms,
        prompt_tokens=_count(usage.get("prompt_tokens")),
        completion_tokens=_count(usage.get("completion_tokens")),
        finish_reason=choice.get("finish_reason"),
        tool_calls=message.calls,
        repairs=Repairs(tool_calls_cut=message.asked) if message.asked > MAX_TOOL_CALLS else None,
    )


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


class _Message(NamedTuple):
    """A usable message: its text, its tool calls (at most `MAX_TOOL_CALLS`), how many it asked."""

    text: str
    calls: list[ToolCall]
    asked: int


def _read_message(choice: JsonObject, redact: Redactor) -> _Message | str:
    """The choice's message read, or why it is not a message (a reason for the error)."""
    message = choice.get("message")
    if message is None:  # left out, or null (as an SDK's object gives a missing one)
        return "the choice has no message"
    if not isinstance(message, dict):
        return f"message is {_kind(message)}, not an object"
    calls = parse_tool_calls(message, redact)
    if isinstance(calls, str):
        return calls
    content = message.get("content")
    if content is None:  # a tool call, a refusal, or nothing said
        refusal = message.get("refusal")
        return _Message(refusal if isinstance(refusal, str) else "", *calls)
    if isinstance(content, str):
        return _Message(content, *calls)
    if not isinstance(content, list):
        return f"message.content is {_kind(content)}"
    texts = [part["text"] for part in content if _is_text_part(part)]
    if not texts and not calls.calls:
        return "message.content is a list without any text part"
    return _Message("".join(texts), *calls)


def _is_text_part(part: Any) -> bool:
    """Whether a content part is a text part: ``{"type": "text", "text": "..."}``."""
    return (
        isinstance(part, dict) and part.get("type") == "text" and isinstance(part.get("text"), str)
    )


def _kind(value: Any) -> str:
    """What a JSON value is, for an error message: 'a number', 'an object', 'null'..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "a list" if isinstance(value, list) else "an object"


class ToolCalls(NamedTuple):
    """A message's tool calls, at most `MAX_TOOL_CALLS`, and how many it asked for."""

    calls: list[ToolCall]
    asked: int


def parse_tool_calls(message: JsonObject, redact: Redactor) -> ToolCalls | str:
    """The entries of a message's ``tool_calls`` and of a legacy ``function_call``, at most
    `MAX_TOOL_CALLS`, and how many were asked for; or why they are not tool calls (``tool_calls``
    neither a list nor null, an entry without a function name)."""
    raw = message.get("tool_calls")
    if raw is not None and not isinstance(raw, list):
        return f"message.tool_calls is {_kind(raw)}, not a list"
    entries = list(raw or [])
    legacy = message.get("function_call")
    if legacy is not None:
        entries.append({"id": "function_call", "function": legacy})
    calls = []
    for index, entry in enumerate(entries[:MAX_TOOL_CALLS]):
        call = _tool_call(index, entry, redact)
        if call is None:
            return f"message.tool_calls[{index}] is not a tool call (a function with a name)"
        calls.append(call)
    return ToolCalls(calls, len(entries))


def _tool_call(index: int, entry: Any, redact: Redactor) -> ToolCall | None:
    function = entry.get("function") if isinstance(entry, dict) else None
    if not isinstance(function, dict) or not isinstance(function.get("name"), str):
        return None
    arguments = function.get("arguments", "{}")
    if not isinstance(arguments, str):
        arguments = dumps_keeping_repeats(arguments)
    call_id = entry.get("id") if isinstance(entry.get("id"), str) else f"call_{index}"
    return ToolCall(id=call_id, name=function["name"], arguments=redact(arguments))


def chat_messages(case: Case) -> list[JsonObject]:
    """The case's messages as chat-completions dicts (with tool calls and tool answers)."""
    return [_chat_message(m) for m in case.messages()]


def _chat_message(message: Message) -> JsonObject:
    out: dict[str, Any] = {"role": message.role, "content": message.content}
    if message.tool_calls:
        out["content"] = message.content or None
        out["tool_calls"] = [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
            for c in message.tool_calls
        ]
    if message.tool_call_id is not None:
        out["tool_call_id"] = message.tool_call_id
    return out


def chat_tools(case: Case) -> list[JsonObject]:
    """The case's tools in the chat-completions ``tools`` format."""
    return [
        {
            "type": "function",
            "function": {"name": t.name, "description": t.description, "parameters": t.parameters},
        }
        for t in case.tools
    ]


class _Client(Protocol):
    async def close(self) -> None: ...


ClientT = TypeVar("ClientT", bound=_Client)


class OpenAICompatible(Target, Generic[ClientT]):
    """What both OpenAI-compatible targets are: a model on a server with its parameters, and
    the client that calls it, opened on the first call and closed by `aclose`."""

    name = "openai"

    def __init__(
        self,
        model: str,
        connection: OpenAIConnection,
        *,
        params: Mapping[str, Any] | None = None,
        concurrency: int = 8,
        timeout_s: float = 60.0,
    ) -> None:
        self.model = model
        self.connection = connection
        self.params = dict(params or {})
        self.concurrency = concurrency
        self.timeout_s = timeout_s
        self._redact = Redactor(connection.secrets())
        self._client: ClientT | None = None

    def identity(self) -> JsonObject:
        return {
            "name": self.name,
            "model": self.model,
            "base_url": public_url(self.connection.base_url),
            "params": self.params,
        }

    @abstractmethod
    def _open(self) -> ClientT:
        """A new client for this target's server."""

    def _opened(self) -> ClientT:
        if self._client is None:
            self._client = self._open()
        return self._client

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.close()
            self._client = None


class OpenAITarget(OpenAICompatible[HttpClient]):
    """An OpenAI-compatible ``/chat/completions`` endpoint, called with aiohttp."""

    async def generate(self, case: Case) -> Response:
        body = {**self.params, "model": self.model, "messages": chat_messages(case)}
        if case.tools:
            body["tools"] = chat_tools(case)
        payload = json.dumps(body, ensure_ascii=False).encode("utf-8")
        url = self.connection.endpoint("chat/completions")
        headers = {"Content-Type": "application/json", **self.connection.authorization()}
        start = time.perf_counter()
        raw = await self._opened().send("POST", url, data=payload, headers=headers)
        latency_ms = round((time.perf_counter() - start) * 1000, 3)
        return parse_chat_completion(raw, latency_ms, self._redact)

    def _open(self) -> HttpClient:
        return HttpClient(self.concurrency, self.timeout_s, self._redact)


@targets.register("openai")
def _openai_factory(argument: str, options: Mapping[str, Any]) -> Target:
    """OpenAI-compatible chat completions over aiohttp: ``openai:MODEL``."""
    return OpenAITarget(**openai_target_args("openai", argument, options))


class OpenAITargetArgs(TypedDict):
    """What both OpenAI-compatible targets are made with."""

    model: str
    connection: OpenAIConnection
    params: dict[str, Any]
    concurrency: int
    timeout_s: float


def openai_target_args(scheme: str, model: str, options: Mapping[str, Any]) -> OpenAITargetArgs:
    """The arguments both OpenAI-compatible targets take, from a spec's model and options."""
    if not model:
        raise TargetError(f"{scheme} needs a model: --target {scheme}:gpt-4o-mini")
    return {
        "model": model,
        "connection": openai_connection(options),
        "params": options.get("params") or {},
        "concurrency": int(options.get("concurrency", 8)),
        "timeout_s": float(options.get("timeout_s", 60.0)),
    }
