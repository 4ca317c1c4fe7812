"""The model of the ``observability`` section (the failure geometry), built by the geometry
accumulator."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from failproof.core import Number, Section

__all__ = ["CaseRef", "GeometryCluster", "MutualInformation", "Observability", "Point"]


class CaseRef(Section):
    """A case named by suite and id."""

    suite: str
    case_id: str


class GeometryCluster(Section):
    """One failure cluster of the geometry."""

    cluster: int = 0
    size: int = 0
    share: Number = 0
    top_terms: list[str] = Field(default_factory=list)
    dominant_category: str | None = None
    dominant_category_share: Number | None = None
    categories: dict[str, int] = Field(default_factory=dict)
    failure_rate: Number | None = None
    mean_risk: Number | None = None
    example_case_ids: list[CaseRef] = Field(default_factory=list)


class Point(Section):
    """A case's cluster and place on the 2-D scatter."""

    suite: str
    case_id: str
    sample: int = 0
    cluster: int | None = None
    scatter_x: Number = 0
    scatter_y: Number = 0


class MutualInformation(Section):
    """How much the clusters tell about category, severity and pass / fail."""

    category: Number | None = None
    severity: Number | None = None
    pass_fail: Number | None = None
    normalized: dict[str, Number | None] = Field(default_factory=dict)
    entropy: dict[str, Number | None] = Field(default_factory=dict)
    unit: str = "nats"


class Observability(Section):
    """Failure geometry: mutual information, clusters, scatter points and how they were made."""

    n: int = 0
    mutual_information: MutualInformation | None = None
    clusters: list[GeometryCluster] = Field(default_factory=list)
    points: list[Point] = Field(default_factory=list)
    method: dict[str, Any] = Field(default_factory=dict)
