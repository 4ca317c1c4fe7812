"""The failure geometry computed in a process of its own, beside the run that feeds it.

A large run's geometry needs numpy (about 0.1 CPU-seconds to import) and scipy's sparse loops,
and a fit after its last result. In the run's own process both compete with the HTTP client for
the interpreter lock; in a forked process they use another core. `GeometryProcess` forks before
the run's event loop starts and imports them at once, on a thread, while the run opens its
connections; `RemoteGeometry` is the run's ``observability`` accumulator: it sends each case's
labels and document (`geometry_case`) as results are stored, and asks for the section once the
run's planned results are in (or at `finish`); the process computes it with
`GeometryAccumulator`, as the run's process would have, having tokenized each document as it
came.

Nothing is lost when the process fails: `finish` raises `GeometryLost`, and the run builds its
report from the store, computing the geometry itself.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
import socket
import threading
from multiprocessing.process import BaseProcess

from failproof._frames import frame, recv_frame
from failproof.config import ScoringConfig
from failproof.core import CaseResult
from failproof.metrics._base import AggregateContext
from failproof.metrics._geometry_docs import GeometryCase, geometry_case
from failproof.metrics._geometry_section import Observability
from failproof.metrics._geometry_stream import IN_MEMORY, GeometryAccumulator
from failproof.metrics._geometry_tokens import TokenMemo

__all__ = ["BATCH", "GeometryLost", "GeometryProcess", "RemoteGeometry"]

#: Cases sent to the process in one message.
BATCH = 128


class GeometryLost(RuntimeError):
    """The geometry's process failed or stopped: the section is computed again, here."""


class GeometryProcess:
    """A forked process that computes one run's failure geometry (see the module).

    Fork it before any thread starts; `close` it once the report is built (or given up)."""

    def __init__(self) -> None:
        ours, theirs = socket.socketpair()
        self.process: BaseProcess = multiprocessing.get_context("fork").Process(
            target=_serve, args=(theirs, ours), name="failproof-geometry", daemon=True
        )
        self.process.start()
        theirs.close()
        self.sock = ours
        self.used = False

    def accumulator(self, ctx: AggregateContext) -> RemoteGeometry:
        """The ``observability`` accumulator of the one report this process serves."""
        if self.used:
            raise GeometryLost("the geometry's process serves one report")
        self.used = True
        return RemoteGeometry(self, ctx)

    def send(self, message: tuple[str, object]) -> None:
        try:
            self.sock.sendall(frame(message))
        except OSError as exc:
            raise GeometryLost(f"the geometry's process stopped ({exc})") from exc

    def result(self) -> Observability | None:
        """The section, once every case is sent and it was asked for (`GeometryLost` when the
        process failed)."""
        try:
            received, reply = recv_frame(self.sock)
        except OSError as exc:
            raise GeometryLost(f"the geometry's process stopped ({exc})") from exc
        if not received:
            raise GeometryLost(f"the geometry's process stopped (exit {self.process.exitcode})")
        status, payload = reply
        if status != "ok":
            raise GeometryLost(f"the geometry's process failed: {payload}")
        section: Observability | None = payload
        return section

    def close(self) -> None:
        """Close the socket: the process leaves once it sees it closed (at once when it has
        answered; a fit under way ends first). Nothing waits for it: it holds nothing to keep."""
        self.sock.close()


class RemoteGeometry:
    """The ``observability`` accumulator whose section a `GeometryProcess` computes.

    Once it has had as many results as the run planned (``planned``), the process is asked for
    the section at once: it fits while the run finishes its other sections."""

    def __init__(self, process: GeometryProcess, ctx: AggregateContext) -> None:
        self.process = process
        self.chars = ctx.scoring.probe.geometry_text_chars
        self.planned = ctx.planned
        self.results = 0
        self.batch: list[GeometryCase] = []
        self.asked = False
        process.send(("start", ctx.scoring))

    def add(self, result: CaseResult) -> None:
        self.results += 1
        case = geometry_case(result, self.chars)
        if case is not None:
            self.batch.append(case)
        if self.results == self.planned:
            self._ask()
        elif len(self.batch) >= BATCH:
            self._send()

    def finish(self) -> Observability | None:
        self._ask()
        return self.process.result()

    def _send(self) -> None:
        if self.batch:
            batch, self.batch = self.batch, []
            self.process.send(("cases", batch))

    def _ask(self) -> None:
        """Send the cases still held, then ask for the section (once)."""
        self._send()
        if not self.asked:
            self.asked = True
            self.process.send(("finish", None))


def _serve(sock: socket.socket, ours: socket.socket) -> None:
    """The process's life: accumulate the cases sent until asked for the section (or until the
    run closes the socket), while a thread loads numpy and scipy's sparse loops for the fit. The
    cases are read from the first: a run's send never waits for the imports."""
    # Ctrl-C reaches the whole process group: the run stops us by closing the socket. Anyone
    # who sends us SIGTERM means it (nothing here needs saving).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    ours.close()
    threading.Thread(target=_preload, name="failproof-geometry-imports", daemon=True).start()
    try:
        sock.sendall(_framed(_accumulate(sock)))
    except (OSError, GeometryLost):  # the run went away
        pass
    finally:
        sock.close()


def _framed(reply: tuple[str, object]) -> bytes:
    try:
        return frame(reply)
    except Exception as exc:  # a section that does not pickle: its error instead
        return frame(("error", f"{type(exc).__name__}: {exc}"))


def _accumulate(sock: socket.socket) -> tuple[str, object]:
    """Every message up to the run's ``finish``, then the reply to it."""
    fit = _Fit()
    while (message := _receive(sock))[0] != "finish":
        fit.take(*message)
    return fit.reply()


class _Fit:
    """The process's one geometry: the first error met is kept, and what comes after it is
    read and dropped (the run's sends never fail on our account)."""

    def __init__(self) -> None:
        self.accumulator: GeometryAccumulator | None = None
        self.error: str | None = None

    def take(self, kind: str, payload: object) -> None:
        if self.error is not None:
            return
        try:
            if kind == "start" and isinstance(payload, ScoringConfig):
                tokens = TokenMemo(IN_MEMORY)  # the documents the fit reads, tokenized ahead
                self.accumulator = GeometryAccumulator(AggregateContext(payload), tokens)
            elif kind == "cases" and self.accumulator is not None and isinstance(payload, list):
                for case in payload:
                    self.accumulator.add_case(case)
            else:
                self.error = f"unexpected message {kind!r}"
        except Exception as exc:  # the run computes the section again and meets it itself
            self.error = f"{type(exc).__name__}: {exc}"

    def reply(self) -> tuple[str, object]:
        """``("ok", section)``, or ``("error", message)``."""
        if self.error is None and self.accumulator is not None:
            try:
                return "ok", self.accumulator.finish()
            except Exception as exc:
                self.error = f"{type(exc).__name__}: {exc}"
        return "error", self.error or "asked for the section before any case"


def _receive(sock: socket.socket) -> tuple[str, object]:
    received, message = recv_frame(sock)
    if not received:
        raise GeometryLost("the run closed the socket")
    kind, payload = message
    return str(kind), payload


def _preload() -> None:
    """What the fit imports, imported while the run opens its connections (an import the fit
    makes meanwhile waits for this one; one that fails here fails again where it is used)."""
    with contextlib.suppress(Exception):
        from failproof.metrics import _geometry, _geometry_two_pass  # noqa: F401
        from failproof.metrics._geometry_csr import load_kernels

        load_kernels()
