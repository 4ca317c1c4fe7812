"""``tree`` (TAP-style): branches per round, pruned off topic before sending and by score after."""

from __future__ import annotations

from failproof.attack._context import AttackContext
from failproof.attack._strategy import Strategy, describe, on_topic, prompt_of, strategies, user
from failproof.core import AttackStep

__all__ = ["TreeStrategy"]


@strategies.register("tree")
class TreeStrategy(Strategy):
    """Tree of attacks: each kept branch gets rewrites; the best-scored ``width`` go on."""

    name = "tree"

    async def attack(self, ctx: AttackContext) -> None:
        root = await ctx.send(ctx.base, round=0, note="the plain case")
        frontier = [(ctx.goal, root)]
        round = 1
        while not ctx.done:
            grown = await self._grow(ctx, frontier, round)
            if grown:
                ranked = sorted(grown, key=lambda pair: -(pair[1].score or 0.0))
                frontier = ranked[: self.options.width]
            round += 1

    async def _grow(
        self, ctx: AttackContext, frontier: list[tuple[str, AttackStep]], round: int
    ) -> list[tuple[str, AttackStep]]:
        """Every on-topic rewrite of every kept branch, sent and scored."""
        children: list[tuple[str, AttackStep]] = []
        for prompt, node in frontier:
            for branch in range(self.options.branching):
                if ctx.done:
                    return children
                child = await self._branch(ctx, prompt, node, round, branch)
                if child is not None:
                    children.append(child)
        return children

    async def _branch(
        self, ctx: AttackContext, prompt: str, node: AttackStep, round: int, branch: int
    ) -> tuple[str, AttackStep] | None:
        asked = await self.rewrite(
            ctx,
            at=round,
            branch=branch + 1,
            prompt=prompt,
            answer=node.output,
            verdict=describe(node),
        )
        text = prompt_of(asked)
        if text is None or not on_topic(text, ctx.goal, self.options.on_topic):
            return None
        sent = await ctx.send(
            [user(text)],
            round=round,
            note=f"branch {branch + 1}",
            parent=node.seq,
            source=asked.seq,
        )
        return text, sent
