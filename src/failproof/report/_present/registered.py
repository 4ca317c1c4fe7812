"""Presenters of sections whose models live above the report (the judge's): their package
registers them by section name, and every renderer finds them here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from failproof.registry import Registry
from failproof.report._present.cases import CaseIndex
from failproof.report._present.extra import Extra

__all__ = ["SectionPresenter", "Terminal", "presenter_of", "presenters"]


@dataclass(frozen=True, slots=True)
class Terminal:
    """What a terminal shows of a section: a bold title and a few indented lines."""

    title: str
    lines: list[str]


@dataclass(frozen=True, slots=True)
class SectionPresenter:
    """How the report shows one section it cannot import; each part is optional, and each
    returns None (or no notes) when the data is not its section.

    ``extra``: its title, facts and tables (else it is drawn as generic tables); ``terminal``:
    its lines on the console; ``notes``: sentences among the run's notes."""

    extra: Callable[[str, object, CaseIndex], Extra | None] | None = None
    terminal: Callable[[object], Terminal | None] | None = None
    notes: Callable[[object], list[str]] | None = None


#: Section presenters by the name of the section they show.
presenters: Registry[SectionPresenter] = Registry("presenter")


def presenter_of(name: str) -> SectionPresenter | None:
    """The presenter registered for section ``name``, if any."""
    return presenters.get(name) if name in presenters else None
