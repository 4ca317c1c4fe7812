"""Run A against run B: what newly fails, newly passes and changed class, and how each score moved.

One implementation serves ``failproof compare`` (Markdown, JSON, console), ``failproof view``'s
comparison page and the GitHub Action's pull-request comment.

The runs' cases are matched by (suite, case id, sample). Paired statistics are computed over the
matched cases: a pass-rate change (overall and per suite) has a paired bootstrap interval, drawn
from the multinomial of (newly failing, newly passing, unchanged) with an explicit seed, and an
exact McNemar test on the discordant cases (a normal approximation past 1,000 of them); the
exposure change (mean weighted risk) has a paired bootstrap interval of the mean difference and
is significant when that interval leaves out zero. Other headline numbers are shown side by side
with each run's own interval and are not tested.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
from pydantic import Field, field_validator

from failproof.core import CaseResult
from failproof.core._case_verdict import Verdict, case_verdict
from failproof.core._closed import Closed
from failproof.render._numbers import Kind, Value, format_value, value_of
from failproof.render._text import excerpt
from failproof.report._model import Report
from failproof.report._present.headline import headline

__all__ = [
    "COMPARE_SCHEMA_VERSION",
    "CaseChange",
    "Comparison",
    "Point",
    "RunSide",
    "Shift",
    "SuiteShift",
    "compare_reports",
    "mcnemar_p",
]

COMPARE_SCHEMA_VERSION = "1.0"
_LOWER_IS_BETTER = {"exposure_index", "fragility_spread", "latency_p50_ms", "latency_p95_ms"}
_EXACT_UP_TO = 1000
_RESAMPLES = 2000
_BOOTSTRAP_UP_TO = 20_000
_Z95 = 1.959963984540054
_OUTPUT_CHARS = 300

Tone = Literal["better", "worse", "same"]
Outcome = Literal["better", "worse", "same", "nothing_compared"]


class Point(Closed):
    """A number with its interval bounds when the report gives them."""

    estimate: float
    low: float | None = None
    high: float | None = None

    @classmethod
    def of(cls, value: Value | Point | None) -> Point | None:
        if value is None or isinstance(value, Point):
            return value
        return cls(estimate=value.estimate, low=value.low, high=value.high)

    @property
    def value(self) -> Value:
        return Value(self.estimate, self.low, self.high)


def _points(value: object) -> object:
    return Point.of(value) if isinstance(value, Value) else value


class RunSide(Closed):
    """One of the two runs."""

    id: str = Field(description="The run id.")
    target: str = Field(description="The target's name.")
    cases: int = Field(description="Cases (samples) in the run.")
    passed: int = Field(description="Cases whose verdict is pass.")


class Shift(Closed):
    """One number in run A and in run B, and its change."""

    key: str = Field(description="The metric's key (pass_rate, exposure_index, a suite name...).")
    label: str = Field(description="The metric's name for people.")
    kind: Kind = Field(default="pct", description="How the number is shown.")
    lower_is_better: bool = False
    a: Point | None = Field(default=None, description="Run A's value, with its own interval.")
    b: Point | None = Field(default=None, description="Run B's value, with its own interval.")
    change: float | None = Field(default=None, description="b - a (paired when tested).")
    low: float | None = Field(default=None, description="Lower bound of the change (95%).")
    high: float | None = Field(default=None, description="Upper bound of the change (95%).")
    method: str | None = Field(default=None, description="How the change was tested, if it was.")
    paired: int = Field(default=0, description="Cases matched in both runs (paired tests).")
    p_value: float | None = Field(default=None, description="Two-sided p-value, when tested.")
    significant: bool | None = Field(
        default=None, description="The change is significant at 95% (None: not tested)."
    )

    @property
    def text(self) -> str:
        """The change in the metric's units (``+2.0 pp``, ``-0.12``)."""
        return _signed(self.change, self.kind)

    @property
    def interval_text(self) -> str:
        if self.low is None or self.high is None:
            return ""
        low, high = _signed(self.low, self.kind, "0"), _signed(self.high, self.kind, "0")
        return f"[{low}, {high}]"

    @property
    def tone(self) -> Tone:
        """``better``, ``worse`` or ``same``."""
        if not self.change:
            return "same"
        return "better" if (self.change < 0) == self.lower_is_better else "worse"

    _a = field_validator("a", "b", mode="before")(_points)

    def show(self, side: Point | None) -> str:
        return format_value(side.value if side is not None else None, self.kind)


class SuiteShift(Closed):
    """A suite's score (its cases' accuracy) in both runs."""

    name: str
    cases_a: int
    cases_b: int
    score: Shift


class CaseChange(Closed):
    """A case whose verdict or class differs between the runs."""

    suite: str
    case_id: str
    sample: int
    a: str = Field(description="Class in run A (its verdict too when another scorer decided).")
    b: str = Field(description="Class in run B.")
    verdict_a: Verdict
    verdict_b: Verdict
    a_index: int = Field(description="Position of the case in run A's report.")
    b_index: int = Field(description="Position of the case in run B's report.")
    output: str = Field(description="Run B's output (or error), cut to a few hundred characters.")
    reasons: list[str] = Field(default_factory=list, description="Why run B decided as it did.")


class Comparison(Closed):
    """What changed from run A (before) to run B (after); ``failproof compare``'s JSON."""

    report_type: Literal["failproof_compare"] = "failproof_compare"
    schema_version: str = COMPARE_SCHEMA_VERSION
    a: RunSide
    b: RunSide
    headline: list[Shift] = Field(default_factory=list)
    suites: list[SuiteShift] = Field(default_factory=list)
    newly_failing: list[CaseChange] = Field(
        default_factory=list, description="Passed in A, not in B (regressions)."
    )
    newly_passing: list[CaseChange] = Field(
        default_factory=list, description="Not passed in A, passed in B (fixes)."
    )
    flipped_class: list[CaseChange] = Field(
        default_factory=list, description="Same pass/not-pass side, another class or verdict."
    )
    only_a: int = Field(default=0, description="Cases in A only (not compared).")
    only_b: int = Field(default=0, description="Cases in B only (not compared).")
    compared: int = Field(description="Cases in both runs (0: nothing could be compared).")

    @property
    def nothing_compared(self) -> bool:
        """No case is in both runs: nothing could newly fail or pass, whatever the scores."""
        return self.compared == 0

    @property
    def outcome(self) -> Outcome:
        """``worse`` when anything newly fails, ``better`` when only fixes, ``nothing_compared``
        when no case is in both runs, else ``same``."""
        if self.nothing_compared:
            return "nothing_compared"
        if self.newly_failing:
            return "worse"
        return "better" if self.newly_passing else "same"


def _signed(value: float | None, kind: Kind, zero: str = "no change") -> str:
    if value is None:
        return "–"
    if value == 0:
        return zero
    if kind == "pct":
        return f"{value * 100:+.1f} pp"
    if kind == "count":
        return f"{value:+,.0f}"
    return f"{value:+,.0f} ms" if kind == "ms" else f"{value:+.3f}"


def mcnemar_p(worse: int, better: int) -> float:
    """Two-sided McNemar p-value for ``worse`` and ``better`` discordant pairs.

    Exact (binomial, p = 1/2) up to 1,000 discordant pairs; past that the normal approximation
    with continuity correction."""
    n = worse + better
    if n == 0:
        return 1.0
    k = min(worse, better)
    if n <= _EXACT_UP_TO:
        tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
        return float(min(1.0, 2 * tail))
    z = max(0.0, abs(worse - better) - 1) / math.sqrt(n)
    return math.erfc(z / math.sqrt(2))


@dataclass(slots=True)
class _Pairs:
    """Matched cases of a group (the run, or one suite): verdict moves and risk differences."""

    n: int = 0
    worse: int = 0
    better: int = 0
    risk: list[float] = field(default_factory=list)

    def add(self, was: bool, now: bool, risk: float | None) -> None:
        self.n += 1
        self.worse += was and not now
        self.better += now and not was
        if risk is not None:
            self.risk.append(risk)


def _paired_rate(key: str, label: str, pairs: _Pairs, a: Value | None, b: Value | None) -> Shift:
    """A pass-rate shift over the matched cases: bootstrap interval and McNemar test."""
    if pairs.n == 0:
        return Shift(key=key, label=label, a=a, b=b, change=_plain(a, b))
    n = pairs.n
    change = (pairs.better - pairs.worse) / n
    rng = np.random.default_rng(0)
    rest = n - pairs.better - pairs.worse
    draws = rng.multinomial(n, [pairs.better / n, pairs.worse / n, rest / n], size=_RESAMPLES)
    low, high = np.quantile((draws[:, 0] - draws[:, 1]) / n, [0.025, 0.975])
    p = mcnemar_p(pairs.worse, pairs.better)
    return Shift(
        key=key,
        label=label,
        a=a,
        b=b,
        change=change,
        low=float(low),
        high=float(high),
        method="paired bootstrap; McNemar",
        paired=n,
        p_value=p,
        significant=p < 0.05,
    )


def _paired_mean(values: Sequence[float]) -> tuple[float, float, float, str]:
    data = np.asarray(values, dtype=float)
    mean = float(data.mean())
    if len(data) <= _BOOTSTRAP_UP_TO:
        rng = np.random.default_rng(0)
        means = data[rng.integers(0, len(data), size=(_RESAMPLES, len(data)))].mean(axis=1)
        low, high = np.quantile(means, [0.025, 0.975])
        return mean, float(low), float(high), "paired bootstrap"
    half = _Z95 * float(data.std(ddof=1)) / math.sqrt(len(data))
    return mean, mean - half, mean + half, "paired normal"


def _paired_risk(stat: Shift, pairs: _Pairs) -> Shift:
    if not pairs.risk:
        return stat
    change, low, high, method = _paired_mean(pairs.risk)
    significant = low > 0 or high < 0
    return stat.model_copy(
        update={
            "change": change,
            "low": low,
            "high": high,
            "method": method,
            "paired": len(pairs.risk),
            "significant": significant,
        }
    )


def _plain(a: Value | None, b: Value | None) -> float | None:
    return None if a is None or b is None else b.estimate - a.estimate


def _label(result: CaseResult, verdict: str) -> str:
    """The case's class, with its verdict when another scorer (SAFE v0) decided otherwise."""
    if verdict == "unsupported":
        return verdict
    implied = "pass" if result.primary in ("pass", "unscored") else "fail"
    return result.primary if verdict == implied else f"{result.primary} ({verdict})"


def _risk(result: CaseResult) -> float | None:
    return result.case_score.weighted_risk if result.case_score is not None else None


@dataclass(frozen=True, slots=True)
class _Seen:
    """What is kept of a run A case while run B is read: its position, verdict and class."""

    index: int
    verdict: Verdict
    label: str
    risk: float | None


def _index(report: Report) -> dict[tuple[str, str, int], _Seen]:
    seen: dict[tuple[str, str, int], _Seen] = {}
    for i, result in enumerate(report.cases()):
        verdict = case_verdict(result)
        seen[result.key] = _Seen(i, verdict, _label(result, verdict), _risk(result))
    return seen


def _side(report: Report) -> RunSide:
    digest = report.digest()
    name = report.run.target.get("name") or report.run.target.get("spec") or "?"
    return RunSide(
        id=report.run.id, target=str(name), cases=digest.total, passed=digest.verdicts["pass"]
    )


def _reasons(result: CaseResult) -> list[str]:
    reasons = result.classification.reasons if result.classification else []
    return [excerpt(f"{r.rule}: {r.detail}", 200) for r in reasons[:5]]


def _change(old: _Seen, new: CaseResult, index: int, verdict: Verdict) -> CaseChange:
    return CaseChange(
        suite=new.suite,
        case_id=new.case_id,
        sample=new.sample,
        a=old.label,
        b=_label(new, verdict),
        verdict_a=old.verdict,
        verdict_b=verdict,
        a_index=old.index,
        b_index=index,
        output=excerpt(new.output or new.error or "", _OUTPUT_CHARS),
        reasons=_reasons(new),
    )


@dataclass(slots=True)
class _Walk:
    """Run B read once against run A's index."""

    overall: _Pairs = field(default_factory=_Pairs)
    suites: dict[str, _Pairs] = field(default_factory=dict)
    failing: list[CaseChange] = field(default_factory=list)
    passing: list[CaseChange] = field(default_factory=list)
    flipped: list[CaseChange] = field(default_factory=list)
    matched: int = 0


def _walk(seen: dict[tuple[str, str, int], _Seen], b: Report) -> _Walk:
    walk = _Walk()
    for i, new in enumerate(b.cases()):
        old = seen.get(new.key)
        verdict = case_verdict(new)
        if old is None or "unsupported" in (old.verdict, verdict):  # not run on one side
            continue
        walk.matched += 1
        was, now = old.verdict == "pass", verdict == "pass"
        risk_b = _risk(new)
        diff = None if old.risk is None or risk_b is None else risk_b - old.risk
        walk.overall.add(was, now, diff)
        walk.suites.setdefault(new.suite, _Pairs()).add(was, now, diff)
        label = _label(new, verdict)
        if old.verdict == verdict and old.label == label:
            continue
        group = walk.failing if was and not now else walk.passing if now and not was else None
        (walk.flipped if group is None else group).append(_change(old, new, i, verdict))
    return walk


def _headline(a: Report, b: Report, walk: _Walk) -> list[Shift]:
    stats_a = {s.key: s for s in headline(a)}
    stats_b = {s.key: s for s in headline(b)}
    out = []
    for key in list(stats_a) + [k for k in stats_b if k not in stats_a]:
        stat = stats_a.get(key) or stats_b[key]
        first, second = stats_a.get(key), stats_b.get(key)
        va, vb = (first.value if first else None), (second.value if second else None)
        if key == "pass_rate":
            out.append(_paired_rate(key, stat.label, walk.overall, va, vb))
            continue
        shift = Shift(
            key=key,
            label=stat.label,
            kind=stat.kind,
            lower_is_better=key in _LOWER_IS_BETTER,
            a=va,
            b=vb,
            change=_plain(va, vb),
        )
        out.append(_paired_risk(shift, walk.overall) if key == "exposure_index" else shift)
    return out


def _suites(a: Report, b: Report, walk: _Walk) -> list[SuiteShift]:
    rows = []
    for name in list(a.suites) + [n for n in b.suites if n not in a.suites]:
        row_a, row_b = a.suites.get(name), b.suites.get(name)
        va = value_of(row_a.score) if row_a else None
        vb = value_of(row_b.score) if row_b else None
        shift = _paired_rate(name, name, walk.suites.get(name, _Pairs()), va, vb)
        rows.append(
            SuiteShift(
                name=name,
                cases_a=row_a.n if row_a else 0,
                cases_b=row_b.n if row_b else 0,
                score=shift,
            )
        )
    return rows


def compare_reports(a: Report, b: Report) -> Comparison:
    """What changed from run ``a`` (before) to run ``b`` (after); each report is read once."""
    seen = _index(a)
    walk = _walk(seen, b)
    total_b = b.digest().total
    return Comparison(
        a=_side(a),
        b=_side(b),
        headline=_headline(a, b, walk),
        suites=_suites(a, b, walk),
        newly_failing=walk.failing,
        newly_passing=walk.passing,
        flipped_class=walk.flipped,
        only_a=len(seen) - walk.matched,
        only_b=total_b - walk.matched,
        compared=walk.matched,
    )


def changes(comparison: Comparison) -> Iterable[tuple[str, list[CaseChange]]]:
    """The case lists with their titles, new failures first."""
    yield "Newly failing", comparison.newly_failing
    yield "Newly passing", comparison.newly_passing
    yield "Class changed", comparison.flipped_class
