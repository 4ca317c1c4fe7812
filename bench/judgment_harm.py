"""Harm judgment against graded human labels: the harm judge, the required-refusal verdict, peers.

Imported by ``bench/judgment.py`` (which prints these tables after the refusal ones); not run on
its own. A row group is a function of the `HarmBench` data that returns, per row name, one harm
probability for every graded answer and every benign answer; a new judge (e.g. an LLM judge) is
measured by adding its function to `HARM_GROUPS`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from failproof.judgment import PeerDetector, judge_refusal
from failproof.judgment._harm_data import HARM_CUT, HarmLabelled, HarmSet
from failproof.judgment._harm_model import default_harm_model
from failproof.judgment._harm_train import (
    HarmRow,
    cross_validate_harm,
    harm_rows,
)
from failproof.signals import SignalScan, default_matcher

__all__ = ["HARM_GROUPS", "HarmBench", "harm_tables"]

#: Per row name: (harm probability of each graded answer, of each benign answer).
Scores = dict[str, tuple[list[float], list[float]]]


@dataclass(frozen=True)
class HarmBench:
    """The graded set, the benign set, their features (one scan each), and the peers."""

    graded: HarmSet
    benign: HarmSet
    rows: list[HarmRow]
    scans: dict[str, SignalScan]
    peers: Sequence[PeerDetector]
    folds: int

    @classmethod
    def build(
        cls,
        graded: HarmSet,
        benign: HarmSet,
        scans: dict[str, SignalScan],
        peers: Sequence[PeerDetector],
        folds: int,
    ) -> HarmBench:
        rows = harm_rows([graded, benign], default_matcher(), scans)
        return cls(graded, benign, rows, scans, peers, folds)

    def split(self, values: list[float]) -> tuple[list[float], list[float]]:
        n = len(self.graded)
        return values[:n], values[n:]


def _required_refusal(bench: HarmBench, harm: list[float]) -> list[float]:
    """1.0 where a ``refusal: required`` case fails (no refusal that holds, or a harmful
    answer), from the shipped refusal judge and out-of-fold harm probabilities, by the
    classifier's rules."""
    model = default_harm_model()
    out = []
    for row, score in zip(bench.rows, harm, strict=True):
        r = row.row
        verdict = judge_refusal(r.response, bench.scans[r.response], prompt=r.prompt)
        carries = score >= model.borderline  # harmful or borderline content
        holds = verdict.declines and not (carries and (verdict.off_topic_only or not verdict.firm))
        out.append(0.0 if holds and score < model.harmful else 1.0)
    return out


def failproof_harm(bench: HarmBench) -> Scores:
    """The harm judge, cross-validated by request, with and without the request; and the
    verdict a ``refusal: required`` case gets from the classifier."""
    cv = cross_validate_harm(bench.rows, bench.folds, use_prompt=True)
    bare = cross_validate_harm(bench.rows, bench.folds, use_prompt=False)
    cut = default_harm_model().harmful
    k = f"CV {bench.folds}-fold by request"
    required, _ = bench.split(_required_refusal(bench, cv))
    return {
        f"failproof harm · {k}": bench.split(cv),
        f"failproof harm · {k}, no request": bench.split(bare),
        f"failproof harm · {k}, label harmful (p >= {cut})": bench.split(
            [1.0 if s >= cut else 0.0 for s in cv]
        ),
        "failproof `refusal: required` fails · CV (benign n/a)": (required, []),
    }


def peer_harm(bench: HarmBench) -> Scores:
    """A string matcher calls an answer harmful when it finds no refusal in it."""
    rows = [r.row for r in bench.rows]
    return {
        f"{peer.name} (no refusal = unsafe)": bench.split(
            [0.0 if peer.refuses(r.response) else 1.0 for r in rows]
        )
        for peer in bench.peers
    }


HARM_GROUPS: list[Callable[[HarmBench], Scores]] = [failproof_harm, peer_harm]


@dataclass(frozen=True)
class _Counts:
    tp: int
    fp: int
    fn: int
    tn: int

    @classmethod
    def of(cls, rows: Sequence[HarmLabelled], scores: Sequence[float]) -> _Counts:
        pairs = [(r.harmful, s >= HARM_CUT) for r, s in zip(rows, scores, strict=True)]
        return cls(
            sum(t and p for t, p in pairs),
            sum(p and not t for t, p in pairs),
            sum(t and not p for t, p in pairs),
            sum(not t and not p for t, p in pairs),
        )

    def cells(self) -> list[float]:
        n = self.tp + self.fp + self.fn + self.tn
        precision = self.tp / (self.tp + self.fp) if self.tp + self.fp else math.nan
        recall = self.tp / (self.tp + self.fn) if self.tp + self.fn else math.nan
        f1 = 2 * self.tp / (2 * self.tp + self.fp + self.fn) if self.tp else 0.0
        return [(self.tp + self.tn) / n if n else math.nan, precision, recall, f1]


def _fmt(value: float) -> str:
    return "–" if math.isnan(value) else f"{value:.3f}"


def _overall(bench: HarmBench, scores: Scores) -> str:
    graded, benign = list(bench.graded), list(bench.benign)
    harmful = sum(r.harmful for r in graded)
    lines = [
        f"**Harm: {bench.graded.name} (n={len(graded)}, {harmful} harmful at the {HARM_CUT} cut);"
        f" benign: {bench.benign.name} (n={len(benign)})**",
        "",
        "| detector | accuracy | precision | recall | F1 | benign answers flagged |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, (on_graded, on_benign) in scores.items():
        cells = _Counts.of(graded, on_graded).cells()
        flagged = sum(s >= HARM_CUT for s in on_benign) / len(on_benign) if on_benign else math.nan
        lines.append("| " + " | ".join([name, *map(_fmt, cells), _fmt(flagged)]) + " |")
    return "\n".join(lines)


def _by_category(bench: HarmBench, scores: Scores) -> str:
    graded = list(bench.graded)
    categories = sorted({r.category for r in graded if r.category})
    header = " | ".join(f"{c} P / R" for c in categories)
    lines = [
        f"**Harm by category, {bench.graded.name} (precision / recall at the {HARM_CUT} cut)**",
        "",
        f"| detector | {header} |",
        "| --- |" + " ---: |" * len(categories),
    ]
    for name, (on_graded, _) in scores.items():
        cells = []
        for category in categories:
            keep = [i for i, r in enumerate(graded) if r.category == category]
            counts = _Counts.of([graded[i] for i in keep], [on_graded[i] for i in keep])
            _, precision, recall, _ = counts.cells()
            cells.append(f"{_fmt(precision)} / {_fmt(recall)}")
        lines.append("| " + " | ".join([name, *cells]) + " |")
    return "\n".join(lines)


def harm_tables(bench: HarmBench) -> str:
    """Every harm row group's scores, overall and by category, as Markdown tables."""
    scores: Scores = {}
    for group in HARM_GROUPS:
        scores.update(group(bench))
    return _overall(bench, scores) + "\n\n" + _by_category(bench, scores)
