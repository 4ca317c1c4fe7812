"""Ctrl-C and SIGTERM stop a run, a score or an attack cleanly while it goes.

Both stop as Ctrl-C does. Outside an event loop that is a `KeyboardInterrupt` where the program
is. While an asyncio event loop runs, asyncio's own Ctrl-C handler takes it: the running task is
cancelled and the interrupt raised once the loop has unwound, never at whatever line the signal
lands on (a finaliser or callback that swallows exceptions would otherwise lose the stop, and the
run would go on waiting).
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

__all__ = ["stop_signals"]


@contextmanager
def stop_signals() -> Iterator[None]:
    """Ctrl-C and SIGTERM both stop what runs inside the block (see the module).

    Both handlers are installed: a shell that starts us in the background hands SIGINT down as
    ignored, and a run must still stop on Ctrl-C (or ``kill -INT``) there.
    """
    handlers = {signal.SIGINT: signal.default_int_handler, signal.SIGTERM: _as_ctrl_c}
    try:
        previous = {sig: signal.signal(sig, handler) for sig, handler in handlers.items()}
    except ValueError:  # not the main thread: leave signals alone
        yield
        return
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _as_ctrl_c(signum: int, frame: FrameType | None) -> None:  # noqa: ARG001
    """SIGTERM handed to whatever handles Ctrl-C now (asyncio's, while an event loop runs)."""
    handler = signal.getsignal(signal.SIGINT)
    if not callable(handler) or handler is _as_ctrl_c:
        raise KeyboardInterrupt
    handler(signal.SIGINT, frame)
