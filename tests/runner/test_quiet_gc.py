"""`quiet_gc`: the collector kept out of a run's way, and everything restored after it."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from failproof.core import CaseResult
from failproof.runner import _gc as gc_module
from failproof.runner._gc import RUN_THRESHOLD, quiet_gc
from failproof.runner._held import HELD_RESULTS, SETTLE_EVERY, HeldResults


@pytest.fixture(autouse=True)
def _clean_collector() -> Iterator[None]:
    """Every test starts with nothing frozen and the default thresholds, and leaves it so."""
    threshold = gc.get_threshold()
    gc.unfreeze()
    gc.set_threshold(700, 10, 10)
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


def test_a_block_freezes_what_exists_and_collects_young_objects_less_often() -> None:
    with quiet_gc():
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == (RUN_THRESHOLD, 10, 10)
    assert gc.get_freeze_count() == 0
    assert gc.get_threshold() == (700, 10, 10)


def test_only_the_outermost_block_restores() -> None:
    with quiet_gc():
        with quiet_gc():
            pass
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == (RUN_THRESHOLD, 10, 10)
    assert gc.get_freeze_count() == 0


def test_a_collector_the_host_switched_off_by_threshold_stays_off() -> None:
    gc.set_threshold(0)
    with quiet_gc():
        assert gc.get_threshold()[0] == 0
    assert gc.get_threshold()[0] == 0


def test_the_objects_a_host_froze_stay_frozen() -> None:
    gc.freeze()
    frozen = gc.get_freeze_count()
    with quiet_gc(), quiet_gc():
        assert gc.get_freeze_count() == frozen
        assert gc.get_threshold() == (RUN_THRESHOLD, 10, 10)
    assert gc.get_freeze_count() == frozen
    assert gc.get_threshold() == (700, 10, 10)


def test_a_block_that_raises_still_restores() -> None:
    with pytest.raises(RuntimeError), quiet_gc():
        raise RuntimeError("stop")
    assert gc.get_freeze_count() == 0
    assert gc.get_threshold() == (700, 10, 10)


def test_in_a_process_the_command_line_owns_what_a_block_froze_stays_frozen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(gc_module, "_owned", [True])
    gc.freeze()  # what the command froze before (its modules and setup)
    before = gc.get_freeze_count()
    kept = [[index] for index in range(1000)]  # made after: a block freezes them too
    with quiet_gc():
        assert gc.get_freeze_count() >= before + len(kept)
    assert gc.get_freeze_count() >= before + len(kept)
    assert gc.get_threshold() == (700, 10, 10)


def _held(count: int, *, settle: bool = True) -> tuple[HeldResults, list[CaseResult]]:
    held = HeldResults(HELD_RESULTS, settle=settle)
    results = [
        CaseResult(case_id=f"c{i}", suite="s", category="c", severity="medium")
        for i in range(count)
    ]
    for result in results:
        held.add(result)
    return held, results


def test_in_a_process_the_command_line_owns_held_results_are_frozen_as_they_pile_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A young collection would walk every result held since the last one, to free nothing."""
    monkeypatch.setattr(gc_module, "_owned", [True])
    _, results = _held(SETTLE_EVERY)
    frozen = gc.get_freeze_count()
    assert frozen >= len(results)
    assert gc.get_count()[0] < SETTLE_EVERY  # the young generation starts afresh
    _held(SETTLE_EVERY - 1)  # not a whole batch more: nothing frozen
    assert gc.get_freeze_count() == frozen


def test_a_host_keeps_its_collector_when_results_are_held() -> None:
    _held(SETTLE_EVERY * 2)
    assert gc.get_freeze_count() == 0


def test_results_held_by_a_run_are_left_to_the_collector(monkeypatch: pytest.MonkeyPatch) -> None:
    """A run's failed calls leave garbage cycles behind: freezing would keep them for good."""
    monkeypatch.setattr(gc_module, "_owned", [True])
    _held(SETTLE_EVERY * 2, settle=False)
    assert gc.get_freeze_count() == 0
