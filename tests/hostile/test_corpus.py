"""The whole hostile corpus (``tests/hostile/replay.py``): every attempt is handled."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.hostile.replay import Attempt, attempts

ATTEMPTS = attempts()


def test_the_corpus_is_large_and_named_uniquely() -> None:
    names = [a.name for a in ATTEMPTS]
    assert len(names) == len(set(names))
    assert len(names) >= 200


@pytest.mark.parametrize("attempt", ATTEMPTS, ids=[a.name for a in ATTEMPTS])
def test_attempt_is_handled(attempt: Attempt, tmp_path: Path) -> None:
    attempt.run(tmp_path)
