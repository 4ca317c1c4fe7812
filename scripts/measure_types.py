"""How typed the package's seams are: the share of functions returning a string-keyed mapping of
anything, and the names each package exports.

    python scripts/measure_types.py [SRC]

Prints the share of functions (methods included) whose return annotation mentions
``dict[str, Any]`` or ``Mapping[str, Any]``, directly or through a type alias of one (``Body =
dict[str, Any]``, written anywhere in the tree), by package, and the exported
names (the length of each package's ``__all__``). Reads the source as text (``ast``); imports
nothing.
"""

from __future__ import annotations

import ast
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

UNTYPED = ("dict[str, Any]", "Mapping[str, Any]")


@dataclass
class Measures:
    """Functions and untyped returns by package, and each package's exported names."""

    functions: Counter[str] = field(default_factory=Counter)
    untyped: Counter[str] = field(default_factory=Counter)
    exported: dict[str, int] = field(default_factory=dict)

    @property
    def share(self) -> float:
        total = sum(self.functions.values())
        return sum(self.untyped.values()) / total if total else 0.0


def package_of(path: Path, root: Path) -> str:
    """The first folder below the package root (``metrics``), or ``.`` for top-level modules."""
    parts = path.relative_to(root).parts
    return parts[0] if len(parts) > 1 else "."


def _plain(text: str) -> str:
    return text.replace('"', "").replace("'", "")


def aliases(tree: ast.Module) -> set[str]:
    """The module-level type aliases whose value mentions an untyped mapping."""
    found: set[str] = set()
    for node in tree.body:
        name, value = _alias(node)
        if not isinstance(
            value, ast.Subscript | ast.BinOp | ast.Name | ast.Attribute | ast.Constant
        ):
            continue
        if any(mark in _plain(ast.unparse(value)) for mark in UNTYPED):
            found.add(name)
    return found


def _alias(node: ast.stmt) -> tuple[str, ast.expr | None]:
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        target = node.targets[0]
        return (target.id, node.value) if isinstance(target, ast.Name) else ("", None)
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return node.target.id, node.value
    return "", None


def returns_untyped(
    node: ast.FunctionDef | ast.AsyncFunctionDef, untyped_aliases: frozenset[str] = frozenset()
) -> bool:
    text = _plain(ast.unparse(node.returns)) if node.returns is not None else ""
    if any(mark in text for mark in UNTYPED):
        return True
    return any(re.search(rf"\b{re.escape(name)}\b", text) for name in untyped_aliases)


def exported(tree: ast.Module) -> int:
    """The length of a module's literal ``__all__`` (0 without one)."""
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(node.value, ast.List):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
                return len(node.value.elts)
    return 0


def measure(root: Path) -> Measures:
    out = Measures()
    trees = {
        path: ast.parse(path.read_text(encoding="utf-8")) for path in sorted(root.rglob("*.py"))
    }
    untyped_aliases = frozenset(name for tree in trees.values() for name in aliases(tree))
    for path, tree in trees.items():
        package = package_of(path, root)
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                out.functions[package] += 1
                out.untyped[package] += returns_untyped(node, untyped_aliases)
        if path.name == "__init__.py":
            out.exported[str(path.parent.relative_to(root)) or "."] = exported(tree)
    return out


def report(measures: Measures) -> str:
    total, untyped = sum(measures.functions.values()), sum(measures.untyped.values())
    lines = [f"functions returning dict/Mapping[str, Any]: {untyped} of {total} "]
    lines[0] += f"({measures.share:.1%})"
    for package, n in sorted(measures.functions.items()):
        bad = measures.untyped[package]
        if bad:
            lines.append(f"  {package:<12} {bad:>4} of {n:<4} ({bad / n:.1%})")
    names = sum(measures.exported.values())
    lines.append(f"exported names (sum of __all__ in __init__.py): {names}")
    for package, n in sorted(measures.exported.items()):
        lines.append(f"  {package:<12} {n:>4}")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    root = Path(argv[0]) if argv else Path(__file__).resolve().parents[1] / "src" / "failproof"
    print(report(measure(root)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
