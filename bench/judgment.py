"""Refusal and harm judgment against human labels: failproof and six published string matchers.

    python bench/judgment.py [--data ../shared/data/labelled] [--peers FILE] [--folds 10]

For each data set (XSTest v2, both models and each model; PyRIT's refusal set and its mini set)
it prints accuracy, precision, recall and F1 of the refusal class (full or partial refusal), the
three-way macro-F1 where the labels have a partial class, and the over-refusal rate on XSTest's
safe prompts next to the humans' rate.

failproof's learned weights are only ever scored on rows they were not fitted on:

- ``CV``: grouped k-fold by prompt (both models' answers to one prompt share a fold), with the
  prompt given to the judge, and again without it;
- ``other set``: trained on the other data set only (XSTest -> PyRIT and PyRIT -> XSTest);
- the mini set is judged by a model fitted without any row of its objectives.

The ``shipped`` row is the packaged model, which was trained on all of XSTest and PyRIT's
refusal set: it is in-sample there and shown for reference only. Peers are rebuilt from the
peer-lists file with each list's own matching rule (substring / prefix / word-bounded,
case sensitivity, stripping), as the file describes it. ``pooled`` is XSTest and PyRIT's refusal
set together (PyRIT's off-topic convention on its rows).

Then harm (``judgment_harm.py``): PyRIT's harm-graded answers (harmful when the raters' mean is at
least 0.5) and XSTest's answers to its safe prompts (benign: the share flagged is the false-alarm
rate), for the harm judge cross-validated by request, the verdict a ``refusal: required`` case
gets, and each peer read as "no refusal found = unsafe". Row groups are functions listed in
``REFUSAL_GROUPS`` and ``judgment_harm.HARM_GROUPS``: another judge is measured by adding one.
How fast the judges are: ``judge_speed.py`` and ``classify.py``.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from _judge_rows import judge_rows
from judgment_harm import HarmBench, harm_tables

from failproof.detect import (
    CalibrationReport,
    DetectorScores,
    LabelledSet,
    PeerDetector,
    RefusalLabel,
    SemanticHelp,
    format_table,
    judge_refusal,
    load_peers,
    peer_labels,
    pyrit_set,
    score_predictions,
    xstest_set,
)
from failproof.detect._harm_data import pyrit_harm_set, xstest_benign_set, xstest_unsafe_set
from failproof.detect._train import (
    TrainingRow,
    cross_validate,
    fit_model,
    predict_rows,
    training_rows,
)
from failproof.errors import MissingExtraError
from failproof.safe._semantic import MiniLmEmbedder
from failproof.signals import SignalScan, default_matcher

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "labelled"

Labels = list[RefusalLabel]


def _scan_all(sets: Sequence[LabelledSet]) -> tuple[dict[str, SignalScan], float]:
    matcher = default_matcher()
    texts = {row.response for data in sets for row in data}
    start = time.perf_counter()
    scans = {text: matcher.scan(text) for text in texts}
    return scans, time.perf_counter() - start


def _failproof_rows(
    sets: dict[str, LabelledSet], scans: dict[str, SignalScan], folds: int
) -> dict[str, dict[str, Labels]]:
    """Per set name: detector row name -> labels, in row order."""
    xs, py, mini = sets["xstest"], sets["pyrit"], sets["mini"]
    rows = training_rows([xs, py], default_matcher(), scans)
    n_xs = len(xs)
    cv = cross_validate(rows, folds, use_prompt=True)
    cv_bare = cross_validate(rows, folds, use_prompt=False)
    on_py = predict_rows(fit_model(rows[:n_xs]), rows[n_xs:], use_prompt=True)
    on_xs = predict_rows(fit_model(rows[n_xs:]), rows[:n_xs], use_prompt=True)
    held = _held_out_mini(rows, mini, scans)
    shipped = {
        name: [judge_refusal(r.response, scans[r.response], prompt=r.prompt).label for r in data]
        for name, data in sets.items()
    }
    k = f"CV {folds}-fold by prompt"
    return {
        "pooled": {f"failproof · {k}": cv},
        "xstest": {
            f"failproof · {k}": cv[:n_xs],
            f"failproof · {k}, no prompt": cv_bare[:n_xs],
            "failproof · trained on PyRIT only": on_xs,
            "failproof · shipped (in-sample)": shipped["xstest"],
        },
        "pyrit": {
            f"failproof · {k}": cv[n_xs:],
            f"failproof · {k}, no prompt": cv_bare[n_xs:],
            "failproof · trained on XSTest only": on_py,
            "failproof · shipped (in-sample)": shipped["pyrit"],
        },
        "mini": {
            "failproof · held out by objective": held[0],
            "failproof · held out by objective, no prompt": held[1],
            "failproof · shipped (mostly in-sample)": shipped["mini"],
        },
    }


def _held_out_mini(
    rows: list[TrainingRow], mini: LabelledSet, scans: dict[str, SignalScan]
) -> tuple[Labels, Labels]:
    objectives = {r.prompt for r in mini}
    model = fit_model([r for r in rows if r.row.prompt not in objectives])
    mini_rows = training_rows([mini], default_matcher(), scans)
    return predict_rows(model, mini_rows, True), predict_rows(model, mini_rows, False)


def semantic_help() -> SemanticHelp | None:
    """The semantic help with all-MiniLM-L6-v2, or None when the extra is not installed."""
    embedder = MiniLmEmbedder()
    try:
        embedder.encode(["warm up"])
    except MissingExtraError:
        return None
    return SemanticHelp(embedder)


def _semantic_rows(
    sets: dict[str, LabelledSet], scans: dict[str, SignalScan], folds: int
) -> dict[str, dict[str, Labels]]:
    """Rules + semantic (topic check and refusal member), cross-validated the same way."""
    helper = semantic_help()
    if helper is None:
        print("rules + semantic: skipped (pip install 'failproof[semantic]' to measure it)\n")
        return {}
    xs, py = sets["xstest"], sets["pyrit"]
    rows = training_rows([xs, py], default_matcher(), scans, semantic=helper)
    cv = cross_validate(rows, folds, use_prompt=True, semantic=helper)
    name = f"failproof + semantic · CV {folds}-fold by prompt"
    n_xs = len(xs)
    return {"pooled": {name: cv}, "xstest": {name: cv[:n_xs]}, "pyrit": {name: cv[n_xs:]}}


#: Functions giving, per data set, detector row name -> labels; a new judge adds one.
REFUSAL_GROUPS: list[
    Callable[[dict[str, LabelledSet], dict[str, SignalScan], int], dict[str, dict[str, Labels]]]
] = [_failproof_rows, _semantic_rows]


def _refusal_rows(
    sets: dict[str, LabelledSet], scans: dict[str, SignalScan], folds: int
) -> dict[str, dict[str, Labels]]:
    out: dict[str, dict[str, Labels]] = {}
    for group in REFUSAL_GROUPS:
        for name, rows in group(sets, scans, folds).items():
            out.setdefault(name, {}).update(rows)
    return out


def _report(
    title: str, data: LabelledSet, ours: dict[str, Labels], peers: Sequence[PeerDetector]
) -> CalibrationReport:
    lines = [DetectorScores(name, score_predictions(data, labels)) for name, labels in ours.items()]
    for peer in peers:
        lines.append(DetectorScores(peer.name, score_predictions(data, peer_labels(data, peer))))
    return CalibrationReport(title, tuple(lines))


def _by_source(data: LabelledSet, labels: dict[str, Labels], source: str) -> dict[str, Labels]:
    keep = [i for i, row in enumerate(data) if row.source == source]
    return {name: [values[i] for i in keep] for name, values in labels.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="labelled data folder")
    parser.add_argument("--peers", type=Path, default=None, help="peer lists JSON")
    parser.add_argument("--folds", type=int, default=10)
    args = parser.parse_args(argv)

    sets = {
        "xstest": xstest_set(args.data),
        "pyrit": pyrit_set(args.data, "refusal"),
        "mini": pyrit_set(args.data, "mini_refusal"),
    }
    peers = load_peers(args.peers or args.data / "peer_refusal_lists.json")
    scans, seconds = _scan_all(list(sets.values()))
    ours = _refusal_rows(sets, scans, args.folds)
    xs = sets["xstest"]
    pooled = LabelledSet("pooled", (*xs.rows, *sets["pyrit"].rows), three_way=False)
    title = f"Refusal, pooled: XSTest v2 and PyRIT refusal set (n={len(pooled)})"
    reports = [_report(title, pooled, ours["pooled"], peers)]
    reports.append(_report(f"XSTest v2, both models (n={len(xs)})", xs, ours["xstest"], peers))
    for model in ("GPT-4", "Llama-2"):
        part = xs.subset(f"XSTest v2, {model}", model)
        reports.append(_report(part.name, part, _by_source(xs, ours["xstest"], model), peers))
    reports.append(_report("PyRIT refusal set", sets["pyrit"], ours["pyrit"], peers))
    reports.append(_report("PyRIT mini refusal set", sets["mini"], ours["mini"], peers))
    print(f"{len(scans)} distinct responses, one signal scan each: {seconds * 1000:.0f} ms\n")
    print("\n\n".join(format_table(r) for r in reports))
    harm = HarmBench.build(
        pyrit_harm_set(args.data),
        xstest_benign_set(args.data),
        scans,
        peers,
        args.folds,
        xstest_unsafe_set(args.data),
    )
    print("\n\n" + harm_tables(harm))
    judge_rows(list(sets.values()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
