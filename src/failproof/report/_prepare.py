"""What building a report loads on first use, loaded ahead: a run does it while it waits for its
first answers, so that its report does not wait for it."""

from __future__ import annotations

from pydantic import BaseModel

from failproof.core._sections import Section
from failproof.metrics._geometry_csr import SCIPY_FROM, load_scipy
from failproof.report._model import Report

__all__ = ["ENTRIES_PER_CASE", "prepare_report"]

#: About how many stored entries one case adds to the geometry's TF-IDF matrix: a run of
#: ``SCIPY_FROM / ENTRIES_PER_CASE`` cases or more multiplies it with scipy.
ENTRIES_PER_CASE = 60


def prepare_report(cases: int) -> None:
    """Build the report's models (they are built on first use), and import scipy when a report
    of ``cases`` cases will use it for its geometry."""
    models: list[type[BaseModel]] = [Report, *_subclasses(Section)]
    for model in models:
        if not model.__pydantic_complete__:
            model.model_rebuild()
    if cases * ENTRIES_PER_CASE >= SCIPY_FROM:
        load_scipy()


def _subclasses(base: type[BaseModel]) -> list[type[BaseModel]]:
    """Every subclass of ``base`` defined so far, at any depth."""
    found, todo = [], list(base.__subclasses__())
    while todo:
        model = todo.pop()
        found.append(model)
        todo.extend(model.__subclasses__())
    return found
