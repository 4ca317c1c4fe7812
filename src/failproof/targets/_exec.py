"""``exec:COMMAND``: a program as the target; the case goes in as JSON, the answer comes out.

The command is split like a shell would (no shell runs it). It gets one JSON object on stdin:
the case's fields plus ``messages`` (a list of ``{"role", "content"}``); what it prints on
stdout is the output (one trailing newline dropped). A non-zero exit status is an error that
quotes the end of stderr.

The command runs in a process group of its own. Its output is what it printed until it exited:
anything it left running in the background is killed then (so the pipe closes and no orphan
stays), and on a timeout the whole group is killed. A child that left the group (``setsid``)
and still holds the output pipes is found by the pipes it holds (Linux) and killed too.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shlex
import shutil
import signal
import time
from collections.abc import Mapping
from typing import Any

from failproof.core import Capabilities, Case, Response
from failproof.errors import TargetError
from failproof.guard._json import JsonObject
from failproof.targets._base import CallError, Target, targets

__all__ = ["ExecTarget", "case_payload"]

_TAIL = 500


def case_payload(case: Case) -> bytes:
    """The JSON sent on stdin: the case's fields and its chat messages."""
    data = case.model_dump(mode="json", exclude_none=True)
    data["messages"] = [{"role": m.role, "content": m.content} for m in case.messages()]
    return json.dumps(data, ensure_ascii=False).encode("utf-8")


def _check_runnable(program: str) -> None:
    """The program can be started: found on PATH (or at the path given) and executable; else
    the run stops before any case, instead of every case failing the same way."""
    found = shutil.which(program)
    if found is None:
        where = "at that path" if os.sep in program else "on PATH"
        raise TargetError(
            f"cannot start {program!r}: no executable program of that name {where}",
            hint="give the program's path, or install it; e.g. --target 'exec:python my_app.py'",
        )


class ExecTarget(Target):
    """Runs a command once per case."""

    name = "exec"
    #: the program changes while its command line stays: never serve stale answers
    cacheable = False

    def __init__(self, command: str, *, timeout_s: float = 60.0) -> None:
        try:
            self.argv = shlex.split(command)
        except ValueError as exc:
            raise TargetError(f"cannot split the command {command!r}: {exc}") from None
        if not self.argv:
            raise TargetError("exec needs a command: --target 'exec:python my_app.py'")
        _check_runnable(self.argv[0])
        self.command = command
        self.timeout_s = timeout_s

    def identity(self) -> JsonObject:
        return {"name": self.name, "command": self.command}

    def capabilities(self) -> Capabilities:
        """The program answers with text: it cannot call a case's tools."""
        return Capabilities(tools=False, because="its answer is text, which calls no tool")

    async def generate(self, case: Case) -> Response:
        start = time.perf_counter()
        try:
            process, exited = await _start(self.argv)
        except OSError as exc:
            raise CallError(f"cannot start {self.argv[0]!r}: {exc.strerror}") from None
        stdout, stderr = await self._communicate(process, exited, case_payload(case))
        latency = round((time.perf_counter() - start) * 1000, 3)
        if process.returncode != 0:
            tail = stderr.decode("utf-8", errors="replace").strip()[-_TAIL:]
            raise CallError(
                f"the command exited with status {process.returncode}: {tail or '(no stderr)'}",
                status=process.returncode,
            )
        text = stdout.decode("utf-8", errors="replace").removesuffix("\n")
        return Response.from_output(text, latency_ms=latency)

    async def _communicate(
        self, process: asyncio.subprocess.Process, exited: asyncio.Event, payload: bytes
    ) -> tuple[bytes, bytes]:
        try:
            async with asyncio.timeout(self.timeout_s):
                return await _talk(process, exited, payload)
        except TimeoutError:
            raise CallError(
                f"the command did not finish within {self.timeout_s:g} s (killed)",
                retryable=True,
                status="timeout",
            ) from None
        finally:
            _kill_group(process.pid)
            if process.returncode is None:
                await process.wait()


class _ExitAware(asyncio.subprocess.SubprocessStreamProtocol):
    """The stream protocol, plus an event set the moment the process itself exits.

    ``Process.wait()`` returns only once every pipe is closed too, which a background child
    holding stdout delays for ever; this event does not wait for the pipes.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(limit=2**16, loop=loop)
        self.exited = asyncio.Event()
        self.pipes: list[int] = []  # inodes of the output pipes, to find who still holds them

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        assert isinstance(transport, asyncio.SubprocessTransport)
        for fd in (1, 2):
            pipe = transport.get_pipe_transport(fd)
            handle = pipe.get_extra_info("pipe") if pipe is not None else None
            if handle is not None:
                with contextlib.suppress(OSError, AttributeError, ValueError):
                    self.pipes.append(os.fstat(handle.fileno()).st_ino)

    def process_exited(self) -> None:
        super().process_exited()
        self.exited.set()


async def _start(argv: list[str]) -> tuple[asyncio.subprocess.Process, asyncio.Event]:
    loop = asyncio.get_running_loop()
    protocol = _ExitAware(loop)
    pipe = asyncio.subprocess.PIPE
    transport, _ = await loop.subprocess_exec(
        lambda: protocol, *argv, stdin=pipe, stdout=pipe, stderr=pipe, start_new_session=True
    )
    process = asyncio.subprocess.Process(transport, protocol, loop)
    _pipes[process.pid] = protocol.pipes
    return process, protocol.exited


#: The output pipes' inodes of each running command, by pid.
_pipes: dict[int, list[int]] = {}
#: How long the command's group has to let go of its pipes before whoever holds them is found.
_RELEASE_S = 0.2


async def _talk(
    process: asyncio.subprocess.Process, exited: asyncio.Event, payload: bytes
) -> tuple[bytes, bytes]:
    """Send the payload, wait for the command to exit, end what it left behind, read to EOF."""
    assert process.stdout is not None and process.stderr is not None
    feeding = asyncio.create_task(_feed(process, payload))
    out = asyncio.create_task(process.stdout.read())
    err = asyncio.create_task(process.stderr.read())
    try:
        await exited.wait()
        _kill_group(process.pid)  # background children hold the pipes open: end them
        _, open_pipes = await asyncio.wait({out, err}, timeout=_RELEASE_S)
        if open_pipes:  # a child left the group (setsid) and still holds a pipe: end it too
            _kill_holders(_pipes.get(process.pid, []))
        stdout, stderr = await asyncio.gather(out, err)
        await feeding
    finally:
        _pipes.pop(process.pid, None)
        for task in (feeding, out, err):
            task.cancel()
    return stdout, stderr


def _kill_holders(inodes: list[int]) -> None:
    """SIGKILL every other process that holds one of these pipes (Linux: read from /proc)."""
    wanted = {f"pipe:[{inode}]" for inode in inodes}
    for pid in _pids():
        if pid != os.getpid() and _holds(pid, wanted):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)


def _pids() -> list[int]:
    with contextlib.suppress(OSError):
        return [int(name) for name in os.listdir("/proc") if name.isdigit()]
    return []


def _holds(pid: int, wanted: set[str]) -> bool:
    folder = f"/proc/{pid}/fd"
    with contextlib.suppress(OSError):
        for fd in os.listdir(folder):
            with contextlib.suppress(OSError):
                if os.readlink(f"{folder}/{fd}") in wanted:
                    return True
    return False


async def _feed(process: asyncio.subprocess.Process, payload: bytes) -> None:
    assert process.stdin is not None
    try:
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            process.stdin.write(payload)
            await process.stdin.drain()
    finally:
        process.stdin.close()


def _kill_group(pgid: int) -> None:
    """SIGKILL every process left in the command's group (it is gone already: nothing)."""
    with contextlib.suppress(ProcessLookupError, PermissionError, OSError):
        os.killpg(pgid, signal.SIGKILL)


@targets.register("exec")
def _exec_factory(argument: str, options: Mapping[str, Any]) -> Target:
    """A command run once per case: ``exec:'python my_app.py'`` (case JSON on stdin)."""
    return ExecTarget(argument, timeout_s=float(options.get("timeout_s", 60.0)))
