"""Builders shared by the runner tests."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from failproof.config import RunSettings, Settings


def settings(home: Path, **run: Any) -> Settings:
    """Settings with the store under ``home`` and fast retries unless told otherwise."""
    values: dict[str, Any] = {"backoff_base_s": 0.0, "backoff_max_s": 0.0, "retry_seed": 1}
    values.update(run)
    return Settings(home=home, run=RunSettings(**values))


def write_suite(path: Path, name: str, cases: Sequence[dict[str, Any]]) -> Path:
    """A suite file with ``cases`` (each needs id and input)."""
    path.write_text(yaml.safe_dump({"suite": name, "cases": list(cases)}), encoding="utf-8")
    return path


def numbered_cases(n: int, prefix: str = "q") -> list[dict[str, Any]]:
    """``n`` cases whose input is ``q0``, ``q1``, ... and that pass when echoed back."""
    return [
        {
            "id": f"{prefix}{i}",
            "input": f"{prefix}{i}",
            "expect": {"must_contain": [f"{prefix}{i}"]},
        }
        for i in range(n)
    ]
