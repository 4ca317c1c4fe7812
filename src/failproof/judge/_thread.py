"""A judge for synchronous callers: its own event loop in a daemon thread.

Scorers and AH matchers are synchronous, while targets are async. `JudgeThread` opens the
judge's target and its cache inside one event loop of its own, runs every question there (so
the target's connections and the SQLite cache are used from that one thread only), and hands
answers back to any calling thread. `close` releases the target and the cache.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import TypeVar

from failproof.config import JudgeSettings
from failproof.guard._json import JsonObject
from failproof.judge._client import Check, Judge, JudgeAnswer
from failproof.judge._rubric import Rubric
from failproof.judge._verdicts import Verdict
from failproof.store import Store

__all__ = ["JudgeThread", "judge_cache_path", "open_judge"]

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


class JudgeThread:
    """A `Judge` living in its own event loop; `ask` blocks the caller until the answer."""

    def __init__(self, settings: JudgeSettings, cache_path: Path | None) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        try:
            self.judge = self._run(open_judge(settings, cache_path))
        except BaseException:
            self._stop()
            raise

    @property
    def identity(self) -> JsonObject:
        return self.judge.identity

    def _run(self, coroutine: Awaitable[T]) -> T:
        async def wrapped() -> T:
            return await coroutine

        return asyncio.run_coroutine_threadsafe(wrapped(), self._loop).result()

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
        """Release the target and the cache, then stop the loop."""
        if not self._thread.is_alive():
            return
        try:
            self._run(self.judge.aclose())
        finally:
            self._stop()

    def _stop(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()
