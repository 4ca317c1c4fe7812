"""Regression detection: compare a current SAFE v0 JSON report with a baseline one.

Cases are paired by ``test_id`` (by ``(batch_id, test_id)`` when a report repeats a test id).
For CR, AH, AC, the composite and the Pass indicator the comparison gives the paired mean
difference (current - baseline) with a bootstrap interval and a paired sign-flip test; p-values are
Holm-adjusted across those five. A *significant regression* is a negative difference whose
adjusted p-value is below ``alpha``. Cases whose label got worse or better are listed.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict, ValidationError

from failproof.config._safe import Label
from failproof.errors import InputError
from failproof.guard._json import JsonObject
from failproof.guard._problem import first_problem
from failproof.safe._intervals import mean_interval
from failproof.safe._paired import holm, sign_flip_test

__all__ = ["COMPARED", "CaseChange", "Comparison", "MetricDelta", "compare_reports", "load_report"]

#: What is compared: the three metrics, the composite, and the Pass indicator.
COMPARED = ("CR", "AH", "AC", "composite", "pass")
_RANK: dict[str, int] = {"Pass": 2, "Review": 1, "Fail": 0}


class _Scores(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)
    CR: float
    AH: float
    AC: float
    composite: float


class _Case(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)
    test_id: str
    batch_id: str = ""
    archetype: str = ""
    label: Label
    scores: _Scores

    def value(self, name: str) -> float:
        if name == "pass":
            return 1.0 if self.label == "Pass" else 0.0
        return float(getattr(self.scores, name))


class LoadedReport(NamedTuple):
    path: str
    concern_id: str
    generated_at: str
    cases: tuple[_Case, ...]


def load_report(path: Path) -> LoadedReport:
    """Read a SAFE v0 JSON report (only what a comparison needs is validated)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read the report: {exc}") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: not valid JSON: {exc.msg} (line {exc.lineno})") from None
    if not isinstance(data, dict) or data.get("report_type") != "SAFE_v0":
        raise InputError(
            f"{path}: not a SAFE v0 JSON report (report_type is not 'SAFE_v0')",
            hint="write one with: failproof safe score ... --format json",
        )
    results = data.get("results")
    if not isinstance(results, list):
        raise InputError(f"{path}: the report has no 'results' list")
    cases = []
    for index, item in enumerate(results):
        try:
            cases.append(_Case.model_validate(item))
        except ValidationError as exc:
            where, what = first_problem(exc)
            raise InputError(f"{path}: results[{index}].{where}: {what}") from None
    return LoadedReport(
        str(path), str(data.get("concern_id", "")), str(data.get("generated_at", "")), tuple(cases)
    )


class CaseChange(NamedTuple):
    """A case whose label changed between the reports."""

    test_id: str
    batch_id: str
    archetype: str
    before: Label
    after: Label
    composite_before: float
    composite_after: float

    def to_json(self) -> JsonObject:
        return self._asdict()


class MetricDelta(NamedTuple):
    """Paired change of one metric's mean, with its interval and test."""

    metric: str
    baseline: float
    current: float
    delta: float
    low: float | None
    high: float | None
    p_value: float
    p_adjusted: float
    method: str
    significant: bool

    @property
    def verdict(self) -> str:
        if not self.significant:
            return "no significant change"
        return "regression" if self.delta < 0 else "improvement"

    def to_json(self) -> JsonObject:
        return self._asdict() | {"verdict": self.verdict}


class Comparison(NamedTuple):
    """The full comparison of a current report against its baseline."""

    baseline: LoadedReport
    current: LoadedReport
    paired: int
    deltas: tuple[MetricDelta, ...]
    worse: tuple[CaseChange, ...]
    better: tuple[CaseChange, ...]
    only_baseline: tuple[str, ...]
    only_current: tuple[str, ...]
    alpha: float

    @property
    def regression(self) -> bool:
        """Whether any compared mean got significantly worse."""
        return any(d.significant and d.delta < 0 for d in self.deltas)

    def to_json(self) -> JsonObject:
        return {
            "report_type": "SAFE_v0_comparison",
            "baseline": {"path": self.baseline.path, "generated_at": self.baseline.generated_at},
            "current": {"path": self.current.path, "generated_at": self.current.generated_at},
            "concern_id": self.current.concern_id,
            "paired_cases": self.paired,
            "alpha": self.alpha,
            "regression": self.regression,
            "deltas": [d.to_json() for d in self.deltas],
            "worse": [c.to_json() for c in self.worse],
            "better": [c.to_json() for c in self.better],
            "only_in_baseline": list(self.only_baseline),
            "only_in_current": list(self.only_current),
        }


_Key = Callable[[_Case], str]


def _key_function(*reports: LoadedReport) -> _Key:
    for report in reports:
        ids = [c.test_id for c in report.cases]
        if len(ids) != len(set(ids)):
            return lambda c: f"{c.batch_id}/{c.test_id}"
    return lambda c: c.test_id


def _change(before: _Case, after: _Case) -> CaseChange:
    return CaseChange(
        after.test_id,
        after.batch_id,
        after.archetype,
        before.label,
        after.label,
        before.scores.composite,
        after.scores.composite,
    )


def _deltas(
    pairs: Sequence[tuple[_Case, _Case]], alpha: float, seed: int, resamples: int
) -> tuple[MetricDelta, ...]:
    rows = []
    for name in COMPARED:
        before = [b.value(name) for b, _ in pairs]
        after = [a.value(name) for _, a in pairs]
        diffs = [a - b for b, a in zip(before, after, strict=True)]
        test = sign_flip_test(diffs, seed=seed, resamples=resamples)
        ci = mean_interval(diffs, seed=seed, resamples=2000, confidence=1 - alpha)
        rows.append((name, before, after, test, ci))
    adjusted = holm([row[3].p_value for row in rows])
    return tuple(
        MetricDelta(
            metric=name,
            baseline=sum(before) / len(before),
            current=sum(after) / len(after),
            delta=test.mean_difference,
            low=ci.low,
            high=ci.high,
            p_value=test.p_value,
            p_adjusted=p_adj,
            method=test.method,
            significant=p_adj < alpha and test.mean_difference != 0,
        )
        for (name, before, after, test, ci), p_adj in zip(rows, adjusted, strict=True)
    )


def compare_reports(
    baseline: LoadedReport,
    current: LoadedReport,
    *,
    alpha: float = 0.05,
    seed: int = 0,
    resamples: int = 10_000,
) -> Comparison:
    """Pair the cases of two reports and test every compared mean for a change."""
    key = _key_function(baseline, current)
    before = {key(c): c for c in baseline.cases}
    after = {key(c): c for c in current.cases}
    shared = [k for k in after if k in before]
    if not shared:
        raise InputError(
            f"{baseline.path} and {current.path} have no test_id in common",
            hint="compare two reports of the same concern and batches",
        )
    pairs = [(before[k], after[k]) for k in shared]
    changes = [_change(b, a) for b, a in pairs if b.label != a.label]
    return Comparison(
        baseline=baseline,
        current=current,
        paired=len(pairs),
        deltas=_deltas(pairs, alpha, seed, resamples),
        worse=tuple(c for c in changes if _RANK[c.after] < _RANK[c.before]),
        better=tuple(c for c in changes if _RANK[c.after] > _RANK[c.before]),
        only_baseline=tuple(k for k in before if k not in after),
        only_current=tuple(k for k in after if k not in before),
        alpha=alpha,
    )
