"""Work done ahead for the report runs once, on its own thread, from the moment a run starts waiting
for answers; the report waits for it, and a failure there is left for the report to meet."""

from __future__ import annotations

import threading

import pytest

import failproof.metrics._geometry_csr as geometry_csr
import failproof.report._prepare as prepare
from failproof.core._sections import Section
from failproof.metrics._geometry_csr import SCIPY_FROM
from failproof.report._model import Report
from failproof.runner._ahead import Ahead


def test_the_work_runs_once_on_another_thread_and_wait_returns_when_it_is_done() -> None:
    threads: list[threading.Thread] = []
    release = threading.Event()

    def work() -> None:
        threads.append(threading.current_thread())
        release.wait()

    ahead = Ahead(work)
    ahead.start()
    ahead.start()
    release.set()
    ahead.wait()
    assert len(threads) == 1 and threads[0] is not threading.current_thread()
    assert threads[0].daemon and not threads[0].is_alive()


def test_waiting_for_work_never_started_returns_at_once() -> None:
    ran: list[bool] = []
    Ahead(lambda: ran.append(True)).wait()
    assert ran == []


def test_a_failure_ahead_is_swallowed_for_the_report_to_meet() -> None:
    def work() -> None:
        raise ImportError("no module named scipy")

    ahead = Ahead(work)
    ahead.start()
    ahead.wait()  # raises nothing


def test_a_large_reports_geometry_multiplies_with_scipys_loops() -> None:
    assert prepare.LARGE_REPORT * prepare.ENTRIES_PER_CASE >= SCIPY_FROM


@pytest.mark.parametrize(("cases", "loads"), [(0, False), (333, False), (334, True), (2000, True)])
def test_scipys_sparse_loops_are_loaded_ahead_only_for_a_large_report(
    monkeypatch: pytest.MonkeyPatch, cases: int, loads: bool
) -> None:
    loaded: list[bool] = []
    monkeypatch.setattr(geometry_csr, "load_kernels", lambda: loaded.append(True))
    prepare.prepare_report(cases)
    assert bool(loaded) == loads


def test_every_report_model_is_built_once_prepared_for_a_large_report() -> None:
    prepare.prepare_report(prepare.LARGE_REPORT)
    models = [Report, *prepare._subclasses(Section)]
    assert len(models) > 20
    assert all(model.__pydantic_complete__ for model in models)


def test_what_must_run_on_the_starting_thread_runs_there_before_the_work() -> None:
    where: list[tuple[str, threading.Thread]] = []
    ahead = Ahead(
        lambda: where.append(("work", threading.current_thread())),
        first=lambda: where.append(("first", threading.current_thread())),
    )
    ahead.start()
    ahead.wait()
    assert [name for name, _ in where] == ["first", "work"]
    assert where[0][1] is threading.current_thread() is not where[1][1]
