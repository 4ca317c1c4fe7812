"""``--executor`` and ``--workers``: where ``run`` and ``score`` do their work."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from failproof.runner._sharded import WorkExecutor

__all__ = ["ExecutorOpt", "WorkersOpt", "executor_from"]

ExecutorOpt = Annotated[
    str,
    typer.Option(
        "--executor",
        help="Where the work runs: local (this process); ray (shards on a local Ray cluster "
        "started for the run); ray:auto or ray:HOST:PORT (an existing cluster). "
        "Needs pip install 'failproof\\[ray]'.",
    ),
]
WorkersOpt = Annotated[
    int | None,
    typer.Option(
        "--workers", min=1, help="ray: shards at once (default: the machine's or cluster's CPUs)."
    ),
]


def executor_from(text: str, workers: int | None) -> WorkExecutor | None:
    """None for ``local``; Ray (and failproof.scale) is imported only when it is asked for."""
    if text == "local" and workers is None:
        return None
    from failproof.scale._executor import executor_for

    return executor_for(text, workers)
