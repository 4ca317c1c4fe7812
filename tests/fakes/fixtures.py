"""Pytest fixtures around the fake OpenAI-compatible server."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tests.fakes.openai_server import FakeOpenAI, ServerThread


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    """A scripted OpenAI-compatible server on 127.0.0.1; set ``.script`` / ``.default``."""
    with ServerThread(FakeOpenAI()) as fake:
        yield fake
