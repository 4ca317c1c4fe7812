"""Every built-in section is closed: a key it does not declare (a misspelling) is an error, never
kept silently; and none is a mapping, so it is read by attribute."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from failproof import Report
from failproof.metrics import AggregateMetrics, Observability, Summary, aggregators
from failproof.metrics._base import section_models
from failproof.metrics._summary_section import SuiteRow
from failproof.report import renderers
from failproof.safe import SafeBatchReport

#: Where each core section of report.json is, and a key next to one of its own misspelled.
CORE = [
    pytest.param(("summary",), "pass_rat", id="summary"),
    pytest.param(("suites", "*"), "scor", id="suite-row"),
    pytest.param(("aggregate_metrics",), "failure_rat", id="aggregate_metrics"),
    pytest.param(("observability",), "cluster", id="observability"),
    pytest.param(("observability", "method"), "seeds", id="observability-method"),
    pytest.param(("safe_v0",), "pass_rate", id="safe_v0"),
    pytest.param((), "sumary", id="report"),
]


@pytest.fixture
def written(pinned_report: Report) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(renderers.get("json")().render(pinned_report))
    return data


def _inside(data: dict[str, Any], path: tuple[str, ...]) -> dict[str, Any]:
    for step in path:
        data = next(iter(data.values())) if step == "*" else data[step]
    return data


@pytest.mark.parametrize(("path", "misspelled"), CORE)
def test_a_core_section_refuses_a_key_it_does_not_declare(
    written: dict[str, Any], path: tuple[str, ...], misspelled: str
) -> None:
    Report.model_validate(written)  # as written, it reads back
    _inside(written, path)[misspelled] = 1
    with pytest.raises(ValidationError, match=rf"{misspelled}\n\s+Extra inputs are not permitted"):
        Report.model_validate(written)


def test_every_built_in_section_model_is_closed_and_no_mapping() -> None:
    list(aggregators)  # every built-in section's module imported: each declares its model
    core: list[type[BaseModel]] = [Summary, SuiteRow, AggregateMetrics, Observability]
    found = [*core, SafeBatchReport, *section_models.values()]
    names = {model.__name__ for model in found}
    assert names >= {"JudgeSection", "RubricSection", "RobustnessSection", "ConsistencySection"}
    for model in found:
        assert model.model_config.get("extra") == "forbid", model.__name__
        assert not issubclass(model, Mapping), model.__name__
