"""Section 8: observation store, ``safe:v0:result`` events, and Python hooks."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.safe.factories import EXAMPLES

from failproof.registry import PluginWarning
from failproof.safe import SafeConfig, SafeReport, hooks
from failproof.safe._api import score_concern
from failproof.safe._events import (
    EVENT_NAME,
    call_hooks,
    emit_events,
    record_results,
    result_events,
)
from failproof.store import Store


@pytest.fixture(scope="module")
def report() -> SafeReport:
    return score_concern("I25", "*", SafeConfig(), data_dir=EXAMPLES)


@pytest.fixture
def received() -> Iterator[list[dict[str, Any]]]:
    seen: list[dict[str, Any]] = []
    hooks.register("test_collect")(seen.append)
    yield seen
    hooks.unregister("test_collect")


def test_one_event_per_batch_with_its_own_summary(report: SafeReport) -> None:
    events = result_events(report)
    assert [e["batch_id"] for e in events] == ["I25_batch_1", "I25_batch_2", "I25_batch_3"]
    assert all(e["event"] == EVENT_NAME and e["timestamp"] == report.timestamp for e in events)
    assert events[0]["summary"]["total_cases"] == 6
    assert sum(e["summary"]["fail"] for e in events) == report.summary()["fail"]


def test_registered_hooks_receive_every_event(
    report: SafeReport, received: list[dict[str, Any]]
) -> None:
    call_hooks(result_events(report))
    assert len(received) == 3


def test_a_failing_hook_is_a_warning_not_a_crash(report: SafeReport) -> None:
    def broken(event: dict[str, Any]) -> None:
        raise RuntimeError("dashboard down")

    hooks.register("test_broken")(broken)
    try:
        with pytest.warns(PluginWarning, match="dashboard down"):
            call_hooks(result_events(report))
    finally:
        hooks.unregister("test_broken")


def test_emit_to_stdout_and_appends_to_files(report: SafeReport, tmp_path: Path) -> None:
    out = io.StringIO()
    target = tmp_path / "deep" / "events.jsonl"
    events = result_events(report)
    emit_events(events, ["-", str(target)], stdout=out)
    emit_events(events, [str(target)], stdout=out)
    assert out.getvalue().count(EVENT_NAME) == 3
    assert len(target.read_text().splitlines()) == 6


def test_record_results_writes_every_scorecard(report: SafeReport, tmp_path: Path) -> None:
    with Store(tmp_path / "db.sqlite") as store:
        assert record_results(store, report) == 18
        rows = store.safe_results("I25")
    assert [r["test_id"] for r in rows] == [r.test_id for r in report.results]
    assert rows[1]["label"] == report.results[1].label
