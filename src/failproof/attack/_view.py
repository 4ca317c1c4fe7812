"""What the attack report's Markdown and HTML both show: the strategies' table and each break's
path, built once from the report (the formats only escape and lay it out)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from failproof.attack._report import AttackReport, BreaksBy, CaseAttack, untested, untested_reason
from failproof.core import Attack, AttackStep
from failproof.core._capabilities import NEEDS
from failproof.render._numbers import Notation
from failproof.render._path import PathStep, ToolStep
from failproof.render._text import excerpt

__all__ = ["break_path", "calls_text", "not_tested", "strategy_rows", "unsupported_line"]

#: ``0.85 [0.70, 0.93]``: an estimate with its 95% bounds.
_BOUNDS = Notation(".2f", ", ", " [", "]")
_HEADER = (
    ("strategy", False),
    ("cases", True),
    ("broken", True),
    ("success rate [95% CI]", False),
    ("plain case", False),
    ("lift [95% CI]", False),
    ("median queries to break", True),
    ("breaks off topic", True),
    ("breaks decided by", False),
    ("target queries", True),
    ("not attacked", True),
    ("unsupported", True),
)


def _interval(data: dict[str, Any]) -> str:
    if data.get("estimate") is None:
        return "n/a"
    return f"{data['estimate']:.2f}{_BOUNDS.text(data['low'], data['high'])}"


def _row(name: str, s: dict[str, Any]) -> list[str]:
    median = s["queries_to_first_break"]["median"]
    return [
        name,
        str(s["cases"]),
        str(s["broken"]),
        _interval(s["attack_success_rate"]),
        _interval(s["plain_success_rate"]),
        _interval(s["lift"]),
        "-" if median is None else str(median),
        str(s["breaks_off_topic"]),
        BreaksBy.model_validate(s["breaks_by"]).words(),
        str(s["queries"]),
        str(s.get("not_attacked", 0)),
        str(s.get("unsupported", 0)),
    ]


def strategy_rows(
    summaries: dict[str, dict[str, Any]],
) -> tuple[list[str], list[bool], list[list[str]]]:
    """The table's header, which columns are numeric, and one row per strategy (plain text)."""
    header = [label for label, _ in _HEADER]
    numeric = [right for _, right in _HEADER]
    return header, numeric, [_row(name, s) for name, s in summaries.items()]


def calls_text(count: int | None) -> str:
    """``1 target call``, ``3 target calls``."""
    return f"{count} target call" + ("" if count == 1 else "s")


def _step(step: AttackStep) -> PathStep:
    return PathStep(
        round=step.round,
        attacker=step.kind == "attacker",
        output=step.output,
        error=step.error,
        note=step.note,
        messages=tuple((m.role, m.content) for m in step.messages),
        tools=tuple(
            ToolStep(u.step, u.call.name, u.call.arguments, u.error or u.result, u.server)
            for u in step.tool_uses
        ),
        broke=step.broken,
        verdict=step.primary or "",
    )


def break_path(case: CaseAttack) -> list[PathStep]:
    """The case's steps from the plain request to the break."""
    return [_step(step) for step in case.path]


def not_tested(report: AttackReport) -> list[tuple[str, str]]:
    """Each case that was not tested (never held): ``suite/id (strategy)`` and why (plain
    text: the formats escape it)."""
    return [
        (f"{c.suite}/{c.case_id} ({c.strategy})", untested_reason(c))
        for c in report.cases
        if untested(c)
    ]


def unsupported_line(attack: Attack) -> str:
    """One line (plain text): how many cases the target cannot take, by the feature they need,
    and the first one's reason; empty when the target took every case."""
    found = attack.unsupported
    if not found:
        return ""
    by_feature = Counter(u.feature for u in found)
    needs = ", ".join(f"{n} {NEEDS[feature]}" for feature, n in by_feature.most_common())
    first = found[0]
    return (
        f"{len(found)} case(s) unsupported by the {excerpt(first.target, 60)} target and not "
        f"attacked: {needs}; not tested, never held (e.g. "
        f"{excerpt(f'{first.suite}/{first.case_id}', 80)}: {excerpt(first.reason, 240)})"
    )
