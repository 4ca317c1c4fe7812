"""A third-party plugin as an entry point would load it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from failproof.targets import MockTarget, Target, targets

CALLS: list[str] = []


def register() -> None:
    @targets.register("fake_echo")
    def _factory(argument: str, options: Mapping[str, Any]) -> Target:
        """Echo target from a plugin."""
        return MockTarget()

    CALLS.append("registered")
