"""Aggregators: run-level sections of the report computed from all case results."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from failproof.config import ScoringConfig, Settings
from failproof.core import CaseResult, Run
from failproof.registry import Registry

__all__ = [
    "AggregateContext",
    "Aggregator",
    "aggregators",
    "context_for",
    "declare_section",
    "section_models",
]


class AggregateContext:
    """What an aggregator may read besides the results: the run's scoring record.

    ``scoring`` is the record stored with the run (penalties, latency budget, probe and SAFE
    settings, suite weights); ``legacy_scorers`` the scorer specs of a run made before records.
    ``planned`` is how many answers the run meant to collect (None: not recorded, nothing
    counts as unanswered). ``source`` re-reads the results (second passes of accumulators).
    """

    __slots__ = ("legacy_scorers", "planned", "scoring", "source")

    def __init__(
        self,
        scoring: ScoringConfig | None = None,
        legacy_scorers: Sequence[Mapping[str, Any]] = (),
        *,
        planned: int | None = None,
        source: Iterable[CaseResult] | None = None,
    ) -> None:
        self.scoring: ScoringConfig = scoring if scoring is not None else ScoringConfig()
        self.legacy_scorers: tuple[Mapping[str, Any], ...] = tuple(legacy_scorers)
        self.planned = planned
        #: The run's results again, in report order, for an accumulator that needs a second pass
        #: (a list, or a store's `StoredResults`); None outside `aggregate_run`.
        self.source = source


def context_for(run: Run, fallback: Settings | None = None) -> AggregateContext:
    """The aggregation context of ``run``: its recorded scoring (`ScoringConfig.of_run`).

    A run made before scoring records has none; ``fallback`` (else the defaults) stands in,
    with the suite weights the run kept.
    """
    recorded = ScoringConfig.of_run(run.config)
    if recorded is None:
        recorded = ScoringConfig.from_settings(fallback) if fallback else ScoringConfig()
        weights = run.config.get("suite_weights")
        if isinstance(weights, Mapping):
            recorded = recorded.model_copy(update={"suite_weights": dict(weights)})
    specs = run.config.get("scorers")
    legacy = tuple(s for s in specs if isinstance(s, Mapping)) if isinstance(specs, list) else ()
    planned = run.config.get("planned")
    return AggregateContext(recorded, legacy, planned=planned if isinstance(planned, int) else None)


#: The model each plugin section is validated into, by aggregator name (`declare_section`).
section_models: dict[str, type[BaseModel]] = {}


def declare_section(name: str, model: type[BaseModel]) -> None:
    """Declare the type of aggregator ``name``'s section: the report holds it as ``model``."""
    section_models[name] = model


#: An aggregator returns its report section (its model; a plugin's may be a JSON-ready mapping),
#: or None to leave it out. A built-in one is its accumulator folded over the list (`folded`).
Aggregator = Callable[[Sequence[CaseResult], AggregateContext], object]

#: Registered under the report key they fill: ``summary``, ``suites``, ``aggregate_metrics``, ...
aggregators: Registry[Aggregator] = Registry("aggregator")
