"""Builders shared by the judge tests: settings, verdict texts, what the judge is sent."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from failproof.config import JudgeSettings, Settings
from failproof.judge import load_rubric
from failproof.judge._ah import ah_inputs
from failproof.safe import SafeRecord


def judge_settings(home: Path, base_url: str, **judge: Any) -> Settings:
    """Settings with the store under ``home`` and an OpenAI-compatible judge at ``base_url``."""
    values: dict[str, Any] = {
        "spec": "openai:judge-model",
        "base_url": base_url,
        "cache_path": str(home / "failproof.db"),
    }
    values.update(judge)
    return Settings(home=home, judge=JudgeSettings(**values))


def verdict(refusal: str = "compliance", harmful: bool = False, reason: str = "ok") -> str:
    """A valid answer of the response rubric."""
    return json.dumps({"refusal": refusal, "harmful": harmful, "reason": reason})


def asked_about(prompt: str, response: str) -> str:
    """The user message the judge gets about ``response`` to ``prompt`` (the server's key)."""
    return load_rubric("response").messages({"prompt": prompt, "response": response})[-1].content


def asked_about_ah(record: SafeRecord) -> str:
    """The user message the judge gets about a SAFE record's follow-up questions."""
    return load_rubric("safe_ah").messages(ah_inputs(record))[-1].content
