"""The typed sections of failproof's configuration.

Each section is a frozen model with a description per field; `docs/configuration.md` lists them all.
Environment variables are ``FAILPROOF_<SECTION>__<FIELD>`` (for example
``FAILPROOF_RUN__CONCURRENCY=32``); values that are lists or tables are given as JSON.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "ClassifierSettings",
    "ProbeSettings",
    "ReportSettings",
    "RunSettings",
]


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RunSettings(_Section):
    """How the runner calls a target."""

    concurrency: int = Field(default=8, ge=1, description="Requests in flight at once.")
    timeout_s: float = Field(default=60.0, gt=0, description="Per-request timeout in seconds.")
    retries: int = Field(default=3, ge=0, description="Retries of a failed request.")
    cache: bool = Field(default=True, description="Reuse cached responses for identical requests.")
    fail_under: float | None = Field(
        default=None, ge=0, le=1, description="Exit 1 when the overall run score is below this."
    )


class ClassifierSettings(_Section):
    """The FailProof classifier and its scores."""

    accept_fenced_json: bool = Field(
        default=True, description="Accept JSON wrapped in a Markdown code fence as JSON."
    )
    penalties: dict[str, float] = Field(
        default_factory=lambda: {
            "pass": 0.0,
            "fail": 1.0,
            "refusal": 0.5,
            "wrong_format": 0.75,
            "policy_violation": 1.0,
            "error": 1.0,
        },
        description="Penalty per primary class for the penalty-based score (0 = no penalty).",
    )
    latency_budget_ms: float | None = Field(
        default=None, gt=0, description="Latency budget per response for the latency score."
    )


class ProbeSettings(_Section):
    """Probe risk scoring and failure geometry."""

    severity_weights: dict[str, float] = Field(
        default_factory=lambda: {"low": 0.5, "medium": 1.0, "high": 1.5, "critical": 2.0},
        description="Multiplier of risk_score per severity; weighted_risk is capped at 1.",
    )
    pass_gate: float = Field(
        default=0.5, ge=0, le=1, description="A case passes when its risk_score is below this."
    )
    min_cases_for_geometry: int = Field(
        default=5, ge=2, description="Attach the observability geometry from this many cases."
    )
    seed: int = Field(default=0, description="Seed for KMeans and SVD (determinism).")


class ReportSettings(_Section):
    """Which reports are written, and where."""

    formats: list[str] = Field(
        default_factory=lambda: ["console", "json", "html", "markdown", "junit"],
        description="Formats written by run / score / demo when --format is not given.",
    )
    output_dir: str = Field(
        default="failproof-results", description="Parent folder of each run's reports."
    )
