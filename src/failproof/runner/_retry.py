"""Retries: exponential backoff with jitter that honours the server's ``Retry-After``."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from failproof.config import RunSettings
from failproof.targets import CallError
from failproof.targets._base import MAX_RETRY_AFTER_S

__all__ = ["RetryPolicy"]


@dataclass
class RetryPolicy:
    """How often and how long to wait before calling the target again.

    The n-th retry (n = 0, 1, ...) waits ``base_s * 2**n`` capped at ``max_s``, scaled by a random
    factor in [0.5, 1.0] ("equal jitter") drawn from ``rng``; a ``Retry-After`` from the server is
    a floor, capped at ``max_wait_s``. Seed ``rng`` for reproducible delays.
    """

    retries: int = 3
    base_s: float = 1.0
    max_s: float = 60.0
    rng: random.Random = field(default_factory=random.Random)
    max_wait_s: float = MAX_RETRY_AFTER_S

    @classmethod
    def of(cls, run: RunSettings) -> RetryPolicy:
        """The policy a run's settings describe (``retry_seed`` None: a fresh seed)."""
        return cls(
            retries=run.retries,
            base_s=run.backoff_base_s,
            max_s=run.backoff_max_s,
            rng=random.Random(run.retry_seed),
            max_wait_s=run.max_wait_s,
        )

    def should_retry(self, error: CallError, attempt: int) -> bool:
        """Whether ``error`` on call number ``attempt`` (0 = the first) is worth another call."""
        return error.retryable and attempt < self.retries

    def delay(self, error: CallError, attempt: int) -> float:
        """Seconds to wait before retrying after ``error`` on call number ``attempt``."""
        backoff = min(self.max_s, self.base_s * (2.0**attempt))
        jittered = backoff * (0.5 + 0.5 * self.rng.random())
        if error.retry_after is not None:
            return max(jittered, min(error.retry_after, self.max_wait_s, MAX_RETRY_AFTER_S))
        return jittered
