"""The whole hostile corpus (``tests/hostile/replay.py``): every attempt is handled."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from tests.hostile.replay import Attempt, attempts

ATTEMPTS = attempts()


def _param(attempt: Attempt) -> object:
    """An attempt that needs an optional extra is skipped without it, saying which."""
    missing = attempt.needs is not None and importlib.util.find_spec(attempt.needs) is None
    skip = pytest.mark.skipif(missing, reason=f"needs {attempt.needs} (an optional extra)")
    return pytest.param(attempt, id=attempt.name, marks=skip)


def test_the_corpus_is_large_and_named_uniquely() -> None:
    names = [a.name for a in ATTEMPTS]
    assert len(names) == len(set(names))
    assert len(names) >= 200


@pytest.mark.parametrize("attempt", [_param(a) for a in ATTEMPTS])
def test_attempt_is_handled(attempt: Attempt, tmp_path: Path) -> None:
    attempt.run(tmp_path)
