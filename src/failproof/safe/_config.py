"""SAFE v0 configuration, defined with the rest of failproof's configuration (`failproof.config`).

A run records its SAFE config with its other settings, so the type lives below every scorer.
"""

from failproof.config import (
    LABELS,
    METRICS,
    REPORT_FORMATS,
    Label,
    MatchMode,
    Metric,
    MetricThresholds,
    MetricThresholdsOverride,
    ReportFormat,
    SafeConfig,
    Thresholds,
    ThresholdsOverride,
    Weights,
    WeightsOverride,
)

__all__ = [
    "LABELS",
    "METRICS",
    "REPORT_FORMATS",
    "Label",
    "MatchMode",
    "Metric",
    "MetricThresholds",
    "MetricThresholdsOverride",
    "ReportFormat",
    "SafeConfig",
    "Thresholds",
    "ThresholdsOverride",
    "Weights",
    "WeightsOverride",
]
