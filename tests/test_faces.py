"""The packages' faces: small, guarded by a budget, and honest to the type checker."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "failproof"
sys.path.insert(0, str(ROOT / "scripts"))

from measure_types import exported, measure  # noqa: E402

#: The most names each package's ``__all__`` may hold. Lower a number when a face shrinks; raise
#: one only for a name users need (a plugin's base class, a public entry point), never for a
#: helper another package reaches for (import it from its module instead).
BUDGET = {
    ".": 26,
    "attack": 8,
    "author": 3,
    "ci": 4,
    "cli": 3,
    "config": 12,
    "core": 22,
    "coverage": 2,
    "datasets": 4,
    "generate": 5,
    "guard": 11,
    "importers": 5,
    "judge": 7,
    "detect": 20,
    "mcp": 6,
    "metrics": 13,
    "registry": 4,
    "report": 12,
    "runner": 12,
    "safe": 12,
    "scale": 5,
    "scoring": 7,
    "signals": 9,
    "stats": 4,
    "store": 3,
    "suites": 7,
    "targets": 15,
    "testing": 4,
    "view": 2,
}
#: A package not in `BUDGET` starts with a small face.
NEW_PACKAGE_BUDGET = 8

#: The share of functions whose return type is a string-keyed mapping of anything may only fall.
UNTYPED_RETURNS_CEILING = 0.03


def faces() -> list[Path]:
    return sorted(PACKAGE.rglob("__init__.py"))


def name_of(init: Path) -> str:
    return str(init.parent.relative_to(PACKAGE)) if init.parent != PACKAGE else "."


@pytest.mark.parametrize("init", [pytest.param(p, id=name_of(p)) for p in faces()])
def test_each_face_stays_within_its_budget(init: Path) -> None:
    names = exported(ast.parse(init.read_text(encoding="utf-8")))
    assert names <= BUDGET.get(name_of(init), NEW_PACKAGE_BUDGET), (
        f"failproof/{name_of(init)} exports {names} names: import helpers from their module"
    )


def test_the_faces_together_stay_within_the_budget() -> None:
    assert sum(measure(PACKAGE).exported.values()) <= sum(BUDGET.values())


def _lazy_getattr_is_hidden(tree: ast.Module) -> bool:
    """Every module-level ``__getattr__`` is assigned under ``if not TYPE_CHECKING``."""
    for node in tree.body:
        if isinstance(node, ast.Assign) and "__getattr__" in ast.unparse(node.targets[0]):
            return False
        if isinstance(node, ast.FunctionDef) and node.name == "__getattr__":
            return False
    return True


@pytest.mark.parametrize("init", [pytest.param(p, id=name_of(p)) for p in faces()])
def test_a_lazy_face_hides_its_getattr_from_type_checkers(init: Path) -> None:
    assert _lazy_getattr_is_hidden(ast.parse(init.read_text(encoding="utf-8")))


def test_a_misspelled_import_from_a_face_fails_mypy(tmp_path: Path) -> None:
    pytest.importorskip("mypy")
    probe = tmp_path / "probe.py"
    probe.write_text("from failproof.store import Stor\nfrom failproof.core import Case\n")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-incremental",
            "--follow-imports=silent",
            str(probe),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 1, done.stdout
    assert 'Module "failproof.store" has no attribute "Stor"' in done.stdout
    assert "failproof.core" not in done.stdout


def test_the_share_of_untyped_returns_only_falls() -> None:
    assert measure(PACKAGE).share <= UNTYPED_RETURNS_CEILING


def test_an_alias_of_an_untyped_mapping_counts_as_one(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "_body.py").write_text(
        "from typing import Any, TypeAlias\n"
        "Body = dict[str, Any]\n"
        "Meta: TypeAlias = 'Mapping[str, Any] | None'\n"
        "Typed = dict[str, int]\n"
    )
    (tmp_path / "pkg" / "_use.py").write_text(
        "def body() -> Body: ...\n"
        "def meta() -> list[Meta]: ...\n"
        "def typed() -> Typed: ...\n"
        "def plain() -> dict[str, Any]: ...\n"
        "def bodyguard() -> Bodyguard: ...\n"
    )
    measures = measure(tmp_path)
    assert measures.untyped["pkg"] == 3
    assert measures.functions["pkg"] == 5


def _imports(package: Path) -> set[str]:
    """The other failproof packages ``package``'s modules import (types included)."""
    found: set[str] = set()
    for module in package.rglob("*.py"):
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            found |= {n.split(".")[1] for n in names if n.startswith("failproof.")}
    return found - {package.name}


def _floors() -> dict[str, int]:
    """Each package's floor: one above the highest floor it imports from (0: imports none)."""
    packages = {p.name: p for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    deps = {name: _imports(path) & set(packages) for name, path in packages.items()}
    floors: dict[str, int] = {}
    while len(floors) < len(deps):
        ready = [n for n in deps if n not in floors and deps[n] <= set(floors)]
        assert ready, f"an import loop among {sorted(set(deps) - set(floors))}"
        floors |= {n: 1 + max((floors[d] for d in deps[n]), default=-1) for n in ready}
    return floors


def test_the_packages_stack_as_floors_with_no_loop() -> None:
    assert _floors()["cli"] == max(_floors().values())


def test_the_architecture_page_puts_every_package_on_its_floor() -> None:
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    documented: dict[str, int] = {}
    for line in page.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 3 and cells[0].isdigit():
            documented |= {name.strip(" `"): int(cells[0]) for name in cells[1].split(",")}
    assert documented == _floors()


def _module_imports() -> dict[str, set[str]]:
    """Each private module's imports of other failproof modules, function-level ones included."""
    graph: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        if path.name == "__init__.py":
            continue
        name = ".".join(path.with_suffix("").relative_to(PACKAGE.parent).parts)
        graph[name] = {
            node.module
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("failproof.")
        }
    return graph


def test_no_module_imports_one_that_imports_it_back() -> None:
    graph = _module_imports()
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        for dep in sorted(graph.get(name, ()) & set(graph)):
            assert dep not in path, f"an import loop: {' -> '.join((*path, dep))}"
            if dep not in done:
                visit(dep, (*path, dep))
        done.add(name)

    for name in sorted(graph):
        visit(name, (name,))
