"""``--executor``: where a run's work goes, parsed once at the edge."""

from __future__ import annotations

import re
from dataclasses import dataclass

from failproof.errors import ConfigError

__all__ = ["ExecutorSpec", "parse_executor"]

_HOST_PORT = re.compile(r"(?P<host>[A-Za-z0-9.-]+|\[[0-9A-Fa-f:]+\]):(?P<port>[0-9]{1,5})")
_FORMS = "local, ray, ray:auto or ray:HOST:PORT"


@dataclass(frozen=True)
class ExecutorSpec:
    """``local`` (this process), or ``ray`` with an address (none: a local cluster started for
    the run, of ``workers`` CPUs); ``workers`` also caps the shards in flight."""

    kind: str = "local"
    address: str | None = None
    workers: int | None = None

    @property
    def host_port(self) -> tuple[str, int] | None:
        """The address as host and port, when it is one (``auto`` is not)."""
        match = _HOST_PORT.fullmatch(self.address or "")
        if match is None:
            return None
        return match["host"].strip("[]"), int(match["port"])


def parse_executor(text: str, workers: int | None = None) -> ExecutorSpec:
    """``local``, ``ray``, ``ray:auto`` or ``ray:HOST:PORT``; anything else is a `ConfigError`."""
    kind, _, address = text.strip().partition(":")
    if kind == "local" and not address:
        if workers is not None:
            raise ConfigError("--workers applies to --executor ray", hint="drop --workers")
        return ExecutorSpec()
    if kind != "ray":
        raise ConfigError(f"unknown executor {text!r}", hint=f"use {_FORMS}")
    if not address:
        return ExecutorSpec("ray", None, workers)
    spec = ExecutorSpec("ray", address, workers)
    if address != "auto" and (spec.host_port is None or not 0 < spec.host_port[1] < 65536):
        raise ConfigError(
            f"bad Ray address {address!r}: expected auto or HOST:PORT", hint=f"use {_FORMS}"
        )
    return spec
