"""The model of the ``observability`` section (the failure geometry), built by the geometry
accumulator."""

from __future__ import annotations

from pydantic import Field, SerializerFunctionWrapHandler, model_serializer

from failproof.core import Number, Section

__all__ = [
    "Assignment",
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
    """The TF-IDF of the case documents: n-grams, vocabulary, and how many cases fitted it."""

    ngram_range: list[int] = Field(default_factory=lambda: [1, 2])
    max_features: int
    vocabulary_size: int
    fitted_on_cases: int


class KMeansMethod(Section):
    """The clustering: k, how it was chosen, and the silhouette of every k tried."""

    k: int
    k_selection: str
    silhouettes: dict[str, Number] = Field(default_factory=dict)
    silhouette_sample: int
    max_k: int


class Assignment(Section):
    """A run larger than the sample: how every case was given its cluster."""

    cases: int
    by: str


class GeometryMethod(Section):
    """How the geometry was made: TF-IDF, SVD, KMeans and seed (and, past the sample, how every
    case was assigned: written only then)."""

    tfidf: TfidfMethod
    svd_components: int
    kmeans: KMeansMethod
    seed: int
    mutual_information_unit: str = "nats"
    assigned: Assignment | None = None

    @model_serializer(mode="wrap")
    def _without_assignment(self, write: SerializerFunctionWrapHandler) -> object:
        out = write(self)
        if self.assigned is None and isinstance(out, dict):
            out.pop("assigned", None)
        return out


class Observability(Section):
    """Failure geometry: mutual information, clusters, scatter points and how they were made."""

    n: int = 0
    mutual_information: MutualInformation | None = None
    clusters: list[GeometryCluster] = Field(default_factory=list)
    points: list[Point] = Field(default_factory=list)
    method: GeometryMethod | None = None
