"""Fixtures of the hostile tests: a working folder with its own store, and no leftover secrets."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from tests.fakes.workdir import workdir  # noqa: F401  (a fixture)

from failproof.guard import forget_secrets


@pytest.fixture(autouse=True)
def _no_secrets_between_tests() -> Iterator[None]:
    forget_secrets()
    yield
    forget_secrets()


def write_suite(folder: Path, cases: list[dict[str, Any]], name: str = "s") -> str:
    path = folder / f"{name}.yaml"
    path.write_text(yaml.safe_dump({"suite": name, "cases": cases}), encoding="utf-8")
    return str(path)


def write_responses(folder: Path, records: list[dict[str, Any]]) -> str:
    path = folder / "recorded.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return str(path)


def read_report(folder: Path) -> dict[str, Any]:
    (path,) = folder.glob("failproof-results/*/report.json")
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def every_file_text(folder: Path) -> str:
    """Every byte failproof wrote under ``folder`` (store included), as text."""
    chunks = []
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            chunks.append(path.read_bytes().decode("utf-8", errors="replace"))
    return "\n".join(chunks)
