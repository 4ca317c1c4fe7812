"""Fixtures: synthetic reports that follow the DESIGN contract, a plain one and a hostile one."""

from __future__ import annotations

import pytest
from tests.report.hostile import hostile_report
from tests.report.synthetic import make_report

from failproof.report import Report


@pytest.fixture(scope="session")
def report() -> Report:
    return make_report(60, samples=1)


@pytest.fixture(scope="session")
def repeated_report() -> Report:
    return make_report(24, samples=3)


@pytest.fixture(scope="session")
def hostile() -> Report:
    return hostile_report()


@pytest.fixture(scope="session")
def bare_report() -> Report:
    """Only what a run always has: no aggregate, geometry, SAFE or extension section."""
    full = make_report(6)
    return Report(run=full.run, summary=full.summary, suites=full.suites, results=full.results)
