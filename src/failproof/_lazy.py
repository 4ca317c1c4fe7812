"""A package's public names imported on first use (PEP 562), so importing a package costs little.

A package says which module holds each public name; `lazy_exports` gives it the module-level
``__getattr__`` and ``__dir__`` that import a name's module the first time the name is read and
keep the value in the package, so later reads are plain attribute reads. The package imports the
same names under ``TYPE_CHECKING``, so type checkers and IDEs see them with their types, and hides
the ``__getattr__`` from them: a misspelled import (``from failproof.store import Stor``) is then
an error for mypy, not a name typed ``object``::

    if TYPE_CHECKING:
        from failproof.store._store import Store

    __all__ = ["Store"]

    if not TYPE_CHECKING:
        __getattr__, __dir__ = lazy_exports(__name__, {"._store": ("Store",)})
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping

__all__ = ["lazy_exports"]


def lazy_exports(
    package: str, modules: Mapping[str, tuple[str, ...]]
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for ``package``; ``modules`` maps a module to its names.

    A module name starting with a dot is relative to ``package``.
    """
    home = {name: module for module, names in modules.items() for name in names}
    namespace = vars(sys.modules[package])

    def __getattr__(name: str) -> object:
        module = home.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module, package), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *home})

    return __getattr__, __dir__
