"""A Ray cluster that ``--executor ray`` starts itself listens on 127.0.0.1 only: a Ray cluster
runs whatever code it is sent, so it is never opened to the network unasked."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytest.importorskip("ray", reason="the ray extra is not installed: failproof[ray]")

pytestmark = pytest.mark.ray

START_OWN = """
from failproof.scale import import_ray
from failproof.scale._cluster import connected
from failproof.scale._spec import parse_executor
spec = parse_executor("ray", 1)
ray = import_ray(spec)
with connected(ray, spec):
    print(ray.get_runtime_context().gcs_address)
"""


def test_the_cluster_started_for_a_run_listens_on_loopback() -> None:
    env = {k: v for k, v in os.environ.items() if k != "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"}
    done = subprocess.run(
        [sys.executable, "-c", START_OWN], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1].startswith("127.0.0.1:")
