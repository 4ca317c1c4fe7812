"""The scorer interface, the shared per-response evidence, and the scorer registry."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

from failproof.config import ScoringConfig
from failproof.core import Case, Response
from failproof.registry import Registry
from failproof.scoring._result import ScoreResult

__all__ = ["Evidence", "Scorer", "scorers"]

T = TypeVar("T")


class Evidence:
    """Analysis of one response shared by every scorer, each piece computed once on first need.

    The signal scan lives here so that the classifier, the probe scorer and the refusal decision
    all read one scan of the text: ``evidence.memo("signals", lambda: matcher.scan(text))``.
    """

    def __init__(self, response: Response) -> None:
        self.response = response
        self._memo: dict[str, Any] = {}

    def memo(self, key: str, compute: Callable[[], T]) -> T:
        """The value under ``key``, computing it with ``compute`` the first time."""
        memo = self._memo
        if key in memo:
            found: T = memo[key]
            return found
        value = memo[key] = compute()
        return value


class Scorer(ABC):
    """A pure, deterministic function of (case, response) -> `ScoreResult`.

    The result's ``classification``, ``accuracy``, ``case_score`` and ``safe_v0`` are set on the
    `CaseResult`; its ``record`` and ``extra`` are kept under ``scores[name]``.
    """

    name: ClassVar[str] = "scorer"

    def __init__(self, config: ScoringConfig) -> None:
        """``config`` is the run's scoring record: everything a score may depend on."""
        self.config = config

    @classmethod
    def wanted(cls, config: ScoringConfig) -> bool:  # noqa: ARG003
        """Whether a run scored under ``config`` needs this scorer at all (built only then)."""
        return True

    def applies_to(self, case: Case) -> bool:  # noqa: ARG002
        """Whether this scorer has anything to say about ``case``."""
        return True

    @abstractmethod
    def score(self, case: Case, response: Response, evidence: Evidence) -> ScoreResult:
        """Score one response. Must not raise on any output text."""

    @property
    def blocking(self) -> bool:
        """Whether `score` waits on I/O (an LLM judge): the runner then scores in threads of
        its own process, never in worker processes."""
        return False

    def close(self) -> None:
        """Release what the scorer holds (connections, threads) once scoring is over."""
        return

    def params(self) -> dict[str, Any]:
        """The settings this scorer used, recorded in the run so it can be re-created."""
        return {}

    def spec(self) -> dict[str, Any]:
        return {"name": self.name, "params": self.params()}


scorers: Registry[type[Scorer]] = Registry("scorer")
