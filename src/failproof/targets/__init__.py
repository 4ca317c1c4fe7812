"""Targets: the interface, the registry, and the built-in targets."""

from failproof.targets._base import (
    CallError,
    Target,
    TargetFactory,
    create_target,
    parse_target_spec,
    targets,
)
from failproof.targets._mock import MockTarget
from failproof.targets._replay import (
    RecordedResponse,
    RecordedResponses,
    ReplayTarget,
    load_responses,
)

__all__ = [
    "CallError",
    "MockTarget",
    "RecordedResponse",
    "RecordedResponses",
    "ReplayTarget",
    "Target",
    "TargetFactory",
    "create_target",
    "load_responses",
    "parse_target_spec",
    "targets",
]
