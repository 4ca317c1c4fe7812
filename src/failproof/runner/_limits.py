"""Pacing the calls: request and token rate limits, and a concurrency gate that backs off on 429."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from failproof.targets._base import MAX_RETRY_AFTER_S

__all__ = ["AdaptiveGate", "RateLimiter"]

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]


class RateLimiter:
    """At most ``per_minute`` units a minute, spread evenly (no bursts).

    Each `acquire` books ``amount`` units on a virtual schedule and sleeps until its slot.
    `charge` books units after the fact (the tokens a response really used beyond the estimate),
    which delays later callers. Neither books more than one minute's budget at once, so a count
    from outside (a server reporting a billion tokens) slows the run, never stalls it.
    ``on_wait`` hears of every sleep longer than a second.
    """

    def __init__(
        self, per_minute: float, *, clock: Clock = time.monotonic, sleep: Sleep = asyncio.sleep
    ) -> None:
        self.per_minute = per_minute
        self.interval = 60.0 / per_minute
        self.on_wait: Callable[[float], None] | None = None
        self._clock = clock
        self._sleep = sleep
        self._next = clock()

    def _units(self, amount: float) -> float:
        return min(max(0.0, amount), self.per_minute) if amount == amount else 0.0

    async def acquire(self, amount: float = 1.0) -> None:
        now = self._clock()
        start = max(now, self._next)
        self._next = start + self._units(amount) * self.interval
        if start > now:
            if self.on_wait is not None and start - now > 1.0:
                self.on_wait(start - now)
            await self._sleep(start - now)

    def charge(self, amount: float) -> None:
        if amount > 0:
            self._next = max(self._next, self._clock()) + self._units(amount) * self.interval


class AdaptiveGate:
    """A concurrency limit that halves when the target answers 429 and creeps back on success.

    ``limit`` starts at ``maximum``. `throttled` halves it (never below 1) and, with a
    ``Retry-After``, pauses every new call until then; each `succeeded` call after
    ``recover_after`` successes in a row raises it by one again (additive increase,
    multiplicative decrease).
    """

    def __init__(
        self,
        maximum: int,
        *,
        recover_after: int = 8,
        clock: Clock = time.monotonic,
        max_pause_s: float = MAX_RETRY_AFTER_S,
    ) -> None:
        self.maximum = max(1, maximum)
        self.max_pause_s = min(max_pause_s, MAX_RETRY_AFTER_S)
        self.limit = self.maximum
        self.recover_after = recover_after
        self.in_flight = 0
        self.throttle_events = 0
        self._streak = 0
        self._paused_until = 0.0
        self._clock = clock
        self._changed = asyncio.Condition()

    async def __aenter__(self) -> None:
        async with self._changed:
            await self._changed.wait_for(lambda: self.in_flight < self.limit)
            self.in_flight += 1
        pause = self._paused_until - self._clock()
        if pause > 0:
            await asyncio.sleep(pause)

    async def __aexit__(self, *exc: object) -> None:
        async with self._changed:
            self.in_flight -= 1
            self._changed.notify_all()

    def throttled(self, retry_after: float | None) -> float:
        """The target said "too many requests": halve the limit, pause for ``retry_after`` (at
        most ``max_pause_s``). Returns the seconds new calls now wait."""
        self.throttle_events += 1
        self._streak = 0
        self.limit = max(1, self.limit // 2)
        now = self._clock()
        pause = min(retry_after, self.max_pause_s) if retry_after and retry_after > 0 else 0.0
        if pause == pause:  # not NaN
            self._paused_until = max(self._paused_until, now + pause)
        return max(0.0, self._paused_until - now)

    def succeeded(self) -> None:
        self._streak += 1
        if self.limit < self.maximum and self._streak >= self.recover_after:
            self._streak = 0
            self.limit += 1
