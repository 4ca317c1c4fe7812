"""Recorded responses: the JSONL format, and the replay target that serves them."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from failproof.core import Case, Response
from failproof.core._tools import ToolUse
from failproof.errors import ResponsesError
from failproof.guard._json import JsonObject
from failproof.guard._problem import first_problem
from failproof.targets._base import Target, targets

__all__ = [
    "Recorded",
    "RecordedResponse",
    "RecordedResponses",
    "ReplayTarget",
    "load_responses",
    "parse_line",
]


class RecordedTurn(BaseModel):
    """One turn's answer in a recorded conversation."""

    model_config = ConfigDict(extra="forbid")

    output: Any = None
    error: str | None = None


class RecordedResponse(BaseModel):
    """One line of a recorded-responses file."""

    model_config = ConfigDict(extra="forbid")

    case_id: str = Field(min_length=1)
    suite: str | None = None
    output: Any = None
    latency_ms: float | None = Field(default=None, ge=0)
    error: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    finish_reason: str | None = None
    turns: list[RecordedTurn] | None = Field(
        default=None, description="A conversation's answers, turn by turn."
    )
    tool_uses: list[ToolUse] = Field(
        default_factory=list, description="An agent's tool calls before its final answer."
    )
    tool_limit: bool = False

    def to_response(self, turn: int | None = None) -> Response:
        fields: dict[str, Any] = {
            "latency_ms": self.latency_ms,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "finish_reason": self.finish_reason,
            "tool_uses": self.tool_uses,
            "tool_limit": self.tool_limit,
        }
        if turn is not None and self.turns is not None:
            return _turn_response(self.turns, turn)
        if self.error is not None:
            return Response(error=self.error, **fields)
        return Response.from_output(self.output, **fields)


def _turn_response(turns: list[RecordedTurn], turn: int) -> Response:
    if turn >= len(turns):
        return Response.failure(f"no recorded answer for turn {turn}")
    recorded = turns[turn]
    if recorded.error is not None:
        return Response.failure(recorded.error)
    return Response.from_output(recorded.output)


class Recorded(Protocol):
    """Where the replay finds a case's recorded response."""

    source: str

    def find(self, case: Case) -> RecordedResponse | None: ...


@dataclass
class RecordedResponses:
    """Recorded responses keyed by (suite, case_id); ``suite`` may be None when ids are unique."""

    source: str
    by_key: dict[tuple[str | None, str], RecordedResponse] = field(default_factory=dict)
    used: set[tuple[str | None, str]] = field(default_factory=set)

    def find(self, case: Case) -> RecordedResponse | None:
        for key in ((case.suite, case.id), (None, case.id)):
            if key in self.by_key:
                self.used.add(key)
                return self.by_key[key]
        return None

    def unmatched(self, cases: Iterable[Case]) -> list[tuple[str | None, str]]:
        """Recorded responses that belong to none of ``cases``."""
        known = {c.key for c in cases}
        ids = {c.id for c in cases}
        out = []
        for suite, case_id in self.by_key:
            hit = (suite, case_id) in known if suite is not None else case_id in ids
            if not hit:
                out.append((suite, case_id))
        return sorted(out, key=lambda k: (k[0] or "", k[1]))


def load_responses(path: str | Path) -> RecordedResponses:
    """Read a JSONL file of recorded responses; `ResponsesError` names the line of any problem."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ResponsesError(f"{path}: cannot read responses file: {exc.strerror}") from None
    recorded = RecordedResponses(source=str(path))
    for lineno, line in enumerate(raw.splitlines(), start=1):
        if not line.strip():
            continue
        record = parse_line(line, path, lineno)
        key = (record.suite, record.case_id)
        if key in recorded.by_key:
            where = f"suite {record.suite!r}, " if record.suite else ""
            raise ResponsesError(
                f"{path}:{lineno}: second response for {where}case {record.case_id!r}",
                hint="keep one response per case (use 'suite' to tell apart equal ids)",
            )
        recorded.by_key[key] = record
    return recorded


def parse_line(line: bytes, path: Path, lineno: int) -> RecordedResponse:
    """One line of a recorded-responses file, checked; `ResponsesError` names the line.

    A line pydantic reads straight from its bytes is taken so (one pass, about a third of the
    cost); any other line is read as before, so what is repaired (bytes that are not UTF-8) or
    refused, and how the refusal reads, does not change.
    """
    try:
        return RecordedResponse.model_validate_json(line)
    except ValidationError:
        pass
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        text = line.decode("utf-8", errors="replace")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ResponsesError(f"{path}:{lineno}: not valid JSON: {exc}") from None
    if not isinstance(data, Mapping):
        raise ResponsesError(f"{path}:{lineno}: each line must be a JSON object")
    try:
        return RecordedResponse.model_validate(data)
    except ValidationError as exc:
        where, what = first_problem(exc, "record")
        raise ResponsesError(
            f"{path}:{lineno}: {where}: {what}",
            hint='each line: {"case_id": ..., "suite": ..., "output": ..., "error": null}',
        ) from None


class ReplayTarget(Target):
    """Serves recorded responses; a case with no recording gets an error response."""

    name = "replay"
    waits = False

    def __init__(self, recorded: Recorded) -> None:
        self.recorded = recorded

    def identity(self) -> JsonObject:
        return {"name": self.name, "source": self.recorded.source}

    async def generate(self, case: Case) -> Response:
        record = self.recorded.find(case)
        if record is None:
            return Response.failure(f"no recorded response for case {case.id!r}")
        turn = case.metadata.get("turn")
        return record.to_response(turn if isinstance(turn, int) else None)


@targets.register("replay")
def _replay_factory(argument: str, options: Mapping[str, Any]) -> Target:  # noqa: ARG001
    """Replays a JSONL file of recorded responses: ``replay:FILE``."""
    if not argument:
        raise ResponsesError("replay needs a file: --target replay:responses.jsonl")
    return ReplayTarget(load_responses(argument))
