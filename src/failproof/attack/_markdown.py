"""The attack report as Markdown: one row per strategy, then each case's path to the break."""

from __future__ import annotations

from typing import Any

from failproof.attack._report import AttackReport, CaseAttack
from failproof.attack._view import break_path, calls_text, not_tested, strategy_rows
from failproof.render._path import path_markdown
from failproof.render._table import md_heading, md_table
from failproof.render._text import md_code, md_text

__all__ = ["NOT_ATTACKED", "attack_markdown"]

#: What a count of cases not attacked means, under the table.
NOT_ATTACKED = (
    "*Not attacked*: the attacker declined to write an attack (or failed) every time it was "
    "asked, so no attack reached the target; such a case did not hold under attack. Use an "
    "attacker model that writes red-team prompts."
)


def attack_markdown(report: AttackReport) -> str:
    """The whole report; every text that came from a model is escaped."""
    lines = [*md_heading(1, "failproof attack report")]
    lines += [f"Attacks: {', '.join(md_code(a.id) for a in report.attacks)}", ""]
    lines += _strategies(report.strategies)
    lines += _not_tested(report)
    for key, case in sorted(report.cheapest.items()):
        lines += _path(key, case)
    return "\n".join(lines) + "\n"


def _strategies(summaries: dict[str, dict[str, Any]]) -> list[str]:
    header, numeric, rows = strategy_rows(summaries)
    lines = md_table(header, [[md_text(row[0]), *row[1:]] for row in rows], numeric)
    if any(s.get("not_attacked") for s in summaries.values()):
        lines += ["", NOT_ATTACKED]
    return [*lines, ""]


def _not_tested(report: AttackReport) -> list[str]:
    """The cases not tested, each with why: never counted as held."""
    items = [f"- {md_text(label)}: {md_text(why, 400)}" for label, why in not_tested(report)]
    return [*md_heading(2, "Not tested"), *items, ""] if items else []


def _path(key: str, case: CaseAttack) -> list[str]:
    title = (
        f"{md_text(key)}: broken by {md_text(case.strategy)} "
        f"after {calls_text(case.first_break)} ({case.path_queries} on the path)"
    )
    return [*md_heading(2, title), *path_markdown(break_path(case)), ""]
