"""Tests of an optional extra that is not installed are skipped, saying which extra they need, so
that a plain ``pip install -e '.[dev]'`` passes. With the extra installed they run, and fail on
what is missing beside it (the local model's weights: README)."""

from __future__ import annotations

import importlib.util

import pytest

#: A marker, the module its extra installs, and how to install it.
_EXTRAS = {
    "local_model": ("xllamacpp", "needs the local extra: pip install -e '.[local]' (README)"),
    "local_engine": ("xllamacpp", "needs the local extra: pip install -e '.[local]'"),
    "ray": ("ray", "needs the ray extra: pip install -e '.[ray]'"),
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for marker, (module, reason) in _EXTRAS.items():
        if importlib.util.find_spec(module) is not None:
            continue
        skip = pytest.mark.skip(reason=reason)
        for item in items:
            if item.get_closest_marker(marker) is not None:
                item.add_marker(skip)
