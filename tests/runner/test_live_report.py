"""A new run builds its report while it stores its results, each result going to the report in
report order once every result before it is in; the report is the one the store's results give.
When a result is missing, unplanned, stored twice or breaks a section, the report is built from the
store as before."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.runner.helpers import numbered_cases, settings, write_suite

import failproof.metrics._geometry_process as geometry_process
import failproof.report as report_package
import failproof.runner._live as live_module
import failproof.runner._run as run_module
from failproof.core import CaseResult
from failproof.guard import add_secret, forget_secrets
from failproof.report import Report, build_report
from failproof.report._model import ReportBuilder
from failproof.runner import RunOutcome, RunRequest, start_run
from failproof.runner._live import LiveReport
from failproof.store import Store


def run_numbered(tmp_path: Path, store: Store, n: int = 30, repeat: int = 2) -> RunOutcome:
    """``n`` cases q0..q{n-1} sent in that order, whose report order is q0, q1, q10, q11, ...,
    and three that fail, sent first and reported first, last and among them."""
    failing = [{"id": i, "input": i, "expect": {"must_contain": ["never"]}} for i in FAILING]
    suite = write_suite(tmp_path / "s.yaml", "s", failing + numbered_cases(n))
    request = RunRequest(suites=(str(suite),), target="mock:echo", repeat=repeat)
    return start_run(request, settings=settings(tmp_path / "home"), store=store)


FAILING = ["z9", "a0", "q15x"]
RECORDED = Path(__file__).parents[1] / "record" / "data"


def dumped(report: Report) -> str:
    return report.model_dump_json(exclude={"run", "generated_at"})


def digested(report: Report) -> tuple[object, ...]:
    """What the renderers read from the report's per-case digest."""
    digest = report.digest()
    listed = (digest.failing.items(), digest.not_passed.items())
    keys = tuple([r.key for r in results] for results in listed)
    return digest.verdicts, digest.shown, digest.total, digest.unsupported, keys


def counting_store_builds(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    built: list[str] = []
    original = report_package.build_report

    def counted(*args: object, **kwargs: object) -> Report:
        built.append("store")
        return original(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(report_package, "build_report", counted)
    return built


@pytest.fixture
def stored(tmp_path: Path) -> Iterator[tuple[Store, RunOutcome, list[CaseResult]]]:
    with Store(tmp_path / "home" / "results.db") as store:
        outcome = run_numbered(tmp_path, store)
        yield store, outcome, list(store.results(outcome.run.id))


def test_a_run_whose_results_arrive_out_of_report_order_reports_what_its_store_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built_from_store = counting_store_builds(monkeypatch)
    with Store(tmp_path / "home" / "results.db") as store:
        outcome = run_numbered(tmp_path, store)
        read = build_report(outcome.run, store.stream(outcome.run.id))
    assert built_from_store == []  # the report built while storing served
    assert outcome.report.case_count == 66
    assert digested(outcome.report)[0]["fail"] == 6
    assert dumped(outcome.report) == dumped(read)
    assert digested(outcome.report) == digested(read)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_results_in_any_order_reach_the_report_in_report_order(
    stored: tuple[Store, RunOutcome, list[CaseResult]], seed: int
) -> None:
    store, outcome, results = stored
    shuffled = random.Random(seed).sample(results, len(results))
    builder = ReportBuilder(outcome.run)
    order: list[tuple[str, str, int]] = []
    builder.add = lambda r, add=builder.add: (order.append(r.key), add(r))[1]  # type: ignore[method-assign]
    live = LiveReport([r.key for r in results])
    live.begin(builder)
    for result in shuffled:
        live(result)
    assert live.complete
    assert order == sorted(r.key for r in results)
    report = live.report(outcome.run, store.stream(outcome.run.id))
    assert report is not None
    assert dumped(report) == dumped(build_report(outcome.run, store.stream(outcome.run.id)))


def test_a_result_waits_for_every_result_before_it(
    stored: tuple[Store, RunOutcome, list[CaseResult]],
) -> None:
    _, outcome, results = stored
    first, *rest = sorted(results, key=lambda r: r.key)
    live = LiveReport([r.key for r in results])
    live.begin(ReportBuilder(outcome.run))
    for result in rest:
        live(result)
    assert live.added == 0 and not live.complete
    live(first)
    assert live.added == len(results) and live.complete


def test_results_stored_before_the_builder_is_given_go_to_it_when_the_run_catches_up(
    stored: tuple[Store, RunOutcome, list[CaseResult]],
) -> None:
    store, outcome, results = stored
    live = LiveReport([r.key for r in results])
    for result in results:
        live(result)
    assert live.added == 0 and not live.complete
    live.begin(ReportBuilder(outcome.run))
    report = live.report(outcome.run, store.stream(outcome.run.id))
    assert live.complete and report is not None
    assert dumped(report) == dumped(build_report(outcome.run, store.stream(outcome.run.id)))


@pytest.mark.parametrize("fault", ["missing", "unplanned", "twice"])
def test_the_sections_built_while_storing_serve_only_when_every_planned_result_came_once(
    stored: tuple[Store, RunOutcome, list[CaseResult]], fault: str
) -> None:
    _, outcome, results = stored
    keys = [r.key for r in results]
    given = {
        "missing": results[:-1],
        "unplanned": [*results, results[0].model_copy(update={"case_id": "elsewhere"})],
        "twice": [*results, results[0]],
    }[fault]
    live = LiveReport(keys)
    live.begin(ReportBuilder(outcome.run))
    for result in given:
        live(result)
    assert not live.complete


def test_a_section_that_fails_while_storing_stops_nothing_and_leaves_the_report_to_the_store(
    stored: tuple[Store, RunOutcome, list[CaseResult]],
) -> None:
    store, outcome, results = stored

    class Failing(ReportBuilder):
        def add(self, result: CaseResult) -> None:
            raise ValueError("a plugin's section broke")

    live = LiveReport([r.key for r in results])
    live.begin(Failing(outcome.run))
    for result in results:
        live(result)  # never raises into the run
    assert not live.complete
    assert live.report(outcome.run, store.stream(outcome.run.id)) is None


def test_results_waiting_past_the_bound_are_let_go_and_the_report_left_to_the_store(
    stored: tuple[Store, RunOutcome, list[CaseResult]], monkeypatch: pytest.MonkeyPatch
) -> None:
    store, outcome, results = stored
    monkeypatch.setattr(live_module, "WAITING", 5)
    first, *rest = sorted(results, key=lambda r: r.key)
    live = LiveReport([r.key for r in results])
    live.begin(ReportBuilder(outcome.run))
    for result in rest[:5]:
        live(result)
    assert live.waiting and not live.failed  # five wait for the first
    live(rest[5])
    assert live.failed and live.waiting == {}
    for result in [first, *rest[6:]]:
        live(result)
    assert not live.complete
    assert live.report(outcome.run, store.stream(outcome.run.id)) is None


def test_a_run_too_large_to_hold_its_results_still_builds_its_report_as_it_stores_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(run_module, "HELD_RESULTS", 10)
    built = counting_store_builds(monkeypatch)
    with Store(tmp_path / "home" / "results.db") as store:
        outcome = run_numbered(tmp_path, store)
        assert built == []
        read = build_report(outcome.run, store.stream(outcome.run.id))
    assert getattr(outcome.report.results, "held", None) is None  # its cases read the store
    assert outcome.report.case_count == 66
    assert dumped(outcome.report) == dumped(read)
    assert digested(outcome.report) == digested(read)


def test_past_what_is_held_a_result_the_store_redacted_sends_the_report_to_the_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(run_module, "HELD_RESULTS", 3)
    built = counting_store_builds(monkeypatch)
    add_secret("ORCHID-42")  # in one recorded answer: the store redacts it, the run's copy holds it
    try:
        with Store(tmp_path / "home" / "results.db") as store:
            request = RunRequest(
                suites=(str(RECORDED / "pinned.yaml"),),
                target=f"replay:{RECORDED / 'pinned_responses.jsonl'}",
            )
            outcome = start_run(request, settings=settings(tmp_path / "home"), store=store)
            read = build_report(outcome.run, store.stream(outcome.run.id))
    finally:
        forget_secrets()
    assert built == ["store"]
    assert outcome.report.case_count > 3
    assert "ORCHID-42" not in dumped(outcome.report)
    assert dumped(outcome.report) == dumped(read)


def test_a_run_of_more_than_the_live_bound_reads_its_report_from_the_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(run_module, "LIVE_RESULTS", 65)
    built = counting_store_builds(monkeypatch)
    with Store(tmp_path / "home" / "results.db") as store:
        outcome = run_numbered(tmp_path, store)  # 66 results
    assert built == ["store"]
    assert outcome.report.case_count == 66


TOPICS = [
    "how do I reset the router and the modem at home",
    "which cheese goes best with a red wine and bread",
    "explain the rules of chess castling and en passant",
]


def run_worded(tmp_path: Path, store: Store) -> RunOutcome:
    """60 cases over three topics that the probe scorer reads, the mock echoing each: the
    third that must be refused fail."""
    cases = [
        {"id": f"w{i}", "input": f"{TOPICS[i % 3]} {i}"}
        | {"expect": {"refusal": "required" if i % 3 == 0 else "forbidden"}}
        for i in range(60)
    ]
    suite = write_suite(tmp_path / "w.yaml", "w", cases)
    request = RunRequest(suites=(str(suite),), target="mock:echo")
    return start_run(request, settings=settings(tmp_path / "home"), store=store)


def counting_remote_sections(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Each section (or error) a geometry process gave the run's report."""
    given: list[object] = []
    original = geometry_process.RemoteGeometry.finish

    def counted(self: geometry_process.RemoteGeometry) -> object:
        try:
            given.append(original(self))
        except geometry_process.GeometryLost as lost:
            given.append(lost)
            raise
        return given[-1]

    monkeypatch.setattr(geometry_process.RemoteGeometry, "finish", counted)
    return given


@pytest.mark.skipif(not hasattr(os, "fork") or (os.cpu_count() or 1) < 2, reason="forks a core")
def test_a_large_run_computes_its_geometry_in_a_process_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(run_module, "is_large", lambda cases: True)  # 60 results count as many
    built, given = counting_store_builds(monkeypatch), counting_remote_sections(monkeypatch)
    with Store(tmp_path / "home" / "results.db") as store:
        outcome = run_worded(tmp_path, store)
        read = build_report(outcome.run, store.stream(outcome.run.id))
    assert built == []
    assert read.observability is not None
    assert given == [read.observability]  # the process's section, the one the store's results give
    assert dumped(outcome.report) == dumped(read)


@pytest.mark.skipif(not hasattr(os, "fork") or (os.cpu_count() or 1) < 2, reason="forks a core")
def test_a_geometry_process_that_stops_leaves_the_report_to_the_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(run_module, "is_large", lambda cases: True)
    monkeypatch.setattr(geometry_process, "_preload", lambda: os._exit(3))  # dies as it starts
    built, given = counting_store_builds(monkeypatch), counting_remote_sections(monkeypatch)
    with Store(tmp_path / "home" / "results.db") as store:
        outcome = run_worded(tmp_path, store)
        read = build_report(outcome.run, store.stream(outcome.run.id))
    assert built == ["store"]
    assert all(isinstance(g, geometry_process.GeometryLost) for g in given)
    assert read.observability is not None
    assert dumped(outcome.report) == dumped(read)
