"""The run's responses as JSONL in the recorded-responses format, written as they arrive.

Sample 0 goes to ``responses.jsonl``; with ``--repeat``, sample k goes to
``responses.sample<k>.jsonl``, so each file can be replayed with ``failproof score``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any

from failproof.core import CaseResult
from failproof.guard import redact

__all__ = ["ResponsesWriter", "recorded_line"]


def recorded_line(result: CaseResult) -> str:
    """One line of the recorded-responses format for ``result``."""
    record: dict[str, Any] = {
        "case_id": result.case_id,
        "suite": result.suite,
        "output": result.output,
        "latency_ms": result.latency_ms,
        "error": result.error,
        "prompt_tokens": result.prompt_tokens,
        "completion_tokens": result.completion_tokens,
        "finish_reason": result.finish_reason,
    }
    if result.turns:
        record["turns"] = [{"output": t.output, "error": t.error} for t in result.turns]
    if result.tool_uses:
        record["tool_uses"] = [use.model_dump() for use in result.tool_uses]
    if result.tool_limit:
        record["tool_limit"] = True
    return redact(json.dumps(record, ensure_ascii=False)) + "\n"


class ResponsesWriter:
    """Appends each result to its sample's file; `flush` (after each group of stored results)
    pushes the lines out, so a crash keeps them.

    ``kept`` are results already stored (a resumed run): the files are rewritten from them first,
    so they match the store whatever happened before the interruption.
    """

    def __init__(self, path: Path, kept: Iterable[CaseResult] = ()) -> None:
        self.path = path
        self._files: dict[int, IO[str]] = {}
        path.parent.mkdir(parents=True, exist_ok=True)
        for old in path.parent.glob(f"{path.stem}.sample*{path.suffix}"):
            old.unlink()
        self._open(0, mode="w")
        for result in kept:
            if result.unsupported is None:
                self._file(result.sample).write(recorded_line(result))
        for handle in self._files.values():
            handle.flush()

    def sample_path(self, sample: int) -> Path:
        if sample == 0:
            return self.path
        return self.path.with_name(f"{self.path.stem}.sample{sample}{self.path.suffix}")

    def __call__(self, result: CaseResult) -> None:
        if result.unsupported is None:  # never sent: no answer to record
            self._file(result.sample).write(recorded_line(result))

    def flush(self) -> None:
        """Push the lines written so far to the files (the engine calls this after each group
        of stored results)."""
        for handle in self._files.values():
            handle.flush()

    def close(self) -> None:
        for handle in self._files.values():
            handle.close()
        self._files.clear()

    def _file(self, sample: int) -> IO[str]:
        return self._files.get(sample) or self._open(sample, mode="w")

    def _open(self, sample: int, mode: str) -> IO[str]:
        handle = self.sample_path(sample).open(mode, encoding="utf-8")
        self._files[sample] = handle
        return handle
