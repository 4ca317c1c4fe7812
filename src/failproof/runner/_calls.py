"""One case, one answer: the call to the target with timeout, retries, rate limits and backoff."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from failproof.core import Case, Response
from failproof.runner._limits import AdaptiveGate, RateLimiter
from failproof.runner._retry import RetryPolicy
from failproof.targets import CallError, Target

__all__ = ["CallStats", "Caller"]

Sleep = Callable[[float], Awaitable[None]]
#: Told of every wait the run takes: its length in seconds and why.
WaitListener = Callable[[float, str], None]
_THROTTLED = frozenset({429, 503})


def _no_listener(seconds: float, why: str) -> None:  # noqa: ARG001
    return


@dataclass
class CallStats:
    """What the calls have seen so far: attempts, retries, throttling and the waits it caused."""

    attempts: int = 0
    retries: int = 0
    throttled: int = 0
    waits: int = 0
    waited_s: float = 0.0
    longest_wait_s: float = 0.0
    last_error: str | None = None

    def waited(self, seconds: float) -> None:
        self.waits += 1
        self.waited_s = round(self.waited_s + seconds, 3)
        self.longest_wait_s = max(self.longest_wait_s, round(seconds, 3))

    def as_dict(self) -> dict[str, float | int]:
        """The counts for the run record and the report."""
        return {
            "attempts": self.attempts,
            "retries": self.retries,
            "throttled": self.throttled,
            "waits": self.waits,
            "waited_s": self.waited_s,
            "longest_wait_s": self.longest_wait_s,
        }


@dataclass
class Caller:
    """Calls the target for one case until it answers, gives up, or runs out of retries."""

    target: Target
    timeout_s: float
    policy: RetryPolicy
    gate: AdaptiveGate
    rpm: RateLimiter | None = None
    tpm: RateLimiter | None = None
    sleep: Sleep = asyncio.sleep
    stats: CallStats = field(default_factory=CallStats)
    on_wait: WaitListener = _no_listener

    async def call(self, case: Case) -> Response:
        """The target's response, or an error response saying what it last answered."""
        attempt = 0
        while True:
            estimate = await self._pace(case)
            async with self.gate:
                outcome = await self._attempt(case)
            if isinstance(outcome, Response):
                self._settle(outcome, estimate)
                return outcome
            if outcome.status in _THROTTLED:
                self._throttled(outcome)
            if not self.policy.should_retry(outcome, attempt):
                return self._give_up(outcome, attempt + 1)
            self.stats.retries += 1
            await self._wait(self.policy.delay(outcome, attempt), outcome)
            attempt += 1

    def _throttled(self, error: CallError) -> None:
        self.stats.throttled += 1
        pause = self.gate.throttled(error.retry_after)
        if pause > 0:
            self.stats.waited(pause)
            self.on_wait(pause, f"the server answered {error.status}; new calls pause")

    async def _wait(self, seconds: float, error: CallError) -> None:
        if seconds <= 0:
            return
        self.stats.waited(seconds)
        self.on_wait(seconds, f"retrying after: {error.message}")
        await self.sleep(seconds)

    async def _attempt(self, case: Case) -> Response | CallError:
        self.stats.attempts += 1
        start = time.perf_counter()
        try:
            response = await self._generate(case)
        except CallError as exc:
            return exc
        except TimeoutError:
            return CallError(
                f"no answer within the timeout of {self.timeout_s:g} s",
                retryable=True,
                status="timeout",
            )
        except Exception as exc:  # a broken target must not lose the run: the case gets an error
            return CallError(f"the target raised {type(exc).__name__}: {exc}", status="exception")
        if response.latency_ms is None and self.target.waits:  # a recorded answer's time is its own
            response.latency_ms = round((time.perf_counter() - start) * 1000, 3)
        self.gate.succeeded()
        return response

    async def _generate(self, case: Case) -> Response:
        if not self.target.waits:  # answers read by this process: no call to bound
            return await self.target.generate(case)
        async with asyncio.timeout(self.timeout_s):
            return await self.target.generate(case)

    async def _pace(self, case: Case) -> float:
        if self.rpm is not None:
            await self.rpm.acquire()
        if self.tpm is None:
            return 0.0
        estimate = max(1.0, len(case.prompt_text()) / 4)
        await self.tpm.acquire(estimate)
        return estimate

    def _settle(self, response: Response, estimate: float) -> None:
        if self.tpm is None:
            return
        used = (response.prompt_tokens or 0) + (response.completion_tokens or 0)
        self.tpm.charge(used - estimate)

    def _give_up(self, error: CallError, attempts: int) -> Response:
        tries = f" (gave up after {attempts} attempts)" if attempts > 1 else ""
        message = f"{error.message}{tries}"
        self.stats.last_error = error.message
        return Response.failure(message, request_body=error.request_body)
