"""The failure geometry: mutual information of the clusters, and each cluster described."""

from __future__ import annotations

from dataclasses import dataclass

from failproof.metrics._geometry_section import GeometryCluster
from failproof.render._numbers import value_of
from failproof.report._model import Report
from failproof.report._present.cases import CaseIndex
from failproof.report._present.headline import Stat

__all__ = ["Cluster", "clusters", "mutual_information"]

_MI = (
    ("category", "MI(cluster, category)", "clusters follow the threat family"),
    ("severity", "MI(cluster, severity)", "clusters follow severity"),
    ("pass_fail", "MI(cluster, pass/fail)", "clusters separate by outcome"),
)


def mutual_information(report: Report) -> list[Stat]:
    """Mutual information between clusters and category, severity and outcome (in nats)."""
    geometry = report.observability
    mi = geometry.mutual_information if geometry else None
    if mi is None:
        return []
    stats = [Stat(k, label, value_of(getattr(mi, k)), "num", note) for k, label, note in _MI]
    return [s for s in stats if s.value is not None]


@dataclass(frozen=True, slots=True)
class Cluster:
    """One cluster of the failure geometry, as the observability section describes it."""

    id: str
    size: int | None
    terms: list[str]
    dominant: str | None
    failure_rate: float | None
    mean_risk: float | None
    examples: list[tuple[str, int | None]]


def clusters(report: Report, index: CaseIndex) -> list[Cluster]:
    """The cluster descriptions, in the section's order."""
    geometry = report.observability
    return [_cluster(c, index) for c in geometry.clusters] if geometry else []


def _cluster(desc: GeometryCluster, index: CaseIndex) -> Cluster:
    return Cluster(
        id=str(desc.cluster),
        size=desc.size,
        terms=desc.top_terms[:6],
        dominant=desc.dominant_category,
        failure_rate=desc.failure_rate,
        mean_risk=desc.mean_risk,
        examples=[
            (ex.case_id, index.find(ex.case_id, ex.suite)) for ex in desc.example_case_ids[:5]
        ],
    )
