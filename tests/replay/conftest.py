"""Fixtures: a working folder of its own."""

from tests.fakes.workdir import workdir

__all__ = ["workdir"]
