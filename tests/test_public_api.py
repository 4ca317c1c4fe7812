"""The public surface: every package's ``__all__`` is sorted, complete and importable."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
import types

import pytest

import failproof


def isort_key(name: str) -> tuple[int, str]:
    """ruff's RUF022 order: CONSTANTS, then Classes, then everything else."""
    if name.isupper():
        return (0, name)
    if name[:1].isupper():
        return (1, name)
    return (2, name)


def public_packages() -> list[str]:
    names = ["failproof"]
    for info in pkgutil.walk_packages(failproof.__path__, "failproof."):
        leaf = info.name.rsplit(".", 1)[-1]
        if info.ispkg and not leaf.startswith("_"):
            names.append(info.name)
    return sorted(names)


def _defined_in(module: str | None, package: str) -> bool:
    """Defined in ``package`` or its private modules (imports from elsewhere do not count)."""
    return module is not None and (module == package or module.startswith(package + "."))


@pytest.mark.parametrize("name", public_packages())
def test_all_is_sorted_complete_and_importable(name: str) -> None:
    module = importlib.import_module(name)
    exported = getattr(module, "__all__", None)
    assert exported is not None, f"{name} has no __all__"
    assert list(exported) == sorted(exported, key=isort_key), f"{name}.__all__ is not sorted"
    for attr in exported:
        assert hasattr(module, attr), f"{name}.__all__ names missing {attr!r}"
    defined = {
        attr
        for attr, value in vars(module).items()
        if not attr.startswith("_")
        and not isinstance(value, types.ModuleType)
        and _defined_in(getattr(value, "__module__", None), name)
    }
    assert defined <= set(exported), f"{name} exposes names missing from __all__"


def test_importing_failproof_is_light_and_side_effect_free(tmp_path: object) -> None:
    code = (
        "import sys, os; before = set(os.listdir('.')); import failproof; "
        "heavy = [m for m in ('sklearn', 'xllamacpp', 'torch', 'openai', 'playwright') "
        "if m in sys.modules]; "
        "assert not heavy, heavy; assert set(os.listdir('.')) == before"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
