"""The run's timeout bounds a call that can hang, and only such a call."""

from __future__ import annotations

import asyncio
import random

from failproof.core import Case, Response
from failproof.runner._calls import Caller
from failproof.runner._limits import AdaptiveGate
from failproof.runner._retry import RetryPolicy
from failproof.targets import ReplayTarget, Target
from failproof.targets._replay import RecordedResponse, RecordedResponses

CASE = Case(id="c", suite="s", input="hello")


class Network(Target):
    """Answers only after yielding to the event loop once, as any call over a socket does."""

    name = "network"

    async def generate(self, case: Case) -> Response:
        await asyncio.sleep(0)
        return Response.from_output("late")


class Recorded(Network):
    """The same, but its answers are read by this process: nothing to wait for."""

    name = "recorded"
    waits = False


def call(target: Target, timeout_s: float) -> Response:
    caller = Caller(
        target=target,
        timeout_s=timeout_s,
        policy=RetryPolicy(retries=0, base_s=1.0, max_s=1.0, rng=random.Random(0)),
        gate=AdaptiveGate(1),
    )
    return asyncio.run(caller.call(CASE))


def test_a_call_that_can_hang_is_cut_at_the_timeout() -> None:
    response = call(Network(), timeout_s=0)
    assert response.error is not None
    assert "no answer within the timeout" in response.error


def test_a_target_that_does_not_wait_is_not_bounded() -> None:
    assert call(Recorded(), timeout_s=0).output == "late"


def test_recorded_answers_are_read_without_a_timeout() -> None:
    assert ReplayTarget.waits is False
    recorded = RecordedResponses(source="answers.jsonl")
    recorded.by_key[(None, "c")] = RecordedResponse(case_id="c", output="from the file")
    assert call(ReplayTarget(recorded), timeout_s=0).output == "from the file"
