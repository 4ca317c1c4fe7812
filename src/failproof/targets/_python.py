"""``python:module:function``: a Python callable as the target (an app, a chain, an agent).

The callable is sync or async. It gets the `Case`, or, when its first parameter is named
``messages``, the chat messages as a list of ``{"role", "content"}`` dicts. It returns text, a
JSON-ready object (a dict or list: structured output), or a `Response`. Raising `CallError`
controls retries; any other exception becomes the case's error. A sync callable runs in a daemon
thread of its own, so it must be thread-safe when the run's concurrency is above 1; a call that
never returns is left behind when it times out and never keeps failproof from exiting.
``module`` may also be a path to a ``.py`` file.

`PythonTarget` calls a function object in this process (library use). The ``python:`` spec
runs the callable in a worker process instead (`failproof.targets._python_process`), where
this class serves it: its code cannot end or stall the run.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import importlib.util
import inspect
import sys
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from failproof.core import Capabilities, Case, Response
from failproof.errors import TargetError
from failproof.guard._json import JsonObject
from failproof.targets._base import CallError, Target, targets
from failproof.targets._callable import callable_capabilities

__all__ = ["PythonTarget", "in_daemon_thread", "load_callable", "to_response"]


def _load_module(name: str) -> Any:
    if name.endswith(".py"):
        path = Path(name)
        spec = importlib.util.spec_from_file_location(path.stem, path)
        if spec is None or spec.loader is None or not path.is_file():
            raise TargetError(f"no Python file {name!r}")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    if "" not in sys.path and str(Path.cwd()) not in sys.path:
        sys.path.insert(0, str(Path.cwd()))
    return importlib.import_module(name)


def load_callable(reference: str) -> Callable[..., Any]:
    """``module:function`` (or ``file.py:function``; dotted attributes allowed) -> the callable."""
    module_name, _, attr = reference.rpartition(":")
    if not module_name or not attr:
        raise TargetError(
            f"python target needs module:function, got {reference!r}",
            hint="--target python:my_app.bot:answer",
        )
    try:
        obj: Any = _load_module(module_name)
    except ImportError as exc:
        raise TargetError(f"cannot import {module_name!r}: {exc}") from None
    except Exception as exc:  # the module's own code failed while it loaded
        raise TargetError(
            f"loading {module_name!r} raised {type(exc).__name__}: {exc}",
            hint=f"run 'python -c \"import {Path(module_name).stem}\"' to see the traceback",
        ) from None
    for part in attr.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            raise TargetError(f"{module_name!r} has no attribute {attr!r}")
    if not callable(obj):
        raise TargetError(f"{reference!r} is not callable")
    return obj  # type: ignore[no-any-return]


def _wants_messages(fn: Callable[..., Any]) -> bool:
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return False
    return bool(params) and params[0].name in ("messages", "msgs")


def to_response(value: Any, latency_ms: float) -> Response:
    """What a callable returned, as a `Response`."""
    if isinstance(value, Response):
        if value.latency_ms is None:
            return value.model_copy(update={"latency_ms": latency_ms})
        return value
    if value is None or isinstance(value, str | dict | list):
        return Response.from_output(value, latency_ms=latency_ms)
    return Response.from_output(str(value), latency_ms=latency_ms)


async def in_daemon_thread(fn: Callable[[Any], Any], arg: Any) -> Any:
    """``fn(arg)`` in a new daemon thread, awaited. Unlike the loop's executor, a call that hangs
    is abandoned when its await is cancelled (a timeout) and holds up neither the loop's shutdown
    nor the interpreter's exit."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[Any] = loop.create_future()

    def settle(value: Any, error: BaseException | None) -> None:
        if future.done():
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(value)

    def work() -> None:
        value: Any = None
        error: BaseException | None = None
        try:
            value = fn(arg)
        except (SystemExit, GeneratorExit) as exc:  # the callable's exit is its case's error
            error = RuntimeError(f"{type(exc).__name__}({exc})")
        except BaseException as exc:  # handed to the awaiting task, which decides
            error = exc
        with contextlib.suppress(RuntimeError):  # the loop is gone: nobody waits any more
            loop.call_soon_threadsafe(settle, value, error)

    threading.Thread(target=work, name="failproof-python-target", daemon=True).start()
    return await future


class PythonTarget(Target):
    """Calls a Python function with each case (or its messages)."""

    name = "python"
    #: the code behind the callable changes while its name stays: never serve stale answers
    cacheable = False

    def __init__(self, fn: Callable[..., Any], reference: str = "") -> None:
        self.fn = fn
        self.reference = reference or f"{fn.__module__}:{fn.__qualname__}"
        self.messages_only = _wants_messages(fn)
        self.is_async = inspect.iscoroutinefunction(fn)

    def identity(self) -> JsonObject:
        return {"name": self.name, "callable": self.reference}

    def capabilities(self) -> Capabilities:
        """A callable given the `Case` sees its tools and may answer with tool calls (a
        `Response`); one given the messages sees none."""
        return callable_capabilities(messages_only=self.messages_only)

    async def generate(self, case: Case) -> Response:
        arg: Any = case
        if self.messages_only:
            arg = [{"role": m.role, "content": m.content} for m in case.messages()]
        start = asyncio.get_running_loop().time()
        try:
            if self.is_async:
                value = await self.fn(arg)
            else:
                value = await in_daemon_thread(self.fn, arg)
        except CallError:
            raise
        except (Exception, SystemExit) as exc:  # never the run's exit: this case's error
            raise CallError(f"{self.reference} raised {type(exc).__name__}: {exc}") from None
        latency = round((asyncio.get_running_loop().time() - start) * 1000, 3)
        return to_response(value, latency)


@targets.register("python")
def _python_factory(argument: str, options: Mapping[str, Any]) -> Target:
    """A Python callable: ``python:module:function`` or ``python:file.py:function``, run in a
    worker process of its own (so its code can neither end nor stall the run)."""
    from failproof.targets._python_process import python_process_target

    return python_process_target(argument, options)
