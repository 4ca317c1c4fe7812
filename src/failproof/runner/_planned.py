"""The suites of a run as it reads them: the chosen cases streamed, and what the run records.

A run of a JSONL suite of a million cases holds none of them for long: `survey` reads the chosen
cases once for the suite fingerprint (the same value `suite_fingerprint` gives the loaded suites,
hashed as it is written) and whether any carries SAFE expectations; the run then reads them again
as it sends them (`RunSuites.cases`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from failproof.core import Case, Suite
from failproof.suites._pick import PickedSuite

__all__ = ["RunSuites", "survey"]

#: Stands for a suite's cases in its JSON, which is cut there to hash the cases one by one.
_MARK = json.dumps("\x00cases\x00")


@dataclass(frozen=True)
class RunSuites:
    """The run's suites, narrowed to its cases (read again on each `cases`), and their hash."""

    picked: tuple[PickedSuite, ...]
    fingerprint: str
    has_safe: bool

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.picked]

    @property
    def weights(self) -> dict[str, float]:
        return {s.name: s.source.weight for s in self.picked}

    @property
    def count(self) -> int:
        """How many cases the run has (each sent ``repeat`` times)."""
        return sum(s.count for s in self.picked)

    def cases(self) -> Iterator[Case]:
        """Every chosen case, suite by suite, in the files' order."""
        for suite in self.picked:
            yield from suite.cases()


def survey(picked: Sequence[PickedSuite]) -> RunSuites:
    """Read the chosen cases once: the suites' fingerprint and whether SAFE expectations are set."""
    digest = hashlib.sha256(b"[")
    has_safe = False
    for at, suite in enumerate(picked):
        before, after = _suite_json(suite)
        digest.update(((", " if at else "") + before).encode("utf-8"))
        for i, case in enumerate(suite.cases()):
            digest.update(((", " if i else "") + _case_json(case)).encode("utf-8"))
            has_safe = has_safe or case.expectations is not None
        digest.update(after.encode("utf-8"))
    digest.update(b"]")
    return RunSuites(tuple(picked), digest.hexdigest(), has_safe)


def _suite_json(suite: PickedSuite) -> tuple[str, str]:
    """The suite's JSON as `suite_fingerprint` writes it, before and after its cases."""
    source = suite.source
    shell = Suite(name=source.name, description=source.description, weight=source.weight, cases=())
    fields: dict[str, Any] = shell.model_dump(mode="json", exclude={"source"})
    fields["cases"] = ["\x00cases\x00"]
    before, _, after = _dumps(fields).partition(_MARK)
    return before, after


def _case_json(case: Case) -> str:
    return _dumps(case.model_dump(mode="json"))


def _dumps(value: object) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)
