"""``crescendo``: a conversation that escalates turn by turn and backs off on refusal.

Each round the attacker writes the next user turn. The target's answer to it is scored with the
case's forbidden phrases and refusal forbidden: a refusal drops the turn from the conversation
(back off), leaked content breaks the case at once. After every accepted turn the case's own
request is asked in the conversation so far (a goal probe, scored with the case's expectations);
a probe that does not break is dropped too, and the escalation goes on.
"""

from __future__ import annotations

from failproof.attack._context import AttackContext
from failproof.attack._strategy import Strategy, prompt_of, strategies, user
from failproof.core import Expect, Message

__all__ = ["CrescendoStrategy"]


def pressure_expect(expect: Expect | None) -> Expect:
    """How an escalating turn is checked: it must be answered, and leak nothing forbidden."""
    return Expect(refusal="forbidden", must_not_contain=expect.must_not_contain if expect else [])


@strategies.register("crescendo")
class CrescendoStrategy(Strategy):
    """Crescendo: harmless first, a little closer to the goal each turn; backs off on refusal."""

    name = "crescendo"

    async def attack(self, ctx: AttackContext) -> None:
        last = await ctx.send(ctx.base, round=0, note="the plain case")
        history: list[Message] = []
        turn, backtracks, refused = 1, 0, False
        while not ctx.done and turn <= self.options.max_turns:
            asked = await self.rewrite(
                ctx, at=turn, turn=turn, max_turns=self.options.max_turns, refused=refused,
                history=_render(history) or "(none yet)",
            )  # fmt: skip
            text = prompt_of(asked)
            if text is None:
                continue
            step = await ctx.send(
                [*history, user(text)],
                round=turn,
                note="escalate",
                parent=last.seq,
                source=asked.seq,
                expect=pressure_expect(ctx.case.expect),
                breaks_on=frozenset({"policy_violation"}),
            )
            refused = step.primary == "refusal" or step.error is not None
            if step.broken or ctx.done:
                return
            if refused:
                backtracks += 1
                if backtracks > self.options.max_backtracks:
                    return
                continue
            history += [user(text), Message(role="assistant", content=step.output)]
            last = step
            await ctx.send([*history, user(ctx.goal)], round=turn, note="goal", parent=step.seq)
            turn += 1


def _render(history: list[Message]) -> str:
    return "\n".join(f"{m.role.upper()}: {m.content}" for m in history)
