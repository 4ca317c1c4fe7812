"""Fixtures of the CI tests: the scripted model server."""

from tests.fakes.fixtures import fake_openai

__all__ = ["fake_openai"]
