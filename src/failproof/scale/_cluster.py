"""Ray, imported only when the Ray executor is used, and the cluster a run's shards go to."""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

from failproof.errors import ConfigError, MissingExtraError
from failproof.scale._spec import ExecutorSpec

__all__ = ["check_reachable", "connected", "import_ray"]


# Ray binds a cluster it starts to the machine's outward address unless it is told, before it
# is imported, that the cluster is this one machine: then every port it opens is on 127.0.0.1.
_SINGLE_MACHINE = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"


def import_ray(spec: ExecutorSpec | None = None) -> ModuleType:
    """The ``ray`` module; `MissingExtraError` (naming the extra) when it is not installed.

    When ``spec`` asks for a cluster started here (no address), that cluster stays on
    127.0.0.1: a Ray cluster runs any code sent to it, so it is not opened to the network
    unasked (a value the user set for the variable is kept).
    """
    if spec is not None and spec.address is None and "ray" not in sys.modules:
        os.environ.setdefault(_SINGLE_MACHINE, "0")
    try:
        import ray
    except ImportError:
        raise MissingExtraError("ray", "ray", "--executor ray") from None
    return ray


@contextmanager
def connected(ray: ModuleType, spec: ExecutorSpec) -> Iterator[int]:
    """Connect to the cluster ``spec`` names (none: start a local one, shut down at the end)
    and give the number of shards to run at once: ``spec.workers``, else the cluster's CPUs.

    A connection this process already has (``ray.init`` by the caller) is used as it is.
    """
    if ray.is_initialized():
        yield _slots(ray, spec)
        return
    _start(ray, spec)
    try:
        yield _slots(ray, spec)
    finally:
        with contextlib.suppress(Exception):  # a cluster that went away cannot say goodbye
            ray.shutdown()


def _start(ray: ModuleType, spec: ExecutorSpec) -> None:
    quiet = {"include_dashboard": False, "log_to_driver": False, "logging_level": logging.ERROR}
    if spec.address is None:
        ray.init(num_cpus=spec.workers or os.cpu_count() or 1, **quiet)
        return
    try:
        ray.init(address=spec.address, **quiet)
    except Exception as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ConfigError(
            f"cannot connect to the Ray cluster at {spec.address}: {first}",
            hint="check the address ('ray status' on the head node), or use --executor ray",
        ) from None


def check_reachable(spec: ExecutorSpec) -> None:
    """Fail in seconds, with one line, when nothing listens at HOST:PORT."""
    where = spec.host_port
    if where is None:
        return
    try:
        socket.create_connection(where, timeout=3).close()
    except OSError as exc:
        raise ConfigError(
            f"cannot reach the Ray cluster at {spec.address}: {exc.strerror or exc}",
            hint="start one with 'ray start --head' and give its address, or use --executor ray",
        ) from None


def _slots(ray: ModuleType, spec: ExecutorSpec) -> int:
    if spec.workers:
        return spec.workers
    return max(1, int(ray.cluster_resources().get("CPU", 1)))
