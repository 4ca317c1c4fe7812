"""Recorded responses: the JSONL format, and the replay target that serves them."""

from __future__ import annotations

import json
from array import array
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from failproof.core import Case, Response
from failproof.core._tools import ToolUse
from failproof.errors import ResponsesError
from failproof.guard._json import JsonObject
from failproof.guard._problem import first_problem
from failproof.targets._base import Target, targets

__all__ = [
    "Located",
    "Recorded",
    "RecordedResponse",
    "RecordedResponses",
    "ReplayTarget",
    "load_responses",
    "parse_line",
    "refuse_shared_answers",
    "unmatched_warnings",
]

Key = tuple[str | None, str]


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


class Located(NamedTuple):
    """A case's recorded answer and its place among the file's answers (0 for the first)."""

    number: int
    record: RecordedResponse


class Recorded(Protocol):
    """Where the replay finds a case's recorded response."""

    source: str

    def __len__(self) -> int: ...

    def locate(self, case: Case) -> Located | None: ...

    def find(self, case: Case) -> RecordedResponse | None: ...

    def unmatched(self, cases: Iterable[Case] = ()) -> list[Key]: ...


@dataclass
class RecordedResponses:
    """Recorded responses keyed by (suite, case_id); ``suite`` may be None when ids are unique."""

    source: str
    by_key: dict[Key, RecordedResponse] = field(default_factory=dict)
    used: set[Key] = field(default_factory=set)
    _numbers: dict[Key, int] = field(default_factory=dict, repr=False)

    def __len__(self) -> int:
        return len(self.by_key)

    def locate(self, case: Case) -> Located | None:
        """``case``'s answer (under its suite and id, else under its id alone), or None; every
        answer that names the case is marked as used."""
        found = [key for key in ((case.suite, case.id), (None, case.id)) if key in self.by_key]
        self.used.update(found)
        return Located(self._number(found[0]), self.by_key[found[0]]) if found else None

    def find(self, case: Case) -> RecordedResponse | None:
        located = self.locate(case)
        return located.record if located else None

    def unmatched(self, cases: Iterable[Case] = ()) -> list[Key]:
        """Recorded responses that belong to no case found so far nor of ``cases``, sorted."""
        for case in cases:
            self.locate(case)
        out = [key for key in self.by_key if key not in self.used]
        return sorted(out, key=lambda k: (k[0] or "", k[1]))

    def _number(self, key: Key) -> int:
        if len(self._numbers) != len(self.by_key):
            self._numbers = {k: i for i, k in enumerate(self.by_key)}
        return self._numbers[key]


def refuse_shared_answers(recorded: Recorded, cases: Iterable[Case]) -> None:
    """Refuse answers without ``suite`` that would serve cases of several suites (each suite
    would count the one answer): `ResponsesError` names the case ids and their suites.

    Every case is looked up once (its answers are marked as used); per answer, only the first
    suite it served is kept (4 bytes an answer).
    """
    names: list[str] = []
    first = array("i", [-1]) * len(recorded)
    shared: dict[str, set[str]] = {}
    for case in cases:
        located = recorded.locate(case)
        if located is None or located.record.suite is not None:
            continue
        if case.suite not in names:
            names.append(case.suite)
        ordinal, before = names.index(case.suite), first[located.number]
        if before < 0:
            first[located.number] = ordinal
        elif before != ordinal:
            shared.setdefault(case.id, set()).update({names[before], case.suite})
    if shared:
        raise _shared_error(recorded.source, shared)


def _shared_error(source: str, shared: Mapping[str, set[str]]) -> ResponsesError:
    ids = sorted(shared)
    named = [f"{i!r} ({', '.join(sorted(shared[i]))})" for i in ids[:5]]
    more = f" and {len(ids) - 5} more" if len(ids) > 5 else ""
    example = sorted(shared[ids[0]])[0]
    return ResponsesError(
        f"{source}: answers without 'suite' for case ids in several suites, each suite would "
        f"count them: {', '.join(named)}{more}",
        hint=f'add "suite" to those answers, e.g. {{"case_id": "{ids[0]}", '
        f'"suite": "{example}", "output": ...}}',
    )


def unmatched_warnings(unmatched: Iterable[Key]) -> list[str]:
    """One warning line for each recorded response that matches no case."""
    lines = []
    for suite, case_id in unmatched:
        where = f"suite {suite!r}, " if suite else ""
        lines.append(f"warning: response for {where}case {case_id!r} matches no case")
    return lines


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

    def check_cases(self, cases: Iterable[Case]) -> None:
        """Refuse answers without ``suite`` that would serve cases of several suites."""
        refuse_shared_answers(self.recorded, cases)

    def warnings(self) -> list[str]:
        """The recorded responses that matched none of the cases checked (`check_cases`)."""
        return unmatched_warnings(self.recorded.unmatched())

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
