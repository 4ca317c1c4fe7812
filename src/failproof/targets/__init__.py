"""Targets: the interface, the registry, and the built-in targets."""

from typing import TYPE_CHECKING

from failproof._lazy import lazy_exports

if TYPE_CHECKING:
    from failproof.targets._aio import check_url
    from failproof.targets._base import (
        MAX_RETRY_AFTER_S,
        CallError,
        Target,
        TargetFactory,
        create_target,
        parse_target_spec,
        targets,
    )
    from failproof.targets._exec import ExecTarget
    from failproof.targets._http import HttpTarget
    from failproof.targets._litellm import LiteLLMTarget
    from failproof.targets._local import (
        WEIGHTS_INSTALL,
        LocalTarget,
        default_model_path,
        default_threads,
    )
    from failproof.targets._mock import MockTarget
    from failproof.targets._openai import OPENAI_URL, OpenAIConnection, OpenAITarget
    from failproof.targets._openai_sdk import OpenAISDKTarget
    from failproof.targets._python import PythonTarget
    from failproof.targets._replay import (
        RecordedResponse,
        RecordedResponses,
        ReplayTarget,
        load_responses,
    )

__all__ = [
    "MAX_RETRY_AFTER_S",
    "OPENAI_URL",
    "WEIGHTS_INSTALL",
    "CallError",
    "ExecTarget",
    "HttpTarget",
    "LiteLLMTarget",
    "LocalTarget",
    "MockTarget",
    "OpenAIConnection",
    "OpenAISDKTarget",
    "OpenAITarget",
    "PythonTarget",
    "RecordedResponse",
    "RecordedResponses",
    "ReplayTarget",
    "Target",
    "TargetFactory",
    "check_url",
    "create_target",
    "default_model_path",
    "default_threads",
    "load_responses",
    "parse_target_spec",
    "targets",
]

if not TYPE_CHECKING:  # type checkers see the imports above, never a catch-all
    __getattr__, __dir__ = lazy_exports(
        __name__,
        {
            "._base": (
                "MAX_RETRY_AFTER_S",
                "CallError",
                "Target",
                "TargetFactory",
                "create_target",
                "parse_target_spec",
                "targets",
            ),
            "._exec": ("ExecTarget",),
            "._http": ("HttpTarget",),
            "._litellm": ("LiteLLMTarget",),
            "._local": ("WEIGHTS_INSTALL", "LocalTarget", "default_model_path", "default_threads"),
            "._mock": ("MockTarget",),
            "._aio": ("check_url",),
            "._openai": ("OPENAI_URL", "OpenAIConnection", "OpenAITarget"),
            "._openai_sdk": ("OpenAISDKTarget",),
            "._python": ("PythonTarget",),
            "._replay": ("RecordedResponse", "RecordedResponses", "ReplayTarget", "load_responses"),
        },
    )
