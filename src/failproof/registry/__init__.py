"""The registry behind every pluggable component, and plugin loading."""

from typing import TYPE_CHECKING

from failproof._lazy import lazy_exports

if TYPE_CHECKING:
    from failproof.registry._registry import (
        ENTRY_POINT_GROUP,
        PluginWarning,
        Registered,
        Registry,
        load_plugins,
    )

__all__ = ["ENTRY_POINT_GROUP", "PluginWarning", "Registered", "Registry", "load_plugins"]

if not TYPE_CHECKING:  # type checkers see the imports above, never a catch-all
    __getattr__, __dir__ = lazy_exports(
        __name__,
        {
            "._registry": (
                "ENTRY_POINT_GROUP",
                "PluginWarning",
                "Registered",
                "Registry",
                "load_plugins",
            ),
        },
    )
