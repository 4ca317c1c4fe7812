"""Harm judgment against graded human labels: the harm judge, the required-refusal verdict, peers.

Imported by ``bench/judgment.py`` (which prints these tables after the refusal ones); not run on
its own. A row group is a function of the `HarmBench` data that returns, per row name, one harm
probability for every graded answer and every benign answer; a new judge (e.g. an LLM judge) is
measured by adding its function to `HARM_GROUPS`.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from failproof.detect import HarmLabel, HarmVerdict, PeerDetector, judge_refusal, required_refusal
from failproof.detect._harm import settle_with_ask
from failproof.detect._harm_data import HARM_CUT, HarmLabelled, HarmSet
from failproof.detect._harm_model import default_harm_model
from failproof.detect._harm_train import (
    HarmRow,
    cross_validate_harm,
    harm_rows,
    predict_harm,
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
    unsafe: HarmSet
    unsafe_rows: list[HarmRow]

    @classmethod
    def build(
        cls,
        graded: HarmSet,
        benign: HarmSet,
        scans: dict[str, SignalScan],
        peers: Sequence[PeerDetector],
        folds: int,
        unsafe: HarmSet,
    ) -> HarmBench:
        rows = harm_rows([graded, benign], default_matcher(), scans)
        unsafe_rows = harm_rows([unsafe], default_matcher(), scans)
        return cls(graded, benign, rows, scans, peers, folds, unsafe, unsafe_rows)

    @functools.cached_property
    def cv(self) -> list[float]:
        """Out-of-fold harm probabilities of the graded and benign rows (with the request)."""
        return cross_validate_harm(self.rows, self.folds, use_prompt=True)

    def split(self, values: list[float]) -> tuple[list[float], list[float]]:
        n = len(self.graded)
        return values[:n], values[n:]


def _verdict(score: float) -> HarmVerdict:
    """The verdict the shipped cuts give a (cross-validated) harm probability."""
    model = default_harm_model()
    label: HarmLabel = "not_harmful"
    if score >= model.borderline:
        label = "harmful" if score >= model.harmful else "borderline"
    return HarmVerdict(label, score, clear=score < model.clear)


def _outcomes(
    bench: HarmBench, rows: Sequence[HarmRow], harm: list[float], three_way: bool
) -> list[float]:
    """1.0 where a ``refusal: required`` case fails, by the classifier's rules
    (`required_refusal`), from the shipped refusal judge and the given harm probabilities;
    ``three_way=False`` fails every answer that is not a refusal that holds."""
    out = []
    for row, score in zip(rows, harm, strict=True):
        r = row.row
        verdict = judge_refusal(r.response, bench.scans[r.response], prompt=r.prompt)
        verdict = settle_with_ask(verdict, r.prompt, bench.scans.get(r.prompt))
        outcome = required_refusal(verdict, _verdict(score))
        out.append(0.0 if outcome == "refuses" or (three_way and outcome == "harmless") else 1.0)
    return out


def _required_refusal(bench: HarmBench, harm: list[float]) -> list[float]:
    return _outcomes(bench, bench.rows, harm, three_way=True)


def failproof_harm(bench: HarmBench) -> Scores:
    """The harm judge, cross-validated by request, with and without the request; and the
    verdict a ``refusal: required`` case gets from the classifier."""
    cv = bench.cv
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


def _compliance_cells(rows: Sequence[HarmLabelled], fails: Sequence[float]) -> list[str]:
    """Accuracy / precision / recall of "fails" against harm >= the cut and against harm > 0,
    how many harmful answers pass (false passes) and how many answers below the cut fail
    (false alarms)."""
    cells = []
    for cut in (HARM_CUT, 1e-9):
        truth = [
            HarmLabelled(r.response, r.prompt, float(r.harm >= cut), None, r.group, "")
            for r in rows
        ]
        cells += [_fmt(v) for v in _Counts.of(truth, fails).cells()[:3]]
    passing = sum(r.harmful and f < HARM_CUT for r, f in zip(rows, fails, strict=True))
    alarms = sum(not r.harmful and f >= HARM_CUT for r, f in zip(rows, fails, strict=True))
    return [*cells, str(passing), str(alarms)]


def _unsafe_sets(bench: HarmBench) -> list[tuple[str, list[HarmRow], list[float]]]:
    """Each dev set with failproof's harm probabilities on rows the model was not fitted on:
    PyRIT's graded answers out of fold; XSTest's unsafe-prompt answers are not training data."""
    graded = bench.rows[: len(bench.graded)]
    cv = bench.cv[: len(bench.graded)]
    multi = [i for i, r in enumerate(graded) if r.row.source.endswith("_multi_score")]
    on_unsafe = predict_harm(default_harm_model(), bench.unsafe_rows, use_prompt=True)
    return [
        (f"{bench.graded.name} (n={len(graded)})", graded, cv),
        (
            f"{bench.graded.name}, three raters (n={len(multi)})",
            [graded[i] for i in multi],
            [cv[i] for i in multi],
        ),
        (
            f"{bench.unsafe.name}, compliance = harm 1 (n={len(bench.unsafe_rows)}; refusal judge"
            " in-sample)",
            bench.unsafe_rows,
            on_unsafe,
        ),
    ]


def unsafe_compliance_table(bench: HarmBench) -> str:
    """ "Fails under ``refusal: required``" against people's harm labels, per dev set: the
    two-way decision (anything but a refusal fails), the three-way one (a harmless
    non-refusal does not fail), and the peers ("no refusal found" fails)."""
    lines = [
        "**Unsafe compliance: a `refusal: required` case fails, against people's harm labels**",
        "",
        "| dev set | detector | acc (harm ≥ 0.5) | P | R | acc (harm > 0) | P | R |"
        " harmful answers passing | harmless answers failing |",
        "| --- | --- |" + " ---: |" * 8,
    ]
    for name, rows, harm in _unsafe_sets(bench):
        labelled = [r.row for r in rows]
        detectors = {
            "failproof two-way (declines, or fails)": _outcomes(bench, rows, harm, False),
            "failproof three-way (harmless non-refusal passes)": _outcomes(bench, rows, harm, True),
        }
        for peer in bench.peers:
            detectors[peer.name] = [0.0 if peer.refuses(r.response) else 1.0 for r in labelled]
        for detector, fails in detectors.items():
            cells = _compliance_cells(labelled, fails)
            lines.append("| " + " | ".join([name, detector, *cells]) + " |")
    return "\n".join(lines)


def harm_tables(bench: HarmBench) -> str:
    """Every harm row group's scores, overall and by category, and the unsafe-compliance
    table, as Markdown tables."""
    scores: Scores = {}
    for group in HARM_GROUPS:
        scores.update(group(bench))
    tables = [_overall(bench, scores), _by_category(bench, scores), unsafe_compliance_table(bench)]
    return "\n\n".join(tables)
