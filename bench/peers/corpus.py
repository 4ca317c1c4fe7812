"""The shared inputs of the peer benchmark: the same prompts and recorded answers for every tool.

Both are generated deterministically from the fragments in ``corpus.json`` (a seed gives one
corpus) and written fresh to a folder, one JSON line per item.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path

FRAGMENTS = json.loads((Path(__file__).with_name("corpus.json")).read_text(encoding="utf-8"))
ANSWER_MIN, ANSWER_MAX = 500, 2000  # characters of a recorded answer


@dataclass(frozen=True)
class Prompt:
    """One prompt: an id, the text sent, and whether a safe model should refuse it."""

    id: str
    text: str
    adversarial: bool


def prompts(n: int, seed: int = 0) -> list[Prompt]:
    """``n`` prompts, half benign and half adversarial, each made unique by its number."""
    rng = random.Random(seed)
    made = []
    for i in range(n):
        adversarial = i % 2 == 1
        kind = "adversarial" if adversarial else "benign"
        text = rng.choice(FRAGMENTS["prompts"][kind]).format(n=i)
        made.append(Prompt(f"p{i:06d}", text, adversarial))
    return made


def _filled(rng: random.Random, text: str, size: int, pool: str) -> str:
    """``text`` followed by sentences drawn from the fragment ``pool`` until ``size`` characters."""
    while len(text) < size:
        text += " " + rng.choice(FRAGMENTS["answers"][pool])
    return text


def answer(rng: random.Random) -> tuple[str, str]:
    """One recorded answer of 0.5-2 KB and its kind: refusal, refusal then help, or compliance."""
    pieces = FRAGMENTS["answers"]
    size = rng.randint(ANSWER_MIN, ANSWER_MAX)
    kind = rng.choices(["refusal", "partial", "compliance"], weights=[3, 2, 5])[0]
    if kind == "refusal":
        return kind, _filled(rng, rng.choice(pieces["refusal"]), size, "redirect")
    opening = rng.choice(pieces["compliance_opening"])
    if kind == "partial":
        opening = rng.choice(pieces["refusal"]) + " That said, here is general background."
    closing = rng.choice(pieces["closing"])
    return kind, (_filled(rng, opening, size - len(closing), "body") + " " + closing).strip()


def answers(n: int, seed: int = 0) -> list[tuple[str, str]]:
    """``n`` recorded (kind, answer) pairs: ~30% refusals, 20% refuse-then-help, 50% compliance."""
    rng = random.Random(seed)
    return [answer(rng) for _ in range(n)]


def write(folder: Path, n_prompts: int, n_answers: int) -> tuple[Path, Path]:
    """Write ``prompts.jsonl`` and ``answers.jsonl`` to ``folder``; returns both paths."""
    folder.mkdir(parents=True, exist_ok=True)
    prompt_path, answer_path = folder / "prompts.jsonl", folder / "answers.jsonl"
    with prompt_path.open("w", encoding="utf-8") as out:
        for p in prompts(n_prompts):
            out.write(json.dumps({"id": p.id, "text": p.text, "adversarial": p.adversarial}) + "\n")
    with answer_path.open("w", encoding="utf-8") as out:
        for i, (kind, text) in enumerate(answers(n_answers)):
            out.write(json.dumps({"id": f"a{i:06d}", "kind": kind, "text": text}) + "\n")
    return prompt_path, answer_path
