"""The hostile corpus by surface: one module per surface, each with ``attempts()``.

A module added here joins the corpus (``tests/hostile/test_corpus.py`` and
``bench/hostile_corpus.py``) with no other file changed. Attempt names start with the
module's surface so ``bench/hostile_corpus.py --only SURFACE/`` runs one of them.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tests.hostile.replay import Attempt


def surface_attempts() -> list[Attempt]:
    """Every attempt of every surface module, modules in name order."""
    found: list[Attempt] = []
    for module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if module.name.startswith("_"):
            continue
        loaded = importlib.import_module(f"{__name__}.{module.name}")
        found += loaded.attempts()
    return found
