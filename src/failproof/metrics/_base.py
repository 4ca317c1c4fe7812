"""Aggregators: run-level sections of the report computed from all case results."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from failproof.config import Settings
from failproof.core import CaseResult
from failproof.registry import Registry

__all__ = ["AggregateContext", "Aggregator", "aggregators"]


@dataclass(frozen=True)
class AggregateContext:
    """What an aggregator may read besides the results: settings and suite weights."""

    settings: Settings
    suite_weights: dict[str, float]
    #: How many answers the run meant to collect (None: not recorded, nothing counts as missing).
    planned: int | None = None


#: An aggregator returns its report section (JSON-ready), or None to leave it out.
Aggregator = Callable[[Sequence[CaseResult], AggregateContext], "dict[str, Any] | None"]

#: Registered under the report key they fill: ``summary``, ``suites``, ``aggregate_metrics``, ...
aggregators: Registry[Aggregator] = Registry("aggregator")
