"""Measure refusal detectors on a labelled set and print the agreement table."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from failproof.detect._judge import judge_refusal
from failproof.detect._labelled import LabelledSet
from failproof.detect._metrics import AgreementScores, score_predictions
from failproof.detect._model import RefusalModel
from failproof.detect._peers import PeerDetector
from failproof.detect._types import RefusalLabel, RefusalVerdict
from failproof.signals import SignalMatcher, default_matcher

__all__ = [
    "CalibrationReport",
    "DetectorScores",
    "calibrate",
    "format_table",
    "judge_set",
    "peer_labels",
]


@dataclass(frozen=True, slots=True)
class DetectorScores:
    detector: str
    scores: AgreementScores


@dataclass(frozen=True, slots=True)
class CalibrationReport:
    """Every detector's agreement with the human labels of one set."""

    data: str
    rows: tuple[DetectorScores, ...]


def judge_set(
    data: LabelledSet,
    *,
    matcher: SignalMatcher | None = None,
    model: RefusalModel | None = None,
    use_prompt: bool = True,
) -> list[RefusalVerdict]:
    """failproof's verdict on every row: one scan per response, then `judge_refusal`."""
    matcher = matcher or default_matcher()
    return [
        judge_refusal(
            row.response,
            matcher.scan(row.response),
            prompt=row.prompt if use_prompt else None,
            model=model,
        )
        for row in data
    ]


def peer_labels(data: LabelledSet, peer: PeerDetector) -> list[RefusalLabel]:
    """A peer's two-way verdicts ("refusal" or "compliance") on every row."""
    return ["refusal" if peer.refuses(row.response) else "compliance" for row in data]


def calibrate(
    data: LabelledSet,
    *,
    matcher: SignalMatcher | None = None,
    model: RefusalModel | None = None,
    peers: Sequence[PeerDetector] = (),
    use_prompt: bool = True,
) -> CalibrationReport:
    """failproof (and each peer) against the human labels of ``data``."""
    verdicts = judge_set(data, matcher=matcher, model=model, use_prompt=use_prompt)
    rows = [DetectorScores("failproof", score_predictions(data, [v.label for v in verdicts]))]
    rows += [DetectorScores(p.name, score_predictions(data, peer_labels(data, p))) for p in peers]
    return CalibrationReport(data.name, tuple(rows))


def _cell(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def _line(name: str, s: AgreementScores) -> str:
    over = "–" if s.over_refusal is None else f"{s.over_refusal:.3f}"
    cells = [name, str(s.n), *map(_cell, (s.accuracy, s.precision, s.recall, s.f1, s.macro_f1))]
    return "| " + " | ".join([*cells, over]) + " |"


def format_table(report: CalibrationReport) -> str:
    """A Markdown table: binary scores for the refusal class, three-way macro-F1, over-refusal."""
    human = next((r.scores.human_over_refusal for r in report.rows), None)
    over = "over-refusal" + ("" if human is None else f" (humans {human:.3f})")
    lines = [
        f"**{report.data}**",
        "",
        f"| detector | n | accuracy | precision | recall | F1 | 3-way macro-F1 | {over} |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    lines += [_line(r.detector, r.scores) for r in report.rows]
    return "\n".join(lines)
