"""The renderers over a report whose sections come from every registered aggregator."""

from __future__ import annotations

import pytest
from tests.report.page import parse
from tests.report.synthetic import make_report, make_results

from failproof.config import Settings
from failproof.report import Report, build_report, renderers
from failproof.report._present.cases import CaseIndex
from failproof.report._present.geometry import clusters
from failproof.report._present.headline import headline
from failproof.report._present.safe import safe_view


@pytest.fixture(scope="module")
def built() -> Report:
    shape = make_report(40)
    return build_report(shape.run, make_results(40), Settings())


def test_every_core_section_is_read(built: Report) -> None:
    keys = {s.key for s in headline(built)}
    present = {"overall_run_score", "weighted_run_score"}
    if built.aggregate_metrics:
        present |= {"pass_rate", "resilience_index", "exposure_index"}
    assert present <= keys
    if built.observability:
        assert clusters(built, CaseIndex(built))
    if built.safe_v0:
        view = safe_view(built, CaseIndex(built))
        assert view is not None and view.labels and view.worst


def test_scatter_points_reach_the_page(built: Report) -> None:
    if not built.observability:
        pytest.skip("no observability aggregator registered")
    data = parse(renderers.get("html")().render(built)).data()
    x = list(data["fields"]).index("x")
    assert all(row[x] is not None for row in data["cases"])


@pytest.mark.parametrize("name", renderers.names())
def test_each_renderer_draws_the_real_report(built: Report, name: str) -> None:
    assert renderers.get(name)().render(built)
