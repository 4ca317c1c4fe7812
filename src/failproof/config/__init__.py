"""Configuration: typed settings, and the precedence of flags, environment and config files."""

from typing import TYPE_CHECKING

from failproof._lazy import lazy_exports

if TYPE_CHECKING:
    from failproof.config._record import ScoringConfig
    from failproof.config._safe import SafeConfig, Thresholds, Weights
    from failproof.config._sections import (
        ClassifierSettings,
        JudgeSettings,
        ProbeSettings,
        ReportSettings,
        RunSettings,
    )
    from failproof.config._settings import Settings, find_config_file, load_settings

__all__ = [
    "ClassifierSettings",
    "JudgeSettings",
    "ProbeSettings",
    "ReportSettings",
    "RunSettings",
    "SafeConfig",
    "ScoringConfig",
    "Settings",
    "Thresholds",
    "Weights",
    "find_config_file",
    "load_settings",
]

if not TYPE_CHECKING:  # type checkers see the imports above, never a catch-all
    __getattr__, __dir__ = lazy_exports(__name__)
