"""How stable the verdicts are: robustness (originals against their generated variants) and
consistency (the samples of a repeated case), read from their sections by attribute."""

from __future__ import annotations

from dataclasses import replace

from failproof.metrics._consistency import CaseConsistency, ConsistencySection
from failproof.metrics._robustness import RobustnessSection, RobustnessStats
from failproof.render._numbers import Kind, format_value, value_of
from failproof.render._table import Cell, Column, Table
from failproof.report._present.cases import CaseIndex
from failproof.report._present.extra import Extra
from failproof.report._tables import Spec, typed_table

__all__ = ["consistency_extra", "robustness_extra"]


_MUTATOR = (
    Spec("variants", "variants"),
    Spec("original_pass_rate", "originals pass", "pct"),
    Spec("variant_pass_rate", "variants pass", "pct"),
    Spec("delta", "Δ pass rate", "text"),
    Spec("broken", "pass → fail"),
    Spec("fixed", "fail → pass"),
    Spec("kept_pass_rate", "passes kept", "pct"),
)


def _points(raw: float) -> str:
    value = value_of(raw)
    return "–" if value is None else f"{value.estimate * 100:+.1f} pp"


def _mutator_row(stats: RobustnessStats) -> dict[str, object]:
    return {
        "variants": stats.variants,
        "original_pass_rate": stats.original_pass_rate,
        "variant_pass_rate": stats.variant_pass_rate,
        "delta": _points(stats.delta),
        "broken": stats.flips.pass_to_fail,
        "fixed": stats.flips.fail_to_pass,
        "kept_pass_rate": stats.robustness,
    }


def robustness_extra(key: str, section: RobustnessSection, index: CaseIndex) -> Extra:
    """Pass rates of the originals and their variants per mutator, and the flips between them."""
    rows = {"all mutators": section.overall} if section.overall is not None else {}
    rows.update(section.mutators)
    table = typed_table(
        Column("mutator", "mutator"),
        [(name, _mutator_row(stats)) for name, stats in rows.items()],
        _MUTATOR,
        bars={"variant_pass_rate": "good"},
    )
    unpaired = section.unpaired_variants
    facts = [("variants without their original in the run", str(unpaired))] if unpaired else []
    return Extra(
        key,
        "Robustness: originals vs generated variants",
        facts,
        [
            ("", _toned_deltas(table, "delta")),
            ("Variants that broke a passing case", _flips(section, index)),
        ],
    )


def _toned_deltas(table: Table, key: str) -> Table:
    """Colour a column of signed changes: up is better, down is worse."""
    if key not in [c.key for c in table.columns]:
        return table
    at = [c.key for c in table.columns].index(key)
    rows = []
    for row in table.rows:
        text = row[at].text
        tone = (
            "delta-better"
            if text.startswith("+")
            else "delta-worse"
            if text.startswith("-")
            else None
        )
        rows.append([*row[:at], replace(row[at], tone=tone), *row[at + 1 :]])
    return Table(table.columns, rows, table.more)


def _opens(ref: str, index: CaseIndex) -> int | None:
    """The case ``suite/case_id`` (or a bare id) names."""
    suite, _, case_id = ref.partition("/")
    return index.find(case_id, suite) if case_id else index.find(suite)


_FLIP_COLUMNS = [
    Column("original", "original"),
    Column("variant", "variant"),
    Column("variant_class", "variant class"),
]


def _flips(section: RobustnessSection, index: CaseIndex) -> Table:
    examples = section.overall.examples if section.overall is not None else []
    rows = [
        [
            Cell(ex.original, case=_opens(ex.original, index)),
            Cell(ex.variant, case=_opens(ex.variant, index)),
            Cell(ex.variant_class, tone=ex.variant_class),
        ]
        for ex in examples
    ]
    return Table(_FLIP_COLUMNS, rows) if section.overall is not None else Table([])


_CONSISTENCY: tuple[tuple[str, str, Kind], ...] = (
    ("samples_per_case", "samples per case", "count"),
    ("pass_hat_n", "pass^N (every sample passed)", "pct"),
    ("pass_at_1", "pass@1 (mean pass rate)", "pct"),
    ("inconsistent", "cases with mixed verdicts", "pct"),
    ("mean_flip_rate", "mean flip rate", "pct"),
)
_MIXED_SHOWN = 50


def consistency_extra(key: str, section: ConsistencySection, index: CaseIndex) -> Extra:
    """pass^N and pass@1 over the repeated cases, and the cases whose verdict changed."""
    facts = [
        (label, format_value(value, kind))
        for name, label, kind in _CONSISTENCY
        if (value := value_of(getattr(section, name))) is not None
    ]
    mixed = sorted(
        (c for c in section.cases if c.flip_rate > 0), key=lambda c: (-c.flip_rate, c.case_id)
    )
    return Extra(
        key,
        "Consistency across repeated samples",
        facts,
        [("Cases whose verdict changed between samples", _mixed_table(mixed, index))],
    )


_MIXED = (
    Spec("suite", "suite", "text"),
    Spec("n", "cases", "count"),
    Spec("passed", "passed", "count"),
    Spec("pass_rate", "pass rate", "pct"),
    Spec("flip_rate", "flip rate", "pct"),
    Spec("pass_all", "pass all"),
)


def _mixed_table(mixed: list[CaseConsistency], index: CaseIndex) -> Table:
    shown = mixed[:_MIXED_SHOWN]
    rows = [(c.case_id, {s.key: getattr(c, s.key) for s in _MIXED}) for c in shown]
    table = typed_table(Column("case_id", "case"), rows, _MIXED, bars={"pass_rate": "good"})
    if not table:
        return table
    linked = [
        [replace(r[0], case=index.find(c.case_id, c.suite)), *r[1:]]
        for r, c in zip(table.rows, shown, strict=False)
    ]
    return Table(table.columns, linked, max(0, len(mixed) - _MIXED_SHOWN))
