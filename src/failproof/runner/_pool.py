"""`PoolScoring`: scorers running in worker processes, fed over sockets by the event loop.

Each worker is a forked process with one socket to the runner. A batch of jobs goes out as one
length-prefixed pickle and comes back as one (the results, or the exception that stopped the
batch). The runner reads the replies from its own event loop (``add_reader``): no helper
thread competes with the HTTP client for the interpreter lock, and a batch costs one write and
one read. Workers are forked before the event loop starts, build their scorers once from the
run's scoring record, ignore Ctrl-C (the runner stops them) and leave when their socket closes
(also when the runner is killed).
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import pickle
import signal
import socket
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing.process import BaseProcess
from typing import Any

from failproof._frames import HEADER, frame, recv_frame
from failproof.config import ScoringConfig
from failproof.core import Case, CaseResult, Response
from failproof.runner._gc import quiet_gc
from failproof.runner._scoring import Scored, ScoreJob, close_scorers, score_jobs
from failproof.scoring import Scorer, build_scorers
from failproof.store._rows import load_result

__all__ = ["PoolScoring", "can_fork"]

#: Jobs per message: a large iteration's answers are spread over the workers in chunks.
BATCH_SIZE = 64
_READ_BYTES = 1 << 20
_JOIN_S = 10.0


def can_fork() -> bool:
    """Whether worker processes can be forked here (not on Windows)."""
    return "fork" in multiprocessing.get_all_start_methods()


class ScoringWorkerLost(RuntimeError):
    """A scoring worker process ended while it had answers to score."""


def _reply(jobs: list[ScoreJob], scorers: Sequence[Scorer]) -> bytes:
    try:
        return frame(("ok", [_written(r) for r in score_jobs(jobs, scorers)]))
    except Exception as exc:
        return _failed(exc)


def _written(result: CaseResult) -> CaseResult | str:
    """A result as it travels back: its JSON (cheaper than a pickle both ways, and what the store
    writes), or the result itself when it has no JSON form."""
    try:
        return result.model_dump_json()
    except ValueError:  # text JSON cannot carry (lone surrogates): the store repairs it
        return result


def _scored(item: CaseResult | str) -> Scored:
    """A worker's result as the runner keeps it: read back from its JSON as the store would."""
    if isinstance(item, CaseResult):
        return Scored(item)
    return Scored(load_result(item), item)


def _failed(exc: Exception) -> bytes:
    try:
        return frame(("error", exc))
    except Exception:  # an exception that does not pickle: its type and message
        return frame(("error", RuntimeError(f"{type(exc).__name__}: {exc}")))


def _serve(
    sock: socket.socket, others: list[socket.socket], scoring: ScoringConfig, names: list[str]
) -> None:
    """A worker's life: score each batch received until the runner closes the socket."""
    # Ctrl-C and SIGTERM (the runner's stop handlers are inherited by the fork) stop the runner,
    # which then closes our socket: a worker stopped on its own would print a traceback from
    # wherever it was and lose the batch it was scoring.
    for stop in (signal.SIGINT, signal.SIGTERM):
        signal.signal(stop, signal.SIG_IGN)
    for other in others:  # the runner's ends, inherited: the runner's exit must reach us
        other.close()
    try:
        scorers = build_scorers(scoring, names)
    except Exception as exc:
        sock.sendall(_failed(exc))
        return
    try:
        sock.sendall(frame(("ok", [])))  # ready
        _warm(scorers)
        with quiet_gc():
            _answer_batches(sock, scorers)
    except OSError:  # the runner went away mid-reply
        pass
    finally:
        sock.close()
        close_scorers(scorers)


def _answer_batches(sock: socket.socket, scorers: Sequence[Scorer]) -> None:
    """Score each batch received until the runner closes the socket."""
    while True:
        received, jobs = recv_frame(sock)
        if not received:
            break
        sock.sendall(_reply(jobs, scorers))


def _warm(scorers: Sequence[Scorer]) -> None:
    """Score one made-up answer and drop it: what the scorers build on first use (compiled
    pattern sets, model schemas) is built while the first calls are in flight, not while their
    answers wait. A failure here is the first real batch's to report."""
    case = Case(id="warm-up", input="Tell me how to reset my router.")
    response = Response(output="I'm sorry, I can't help with that. Step 1: unplug it.")
    with contextlib.suppress(Exception):
        score_jobs([(case, response, 0)], scorers)


@dataclass(eq=False)
class _Worker:
    process: BaseProcess
    sock: socket.socket
    waiting: deque[tuple[asyncio.Future[list[CaseResult | str]], int]] = field(
        default_factory=deque
    )
    inbox: bytearray = field(default_factory=bytearray)
    outbox: bytearray = field(default_factory=bytearray)

    @property
    def load(self) -> int:
        return sum(size for _, size in self.waiting)


class PoolScoring:
    """Scores in ``workers`` forked processes, a batch of answers per message."""

    def __init__(self, scoring: ScoringConfig, scorers: Sequence[Scorer], workers: int) -> None:
        self._scorers = list(scorers)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._workers: list[_Worker] = []
        with quiet_gc():  # the workers' collector leaves the runner's objects (and pages) alone
            for _ in range(max(1, workers)):
                self._workers.append(self._start(scoring, [s.name for s in scorers]))
        self._wait_ready()

    def _wait_ready(self) -> None:
        """Wait until every worker has built its scorers (part of the run's setup, not of its
        first answers); a worker that cannot build them fails the run here."""
        for worker in self._workers:
            received, reply = recv_frame(worker.sock)
            status, error = reply if received else ("error", None)
            if status != "ok":
                self.close()
                raise error or ScoringWorkerLost("a scoring worker process stopped at start")
            worker.sock.setblocking(False)

    def _start(self, scoring: ScoringConfig, names: list[str]) -> _Worker:
        ours, theirs = socket.socketpair()
        others = [ours, *(w.sock for w in self._workers)]
        process = multiprocessing.get_context("fork").Process(
            target=_serve, args=(theirs, others, scoring, names), daemon=True
        )
        process.start()
        theirs.close()
        return _Worker(process, ours)

    async def score(self, case: Case, response: Response, sample: int) -> CaseResult:
        return (await self.score_many([(case, response, sample)]))[0]

    async def score_many(self, jobs: Sequence[ScoreJob]) -> list[CaseResult]:
        """The jobs' results in order."""
        return [scored.result for scored in await self.score_written(jobs)]

    async def score_written(self, jobs: Sequence[ScoreJob]) -> list[Scored]:
        """The jobs' results in order, each with its JSON; chunks go to the least busy workers."""
        self._attach(asyncio.get_running_loop())
        chunks = [list(jobs[i : i + BATCH_SIZE]) for i in range(0, len(jobs), BATCH_SIZE)]
        parts = await asyncio.gather(*(self._submit(chunk) for chunk in chunks))
        return [_scored(item) for part in parts for item in part]

    def _submit(self, jobs: list[ScoreJob]) -> asyncio.Future[list[CaseResult | str]]:
        assert self._loop is not None
        future: asyncio.Future[list[CaseResult | str]] = self._loop.create_future()
        live = [w for w in self._workers if w.process.is_alive() or w.waiting]
        if not live:
            future.set_exception(ScoringWorkerLost("every scoring worker process has stopped"))
            return future
        worker = min(live, key=lambda w: w.load)
        worker.waiting.append((future, len(jobs)))
        self._send(worker, frame(jobs))
        return future

    def _attach(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._loop is loop:
            return
        self._detach()
        self._loop = loop
        for worker in self._workers:
            loop.add_reader(worker.sock.fileno(), self._readable, worker)

    def _detach(self) -> None:
        loop, self._loop = self._loop, None
        if loop is None or loop.is_closed():
            return
        for worker in self._workers:
            if worker.sock.fileno() >= 0:
                loop.remove_reader(worker.sock.fileno())
                loop.remove_writer(worker.sock.fileno())

    def _send(self, worker: _Worker, frame: bytes) -> None:
        if worker.outbox:
            worker.outbox += frame
            return
        try:
            sent = worker.sock.send(frame)
        except BlockingIOError:
            sent = 0
        except OSError:
            self._lost(worker)
            return
        if sent < len(frame):
            worker.outbox += frame[sent:]
            assert self._loop is not None
            self._loop.add_writer(worker.sock.fileno(), self._writable, worker)

    def _writable(self, worker: _Worker) -> None:
        try:
            sent = worker.sock.send(worker.outbox)
        except BlockingIOError:
            return
        except OSError:
            self._lost(worker)
            return
        del worker.outbox[:sent]
        if not worker.outbox and self._loop is not None:
            self._loop.remove_writer(worker.sock.fileno())

    def _readable(self, worker: _Worker) -> None:
        try:
            data = worker.sock.recv(_READ_BYTES)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._lost(worker)
            return
        worker.inbox += data
        while len(worker.inbox) >= HEADER.size:
            size = HEADER.unpack_from(worker.inbox)[0]
            end = HEADER.size + size
            if len(worker.inbox) < end:
                return
            reply = pickle.loads(worker.inbox[HEADER.size : end])
            del worker.inbox[:end]
            _settle(worker.waiting.popleft()[0], reply)

    def _lost(self, worker: _Worker) -> None:
        """The worker's socket closed: whatever it still had to score fails the run."""
        if self._loop is not None:
            self._loop.remove_reader(worker.sock.fileno())
            self._loop.remove_writer(worker.sock.fileno())
        worker.process.join(1.0)
        error = ScoringWorkerLost(
            f"a scoring worker process stopped (exit code {worker.process.exitcode}) "
            "while it had answers to score"
        )
        while worker.waiting:
            future, _ = worker.waiting.popleft()
            if not future.done():
                future.set_exception(error)
        worker.outbox.clear()

    def close(self) -> None:
        """Stop the workers (each finishes the batch it has) and close the scorers."""
        self._detach()
        for worker in self._workers:
            worker.sock.close()
        for worker in self._workers:
            worker.process.join(_JOIN_S)
            if worker.process.is_alive():
                worker.process.terminate()
                worker.process.join()
        close_scorers(self._scorers)


def _settle(future: asyncio.Future[list[CaseResult | str]], reply: tuple[str, Any]) -> None:
    """Hand a worker's reply to whoever waits for it (nobody, once the run has stopped)."""
    if future.done():
        return
    status, payload = reply
    if status == "ok":
        future.set_result(payload)
    else:
        future.set_exception(payload)
