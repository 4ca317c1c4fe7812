"""What a ``python:`` callable can take from a case, in this process or in its worker."""

from __future__ import annotations

from failproof.core import Capabilities

__all__ = ["callable_capabilities"]


def callable_capabilities(*, messages_only: bool) -> Capabilities:
    """What a ``python:`` callable can take: everything, or no tools when it gets messages."""
    if not messages_only:
        return Capabilities()
    return Capabilities(
        tools=False, because="its callable takes the messages, which carry no tools"
    )
