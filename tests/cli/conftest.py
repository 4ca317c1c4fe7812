"""Fixtures: the fake OpenAI-compatible server on 127.0.0.1 (it counts the calls a command
made), and a working folder of its own."""

from tests.fakes.fixtures import fake_openai
from tests.fakes.workdir import workdir

__all__ = ["fake_openai", "workdir"]
