"""Train the refusal judge's two logistic regressions and write them as package data.

    python scripts/train_refusal.py [--data ../shared/data/labelled] [--output PATH] [--check]

Reads the human-labelled XSTest v2 completions and PyRIT's refusal set, computes failproof's
interpretable features for every response (one signal scan each), fits the model on all of them
and writes ``src/failproof/detect/data/refusal_model.json`` (a few kilobytes of weights).
Deterministic: the same data and patterns always give the same file. ``--check`` writes nothing
and exits 1 when the shipped file differs from what training gives (e.g. after a pattern edit).

How well the model does on rows it did not see is measured by ``bench/judgment.py``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from failproof.detect import pyrit_set, xstest_set
from failproof.detect._model import save_or_check
from failproof.detect._train import fit_model, refusal_matcher, training_rows

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "labelled"
DEFAULT_OUTPUT = ROOT / "src" / "failproof" / "detect" / "data" / "refusal_model.json"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="labelled data folder")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    parser.add_argument("--check", action="store_true", help="compare with the shipped file")
    args = parser.parse_args(argv)

    sets = [xstest_set(args.data), pyrit_set(args.data, "refusal")]
    matcher = refusal_matcher()
    meta = {
        "trained_on": {s.name: len(s) for s in sets},
        "patterns": matcher.library.digest,
        "trainer": "scripts/train_refusal.py",
    }
    model = fit_model(training_rows(sets, matcher), meta=meta)
    status = save_or_check(model.to_json(), args.output, args.check, "refusal model")
    if args.check:
        return status
    for name, weight in zip(model.refusal.features, model.refusal.weights, strict=True):
        print(f"  refusal  {name:<18} {weight:+.3f}")
    print(f"  refusal  {'(bias)':<18} {model.refusal.bias:+.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
