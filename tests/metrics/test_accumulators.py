"""Accumulators: each section built in one pass over a store equals the list aggregator's."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from pydantic_core import to_jsonable_python
from tests.metrics.reference_geometry import whole_run_geometry
from tests.metrics.test_geometry import fixture as geometry_fixture
from tests.report.synthetic import make_results

from failproof.config import ProbeSettings, ScoringConfig
from failproof.core import CaseResult, Run
from failproof.metrics import AggregateContext, accumulators, aggregate_stream, aggregators, fold
from failproof.metrics import _geometry_stream as geometry_stream
from failproof.metrics import _run as metrics_run
from failproof.metrics._accumulate import TopN
from failproof.metrics._base import context_for
from failproof.metrics._geometry_section import Observability
from failproof.metrics._geometry_tokens import TokenMemo
from failproof.metrics._run import Aggregation
from failproof.store import Store

JUDGE_SCORES: list[dict[str, Any]] = [
    {"status": "ok", "rules": {"passed": True, "refusal": "refusal", "harmful": False},
     "judge": {"passed": True, "refusal": "refusal", "harmful": False},
     "call": {"judge": "j", "rubric": "r", "cached": True}},
    {"status": "ok", "rules": {"passed": True, "refusal": "compliance", "harmful": False},
     "judge": {"passed": False, "refusal": "compliance", "harmful": True}, "reason": "leak",
     "call": {"judge": "j", "rubric": "r", "answers": ["a", "b"]}},
    {"status": "judge_error", "error": "timeout"},
    {"status": "not_judged"},
    {"scorer_error": "boom"},
]  # fmt: skip


def with_judge(results: list[CaseResult]) -> list[CaseResult]:
    out = []
    for i, result in enumerate(results):
        score = JUDGE_SCORES[i % len(JUDGE_SCORES)] if i % 4 else None
        scores = {**result.scores, "judge": score} if score else result.scores
        out.append(result.model_copy(update={"scores": scores}))
    return out


def timeless(section: Any) -> str:
    """The section as JSON, without the SAFE report's clock reading (``generated_at``)."""
    section = to_jsonable_python(section, by_alias=True)
    if isinstance(section, dict) and section.get("report_type") == "SAFE_v0":
        section = {**section, "generated_at": None}
    return json.dumps(section, default=to_jsonable_python)


def stored(path: Path, results: list[CaseResult], config: dict[str, Any] | None = None) -> Run:
    run = Run(id="r1", target={"name": "mock"}, suites=["s"], config=config or {"planned": 500})
    with Store(path) as store:
        store.create_run(run)
        for result in results:
            store.add_result(run.id, result)
    return run


@pytest.mark.parametrize(
    "samples", [pytest.param(1, id="one-sample"), pytest.param(3, id="repeated-samples")]
)
def test_every_section_streamed_from_the_store_equals_the_list_aggregator(
    tmp_path: Path, samples: int
) -> None:
    db = tmp_path / "results.db"
    run = stored(db, with_judge(make_results(90, seed=3, samples=samples)))
    with Store(db) as store:
        results = list(store.results(run.id))
        streamed = aggregate_stream(run, store.stream(run.id, chunk=7))
    ctx = context_for(run)
    ctx.source = results
    names = [entry.name for entry in aggregators]
    assert {"summary", "suites", "aggregate_metrics", "observability", "robustness", "judge",
            "safe_v0", "consistency"} <= set(names)  # fmt: skip
    for name in names:
        expected = aggregators.get(name)(results, ctx)
        got = streamed.sections.get(name, streamed.extensions.get(name))
        if hasattr(got, "model_dump") and not hasattr(expected, "model_dump"):
            got = got.model_dump(mode="json", by_alias=True, exclude_unset=True)
            expected = (
                type(streamed.extensions[name])
                .model_validate(expected)
                .model_dump(mode="json", by_alias=True, exclude_unset=True)
            )
        assert timeless(got) == timeless(expected), name
        assert name in accumulators, f"{name} has no accumulator"
    assert ("consistency" in streamed.extensions) == (samples > 1)


def test_each_accumulator_alone_equals_its_aggregator_on_the_same_list() -> None:
    results = sorted(with_judge(make_results(60, seed=5, samples=2)), key=lambda r: r.key)
    ctx = AggregateContext(ScoringConfig(), source=results)
    for entry in aggregators:
        folded = fold(accumulators.get(entry.name)(ctx), results)
        assert timeless(folded) == timeless(entry.obj(results, ctx)), entry.name


def test_a_section_computed_elsewhere_finishes_last_and_keeps_its_place(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    results = sorted(make_results(40, seed=3), key=lambda r: r.key)
    run = Run(id="r1", target={"name": "mock"}, suites=["s"], config={"planned": 40})
    finished: list[str] = []
    registered = metrics_run._accumulator
    monkeypatch.setattr(
        metrics_run,
        "_accumulator",
        lambda name, ctx: _Noting(registered(name, ctx), name, finished),
    )

    def remote(ctx: AggregateContext) -> _Noting:
        return _Noting(accumulators.get("observability")(ctx), "observability", finished)

    aggregation = Aggregation(run, given={"observability": remote})
    for result in results:
        aggregation.add(result)
    given = aggregation.finish(results)
    assert finished[-1] == "observability"
    assert sorted(finished) == sorted(entry.name for entry in aggregators)
    assert timeless(given) == timeless(aggregate_stream(run, results))


class _Noting:
    """An accumulator that notes when it finishes."""

    def __init__(self, inner: Any, name: str, finished: list[str]) -> None:
        self.inner, self.name, self.finished = inner, name, finished

    def add(self, result: CaseResult) -> None:
        self.inner.add(result)

    def finish(self) -> object:
        self.finished.append(self.name)
        return self.inner.finish()


def test_no_section_without_results() -> None:
    ctx = AggregateContext(ScoringConfig(), source=[])
    for name in ("aggregate_metrics", "observability", "robustness", "judge", "safe_v0"):
        assert fold(accumulators.get(name)(ctx), []) is None, name


@pytest.mark.parametrize("limit", [0, 1, 5, 40])
def test_top_n_keeps_the_smallest_in_arrival_order_among_ties(limit: int) -> None:
    rng = random.Random(limit)
    items = [(rng.randint(0, 9), i) for i in range(300)]
    top = TopN(limit, key=lambda item: item[0])
    for item in items:
        top.add(item)
    assert top.items() == sorted(items, key=lambda item: item[0])[:limit]


def geometry_ctx(results: list[CaseResult], **probe: Any) -> AggregateContext:
    return AggregateContext(ScoringConfig(probe=ProbeSettings(**probe)), source=results)


def geometry_of(results: Iterable[CaseResult], ctx: AggregateContext) -> Observability:
    section = fold(accumulators.get("observability")(ctx), results)
    assert isinstance(section, Observability)
    return section


def test_a_run_larger_than_the_sample_assigns_every_case_to_a_cluster() -> None:
    results = geometry_fixture(80)  # 240 cases over three topics
    ctx = geometry_ctx(results, geometry_vocab_sample=100, geometry_silhouette_sample=60)
    section = geometry_of(results, ctx)
    assert section.n == len(results)
    assert sum(c.size for c in section.clusters) == len(results)
    assert section.method is not None
    assert section.method.tfidf.fitted_on_cases == 100
    assert section.method.assigned is not None
    assert section.method.assigned.cases == len(results)
    assert len(section.clusters) == 3
    for cluster in section.clusters:
        assert cluster.dominant_category_share == 1.0
        assert cluster.size == 80
    assert section.mutual_information is not None
    assert section.mutual_information.normalized["category"] == pytest.approx(1.0)


def test_past_the_sample_every_case_has_its_point_up_to_the_points_bound() -> None:
    results = geometry_fixture(80)
    ctx = geometry_ctx(results, geometry_vocab_sample=100, geometry_silhouette_sample=60)
    section = geometry_of(results, ctx)
    assert [(p.suite, p.case_id, p.sample) for p in section.points] == [r.key for r in results]
    sizes = Counter(p.cluster for p in section.points)
    assert sorted(sizes.values()) == sorted(c.size for c in section.clusters)


def test_past_the_points_bound_a_seeded_sample_of_cases_has_a_point(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(geometry_stream, "POINTS", 50)
    results = geometry_fixture(80)
    ctx = geometry_ctx(results, geometry_vocab_sample=100, geometry_silhouette_sample=60)
    section = geometry_of(results, ctx)
    keys = [(p.suite, p.case_id, p.sample) for p in section.points]
    assert len(set(keys)) == 50
    assert keys == [r.key for r in results if r.key in set(keys)]  # in the run's order
    assert max(results.index(r) for r in results if r.key in set(keys)) >= 50  # not the first 50
    assert section == geometry_of(results, ctx)


def test_the_sampled_geometry_finds_the_clusters_of_the_whole_run_embedded_at_once() -> None:
    results = geometry_fixture(80)
    probe = {"geometry_vocab_sample": 100, "geometry_silhouette_sample": 60}
    sampled = geometry_of(results, geometry_ctx(results, **probe))
    whole = whole_run_geometry(results, ProbeSettings(**probe))
    assert len(whole.points) == len(results)
    assert [(c.dominant_category, c.size) for c in sampled.clusters] == [
        (c.dominant_category, c.size) for c in whole.clusters
    ]


def test_the_sampled_geometry_is_deterministic() -> None:
    results = geometry_fixture(50)
    ctx = geometry_ctx(results, geometry_vocab_sample=100, geometry_silhouette_sample=60)
    assert geometry_of(results, ctx) == geometry_of(results, ctx)


def test_a_run_within_the_sample_is_embedded_whole() -> None:
    results = geometry_fixture(12)
    section = geometry_of(results, geometry_ctx(results))
    assert section == whole_run_geometry(results, ProbeSettings())
    assert len(section.points) == len(results)
    assert section.method is not None
    assert section.method.assigned is None
    assert "assigned" not in section.model_dump()["method"]


@pytest.mark.parametrize("in_memory", [0, 1, 149, 150])
def test_cases_kept_in_memory_or_in_a_file_give_the_same_section(
    in_memory: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    results = geometry_fixture(50)  # 150 cases, 100 of them the sample
    ctx = geometry_ctx(results, geometry_vocab_sample=100, geometry_silhouette_sample=60)
    held = geometry_of(results, ctx)
    files: list[object] = []
    made = geometry_stream.tempfile.TemporaryFile

    def counted(*args: Any, **kwargs: Any) -> Any:
        files.append(made(*args, **kwargs))
        return files[-1]

    monkeypatch.setattr(geometry_stream, "IN_MEMORY", in_memory)
    monkeypatch.setattr(geometry_stream.tempfile, "TemporaryFile", counted)
    again = geometry_ctx(results, geometry_vocab_sample=100, geometry_silhouette_sample=60)
    assert geometry_of(results, again) == held
    assert len(files) == (in_memory < len(results))


def test_past_the_sample_no_result_is_read_twice() -> None:
    """The assignment reads the cases kept as they came, not the results again."""
    results = geometry_fixture(50)
    once = iter(results)  # a source that can be read only once
    ctx = geometry_ctx(results, geometry_vocab_sample=100, geometry_silhouette_sample=60)
    ctx.source = once
    section = geometry_of(once, ctx)
    assert section.method is not None
    assert section.method.assigned is not None
    assert section.method.assigned.cases == sum(c.size for c in section.clusters)
    assert section.n == len(results) == 150
    again = geometry_ctx(results, geometry_vocab_sample=100, geometry_silhouette_sample=60)
    assert section == geometry_of(results, again)


@pytest.mark.parametrize(("cases", "memo"), [(12, 36), (50, 150), (50, 40), (50, 0)])
def test_documents_tokenized_as_they_come_give_the_same_section(cases: int, memo: int) -> None:
    results = geometry_fixture(cases)  # within the sample (36 cases) or past it (150)
    ctx = geometry_ctx(results, geometry_vocab_sample=100, geometry_silhouette_sample=60)
    tokens = TokenMemo(memo)  # every document, some of them, or none: the rest on demand
    accumulator = geometry_stream.GeometryAccumulator(ctx, tokens)
    assert fold(accumulator, results) == geometry_of(results, ctx)
    assert len(tokens.tokens) == min(memo, len({r.key for r in results}))
