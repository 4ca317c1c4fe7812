"""The process a ``python:`` target's code runs in: ``python -m failproof.targets._python_worker
REFERENCE``.

It loads the callable, says ``{"ready": true}`` (or ``{"error": ...}``) on its protocol stream,
then answers one JSON line per request: ``{"id": N, "case": {...}}`` in, ``{"id": N,
"response": {...}}`` or ``{"id": N, "error": ..., "retryable": ...}`` out. The callable's own
prints go to stderr (file descriptor 1 is moved there before it loads), and its stdin is empty,
so nothing it does can write into the protocol. The worker ends when its requests end (the
run is over, or failproof is gone).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import threading
from typing import Any, TextIO

from failproof.core import Case
from failproof.errors import TargetError
from failproof.guard._json import JsonObject
from failproof.targets._base import CallError
from failproof.targets._python import PythonTarget, load_callable


class _Protocol:
    """The worker's side of the pipes, taken before the callable's code can touch them."""

    def __init__(self) -> None:
        self.out: TextIO = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
        self.requests: TextIO = os.fdopen(os.dup(0), "r", encoding="utf-8")
        os.dup2(2, 1)  # print() and C-level writes of the callable go to stderr
        empty = os.open(os.devnull, os.O_RDONLY)
        os.dup2(empty, 0)
        self.lock = threading.Lock()

    def send(self, message: dict[str, Any]) -> None:
        line = json.dumps(message, ensure_ascii=True)
        with self.lock:
            self.out.write(line + "\n")
            self.out.flush()


async def _answer(target: PythonTarget, request: JsonObject) -> JsonObject:
    try:
        case = Case.model_validate(request["case"])
        response = await target.generate(case)
        return {"id": request["id"], "response": response.model_dump(mode="json")}
    except CallError as exc:
        return {"id": request["id"], "error": exc.message, "retryable": exc.retryable}
    except BaseException as exc:  # KeyboardInterrupt, SystemExit: this call's error, no more
        message = f"{target.reference} raised {type(exc).__name__}: {exc}"
        return {"id": request["id"], "error": message, "retryable": False}


async def _serve(target: PythonTarget, protocol: _Protocol) -> None:
    loop = asyncio.get_running_loop()
    ended = asyncio.Event()
    tasks: set[asyncio.Task[None]] = set()

    async def handle(request: dict[str, Any]) -> None:
        answer = await _answer(target, request)
        try:
            protocol.send(answer)
        except (TypeError, ValueError) as exc:  # a response JSON cannot hold
            error = f"the answer of {target.reference} cannot be sent: {exc}"
            protocol.send({"id": request["id"], "error": error, "retryable": False})

    def start(line: str) -> None:
        task = loop.create_task(handle(json.loads(line)))
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    def read() -> None:
        for line in protocol.requests:
            loop.call_soon_threadsafe(start, line)
        loop.call_soon_threadsafe(ended.set)

    threading.Thread(target=read, name="failproof-worker-requests", daemon=True).start()
    await ended.wait()


def main(reference: str) -> None:
    protocol = _Protocol()
    try:
        fn = load_callable(reference)
    except TargetError as exc:
        protocol.send({"error": exc.message, "hint": exc.hint})
        os._exit(3)
    except BaseException as exc:  # the module's own code ended or interrupted its loading
        protocol.send({"error": f"loading {reference!r} raised {type(exc).__name__}: {exc}"})
        os._exit(3)
    target = PythonTarget(fn, reference)
    protocol.send({"ready": True, "messages_only": target.messages_only})
    try:
        asyncio.run(_serve(target, protocol))
    finally:
        os._exit(0)  # threads the callable left behind never keep the worker alive


if __name__ == "__main__":
    main(sys.argv[1])
