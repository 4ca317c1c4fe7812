"""Agents: the model calls the case's tools, the stubs answer, until it answers in words.

Each model call sends the conversation so far (with the tool calls it made and what the stubs
returned) and the case's tools. A call of an unknown tool, or arguments that are not a JSON object
matching the tool's schema, gets an error as its result (and counts as a ``tool_error``). The
loop ends at the first answer without a tool call, at a failed call, or after ``max_steps``
model calls.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Protocol

from failproof.core import Case, Message, Response, ToolCall, ToolSpec
from failproof.core._response import Repairs
from failproof.core._tools import ToolUse
from failproof.guard._schema import offline_validator

__all__ = ["StubTools", "Toolbox", "play_agent", "run_tool", "schema_problem"]

Answer = Callable[[Case], Awaitable[Response]]


class Toolbox(Protocol):
    """Where an agent's tools come from and where its calls go."""

    async def offered(self, case: Case) -> list[ToolSpec]:
        """The tools offered on the next model call."""
        ...

    async def run(self, case: Case, step: int, call: ToolCall) -> ToolUse:
        """Execute one call the model asked for."""
        ...


class StubTools:
    """The case's own tools, answered by their stubs."""

    async def offered(self, case: Case) -> list[ToolSpec]:
        return list(case.tools)

    async def run(self, case: Case, step: int, call: ToolCall) -> ToolUse:
        return run_tool(case, step, call)


async def play_agent(
    case: Case, answer: Answer, toolbox: Toolbox | None = None
) -> tuple[Case, Response]:
    """The last model call's case (the whole exchange) and the final answer with the tool
    trace. ``toolbox`` offers and runs the tools (default: the case's stubs)."""
    tools = toolbox or StubTools()
    history = [m for m in case.messages() if m.role != "system"]
    uses: list[ToolUse] = []
    spent: list[Response] = []
    for step in range(case.max_steps):
        offered = await tools.offered(case)
        step_case = case.model_copy(update={"task": None, "input": history, "tools": offered})
        response = await answer(step_case)
        spent.append(response)
        if response.error is not None or not response.tool_calls:
            return step_case, _final(response, uses, spent, limit=False)
        asked = Message(role="assistant", content=response.output, tool_calls=response.tool_calls)
        done = [await tools.run(step_case, step, call) for call in response.tool_calls]
        uses += done
        history = [*history, asked, *(_tool_message(use) for use in done)]
    return step_case, _final(response, uses, spent, limit=True)


def run_tool(case: Case, step: int, call: ToolCall) -> ToolUse:
    """Execute ``call`` against the case's stub of that tool."""
    spec = next((t for t in case.tools if t.name == call.name), None)
    if spec is None:
        return ToolUse(step=step, call=call, error=f"no tool named {call.name!r}")
    arguments = call.parsed_arguments()
    if arguments is None:
        return ToolUse(step=step, call=call, error="the arguments are not a JSON object")
    problem = call.problem() or schema_problem(arguments, spec.parameters)
    if problem is not None:
        return ToolUse(step=step, call=call, error=f"bad arguments: {problem}")
    return ToolUse(step=step, call=call, result=spec.result())


def schema_problem(arguments: Mapping[str, object], schema: Mapping[str, object]) -> str | None:
    """Why ``arguments`` do not fit ``schema`` (its first error), or None."""
    from jsonschema.exceptions import SchemaError  # a run without tools never loads jsonschema
    from referencing.exceptions import Unresolvable

    try:
        error = next(iter(offline_validator(schema).iter_errors(arguments)), None)
    except SchemaError as exc:
        return f"the tool's schema is invalid: {exc.message}"
    except Unresolvable as exc:  # a reference the schema does not hold: never fetched
        return f"the tool's schema has a reference it does not hold: {exc}"
    return None if error is None else error.message[:200]


def _tool_message(use: ToolUse) -> Message:
    content = use.result if use.error is None else f"error: {use.error}"
    return Message(role="tool", content=content, tool_call_id=use.call.id)


def _final(
    response: Response, uses: list[ToolUse], spent: Sequence[Response], *, limit: bool
) -> Response:
    latency = [r.latency_ms for r in spent if r.latency_ms is not None]
    return response.model_copy(
        update={  # a recorded answer (replay) brings its own trace
            "tool_uses": uses or response.tool_uses,
            "tool_limit": limit or response.tool_limit,
            "latency_ms": round(sum(latency), 3) if latency else None,
            "prompt_tokens": _tokens([r.prompt_tokens for r in spent]),
            "completion_tokens": _tokens([r.completion_tokens for r in spent]),
            "cached": all(r.cached for r in spent),
            "repairs": _repairs(spent),
        }
    )


def _repairs(spent: Sequence[Response]) -> Repairs | None:
    """What was repaired in any of the exchange's answers (a cut flood of calls included)."""
    found = [r.repairs for r in spent if r.repairs is not None]
    return functools.reduce(Repairs.merged, found[1:], found[0]) if found else None


def _tokens(values: list[int | None]) -> int | None:
    known = [v for v in values if v is not None]
    return sum(known) if known else None
