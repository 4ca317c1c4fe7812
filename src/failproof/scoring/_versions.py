"""The installed versions of what scores a response, as a run records them."""

from __future__ import annotations

import functools
import hashlib
from importlib import resources

from failproof._version import __version__
from failproof.config._record import Versions

__all__ = ["installed_versions"]


@functools.cache
def installed_versions() -> Versions:
    """failproof's version, the built-in signal library's digest and the refusal model's digest."""
    from failproof.signals._cache import builtin_library  # no matcher engine here

    model = resources.files("failproof.detect").joinpath("data/refusal_model.json")
    return Versions(
        failproof=__version__,
        signal_library=builtin_library().digest,
        refusal_model=hashlib.sha256(model.read_bytes()).hexdigest()[:16],
    )
