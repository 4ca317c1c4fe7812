"""How much the failure geometry loses when it is fitted on a sample instead of every case.

Scores every (prompt, answer) pair of the labelled development sets (XSTest v2, PyRIT's refusal
and harm sets) once, each as a case that forbids a refusal, and takes the first N evaluated
results (``--cases``, several sizes). For each size, the geometry is fitted on every case
("exact") and on seeded samples of ``--samples`` cases; every case is then assigned to its
nearest centroid, as a run larger than ``geometry_vocab_sample`` does. Printed per sample size:

- the adjusted Rand index of its clusters against the exact ones (1 = the same partition);
- the noise floor: the exact geometry with another seed against the exact one (a sample that
  agrees with the exact clusters about as well as another seed does loses nothing a user sees);
- the k chosen, and the CPU seconds of the fit and assignment (median of ``--repeat``).

    python bench/geometry_sample.py [--cases 1414,2828] [--samples 500,1000,1414,2000]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from sklearn.metrics import adjusted_rand_score  # type: ignore[import-untyped]

from failproof.config import ProbeSettings, ScoringConfig
from failproof.core import Case, Expect, Response
from failproof.detect import pyrit_set, xstest_set
from failproof.detect._harm_data import pyrit_harm_set
from failproof.metrics._geometry import nearest, normalise
from failproof.metrics._geometry_docs import GeometryCase, geometry_case
from failproof.metrics._geometry_two_pass import Model
from failproof.scoring import build_scorers, score_case

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "labelled"


def labelled_cases(data: Path) -> list[GeometryCase]:
    """Every labelled pair scored once (a refusal forbidden), as the geometry sees it."""
    rows = [(r.prompt or "", r.response) for s in (xstest_set(data), pyrit_set(data)) for r in s]
    rows += [(r.prompt, r.response) for r in pyrit_harm_set(data)]
    scorers = build_scorers(ScoringConfig(), ["failproof", "probe"])
    out = []
    for index, (prompt, answer) in enumerate(rows):
        case = Case(id=f"row-{index}", input=prompt or "(no prompt)", expect=Expect())
        result = score_case(case, Response.from_output(answer, latency_ms=1.0), scorers)
        if (geo := geometry_case(result, ProbeSettings().geometry_text_chars)) is not None:
            out.append(geo)
    return out


def labels(cases: list[GeometryCase], size: int, seed: int) -> tuple[np.ndarray, int, float]:
    """Every case's cluster when fitted on a seeded sample of ``size`` (all when larger), the k
    chosen, and the CPU seconds taken."""
    start = time.process_time()
    rng = np.random.default_rng(seed)
    chosen = np.sort(rng.choice(len(cases), size, replace=False)) if size < len(cases) else None
    sample = cases if chosen is None else [cases[i] for i in chosen]
    model = Model(sample, ProbeSettings(seed=seed))
    tfidf = model.vectorizer.transform(c.document for c in cases)
    assigned = nearest(normalise(model.embed(tfidf)), model.centers)
    return assigned, len(model.centers), time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--cases", default="1414,2828")
    parser.add_argument("--samples", default="500,1000,1414,2000")
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args()
    every = labelled_cases(args.data)
    print(f"{len(every):,} evaluated labelled cases", file=sys.stderr)
    for n in (int(v) for v in args.cases.split(",")):
        compare(every[:n], [int(v) for v in args.samples.split(",")], args.seeds)


def compare(cases: list[GeometryCase], sizes: list[int], seeds: int) -> None:
    """Print the exact geometry's noise floor, then each sample size's agreement with it."""
    exact, k, cpu = labels(cases, len(cases), 0)
    others = [labels(cases, len(cases), s)[0] for s in range(1, seeds)]
    floor = statistics.median(adjusted_rand_score(exact, other) for other in others)
    print(f"{len(cases):,} cases: exact k={k}, {cpu:.3f} CPU-s; another seed: ARI {floor:.3f}")
    for size in sizes:
        if size >= len(cases):
            continue
        runs = [labels(cases, size, s) for s in range(seeds)]
        ari = statistics.median(adjusted_rand_score(exact, r[0]) for r in runs)
        ks = sorted({r[1] for r in runs})
        cpu = statistics.median(r[2] for r in runs)
        print(f"  sample {size:,}: ARI {ari:.3f}, k {ks}, {cpu:.3f} CPU-s")


if __name__ == "__main__":
    main()
