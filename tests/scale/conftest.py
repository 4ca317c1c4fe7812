"""Fixtures: one real local Ray cluster of two workers for the session, the fake server on
127.0.0.1, and a working folder of its own."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator

import pytest
from tests.fakes.fixtures import fake_openai
from tests.fakes.workdir import workdir

__all__ = ["fake_openai", "ray_cluster", "workdir"]

# Ray binds to the machine's outward address unless told, before it is imported, that its
# cluster is a single machine. This file is imported before any test module here (some import
# ray as they are collected), so every port the tests' cluster opens is on 127.0.0.1.
SINGLE_MACHINE = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"
os.environ[SINGLE_MACHINE] = "0"


@pytest.fixture(scope="session")
def ray_cluster() -> Iterator[str]:
    """A local Ray cluster with two worker CPUs (shut down at the end); gives its address,
    which is on 127.0.0.1 (see ``SINGLE_MACHINE``)."""
    ray = pytest.importorskip("ray", reason="the ray extra is not installed: failproof[ray]")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    try:
        address = str(ray.get_runtime_context().gcs_address)
        assert address.startswith("127.0.0.1:"), address
        yield address
    finally:
        ray.shutdown()
