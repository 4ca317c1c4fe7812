"""Fixtures: the scripted judge, a fake OpenAI-compatible server on 127.0.0.1."""

from tests.fakes.fixtures import fake_openai

__all__ = ["fake_openai"]
