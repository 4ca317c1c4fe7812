"""The failure geometry computed in a forked process gives the section the run's own process
would; a process that stops or fails never passes for a section: `finish` raises `GeometryLost`."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from tests.metrics.test_geometry import fixture as geometry_fixture

from failproof.config import ProbeSettings, ScoringConfig
from failproof.core import CaseResult
from failproof.metrics import AggregateContext, accumulators, fold
from failproof.metrics import _geometry_process as geometry_process
from failproof.metrics._geometry_process import GeometryLost, GeometryProcess

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the process is forked")

SAMPLED = {"geometry_vocab_sample": 100, "geometry_silhouette_sample": 60}


def context(planned: int | None = None, **probe: Any) -> AggregateContext:
    return AggregateContext(ScoringConfig(probe=ProbeSettings(**probe)), planned=planned)


def here(results: list[CaseResult], ctx: AggregateContext) -> object:
    return fold(accumulators.get("observability")(ctx), results)


@pytest.fixture
def process() -> Iterator[GeometryProcess]:
    started = GeometryProcess()
    yield started
    started.close()


@pytest.mark.parametrize(("cases", "probe"), [(80, SAMPLED), (12, {})])
def test_the_process_gives_the_section_the_run_would_compute_itself(
    process: GeometryProcess, cases: int, probe: dict[str, int]
) -> None:
    results = geometry_fixture(cases)  # 3 topics: past the sample (two passes), or within it
    remote = process.accumulator(context(**probe))
    for result in results:
        remote.add(result)
    section = remote.finish()
    assert section is not None
    assert section == here(results, context(**probe))


def test_it_is_asked_for_the_section_as_soon_as_every_planned_result_is_in(
    process: GeometryProcess,
) -> None:
    results = geometry_fixture(50)
    remote = process.accumulator(context(planned=len(results), **SAMPLED))
    for result in results[:-1]:
        remote.add(result)
    assert not remote.asked
    remote.add(results[-1])
    assert remote.asked
    assert remote.finish() == here(results, context(**SAMPLED))


def test_a_run_that_cannot_show_a_geometry_gets_none(process: GeometryProcess) -> None:
    results = geometry_fixture(2)  # 6 cases, fewer than the failures the section needs
    ctx = context(min_failures_for_geometry=100)
    remote = process.accumulator(ctx)
    for result in results:
        remote.add(result)
    assert remote.finish() is None
    assert here(results, ctx) is None


def test_a_process_that_was_stopped_gives_no_section(process: GeometryProcess) -> None:
    results = geometry_fixture(20)
    remote = process.accumulator(context(**SAMPLED))
    for result in results[:10]:
        remote.add(result)
    assert process.process.pid is not None
    os.kill(process.process.pid, signal.SIGTERM)  # ends it (Ctrl-C, to the group, does not)
    process.process.join(60)
    assert not process.process.is_alive()

    def the_rest() -> None:  # a send fails, or the wait for the section
        for result in results[10:]:
            remote.add(result)
        remote.finish()

    with pytest.raises(GeometryLost, match="stopped"):
        the_rest()


def test_an_error_in_the_process_comes_back_at_the_end_as_an_error_not_a_section(
    process: GeometryProcess,
) -> None:
    results = geometry_fixture(20)
    remote = process.accumulator(context(**SAMPLED))
    process.send(("cases", ["not a case"]))
    for result in results:  # the cases after the error are still taken: no send fails
        remote.add(result)
    with pytest.raises(GeometryLost, match="failed: AttributeError"):
        remote.finish()


def test_a_process_serves_one_report(process: GeometryProcess) -> None:
    process.accumulator(context())
    with pytest.raises(GeometryLost, match="one report"):
        process.accumulator(context())


def test_the_cases_are_read_while_the_imports_are_still_under_way(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    never = threading.Event()
    monkeypatch.setattr(geometry_process, "_preload", never.wait)  # the imports never end
    results = geometry_fixture(400)  # 1,200 cases: more than a socket holds unread
    started = GeometryProcess()
    started.sock.settimeout(60)  # a send that waits for the imports fails instead of hanging
    try:
        remote = started.accumulator(context(**SAMPLED))
        for result in results:
            remote.add(result)
        section = remote.finish()
    finally:
        started.close()
        started.process.terminate()  # its imports never end
    assert section == here(results, context(**SAMPLED))
