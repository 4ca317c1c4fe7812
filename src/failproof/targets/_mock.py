"""The built-in mock target: scripted outputs, echo, errors and delays on demand."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping
from typing import Any

from failproof.core import Case, Response
from failproof.guard._json import JsonObject
from failproof.targets._base import CallError, Target, targets

__all__ = ["MockTarget"]

Script = str | Response | CallError | Callable[[Case], "str | Response"]


class MockTarget(Target):
    """A target that answers from a script, for tests, demos and dry runs.

    ``script`` maps a case id to what to answer: text, a `Response`, a `CallError` to raise, or a
    callable of the case. Cases not in the script get ``default``: ``"echo"`` (the user's last
    message back), or any other text. ``delay_s`` adds latency to every call. ``calls`` counts
    calls per case id.
    """

    name = "mock"

    def __init__(
        self,
        script: Mapping[str, Script] | None = None,
        *,
        default: str = "echo",
        delay_s: float = 0.0,
    ) -> None:
        self.script = dict(script or {})
        self.default = default
        self.delay_s = delay_s
        self.calls: dict[str, int] = {}

    def identity(self) -> JsonObject:
        return {"name": self.name, "default": self.default[:80]}

    async def generate(self, case: Case) -> Response:
        self.calls[case.id] = self.calls.get(case.id, 0) + 1
        start = time.perf_counter()
        if self.delay_s:
            await asyncio.sleep(self.delay_s)
        answer = self.script.get(case.id, self.default)
        if isinstance(answer, CallError):
            raise answer
        if callable(answer) and not isinstance(answer, str):
            answer = answer(case)
        if isinstance(answer, Response):
            return answer
        if answer == "echo":
            answer = case.messages()[-1].content
        latency = (time.perf_counter() - start) * 1000
        return Response.from_output(answer, latency_ms=round(latency, 3), finish_reason="stop")


@targets.register("mock")
def _mock_factory(argument: str, options: Mapping[str, Any]) -> Target:
    """Scripted mock: ``mock`` echoes the input, ``mock:TEXT`` always answers TEXT."""
    return MockTarget(default=argument or "echo", delay_s=float(options.get("delay_s", 0.0)))
