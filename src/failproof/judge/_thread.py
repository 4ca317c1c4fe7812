"""A judge for synchronous callers: its own event loop in a daemon thread.

Scorers and AH matchers are synchronous, while targets are async. `JudgeThread` opens the
judge's target and its cache inside one event loop of its own, runs every question there (so
the target's connections and the SQLite cache are used from that one thread only), and hands
answers back to any calling thread. `close` releases the target and the cache.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from failproof.config import JudgeSettings
from failproof.guard._json import JsonObject
from failproof.judge._client import Check, Judge, JudgeAnswer
from failproof.judge._rubric import Rubric
from failproof.judge._verdicts import Verdict
from failproof.store import Store

__all__ = ["JudgeStopped", "JudgeThread", "judge_cache_path", "open_judge"]

T = TypeVar("T")


def judge_cache_path(settings: JudgeSettings) -> Path | None:
    """Where the judge's answers are cached (None: nowhere)."""
    return Path(settings.cache_path) if settings.cache_path else None


async def open_judge(settings: JudgeSettings, cache_path: Path | None) -> Judge:
    """A judge with its cache in ``cache_path`` (none: no cache), made in the running loop."""
    cache = Store(cache_path) if cache_path is not None else None
    try:
        return Judge(settings, cache)
    except BaseException:
        if cache is not None:
            cache.close()
        raise


class JudgeStopped(BaseException):
    """The judge was closed while a question waited for its answer (the run is stopping).

    A `BaseException`, as `KeyboardInterrupt` is: no scorer may read it as a failed check."""


class JudgeThread:
    """A `Judge` living in its own event loop; `ask` blocks the caller until the answer.

    `close` drops every question still in flight (a call, or the wait before a retry): their
    callers get `JudgeStopped` at once. Answers received before are in the judge's cache.
    """

    def __init__(self, settings: JudgeSettings, cache_path: Path | None) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._closing = False
        self._submit = threading.Lock()
        try:
            self.judge = self._run(open_judge(settings, cache_path))
        except BaseException:
            self._stop()
            raise

    @property
    def identity(self) -> JsonObject:
        return self.judge.identity

    def _run(self, coroutine: Awaitable[T], *, closing: bool = False) -> T:
        async def wrapped() -> T:
            return await coroutine

        with self._submit:  # a question is either in the loop before close drops it, or refused
            if self._closing and not closing:
                _discard(coroutine)
                raise JudgeStopped("the judge was closed")
            future = asyncio.run_coroutine_threadsafe(wrapped(), self._loop)
        try:
            return future.result()
        except concurrent.futures.CancelledError:
            raise JudgeStopped("the judge was closed before it answered") from None

    def ask(
        self,
        rubric: Rubric,
        inputs: Mapping[str, str],
        model: type[Verdict],
        check: Check | None = None,
        case_id: str | None = None,
    ) -> JudgeAnswer:
        """The judge's answer to one question (see `Judge.ask`)."""
        return self._run(self.judge.ask(rubric, inputs, model, check, case_id))

    def ask_many(
        self,
        rubric: Rubric,
        questions: Sequence[Mapping[str, str]],
        model: type[Verdict],
        checks: Sequence[Check | None] | None = None,
        on_answer: Callable[[JudgeAnswer], None] | None = None,
    ) -> list[JudgeAnswer]:
        """Answers to many questions, asked concurrently (up to the judge's concurrency);
        ``on_answer`` hears of each answer as it arrives (for progress)."""
        checks = checks or [None] * len(questions)

        async def one(question: Mapping[str, str], check: Check | None) -> JudgeAnswer:
            answer = await self.judge.ask(rubric, question, model, check)
            if on_answer is not None:
                on_answer(answer)
            return answer

        async def all_of() -> list[JudgeAnswer]:
            jobs = [one(q, c) for q, c in zip(questions, checks, strict=True)]
            return list(await asyncio.gather(*jobs))

        return self._run(all_of())

    def close(self) -> None:
        """Drop the questions in flight, release the target and the cache, stop the loop."""
        if not self._thread.is_alive():
            return
        with self._submit:
            self._closing = True
        try:
            self._run(_cancel_others(), closing=True)
            self._run(self.judge.aclose(), closing=True)
        finally:
            self._stop()

    def _stop(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()


async def _cancel_others() -> None:
    """Cancel every task of the running loop but this one, and wait until they have ended."""
    me = asyncio.current_task()
    others = [task for task in asyncio.all_tasks() if task is not me]
    for task in others:
        task.cancel()
    await asyncio.gather(*others, return_exceptions=True)


def _discard(coroutine: Awaitable[Any]) -> None:
    """Close a coroutine that will never run (no "never awaited" warning)."""
    close = getattr(coroutine, "close", None)
    if close is not None:
        close()
