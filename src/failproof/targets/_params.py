"""Model parameters whose name says they hold a secret (``api_key``, ``auth_token``...).

Such a parameter is treated as a secret header is: its value must come from the environment,
written ``${NAME}``; a literal value is refused. The run record keeps the ``${NAME}`` form; the
target gets the value, which is remembered as a secret (`add_secret`) and so redacted from
everything failproof writes.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any

from failproof.errors import TargetError
from failproof.guard import add_secret
from failproof.guard._secrets import ENV_REFERENCE, SECRET_NAME

__all__ = ["secret_params"]


def secret_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """``params`` with every ``${NAME}`` of a secret-named parameter read from the environment
    (and remembered as a secret); a secret-named parameter with a literal value is refused."""
    return {key: _resolved(key, value) for key, value in params.items()}


def _resolved(key: str, value: Any) -> Any:
    if not SECRET_NAME.search(key) or not isinstance(value, str):
        return value  # numbers and flags (max_tokens=100) hold no secret
    if not ENV_REFERENCE.search(value):
        raise TargetError(
            f"parameter {key!r} carries a literal value; secrets must come from the environment",
            hint=f"--param '{key}=${{MY_KEY}}' with MY_KEY exported (or --api-key-env MY_KEY)",
        )
    return ENV_REFERENCE.sub(_from_environment, value)


def _from_environment(match: re.Match[str]) -> str:
    name = match.group(1)
    value = os.environ.get(name)
    if value is None:
        raise TargetError(
            f"the environment variable {name} is not set (a --param names it)",
            hint=f"export {name}=... before the run",
        )
    add_secret(value)
    return value
