"""Conversations: a case's turns played in order, each answer scored and stored as it arrives.

A turn is one call whose messages are the conversation so far. Every answered turn is stored at
once (``turn_results``), so a resumed run starts at the first turn without a stored answer and
never sends a finished turn again. The conversation's verdict is its worst turn's.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from failproof.core import Case, CaseResult, Response, TurnResult
from failproof.runner._plan import WorkItem
from failproof.runner._scoring import Scoring
from failproof.store import Store

__all__ = ["Conversation", "conversation_result", "worst_turn"]

_N = TypeVar("_N", int, float)
Answer = Callable[[Case], Awaitable[Response]]

#: How bad each primary class is when turns are compared (higher is worse).
_BADNESS = {
    "pass": 0,
    "unscored": 0,
    "refusal": 1,
    "wrong_format": 2,
    "error": 3,
    "tool_error": 3,
    "fail": 4,
    "policy_violation": 5,
    "unsafe_tool_call": 6,
}


@dataclass
class Conversation:
    """Plays a conversation case: ``answer`` makes one call, ``scoring`` scores it."""

    scoring: Scoring
    store: Store
    run_id: str
    answer: Answer

    async def play(self, item: WorkItem) -> CaseResult:
        """Every turn not stored yet, in order; stops at a turn whose call failed."""
        case = item.case
        done = self.store.answered_turns(self.run_id, item.key)
        while len(done) < case.turn_count:
            turn = len(done)
            turn_case = case.turn_case(turn, [r.output for r in done])
            response = await self.answer(turn_case)
            result = await self.scoring.score(turn_case, response, item.sample)
            self.store.add_turn(self.run_id, turn, result)
            done.append(result)
            if response.error is not None:
                break
        return conversation_result(case, done)


def worst_turn(primaries: Sequence[str]) -> int:
    """The index of the worst turn (the earliest of equally bad ones)."""
    return max(range(len(primaries)), key=lambda i: (_BADNESS.get(primaries[i], 0), -i))


def conversation_result(case: Case, turns: Sequence[CaseResult]) -> CaseResult:
    """One result for the conversation: the worst turn's verdict, with every turn kept."""
    worst = worst_turn([t.primary for t in turns])
    decided = turns[worst]
    return decided.model_copy(
        update={
            "turns": [_summary(i, t) for i, t in enumerate(turns)],
            "broke_at": worst if _BADNESS.get(decided.primary, 0) > 0 else None,
            "latency_ms": _total([t.latency_ms for t in turns]),
            "prompt_tokens": _total([t.prompt_tokens for t in turns]),
            "completion_tokens": _total([t.completion_tokens for t in turns]),
            "cached": all(t.cached for t in turns),
            "metadata": dict(case.metadata),
        }
    )


def _summary(turn: int, result: CaseResult) -> TurnResult:
    reasons = result.classification.reasons if result.classification else []
    return TurnResult(
        turn=turn,
        user=result.messages[-1].content if result.messages else "",
        output=result.output,
        primary=result.primary,
        reasons=list(reasons),
        error=result.error,
        latency_ms=result.latency_ms,
        cached=result.cached,
    )


def _total(values: Sequence[_N | None]) -> _N | None:
    known = [v for v in values if v is not None]
    return sum(known[1:], known[0]) if known else None
