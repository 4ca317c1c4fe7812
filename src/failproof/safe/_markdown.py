"""The Markdown report (section 5.3), written as ``SAFE_v0_<concern_id>_<timestamp>.md``.

Every value that comes from a batch file is escaped: model output is data, never markup.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from failproof.config._safe import METRICS
from failproof.render._numbers import Notation
from failproof.render._table import md_table
from failproof.render._text import md_text
from failproof.safe._aggregate import PhraseCount
from failproof.safe._report import SafeReport
from failproof.safe._result import SafeResult

__all__ = ["render_markdown"]

#: SAFE's interval bounds: ``80% - 95%`` for rates, ``0.812 - 0.903`` for mean scores.
_RATE_BOUNDS = Notation(".0%", " - ", missing="-")
_MEAN_BOUNDS = Notation(".3f", " - ", missing="-")


def _table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    return [*md_table(header, rows), ""]


def _ci(interval: dict[str, Any], percent: bool) -> str:
    return (_RATE_BOUNDS if percent else _MEAN_BOUNDS).text(
        interval.get("low"), interval.get("high")
    )


def _phrases(items: Sequence[str]) -> str:
    return ", ".join(f'"{md_text(p, None)}"' for p in items) or "-"


def _header(report: SafeReport) -> list[str]:
    config = report.config
    ah_mode = "strict (binary)" if config.strict_ah else "proportional"
    match = config.match + (
        f" (similarity >= {config.similarity})" if config.match == "semantic" else ""
    )
    return [
        f"# SAFE v0 Report - {md_text(report.concern_id, None)}",
        "",
        f"Generated {report.timestamp}. Batches: {md_text(report.batch_id, None)}. "
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
            md_text(name, None),
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
        md_text(r.test_id, None),
        md_text(r.batch_id, None),
        md_text(r.archetype, None),
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
    rows = [[f'"{md_text(p, None)}"', str(n)] for p, n in items]
    return [f"### {title}", "", *(_table([key, "Cases"], rows) if rows else ["None.", ""])]


def _failures(report: SafeReport) -> list[str]:
    fa = report.aggregate.failure_analysis
    worst = [
        [
            md_text(r.test_id, None),
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
        f"- **{md_text(r.test_id, None)}** ({r.label}): "
        f"CR missing {_phrases(r.cr.missing)}; AH violations {_phrases(r.ah_violations)}; "
        f"AC missing {_phrases(r.ac.missing)}"
    ]
    for metric, matches in (("CR", r.cr_semantic), ("AC", r.ac_semantic)):
        lines.extend(
            f'  - {metric} semantic: "{md_text(m.phrase, None)}" ~ '
            f'"{md_text(m.sentence, None)}" (similarity {m.similarity:.2f}, '
            f"{'matched' if m.matched else 'below threshold'})"
            for m in matches
        )
    lines.extend(f"  - note: {md_text(note, None)}" for note in r.notes)
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
    items = [f"- {md_text(s.describe(), None)}" for s in report.skipped]
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
