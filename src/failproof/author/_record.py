"""What a generation asked, and every answer it got: enough to build the same suite again."""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any, Literal

from pydantic import Field

from failproof.core._closed import Closed
from failproof.core._result import utc_now

__all__ = ["GenerationRecord", "GenerationRequest", "GeneratorAnswer"]


class GenerationRequest(Closed):
    """The user's purpose, the generator, the plugins and how many cases each."""

    purpose: str = Field(min_length=1, description="What the application is and does.")
    generator: str = Field(min_length=1, description="The generator's target spec.")
    plugins: tuple[str, ...] = Field(min_length=1)
    per_plugin: int = Field(default=5, ge=1, le=50, description="Cases wanted per plugin.")
    seed: int = 0
    name: str = Field(default="generated", pattern=r"^[a-z0-9_]+$", description="Suite name.")
    attempts: int = Field(default=2, ge=1, le=5, description="Asks per plugin at most.")


class GeneratorAnswer(Closed):
    """One ask of the generator and what came back."""

    plugin: str
    attempt: int
    system: str
    user: str
    output: str = ""
    error: str | None = None
    latency_ms: float | None = None


class GenerationRecord(Closed):
    """A generation, written beside the suite: `build_suite` turns it into the same suite."""

    record_type: Literal["failproof_generation"] = "failproof_generation"
    version: Literal[1] = 1
    created_at: datetime = Field(default_factory=utc_now)
    request: GenerationRequest
    generator_identity: dict[str, Any] = Field(
        default_factory=dict, description="The generator target's identity (never a secret)."
    )
    answers: tuple[GeneratorAnswer, ...] = ()

    @property
    def digest(self) -> str:
        """A short fingerprint of the request and answers (what the suite is built from)."""
        body = self.model_dump_json(include={"request", "answers"})
        return hashlib.sha256(body.encode("utf-8")).hexdigest()[:12]
