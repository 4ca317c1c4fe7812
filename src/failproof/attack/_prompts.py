"""The attacker's instructions (a data file, one entry per strategy) and reading its answers."""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from typing import NamedTuple

from failproof.detect._declines import writer_declined
from failproof.errors import PluginError
from failproof.guard import load_yaml

__all__ = ["AttackerPrompt", "attacker_declined", "attacker_prompt", "extract_prompt"]

_TAGGED = re.compile(r"<prompt>(.*?)(?:</prompt>|$)", re.DOTALL | re.IGNORECASE)


class AttackerPrompt(NamedTuple):
    """The attacker's system prompt and the template of its user message."""

    system: str
    user: str

    def render(self, **values: object) -> str:
        """The user message with every placeholder filled (values are never re-read as
        templates)."""
        return self.user.format(**{k: str(v) for k, v in values.items()})


@cache
def _all() -> dict[str, AttackerPrompt]:
    text = resources.files("failproof.attack").joinpath("data/attacker_prompts.yaml").read_text()
    data = load_yaml(text, source="attacker_prompts.yaml")
    return {name: AttackerPrompt(entry["system"], entry["user"]) for name, entry in data.items()}


def attacker_prompt(strategy: str) -> AttackerPrompt:
    """The attacker's instructions for ``strategy``."""
    prompts = _all()
    if strategy not in prompts:
        known = ", ".join(sorted(prompts))
        raise PluginError(f"no attacker prompt for strategy {strategy!r}", hint=f"known: {known}")
    return prompts[strategy]


def attacker_declined(answer: str) -> bool:
    """Whether the attacker declined to write an attack: no ``<prompt>`` tags, and an answer
    that is empty or a refusal that holds (a safety-tuned attacker's "I can't help with that")."""
    return _TAGGED.search(answer) is None and writer_declined(answer)


def extract_prompt(answer: str) -> str | None:
    """The text the attacker wrote between ``<prompt>`` tags (else its whole answer), or None
    when it wrote nothing or declined: a refusal is never sent to the target as an attack."""
    if attacker_declined(answer):
        return None
    match = _TAGGED.search(answer)
    text = (match.group(1) if match else answer).strip()
    return text or None
