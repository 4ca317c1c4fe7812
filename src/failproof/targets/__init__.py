"""Targets: the interface, the registry, and the built-in targets."""

from typing import TYPE_CHECKING

from failproof._lazy import lazy_exports

if TYPE_CHECKING:
    from failproof.targets._base import CallError, Target, TargetFactory, create_target, targets
    from failproof.targets._http import HttpTarget
    from failproof.targets._local import LocalTarget, default_model_path, default_threads
    from failproof.targets._mock import MockTarget
    from failproof.targets._openai import OpenAITarget
    from failproof.targets._python import PythonTarget
    from failproof.targets._replay import RecordedResponse, RecordedResponses, ReplayTarget

__all__ = [
    "CallError",
    "HttpTarget",
    "LocalTarget",
    "MockTarget",
    "OpenAITarget",
    "PythonTarget",
    "RecordedResponse",
    "RecordedResponses",
    "ReplayTarget",
    "Target",
    "TargetFactory",
    "create_target",
    "default_model_path",
    "default_threads",
    "targets",
]

if not TYPE_CHECKING:  # type checkers see the imports above, never a catch-all
    __getattr__, __dir__ = lazy_exports(__name__)
