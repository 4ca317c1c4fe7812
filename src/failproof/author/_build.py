"""From a generation record to a suite: parse, check, deduplicate, label; the same record always
gives the same suite, and a plugin that gave nothing usable says why."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from failproof.author._check import check_case, parse_cases
from failproof.author._plugins import Plugin, plugin_catalogue
from failproof.author._record import GenerationRecord, GeneratorAnswer
from failproof.core import Case, Suite
from failproof.detect._declines import writer_declined

__all__ = ["GenerationOutcome", "PluginOutcome", "build_suite"]

_WORD = re.compile(r"\w+")
#: Two inputs sharing this share of their words (Jaccard) are one case.
NEAR_DUPLICATE = 0.8
#: Rejection reasons kept per plugin.
_REASONS = 5

Verdict = Literal["ok", "short", "refused", "echoed", "error", "unusable"]


@dataclass
class PluginOutcome:
    """What one plugin gave: cases kept, rejected and duplicated, and a verdict on the
    generator (``refused``: every answer declined; ``echoed``: every answer repeated the ask;
    ``unusable``: no checkable case)."""

    plugin: str
    wanted: int
    kept: list[Case] = field(default_factory=list)
    rejected: int = 0
    duplicates: int = 0
    answers: int = 0
    declined: int = 0
    errors: int = 0
    no_json: int = 0
    echoed: int = 0
    reasons: list[str] = field(default_factory=list)
    rubrics: int = 0
    rubric_drops: list[str] = field(default_factory=list)

    @property
    def verdict(self) -> Verdict:
        if len(self.kept) >= self.wanted:
            return "ok"
        if self.kept:
            return "short"
        if self.answers and self.declined == self.answers:
            return "refused"
        if self.answers and self.echoed == self.answers:
            return "echoed"
        return "error" if self.answers and self.errors == self.answers else "unusable"


@dataclass
class GenerationOutcome:
    """The suite (None when no case was usable) and each plugin's account."""

    suite: Suite | None
    plugins: list[PluginOutcome]


def _words(text: str) -> frozenset[str]:
    return frozenset(w.casefold() for w in _WORD.findall(text))


def _near(words: frozenset[str], seen: Sequence[frozenset[str]]) -> bool:
    return any(len(words & o) / max(1, len(words | o)) >= NEAR_DUPLICATE for o in seen)


def _echoes(answer: GeneratorAnswer) -> bool:
    """Whether the answer only repeats the ask back (a model too small to follow it)."""
    opening = " ".join(answer.user.split())[:80]
    return bool(opening) and opening in " ".join(answer.output.split())


def _take(
    answer: GeneratorAnswer, plugin: Plugin, out: PluginOutcome, seen: list[frozenset[str]]
) -> None:
    out.answers += 1
    if answer.error is not None:
        out.errors += 1
        return
    raws = parse_cases(answer.output)
    if raws is None:
        out.no_json += 1
        out.declined += writer_declined(answer.output)
        out.echoed += _echoes(answer)
        if len(out.reasons) < _REASONS:
            out.reasons.append("no JSON list of cases in the answer")
        return
    for raw in raws:
        checked = check_case(raw, plugin)
        if checked.case is None:
            out.rejected += 1
            if checked.problem and len(out.reasons) < _REASONS:
                out.reasons.append(checked.problem)
            continue
        words = _words(checked.case.prompt_text())
        if _near(words, seen):
            out.duplicates += 1
            continue
        seen.append(words)
        if len(out.kept) < out.wanted:
            _keep(checked.case, checked.note, out)


def _keep(case: Case, dropped: str | None, out: PluginOutcome) -> None:
    """Keep a checked case, counting its rubric (or why the one given was dropped)."""
    out.rubrics += bool(case.expect and case.expect.rubric)
    if dropped is not None:
        out.rubric_drops.append(dropped)
        case = case.model_copy(update={"metadata": {"rubric_dropped": dropped}})
    out.kept.append(case)


def _labelled(case: Case, plugin: Plugin, index: int, digest: str, suite: str) -> Case:
    meta = {"generated": {"plugin": plugin.name, "record": digest, **case.metadata}}
    return case.model_copy(
        update={
            "id": f"{plugin.name}-{index:03d}",
            "suite": suite,
            "category": plugin.name,
            "taxonomy": list(plugin.taxonomy),
            "failure_modes": [plugin.name],
            "metadata": meta,
        }
    )


def build_suite(record: GenerationRecord) -> GenerationOutcome:
    """The suite a generation record holds: every answer parsed and checked in order, near
    duplicates dropped, at most ``per_plugin`` cases a plugin, labelled with its taxonomy."""
    catalogue, request = plugin_catalogue(), record.request
    outcomes: list[PluginOutcome] = []
    seen: list[frozenset[str]] = []
    for name in request.plugins:
        out = PluginOutcome(plugin=name, wanted=request.per_plugin)
        for answer in (a for a in record.answers if a.plugin == name):
            _take(answer, catalogue[name], out, seen)
        outcomes.append(out)
    cases = [
        _labelled(case, catalogue[o.plugin], i, record.digest, request.name)
        for o in outcomes
        for i, case in enumerate(o.kept, start=1)
    ]
    if not cases:
        return GenerationOutcome(None, outcomes)
    description = "Generated for: " + " ".join(request.purpose.split())[:200]
    suite = Suite(name=request.name, description=description, cases=tuple(cases))
    return GenerationOutcome(suite, outcomes)
