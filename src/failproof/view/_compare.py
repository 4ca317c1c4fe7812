"""Two runs side by side: headline and per-suite score deltas, and the cases that flipped."""

from __future__ import annotations

from dataclasses import dataclass, field

from failproof.core import CaseResult
from failproof.metrics import SuiteRow
from failproof.report import Kind, Report, Value, case_verdict, format_value, headline, value_of

__all__ = ["Comparison", "Delta", "Flip", "compare_reports"]

_LOWER_IS_BETTER = {"exposure_index", "fragility_spread", "latency_p50_ms"}


@dataclass(frozen=True, slots=True)
class Delta:
    """One number in run A and in run B."""

    label: str
    a: Value | None
    b: Value | None
    kind: Kind = "pct"
    lower_is_better: bool = False

    @property
    def change(self) -> float | None:
        if self.a is None or self.b is None:
            return None
        return self.b.estimate - self.a.estimate

    @property
    def text(self) -> str:
        change = self.change
        if change is None:
            return "–"
        if change == 0:
            return "no change"
        if self.kind == "pct":
            return f"{change * 100:+.1f} pp"
        if self.kind == "count":
            return f"{change:+,.0f}"
        return f"{change:+,.0f} ms" if self.kind == "ms" else f"{change:+.2f}"

    @property
    def tone(self) -> str:
        """``better``, ``worse`` or ``same``."""
        change = self.change
        if not change:
            return "same"
        return "better" if (change < 0) == self.lower_is_better else "worse"

    def show(self, side: Value | None) -> str:
        return format_value(side, self.kind)


@dataclass(frozen=True, slots=True)
class Flip:
    """A case whose class or verdict differs between the runs."""

    suite: str
    case_id: str
    sample: int
    a: str
    b: str
    a_index: int
    b_index: int
    output: str


@dataclass(frozen=True, slots=True)
class Comparison:
    """What changed from run A to run B."""

    a: Report
    b: Report
    headline: list[Delta]
    suites: list[tuple[str, Delta, int, int]]
    regressions: list[Flip] = field(default_factory=list)
    fixes: list[Flip] = field(default_factory=list)
    changed: list[Flip] = field(default_factory=list)
    only_a: int = 0
    only_b: int = 0


def _headline(a: Report, b: Report) -> list[Delta]:
    stats_a = {s.key: s for s in headline(a)}
    stats_b = {s.key: s for s in headline(b)}
    keys = list(stats_a) + [k for k in stats_b if k not in stats_a]
    out = []
    for key in keys:
        stat = stats_a.get(key) or stats_b[key]
        first, second = stats_a.get(key), stats_b.get(key)
        out.append(
            Delta(
                stat.label,
                first.value if first else None,
                second.value if second else None,
                stat.kind,
                key in _LOWER_IS_BETTER,
            )
        )
    return out


def _suites(a: Report, b: Report) -> list[tuple[str, Delta, int, int]]:
    names = list(a.suites) + [n for n in b.suites if n not in a.suites]
    rows = []
    for name in names:
        row_a, row_b = a.suites.get(name), b.suites.get(name)
        delta = Delta(name, _score(row_a), _score(row_b))
        rows.append((name, delta, row_a.n if row_a else 0, row_b.n if row_b else 0))
    return rows


def _score(row: SuiteRow | None) -> Value | None:
    return value_of(row.score) if row is not None else None


def _label(result: CaseResult) -> str:
    """The case's class, with its verdict when another scorer (SAFE v0) decided otherwise."""
    verdict = case_verdict(result)
    implied = "pass" if result.primary in ("pass", "unscored") else "fail"
    return result.primary if verdict == implied else f"{result.primary} ({verdict})"


def compare_reports(a: Report, b: Report) -> Comparison:
    """Score deltas and flipped cases from run ``a`` (before) to run ``b`` (after)."""
    index_a = {r.key: i for i, r in enumerate(a.results)}
    index_b = {r.key: i for i, r in enumerate(b.results)}
    comparison = Comparison(
        a,
        b,
        _headline(a, b),
        _suites(a, b),
        only_a=len(index_a.keys() - index_b.keys()),
        only_b=len(index_b.keys() - index_a.keys()),
    )
    for key, i in index_b.items():
        if key not in index_a:
            continue
        old, new = a.results[index_a[key]], b.results[i]
        was, now = case_verdict(old), case_verdict(new)
        if was == now and old.primary == new.primary:
            continue
        flip = Flip(
            key[0],
            key[1],
            key[2],
            _label(old),
            _label(new),
            index_a[key],
            i,
            new.output or new.error or "",
        )
        group = (
            comparison.regressions
            if was == "pass" and now != "pass"
            else comparison.fixes
            if was != "pass" and now == "pass"
            else comparison.changed
        )
        group.append(flip)
    return comparison
