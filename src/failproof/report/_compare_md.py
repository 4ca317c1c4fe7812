"""A comparison in Markdown: the outcome line, score changes, then the cases, new failures first.

Everything from the runs (case ids, outputs, target names) passes through `md_code` / `md_text`,
so a model's output cannot render, link or mention anyone in a pull-request comment.
"""

from __future__ import annotations

from failproof.render._text import md_code, md_text
from failproof.report._compare import CaseChange, Comparison, Shift, changes

__all__ = ["compare_markdown"]

_OUTCOME = {
    "worse": "❌ **{n:,} newly failing**",
    "better": "✅ **no new failures**, {fixed:,} newly passing",
    "same": "✅ **no new failures**",
    "nothing_compared": "⚠️ **nothing compared**: no case is in both runs "
    "({only_a:,} only in A, {only_b:,} only in B)",
}


def _headline_line(c: Comparison) -> str:
    counts = {"only_a": c.only_a, "only_b": c.only_b}
    head = _OUTCOME[c.outcome].format(n=len(c.newly_failing), fixed=len(c.newly_passing), **counts)
    parts = [head]
    if c.outcome == "worse" and c.newly_passing:
        parts.append(f"{len(c.newly_passing):,} newly passing")
    if c.flipped_class:
        parts.append(f"{len(c.flipped_class):,} changed class")
    return ", ".join(parts)


def _significance(shift: Shift) -> str:
    if shift.significant is None:
        return "not tested"
    word = "significant" if shift.significant else "not significant"
    return f"{word} (p = {shift.p_value:.3g})" if shift.p_value is not None else word


def _shift_row(label: str, shift: Shift) -> str:
    cells = [
        label,
        shift.show(shift.a),
        shift.show(shift.b),
        shift.text,
        shift.interval_text or "–",
        _significance(shift),
    ]
    return "| " + " | ".join(cells) + " |"


_SHIFT_HEAD = [
    "| Metric | A | B | Change | 95% interval | Significance |",
    "| --- | ---: | ---: | ---: | --- | --- |",
]


def _scores(c: Comparison) -> list[str]:
    lines = ["### Scores", "", *_SHIFT_HEAD]
    lines += [_shift_row(md_text(s.label), s) for s in c.headline]
    if c.suites:
        lines += ["", "### Suites", "", *_SHIFT_HEAD]
        lines += [_shift_row(md_code(s.name), s.score) for s in c.suites]
    return lines


def _case_row(change: CaseChange) -> str:
    case = change.case_id + (f"#{change.sample}" if change.sample else "")
    why = "; ".join(change.reasons) or change.output
    cells = [
        md_code(case),
        md_code(change.suite),
        md_text(change.a),
        md_text(change.b),
        md_text(why),
    ]
    return "| " + " | ".join(cells) + " |"


def _cases(title: str, items: list[CaseChange], limit: int) -> list[str]:
    if not items:
        return []
    lines = [f"### {title} ({len(items):,})", ""]
    lines += ["| Case | Suite | A | B | Why (B) |", "| --- | --- | --- | --- | --- |"]
    lines += [_case_row(change) for change in items[:limit]]
    if len(items) > limit:
        lines.append(f"\n{len(items) - limit:,} more in the JSON comparison.")
    return [*lines, ""]


def compare_markdown(c: Comparison, limit: int = 50) -> str:
    """The comparison as Markdown (GitHub-flavoured); each case list shows ``limit`` rows."""
    lines = [
        f"## failproof: {md_code(c.b.id)} against {md_code(c.a.id)}",
        "",
        _headline_line(c),
        "",
        f"A (before): {md_code(c.a.id)} · {md_text(c.a.target)} · {c.a.passed:,} of "
        f"{c.a.cases:,} passed  ",
        f"B (after): {md_code(c.b.id)} · {md_text(c.b.target)} · {c.b.passed:,} of "
        f"{c.b.cases:,} passed",
        "",
    ]
    if (c.only_a or c.only_b) and not c.nothing_compared:
        lines += [f"{c.only_a:,} cases only in A and {c.only_b:,} only in B are not compared.", ""]
    for title, items in changes(c):
        lines += _cases(title, items, limit)
    lines += _scores(c)
    return "\n".join(lines) + "\n"
