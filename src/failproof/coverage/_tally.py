"""Counting what cases cover: by suite file (`suite_coverage`) or over a run's answers."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from failproof.core import Suite
from failproof.core._taxonomy import TaxonomyFramework, taxonomy_catalogue
from failproof.coverage._model import Coverage, CoverageCategory, CoverageFramework

__all__ = ["Tally", "suite_coverage"]

#: Case ids a run report lists per category (its first failures).
LISTED_FAILURES = 20


@dataclass
class _Count:
    cases: int = 0
    failed: int = 0
    errors: int = 0
    suites: dict[str, None] = field(default_factory=dict)
    case_ids: list[str] = field(default_factory=list)


@dataclass
class Tally:
    """Counts per taxonomy id, fed one case (or answer) at a time; ``run`` adds failures."""

    run: bool = False
    cases: int = 0
    unlabelled: int = 0
    suites: dict[str, None] = field(default_factory=dict)
    counts: dict[str, _Count] = field(default_factory=dict)

    def add(
        self,
        suite: str,
        case_id: str,
        taxonomy: Sequence[str],
        primary: str = "",
        *,
        failed: bool = False,
    ) -> None:
        """One case of ``suite``; in a run, its answer's primary class and whether it failed
        (an ``error`` is counted apart, never as a failure)."""
        self.cases += 1
        self.suites.setdefault(suite, None)
        self.unlabelled += not taxonomy
        failed = failed and primary != "error"
        for tid in _with_parents(taxonomy):
            count = self.counts.setdefault(tid, _Count())
            count.cases += 1
            count.suites.setdefault(suite, None)
            count.failed += failed
            count.errors += primary == "error"
            listed = failed if self.run else True
            if listed and (not self.run or len(count.case_ids) < LISTED_FAILURES):
                count.case_ids.append(f"{suite}/{case_id}")

    def coverage(self) -> Coverage:
        """The table: every catalogue category of every framework, then ids it does not list."""
        frameworks = [self._framework(f) for f in taxonomy_catalogue().frameworks]
        return Coverage(
            cases=self.cases,
            unlabelled=self.unlabelled,
            suites=list(self.suites),
            frameworks=frameworks,
        )

    def _framework(self, framework: TaxonomyFramework) -> CoverageFramework:
        listed = [(c.code, c.name, c.needs) for c in framework.categories]
        known = {code for code, _, _ in listed}
        prefix = f"{framework.key}:"
        others = sorted(t[len(prefix) :] for t in self.counts if t.startswith(prefix))
        listed += [(code, "", None) for code in others if code not in known]
        rows = [self._category(f"{prefix}{c}", c, name, needs) for c, name, needs in listed]
        return CoverageFramework(key=framework.key, title=framework.title, categories=rows)

    def _category(self, tid: str, code: str, name: str, needs: str | None) -> CoverageCategory:
        count = self.counts.get(tid, _Count())
        return CoverageCategory(
            id=tid,
            code=code,
            name=name,
            cases=count.cases,
            suites=list(count.suites),
            case_ids=count.case_ids,
            failed=count.failed if self.run else None,
            errors=count.errors if self.run else None,
            needs=needs if not count.cases else None,
        )


def _with_parents(taxonomy: Sequence[str]) -> list[str]:
    """The ids, and the technique of each ATLAS sub-technique (AML.T0051.001 tests AML.T0051)."""
    out = dict.fromkeys(taxonomy)
    for tid in taxonomy:
        if tid.startswith("atlas:") and tid.count(".") == 2:
            out.setdefault(tid.rsplit(".", 1)[0], None)
    return list(out)


def suite_coverage(suites: Iterable[Suite]) -> Coverage:
    """What the cases of ``suites`` cover, per framework and category."""
    tally = Tally()
    for suite in suites:
        for case in suite.cases:
            tally.add(suite.name, case.id, case.taxonomy)
    return tally.coverage()
