"""The attack report as one self-contained HTML page: the strategies side by side, then each
case's path to the break as a conversation (turns, tool calls, the answer that broke it).

Everything from a model or a suite goes through `html.escape`; the page has no script.
"""

from __future__ import annotations

from functools import cache
from html import escape
from importlib import resources
from typing import Any

from failproof.attack._markdown import NOT_ATTACKED
from failproof.attack._report import AttackReport, BreaksBy, CaseAttack
from failproof.core import AttackStep, Message

__all__ = ["attack_html"]


@cache
def _style() -> str:
    return resources.files("failproof.attack").joinpath("data/attack_report.css").read_text()


def attack_html(report: AttackReport) -> str:
    """The whole page."""
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        "<title>failproof attack report</title><style>",
        _style(),
        "</style></head><body><h1>failproof attack report</h1>",
        f"<p>Attacks: {escape(', '.join(a.id for a in report.attacks))}</p>",
        _strategies(report.strategies),
    ]
    for key, case in sorted(report.cheapest.items()):
        parts.append(_case(key, case))
    if not report.cheapest:
        parts.append("<p>No case broke.</p>")
    return "".join(parts) + "</body></html>\n"


def _interval(data: dict[str, Any]) -> str:
    if data.get("estimate") is None:
        return "n/a"
    return f"{data['estimate']:.2f} [{data['low']:.2f}, {data['high']:.2f}]"


def _strategies(summaries: dict[str, dict[str, Any]]) -> str:
    head = (
        "<table><tr><th>strategy</th><th>cases</th><th>broken</th><th>success rate [95% CI]</th>"
        "<th>plain case</th><th>lift [95% CI]</th><th>median queries to break</th>"
        "<th>breaks off topic</th><th>breaks decided by</th><th>target queries</th>"
        "<th>not attacked</th></tr>"
    )
    rows = [
        f"<tr><td>{escape(name)}</td><td class='num'>{s['cases']}</td>"
        f"<td class='num'>{s['broken']}</td><td>{_interval(s['attack_success_rate'])}</td>"
        f"<td>{_interval(s['plain_success_rate'])}</td><td>{_interval(s['lift'])}</td>"
        f"<td class='num'>{escape(str(s['queries_to_first_break']['median'] or '-'))}</td>"
        f"<td class='num'>{s['breaks_off_topic']}</td>"
        f"<td>{escape(BreaksBy.model_validate(s['breaks_by']).words())}</td>"
        f"<td class='num'>{s['queries']}</td><td class='num'>{s.get('not_attacked', 0)}</td></tr>"
        for name, s in summaries.items()
    ]
    note = (
        f"<p>{escape(NOT_ATTACKED.replace('*', ''))}</p>"
        if any(s.get("not_attacked") for s in summaries.values())
        else ""
    )
    return head + "".join(rows) + "</table>" + note


def _case(key: str, case: CaseAttack) -> str:
    title = (
        f"<h2>{escape(key)}: broken by {escape(case.strategy)} after "
        f"{_calls(case.first_break)} ({case.path_queries} on the path)</h2>"
    )
    return title + "".join(_step(step) for step in case.path)


def _step(step: AttackStep) -> str:
    if step.kind == "attacker":
        return (
            f"<div class='step attacker'><div class='role'>round {step.round} · attacker "
            f"wrote</div><pre>{escape(step.output)}</pre></div>"
        )
    turns = "".join(_message(m) for m in step.messages if m.role != "system")
    tools = "".join(
        f"<div class='role'>tool call · step {u.step + 1}</div><pre>{escape(u.call.name)}"
        f"({escape(u.call.arguments)}) → {escape(u.error or u.result)}</pre>"
        for u in step.tool_uses
    )
    verdict = "broke the target" if step.broken else (step.primary or "")
    answer = step.output if step.error is None else f"error: {step.error}"
    return (
        f"<div class='step{' broke' if step.broken else ''}'>"
        f"<div class='role'>round {step.round} · {escape(step.note)}</div>{turns}{tools}"
        f"<div class='role'>target answered</div><pre>{escape(answer)}</pre>"
        f"<div class='verdict'>verdict: {escape(verdict)}</div></div>"
    )


def _message(message: Message) -> str:
    return f"<div class='role'>{escape(message.role)}</div><pre>{escape(message.content)}</pre>"


def _calls(count: int | None) -> str:
    return f"{count} target call" + ("" if count == 1 else "s")
