"""The registry behind every pluggable component, and plugin loading."""

from failproof.registry._registry import PluginWarning, Registered, Registry, load_plugins

__all__ = [
    "PluginWarning",
    "Registered",
    "Registry",
    "load_plugins",
]
