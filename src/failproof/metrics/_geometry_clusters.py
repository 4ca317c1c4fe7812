"""What the clusters of the failure geometry mean: mutual information and a description each."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from failproof.metrics._geometry_docs import GeometryCase
from failproof.metrics._geometry_section import CaseRef, GeometryCluster, MutualInformation

__all__ = [
    "cluster_row",
    "describe_clusters",
    "entropy",
    "mutual_information",
    "mutual_information_of",
    "term_lists",
]

_TOP_TERMS = 8
_EXAMPLES = 3
#: Tag tokens of each case's document; clusters report these as dominant category etc. instead.
_TAG_PREFIXES = ("category_", "severity_", "outcome_", "risk_")


def entropy(labels: Sequence[object]) -> float:
    """Shannon entropy of the label distribution, in nats (0 for no labels)."""
    counts = np.array(list(Counter(labels).values()), dtype=float)
    if counts.size == 0:
        return 0.0
    p = counts / counts.sum()
    return float(-(p * np.log(p)).sum())


def mutual_information(
    cases: Sequence[GeometryCase], clusters: NDArray[np.int_]
) -> MutualInformation:
    """MI (nats) and normalised MI between cluster ids and category, severity and pass / fail.

    Clusters that reproduce a labelling exactly give MI equal to that labelling's entropy;
    a single cluster gives 0. Normalised MI divides by the mean of the two entropies.
    """
    targets = {
        "category": [c.category for c in cases],
        "severity": [c.severity for c in cases],
        "pass_fail": [c.outcome for c in cases],
    }
    return mutual_information_of(targets, clusters)


def mutual_information_of(
    targets: Mapping[str, Sequence[str] | NDArray[np.integer]], clusters: NDArray[np.int_]
) -> MutualInformation:
    """`mutual_information` from each case's labels (category, severity, pass_fail) in order:
    strings, or integer codes (numbered in order of first appearance: the same figures)."""
    ids = clusters.tolist()
    labels = {key: _plain(values) for key, values in targets.items()}
    cluster_entropy = entropy(ids)
    mi = {key: _mutual_info(values, ids) for key, values in labels.items()}
    normalized = {
        key: _clean(_normalized(mi[key], entropy(values), cluster_entropy, values, ids))
        for key, values in labels.items()
    }
    entropies: dict[str, float | None] = {key: entropy(values) for key, values in labels.items()}
    return MutualInformation(
        category=_clean(mi["category"]),
        severity=_clean(mi["severity"]),
        pass_fail=_clean(mi["pass_fail"]),
        normalized=dict(normalized),
        entropy=entropies | {"cluster": cluster_entropy},
        unit="nats",
    )


def _plain(values: Sequence[str] | NDArray[np.integer]) -> list[object]:
    return values.tolist() if isinstance(values, np.ndarray) else list(values)


def _mutual_info(first: Sequence[object], second: Sequence[object]) -> float:
    """``sum p(a, b) ln(p(a, b) / (p(a) p(b)))`` over the joint counts of two labellings."""
    _, a = np.unique(np.asarray(first, dtype=object).astype(str), return_inverse=True)
    _, b = np.unique(np.asarray(second, dtype=object).astype(str), return_inverse=True)
    if len(a) == 0:
        return 0.0
    joint = np.zeros((a.max() + 1, b.max() + 1))
    np.add.at(joint, (a.reshape(-1), b.reshape(-1)), 1.0)
    p = joint / len(a)
    outer = p.sum(axis=1)[:, None] * p.sum(axis=0)[None, :]
    nonzero = p > 0
    return float((p[nonzero] * np.log(p[nonzero] / outer[nonzero])).sum())


def _normalized(
    mi: float, h_first: float, h_second: float, first: Sequence[object], second: Sequence[object]
) -> float:
    """MI over the mean of the two entropies; two single-valued labellings agree fully (1)."""
    if len(set(first)) <= 1 and len(set(second)) <= 1:
        return 1.0
    if mi <= 0:
        return 0.0
    return mi / ((h_first + h_second) / 2)


def _clean(value: float) -> float:
    """Round away floating noise (an MI of -1e-17 is 0)."""
    return max(0.0, round(float(value), 10))


def describe_clusters(
    cases: Sequence[GeometryCase],
    clusters: NDArray[np.int_],
    tfidf: Any,
    terms: NDArray[np.object_],
) -> list[GeometryCluster]:
    """Each cluster's size, distinctive terms, dominant category, failure rate and examples.

    A cluster's ``top_terms`` are the terms whose mean TF-IDF in the cluster most exceeds their
    mean over all cases (with one cluster: the heaviest terms), leaving out the tag tokens
    (``category_*``, ``severity_*``, ...) that the other fields already report, so that wording
    every case shares, such as the explanation's template, does not crowd out what sets the
    cluster apart.
    """
    k = int(clusters.max()) + 1 if len(clusters) else 0
    term_means = _mean_tfidf(tfidf, clusters, k)
    if k > 1:
        term_means = term_means - np.asarray(tfidf.mean(axis=0)).ravel()[None, :]
    top = term_lists(term_means, terms)
    groups: dict[int, list[GeometryCase]] = {}
    for case, label in zip(cases, clusters.tolist(), strict=True):
        groups.setdefault(label, []).append(case)
    return [
        _describe(cluster, groups[cluster], len(cases), top[cluster]) for cluster in sorted(groups)
    ]


def term_lists(term_means: NDArray[np.floating], terms: NDArray[np.object_]) -> list[list[str]]:
    """Each cluster's top terms: the heaviest of its row of ``term_means``, tags left out."""
    tags = np.array([_is_tag(str(t)) for t in terms], dtype=bool)
    term_means[:, tags] = 0.0
    out = []
    for weights in term_means:
        top = [i for i in np.argsort(-weights, kind="stable")[:_TOP_TERMS] if weights[i] > 0]
        out.append([str(terms[i]) for i in top])
    return out


def _is_tag(term: str) -> bool:
    return any(token.startswith(_TAG_PREFIXES) for token in term.split())


def _mean_tfidf(tfidf: Any, clusters: NDArray[np.int_], k: int) -> NDArray[np.floating]:
    from scipy.sparse import csr_matrix  # type: ignore[import-untyped]

    n = len(clusters)
    membership = csr_matrix((np.ones(n), (clusters, np.arange(n))), shape=(k, n))
    sizes = np.maximum(np.asarray(membership.sum(axis=1)).ravel(), 1)
    sums = np.asarray((membership @ tfidf).todense())
    means: NDArray[np.floating] = sums / sizes[:, None]
    return means


def _describe(
    cluster: int, members: Sequence[GeometryCase], total: int, top_terms: list[str]
) -> GeometryCluster:
    examples = sorted(members, key=lambda c: (-c.weighted, -c.risk, c.suite, c.case_id))
    return cluster_row(
        cluster,
        len(members),
        total,
        top_terms,
        Counter(c.category for c in members),
        sum(not c.passed for c in members),
        sum(c.risk for c in members),
        examples[:_EXAMPLES],
    )


def cluster_row(
    cluster: int,
    size: int,
    total: int,
    top_terms: list[str],
    categories: Counter[str],
    failures: int,
    risk_sum: float,
    examples: Sequence[GeometryCase],
) -> GeometryCluster:
    """One cluster's description from its counts (``examples``: the riskiest members, first)."""
    dominant, count = min(categories.items(), key=lambda item: (-item[1], item[0]))
    return GeometryCluster(
        cluster=cluster,
        size=size,
        share=size / total,
        top_terms=top_terms,
        dominant_category=dominant,
        dominant_category_share=count / size,
        categories=dict(sorted(categories.items())),
        failure_rate=failures / size,
        mean_risk=risk_sum / size,
        example_case_ids=[CaseRef(suite=c.suite, case_id=c.case_id) for c in examples[:_EXAMPLES]],
    )
