"""In a process the CLI owns, numpy loads with one OpenBLAS thread, and nothing else changes:
the environment its children inherit, a user's own thread setting, numpy's module, and a later
request for more threads (the geometry's ``geometry_threads``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from failproof.cli._blas import THREAD_VARIABLES

_PROBE = """
import json, os, subprocess, sys
from failproof.cli._blas import one_blas_thread_at_load
one_blas_thread_at_load()
import numpy
from threadpoolctl import threadpool_info, threadpool_limits
def threads():
    return [i["num_threads"] for i in threadpool_info() if i["internal_api"] == "openblas"]
at_load = threads()
with threadpool_limits(limits=2):
    raised = threads()
child = subprocess.run(
    [sys.executable, "-c", "import os; print(os.environ.get('OPENBLAS_NUM_THREADS'))"],
    capture_output=True, text=True, check=True,
).stdout.strip()
print(json.dumps({
    "at_load": at_load,
    "raised": raised,
    "environ": {name: os.environ.get(name) for name in %r},
    "child": child,
    "loader": type(numpy.__spec__.loader).__name__,
    "works": float(numpy.ones((3, 3)) @ numpy.ones(3) @ numpy.ones(3)),
}))
"""


def _probe(**environ: str) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k not in THREAD_VARIABLES} | environ
    done = subprocess.run(
        [sys.executable, "-c", _PROBE % (THREAD_VARIABLES,)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        env=env,
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


def _openblas_cores() -> int:
    return min(2, os.cpu_count() or 1)


def test_numpy_loads_with_one_blas_thread_and_leaves_the_environment_as_it_was() -> None:
    seen = _probe()
    if seen["at_load"] == []:
        pytest.skip("this numpy does not use OpenBLAS")
    assert seen["at_load"] == [1]
    assert seen["environ"] == dict.fromkeys(THREAD_VARIABLES)
    assert seen["child"] == "None"
    assert seen["works"] == 9.0


def test_the_geometry_can_still_ask_for_more_threads() -> None:
    seen = _probe()
    if seen["at_load"] == []:
        pytest.skip("this numpy does not use OpenBLAS")
    assert seen["raised"] == [_openblas_cores()]


def test_a_users_own_thread_setting_is_kept() -> None:
    seen = _probe(OPENBLAS_NUM_THREADS="2")
    if seen["at_load"] == []:
        pytest.skip("this numpy does not use OpenBLAS")
    assert seen["at_load"] == [_openblas_cores()]
    assert seen["child"] == "2"
    assert seen["loader"] != "_OneThreadLoader"
