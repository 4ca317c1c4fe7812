"""The target interface: anything that turns a `Case` into a `Response`."""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from types import TracebackType
from typing import Any, ClassVar, Self

from failproof.core import Capabilities, Case, Response, Unsupported
from failproof.core._capabilities import unsupported_by
from failproof.errors import TargetError
from failproof.guard._json import JsonObject
from failproof.registry import Registry
from failproof.targets._params import secret_params

__all__ = [
    "MAX_RETRY_AFTER_S",
    "CallError",
    "Target",
    "TargetFactory",
    "create_target",
    "parse_target_spec",
    "targets",
]


#: The longest wait a server may ask for; ``Retry-After: 99999``, ``inf`` or year 9999 get this.
MAX_RETRY_AFTER_S = 300.0


def capped_wait(seconds: float | None) -> float | None:
    """A server's requested wait made safe: finite, not negative, at most `MAX_RETRY_AFTER_S`."""
    if seconds is None or math.isnan(seconds):
        return None
    return min(max(0.0, seconds), MAX_RETRY_AFTER_S)


class CallError(Exception):
    """A call to the target failed. The runner retries it when ``retryable`` is true.

    ``retry_after`` (seconds) carries the server's ``Retry-After`` when it sent one, capped at
    `MAX_RETRY_AFTER_S` here, so no target can make the runner wait longer.
    ``status`` is the HTTP status or a short code (``timeout``, ``connection``).
    ``request_body`` is the body that was sent, when the target records it (secrets redacted).
    """

    def __init__(
        self,
        message: str,
        *,
        retryable: bool = False,
        retry_after: float | None = None,
        status: int | str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.retryable = retryable
        self.retry_after = capped_wait(retry_after)
        self.status = status
        self.request_body: str | None = None


class Target(ABC):
    """Base of every target: one abstract async method, `generate`, and a lifecycle.

    A target that cannot take some feature of a case (tools, a system prompt, a conversation,
    a long prompt) says so in `capabilities` (or `unsupported`): such a case is never sent.

    Use it as ``async with target: ...`` (or call `aclose`). Subclasses override
    `max_concurrency` when the target cannot take the runner's concurrency (a local model runs
    one request at a time), and `identity` to describe themselves (never with secrets).
    """

    name: ClassVar[str] = "target"
    max_concurrency: int | None = None
    #: Whether a call can hang, so that the runner bounds it by the run's timeout. A target whose
    #: answers the process reads itself (a recorded file) has nothing to wait for.
    waits: ClassVar[bool] = True

    @abstractmethod
    async def generate(self, case: Case) -> Response:
        """Send ``case`` and return the response; raise `CallError` when the call failed."""

    def calls_at_once(self, wanted: int) -> int:
        """How many calls to keep in flight: ``wanted``, or fewer when the target takes fewer."""
        return min(wanted, self.max_concurrency or wanted)

    def identity(self) -> JsonObject:
        """What this target is, for reports and the cache key. Never includes secrets."""
        return {"name": self.name}

    def capabilities(self) -> Capabilities:
        """What this target can take from a case (by default: everything)."""
        return Capabilities()

    def unsupported(self, case: Case) -> Unsupported | None:
        """Why ``case`` cannot be sent to this target as it is, or None. Asked before anything
        is sent; a case with a reason is not sent and its result is ``unsupported``."""
        return unsupported_by(case, self.capabilities(), self.name)

    def check_cases(self, cases: Iterable[Case]) -> None:  # noqa: ARG002
        """Refuse, before anything is sent, cases this target could not send as they are.

        Raises `TargetError` saying what would be lost and how to fix it; by default every
        case can be sent.
        """
        return

    def warnings(self) -> list[str]:
        """What to tell the user about the cases `check_cases` saw (by default nothing)."""
        return []

    async def aclose(self) -> None:
        """Release connections, processes or models held by the target."""
        return

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()


TargetFactory = Callable[[str, Mapping[str, Any]], Target]
targets: Registry[TargetFactory] = Registry("target")


def parse_target_spec(spec: str) -> tuple[str, str]:
    """Split ``scheme:argument`` (``openai:gpt-4o-mini``, ``replay:out.jsonl``, ``mock``)."""
    scheme, _, argument = spec.strip().partition(":")
    if not scheme:
        raise TargetError(f"empty target spec {spec!r}", hint="e.g. --target mock or openai:MODEL")
    return scheme.lower(), argument


def create_target(spec: str, options: Mapping[str, Any] | None = None) -> Target:
    """Create the target named by ``spec`` through the target registry; a parameter named as a
    secret holds it as ``${NAME}`` (read here, remembered as a secret), never literally."""
    scheme, argument = parse_target_spec(spec)
    factory = targets.get(scheme)
    options = dict(options or {})
    if isinstance(options.get("params"), Mapping):  # a secret in them comes from the environment
        options["params"] = secret_params(options["params"])
    return factory(argument, options)
