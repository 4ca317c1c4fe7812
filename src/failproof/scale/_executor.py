"""The executor ``--executor`` names."""

from __future__ import annotations

from failproof.runner._sharded import WorkExecutor
from failproof.scale._ray import RayExecutor
from failproof.scale._spec import parse_executor

__all__ = ["executor_for"]


def executor_for(text: str, workers: int | None = None) -> WorkExecutor | None:
    """The executor ``--executor TEXT`` names: None for ``local`` (the run's own engine)."""
    spec = parse_executor(text, workers)
    return None if spec.kind == "local" else RayExecutor(spec)
