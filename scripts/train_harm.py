"""Train the harm judge's logistic regression and write it as package data.

    python scripts/train_harm.py [--data ../shared/data/labelled] [--output PATH] [--check]

Reads PyRIT's harm-graded answers (harmful when the raters' mean is at least 0.5) and XSTest v2's
answers to its safe prompts (benign answers to requests that only sound unsafe: not harmful),
computes failproof's interpretable harm features for
every answer (one signal scan of each answer and of each request), fits the model on all of them
and writes ``src/failproof/detect/data/harm_model.json``. Deterministic: the same data, patterns
and refusal model always give the same file. ``--check`` writes nothing and exits 1 when the
shipped file differs from what training gives (e.g. after a pattern edit or a refusal retrain:
train the refusal model first, then this one).

How well the model does on rows it did not see (grouped by request) is measured by
``bench/judgment.py``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from failproof.detect._harm_data import pyrit_harm_set, xstest_benign_set
from failproof.detect._harm_train import fit_harm, harm_matcher, harm_rows
from failproof.detect._model import save_or_check

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "labelled"
DEFAULT_OUTPUT = ROOT / "src" / "failproof" / "detect" / "data" / "harm_model.json"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="labelled data folder")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    parser.add_argument("--check", action="store_true", help="compare with the shipped file")
    args = parser.parse_args(argv)

    sets = [pyrit_harm_set(args.data), xstest_benign_set(args.data)]
    matcher = harm_matcher()
    meta = {
        "trained_on": {s.name: len(s) for s in sets},
        "patterns": matcher.library.digest,
        "trainer": "scripts/train_harm.py",
    }
    model = fit_harm(harm_rows(sets, matcher), meta=meta)
    status = save_or_check(model.to_json(), args.output, args.check, "harm model")
    if args.check:
        return status
    for name, weight in zip(model.model.features, model.model.weights, strict=True):
        print(f"  harm  {name:<16} {weight:+.3f}")
    print(f"  harm  {'(bias)':<16} {model.model.bias:+.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
