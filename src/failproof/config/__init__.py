"""Configuration: typed settings, and the precedence of flags, environment and config files."""

from typing import TYPE_CHECKING

from failproof._lazy import lazy_exports

if TYPE_CHECKING:
    from failproof.config._project import ProjectSettings, ProjectTarget
    from failproof.config._record import RECORD_KEY, PatternFileRef, ScoringConfig, Versions
    from failproof.config._reference import settings_reference
    from failproof.config._safe import (
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
    from failproof.config._sections import (
        ClassifierSettings,
        JudgeSettings,
        ProbeSettings,
        ReportSettings,
        RunSettings,
    )
    from failproof.config._settings import (
        Settings,
        deep_merge,
        drop_none,
        find_config_file,
        load_settings,
        with_judge_key,
    )

__all__ = [
    "LABELS",
    "METRICS",
    "RECORD_KEY",
    "REPORT_FORMATS",
    "ClassifierSettings",
    "JudgeSettings",
    "Label",
    "MatchMode",
    "Metric",
    "MetricThresholds",
    "MetricThresholdsOverride",
    "PatternFileRef",
    "ProbeSettings",
    "ProjectSettings",
    "ProjectTarget",
    "ReportFormat",
    "ReportSettings",
    "RunSettings",
    "SafeConfig",
    "ScoringConfig",
    "Settings",
    "Thresholds",
    "ThresholdsOverride",
    "Versions",
    "Weights",
    "WeightsOverride",
    "deep_merge",
    "drop_none",
    "find_config_file",
    "load_settings",
    "settings_reference",
    "with_judge_key",
]

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "._project": ("ProjectSettings", "ProjectTarget"),
        "._record": ("RECORD_KEY", "PatternFileRef", "ScoringConfig", "Versions"),
        "._reference": ("settings_reference",),
        "._safe": (
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
        ),
        "._sections": (
            "ClassifierSettings",
            "JudgeSettings",
            "ProbeSettings",
            "ReportSettings",
            "RunSettings",
        ),
        "._settings": (
            "Settings",
            "deep_merge",
            "drop_none",
            "find_config_file",
            "load_settings",
            "with_judge_key",
        ),
    },
)
