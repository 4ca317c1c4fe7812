"""What building a large report loads on first use, loaded ahead: a run does it while it waits for
its first answers, so that its report does not wait for it."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pydantic import BaseModel

__all__ = ["ENTRIES_PER_CASE", "LARGE_REPORT", "is_large", "prepare_report"]

#: About how many stored entries one case adds to the geometry's TF-IDF matrix.
ENTRIES_PER_CASE = 60
#: Cases from which a report is large: its geometry's TF-IDF matrix holds about 20,000 entries or
#: more, and what it loads (numpy, scipy's sparse loops, the sections' models) is loaded ahead,
#: while a run waits for answers (in a process of its own for a run's geometry). Set where
#: importing ``scipy.sparse`` for the products began to pay; kept there since they need only its
#: loops (`failproof.metrics._geometry_csr.SCIPY_FROM`), not re-measured for what else it decides.
LARGE_REPORT = 334


def is_large(cases: int) -> bool:
    """Whether a report of ``cases`` cases is large (see `LARGE_REPORT`): its geometry will use
    numpy and scipy's loops, worth loading ahead."""
    return cases >= LARGE_REPORT


def prepare_report(cases: int, *, geometry: bool = True) -> None:
    """For a large report of ``cases`` cases, build every section's model (each is built on
    first use) and load scipy's sparse loops, unless its ``geometry`` is computed elsewhere. A
    smaller report may need neither the loops nor some of the models: its few milliseconds of
    building are left to it."""
    if not is_large(cases):
        return
    from failproof.core._sections import Section
    from failproof.report._model import Report

    models: list[type[BaseModel]] = [Report, *_subclasses(Section)]
    for model in models:
        if not model.__pydantic_complete__:
            model.model_rebuild()
    if geometry:  # scipy's sparse loops (the run's own thread loaded numpy first)
        from failproof.metrics._geometry_csr import load_kernels

        load_kernels()


def _subclasses(base: type[BaseModel]) -> list[type[BaseModel]]:
    """Every subclass of ``base`` defined so far, at any depth."""
    found, todo = [], list(base.__subclasses__())
    while todo:
        model = todo.pop()
        found.append(model)
        todo.extend(model.__subclasses__())
    return found
