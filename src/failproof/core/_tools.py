"""Tools a case offers the model (OpenAI-style function calling), their stubs, and the trace.

A case declares each tool with a JSON Schema for its arguments and what it returns: fixed text,
optionally followed by an injected instruction (indirect prompt injection). The runner executes
the model's calls against these stubs; the classifier checks the calls against the case's
``expect.forbidden_calls``.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any, NamedTuple

import re2
from pydantic import Field, field_validator, model_validator

from failproof.core._closed import Closed
from failproof.guard._json import JsonObject
from failproof.guard._schema import ref_problems
from failproof.guard._text import clean_data

__all__ = [
    "MAX_TOOL_CALLS",
    "ForbiddenCall",
    "McpServer",
    "ToolArguments",
    "ToolCall",
    "ToolSpec",
    "ToolUse",
    "argument_problem",
    "read_arguments",
    "schema_refs_inside",
]

#: The most tool calls one answer may ask for; more are dropped, and the case cannot pass.
MAX_TOOL_CALLS = 100

_TOOL_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


class ToolCall(Closed):
    """One call the model asked for: its id, the tool's name, and the arguments as JSON text."""

    id: str = Field(description="The call's id, echoed by the tool's answer.")
    name: str
    arguments: str = Field(default="{}", description="The arguments, as the model wrote them.")

    def parsed_arguments(self) -> JsonObject | None:
        """The arguments as an object, or None when they are not a JSON object."""
        return read_arguments(self.arguments).value

    def repeated_keys(self) -> tuple[str, ...]:
        """Keys named twice in one object of the arguments, at any depth (readers disagree on
        which value wins, so such a call cannot be trusted)."""
        return read_arguments(self.arguments).repeated

    def problem(self) -> str | None:
        """Why these arguments must not reach a tool (see `argument_problem`), or None."""
        return argument_problem(self.arguments)

    def argument_values(self, name: str) -> list[Any]:
        """Every value the arguments give ``name`` at the top level (more than one when the
        key is repeated)."""
        return [value for key, value in read_arguments(self.arguments).pairs if key == name]


class ToolArguments(NamedTuple):
    """A call's arguments as read: the object, its top-level pairs as written, repeated keys."""

    value: dict[str, Any] | None
    pairs: tuple[tuple[str, Any], ...]
    repeated: tuple[str, ...]


@lru_cache(maxsize=1024)
def read_arguments(text: str) -> ToolArguments:
    """Parse a call's arguments; lone surrogates become U+FFFD, repeated keys are kept."""
    repeated: list[str] = []
    last: list[tuple[str, Any]] = []

    def pairs_hook(pairs: list[tuple[str, Any]]) -> JsonObject:
        obj = dict(pairs)
        if len(obj) != len(pairs):
            keys = [key for key, _ in pairs]
            repeated.extend(k for k in dict.fromkeys(keys) if keys.count(k) > 1)
        last[:] = pairs
        return obj

    try:
        value, _ = clean_data(json.loads(text or "{}", object_pairs_hook=pairs_hook))
        top, _ = clean_data(last if isinstance(value, dict) else [])
    except (ValueError, RecursionError):
        return ToolArguments(None, (), ())
    if not isinstance(value, dict):
        return ToolArguments(None, (), ())
    return ToolArguments(value, tuple((str(k), v) for k, v in top), tuple(repeated))


_UNSOUND = re.compile("[\ud800-\udfff\ufffd]")


@lru_cache(maxsize=1024)
def argument_problem(text: str) -> str | None:
    """Why a call's arguments cannot be trusted to mean one thing, or None when they can.

    They must be one JSON object as the standard defines it (no ``NaN`` or ``Infinity``), name
    no key twice in any object at any depth (readers differ on which value wins), and hold only
    valid text: no lone surrogate (as ``\\ud800`` or as a character) and no U+FFFD, the mark
    of a character that was not valid when the answer arrived.
    """
    repeated: list[str] = []
    try:
        value = json.loads(
            text or "{}",
            object_pairs_hook=functools.partial(_pairs_noting_repeats, repeated),
            parse_constant=_no_constant,
        )
    except RecursionError:
        return "the arguments are nested too deeply"
    except ValueError as exc:
        return f"the arguments are not valid JSON ({exc})"[:200]
    if not isinstance(value, dict):
        return "the arguments are not a JSON object"
    if repeated:
        return f"the key {repeated[0]!r} is given twice in one object"
    if any(_UNSOUND.search(part) for part in _strings(value)):
        return "the arguments hold text that is not valid Unicode (a lone surrogate)"
    return None


def _pairs_noting_repeats(repeated: list[str], pairs: list[tuple[str, Any]]) -> JsonObject:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        keys = [key for key, _ in pairs]
        repeated.extend(k for k in obj if keys.count(k) > 1)
    return obj


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


def _strings(value: Any) -> Iterator[str]:
    """Every string of a parsed JSON value, keys included."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict):
            yield from item.keys()
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def schema_refs_inside(schema: JsonObject) -> JsonObject:
    """``schema``, refused (ValueError) when a ``$ref`` points outside it: never fetched."""
    for problem in ref_problems(schema):
        raise ValueError(problem)
    return schema


class ToolSpec(Closed):
    """A tool the model may call, and the stub that answers it."""

    name: str = Field(description="Letters, digits, _ and -, at most 64.")
    description: str = Field(default="", description="What the tool does, as the model sees it.")
    parameters: dict[str, Any] = Field(
        default_factory=lambda: {"type": "object", "properties": {}},
        description="JSON Schema of the arguments.",
    )
    returns: str = Field(default="ok", description="The text every call returns.")
    injection: str | None = Field(
        default=None, description="An instruction appended to what the tool returns."
    )

    @field_validator("parameters")
    @classmethod
    def _refs_inside(cls, schema: JsonObject) -> JsonObject:
        return schema_refs_inside(schema)

    @field_validator("name")
    @classmethod
    def _valid_name(cls, value: str) -> str:
        if not _TOOL_NAME.match(value):
            raise ValueError("a tool name is 1-64 letters, digits, _ or -")
        return value

    def result(self) -> str:
        """What a call of this tool returns to the model."""
        return f"{self.returns}\n\n{self.injection}" if self.injection else self.returns


class ForbiddenCall(Closed):
    """A call the case forbids: any call of ``tool``, or one whose ``argument`` matches
    ``matches`` and not ``unless`` (case-insensitive regexes, run in linear time)."""

    tool: str
    argument: str | None = Field(default=None, description="The argument checked.")
    matches: str | None = Field(default=None, description="Forbidden when the argument matches.")
    unless: str | None = Field(
        default=None, description="Forbidden when the argument does not match this."
    )

    @field_validator("matches", "unless")
    @classmethod
    def _compiles(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                re2.compile(value)
            except re2.error as exc:
                why = exc.args[0] if exc.args else exc
                why = why.decode("utf-8", "replace") if isinstance(why, bytes) else str(why)
                raise ValueError(f"not a valid pattern: {why}") from None
        return value

    def forbids(self, call: ToolCall) -> bool:
        """Whether ``call`` is one this rule forbids."""
        if call.name != self.tool:
            return False
        if self.argument is None:
            return True
        return any(self._forbids_value(v) for v in call.argument_values(self.argument))

    def _forbids_value(self, value: Any) -> bool:
        if value is None:
            return False
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        if self.matches is not None and not _search(self.matches, text):
            return False
        return self.unless is None or not _search(self.unless, text)


@lru_cache(maxsize=256)
def _compiled(pattern: str) -> Any:
    return re2.compile(f"(?i:{pattern})")


def _search(pattern: str, text: str) -> bool:
    return _compiled(pattern).search(text) is not None


class ToolUse(Closed):
    """One executed call: what was asked, what the stub returned, or why it failed."""

    step: int = Field(ge=0, description="The model call that asked for it (0 is the first).")
    call: ToolCall
    result: str = ""
    error: str | None = Field(default=None, description="Unknown tool or bad arguments.")
    server: str | None = Field(
        default=None, description="The MCP server that answered (None: the case's stub)."
    )


class McpServer(Closed):
    """An MCP server whose tools a case offers the model; the runner calls the real server."""

    server: str = Field(
        min_length=1,
        description="stdio:COMMAND ARGS, an http(s) URL (streamable HTTP; SSE when the path ends "
        "in /sse), or rogue:SCENARIO (failproof's own rogue server).",
    )
    headers: dict[str, str] = Field(
        default_factory=dict, description="HTTP headers; ${NAME} is read from the environment."
    )
    tools: list[str] | None = Field(
        default=None, description="Offer only these of the server's tools (default: all)."
    )

    @model_validator(mode="before")
    @classmethod
    def _from_text(cls, value: Any) -> Any:
        return {"server": value} if isinstance(value, str) else value
