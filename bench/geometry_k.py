"""Benchmark: the failure geometry's choice of k, numpy (today) against scikit-learn (before).

On the same embedding of realistic runs, both choose k in 2..max_k by the best silhouette on
the same seeded sample and then label every case: failproof's numpy KMeans (k-means++, 4 starts,
Lloyd) and silhouette, against scikit-learn's ``KMeans(n_init=4)`` and ``silhouette_score`` (how
the geometry chose k before; scikit-learn is imported before the clock starts). Prints per run:
the k each picks, the silhouette of each final labelling (both measured by scikit-learn), the
agreement of the two labellings (normalised mutual information, 1 = the same partition), each
one's NMI with the case category, and the CPU milliseconds of each choice (one BLAS thread, as
the geometry runs).

Runs: the 400 recorded answers of ``bench/score_small.py`` (built-in suites, scored for real)
and the synthetic results of ``bench/geometry.py`` at a few sizes.

    python bench/geometry_k.py [--sizes 400,1000,2000] [--seed 0]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from geometry import synthetic_results
from numpy.typing import NDArray
from score_small import write_run

from failproof.config import Settings
from failproof.core import CaseResult, CaseScore
from failproof.metrics._geometry import embed
from failproof.metrics._geometry_docs import GeometryCase, geometry_cases
from failproof.metrics._geometry_k import KChoice, choose_k, fit_kmeans
from failproof.runner import score_responses
from failproof.store import Store

Labels = NDArray[np.int_]


def recorded_run(n: int) -> list[CaseResult]:
    """The results of scoring ``bench/score_small.py``'s recorded answers (a temporary store)."""
    with tempfile.TemporaryDirectory() as tmp:
        argv = write_run(Path(tmp), n, 0)
        suites = argv[2::2]
        store = Store(Path(tmp) / "bench.db")
        try:
            outcome = score_responses(argv[0], suites, settings=Settings(), store=store)
        finally:
            store.close()
    return list(outcome.report.results)


def synthetic(n: int, seed: int) -> list[CaseResult]:
    """``bench/geometry.py``'s synthetic results, with validated case scores."""
    return [
        r.model_copy(update={"case_score": CaseScore.model_validate(r.case_score)})
        for r in synthetic_results(n, seed)
    ]


def sklearn_choice(rows: NDArray[np.floating], ks: range, seed: int) -> KChoice:
    """How the geometry chose k before: scikit-learn's KMeans and silhouette_score."""
    from sklearn.cluster import KMeans
    from sklearn.metrics import silhouette_score

    scores: dict[int, float] = {}
    centers: dict[int, Any] = {}
    for k in ks:
        model = KMeans(n_clusters=k, n_init=4, random_state=seed).fit(rows)
        centers[k] = model.cluster_centers_
        if len(set(model.labels_.tolist())) > 1:
            scores[k] = round(float(silhouette_score(rows, model.labels_)), 6)
    best = max(scores, key=lambda k: (scores[k], -k))
    return KChoice(best, "silhouette", scores, centers[best])


def sklearn_labels(vectors: NDArray[np.floating], choice: KChoice, seed: int) -> Labels:
    from sklearn.cluster import KMeans

    model = KMeans(n_clusters=choice.k, init=choice.centers, n_init=1, random_state=seed)
    labels: Labels = model.fit_predict(vectors)
    return labels


def _cpu(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.process_time()
    value = fn()
    return time.process_time() - start, value


def compare(name: str, cases: Sequence[GeometryCase], settings: Settings) -> str:
    from sklearn.metrics import normalized_mutual_info_score as nmi
    from sklearn.metrics import silhouette_score

    probe = settings.probe
    vectors = embed(cases, probe).vectors
    seed, sample = probe.seed, probe.geometry_silhouette_sample

    def ours() -> Labels:
        choice = choose_k(
            vectors, fixed=None, max_k=probe.geometry_max_clusters, sample=sample, seed=seed
        )
        return fit_kmeans(vectors, choice.k, seed, choice.centers)[0]

    def before() -> Labels:
        rng = np.random.default_rng(seed)
        rows = (
            vectors if len(vectors) <= sample else vectors[rng.choice(len(vectors), sample, False)]
        )
        top = min(probe.geometry_max_clusters, len(np.unique(np.round(rows, 6), axis=0)) - 1)
        return sklearn_labels(vectors, sklearn_choice(rows, range(2, top + 1), seed), seed)

    from threadpoolctl import threadpool_limits  # type: ignore[import-untyped]

    with threadpool_limits(limits=probe.geometry_threads):  # as the geometry runs
        cpu_ours, mine = _cpu(ours)
        cpu_before, theirs = _cpu(before)
    category = [c.category for c in cases]

    def sil(labels: Labels) -> float:
        return float(silhouette_score(vectors, labels, sample_size=min(len(vectors), 5000),
                                      random_state=seed))  # fmt: skip

    return (
        f"{name:24s} {len(cases):>6,} {len(set(mine.tolist())):>5} {len(set(theirs.tolist())):>5}"
        f" {sil(mine):>8.3f} {sil(theirs):>8.3f} {nmi(mine, theirs):>8.3f}"
        f" {nmi(category, mine):>8.3f} {nmi(category, theirs):>8.3f}"
        f" {cpu_ours * 1000:>8.0f} {cpu_before * 1000:>8.0f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", default="400,1000,2000", help="synthetic run sizes")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    import sklearn.cluster
    import sklearn.metrics  # noqa: F401  (imports are not what is measured)

    settings = Settings()
    chars = settings.probe.geometry_text_chars
    runs = [("recorded answers (suites)", geometry_cases(recorded_run(400), chars))]
    for size in (int(s) for s in args.sizes.split(",")):
        cases = geometry_cases(synthetic(size, args.seed), chars)
        runs.append((f"synthetic (seed {args.seed})", cases))
    print(f"k chosen by silhouette in 2..8; load {os.getloadavg()[0]:.2f}")
    print(
        f"{'run':24s} {'cases':>6} {'k now':>5} {'k bef':>5} {'sil now':>8} {'sil bef':>8}"
        f" {'NMI n/b':>8} {'cat now':>8} {'cat bef':>8} {'ms now':>8} {'ms bef':>8}"
    )
    for name, cases in runs:
        print(compare(name, cases, settings))


if __name__ == "__main__":
    main()
