"""The attack report as one self-contained HTML page: the strategies side by side, then each
case's path to the break as a conversation (turns, tool calls, the answer that broke it).

Everything from a model or a suite is escaped by the shared writers; the page has no script,
and its policy allows nothing but its own style.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

from failproof.attack._markdown import NOT_ATTACKED
from failproof.attack._report import AttackReport, CaseAttack
from failproof.attack._view import break_path, calls_text, not_tested, strategy_rows
from failproof.render._page import static_page
from failproof.render._path import path_html
from failproof.render._table import html_table
from failproof.render._text import html_text

__all__ = ["attack_html"]


@cache
def _style() -> str:
    return resources.files("failproof.attack").joinpath("data/attack_report.css").read_text()


def attack_html(report: AttackReport) -> str:
    """The whole page."""
    parts = [
        "<h1>failproof attack report</h1>",
        f"<p>Attacks: {html_text(', '.join(a.id for a in report.attacks))}</p>",
        _strategies(report.strategies),
        _not_tested(report),
    ]
    for key, case in sorted(report.cheapest.items()):
        parts.append(_case(key, case))
    if not report.cheapest:
        parts.append("<p>No case broke.</p>")
    return static_page("failproof attack report", _style(), "".join(parts))


def _strategies(summaries: dict[str, dict[str, Any]]) -> str:
    header, numeric, rows = strategy_rows(summaries)
    note = (
        f"<p>{html_text(NOT_ATTACKED.replace('*', ''))}</p>"
        if any(s.get("not_attacked") for s in summaries.values())
        else ""
    )
    return html_table(header, rows, numeric) + note


def _not_tested(report: AttackReport) -> str:
    """The cases not tested, each with why: never counted as held."""
    items = [f"<li>{html_text(label)}: {html_text(why)}</li>" for label, why in not_tested(report)]
    return f"<h2>Not tested</h2><ul>{''.join(items)}</ul>" if items else ""


def _case(key: str, case: CaseAttack) -> str:
    title = (
        f"<h2>{html_text(key)}: broken by {html_text(case.strategy)} after "
        f"{calls_text(case.first_break)} ({case.path_queries} on the path)</h2>"
    )
    return title + path_html(break_path(case))
