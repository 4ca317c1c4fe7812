"""The model of the ``observability`` section (the failure geometry), built by the geometry
accumulator."""

from __future__ import annotations

from pydantic import Field

from failproof.core import Number, Section

__all__ = [
    "AssignedCases",
    "CaseRef",
    "GeometryCluster",
    "GeometryMethod",
    "KMeansMethod",
    "MutualInformation",
    "Observability",
    "Point",
    "TfidfMethod",
]


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


class TfidfMethod(Section):
    """How the documents were weighted: n-grams, vocabulary and the cases it was fitted on."""

    ngram_range: list[int] = Field(default_factory=lambda: [1, 2])
    max_features: int = 0
    vocabulary_size: int = 0
    fitted_on_cases: int = 0


class KMeansMethod(Section):
    """How many clusters, how k was chosen and the silhouettes it was chosen by."""

    k: int = 0
    k_selection: str = ""
    silhouettes: dict[str, Number] = Field(default_factory=dict)
    silhouette_sample: int = 0
    max_k: int = 0


class AssignedCases(Section):
    """A run larger than the sample: how many cases were assigned to the sample's clusters."""

    cases: int = 0
    by: str = ""


class GeometryMethod(Section):
    """How the geometry was made: TF-IDF, SVD, KMeans and its choice of k, seed."""

    tfidf: TfidfMethod = Field(default_factory=TfidfMethod)
    svd_components: int = 0
    kmeans: KMeansMethod = Field(default_factory=KMeansMethod)
    seed: int = 0
    mutual_information_unit: str = "nats"
    assigned: AssignedCases | None = Field(default=None, exclude_if=lambda value: value is None)


class Observability(Section):
    """Failure geometry: mutual information, clusters, scatter points and how they were made."""

    n: int = 0
    mutual_information: MutualInformation | None = None
    clusters: list[GeometryCluster] = Field(default_factory=list)
    points: list[Point] = Field(default_factory=list)
    method: GeometryMethod = Field(default_factory=GeometryMethod)
