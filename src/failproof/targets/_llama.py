"""One GGUF model loaded by llama.cpp in this process, through ``xllamacpp`` (the ``local`` extra).

xllamacpp ships prebuilt CPU wheels, so the ``local`` extra installs without a compiler. Its
engine is llama.cpp's own server: the chat template comes from the GGUF file, and a streamed
answer can be stopped between two tokens, so a timed-out generation frees the model at once
instead of running on behind the next case. Loading the model also opens a listener on
127.0.0.1; it is guarded by a random API key that never leaves this object and is closed by
`LlamaEngine.close`.
"""

from __future__ import annotations

import importlib.metadata
import json
import secrets
import threading
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from failproof.errors import MissingExtraError, TargetError
from failproof.targets._base import CallError

__all__ = ["ENGINE_PACKAGE", "Answer", "LlamaEngine", "engine_version"]

ENGINE_PACKAGE = "xllamacpp"
_PURPOSE = "the local target (a GGUF model on the CPU)"


def _binding() -> Any:
    try:
        import xllamacpp
    except ImportError:
        raise MissingExtraError(ENGINE_PACKAGE, "local", _PURPOSE) from None
    return xllamacpp


def engine_version() -> str:
    """The installed xllamacpp version (answers of one GGUF can change between its builds)."""
    try:
        return importlib.metadata.version(ENGINE_PACKAGE)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


@dataclass
class Answer:
    """One chat completion assembled from the streamed chunks."""

    text: str = ""
    finish_reason: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    chunks: list[str] = field(default_factory=list)

    def add(self, chunk: Any) -> None:
        """Fold one streamed chunk in; an error chunk raises `CallError`."""
        if not isinstance(chunk, dict):
            raise CallError(f"the local model sent a chunk that is not an object: {chunk!r:.80}")
        if "error" in chunk:
            raise CallError(f"the local model refused the request: {_error_text(chunk['error'])}")
        for choice in chunk.get("choices") or []:
            self._choice(choice)
        usage = chunk.get("usage")
        if isinstance(usage, dict):
            self.prompt_tokens = _int(usage.get("prompt_tokens"))
            self.completion_tokens = _int(usage.get("completion_tokens"))

    def _choice(self, choice: Any) -> None:
        delta = choice.get("delta") if isinstance(choice, dict) else None
        content = delta.get("content") if isinstance(delta, dict) else None
        if isinstance(content, str):
            self.chunks.append(content)
        reason = choice.get("finish_reason") if isinstance(choice, dict) else None
        if isinstance(reason, str):
            self.finish_reason = reason

    def finish(self) -> Answer:
        self.text = "".join(self.chunks)
        return self


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _error_text(error: Any) -> str:
    if isinstance(error, dict):
        return str(error.get("message") or error)
    return str(error)


def _params(binding: Any, path: Path, *, n_ctx: int, threads: int, seed: int) -> Any:
    params = binding.CommonParams()
    params.model.path = str(path)
    params.n_ctx = n_ctx
    params.n_parallel = 1  # one slot: the target sends one request at a time
    params.fit_params = False  # the context is what was asked for, not what fits in memory
    params.cpuparams.n_threads = threads
    params.cpuparams_batch.n_threads = threads
    # off: with llama.cpp's default (auto) the greedy answers differ from those of the
    # engine this target used before (measured: 5 of the demo's 20 matched), with it off all do
    params.flash_attn_type = binding.llama_flash_attn_type.LLAMA_FLASH_ATTN_TYPE_DISABLED
    params.sampling.seed = seed
    params.cache_prompt = False  # an answer must not depend on the case before it
    params.warmup = False
    params.verbosity = -1  # llama.cpp's log stays off the terminal
    params.endpoint_metrics = True  # counters read by `LlamaEngine.counters`
    params.api_keys = [secrets.token_urlsafe(24)]  # the 127.0.0.1 listener answers no one else
    return params


class LlamaEngine:
    """A loaded model. `chat` blocks (call it from a worker thread); `close` frees it."""

    def __init__(self, path: Path, *, n_ctx: int, threads: int, seed: int) -> None:
        binding = _binding()
        params = _params(binding, path, n_ctx=n_ctx, threads=threads, seed=seed)
        self._key = str(params.api_keys[0])
        try:
            self._server: Any = binding.Server(params)
        except (RuntimeError, ValueError) as exc:
            raise TargetError(
                f"llama.cpp could not load {path.name}: {exc}", hint="give a GGUF chat model"
            ) from None

    @staticmethod
    def check_installed() -> None:
        """Raise `MissingExtraError` now, not at the first case, when xllamacpp is missing."""
        _binding()

    def chat(self, request: dict[str, Any], stop: threading.Event) -> Answer | None:
        """Stream one chat completion; None when ``stop`` was set before it finished."""
        answer = Answer()
        body = {**request, "stream": True, "stream_options": {"include_usage": True}}
        body["cache_prompt"] = False
        failure: list[CallError] = []

        def on_chunk(chunk: Any) -> bool:
            try:
                answer.add(chunk)
            except CallError as exc:
                failure.append(exc)
            return stop.is_set() or bool(failure)  # True: llama.cpp stops generating

        try:
            self._server.handle_chat_completions(body, on_chunk)
        except ValueError as exc:  # a malformed request, refused before it ran
            raise CallError(f"the local model refused the request: {exc}") from None
        if failure:
            raise failure[0]
        return None if stop.is_set() else answer.finish()

    def count_tokens(self, messages: list[dict[str, str]]) -> int:
        """The prompt's length in tokens, as the model's chat template and tokenizer make it
        (asked of the loaded model's own 127.0.0.1 listener; nothing is generated)."""
        prompt = self._ask("/apply-template", {"messages": messages}).get("prompt")
        tokens = self._ask("/tokenize", {"content": str(prompt), "add_special": True})
        found = tokens.get("tokens")
        if not isinstance(found, list):
            raise CallError("the local model did not say how long the prompt is")
        return len(found)

    def context_size(self) -> int | None:
        """The context the model was loaded with, in tokens, as llama.cpp reports it."""
        found = self._ask("/props").get("default_generation_settings")
        size = found.get("n_ctx") if isinstance(found, dict) else None
        return _int(size)

    def _ask(self, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        """A GET (no ``body``) or POST to the loaded model's own listener."""
        request = urllib.request.Request(
            f"{self.address}{path}",
            data=None if body is None else json.dumps(body).encode("utf-8"),
            headers={"Authorization": f"Bearer {self._key}", "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:  # 127.0.0.1
                found = json.loads(answer.read())
        except (OSError, ValueError) as exc:
            raise CallError(f"the local model could not count the prompt's tokens: {exc}") from None
        return found if isinstance(found, dict) else {}

    @property
    def address(self) -> str | None:
        """The 127.0.0.1 listener llama.cpp opened (``http://127.0.0.1:PORT``), while loaded."""
        return str(self._server.listening_address) if self._server is not None else None

    def counters(self) -> dict[str, float]:
        """llama.cpp's counters since the model was loaded (``n_decode_total``, ...)."""
        counters: dict[str, float] = {}
        for line in str(self._server.handle_metrics()).splitlines():
            name, _, value = line.partition(" ")
            if name.startswith("llamacpp:"):
                counters[name.removeprefix("llamacpp:")] = float(value)
        return counters

    def close(self) -> None:
        """Free the model and close its 127.0.0.1 listener."""
        self._server = None
