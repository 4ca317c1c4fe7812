"""``python:module:function`` run in a worker process of its own, as ``exec:`` commands are.

The target's code cannot end or stall failproof: a call that ends the worker (``os._exit``,
``sys.exit`` from a thread, a crash) is that call's error and the next call starts a new
worker; ``KeyboardInterrupt`` raised by the code is its call's error; a call that does not answer
within the run's timeout (an ``async def`` that blocks its event loop included) is abandoned
and its worker killed, with everything it started (it runs in a process group of its own).
Calls run concurrently inside one worker, as they would in failproof's own process.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Mapping
from typing import Any

from failproof.core import Capabilities, Case, Response
from failproof.errors import TargetError
from failproof.guard._json import JsonObject
from failproof.targets._base import CallError, Target
from failproof.targets._callable import callable_capabilities

__all__ = ["PythonProcessTarget"]

_TAIL = 400


class _Worker:
    """One worker process, its pending calls, and the tail of what it wrote on stderr."""

    def __init__(self, reference: str) -> None:
        self.reference = reference
        self.process = subprocess.Popen(
            [sys.executable, "-m", "failproof.targets._python_worker", reference],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        self.pending: dict[int, tuple[asyncio.AbstractEventLoop, asyncio.Future[Any]]] = {}
        self.lock = threading.Lock()
        self.stderr: collections.deque[str] = collections.deque(maxlen=50)
        self.next_id = 0
        self.killed = False
        threading.Thread(target=self._drain_stderr, daemon=True).start()
        self.ready = self._first_line()
        if not self.ready.get("error"):
            threading.Thread(target=self._read_answers, daemon=True).start()

    def _first_line(self) -> JsonObject:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        try:
            data = json.loads(line) if line else {}
        except ValueError:
            data = {}
        if not isinstance(data, dict) or not (data.get("ready") or data.get("error")):
            code = self.process.wait()
            data = {"error": f"its process ended ({_status(code)}) before it was ready"}
        if data.get("error"):
            self.kill()
            self.process.wait()
            self.process.stdout.close()
        return data

    def _drain_stderr(self) -> None:
        assert self.process.stderr is not None
        with self.process.stderr:
            for raw in self.process.stderr:
                self.stderr.append(raw.decode("utf-8", "replace").rstrip("\n")[-_TAIL:])

    def _read_answers(self) -> None:
        assert self.process.stdout is not None
        with self.process.stdout:
            for line in self.process.stdout:
                with contextlib.suppress(ValueError, KeyError, TypeError):
                    answer = json.loads(line)
                    self._settle(answer["id"], answer)
        code = self.process.wait()
        tail = " | ".join(self.stderr)[-_TAIL:]
        gone = f"the python: target's process ended ({_status(code)}) during the call"
        with self.lock:
            waiting = list(self.pending)
        for call_id in waiting:
            self._settle(call_id, {"error": f"{gone}: {tail}" if tail else gone})

    def _settle(self, call_id: int, answer: dict[str, Any]) -> None:
        with self.lock:
            entry = self.pending.pop(call_id, None)
        if entry is not None:
            loop, future = entry
            with contextlib.suppress(RuntimeError):  # the loop is gone: nobody waits any more
                loop.call_soon_threadsafe(_resolve, future, answer)

    def alive(self) -> bool:
        return not self.killed and self.process.poll() is None

    async def call(self, case: Case) -> JsonObject:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        with self.lock:
            self.next_id += 1
            call_id = self.next_id
            self.pending[call_id] = (loop, future)
        line = json.dumps({"id": call_id, "case": case.model_dump(mode="json")}) + "\n"
        try:
            await asyncio.to_thread(self._send, line.encode("utf-8"))
        except (OSError, ValueError):  # the worker is gone, its pipe closed
            self._settle(call_id, {"error": "the python: target's process is gone"})
        answer: dict[str, Any] = await future
        return answer

    def _send(self, data: bytes) -> None:
        assert self.process.stdin is not None
        with self.lock:
            self.process.stdin.write(data)
            self.process.stdin.flush()

    def kill(self) -> None:
        """End the worker and everything it started."""
        self.killed = True
        with contextlib.suppress(ProcessLookupError, PermissionError, OSError):
            os.killpg(self.process.pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            if self.process.stdin is not None:
                self.process.stdin.close()


def _resolve(future: asyncio.Future[Any], answer: dict[str, Any]) -> None:
    if not future.done():
        future.set_result(answer)


def _status(code: int) -> str:
    return f"killed by signal {-code}" if code < 0 else f"exit {code}"


class PythonProcessTarget(Target):
    """Calls a Python function with each case, in a worker process of its own."""

    name = "python"
    #: the code behind the callable changes while its name stays: never serve stale answers
    cacheable = False

    def __init__(self, reference: str) -> None:
        self.reference = reference
        self._worker = self._start()
        self._starting = asyncio.Lock()

    def _start(self) -> _Worker:
        worker = _Worker(self.reference)
        if worker.ready.get("error"):
            hint = worker.ready.get("hint")
            raise TargetError(
                str(worker.ready["error"]), hint=hint if isinstance(hint, str) else None
            )
        return worker

    def identity(self) -> JsonObject:
        return {"name": self.name, "callable": self.reference}

    def capabilities(self) -> Capabilities:
        return callable_capabilities(messages_only=self._worker.ready.get("messages_only") is True)

    async def _live_worker(self) -> _Worker:
        async with self._starting:
            if not self._worker.alive():
                try:
                    self._worker = await asyncio.to_thread(self._start)
                except TargetError as exc:
                    raise CallError(f"the python: target cannot start again: {exc}") from None
            return self._worker

    async def generate(self, case: Case) -> Response:
        worker = await self._live_worker()
        try:
            answer = await worker.call(case)
        except asyncio.CancelledError:  # a timeout or a stop: the call may hold the worker
            worker.kill()
            raise
        if "error" in answer:
            raise CallError(str(answer["error"]), retryable=bool(answer.get("retryable")))
        return Response.model_validate(answer["response"])

    async def aclose(self) -> None:
        self._worker.kill()
        await asyncio.to_thread(self._worker.process.wait)


def python_process_target(argument: str, options: Mapping[str, Any]) -> Target:  # noqa: ARG001
    """A Python callable in a worker process: ``python:module:function`` or ``file.py:fn``."""
    return PythonProcessTarget(argument)
