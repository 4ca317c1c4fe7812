"""What an attack does: the suites, target, attacker, strategy and budget; stored for resume."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from failproof.attack._strategy import StrategyOptions
from failproof.core import Suite
from failproof.guard._json import JsonObject
from failproof.suites import Selection, load_suites, select_cases

__all__ = ["AttackRequest", "Prices"]


class Prices(BaseModel):
    """Prices per million tokens, for the cost estimate (none: no cost is shown)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    target_in: float | None = Field(default=None, ge=0, description="Target prompt tokens.")
    target_out: float | None = Field(default=None, ge=0, description="Target completion tokens.")
    attacker_in: float | None = Field(default=None, ge=0, description="Attacker prompt tokens.")
    attacker_out: float | None = Field(
        default=None, ge=0, description="Attacker completion tokens."
    )


@dataclass(frozen=True)
class AttackRequest:
    """Everything that defines an attack; ``*_options`` must never hold a secret."""

    suites: tuple[str, ...]
    target: str
    attacker: str
    strategy: str
    budget: int = 20
    seed: int = 0
    token_budget: int | None = None
    prices: Prices = field(default_factory=Prices)
    target_options: Mapping[str, Any] = field(default_factory=dict)
    attacker_options: Mapping[str, Any] = field(default_factory=dict)
    options: StrategyOptions = field(default_factory=StrategyOptions)
    selection: Selection = field(default_factory=Selection)

    def to_config(self) -> JsonObject:
        return {
            "suite_sources": list(self.suites),
            "target_spec": self.target,
            "attacker_spec": self.attacker,
            "strategy": self.strategy,
            "budget": self.budget,
            "seed": self.seed,
            "token_budget": self.token_budget,
            "prices": self.prices.model_dump(),
            "target_options": dict(self.target_options),
            "attacker_options": dict(self.attacker_options),
            "strategy_options": self.options.model_dump(mode="json"),
            "selection": None if self.selection.empty else self.selection.to_config(),
        }

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> AttackRequest:
        return cls(
            suites=tuple(config["suite_sources"]),
            target=str(config["target_spec"]),
            attacker=str(config["attacker_spec"]),
            strategy=str(config["strategy"]),
            budget=int(config["budget"]),
            seed=int(config["seed"]),
            token_budget=config.get("token_budget"),
            prices=Prices.model_validate(config.get("prices") or {}),
            target_options=dict(config.get("target_options") or {}),
            attacker_options=dict(config.get("attacker_options") or {}),
            options=StrategyOptions.model_validate(config.get("strategy_options") or {}),
            selection=Selection.from_config(config.get("selection")),
        )

    def load(self) -> list[Suite]:
        """The suites, narrowed to the recorded selection (so a resume attacks the same cases)."""
        return select_cases(load_suites(self.suites), self.selection)
