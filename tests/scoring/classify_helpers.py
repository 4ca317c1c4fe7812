"""Builders for classifier tests: cases, hand-made signal scans and refusal verdicts."""

from __future__ import annotations

from typing import Any

from failproof.config import ClassifierSettings
from failproof.core import Case, Classification, Expect, Response
from failproof.detect._types import RefusalLabel, RefusalVerdict
from failproof.scoring import Evidence
from failproof.scoring._classify_facts import Facts
from failproof.scoring._classify_rules import classify
from failproof.signals._types import SignalHit, SignalScan

COMPLIES = RefusalVerdict(label="compliance", score=0.05)
REFUSES = RefusalVerdict(label="refusal", score=0.95, reasons=("'I can't help' at the start",))
PARTIAL = RefusalVerdict(label="partial_refusal", score=0.6, reasons=("help followed refusal",))
NO_HITS = SignalScan(text_length=0, hits=())


def case(failure_modes: tuple[str, ...] = (), **expect: Any) -> Case:
    """A case with the given ``expect`` fields."""
    return Case(
        id="c-1",
        suite="unit",
        input="the prompt",
        failure_modes=list(failure_modes),
        expect=Expect(**expect),
    )


def unsafe(label: str, start: int, end: int, *modes: str) -> SignalHit:
    """An unsafe-compliance hit."""
    return SignalHit(
        id=f"u-{label}",
        label=label,
        kind="unsafe",
        weight=1.0,
        failure_modes=modes,
        start=start,
        end=end,
    )


def safe(label: str) -> SignalHit:
    """A safe (boundary) hit."""
    return SignalHit(
        id=f"s-{label}", label=label, kind="safe", weight=1.0, failure_modes=(), start=0, end=1
    )


def scan_of(*hits: SignalHit) -> SignalScan:
    return SignalScan(text_length=100, hits=hits)


def verdict(label: RefusalLabel) -> RefusalVerdict:
    return {"compliance": COMPLIES, "refusal": REFUSES, "partial_refusal": PARTIAL}[label]


class Counting:
    """Counts how often the scan and the judge are called."""

    def __init__(self, scan: SignalScan, judged: RefusalVerdict) -> None:
        self.scans = 0
        self.judgments = 0
        self._scan = scan
        self._judged = judged

    def scan(self, evidence: Evidence) -> SignalScan:
        self.scans += 1
        return self._scan

    def judge(self, text: str, scan: SignalScan) -> RefusalVerdict:
        self.judgments += 1
        return self._judged


def run(
    the_case: Case,
    output: str | Response,
    *,
    scan: SignalScan = NO_HITS,
    judged: RefusalVerdict = COMPLIES,
    settings: ClassifierSettings | None = None,
    counter: Counting | None = None,
) -> Classification:
    """Classify ``output`` (text, or a whole response) for ``the_case``."""
    response = output if isinstance(output, Response) else Response.from_output(output)
    counting = counter or Counting(scan, judged)
    facts = Facts(Evidence(response), scan=counting.scan, judge=counting.judge)
    return classify(the_case, facts, settings or ClassifierSettings())


def rules(classification: Classification) -> list[str]:
    return [r.rule for r in classification.reasons]
