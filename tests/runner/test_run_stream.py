"""`failproof run` reads a JSONL suite as it sends it: past the first `HELD` cases none is kept,
and the run is the one the whole suites loaded in memory make (same cases in the same order, same
selection for a seed, same fingerprint, so a run stored before resumes)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
import yaml

import failproof.suites._stream as suite_stream
from failproof import RunRequest, load_settings, resume_run, start_run
from failproof.errors import ConfigError, InputError
from failproof.runner._plan import suite_fingerprint
from failproof.runner._record import resolve_scoring
from failproof.store import Store
from failproof.suites import Selection, builtin_suite_names

HELD = 4


@pytest.fixture(autouse=True)
def few_held(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Keep few cases of a JSONL suite in memory, so that the suites below are read again."""
    monkeypatch.setattr(suite_stream, "HELD", HELD)
    monkeypatch.setenv("FAILPROOF_HOME", str(tmp_path / "home"))


def _jsonl(path: Path, n: int) -> str:
    cases = [
        {
            "id": f"c{i}",
            "input": f"Where is order {i}?",
            "category": "alpha" if i % 2 else "beta",
            "severity": "high" if i % 3 == 0 else "low",
            "expect": {"must_not_contain": ["ZX-9"]},
        }
        for i in range(n)
    ]
    path.write_text("".join(json.dumps(c) + "\n" for c in cases), encoding="utf-8")
    return str(path)


def _yaml(path: Path) -> str:
    cases = [
        {"id": f"y{i}", "input": f"question {i}", "category": "alpha", "severity": "medium"}
        for i in range(5)
    ]
    data = {"suite": "extra", "description": "A few more.", "weight": 2.5, "cases": cases}
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return str(path)


@pytest.fixture
def suites(tmp_path: Path) -> tuple[str, ...]:
    return (_jsonl(tmp_path / "orders.jsonl", 23), _yaml(tmp_path / "extra.yaml"))


def _keys(request: RunRequest) -> list[tuple[str, str]]:
    return [c.key for s in request.load() for c in s.cases]


SELECTIONS = [
    pytest.param(Selection(), None, id="everything"),
    pytest.param(Selection(ids=("c7", "extra/y1", "orders/c20")), None, id="ids"),
    pytest.param(Selection(categories=("alpha",)), None, id="category"),
    pytest.param(Selection(severities=("high", "medium")), None, id="severity"),
    pytest.param(Selection(sample=9, seed=3), None, id="sample"),
    pytest.param(Selection(sample=9, seed=4), None, id="sample-other-seed"),
    pytest.param(Selection(categories=("alpha",), sample=6, seed=11), None, id="filtered-sample"),
    pytest.param(Selection(sample=500), None, id="sample-larger-than-pool"),
    pytest.param(Selection(), (("orders", "c9"), ("extra", "y2"), ("x", "y")), id="only-pairs"),
    pytest.param(
        Selection(sample=2, seed=5),
        tuple(("orders", f"c{i}") for i in range(0, 23, 2)),
        id="only-pairs-then-sample",
    ),
]


@pytest.mark.parametrize(("selection", "only"), SELECTIONS)
def test_the_streamed_suites_are_the_loaded_ones(
    suites: tuple[str, ...],
    selection: Selection,
    only: tuple[tuple[str, str], ...] | None,
) -> None:
    request = RunRequest(suites=suites, target="mock:ok", only=only, selection=selection)
    loaded = request.load()
    streamed = request.stream()
    assert [c.key for c in streamed.cases()] == _keys(request)
    assert streamed.names == [s.name for s in loaded]
    assert streamed.count == sum(len(s.cases) for s in loaded)
    assert streamed.fingerprint == suite_fingerprint(loaded)
    expected = resolve_scoring(load_settings(), loaded)
    assert streamed.weights == expected.suite_weights
    assert streamed.has_safe == any(c.expectations is not None for s in loaded for c in s.cases)


def test_a_built_in_suite_has_the_fingerprint_of_the_loaded_one(suites: tuple[str, ...]) -> None:
    request = RunRequest(suites=(builtin_suite_names()[0], *suites), target="mock:ok")
    assert request.stream().fingerprint == suite_fingerprint(request.load())


@pytest.mark.parametrize(
    ("selection", "message"),
    [
        pytest.param(Selection(ids=("c1", "nope")), "in none of the suites: nope", id="unknown-id"),
        pytest.param(Selection(categories=("gamma",)), "no case matches", id="nothing-matches"),
    ],
)
def test_a_selection_is_refused_as_the_loaded_suites_refuse_it(
    suites: tuple[str, ...], selection: Selection, message: str
) -> None:
    request = RunRequest(suites=suites, target="mock:ok", selection=selection)
    with pytest.raises(InputError) as loaded:
        request.load()
    with pytest.raises(InputError) as streamed:
        request.stream()
    assert message in str(streamed.value)
    assert str(streamed.value) == str(loaded.value)


def test_the_plan_holds_at_most_held_cases_of_a_jsonl_suite(suites: tuple[str, ...]) -> None:
    streamed = RunRequest(suites=suites, target="mock:ok").stream()
    orders = streamed.picked[0]
    assert (orders.count, len(orders.source.held)) == (23, HELD)


def test_a_run_of_a_suite_bigger_than_held_sends_every_case_in_order(
    suites: tuple[str, ...],
) -> None:
    request = RunRequest(suites=suites, target="mock:ok", repeat=2)
    settings = load_settings()
    with Store(settings.db_path) as store:
        outcome = start_run(request, settings=settings, store=store)
    sent = [(r.suite, r.case_id) for r in outcome.report.cases() if r.sample == 0]
    assert sorted(sent) == sorted(_keys(request))
    assert outcome.run.config["planned"] == 2 * 28
    assert outcome.run.config["suite_hash"] == suite_fingerprint(request.load())


def _stop_after(db: Path, run_id: str, kept: int) -> None:
    """Leave the run as a stop would: only its first ``kept`` results stored."""
    with sqlite3.connect(db) as conn:
        conn.execute(
            "DELETE FROM results WHERE run_id = ? AND rowid NOT IN "
            "(SELECT rowid FROM results WHERE run_id = ? ORDER BY rowid LIMIT ?)",
            (run_id, run_id, kept),
        )
        conn.execute("UPDATE runs SET status = 'interrupted' WHERE id = ?", (run_id,))


def test_a_stopped_sampled_run_resumes_with_the_same_cases(suites: tuple[str, ...]) -> None:
    selection = Selection(severities=("low", "medium"), sample=12, seed=9)
    request = RunRequest(suites=suites, target="mock:ok", selection=selection)
    settings = load_settings()
    with Store(settings.db_path) as store:
        run_id = start_run(request, settings=settings, store=store).run.id
    _stop_after(settings.db_path, run_id, 5)
    with Store(settings.db_path) as store:
        outcome = resume_run(run_id, settings=settings, store=store)
    assert sorted((r.suite, r.case_id) for r in outcome.report.cases()) == sorted(_keys(request))


def test_a_run_whose_jsonl_suite_changed_past_held_is_not_resumed(
    suites: tuple[str, ...],
) -> None:
    request = RunRequest(suites=suites, target="mock:ok")
    settings = load_settings()
    with Store(settings.db_path) as store:
        run_id = start_run(request, settings=settings, store=store).run.id
    _stop_after(settings.db_path, run_id, 5)
    path = Path(suites[0])
    path.write_text(path.read_text().replace("order 21", "order 99"), encoding="utf-8")
    with Store(settings.db_path) as store, pytest.raises(Exception, match="changed since it"):
        resume_run(run_id, settings=settings, store=store)


def test_the_new_run_a_changed_suite_asks_for_keeps_the_targets_address(
    suites: tuple[str, ...],
) -> None:
    """Without the base URL the suggested command would send the cases to api.openai.com."""
    options = {"base_url": "http://127.0.0.1:9/v1", "params": {"temperature": 0}}
    request = RunRequest(suites=suites, target="mock:ok", target_options=options)
    settings = load_settings()
    with Store(settings.db_path) as store:
        run_id = start_run(request, settings=settings, store=store).run.id
    _stop_after(settings.db_path, run_id, 5)
    path = Path(suites[0])
    path.write_text(path.read_text().replace("order 21", "order 99"), encoding="utf-8")
    with Store(settings.db_path) as store, pytest.raises(ConfigError) as caught:
        resume_run(run_id, settings=settings, store=store)
    hint = caught.value.hint or ""
    assert "--target mock:ok --base-url http://127.0.0.1:9/v1" in hint
    assert "the same target options (params)" in hint
