"""Benchmarks and scripts are not run by the tests; what they import from failproof must exist."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted([*ROOT.glob("bench/**/*.py"), *ROOT.glob("scripts/*.py")])


def failproof_imports(path: Path) -> list[tuple[str, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        (node.module, alias.name)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("failproof")
        for alias in node.names
        if node.module is not None
    ]


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.relative_to(ROOT).as_posix() for p in SCRIPTS])
def test_every_failproof_name_a_script_imports_exists(path: Path) -> None:
    missing = [
        f"{module}.{name}"
        for module, name in failproof_imports(path)
        if not hasattr(importlib.import_module(module), name)
    ]
    assert not missing, f"{path.name} imports names that no longer exist: {missing}"


def test_there_are_scripts_to_check() -> None:
    assert len(SCRIPTS) >= 10
