"""A package's public names imported on first use (PEP 562), so importing a package costs little.

A package imports its public names under ``TYPE_CHECKING``, so type checkers and IDEs see them
with their types, and hides the ``__getattr__`` from them: a misspelled import (``from
failproof.store import Stor``) is then an error for mypy, not a name typed ``object``.
`lazy_exports` reads those same imports from the package's source the first time a name is
asked for, so each name is written once in the imports and once in ``__all__``; a name is
imported from its module on first read and kept in the package, so later reads are plain
attribute reads::

    if TYPE_CHECKING:
        from failproof.store._store import Store

    __all__ = ["Store"]

    if not TYPE_CHECKING:
        __getattr__, __dir__ = lazy_exports(__name__)
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from functools import cache

__all__ = ["lazy_exports"]


def lazy_exports(package: str) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for ``package``, from its ``if TYPE_CHECKING:`` imports."""
    namespace = vars(sys.modules[package])

    @cache
    def home() -> dict[str, str]:
        return _typing_imports(str(namespace["__file__"]))

    def __getattr__(name: str) -> object:
        module = home().get(name) if name in namespace.get("__all__", ()) else None
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *namespace.get("__all__", ())})

    return __getattr__, __dir__


def _typing_imports(path: str) -> dict[str, str]:
    """Each name a module imports under ``if TYPE_CHECKING:``, mapped to its module."""
    import ast

    with open(path, encoding="utf-8") as source:
        tree = ast.parse(source.read(), path)
    home: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for item in node.body:
                if isinstance(item, ast.ImportFrom) and item.module and not item.level:
                    home.update({alias.asname or alias.name: item.module for alias in item.names})
    return home
