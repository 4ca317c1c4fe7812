"""The Markdown report (section 5.3), written as ``SAFE_v0_<concern_id>_<timestamp>.md``.

Every value that comes from a batch file is escaped: model output is data, never markup.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from failproof.config._safe import METRICS
from failproof.safe._aggregate import PhraseCount
from failproof.safe._report import SafeReport
from failproof.safe._result import SafeResult

__all__ = ["escape_markdown", "render_markdown"]

_ESCAPES = str.maketrans(
    {
        "\\": "\\\\",
        "|": "\\|",
        "*": "\\*",
        "_": "\\_",
        "`": "\\`",
        "[": "\\[",
        "]": "\\]",
        "#": "\\#",
        "<": "&lt;",
        ">": "&gt;",
        "&": "&amp;",
        "\n": " ",
        "\r": " ",
    }
)


def escape_markdown(text: str) -> str:
    """``text`` safe inside a Markdown paragraph or table cell."""
    return text.translate(_ESCAPES)


def _table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines.extend("| " + " | ".join(row) + " |" for row in rows)
    return [*lines, ""]


def _ci(interval: dict[str, Any], percent: bool) -> str:
    low, high = interval.get("low"), interval.get("high")
    if low is None or high is None:
        return "-"
    return f"{low:.0%} - {high:.0%}" if percent else f"{low:.3f} - {high:.3f}"


def _phrases(items: Sequence[str]) -> str:
    return ", ".join(f'"{escape_markdown(p)}"' for p in items) or "-"


def _header(report: SafeReport) -> list[str]:
    config = report.config
    ah_mode = "strict (binary)" if config.strict_ah else "proportional"
    match = config.match + (
        f" (similarity >= {config.similarity})" if config.match == "semantic" else ""
    )
    return [
        f"# SAFE v0 Report - {escape_markdown(report.concern_id)}",
        "",
        f"Generated {report.timestamp}. Batches: {escape_markdown(report.batch_id)}. "
        f"AH scoring: {ah_mode}. Matching: {match}.",
        "",
    ]


def _summary(report: SafeReport) -> list[str]:
    s = report.summary()
    row = [str(s["total_cases"]), str(s["pass"]), str(s["review"]), str(s["fail"])]
    row += [f"{s['overall_pass_rate']:.0%}", str(s["skipped"])]
    header = ["Total cases", "Pass", "Review", "Fail", "Overall pass rate", "Skipped"]
    return ["## Summary", "", *_table(header, [row])]


def _metric_row(report: SafeReport, name: str, rate_key: str, status: str) -> list[str]:
    agg, ci = report.aggregate, report.aggregate.intervals
    return [
        name,
        f"{agg.mean_scores[name]:.3f}",
        _ci(ci["mean_scores"][name], False),
        f"{agg.pass_rates[rate_key]:.0%}",
        _ci(ci["pass_rates"][rate_key], True),
        status,
    ]


def _metrics(report: SafeReport) -> list[str]:
    rows = [_metric_row(report, m, m, report.metric_status(m).text) for m in METRICS]
    rows.append(_metric_row(report, "composite", "overall", "-"))
    header = ["Metric", "Mean score", "95% CI", "Pass rate", "95% CI", "Status"]
    note = "Composite's pass rate is the overall pass rate (cases labelled Pass)."
    return ["## Metrics", "", *_table(header, rows), note, ""]


def _archetypes(report: SafeReport) -> list[str]:
    ci = report.aggregate.intervals["by_archetype"]
    rows = [
        [
            escape_markdown(name),
            str(stats.count),
            f"{stats.mean_CR:.3f}",
            f"{stats.mean_AH:.3f}",
            f"{stats.mean_AC:.3f}",
            f"{stats.mean_composite:.3f}",
            f"{stats.pass_rate:.0%} ({_ci(ci[name]['pass_rate'], True)})",
        ]
        for name, stats in report.aggregate.by_archetype.items()
    ]
    header = ["Archetype", "Cases", "Mean CR", "Mean AH", "Mean AC", "Composite", "Pass rate"]
    return ["## By archetype", "", *_table(header, rows)]


def _result_row(r: SafeResult) -> list[str]:
    s = r.scores
    return [
        escape_markdown(r.test_id),
        escape_markdown(r.batch_id),
        escape_markdown(r.archetype),
        f"{s.CR:.2f}",
        f"{s.AH:.2f}",
        f"{s.AC:.2f}",
        f"{s.composite:.2f}",
        r.label.upper(),
    ]


def _results(report: SafeReport) -> list[str]:
    header = ["Test ID", "Batch", "Archetype", "CR", "AH", "AC", "Composite", "Label"]
    return ["## Per-case results", "", *_table(header, map(_result_row, report.results))]


def _counts(title: str, key: str, items: Sequence[PhraseCount]) -> list[str]:
    rows = [[f'"{escape_markdown(p)}"', str(n)] for p, n in items]
    return [f"### {title}", "", *(_table([key, "Cases"], rows) if rows else ["None.", ""])]


def _failures(report: SafeReport) -> list[str]:
    fa = report.aggregate.failure_analysis
    worst = [
        [
            escape_markdown(r.test_id),
            f"{r.scores.composite:.2f}",
            r.label.upper(),
            _phrases(r.cr.missing),
            _phrases(r.ah_violations),
            _phrases(r.ac.missing),
        ]
        for r in fa.worst_performers
    ]
    header = ["Test ID", "Composite", "Label", "CR missing", "AH violations", "AC missing"]
    return [
        "## Failure analysis",
        "",
        "### Worst performers (bottom 5 by composite)",
        "",
        *_table(header, worst),
        *_counts("Most common CR misses", "Signal", fa.cr_misses),
        *_counts("Most common AH violations", "Term", fa.ah_violations),
        *_counts("Most common AC misses", "Phrase", fa.ac_misses),
    ]


def _case_detail(r: SafeResult) -> list[str]:
    lines = [
        f"- **{escape_markdown(r.test_id)}** ({r.label}): "
        f"CR missing {_phrases(r.cr.missing)}; AH violations {_phrases(r.ah_violations)}; "
        f"AC missing {_phrases(r.ac.missing)}"
    ]
    for metric, matches in (("CR", r.cr_semantic), ("AC", r.ac_semantic)):
        lines.extend(
            f'  - {metric} semantic: "{escape_markdown(m.phrase)}" ~ '
            f'"{escape_markdown(m.sentence)}" (similarity {m.similarity:.2f}, '
            f"{'matched' if m.matched else 'below threshold'})"
            for m in matches
        )
    lines.extend(f"  - note: {escape_markdown(note)}" for note in r.notes)
    return lines


def _details(report: SafeReport) -> list[str]:
    shown = [
        r
        for r in report.results
        if r.cr.missing
        or r.ah_violations
        or r.ac.missing
        or r.notes
        or r.cr_semantic
        or r.ac_semantic
    ]
    body = [line for r in shown for line in _case_detail(r)] or ["Nothing missing or violated."]
    return ["## Case details", "", *body, ""]


def _skipped(report: SafeReport) -> list[str]:
    if not report.skipped:
        return []
    items = [f"- {escape_markdown(s.describe())}" for s in report.skipped]
    return [f"## Skipped records ({len(report.skipped)})", "", *items, ""]


def _configuration(report: SafeReport) -> list[str]:
    t, w = report.config.thresholds, report.config.weights
    rows = [[m, f"{t.of(m).pass_:g}", f"{t.of(m).review:g}", f"{getattr(w, m):g}"] for m in METRICS]
    return ["## Configuration", "", *_table(["Metric", "Pass", "Review", "Weight"], rows)]


def render_markdown(report: SafeReport) -> str:
    """The whole report as Markdown."""
    sections = (
        _header,
        _summary,
        _metrics,
        _archetypes,
        _results,
        _failures,
        _details,
        _skipped,
        _configuration,
    )
    return "\n".join(line for section in sections for line in section(report)).rstrip() + "\n"
