"""The attack report as Markdown: one row per strategy, then each case's path to the break."""

from __future__ import annotations

from typing import Any

from failproof.attack._report import AttackReport, BreaksBy, CaseAttack
from failproof.core import AttackStep
from failproof.report._markdown import md_code, md_text

__all__ = ["attack_markdown"]


def attack_markdown(report: AttackReport) -> str:
    """The whole report; every text that came from a model is escaped."""
    lines = ["# failproof attack report", ""]
    lines += [f"Attacks: {', '.join(md_code(a.id) for a in report.attacks)}", ""]
    lines += _strategies(report.strategies)
    for key, case in sorted(report.cheapest.items()):
        lines += _path(key, case)
    return "\n".join(lines) + "\n"


def _interval(data: dict[str, Any]) -> str:
    if data.get("estimate") is None:
        return "n/a"
    return f"{data['estimate']:.2f} [{data['low']:.2f}, {data['high']:.2f}]"


def _strategies(summaries: dict[str, dict[str, Any]]) -> list[str]:
    lines = [
        "| strategy | cases | broken | success rate [95% CI] | plain case | lift [95% CI] "
        "| median queries to break | breaks off topic | breaks decided by | target queries "
        "| not attacked |",
        "| --- | ---: | ---: | --- | --- | --- | ---: | ---: | --- | ---: | ---: |",
    ]
    for name, s in summaries.items():
        median = s["queries_to_first_break"]["median"]
        lines.append(
            f"| {md_text(name)} | {s['cases']} | {s['broken']} "
            f"| {_interval(s['attack_success_rate'])} | {_interval(s['plain_success_rate'])} "
            f"| {_interval(s['lift'])} | {median if median is not None else '-'} "
            f"| {s['breaks_off_topic']} | {BreaksBy.model_validate(s['breaks_by']).words()} "
            f"| {s['queries']} | {s.get('not_attacked', 0)} |"
        )
    if any(s.get("not_attacked") for s in summaries.values()):
        lines += ["", NOT_ATTACKED]
    return [*lines, ""]


#: What a count of cases not attacked means, under the table.
NOT_ATTACKED = (
    "*Not attacked*: the attacker declined to write an attack (or failed) every time it was "
    "asked, so no attack reached the target; such a case did not hold under attack. Use an "
    "attacker model that writes red-team prompts."
)


def _path(key: str, case: CaseAttack) -> list[str]:
    lines = [
        f"## {md_text(key)}: broken by {md_text(case.strategy)} "
        f"after {_calls(case.first_break)} ({case.path_queries} on the path)",
        "",
    ]
    for step in case.path:
        lines.append(_step(step))
    return [*lines, ""]


def _step(step: AttackStep) -> str:
    if step.kind == "attacker":
        return f"- round {step.round}, attacker wrote: {md_code(step.output, 200)}"
    sent = step.messages[-1].content if step.messages else ""
    turns = sum(1 for m in step.messages if m.role == "user")
    where = f" (turn {turns} of the conversation)" if turns > 1 else ""
    verdict = "**broke**" if step.broken else md_text(step.primary or "")
    return (
        f"- round {step.round}, {md_text(step.note)}{where}: sent {md_code(sent, 200)}; "
        f"answer {md_code(step.output or step.error or '', 200)}; verdict {verdict}"
    )


def _calls(count: int | None) -> str:
    return f"{count} target call" + ("" if count == 1 else "s")
