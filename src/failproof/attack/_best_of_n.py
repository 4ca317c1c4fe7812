"""``best_of_n``: random perturbations of the request, sampled until one breaks the target."""

from __future__ import annotations

from random import Random

from failproof.attack._context import AttackContext
from failproof.attack._strategy import Strategy, strategies
from failproof.core import Case
from failproof.generate import mutators

__all__ = ["BestOfNStrategy", "perturb"]


@strategies.register("best_of_n")
class BestOfNStrategy(Strategy):
    """Best-of-N: each sample applies one to three random perturbations to the plain case."""

    name = "best_of_n"

    async def attack(self, ctx: AttackContext) -> None:
        root = await ctx.send(ctx.base, round=0, note="the plain case")
        round = 1
        while not ctx.done:
            variant, names = perturb(ctx.case, self.options.perturbations, ctx.rng)
            messages = [m for m in variant.messages() if m.role != "system"]
            note = "perturbed: " + ", ".join(names)
            await ctx.send(messages, round=round, note=note, parent=root.seq)
            round += 1


def perturb(case: Case, names: tuple[str, ...], rng: Random) -> tuple[Case, list[str]]:
    """``case`` with one to three perturbations drawn from ``names`` applied in turn."""
    chosen = rng.sample(list(names), k=min(len(names), rng.randint(1, 3)))
    applied: list[str] = []
    for name in chosen:
        new_input = _spacing(case, rng) if name == "spacing" else _mutate(case, name, rng)
        if new_input is not None:
            case = case.model_copy(update={"input": new_input})
            applied.append(name)
    return case, applied


def _mutate(case: Case, name: str, rng: Random) -> object | None:
    mutation = mutators.get(name)().mutate(case, rng)
    return mutation.input if mutation is not None else None


def _spacing(case: Case, rng: Random) -> str | None:
    """The user text with random runs of spaces and line breaks between words."""
    if not isinstance(case.input, str):
        return None
    words = case.input.split(" ")
    gaps = [rng.choice((" ", "  ", "   ", "\n", " \n ")) for _ in words[1:]]
    return words[0] + "".join(gap + word for gap, word in zip(gaps, words[1:], strict=True))
