"""The registry behind every pluggable component, and plugin loading."""

from failproof.registry._registry import (
    ENTRY_POINT_GROUP,
    PluginWarning,
    Registered,
    Registry,
    load_plugins,
)

__all__ = ["ENTRY_POINT_GROUP", "PluginWarning", "Registered", "Registry", "load_plugins"]
