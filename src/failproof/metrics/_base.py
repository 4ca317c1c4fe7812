"""Aggregators: run-level sections of the report computed from all case results."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from failproof.config import SafeConfig, ScoringConfig, Settings
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
    settings, suite weights). ``planned`` is how many answers the run meant to collect (None:
    not recorded, nothing counts as unanswered). ``source`` re-reads the results (second passes
    of accumulators).
    """

    __slots__ = ("planned", "scoring", "source")

    def __init__(
        self,
        scoring: ScoringConfig | None = None,
        *,
        planned: int | None = None,
        source: Iterable[CaseResult] | None = None,
    ) -> None:
        self.scoring: ScoringConfig = scoring if scoring is not None else ScoringConfig()
        self.planned = planned
        #: The run's results again, in report order, for an accumulator that needs a second pass
        #: (a list, or a store's `StoredResults`); None outside `aggregate_run`.
        self.source = source

    def reading(self, source: Iterable[CaseResult]) -> AggregateContext:
        """This context with ``source`` as the results' second pass."""
        return AggregateContext(self.scoring, planned=self.planned, source=source)


def context_for(run: Run, fallback: Settings | None = None) -> AggregateContext:
    """The aggregation context of ``run``: its recorded scoring (`ScoringConfig.of_run`), or
    for a run made before records, what `before_records` makes of it."""
    recorded = ScoringConfig.of_run(run.config) or before_records(run.config, fallback)
    planned = run.config.get("planned")
    return AggregateContext(recorded, planned=planned if isinstance(planned, int) else None)


def before_records(config: Mapping[str, Any], fallback: Settings | None) -> ScoringConfig:
    """The scoring of a run made before runs recorded theirs: ``fallback`` (else the defaults),
    with what the run kept itself: its suite weights, and the SAFE config among its scorers'
    parameters."""
    record = ScoringConfig.from_settings(fallback) if fallback else ScoringConfig()
    weights = config.get("suite_weights")
    kept: dict[str, object] = {"safe": _stored_safe(config.get("scorers"))}
    if isinstance(weights, Mapping):
        kept["suite_weights"] = dict(weights)
    return record.model_copy(update=kept)


def _stored_safe(specs: object) -> SafeConfig | None:
    """The SAFE config a run made before records kept in its ``safe_v0`` scorer's spec."""
    for spec in specs if isinstance(specs, list) else ():
        params = spec.get("params") if isinstance(spec, Mapping) else None
        stored = params.get("config") if isinstance(params, Mapping) else None
        if isinstance(stored, Mapping) and spec.get("name") == "safe_v0":
            return SafeConfig.model_validate(stored)
    return None


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
