"""The Markdown report (GitHub-flavoured), sized for a pull-request comment.

Model output is attacker-controlled: it goes into code spans (so no link, mention, image or HTML
in it is live), on one line, with pipes escaped for the table; other text is escaped. The whole
report stops, with a notice, before GitHub's 65,536-character limit for a comment.
"""

from __future__ import annotations

from collections.abc import Sequence

from failproof.core import CaseResult
from failproof.render._table import Table, md_table, table_markdown
from failproof.render._text import md_code, md_text
from failproof.report._calls import throttling_note
from failproof.report._model import LISTED_NOT_PASSED, Report
from failproof.report._present.breakdown import failure_modes, suite_table, worst_cases
from failproof.report._present.cases import CaseIndex
from failproof.report._present.extensions import extras
from failproof.report._present.extra import Extra
from failproof.report._present.headline import (
    Stat,
    class_counts,
    headline,
    selection_text,
    verdict_counts,
    verdict_line,
)
from failproof.report._present.judge import decided_note
from failproof.report._present.safe import safe_view
from failproof.report._record import record_notes
from failproof.report._render import Renderer, renderers

__all__ = ["MAX_CHARS", "MarkdownRenderer", "truncate"]

MAX_CHARS = 65_000
_FAILING_ROWS = LISTED_NOT_PASSED
_BADGE = {"fail": "❌ FAIL", "review": "⚠️ REVIEW", "pass": "✅ PASS"}
_NOTICE = (
    "\n\n> **Truncated** at {limit:,} characters ({total:,} in full): "
    "the complete report is in `report.html` and `report.json`.\n"
)


def _stats(stats: Sequence[Stat]) -> list[str]:
    if not stats:
        return []
    values = [f"**{s.text}**" + (f" ({s.ci})" if s.ci else "") for s in stats]
    return md_table([md_text(s.label) for s in stats], [values], [True] * len(stats))


def _header(report: Report) -> list[str]:
    worst, verdicts = verdict_line(verdict_counts(report))
    run = report.run
    counts = " · ".join(f"{md_text(c.replace('_', ' '))} {n:,}" for c, n in class_counts(report))
    return [
        f"## failproof run {md_code(run.id)}: {_BADGE[worst]}",
        "",
        f"**{verdicts}**"
        f" · target {md_code(run.target.get('name', '?'))}"
        f" · suites {', '.join(md_text(s) for s in run.suites) or '–'}"
        f" · {report.case_count:,} cases"
        + (f" · selection {md_code(chosen)}" if (chosen := selection_text(report)) else ""),
        "",
        *(_stats([s for s in headline(report) if s.primary])),
        "",
        *([f"Outcome by class: {counts}", ""] if counts else []),
        *_more_stats([s for s in headline(report) if not s.primary]),
        *([md_text(note, 300), ""] if (note := throttling_note(report)) else []),
    ]


def _more_stats(stats: Sequence[Stat]) -> list[str]:
    if not stats:
        return []
    return [" · ".join(f"{md_text(s.label)} **{s.text}**" for s in stats), ""]


def _why(result: CaseResult) -> str:
    """Where a conversation broke, then the first reason the classifier gave, or the SAFE v0
    label."""
    if result.broke_at is not None and result.turns:
        return f"turn {result.broke_at + 1} of {len(result.turns)}: {_reason(result)}"
    return _reason(result)


def _reason(result: CaseResult) -> str:
    if result.unsupported is not None:
        return md_text(f"not sent: {result.unsupported.reason}", 200)
    reasons = result.classification.reasons if result.classification else []
    if reasons:
        evidence = f" {md_code(reasons[0].evidence, 40)}" if reasons[0].evidence else ""
        return md_text(decided_note(result) + reasons[0].detail, 80) + evidence
    if result.safe_v0:
        return md_text(f"SAFE v0 {result.safe_v0.label}")
    return md_text(result.error or "")


def _failing(report: Report) -> list[str]:
    digest = report.digest()
    failing = digest.not_passed.items()
    total = digest.total - digest.verdicts["pass"]
    if not failing:
        return []
    rows = [
        [md_code(r.case_id, 60), md_text(r.suite), md_text(r.primary), _why(r), _output(r)]
        for r in failing
    ]
    kinds = "Failing, review and unsupported" if digest.unsupported else "Failing and review"
    lines = [
        f"### {kinds} cases ({total:,})",
        "",
        *md_table(["case", "suite", "class", "why", "output"], rows),
    ]
    if total > _FAILING_ROWS:
        lines.append(f"\n_{total - _FAILING_ROWS:,} more in the full report._")
    return [*lines, ""]


def _output(result: CaseResult) -> str:
    return md_code(result.output or result.error or "", 100)


def _sections(report: Report) -> list[str]:
    index = CaseIndex(report)
    lines = _header(report)
    lines += [f"**Note:** {md_text(note, 400)}\n" for note in record_notes(report)]
    if suites := suite_table(report):
        lines += ["### Suites", "", *table_markdown(_without_parts(suites)), ""]
    if worst := worst_cases(report, index):
        lines += ["### Worst cases", "", *table_markdown(worst, (0, len(worst.columns) - 1)), ""]
    if modes := failure_modes(report, 10):
        rows = [[md_text(m), f"{n:,}"] for m, n in modes]
        lines += [
            "### Top failure modes",
            "",
            *md_table(["failure mode", "cases"], rows, [False, True]),
            "",
        ]
    lines += _failing(report)
    if safe := safe_view(report, index):
        labels = " · ".join(f"{md_text(k)} {v:,}" for k, v in safe.labels)
        lines += [
            "### SAFE v0",
            "",
            *([labels, ""] if labels else []),
            *table_markdown(safe.metrics),
            "",
        ]
    for extra in extras(report, index):
        if extra.key in _WHOLE:
            lines += _whole(extra)
            continue
        for _title, table in extra.tables[:1]:
            lines += [f"### {md_text(extra.title, 400)}", "", *table_markdown(table), ""]
    return lines


#: Extension sections the Markdown shows whole (every table and fact), not by their first table.
_WHOLE = frozenset({"coverage"})


def _whole(extra: Extra) -> list[str]:
    lines = [f"### {md_text(extra.title)}", ""]
    lines += [f"- {md_text(label)}: {md_text(value)}" for label, value in extra.facts]
    lines += [""] if extra.facts else []
    for title, table in extra.tables:
        lines += [f"#### {md_text(title)}", "", *table_markdown(table), ""]
    return lines


def _without_parts(table: Table) -> Table:
    keep = [i for i, c in enumerate(table.columns) if c.key != "counts"]
    return Table([table.columns[i] for i in keep], [[r[i] for i in keep] for r in table.rows])


def truncate(text: str, limit: int = MAX_CHARS) -> str:
    """``text`` cut at a line end before ``limit`` characters, with a notice, if it is longer."""
    if len(text) <= limit:
        return text
    notice = _NOTICE.format(limit=limit, total=len(text))
    cut = text.rfind("\n", 0, limit - len(notice))
    return text[: max(cut, 0)] + notice


@renderers.register("markdown")
class MarkdownRenderer(Renderer):
    """A pull-request comment: headline, suites, worst cases, failure modes, failing cases."""

    format = "markdown"
    filename = "report.md"

    def render(self, report: Report) -> str:
        footer = (
            f"\n<sub>failproof · report schema {report.schema_version} · generated "
            f"{report.generated_at:%Y-%m-%d %H:%M UTC} · details in report.html</sub>\n"
        )
        body = "\n".join(_sections(report)).rstrip() + "\n"
        return truncate(body + footer)
