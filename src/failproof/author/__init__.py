"""Cases written for the user's own application: a generator model writes them per category for
a stated purpose, failproof checks, deduplicates and labels them, and keeps the record."""

from typing import TYPE_CHECKING

from failproof._lazy import lazy_exports

if TYPE_CHECKING:
    from failproof.author._build import GenerationOutcome, PluginOutcome, build_suite
    from failproof.author._check import check_case, parse_cases
    from failproof.author._plugins import Plugin, plugin_catalogue, resolve_plugins
    from failproof.author._record import GenerationRecord, GenerationRequest, GeneratorAnswer
    from failproof.author._run import generate_cases

__all__ = [
    "GenerationOutcome",
    "GenerationRecord",
    "GenerationRequest",
    "GeneratorAnswer",
    "Plugin",
    "PluginOutcome",
    "build_suite",
    "check_case",
    "generate_cases",
    "parse_cases",
    "plugin_catalogue",
    "resolve_plugins",
]

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "._build": ("GenerationOutcome", "PluginOutcome", "build_suite"),
        "._check": ("check_case", "parse_cases"),
        "._plugins": ("Plugin", "plugin_catalogue", "resolve_plugins"),
        "._record": ("GenerationRecord", "GenerationRequest", "GeneratorAnswer"),
        "._run": ("generate_cases",),
    },
)
