"""``iterative`` (PAIR-style): the attacker rewrites the prompt from the last answer and verdict."""

from __future__ import annotations

from failproof.attack._context import AttackContext
from failproof.attack._strategy import Strategy, describe, prompt_of, strategies, user

__all__ = ["IterativeStrategy"]


@strategies.register("iterative")
class IterativeStrategy(Strategy):
    """Iterative refinement: one rewrite a round, each built on the target's last answer."""

    name = "iterative"

    async def attack(self, ctx: AttackContext) -> None:
        last = await ctx.send(ctx.base, round=0, note="the plain case")
        prompt = ctx.goal
        round = 1
        while not ctx.done:
            asked = await self.rewrite(
                ctx, at=round, prompt=prompt, answer=last.output, verdict=describe(last)
            )
            text = prompt_of(asked)
            if text is None:
                continue
            last = await ctx.send(
                [user(text)], round=round, note="rewrite", parent=last.seq, source=asked.seq
            )
            prompt, round = text, round + 1
