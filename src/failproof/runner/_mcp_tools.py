"""Agents whose tools come from MCP servers: offered from the real servers, called on them.

For each case the runner connects to the case's ``mcp_servers`` (a fresh session per case, so a
server's state never leaks between cases), lists their tools before every model call (a tool
that changes after its first listing is seen changed, as a real client would see it), and sends
each call the model makes to the server that owns the tool. The case's stub tools come first; a
server's tool whose name is taken or is not a valid tool name is not offered.

A run keeps every call and its result at once (a `CallRecord`: the store's ``mcp_calls`` table):
a resumed run reuses the stored result and never calls the server again. An attack is not a run
and keeps no per-call record: its journal stores each target step whole, with its ``tool_uses``,
so a resumed attack replays a finished step without reaching the servers; a step cut off mid-way
(no step stored yet) is played again and calls the servers again.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import AsyncIterator, Iterator
from contextlib import AsyncExitStack, asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from typing import Protocol

from failproof.core import Case, Response, ToolCall, ToolSpec
from failproof.core._tools import McpServer, ToolUse
from failproof.mcp import ToolDef, parse_server
from failproof.mcp._calls import call_tool
from failproof.mcp._connect import Connection, connect
from failproof.mcp._listing import list_tools
from failproof.mcp._scan import describe_error
from failproof.runner._agent import Answer, play_agent, run_tool, schema_problem
from failproof.store import Store

__all__ = ["CallRecord", "McpTools", "play_with_mcp"]

_TOOL_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_EMPTY = {"type": "object", "properties": {}}


@dataclass(frozen=True)
class CallRecord:
    """Where a run keeps the MCP calls of one case (its suite, case id and sample)."""

    store: Store
    run_id: str
    key: tuple[str, str, int]

    def get(self, step: int, call: ToolCall) -> ToolUse | None:
        """The stored call and its result, or None when it was never made."""
        stored = self.store.mcp_call(self.run_id, self._call_key(step, call))
        return None if stored is None else ToolUse.model_validate_json(stored)

    def put(self, step: int, call: ToolCall, use: ToolUse) -> None:
        self.store.add_mcp_call(self.run_id, self._call_key(step, call), use.model_dump_json())

    def _call_key(self, step: int, call: ToolCall) -> str:
        parts = [*self.key, step, call.id, call.name, call.arguments]
        return hashlib.sha256(json.dumps(parts).encode("utf-8")).hexdigest()


class CallLog(Protocol):
    """Where the calls of one case are kept (`CallRecord`)."""

    def get(self, step: int, call: ToolCall) -> ToolUse | None: ...

    def put(self, step: int, call: ToolCall, use: ToolUse) -> None: ...


@dataclass
class McpTools:
    """The toolbox of one case: its stubs, then its servers' tools. ``record`` keeps each call
    (None: no per-call record, as in an attack)."""

    links: list[tuple[McpServer, Connection]]
    record: CallLog | None
    timeout_s: float
    owners: dict[str, Connection] = field(default_factory=dict)
    listed: dict[int, list[ToolDef]] = field(default_factory=dict)

    async def offered(self, case: Case) -> list[ToolSpec]:
        specs = list(case.tools)
        taken = {t.name for t in specs}
        self.owners = {}
        for index, (ref, connection) in enumerate(self.links):
            for tool in await self._listing(index, connection):
                wanted = ref.tools is None or tool.name in ref.tools
                if not wanted or tool.name in taken or not _TOOL_NAME.match(tool.name):
                    continue
                schema = tool.input_schema or _EMPTY
                try:
                    spec = ToolSpec(name=tool.name, description=tool.description, parameters=schema)
                except ValueError:  # a schema failproof refuses ($ref outside it): not offered
                    continue
                specs.append(spec)
                taken.add(tool.name)
                self.owners[tool.name] = connection
        return specs

    async def _listing(self, index: int, connection: Connection) -> list[ToolDef]:
        """The server's tools now; once a server has died, what it listed last (its calls then
        fail, each a tool_error the model is told of)."""
        try:
            self.listed[index] = await list_tools(connection)
        except Exception:  # the server is gone: its last listing stands
            if index not in self.listed:
                raise
        return self.listed[index]

    async def run(self, case: Case, step: int, call: ToolCall) -> ToolUse:
        connection = self.owners.get(call.name)
        if connection is None:
            return run_tool(case, step, call)
        if self.record is None:
            return await self._call(connection, case, step, call)
        stored = self.record.get(step, call)
        if stored is not None:
            return stored
        use = await self._call(connection, case, step, call)
        self.record.put(step, call, use)
        return use

    async def _call(self, connection: Connection, case: Case, step: int, call: ToolCall) -> ToolUse:
        import anyio

        server = connection.spec.label
        problem = _unsendable(case, call)
        if problem is not None:  # the server is sent nothing: the model is told why
            return ToolUse(step=step, call=call, error=f"bad arguments: {problem}", server=server)
        arguments = call.parsed_arguments()
        try:
            with anyio.fail_after(self.timeout_s):
                outcome = await call_tool(connection, call.name, arguments or {})
        except Exception as exc:  # the server hung or died mid-case: the call failed
            why = describe_error(exc, connection.log)
            return ToolUse(
                step=step, call=call, error=f"the MCP server failed: {why}", server=server
            )
        if outcome.tool_error:  # the tool said no: the model reads it, as from any tool
            return ToolUse(step=step, call=call, result=f"error: {outcome.text}", server=server)
        return ToolUse(
            step=step, call=call, result=outcome.text, error=outcome.error, server=server
        )


def _unsendable(case: Case, call: ToolCall) -> str | None:
    """Why the call must not reach its server, or None: arguments that are not one sound JSON
    object (a key named twice at any depth, a lone surrogate, ``NaN``), or that do not fit the
    tool's schema. A server reads such arguments its own way, never as failproof checked them."""
    problem = call.problem()
    if problem is not None:
        return f"{problem}; the call was not sent to the server"
    spec = next(t for t in case.tools if t.name == call.name)
    return schema_problem(call.parsed_arguments() or {}, spec.parameters)


@asynccontextmanager
async def _toolbox(case: Case, record: CallLog | None, timeout_s: float) -> AsyncIterator[McpTools]:
    async with AsyncExitStack() as stack:
        links: list[tuple[McpServer, Connection]] = []
        for ref in case.mcp_servers:
            spec = parse_server(ref.server, ref.headers)
            links.append((ref, await stack.enter_async_context(connect(spec, timeout_s=timeout_s))))
        yield McpTools(links, record, timeout_s)


async def play_with_mcp(
    case: Case,
    answer: Answer,
    *,
    timeout_s: float,
    record: CallRecord | None = None,
) -> tuple[Case, Response]:
    """Play an agent case whose tools come (also) from MCP servers; a server that cannot be
    reached makes the case an error, never a pass. ``record`` keeps each call (a run's resume
    reuses it); None keeps none (an attack's journal keeps the whole step instead).

    Only the servers' failures are the case's error. What the run's own side raises (the call to
    the target, the record of calls) is raised here as `play_agent` raises it for a case without
    servers, never reported as a server's failure."""
    ours = _Ours(answer, record)
    played: tuple[Case, Response] | None = None
    try:
        async with _toolbox(case, ours.record, timeout_s) as toolbox:
            played = await play_agent(case, ours.answer, toolbox)
    except Exception as exc:  # a hostile or missing server: the case records why
        raised = ours.raised_in(exc)
        if raised is not None:
            raise raised from None
        if played is None:
            return case, Response.failure(
                f"an MCP server of the case failed: {describe_error(exc)}"
            )
    assert played is not None
    return played


class _Ours:
    """The run's side of an MCP case, each exception it raises remembered: the answer of the
    target and the record of calls. A server's failure is anything else."""

    def __init__(self, answer: Answer, record: CallRecord | None) -> None:
        self._answer = answer
        self.record = None if record is None else _KeptRecord(record, self)
        self.raised: list[Exception] = []

    async def answer(self, case: Case) -> Response:
        with self.kept():
            return await self._answer(case)

    @contextmanager
    def kept(self) -> Iterator[None]:
        """Remember what the block raises as ours (it still raises)."""
        try:
            yield
        except Exception as exc:
            self.raised.append(exc)
            raise

    def raised_in(self, exc: BaseException) -> Exception | None:
        """The exception of ours that ``exc`` is, or holds (a task group of a server's session
        wraps what crosses it), or None."""
        leaves = _leaves(exc)
        return next((e for e in self.raised if any(e is leaf for leaf in leaves)), None)


class _KeptRecord:
    """A `CallRecord` whose failures (the store's) are remembered as the run's own."""

    def __init__(self, record: CallRecord, ours: _Ours) -> None:
        self._record, self._ours = record, ours

    def get(self, step: int, call: ToolCall) -> ToolUse | None:
        with self._ours.kept():
            return self._record.get(step, call)

    def put(self, step: int, call: ToolCall, use: ToolUse) -> None:
        with self._ours.kept():
            self._record.put(step, call, use)


def _leaves(exc: BaseException) -> list[BaseException]:
    if isinstance(exc, BaseExceptionGroup):
        return [leaf for inner in exc.exceptions for leaf in _leaves(inner)]
    return [exc]
