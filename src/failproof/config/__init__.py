"""Configuration: typed settings, and the precedence of flags, environment and config files."""

from failproof.config._reference import settings_reference
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
    "ClassifierSettings",
    "JudgeSettings",
    "ProbeSettings",
    "ReportSettings",
    "RunSettings",
    "Settings",
    "deep_merge",
    "drop_none",
    "find_config_file",
    "load_settings",
    "settings_reference",
    "with_judge_key",
]
